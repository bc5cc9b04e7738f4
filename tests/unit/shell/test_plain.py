"""The plain-line fast path builds exactly the model the shell analyser builds."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.engine.policy import load_policy
from policylang.shell import parse as parse_module
from policylang.shell._exposure import may_substitute
from policylang.shell.model import CommandLine, Limits
from policylang.shell.parse import analyse, parse_command
from policylang.shell.plain import plain_line
from policylang.shell.wrappers import WrapperTable

ROOT = Path(__file__).resolve().parents[3]
CORPORA = ROOT.parent / "shared" / "corpora"
WRAPPERS = load_policy(check=False).compiled.wrappers


def _same(fast: CommandLine, text: str) -> None:
    """`fast` equals the analyser's model of `text`, spans included.

    A line that may substitute (a quoted `$(`, a CR …) never takes the fast path
    (`parse_command` sends it to the analyser and its safety net), so it is not compared.
    """
    if may_substitute(text):
        return
    full = analyse(text, wrappers=WRAPPERS)
    assert fast == full, text
    assert [s.span for s in fast.segments] == [s.span for s in full.segments], text
    for mine, theirs in zip(fast.segments, full.segments, strict=True):
        assert [w.span for w in mine.words] == [w.span for w in theirs.words], text


@pytest.mark.parametrize(
    "text",
    [
        "ls -la",
        "  git  status  ",
        "make test && make lint || echo failed; date",
        "ls;",
        "a|b",
        "cat a | grep -n x | sort | uniq -c && echo done-ish",
        "a | b; c | d && e",
        "grep -rn 'a b' \"c d\" src",
        "find . -name '*.py' -newer x'y'\"z\"",
        "echo '' \"\" '{print $1}' \"#x\" 'a|b;c&&d'",
        "dd if=a of=b bs=1M",
        "git log --format='%H %s' -5",
        # tilde and glob words carry the analyser's expansions
        "cat ~/.ssh/id_rsa",
        "ls *.py src/*/[a-c]?.txt",
        "ls ~ x~ a=~/b a:~/c '~'/x \"*\" '*'x* [ab [] ]x",
        "find . -name *.py -o -path ~/x | xargs rm -- ~/y*",
        "''",
        # wrappers that run a plain command are seen through as the analyser does
        "sudo ls",
        "/usr/bin/sudo -u root ls",
        "env -i PATH=/tmp A=1 ls",
        "timeout 5 rm -rf /",
        "nice -n 1 nohup make",
        "find . | xargs grep -n TODO | sort",
    ],
)
def test_plain_lines_match_the_analyser(text: str) -> None:
    fast = plain_line(text, wrappers=WRAPPERS)
    assert fast is not None
    _same(fast, text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "echo $HOME",
        "~/bin/tool x",  # a command name that is a pattern
        "*.sh",
        "echo {a,b}",
        "ls # comment",
        "ls > out",
        "cat < in",
        "sleep 1 &",
        "a |& b",
        "a |",
        "a &&",
        "&& a",
        "; a",
        "a ;; b",
        "a\tb",
        "a\nb",
        "ls \\-la",
        'echo "$x"',
        'echo "a\\b"',
        "echo 'unterminated",
        "A=1 ls",
        "PATH=/tmp ls",
        "bash -c ls",  # a shell string needs the analyser
        "sudo bash -c ls",
        "xargs sh -c x",
        "sudo",  # a wrapper with no command
        "env",
        "command -v ls",
        "sudo export A=1",
        "export A=1",
        ". ./env",
        "eval ls",
        "exec ls",
        "time ls",
        "ls; fi",
        "echo done",
        "'if' x",
        "if'x' y",  # tree-sitter reads the keyword, bash the word `ifx`
        "1@",  # tree-sitter misreads these command names
        "a% b",
        "- 00=",
        "x ==",
        "(ls)",
        "echo [ ]",  # tree-sitter joins these into one word (bash does not)
        "cat x ] ]]x",
        "echo é",
        "x" * 2000,
        " && ".join(["ls"] * 40),
    ],
)
def test_other_lines_are_left_to_the_analyser(text: str) -> None:
    assert plain_line(text, wrappers=WRAPPERS) is None


def test_wrappers_come_from_the_policy() -> None:
    bare = plain_line("sudo ls", wrappers=WrapperTable())
    assert bare is not None
    assert bare.segments[0].wrapped is None
    seen = plain_line("sudo ls", wrappers=WRAPPERS)
    assert seen is not None
    wrapped = seen.segments[0].wrapped
    assert wrapped is not None
    assert [w.value for w in wrapped.words] == ["ls"]


_VOCABULARY = (
    "ls", "git", "status", "-la", "--x=1", "a=b", "A=1", "sudo", "env", "if", "done",
    "time", "export", "cd", ".", "..", "-", "--", "%1", "x,y", "a:b", "@", "+x", "''",
    '""', "'*'", "\"a b\"", "x'y'", "!", "$x", "~", "*", "{a,b}", "#", "\\x",
)  # fmt: skip
_WORDS = st.one_of(
    st.sampled_from(_VOCABULARY),
    st.from_regex(r"[A-Za-z0-9_./:,@%+=~*?\[\]-]{1,6}", fullmatch=True),
    st.from_regex(r"'[ -&(-~]{0,5}'", fullmatch=True),
    st.from_regex(r'"[ -~]{0,5}"', fullmatch=True),
)
_GLUE = st.sampled_from([" ", "  ", " && ", "||", " | ", "|", "; ", ";", " & ", ";;", "\t", ""])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_WORDS, _GLUE), min_size=1, max_size=8), st.sampled_from(["", " ", ";"]))
def test_generated_plain_lines_match_the_analyser(parts: list[tuple[str, str]], end: str) -> None:
    text = "".join(word + glue for word, glue in parts)[:-1] + end
    fast = plain_line(text, wrappers=WRAPPERS)
    if fast is not None:
        _same(fast, text)


def test_corpus_plain_lines_match_the_analyser() -> None:
    if not CORPORA.is_dir():
        pytest.skip("../shared/corpora is absent: the corpus comparison needs it")
    checked = 0
    for name in ("tldr.tsv", "nl2bash.tsv", "codex_cases.tsv"):
        lines = (CORPORA / name).read_text(encoding="utf-8").splitlines()
        column = lines[0].split("\t").index("command")
        for line in lines[1::3]:  # every third line keeps this test fast
            fields = line.split("\t")
            if len(fields) <= column:
                continue
            fast = plain_line(fields[column], wrappers=WRAPPERS)
            if fast is not None and not may_substitute(fields[column]):
                _same(fast, fields[column])
                checked += 1
    assert checked > 5000


def test_short_lines_over_the_whole_alphabet_match_the_analyser() -> None:
    # every one- and two-character combination of the plain alphabet and quotes, in
    # command and argument position, next to each operator: where tree-sitter misreads
    # (`a@`, `x ==`), the fast path must have declined
    alphabet = "A0_./:,@%+=-'\"~*?[]"
    before = ("", "a", "1", "x ", "echo ", "ls | ", "a; ", '"a"', "'", "x -", "x=", "a&&", "x [ ")
    after = ("", " x", "b", "1", " | c", ";", "'", " -", "=", " ==", "&&b", "||b", " ]", " ]]x")
    checked = 0
    for size in (1, 2):
        for combo in itertools.product(alphabet, repeat=size):
            for head in before:
                for tail in after:
                    text = head + "".join(combo) + tail
                    fast = plain_line(text, wrappers=WRAPPERS)
                    if fast is not None:
                        _same(fast, text)
                        checked += 1
    assert checked > 5000


def test_parse_command_takes_the_fast_path_and_agrees_with_the_analyser() -> None:
    text = "git status && ls -la src | wc -l"
    assert plain_line(text, wrappers=WRAPPERS) is not None
    assert parse_command(text, wrappers=WRAPPERS) == analyse(text, wrappers=WRAPPERS)


def test_the_fast_path_respects_the_limits() -> None:
    text = " && ".join(["ls"] * 5)
    assert plain_line(text, wrappers=WRAPPERS) is not None
    few = Limits(max_segments=3)
    line = parse_command(text, limits=few, wrappers=WRAPPERS)
    assert [p.code for p in line.problems] == ["shell.limit-segments"]
    short_limit = Limits(max_length=10)
    line = parse_command(text, limits=short_limit, wrappers=WRAPPERS)
    assert [p.code for p in line.problems] == ["shell.limit-length"]


def test_nested_shell_strings_take_the_fast_path_with_the_same_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `bash -c 'PLAIN'` re-parses PLAIN; the fast path must give the analyser's model,
    # with the nested line's context, depth and anchor
    texts = ["ls -la", "make test && make lint", "a | b | c", "sudo ls", "git log -5; date"]
    if CORPORA.is_dir():
        lines = (CORPORA / "tldr.tsv").read_text(encoding="utf-8").splitlines()
        column = lines[0].split("\t").index("command")
        texts += [
            f[column]
            for f in (line.split("\t") for line in lines[1::7])
            if len(f) > column and not set("'\"\\$`") & set(f[column])
        ]
    wrapped = [f"timeout 5 bash -c '{text}' && bash -c 'sh -c \"{text}\"'" for text in texts]
    fast = [parse_command(w, wrappers=WRAPPERS) for w in wrapped]
    monkeypatch.setattr(parse_module, "plain_line", lambda text, wrappers: None)
    full = [parse_command(w, wrappers=WRAPPERS) for w in wrapped]
    for text, mine, theirs in zip(wrapped, fast, full, strict=True):
        assert mine == theirs, text
    assert len(wrapped) > 1000 or not CORPORA.is_dir()


def test_nested_fast_path_respects_the_segment_limit() -> None:
    text = "bash -c '" + " && ".join(["ls"] * 5) + "'"
    line = parse_command(text, limits=Limits(max_segments=4), wrappers=WRAPPERS)
    assert "shell.limit-segments" in [p.code for p in line.problems]
