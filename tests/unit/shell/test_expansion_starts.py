"""Every `$` expansion the model reports starts at its `$` (review BZ1): inside double
quotes tree-sitter puts the blanks and line continuations before an expansion into its
node, and the engine's checks of `${…}` read the text from its start."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from policylang.shell import parse_command
from policylang.shell.model import CommandLine, Expansion, ExpansionKind

_PIECES = (" ", "\t", "\\\n", "a", "$x", "${x}", "${_@P}", "${y[1]}", "$((1+2))", "$1", "-")


def _expansions(line: CommandLine) -> list[Expansion]:
    found: list[Expansion] = []
    for segment in line.segments:
        for word in segment.words:
            found.extend(word.expansions)
        for assignment in segment.assignments:
            if assignment.value is not None:
                found.extend(assignment.value.expansions)
    return found


@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6))
def test_double_quoted_expansions_start_at_their_dollar(pieces: list[str]) -> None:
    text = 'echo "' + "".join(pieces) + '"'
    line = parse_command(text)
    for expansion in _expansions(line):
        if expansion.kind in (ExpansionKind.PARAMETER, ExpansionKind.ARITHMETIC):
            assert expansion.text.startswith("$"), (text, expansion.text)
            assert text[expansion.span.start : expansion.span.end] == expansion.text


def test_a_blank_before_a_prompt_expansion_is_not_part_of_it() -> None:
    line = parse_command('echo " ${_@P}"')
    assert [e.text for e in _expansions(line)] == ["${_@P}"]


def test_a_lone_dollar_tree_sitter_joins_to_the_next_expansion_is_reported() -> None:
    line = parse_command('echo "$ ${x}"')
    assert any(p.code == "shell.word-mismatch" for p in line.problems)


def test_a_here_document_expansion_tree_sitter_drops_is_reported() -> None:
    for text in (": <<-E\n\t${CDPATH=$HOME}\n\tE", "cat <<E\n $GITHUB_TOKEN\nE"):
        line = parse_command(text)
        assert any("here-document body" in p.message for p in line.problems), text
    plain = ("cat <<E\n$HOME and ${x:-a}\nE", "cat <<E\n price: $5 \\$x\nE", "cat <<'E'\n $x\nE")
    for text in plain:
        assert not parse_command(text).problems, text
