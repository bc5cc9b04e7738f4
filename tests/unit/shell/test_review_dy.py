"""Review DY, the analyser's side: DY1 `brace_written`, the text of a line that did not
parse as brace expansion writes it (the engine reads it as one more line); DY2 a
here-document word before `;` (`<<EOF;`) whose body holds a lone quote: the later
commands keep their words, as bash reads them."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from policylang.shell.fragments import brace_written
from policylang.shell.parse import parse_command


@pytest.mark.parametrize(
    ("text", "written"),
    [("( {rm,-rf,~} )", "( rm -rf ~ )"), ("({cat,.env})", "(cat .env)"),
     ("{ {rm,-rf,~}; }", "{ rm -rf ~; }"), ("echo $({rm,-rf,/}\n)", "echo $(rm -rf /\n)"),
     ("ls `{cat,.env}\n`", "ls `cat .env\n`"), ("{cat,.env}>/dev/null", "cat .env>/dev/null"),
     ("{cat,.env} 2>&1|x", "cat .env 2>&1|x"), ("do {cat,.env}\ndone", "do cat .env\ndone"),
     ("echo {a{b,c}} {x,y}", "echo {a{b,c}} x y"), ("a=$(b {c,d})", "a=$(b c d)")],
)  # fmt: skip
def test_dy1_brace_written(text: str, written: str) -> None:
    assert brace_written(text) == written


@pytest.mark.parametrize(
    "text",
    ["echo '{a,b}'", 'echo "{a,b}"', "echo ${a,b}", "x'y'{a,b}", "cat <{a,b}", "{ ls; }",
     "echo {a}", "echo {a{b,c}}", "ls", "echo \\{a,b}", "echo a{b,c}'d'"],
)  # fmt: skip
def test_dy1_words_left_as_written(text: str) -> None:
    assert brace_written(text) is None


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_dy1_what_bash_prints_for_the_written_line() -> None:
    lines = ["printf '<%s>' {a,b} x{1..3}y", "printf '<%s>' {x,y}>&1", "(printf '<%s>' {a,-b})",
             "{printf,%s,a}", "printf '<%s>' {a,}b {,}"]  # fmt: skip
    for line in lines:
        written = brace_written(line)
        assert written is not None, line
        ran = [
            subprocess.run(["bash", "--norc", "-c", text], capture_output=True, text=True,
                           timeout=30, check=False).stdout
            for text in (line, written)
        ]  # fmt: skip
        assert ran[0] == ran[1], (line, written)


_HEREDOC = "ls <<EOF;\n'\n$X\nEOF\n"


def _simple_words(text: str) -> list[list[str | None]]:
    line = parse_command(text)
    return [[word.value for word in segment.words] for segment in line.segments]


@pytest.mark.parametrize(
    "text",
    [_HEREDOC + "cat '\n' .env", "ls <<EOF ;\n'\n$X\nEOF\ncat '\n' .env",
     "ls <<'EOF';\n'\n$X\nEOF\ncat '\n' .env", "ls <<\"EOF\"  ;  \n'\n$X\nEOF\ncat '\n' .env",
     "ls <<-EOF;\n'\n$X\n\tEOF\ncat '\n' .env"],
)  # fmt: skip
def test_dy2_a_semicolon_before_the_line_end_ends_the_command(text: str) -> None:
    """bash reads `ls <<EOF;⏎` as `ls <<EOF⏎`: the body is data, and the next command
    keeps its quoted newline; the line still asks (a problem says where tree-sitter and
    bash part)."""
    line = parse_command(text)
    assert _simple_words(text) == [["ls"], ["cat", "\n", ".env"]]
    assert [r.heredoc is not None for r in line.segments[0].redirects] == [True]
    assert any(p.code == "shell.syntax-mismatch" for p in line.problems)


@pytest.mark.parametrize(
    "text",
    ["ls <<EOF; true\n'\n$X\nEOF\ncat '\n' .env", "ls <<EOF&\n'\n$X\nEOF\ncat '\n' .env",
     "ls <<EOF; true\n\"\n$X\nEOF\ncat \"\n\" .env"],
)  # fmt: skip
def test_dy2_a_body_read_as_commands_keeps_no_quote(text: str) -> None:
    """Where the word cannot be re-worded, the body is read as commands (stricter than
    bash), without its quotes, which bash does not read there: a lone one cannot pair
    with a later command's."""
    assert ["cat", "\n", ".env"] in _simple_words(text)
    assert parse_command(text).problems
