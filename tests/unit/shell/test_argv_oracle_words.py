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
