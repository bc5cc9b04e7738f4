"""Property: argument validation is total, and agrees with the published JSON Schema."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.tool import ALLOWED_KEYS, ArgumentProblems, BashArgs, bash_tool_schema
from policylang.tool import parse_arguments as parse

_VALIDATOR = jsonschema.Draft202012Validator(bash_tool_schema())

json_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | \
    st.floats(allow_nan=False, allow_infinity=False, width=32) | st.text(max_size=12)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=6)
field_values = st.sampled_from(["ls -la", "", " ", "default", "escalated", "sub", "x" * 301,
                                "why"]) | json_scalars | st.just(10_000)
arguments = st.dictionaries(st.sampled_from([*ALLOWED_KEYS, "cmd", "timeout", "extra"]),
                            field_values, max_size=5)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_gets_an_answer(value: Any) -> None:
    assert isinstance(parse(value), BashArgs | ArgumentProblems)


def _schema_blind_spots(args: dict[str, Any]) -> bool:
    """Rules the schema cannot say without `anyOf`/`if`, or says differently on purpose."""
    command = args.get("command")
    return (
        (isinstance(command, str) and (not command.strip() or "\x00" in command))
        or any(value is None for key, value in args.items() if key != "command")
        or (isinstance(args.get("justification"), str) and not args["justification"].strip())
        or (args.get("sandbox") == "escalated") != ("justification" in args)
    )


@settings(max_examples=500, deadline=None)
@given(arguments)
def test_validation_agrees_with_the_schema(args: dict[str, Any]) -> None:
    accepted = isinstance(parse(args), BashArgs)
    if _schema_blind_spots(args):
        if accepted:  # validation may be stricter than the schema, never looser
            assert _VALIDATOR.is_valid({k: v for k, v in args.items() if v is not None})
        return
    assert accepted == _VALIDATOR.is_valid(args), args
