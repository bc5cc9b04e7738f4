"""Where bash rejects a line, the analyser reports a problem: tree-sitter must not fail open.

tree-sitter-bash accepts some lines bash rejects (`ls;; sudo id`, `ls; fi`, `{ls;}`,
`if a; then b; else fi`, `case x in x) ls esac`), and reads their words as commands the
engine would then judge on their own. The hostile spellings below were found by comparing
the analyser with `bash -n` (policylang.testing.bashcheck.syntax_ok, which only parses);
each must be a `shell.syntax-mismatch` problem, and each valid neighbour must stay clean.
"""

from __future__ import annotations

import random

import pytest

from policylang.shell.model import Scope
from policylang.shell.parse import parse_command
from policylang.testing.bashcheck import bash_available, syntax_ok

# bash rejects every one of these; tree-sitter reports no error on any of them
REJECTED = (
    "ls ;;",
    "ls;;sudo id",
    "echo a;; echo b",
    "{ ls;;}",
    "if a; then ls; fi;;",
    "fi",
    "ls; fi",
    "fi; ls",
    "ls; done",
    "then",
    "ls; then ls",
    "esac",
    "do ls",
    "else",
    "elif",
    "in",
    "}",
    "ls; }",
    "ls & }",
    "ls && fi",
    "ls | }",
    "{ ls; }; }",
    "{ ls; } && }",
    "case x in x) ls;; esac; esac",
    "for x in a; do ls; done; done",
    "{ls;}",
    "f(){ls;}",
    "{ }",
    "{\n}",
    "f() { }",
    "if ls; then fi",
    "if a; then\nfi",
    "if ls; then ls; else fi",
    "if a; then b; elif c; then fi",
    "while ls; do done",
    "while a; do\ndone",
    "for x in a b; do done",
    "case x in x) ls esac",
    "coproc",
    "coproc ;",
    "coproc name { ls;; }",
    "coproc #x",
    "coproc ! ls",
    "coproc fi",
    "coproc ls do",
    "coproc coproc ls",
    "time &",
    "time | cat",
    "time fi",
    "time }",
    "time coproc",
    "time time elif",
    "! ! &",
    "ls;&>x",
    "ls <<< \nx",
    "ls >\nx",
    "<<<x a=1 # c\n function",
    "ls | \\  while read I; do mv x y; done",
    "ls || \\  if a; then b; fi",
    "echo =~ ;|}",
    "echo -f =~ $(]] esac ]]",
    "<<< 2>&1 function",
    "T = [> 2>&1 -f",
)

# bash accepts these neighbours; the analyser must not report anything
ACCEPTED = (
    "case x in x) ls;; esac",
    "case x in x) ls;;esac",
    "case x in x) ls;; y) ls; esac",
    "case x in x);; esac",
    "case x in x) esac",
    "case x in esac",
    "case x in x) (ls) esac",
    "case x in x) [[ x ]] esac",
    "case x in x) ls\nesac",
    "if ls; then ls; fi",
    "if ls; then ls & fi",
    "if ls\nthen ls\nfi",
    "{ ls;}",
    "{ ls&}",
    "{(ls);}",
    "{ ls # }\n}",
    "{ echo }; }",
    "f(){ ls; }",
    "for ((;;)) do ls; done",
    "while ls; do ls & done",
    "x=1 fi",
    "> x }",
    '"fi"',
    "\\}",
    "echo fi done esac } then",
    "coproc ls",
    "coproc worker { ls; }",
    "coproc ( ls )",
    "coproc w ( ls )",
    "coproc { ls; }; ls",
    "coproc time ls",
    "time { ls; }",
    "time -p ( ls )",
    "time -p -- ls",
    "time ! ls",
    "time if a; then b; fi",
    "time [[ x ]]",
    "time; ls",
    "! ! ls",
    "ls | \\\n cat",
    "ls \\  | cat",
    "ls # c\n x",
    "echo a =~ b",
    "x =~ $(rm y)",
    "[[ a =~ ;x ]]",
    "ls [> x",
    "ls 2>&1",
    "<<< x function",
)


def codes(text: str) -> set[str]:
    return {p.code for p in parse_command(text).problems}


