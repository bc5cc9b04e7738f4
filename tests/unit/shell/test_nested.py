"""Nested command lines: substitutions, backticks, walk() and context strings."""

from __future__ import annotations

from policylang.shell.model import ExpansionKind as K
from policylang.shell.parse import parse_command
from policylang.shell.walk import lines, nested_lines, walk


def contexts(text: str) -> list[tuple[str, tuple[str | None, ...]]]:
    return [(line.context, segment.argv) for line, segment in walk(parse_command(text))]


def test_command_substitution_in_an_argument() -> None:
    assert contexts("echo a $(rm -rf x)") == [
        ("", ("echo", "a", None)),
        ("inside $() in argument 2 of segment 1", ("rm", "-rf", "x")),
    ]


def test_substitution_in_the_command_name() -> None:
    context, argv = contexts("$(echo rm) x")[1]
    assert context == "inside $() in the command name of segment 1"
    assert argv == ("echo", "rm")


def test_backticks_process_substitution_and_nesting() -> None:
    found = contexts("diff <(ls a) >(tee b) `id`; x")
    assert found[2:] == [
        ("inside <() in argument 1 of segment 1", ("ls", "a")),
        ("inside >() in argument 2 of segment 1", ("tee", "b")),
        ("inside backticks in argument 3 of segment 1", ("id",)),
    ]


def test_nested_context_names_the_parent() -> None:
    found = contexts('echo "$(a "$(b)")"')
    assert found[2] == (
        "inside $() in argument 1 of segment 1, inside $() in argument 1 of segment 1",
        ("b",),
    )
    assert [line.depth for line in lines(parse_command('echo "$(a "$(b)")"'))] == [0, 1, 2]


def test_escaped_backticks_nest() -> None:
    # inside backticks, \` starts a nested substitution: `echo \`id\`` runs id
    found = contexts("echo `echo \\`id\\``")
    assert found[-1][1] == ("id",)


def test_substitutions_in_assignments_redirects_and_parameters() -> None:
    found = contexts("A=$(a) cmd > $(b) ${X:-$(c)}; export D=$(d); e[$(f)]=1")
    inner = sorted(argv for context, argv in found if context)
    assert inner == [("a",), ("b",), ("c",), ("d",), ("f",)]


def test_declared_assignment_is_walked_once() -> None:
    assert len(contexts("export A=$(x)")) == 2


def test_arithmetic_hides_no_substitution() -> None:
    found = contexts("echo $((1 + $(id))); (( y = $(whoami) ))")
    assert sorted(argv for context, argv in found if context) == [("id",), ("whoami",)]


def test_nested_spans_share_the_root_offsets() -> None:
    text = "echo $(rm -rf x)"
    line = parse_command(text)
    expansion = line.segments[0].words[1].expansions[0]
    assert expansion.kind is K.COMMAND_SUBSTITUTION
    nested = expansion.nested
    assert nested is not None
    assert not nested.reparsed
    assert nested.text == "rm -rf x"
    assert nested.segments[0].span.slice(text) == "rm -rf x"
    assert nested.anchor is not None
    assert nested.anchor.slice(text) == "$(rm -rf x)"


def test_bash_c_lines_are_reparsed_with_their_own_offsets() -> None:
    text = "sudo bash -c 'rm -rf ~/x'"
    line = parse_command(text)
    (nested,) = nested_lines(line.segments[0])
    assert nested.reparsed
    assert nested.text == "rm -rf ~/x"
    assert nested.segments[0].span.slice(nested.text) == "rm -rf ~/x"
    assert nested.anchor is not None
    assert nested.anchor.slice(text) == "'rm -rf ~/x'"
    assert nested.context == "inside the command string of `bash` of segment 1"


def test_problems_of_nested_lines_reach_the_root() -> None:
    line = parse_command("echo $(exec 3<>f)")
    assert line.problems
    nested = parse_command("bash -c 'exec 3<>f'")
    assert [p.code for p in nested.problems] == ["shell.read-write-redirect"]
    assert nested.problems[0].span.slice(nested.text) == "'exec 3<>f'"


def test_walk_order_is_line_first_then_nested() -> None:
    found = contexts("a $(b); c $(d)")
    assert [argv for _, argv in found] == [("a", None), ("c", None), ("b",), ("d",)]


def test_a_nested_line_shared_by_segments_is_walked_once() -> None:
    found = contexts("while read -r l; do echo $l; done < <(ls)")
    assert [argv for _, argv in found].count(("ls",)) == 1
