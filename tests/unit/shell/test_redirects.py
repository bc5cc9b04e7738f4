"""Redirects: operators, fds, targets, heredocs, and where tree-sitter misplaces them."""

from __future__ import annotations

import pytest

from policylang.shell.model import Redirect
from policylang.shell.parse import parse_command


def redirects(text: str, index: int = 0) -> tuple[Redirect, ...]:
    return parse_command(text).segments[index].redirects


@pytest.mark.parametrize(
    ("text", "op", "fd", "target"),
    [
        ("cmd > f", ">", None, "f"),
        ("cmd >> f", ">>", None, "f"),
        ("cmd >| f", ">|", None, "f"),
        ("cmd &> f", "&>", None, "f"),
        ("cmd &>> f", "&>>", None, "f"),
        ("cmd < f", "<", None, "f"),
        ("cmd 2> f", ">", 2, "f"),
        ("cmd 2>&1", ">&", 2, "1"),
        ("cmd 0<&3", "<&", 0, "3"),
        ("cmd <<< word", "<<<", None, "word"),
        ("cmd >'a b'", ">", None, "a b"),
    ],
)
def test_operators(text: str, op: str, fd: int | None, target: str) -> None:
    (redirect,) = redirects(text)
    assert (redirect.op, redirect.fd, redirect.target and redirect.target.value) == (op, fd, target)


def test_closing_an_fd_has_no_target() -> None:
    (redirect,) = redirects("cmd 2>&-")
    assert (redirect.op, redirect.fd, redirect.target) == (">&-", 2, None)
    assert not redirect.writes


def test_writes_and_reads() -> None:
    out, err, inp = redirects("cmd > a 2>&1 < b")
    assert out.writes
    assert not out.reads
    assert not err.writes
    assert inp.reads
    assert not inp.writes


def test_non_literal_target() -> None:
    (redirect,) = redirects("cmd > $(mktemp)")
    assert redirect.target is not None
    assert redirect.target.value is None


def test_words_after_a_redirect_are_arguments() -> None:
    # tree-sitter makes `-rf /` extra "destinations" of the redirect; bash passes them to rm
    segment = parse_command("rm >/dev/null -rf /").segments[0]
    assert segment.argv == ("rm", "-rf", "/")
    assert [r.target.value for r in segment.redirects if r.target] == ["/dev/null"]


def test_redirect_before_the_command() -> None:
    segment = parse_command(">out cmd arg").segments[0]
    assert segment.argv == ("cmd", "arg")
    assert segment.redirects[0].target is not None
    assert segment.redirects[0].target.value == "out"


def test_redirect_after_a_list_belongs_to_the_last_command() -> None:
    line = parse_command("a && b > out")
    assert line.segments[0].redirects == ()
    assert [r.op for r in line.segments[1].redirects] == [">"]
    piped = parse_command("a | b > out")
    assert piped.segments[0].redirects == ()
    assert len(piped.segments[1].redirects) == 1


def test_redirect_of_a_compound_applies_to_every_segment_inside() -> None:
    line = parse_command("{ a; b; } > out")
    assert all(len(s.redirects) == 1 for s in line.segments)
    loop = parse_command("while read l; do echo $l; done < in")
    assert all(r.op == "<" for s in loop.segments for r in s.redirects)


def test_redirect_without_a_command_truncates_a_file() -> None:
    segment = parse_command("> file").segments[0]
    assert segment.words == ()
    assert segment.redirects[0].writes


def test_unquoted_heredoc_body_expands() -> None:
    line = parse_command("cat <<EOF\nhello $(id)\nEOF")
    (redirect,) = line.segments[0].redirects
    assert redirect.target is None
    doc = redirect.heredoc
    assert doc is not None
    assert (doc.delimiter, doc.quoted, doc.strip_tabs) == ("EOF", False, False)
    assert "hello $(id)" in doc.body
    nested = doc.expansions[0].nested
    assert nested is not None
    assert nested.segments[0].argv == ("id",)
    assert nested.context == "inside $() in heredoc body of segment 1"


@pytest.mark.parametrize("start", ["'EOF'", '"EOF"', "\\EOF", "E'O'F"])
def test_quoted_heredoc_body_is_literal(start: str) -> None:
    doc = redirects(f"cat <<{start}\n$(id)\nEOF")[0].heredoc
    assert doc is not None
    assert doc.quoted
    assert doc.delimiter == "EOF"
    assert doc.expansions == ()


def test_heredoc_strip_tabs() -> None:
    doc = redirects("cat <<-EOF\n\tx\n\tEOF")[0].heredoc
    assert doc is not None
    assert doc.strip_tabs


def test_heredoc_piped_into_a_shell() -> None:
    # tree-sitter hides `| sh` inside the heredoc node; it is a pipeline stage
    line = parse_command("cat <<EOF | sh\nrm -rf ~\nEOF")
    assert [s.argv for s in line.segments] == [("cat",), ("sh",)]
    assert line.segments[0].connector.value == "|"
    assert line.segments[1].wrapped is not None
    assert line.segments[1].wrapped.opaque