@pytest.mark.parametrize("text", REJECTED)
def test_what_bash_rejects_is_a_problem(text: str) -> None:
    assert codes(text) & {"shell.syntax-mismatch", "shell.dropped-text", "shell.newline-mismatch"}


@pytest.mark.parametrize("text", ACCEPTED)
def test_valid_neighbours_stay_clean(text: str) -> None:
    assert codes(text) == set()


@pytest.mark.skipif(not bash_available(), reason="no bash on PATH to compare with")
def test_the_tables_agree_with_bash() -> None:
    verdicts = syntax_ok(REJECTED + ACCEPTED)
    wrong = [
        text
        for text, ok in zip(REJECTED + ACCEPTED, verdicts, strict=True)
        if ok != (text in ACCEPTED)
    ]
    assert not wrong, f"bash -n disagrees with the table on {wrong}"


# Token soup: keywords, operators and words in random order. Most of it is invalid bash,
# which is the point: wherever bash rejects a line, the analyser must report a problem.
_SOUP = (
    "ls", "x", ";", ";;", ";&", "&", "&&", "||", "|", "|&", "(", ")", "{", "}", "if",
    "then", "else", "elif", "fi", "while", "until", "do", "done", "for", "in", "case",
    "esac", "x)", "!", "[[", "]]", "((", "))", "\n", "coproc", "function", "f()", ">",
    "<", ">x", "<<<", "$(", "`", "select", "time", "{ls", "ls}", "\\ ", "a=1", "'a'",
    "$'\\\\'", "#",
)  # fmt: skip


