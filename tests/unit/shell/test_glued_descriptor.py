"""Digits glued to the word before a redirect are the end of that word for bash, not a
descriptor: `cat \\ 2>&1` runs `cat ' 2'` with `>&1` (found by the argv oracle,
tests/properties/test_argv_differential.py). tree-sitter drops the escape and reads a
descriptor, so the line is reported, never read as `cat 2>&1`."""

from __future__ import annotations

import pytest

from policylang.shell.parse import parse_command


@pytest.mark.parametrize("text", ["cat \\ 2>&1", "grep \\ 2>/dev/null", "echo * \\ 2>&-"])
def test_digits_glued_to_a_word_are_reported(text: str) -> None:
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize("text", ["ls 2>&1", "cmd 0<&3", "ls 1>x 2>&1", "(ls)2>x", "ls;2>x"])
def test_descriptors_after_a_break_are_descriptors(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize("text", ["unset 0<&-", "local 0>/dev/null", "export a 0<&-"])
def test_digits_glued_to_a_redirect_of_a_declaration_are_reported(text: str) -> None:
    # found by the argv oracle: bash runs `unset` with `0<&-` as a redirect; tree-sitter
    # reads `0` (and `1`) as an argument of `unset`/`export` and the redirect without one
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize(
    "text", ["unset x 2>/dev/null", "unset 2<&-", "export 1>&-", "unset 10 <&-"]
)
def test_declarations_with_descriptors_tree_sitter_reads_are_not_reported(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize("text", ["read >&2 <& -0<&-", "grep >& -2>&- \\  x", "cat <&-2>&1"])
def test_digits_after_a_closing_dash_glued_to_a_redirect_are_reported(text: str) -> None:
    # found by the argv oracle: after `<& -` bash starts a new word, and digits glued to
    # the next operator are that redirect's descriptor, not an argument (review BU5 made
    # the rest of the word an argument)
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize("text", ["cat <& -2", "cat <& -x>y", "cat <& -- x"])
def test_an_argument_after_a_closing_dash_is_not_reported(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize("text", ["sort 2&>/dev/null", "sort > /dev/null 2&>>/dev/null"])
def test_digits_before_an_ampersand_redirect_are_an_argument(text: str) -> None:
    # found by the argv oracle: `&>` and `&>>` take no descriptor, so bash runs `sort 2`;
    # the model made `2` the descriptor and lost the argument
    (segment,) = parse_command(text).segments
    assert [word.value for word in segment.words] == ["sort", "2"]
    assert segment.redirects[-1].fd is None

