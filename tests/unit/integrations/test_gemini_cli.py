"""The Gemini CLI BeforeTool adapter, on real-shaped payloads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.decision import Verdict
from policylang.integrations import gemini_cli
from policylang.integrations._common import PolicyLike

from .conftest import TablePolicy


def payload(command: Any = "ls", tool: Any = "run_shell_command", **tool_input: Any) -> str:
    return json.dumps(
        {
            "session_id": "s-1",
            "transcript_path": "/home/u/.gemini/tmp/chats/s-1.json",
            "cwd": "/work/repo",
            "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-02T13:00:00.000Z",
            "tool_name": tool,
            "tool_input": {"command": command, "description": "run it", **tool_input},
        }
    )


def answer_of(stdout: str) -> dict[str, str]:
    body = json.loads(stdout)
    assert isinstance(body, dict)
    return body


@pytest.mark.parametrize(
    ("command", "expected"), [("ls", "allow"), ("npm i", "ask"), ("rm x", "deny")]
)
def test_shell_call_gets_policy_verdict(policy: TablePolicy, command: str, expected: str) -> None:
    result = gemini_cli.handle(payload(command), lambda: policy, environ={})
    assert result.exit_code == 0
    body = answer_of(result.stdout)
    assert body["decision"] == expected
    if expected == "allow":
        assert "reason" not in body
    else:
        assert body["reason"].startswith("policylang: ")


def test_ask_can_be_answered_as_deny(policy: TablePolicy) -> None:
    result = gemini_cli.handle(payload("npm i"), lambda: policy, ask_as=Verdict.DENY)
    assert answer_of(result.stdout)["decision"] == "deny"
    allowed = gemini_cli.handle(payload("ls"), lambda: policy, ask_as=Verdict.DENY)
    assert answer_of(allowed.stdout)["decision"] == "allow"


def test_ask_as_allow_is_refused(policy: TablePolicy) -> None:
    with pytest.raises(ValueError, match="never allow"):
        gemini_cli.handle(payload(), lambda: policy, ask_as=Verdict.ALLOW)


@pytest.mark.parametrize(
    ("extra", "cwd"),
    [
        ({}, "/work/repo"),
        ({"dir_path": "web"}, "/work/repo/web"),
        ({"directory": "web/../api"}, "/work/repo/api"),
        ({"dir_path": "/abs/dir"}, "/abs/dir"),
    ],
)
def test_working_directory(policy: TablePolicy, extra: dict[str, str], cwd: str) -> None:
    gemini_cli.handle(payload("ls", **extra), lambda: policy, environ={"GEMINI_PROJECT_DIR": "/w"})
    # the payload's cwd is judged too: current releases ignore `directory` (review N3)
    expected = [("ls", "/work/repo", "/w")] + ([("ls", cwd, "/w")] if extra else [])
    assert policy.calls == expected


@pytest.mark.parametrize("tool", ["read_file", "write_file", "replace", "mcp__gh__issue"])
def test_other_tools_pass_through(tool: str) -> None:
    def factory() -> PolicyLike:
        raise AssertionError("not loaded for other tools")

    result = gemini_cli.handle(payload(tool=tool), factory)
    assert (result.stdout, result.stderr, result.exit_code) == ("", "", 0)


@pytest.mark.parametrize("event", ["AfterTool", None, 1])
def test_after_tool_event_passes_through(policy: TablePolicy, event: object) -> None:
    text = json.dumps({"hook_event_name": event, "tool_name": "run_shell_command",
                       "tool_input": {"command": "ls"}})  # fmt: skip
    assert gemini_cli.handle(text, lambda: policy).stdout == ""
    assert policy.calls == []


@pytest.mark.parametrize("text", ["", "{", "[]", '{"tool_input": {"command": "ls"}}'])
def test_unreadable_payload_blocks(policy: TablePolicy, text: str) -> None:
    result = gemini_cli.handle(text, lambda: policy)
    assert result.exit_code == 2
    assert result.stderr.startswith("policylang: refused: ")


@pytest.mark.parametrize("tool_input", [None, {}, {"command": 3}])
def test_shell_call_without_command_is_denied(policy: TablePolicy, tool_input: Any) -> None:
    text = json.dumps({"tool_name": "run_shell_command", "tool_input": tool_input})
    assert answer_of(gemini_cli.handle(text, lambda: policy).stdout)["decision"] == "deny"


def test_broken_policy_asks_or_denies_per_ask_as() -> None:
    def factory() -> PolicyLike:
        raise OSError("no such file: team.policy")

    asked = answer_of(gemini_cli.handle(payload(), factory).stdout)
    assert asked["decision"] == "ask"
    assert "no such file: team.policy" in asked["reason"]
    denied = answer_of(gemini_cli.handle(payload(), factory, ask_as=Verdict.DENY).stdout)
    assert denied["decision"] == "deny"


@settings(max_examples=200, deadline=None)
@given(
    text=st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "tool_name": st.sampled_from(["run_shell_command", "read_file"]) | st.integers(),
                "hook_event_name": st.sampled_from(["BeforeTool", "AfterTool"]) | st.none(),
                "tool_input": st.fixed_dictionaries(
                    {}, optional={"command": st.text(max_size=5) | st.integers() | st.none()}
                )
                | st.text(max_size=5),
            },
        ).map(json.dumps),
        st.text(max_size=30),
    )
)
def test_nothing_but_a_well_formed_shell_call_is_ever_allowed(text: str) -> None:
    allow_all = TablePolicy({}, default=Verdict.ALLOW)
    result = gemini_cli.handle(text, lambda: allow_all, environ={})
    if (
        result.exit_code != 0
        or not result.stdout
        or answer_of(result.stdout)["decision"] != "allow"
    ):
        return
    body = json.loads(text)
    assert body["tool_name"] == "run_shell_command"
    assert body.get("hook_event_name") in (None, "BeforeTool")
    assert isinstance(body["tool_input"]["command"], str)