def soup(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts: set[str] = set()
    while len(texts) < count:
        size = rng.randint(1, 7)
        texts.add("".join(rng.choice(_SOUP) + rng.choice((" ", " ", "")) for _ in range(size)))
    return sorted(t.strip(" ") for t in texts)


@pytest.mark.skipif(not bash_available(), reason="no bash on PATH to compare with")
def test_token_soup_bash_rejects_is_never_clean() -> None:
    # before the keyword checks, 37 of these 400 lines (330 rejected by bash) were clean
    texts = soup(7, 400)
    verdicts = syntax_ok(texts)
    fail_open = [t for t, ok in zip(texts, verdicts, strict=True) if not ok and not codes(t)]
    assert not fail_open, f"bash rejects, the analyser sees no problem: {fail_open[:10]}"


def test_a_command_after_a_stray_terminator_is_still_seen() -> None:
    line = parse_command("ls;;sudo id")
    assert [s.argv for s in line.segments] == [("ls",), ("sudo", "id")]
    assert [p.span.slice(line.text) for p in line.problems] == [";;"]


def test_the_problem_underlines_the_keyword() -> None:
    text = "case x in x) ls esac"
    assert [p.span.slice(text) for p in parse_command(text).problems] == ["esac"]
    text = "{ls;}"
    assert [p.span.slice(text) for p in parse_command(text).problems] == ["{"]
    text = "if a; then b; else fi"
    assert [p.span.slice(text) for p in parse_command(text).problems] == ["fi"]


@pytest.mark.parametrize(
    ("text", "argv", "scopes"),
    [
        ("coproc { rm -rf ~; }", [("rm", "-rf", None)], [(Scope.COPROC, Scope.GROUP)]),
        ("coproc w { rm x; ls; }", [("rm", "x"), ("ls",)], [(Scope.COPROC, Scope.GROUP)] * 2),
        ("coproc ( rm x )", [("rm", "x")], [(Scope.COPROC, Scope.SUBSHELL)]),
        ("coproc w ( rm x )", [("rm", "x")], [(Scope.COPROC, Scope.SUBSHELL)]),
        ("coproc rm x", [("rm", "x")], [(Scope.COPROC,)]),
        ("coproc w rm", [("w", "rm")], [(Scope.COPROC,)]),  # no compound: `w` is the command
        (
            "coproc while true; do rm x; done",
            [("true",), ("rm", "x")],
            [(Scope.COPROC, Scope.WHILE_CONDITION), (Scope.COPROC, Scope.LOOP_BODY)],
        ),
        ("coproc { coproc rm x; }", [("rm", "x")], [(Scope.COPROC, Scope.GROUP, Scope.COPROC)]),
    ],
)
def test_coproc_runs_its_command(
    text: str, argv: list[tuple[str | None, ...]], scopes: list[tuple[Scope, ...]]
) -> None:
    line = parse_command(text)
    assert line.problems == ()
    assert [s.argv for s in line.segments] == argv
    assert [s.scopes for s in line.segments] == scopes


def test_coproc_runs_in_its_own_group_and_the_list_goes_on() -> None:
    line = parse_command("coproc cd /tmp && rm x; ls")
    assert [s.argv for s in line.segments] == [("cd", "/tmp"), ("rm", "x"), ("ls",)]
    coproc, after, last = line.segments
    assert coproc.group != 0
    assert (after.group, last.group) == (0, 0)
    assert Scope.COPROC not in after.scopes


def test_coproc_inside_a_substitution_and_a_shell_string() -> None:
    line = parse_command("echo $(coproc { rm x; }) && bash -c 'coproc { rm y; }'")
    nested = line.segments[0].words[1].expansions[0].nested
    assert nested is not None
    assert [s.argv for s in nested.segments] == [("rm", "x")]
    shell = line.segments[1].wrapped
    assert shell is not None
    assert shell.nested is not None
    assert [s.argv for s in shell.nested.segments] == [("rm", "y")]


def test_coproc_with_a_name_that_is_not_plain_is_a_problem() -> None:
    line = parse_command("coproc $(id) { ls; }")
    assert "shell.syntax-mismatch" in {p.code for p in line.problems}


@pytest.mark.parametrize(
    ("text", "argv", "scopes"),
    [
        ("time { rm x; }", [("rm", "x")], [(Scope.TIME, Scope.GROUP)]),
        ("time -p ( rm x )", [("rm", "x")], [(Scope.TIME, Scope.SUBSHELL)]),
        ("time ! rm x", [("rm", "x")], [(Scope.TIME, Scope.NEGATION)]),
        ("! ! rm x", [("rm", "x")], [(Scope.NEGATION, Scope.NEGATION)]),
        ("time coproc rm x", [("rm", "x")], [(Scope.TIME, Scope.COPROC)]),
    ],
)
def test_prefix_keywords_are_not_command_names(
    text: str, argv: list[tuple[str | None, ...]], scopes: list[tuple[Scope, ...]]
) -> None:
    line = parse_command(text)
    assert line.problems == ()
    assert [s.argv for s in line.segments] == argv
    assert [s.scopes for s in line.segments] == scopes


def test_time_before_a_simple_command_stays_a_wrapper() -> None:
    segment = parse_command("time -p rm x").segments[0]
    assert segment.wrapped is not None
    assert [w.value for w in segment.wrapped.words] == ["rm", "x"]


def test_an_escaped_blank_where_a_command_starts_is_that_command() -> None:
    # bash runs the command ` ` with the argument `rm`; tree-sitter drops the `\ `
    for text in ("ls && \\  rm x", "\\ rm x", "( \\  rm x )", "if \\  a; then b; fi"):
        assert "shell.dropped-text" in codes(text), text


def test_a_quoted_coproc_is_a_command_word() -> None:
    segment = parse_command("'coproc' rm x").segments[0]
    assert Scope.COPROC not in segment.scopes
    assert segment.wrapped is not None
    assert [w.value for w in segment.wrapped.words] == ["rm", "x"]


@pytest.mark.parametrize(
    ("text", "argv"),
    [
        ("echo $'\\\\'; rm -rf ~; echo \\'", [("echo", "\\"), ("rm", "-rf", None), ("echo", "'")]),
        ("echo $'a\\\\' ; rm x ; echo $'b'", [("echo", "a\\"), ("rm", "x"), ("echo", "b")]),
        ("echo $'\\\\\\\\' x; rm y", [("echo", "\\\\", "x"), ("rm", "y")]),
        ("echo $'\\\\\\'' x; rm y", [("echo", "\\'", "x"), ("rm", "y")]),
        ("echo $'\\\\'$'\\\\'", [("echo", "\\\\")]),
        ("echo \"$'\\\\'\"; rm y", [("echo", "$'\\'"), ("rm", "y")]),  # not ANSI-C in "…"
    ],
)
def test_ansi_c_string_ends_where_bash_ends_it(
    text: str, argv: list[tuple[str | None, ...]]
) -> None:
    line = parse_command(text)
    assert line.problems == ()
    assert [s.argv for s in line.segments] == argv
