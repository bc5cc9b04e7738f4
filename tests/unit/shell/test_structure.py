"""Structure: connectors, scopes and groups of the flattened segments."""

from __future__ import annotations

import pytest

from policylang.shell.model import Connector as C
from policylang.shell.model import Scope as S
from policylang.shell.model import SegmentKind as K
from policylang.shell.parse import parse_command


def shape(text: str) -> list[tuple[tuple[str | None, ...], C]]:
    return [(s.argv, s.connector) for s in parse_command(text).segments]


def scopes(text: str) -> list[tuple[tuple[str | None, ...], tuple[S, ...]]]:
    return [(s.argv, s.scopes) for s in parse_command(text).segments]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a; b", [(("a",), C.SEQ), (("b",), C.END)]),
        ("a && b", [(("a",), C.AND), (("b",), C.END)]),
        ("a || b", [(("a",), C.OR), (("b",), C.END)]),
        ("a | b", [(("a",), C.PIPE), (("b",), C.END)]),
        ("a |& b", [(("a",), C.PIPE_ALL), (("b",), C.END)]),
        ("a & b", [(("a",), C.BACKGROUND), (("b",), C.END)]),
        ("a\nb", [(("a",), C.NEWLINE), (("b",), C.END)]),
        ("a \\\n && b", [(("a",), C.AND), (("b",), C.END)]),
        ("a # c $(rm x)\nb", [(("a",), C.NEWLINE), (("b",), C.END)]),
        (
            "a | b | c && d || e; f",
            [
                (("a",), C.PIPE),
                (("b",), C.PIPE),
                (("c",), C.AND),
                (("d",), C.OR),
                (("e",), C.SEQ),
                (("f",), C.END),
            ],
        ),
    ],
)
def test_connectors(text: str, expected: list[tuple[tuple[str, ...], C]]) -> None:
    assert shape(text) == expected


def test_comment_does_not_hide_code_after_a_newline() -> None:
    assert [s.argv for s in parse_command("echo a # hidden\nrm -rf x").segments] == [
        ("echo", "a"),
        ("rm", "-rf", "x"),
    ]


def test_hash_inside_a_word_is_not_a_comment() -> None:
    assert shape("echo a#b; rm x")[1][0] == ("rm", "x")


def test_pipeline_stages_get_their_own_groups() -> None:
    line = parse_command("cd /tmp | rm x && ls")
    groups = [s.group for s in line.segments]
    assert groups[0] != 0
    assert groups[1] != 0
    assert groups[0] != groups[1]
    assert groups[2] == 0
    assert line.segments[0].scopes == (S.PIPELINE,)
    assert line.segments[1].scopes == ()


def test_tree_sitter_pipeline_precedence_is_repaired() -> None:
    # tree-sitter nests `a | b | c && d` as `a | (b | c && d)`; d is not a pipeline stage
    line = parse_command("a | b | c && d")
    assert line.segments[3].group == 0
    assert line.segments[3].scopes == ()


def test_background_list_runs_in_its_own_group() -> None:
    line = parse_command("cd /tmp && ls & rm x")
    assert line.segments[0].group == line.segments[1].group != 0
    assert line.segments[2].group == 0


def test_subshell_and_group() -> None:
    line = parse_command("(cd /tmp; rm x) && { ls; }")
    assert [(s.argv, s.scopes) for s in line.segments] == [
        (("cd", "/tmp"), (S.SUBSHELL,)),
        (("rm", "x"), (S.SUBSHELL,)),
        (("ls",), (S.GROUP,)),
    ]
    assert line.segments[0].group == line.segments[1].group != 0
    assert line.segments[2].group == 0
    assert line.segments[1].connector is C.AND


def test_if_elif_else() -> None:
    assert scopes("if a; then b; elif c; then d; else e; fi") == [
        (("a",), (S.IF_CONDITION,)),
        (("b",), (S.IF_BODY,)),
        (("c",), (S.IF_CONDITION,)),
        (("d",), (S.IF_BODY,)),
        (("e",), (S.IF_BODY,)),
    ]


def test_while_and_until() -> None:
    expected = [(("a",), (S.WHILE_CONDITION,)), (("b",), (S.LOOP_BODY,))]
    assert scopes("while a; do b; done") == expected
    assert scopes("until a; do b; done") == expected


def test_for_loop_header_and_body() -> None:
    line = parse_command("for f in *.txt a; do rm $f; done")
    header, body = line.segments
    assert header.kind is K.LOOP_HEADER
    assert header.name == "f"
    assert header.argv == (None, "a")
    assert body.argv == ("rm", None)
    assert body.scopes == (S.FOR,)


