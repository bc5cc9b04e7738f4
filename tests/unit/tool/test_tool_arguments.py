"""The `bash` tool's schema and its teaching errors for every invalid argument shape."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import jsonschema
import pytest

from policylang.tool import (
    ALLOWED_KEYS,
    ArgumentProblems,
    BashArgs,
    ToolStatus,
    bash_tool_schema,
    parse_arguments,
)

from .conftest import TablePolicy, make_tool


def _walk(node: object) -> list[str]:
    keys: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            keys.append(key)
            keys += _walk(value)
    elif isinstance(node, list):
        for item in node:
            keys += _walk(item)
    return keys


def test_schema_shape() -> None:
    schema = bash_tool_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["required"] == ["command"]
    assert schema["additionalProperties"] is False
    assert tuple(schema["properties"]) == ALLOWED_KEYS
    assert not {"anyOf", "oneOf", "allOf"} & set(_walk(schema))
    assert schema["properties"]["timeout_s"]["default"] == 120
    assert "5-10 words" in schema["properties"]["description"]["description"]
    json.dumps(schema)


def test_schema_without_sandbox_keys() -> None:
    props = bash_tool_schema(sandbox_keys=False)["properties"]
    assert "sandbox" not in props
    assert "justification" not in props


VALID: list[dict[str, Any]] = [
    {"command": "ls"},
    {"command": "ls", "timeout_s": 5, "workdir": "sub", "description": "List the sub folder",
     "background": False, "login": False},
    {"command": "make", "timeout_s": 0.5},
    {"command": "curl example.com", "sandbox": "escalated", "justification": "needs network"},
    {"command": "ls", "description": None},
]


@pytest.mark.parametrize("arguments", VALID)
def test_valid_arguments_agree_with_the_schema(arguments: dict[str, Any]) -> None:
    assert isinstance(parse_arguments(arguments), BashArgs)
    if arguments.get("description", "") is not None:
        jsonschema.validate(arguments, bash_tool_schema())


def test_defaults_and_clamp() -> None:
    args = parse_arguments({"command": "ls"})
    assert isinstance(args, BashArgs)
    assert (args.timeout_s, args.timeout_given, args.background, args.login) == (
        120.0, False, False, False)
    clamped = parse_arguments({"command": "ls", "timeout_s": 10_000})
    assert isinstance(clamped, BashArgs)
    assert clamped.timeout_s == 600.0
    assert clamped.timeout_clamped


# (arguments, substrings the message must contain)
INVALID: list[tuple[object, tuple[str, ...]]] = [
    (["ls", "-la"], ("must be a JSON object with key 'command'", "got array")),
    ("ls -la", ("got string", '{"command": "..."}')),
    (None, ("got null",)),
    (42, ("got number 42",)),
    ({}, ("Missing command (got top-level keys: none; expected key 'command')",)),
    ({"cmd": "ls", "timeout": 5},
     ("Missing command (got top-level keys: cmd, timeout; expected key 'command')",
      "Unknown key 'cmd' (did you mean 'command'?)",
      "Unknown key 'timeout' (did you mean 'timeout_s'?)")),
    ({"comand": "ls"}, ("Unknown key 'comand' (did you mean 'command'?)",)),
    ({"command": "ls", "cwd": "/tmp"}, ("Unknown key 'cwd' (did you mean 'workdir'?)",
                                        "allowed keys: command, timeout_s")),
    ({"command": "ls", "run_in_background": True}, ("did you mean 'background'?",)),
    ({"command": "ls", "xyzzy": 1}, ("Unknown key 'xyzzy'; allowed keys",)),
    ({"command": ["ls", "-la"]}, ("'command' must be a string (got array", '"ls -la"')),
    ({"command": 7}, ("'command' must be a string holding a shell command line (got number 7)",)),
    ({"command": None}, ("'command' must be a string", "got null")),
    ({"command": {"run": "ls"}}, ("got object",)),
    ({"command": ""}, ("'command' is empty",)),
    ({"command": "   "}, ("'command' is empty",)),
    ({"command": "ls\x00rm"}, ("NUL character",)),
    ({"command": "ls", "timeout_s": "30"}, ("'timeout_s' must be a number of seconds",
                                            'got string "30"', "without quotes")),
    ({"command": "ls", "timeout_s": True}, ("got boolean true",)),
    ({"command": "ls", "timeout_s": None}, ("'timeout_s' must be a number", "got null")),
    ({"command": "ls", "timeout_s": 0}, ("'timeout_s' must be greater than 0 (got number 0)",
                                         "omit it for the default of 120 s")),
    ({"command": "ls", "timeout_s": -5}, ("must be greater than 0",)),
    ({"command": "ls", "timeout_s": float("nan")}, ("finite",)),
    ({"command": "ls", "timeout_s": float("inf")}, ("finite",)),
    ({"command": "ls", "timeout_s": [5]}, ("got array",)),
    ({"command": "ls", "workdir": 3}, ("'workdir' must be a string (got number 3)",)),
    ({"command": "ls", "workdir": ""}, ("'workdir' is empty",)),
    ({"command": "ls", "description": ["a"]}, ("'description' must be a string",)),
    ({"command": "ls", "description": "word " * 100}, ("keep it to 5-10 words",)),
    ({"command": "ls", "background": "true"}, ("'background' must be a boolean",
                                              "without quotes")),
    ({"command": "ls", "background": 1}, ("'background' must be a boolean", "got number 1")),
    ({"command": "ls", "login": "yes"}, ("'login' must be a boolean",)),
    ({"command": "ls", "sandbox": "off"}, ("'sandbox' must be \"default\" or \"escalated\"",)),
    ({"command": "ls", "sandbox": ["escalated"]}, ("'sandbox' must be",)),
    ({"command": "ls", "sandbox": "escalated"}, ("'justification' is required",)),
    ({"command": "ls", "sandbox": "escalated", "justification": " "},
     ("'justification' is empty",)),
    ({"command": "ls", "justification": "because"}, ("only used with",)),
    ({"command": "ls", "justification": 5, "sandbox": "escalated"},
     ("'justification' must be a string",)),
]


@pytest.mark.parametrize(("arguments", "expected"), INVALID)
def test_every_invalid_shape_gets_a_teaching_error(arguments: object,
                                                   expected: tuple[str, ...]) -> None:
    problems = parse_arguments(arguments)
    assert isinstance(problems, ArgumentProblems)
    for text in expected:
        assert text in problems.message
    assert problems.message.endswith('{"command": "ls -la src", '
                                     '"description": "List the files in src"}')


@pytest.mark.parametrize(("arguments", "expected"), INVALID)
def test_invalid_calls_never_reach_the_policy_or_the_shell(
    arguments: object, expected: tuple[str, ...], workspace: str
) -> None:
    policy = TablePolicy()
    result = make_tool(policy, workspace).call(arguments)
    assert result.status is ToolStatus.INVALID
    assert result.is_error
    assert result.result is None
    assert expected[0] in result.model_text
    assert policy.calls == []


SCHEMA_ALSO_REJECTS: list[object] = [
    ["ls"], "ls", None, {}, {"cmd": "ls"}, {"command": "ls", "cwd": "/"}, {"command": 7},
    {"command": ["ls"]}, {"command": ""}, {"command": "ls", "timeout_s": "30"},
    {"command": "ls", "timeout_s": True}, {"command": "ls", "timeout_s": 0},
    {"command": "ls", "timeout_s": -5}, {"command": "ls", "workdir": ""},
    {"command": "ls", "workdir": 3}, {"command": "ls", "description": "word " * 100},
    {"command": "ls", "background": "true"}, {"command": "ls", "login": 1},
    {"command": "ls", "sandbox": "off"},
    {"command": "ls", "sandbox": "escalated", "justification": ""},
]


@pytest.mark.parametrize("arguments", SCHEMA_ALSO_REJECTS)
def test_the_schema_rejects_what_it_can_express(arguments: object) -> None:
    # The schema is what a model sees: shapes it can express are rejected there too.
    assert not jsonschema.Draft202012Validator(bash_tool_schema()).is_valid(arguments)
    assert isinstance(parse_arguments(arguments), ArgumentProblems)


def test_missing_workdir_is_a_teaching_error(workspace: str) -> None:
    policy = TablePolicy()
    result = make_tool(policy, workspace).call({"command": "ls", "workdir": "nope"})
    assert result.status is ToolStatus.INVALID
    assert "'workdir' `nope` is not an existing directory" in result.model_text
    assert f"resolved against the workspace {workspace}" in result.model_text
    assert policy.calls == []


def test_background_without_a_job_store_is_a_teaching_error(workspace: str) -> None:
    marker = pathlib.Path(workspace) / "ran"
    result = make_tool(TablePolicy(), workspace).call(
        {"command": f"touch {marker}", "background": True})
    assert result.status is ToolStatus.INVALID
    assert "omit 'background'" in result.model_text
    assert not marker.exists()


def test_escalation_without_a_sandbox_is_a_teaching_error(workspace: str) -> None:
    result = make_tool(TablePolicy(), workspace).call(
        {"command": "ls", "sandbox": "escalated", "justification": "network"})
    assert result.status is ToolStatus.INVALID
    assert "nothing to escalate from" in result.model_text