@pytest.mark.parametrize(
    ("text", "target", "argv"),
    [
        ("cat < '.'\\/\\.\\e\\n\\v", "./.env", ("cat",)),
        ("ls x > '/'\\e\\t\\c\\/\\p\\a\\s\\s\\w\\d", "/etc/passwd", ("ls", "x")),
        ("cat < a'.' b", "a.", ("cat", "b")),
    ],
)
def test_a_redirect_target_tree_sitter_splits_is_one_word(
    text: str, target: str, argv: tuple[str, ...]
) -> None:
    # tree-sitter gives `'.'` and `\/\.\e\n\v` separate nodes; bash reads one word
    segment = parse_command(text).segments[0]
    assert segment.argv == argv
    assert [r.target.value for r in segment.redirects if r.target is not None] == [target]


def test_a_redirect_after_a_heredoc_is_no_command_of_its_own() -> None:
    # tree-sitter nests `>out x` inside the heredoc node; it belongs to `cat`
    line = parse_command("cat <<EOF >out x\nbody\nEOF")
    assert [s.argv for s in line.segments] == [("cat", "x")]
    assert [r.op for r in line.segments[0].redirects] == ["<<", ">"]
    chained = parse_command("cat <<EOF >out && rm x\nbody\nEOF")
    assert [s.argv for s in chained.segments] == [("cat",), ("rm", "x")]


@pytest.mark.parametrize(
    ("text", "char"),
    [
        ("cat <<EOF|sh\nrm -rf ~\nEOF|sh", "|"),
        ("cat <<EOF; rm -rf ~\nEOF;", ";"),
        ("cat <<E>out\nx\nE", ">"),
        ("cat <<E&\nx\nE", "&"),
    ],
)
def test_a_heredoc_word_glued_to_an_operator_is_a_problem(text: str, char: str) -> None:
    # tree-sitter makes `EOF|sh` the delimiter; bash ends the word at `|` and pipes the
    # body into `sh`: what runs is not what the model shows
    problems = [p for p in parse_command(text).problems if p.code == "shell.syntax-mismatch"]
    assert len(problems) == 1
    assert f"at `{char}`" in problems[0].message


@pytest.mark.parametrize(
    "text", ["cat <<'E|F'\nx\nE|F", 'cat <<"E;F"\nx\nE;F', "cat <<E\\|F\nx\nE|F"]
)
def test_a_quoted_heredoc_word_may_hold_operators(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize(
    ("text", "seen"),
    [
        # a `;` that ends the line is blanked: the here-document is read as bash reads
        # it, its body data (review DY2; its substitutions: `test_review_dy.py`)
        ("ls <<EOF;\n'\nEOF\nrm -rf /", ["ls <<EOF", "rm -rf /"]),
        ("cat <<-EOF;\n\t'\n\tEOF\nrm -rf /", ["cat <<-EOF", "rm -rf /"]),
        ("cat <<EOF;\n$(rm -rf ~)\nEOF", ["cat <<EOF"]),
        # a command after the `;`: the body cannot expand: it is data, blanked, and its
        # lone quote hides nothing
        ("ls <<EOF; true\n'\nEOF\nrm -rf /", ["ls", "true", "rm -rf /"]),
        ("cat <<-EOF; true\n\t'\n\tEOF\nrm -rf /", ["cat", "true", "rm -rf /"]),
        # the body may expand: it is read as commands, so its substitution is judged
        ("cat <<EOF; true\n$(rm -rf ~)\nEOF", ["cat", "true", "$(rm -rf ~)", "EOF"]),
        # before `|`, `&&`, `<`, `>` tree-sitter is shown a word it can end: body is data
        ("cat <<EOF&&rm -rf ~\nx\nEOF", ["cat <<EO", "rm -rf ~"]),
    ],
)
def test_what_follows_a_glued_heredoc_word_is_seen(text: str, seen: list[str]) -> None:
    line = parse_command(text)
    assert [s.text for s in line.segments] == seen
    assert "shell.syntax-mismatch" in [p.code for p in line.problems]


@pytest.mark.parametrize("quoted", ["'E\\F'", "'\\E'", "'E\\ F'", "'E\\$'"])
@pytest.mark.parametrize("op", ["<<", "<<-"])
def test_a_backslash_in_a_single_quoted_heredoc_word_is_a_problem(quoted: str, op: str) -> None:
    # review AI2: bash keeps the backslash (`E\F` ends the body); tree-sitter drops it and
    # reads on to `EF`, taking the commands between for data
    delimiter = quoted[1:-1]
    text = f"cat {op}{quoted}\nx\n{delimiter}\nid\n{delimiter.replace(chr(92), '')}"
    assert "shell.syntax-mismatch" in [p.code for p in parse_command(text).problems]
