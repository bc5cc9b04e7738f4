"""Review BU1, BU2, BU3, BU5, BU7: redirects the model read differently from bash 5.2, so
that a word bash passes to the command was missing from the model's argv (or a word was
there that bash does not pass). Each form's argv is checked against a real bash, which
runs it with every command name defined as a function printing its argv."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from policylang.shell.model import Redirect, Segment, SegmentKind
from policylang.shell.parse import parse_command, walk

# the functions bash runs in place of the commands: each appends its name and arguments,
# NUL-separated and ended by \1, to the file $LOG (its output may be redirected or closed);
# any other name reaches `command_not_found_handle`
_NAMES = ("cat", "sed", "find", "sort", "git", "echo", "true", ":", "ls", "head")
_RECORD = 'printf \'%s\\0\' "$@" >>"$LOG"; printf \'\\1\' >>"$LOG"'
_PROLOGUE = (
    f"__record() {{ {_RECORD}; }}\n"
    + "".join(f'function {name} {{ __record {name} "$@"; }}\n' for name in _NAMES)
    + 'command_not_found_handle() { __record "$@"; }\n'
)

Argv = tuple[str | None, ...]


def _bash_argvs(line: str, cwd: Path) -> list[tuple[str, ...]]:
    bash = shutil.which("bash")
    assert bash is not None, "bash is needed for this test"
    log = cwd / "argv.log"
    log.write_bytes(b"")
    subprocess.run(
        [bash, "--norc", "-c", _PROLOGUE + line + "\n"],
        capture_output=True,
        env={"HOME": "/h", "PATH": str(cwd / "no-programs"), "LOG": str(log)},
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=30,
        check=False,
    )
    records = log.read_bytes().decode("utf-8", "surrogateescape").split("\1")[:-1]
    return [tuple(record.split("\0")[:-1]) for record in records]


def _argvs(line: str) -> list[Argv]:
    parsed = parse_command(line)
    assert parsed.problems == (), [p.message for p in parsed.problems]
    return [s.argv for _, s in walk(parsed) if s.kind is SegmentKind.SIMPLE and s.words]


def _redirects(segment: Segment) -> list[tuple[str, int | None, str | None]]:
    def value(redirect: Redirect) -> str | None:
        return None if redirect.target is None else redirect.target.value

    return [(r.op, r.fd, value(r)) for r in segment.redirects]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "no-programs").mkdir()
    (tmp_path / "README.md").write_text("hello\n")
    (tmp_path / "x.py").write_text("print(1)\n")
    return tmp_path


# (line, the model's argv of each command = what bash runs, the first command's redirects)
CASES: list[tuple[str, list[Argv], list[tuple[str, int | None, str | None]]]] = [
    # BU1: a descriptor tree-sitter lexed from a word that is not all digits is an argument
    (
        "sed s/hello/pwned/ README.md -i2>/dev/null",
        [("sed", "s/hello/pwned/", "README.md", "-i2")],
        [(">", None, "/dev/null")],
    ),
    ("sort README.md -o2>/dev/null", [("sort", "README.md", "-o2")], [(">", None, "/dev/null")]),
    ("cat -i2<x.py", [("cat", "-i2")], [("<", None, "x.py")]),
    ("cat -i2>&1", [("cat", "-i2")], [(">&", None, "1")]),
    ("cat -i2<&0", [("cat", "-i2")], [("<&", None, "0")]),
    ("cat -9>>/dev/null", [("cat", "-9")], [(">>", None, "/dev/null")]),
    ("cat a-i2>/dev/null", [("cat", "a-i2")], [(">", None, "/dev/null")]),
    ("cat 2>/dev/null", [("cat",)], [(">", 2, "/dev/null")]),
    ("cat x.py -i<<E\nq\nE", [("cat", "x.py", "-i")], [("<<", None, None)]),
    ("cat x.py -i<<-E\nq\nE", [("cat", "x.py", "-i")], [("<<-", None, None)]),
    ("cat -i2<<E\nq\nE", [("cat", "-i2")], [("<<", None, None)]),
    ("cat -<<E\nq\nE", [("cat", "-")], [("<<", None, None)]),
    # BU2: `{NAME}>file` assigns NAME; `{NAME}` is no argument (see the assignment test)
    ("echo {PATH}>/dev/null; ls", [("echo",), ("ls",)], [(">", None, "/dev/null")]),
    (": {HOME}</dev/null", [(":",)], [("<", None, "/dev/null")]),
    ("echo {IFS}<<<x", [("echo",)], [("<<<", None, "x")]),
    ("echo {CDPATH}>&2 x", [("echo", "x")], [(">&", None, "2")]),
    ("A=1 {PATH}>/dev/null echo", [("echo",)], [(">", None, "/dev/null")]),
    ("echo x{PATH}>/dev/null", [("echo", "x{PATH}")], [(">", None, "/dev/null")]),
    ("echo {PATH} >/dev/null", [("echo", "{PATH}")], [(">", None, "/dev/null")]),
    ("echo {'PATH'}>/dev/null", [("echo", "{PATH}")], [(">", None, "/dev/null")]),
    # BU3: words of escaped blanks around a redirect
    ("cat <README.md \\ ", [("cat", " ")], [("<", None, "README.md")]),
    ("cat 2>/dev/null \\ ", [("cat", " ")], [(">", 2, "/dev/null")]),
    ("cat >/dev/null \\ ;ls", [("cat", " "), ("ls",)], [(">", None, "/dev/null")]),
    ("cat <<<w \\ ", [("cat", " ")], [("<<<", None, "w")]),
    ("cat <x.py \\ \\ ", [("cat", "  ")], [("<", None, "x.py")]),
    ("cat <x.py \\\t", [("cat", "\t")], [("<", None, "x.py")]),
    ("cat <x.py \\  x.py", [("cat", " ", "x.py")], [("<", None, "x.py")]),
    ("cat <x.py \\ x.py", [("cat", " x.py")], [("<", None, "x.py")]),
    ("cat \\  >/dev/null x.py", [("cat", " ", "x.py")], [(">", None, "/dev/null")]),
    ("cat >x.py\\  README.md", [("cat", "README.md")], [(">", None, "x.py ")]),
    ("cat >\\  x.py", [("cat", "x.py")], [(">", None, " ")]),
    ("cat <x.py 2>&- \\ ", [("cat", " ")], [("<", None, "x.py"), (">&-", 2, None)]),
    # BU5: after `<&`/`>&`, an unquoted `-` closes and the rest of the word is an argument
    (
        "sed s/hello/pwned/ README.md <& --i",
        [("sed", "s/hello/pwned/", "README.md", "-i")],
        [("<&-", None, None)],
    ),
    (
        "sed s/hello/pwned/ README.md <&--i",
        [("sed", "s/hello/pwned/", "README.md", "-i")],
        [("<&-", None, None)],
    ),
    ("cat <& -x.py", [("cat", "x.py")], [("<&-", None, None)]),
    ("cat 2>& -x.py README.md", [("cat", "x.py", "README.md")], [(">&-", 2, None)]),
    ("cat >& -x.py", [("cat", "x.py")], [(">&-", None, None)]),
    ("cat <& -'x.py'", [("cat", "x.py")], [("<&-", None, None)]),
    ('cat <& -x"y"', [("cat", "xy")], [("<&-", None, None)]),
    ("cat <& -\\x", [("cat", "x")], [("<&-", None, None)]),
    ("cat <& --", [("cat", "-")], [("<&-", None, None)]),
    ("cat <& -", [("cat",)], [("<&-", None, None)]),
    ("cat <& - \\ ", [("cat", " ")], [("<&-", None, None)]),
    ("cat <&'-'", [("cat",)], [("<&", None, "-")]),
    ("cat 2>&1-", [("cat",)], [(">&", 2, "1-")]),
    # BU7: `>&-` and `<&-` take no word: the next one is an argument
    ("find . 2>&- -delete", [("find", ".", "-delete")], [(">&-", 2, None)]),
    ("cat 2>&-x.py", [("cat", "x.py")], [(">&-", 2, None)]),
    ("cat <&- -x", [("cat", "-x")], [("<&-", None, None)]),
    ("cat 3<&--x", [("cat", "-x")], [("<&-", 3, None)]),
    ('cat >&-"x.py"', [("cat", "x.py")], [(">&-", None, None)]),
    ("cat 2>&- x.py \\ ", [("cat", "x.py", " ")], [(">&-", 2, None)]),
    ("cat 2>&- \\  x.py", [("cat", " ", "x.py")], [(">&-", 2, None)]),
    ("cat 2>&-", [("cat",)], [(">&-", 2, None)]),
    ("cat x.py 2>&1", [("cat", "x.py")], [(">&", 2, "1")]),
    # a lone `-` before a redirect with a descriptor, which tree-sitter drops
    ("git checkout - 2>/dev/null", [("git", "checkout", "-")], [(">", 2, "/dev/null")]),
    ("cat - 2>&1", [("cat", "-")], [(">&", 2, "1")]),
    ("cat x.py - 2>/dev/null - 3>/dev/null", [("cat", "x.py", "-", "-")], None),
]


@pytest.mark.parametrize(("line", "argvs", "redirects"), CASES, ids=[c[0] for c in CASES])
def test_the_model_runs_what_bash_runs(
    line: str,
    argvs: list[Argv],
    redirects: list[tuple[str, int | None, str | None]] | None,
    folder: Path,
) -> None:
    assert _argvs(line) == argvs
    assert _bash_argvs(line, folder) == argvs
    if redirects is not None:
        assert _redirects(parse_command(line).segments[0]) == redirects


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("echo {PATH}>/dev/null", "PATH"),
        (": {HOME}</dev/null", "HOME"),
        ("true {IFS}>&-", "IFS"),
        ("echo {CDPATH}<<E\nq\nE", "CDPATH"),
        ("A=1 {PATH}>/dev/null echo", "PATH"),
        ("cat 2>&- {BASH_ENV}>/dev/null", "BASH_ENV"),
    ],
)
def test_a_variable_redirect_assigns_its_name(line: str, name: str) -> None:
    segment = parse_command(line).segments[0]
    assigned = segment.assignments[-1]
    assert (assigned.name, assigned.value) == (name, None)  # the descriptor bash picks


def test_a_variable_redirect_assigns_for_later_commands_in_bash(folder: Path) -> None:
    # what the assignment is for: a builtin keeps it, so `ls` looks for ./1N/ls
    recorded = _bash_argvs('echo {PATH}>/dev/null; __record "$PATH"', folder)
    assert recorded[0] == ("echo",)
    assert recorded[1][0].isdigit()


def test_a_variable_redirect_of_an_array_element_is_a_problem() -> None:
    line = parse_command("echo {a[$(id)]}>/dev/null")
    assert "shell.syntax-mismatch" in [p.code for p in line.problems]


@pytest.mark.parametrize(
    "line",
    [
        "f() { :; } 2>&- x.py",  # bash rejects a word after a function's redirects
        "{ ls; } 2>&- x.py",
        "{ ls; } <& -x.py",
    ],
)
def test_a_word_after_the_redirect_of_a_compound_command_is_a_problem(line: str) -> None:
    assert parse_command(line).problems


def test_a_descriptor_word_before_a_here_document_keeps_its_span() -> None:
    line = "sed s/a/b/ README.md -i<<E\nq\nE"
    word = parse_command(line).segments[0].words[-1]
    assert (word.text, line[word.span.start : word.span.end]) == ("-i", "-i")


def test_a_closing_remainder_keeps_its_expansions() -> None:
    words = parse_command("cat <& -~/.aws/credentials <& -$(id)").segments[0].words
    assert [(w.text, w.value) for w in words] == [
        ("cat", "cat"),
        ("~/.aws/credentials", None),
        ("$(id)", None),
    ]
    assert [e.kind.value for w in words[1:] for e in w.expansions] == [
        "tilde",
        "command-substitution",
    ]
    nested = words[2].expansions[0].nested
    assert nested is not None
    assert nested.segments[0].argv == ("id",)