def test_c_style_for() -> None:
    line = parse_command("for ((i=0; i<$(n); i++)); do echo $i; done")
    header = line.segments[0]
    assert header.kind is K.LOOP_HEADER
    assert [w.value for w in header.words] == ["i=0", None, "i++"]
    assert line.segments[1].scopes == (S.FOR,)


def test_select() -> None:
    line = parse_command("select x in a b; do rm $x; done")
    assert line.segments[0].kind is K.LOOP_HEADER
    assert line.segments[1].scopes == (S.SELECT,)


def test_case_header_holds_subject_and_patterns() -> None:
    line = parse_command("case $x in a|b) rm a;; *) ls;; esac")
    header = line.segments[0]
    assert header.kind is K.CASE_HEADER
    assert header.argv == (None, "a", "b", None)
    assert [(s.argv, s.scopes) for s in line.segments[1:]] == [
        (("rm", "a"), (S.CASE,)),
        (("ls",), (S.CASE,)),
    ]


def test_function_definitions() -> None:
    for text in ("f() { rm x; }", "function f { rm x; }", "function f() { rm x; }"):
        line = parse_command(text)
        assert line.segments[0].kind is K.FUNCTION_DEF
        assert line.segments[0].name == "f"
        assert line.segments[1].argv == ("rm", "x")
        assert line.segments[1].scopes == (S.FUNCTION_BODY,)


def test_double_bracket_test() -> None:
    segment = parse_command("[[ -f a && $b == c* ]]").segments[0]
    assert segment.kind is K.TEST
    assert segment.argv == ("-f", "a", "&&", None, "==", None)


def test_single_bracket_is_a_plain_command() -> None:
    segment = parse_command("[ -f a ]").segments[0]
    assert segment.kind is K.SIMPLE
    assert segment.argv == ("[", "-f", "a", "]")


def test_arithmetic_command() -> None:
    plain = parse_command("(( x++ ))").segments[0]
    assert plain.kind is K.ARITHMETIC
    assert plain.argv == ("x++",)
    nested = parse_command("(( x = $(id) ))").segments[0]
    assert nested.argv == (None,)


def test_negation() -> None:
    assert scopes("! rm x") == [(("rm", "x"), (S.NEGATION,))]


def test_time_keyword_is_seen_through() -> None:
    segment = parse_command("time rm x").segments[0]
    assert segment.wrapped is not None
    assert [w.value for w in segment.command_words] == ["rm", "x"]


def test_nested_scopes_are_outermost_first() -> None:
    line = parse_command("if a; then (while b; do c; done); fi")
    assert line.segments[2].scopes == (S.IF_BODY, S.SUBSHELL, S.LOOP_BODY)


def test_assignments() -> None:
    line = parse_command("FOO=bar BAZ+=1 cmd; A=1 B=2; C=")
    first, only, empty = line.segments
    assert [(a.name, a.value.value if a.value else None, a.append) for a in first.assignments] == [
        ("FOO", "bar", False),
        ("BAZ", "1", True),
    ]
    assert first.argv == ("cmd",)
    assert only.kind is K.ASSIGNMENT_ONLY
    assert [a.name for a in only.assignments] == ["A", "B"]
    assert empty.assignments[0].value is not None
    assert empty.assignments[0].value.value == ""


def test_array_and_subscript_assignments() -> None:
    line = parse_command("a=(1 $(id)) b[$(x)]=2")
    array, indexed = line.segments[0].assignments
    assert array.value is None
    assert array.array is not None
    assert [w.value for w in array.array] == ["1", None]
    assert indexed.subscript is not None
    assert indexed.subscript.value is None


@pytest.mark.parametrize("builtin", ["export", "declare", "local", "readonly", "typeset"])
def test_declaration_builtins(builtin: str) -> None:
    segment = parse_command(f"{builtin} -x A=1 B=$(id) C").segments[0]
    assert segment.kind is K.SIMPLE
    assert segment.argv == (builtin, "-x", "A=1", None, "C")
    assert [(a.name, a.value.value if a.value else None) for a in segment.declared] == [
        ("A", "1"),
        ("B", None),
    ]


def test_unset() -> None:
    assert parse_command("unset -f a b").segments[0].argv == ("unset", "-f", "a", "b")


def test_segment_text_and_span() -> None:
    text = "a && ls -l > out 2>&1; x"
    line = parse_command(text)
    assert [s.text for s in line.segments] == ["a", "ls -l > out 2>&1", "x"]
    assert all(s.span.slice(text) == s.text for s in line.segments)
