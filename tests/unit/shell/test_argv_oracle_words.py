"""Words the argv oracle (`policylang.testing.argvcheck`) found read otherwise than bash
reads them."""

from __future__ import annotations

import pytest

from policylang.shell.parse import parse_command


@pytest.mark.parametrize("text", ["[ ~ ]]", "[ -- ~ ]]"])
def test_a_tilde_tree_sitter_reads_as_an_operator_of_a_test_expands(text: str) -> None:
    # found by the argv oracle: bash ran `[ -- /tmp ]]` (home is /tmp there) where the
    # model held the literal `~` (tree-sitter's arithmetic `~` inside `[ ]`)
    (segment,) = parse_command(text).segments
    tilde = next(word for word in segment.words if word.text == "~")
    assert tilde.value is None


@pytest.mark.parametrize("text", ["git log {PATH}$1<<E\nx\nE\n", "echo {PATH}$1<<E\nx\nE\n"])
def test_digits_ending_a_word_before_a_here_document_are_reported(text: str) -> None:
    # bash reads the word `{PATH}$1` and a here-document on standard input; tree-sitter
    # read `1` as the here-document's descriptor and the word as the literal `{PATH}$`
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes
