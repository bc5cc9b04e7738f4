"""Problems: syntax errors, unhandled constructs and limits are recorded, never hidden."""

from __future__ import annotations

import subprocess
import sys

import pytest

from policylang.shell.model import Limits
from policylang.shell.parse import HARD_MAX_DEPTH, parse_command


def codes(text: str, **kwargs: Limits) -> list[str]:
    return sorted({p.code for p in parse_command(text, **kwargs).problems})


def underlined(text: str) -> list[str]:
    line = parse_command(text)
    return [p.span.slice(text) for p in line.problems]


def test_clean_commands_have_no_problems() -> None:
    assert codes("git status && ls -la | grep x > out") == []


@pytest.mark.parametrize(
    "text",
    [
        "exec 3<>file",  # valid bash that tree-sitter-bash rejects (read in its place)
        "ls !(*.c)",  # extglob
        "for d in */; do (cd $d) done",  # `(…) done`
        "echo 'unterminated",
        "if true; then",
        "echo $(",
        "a &&",
        "cat <<EOF && rm x; ls\nbody\nEOF",
    ],
)
def test_known_gaps_and_broken_input_surface_as_problems(text: str) -> None:
    assert codes(text), f"no problem recorded for {text!r}"


def test_syntax_error_span_points_at_the_bad_text() -> None:
    assert underlined("ls &&& ls") == ["&"]
    assert underlined("(a) done") == ["done"]


def test_missing_node_is_recorded() -> None:
    assert "shell.missing-node" in codes("echo $(ls")


def test_read_write_redirect_is_a_problem_naming_its_file() -> None:
    # tree-sitter-bash rejects `<>`; the analyser reads it, and the line still asks
    assert underlined("exec 3<>file") == ["3<>file"]
    assert codes("exec 3<>file") == ["shell.read-write-redirect"]


def test_commands_next_to_an_error_are_still_seen() -> None:
    line = parse_command("ls !(*.c); rm -rf ~")
    assert ("rm", "-rf", None) in [s.argv for s in line.segments]


def test_unhandled_construct_is_recorded() -> None:
    # bash rejects the unescaped `(`; tree-sitter accepts it as a subshell inside a command
    text = "echo a (b)"
    problems = {p.code: p.span.slice(text) for p in parse_command(text).problems}
    assert problems["shell.unhandled-node"] == "(b)"


def test_length_limit() -> None:
    line = parse_command("echo " + "a" * 50, limits=Limits(max_length=20))
    assert [p.code for p in line.problems] == ["shell.limit-length"]
    assert line.segments == ()


def test_depth_limit() -> None:
    text = "echo " + "$(" * 10 + "x" + ")" * 10
    assert codes(text, limits=Limits(max_depth=5)) == ["shell.limit-depth"]
    assert codes(text, limits=Limits(max_depth=20)) == []


def test_depth_limit_counts_compounds_and_reentry() -> None:
    assert codes("( ( ( ( x ) ) ) )", limits=Limits(max_depth=2)) == ["shell.limit-depth"]
    assert codes("eval eval eval eval x", limits=Limits(max_depth=2)) == ["shell.limit-depth"]


def test_hard_depth_cap_applies_whatever_the_limits_say() -> None:
    text = "echo " + "$(" * (HARD_MAX_DEPTH + 10) + "x" + ")" * (HARD_MAX_DEPTH + 10)
    assert codes(text, limits=Limits(max_depth=10_000)) == ["shell.limit-depth"]


def test_segment_limit_counts_nested_lines() -> None:
    line = parse_command("a; b; c $(d; e)", limits=Limits(max_segments=3))
    assert [p.code for p in line.problems] == ["shell.limit-segments"]


def test_huge_inputs_terminate_with_problems() -> None:
    assert codes(" && ".join(["a"] * 10_000)) == ["shell.limit-segments"]
    assert codes("echo " + "$(" * 500 + "x" + ")" * 500) == ["shell.limit-depth"]
    assert codes("( " * 500 + "x" + " )" * 500) == ["shell.limit-depth"]


@pytest.mark.source  # patches a method to fail
def test_internal_errors_fail_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    from policylang.shell import parse

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(parse._Walker, "body", broken)
    line = parse_command("ls > out")  # not a plain line: the tree-sitter analyser
    assert [p.code for p in line.problems] == ["shell.internal-error"]
    assert parse_command("ls").problems == ()  # the plain-line fast path needs no walker

    monkeypatch.setattr(parse, "plain_line", broken)
    line = parse_command("ls")
    assert [p.code for p in line.problems] == ["shell.internal-error"]


def test_characters_that_crash_tree_sitter_bash_are_parsed_safely() -> None:
    # tree-sitter-bash's scanner reads out of bounds on `{` before some characters beyond
    # the BMP and crashes the process now and then; run it where a crash cannot take the
    # test runner down, often enough to have crashed before the fix
    code = (
        "from policylang.shell import parse_command\n"
        "for _ in range(300):\n"
        "    parse_command('{\\U000F6E58')\n"
        "    parse_command('echo {\\U0010FFFF x | wc')\n"
        "line = parse_command('echo {\\U0010FFFF x')\n"
        "print(line.segments[0].words[1].text == '{\\U0010FFFF')\n"
    )
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip() == "True"


@pytest.mark.parametrize("text", ["cat .e\x00nv", "\x00", "ls \x00-la", "echo $(cat .e\x00nv)"])
def test_a_nul_byte_is_a_problem_and_the_model_is_bashs_reading(text: str) -> None:
    # review AI3: bash drops NUL bytes from what it reads, so the words are read without them
    line = parse_command(text)
    assert "shell.nul-byte" in [p.code for p in line.problems]
    assert line.text == text.replace("\x00", "")
    for problem in line.problems:
        assert 0 <= problem.span.start <= problem.span.end <= len(line.text)
    if text.startswith("cat"):
        assert line.segments[0].argv == ("cat", ".env")


@pytest.mark.parametrize("text", ["LC_ALL=\\  sudo id", "LC_ALL+=\\\t\\\tsudo id",
                                  "echo $(LC_ALL=\\  sudo id)"])
def test_an_escaped_blank_after_the_equals_sign_is_reported(text: str) -> None:
    # review AV1: tree-sitter drops `\␠` and makes the next word the value; bash's value is
    # the blank and that word is the command
    line = parse_command(text)
    assert "shell.dropped-text" in {p.code for p in line.problems}
