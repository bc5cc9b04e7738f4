"""The Claude Code PreToolUse adapter, on real-shaped payloads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.decision import Verdict
from policylang.integrations import claude_code
from policylang.integrations._common import PolicyLike

from .conftest import TablePolicy


def payload(command: Any = "ls -la", tool: Any = "Bash", **extra: Any) -> str:
    body: dict[str, Any] = {
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/x/abc123.jsonl",
        "cwd": "/work/repo",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command, "description": "List files", "timeout": 120000},
        "tool_use_id": "toolu_01ABC",
    }
    body.update(extra)
    return json.dumps(body)


def decision_of(stdout: str) -> tuple[str, str]:
    out = json.loads(stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse"
    return out["permissionDecision"], out["permissionDecisionReason"]


@pytest.mark.parametrize(
    ("command", "expected"), [("ls -la", "allow"), ("npm install", "ask"), ("rm -rf /", "deny")]
)
def test_bash_call_gets_policy_verdict(policy: TablePolicy, command: str, expected: str) -> None:
    result = claude_code.handle(payload(command), lambda: policy, environ={})
    assert result.exit_code == 0
    verdict, reason = decision_of(result.stdout)
    assert verdict == expected
    assert reason.startswith("policylang: ")
    assert f"rule-{command.split()[0]}" in reason


def test_cwd_and_workspace_come_from_payload_and_environment(policy: TablePolicy) -> None:
    claude_code.handle(payload("ls"), lambda: policy, environ={"CLAUDE_PROJECT_DIR": "/work"})
    claude_code.handle(payload("ls"), lambda: policy, environ={})
    claude_code.handle(payload("ls"), lambda: policy, workspace="/ws", environ={})
    assert policy.calls == [
        ("ls", "/work/repo", "/work"),
        # no project folder given: the payload's cwd and each folder above it (BJ1)
        ("ls", "/work/repo", "/work/repo"),
        ("ls", "/work/repo", "/work"),
        ("ls", "/work/repo", "/ws"),
    ]


def test_without_a_project_folder_the_workspace_does_not_follow_the_agent_s_cd(
    tmp_path: Any,
) -> None:
    """Review BJ1: with no `$CLAUDE_PROJECT_DIR` and no `--workspace`, the payload's cwd
    was the workspace, so from a subfolder `cat ../server.key` was outside it (and outside
    the workspace-anchored `**/*.key`): allowed."""
    from policylang import load_policy

    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "server.key").write_text("KEY\n")
    policy = load_policy(snapshot=False)
    cwd = str(project / "sub")
    for command in ("cat ../server.key", "cat ../tls.pem", "cat ../prod.env"):
        result = claude_code.handle(payload(command, cwd=cwd), lambda: policy, environ={})
        assert decision_of(result.stdout)[0] == "deny", command
    result = claude_code.handle(payload("ls", cwd=cwd), lambda: policy, environ={})
    assert decision_of(result.stdout)[0] == "allow"
    # a repository above the cwd is the workspace: judged once, under its root
    (project / ".git").mkdir()
    result = claude_code.handle(payload("cat ../server.key", cwd=cwd), lambda: policy, environ={})
    assert decision_of(result.stdout)[0] == "deny"


def test_ask_reason_carries_the_suggested_rule(policy: TablePolicy) -> None:
    _, reason = decision_of(claude_code.handle(payload("npm i"), lambda: policy).stdout)
    assert "(suggested rule to always allow it: `allow npm`)" in reason


@pytest.mark.parametrize("tool", ["Read", "Edit", "Write", "mcp__github__create_issue", "Task"])
def test_other_tools_pass_through_without_loading_the_policy(tool: str) -> None:
    def factory() -> PolicyLike:
        raise AssertionError("the policy must not be loaded for other tools")

    result = claude_code.handle(payload(tool=tool), factory)
    assert (result.stdout, result.stderr, result.exit_code) == ("", "", 0)


@pytest.mark.parametrize("event", ["PostToolUse", None, 1, ["PreToolUse"]])
def test_other_hook_events_pass_through(policy: TablePolicy, event: object) -> None:
    # (an event that is no string, `null`, was judged as PreToolUse and could be
    # answered "allow": found by the property below)
    result = claude_code.handle(payload(hook_event_name=event), lambda: policy)
    assert (result.stdout, result.exit_code) == ("", 0)
    assert policy.calls == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[1, 2]",
        '"Bash"',
        "null",
        '{"tool_input": {"command": "ls"}}',
        '{"tool_name": 7, "tool_input": {"command": "ls"}}',
        '{"tool_name": "Bash", "tool_input": {"command": "ls"}',
    ],
)
def test_unreadable_payload_blocks_with_exit_2(policy: TablePolicy, text: str) -> None:
    result = claude_code.handle(text, lambda: policy)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("policylang: refused: ")
    assert policy.calls == []


@pytest.mark.parametrize(
    "tool_input", [None, "ls", ["ls"], {}, {"command": None}, {"command": ["ls"]}, {"cmd": "ls"}]
)
def test_bash_call_without_command_is_denied(policy: TablePolicy, tool_input: Any) -> None:
    text = json.dumps(
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": tool_input}
    )
    result = claude_code.handle(text, lambda: policy)
    assert result.exit_code == 0
    assert decision_of(result.stdout)[0] == "deny"
    assert policy.calls == []


def test_policy_that_fails_to_load_asks_with_the_error() -> None:
    def factory() -> PolicyLike:
        raise ValueError("rulesets/x.policy:3:1: error[rules.unknown-directive]: unknown directive")

    verdict, reason = decision_of(claude_code.handle(payload("ls"), factory).stdout)
    assert verdict == "ask"
    assert "the policy could not be loaded" in reason
    assert "unknown directive" in reason


def test_evaluation_that_raises_asks(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(TablePolicy):
        def evaluate(self, command: str, **_: Any) -> Any:
            raise RuntimeError("boom")

    verdict, reason = decision_of(claude_code.handle(payload("ls"), lambda: Broken({})).stdout)
    assert verdict == "ask"
    assert "internal error while evaluating: boom" in reason


def test_missing_cwd_is_passed_as_unknown(policy: TablePolicy) -> None:
    text = json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}})
    verdict, _ = decision_of(claude_code.handle(text, lambda: policy, environ={}).stdout)
    assert verdict == "allow"
    assert policy.calls == [("ls", None, None)]


def test_every_verdict_has_a_claude_code_word() -> None:
    for verdict in Verdict:
        assert decision_of(claude_code.answer(verdict, "r").stdout) == (str(verdict), "r")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=10,
)
payload_objects = st.fixed_dictionaries(
    {},
    optional={
        "tool_name": st.sampled_from(["Bash", "Read", ""]) | json_values,
        "hook_event_name": st.sampled_from(["PreToolUse", "PostToolUse"]) | json_values,
        "tool_input": st.fixed_dictionaries({}, optional={"command": json_values}) | json_values,
        "cwd": json_values,
    },
)


@settings(max_examples=200, deadline=None)
@given(
    text=st.one_of(
        payload_objects.map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=40),
    )
)
def test_nothing_but_a_well_formed_bash_call_is_ever_allowed(text: str) -> None:
    allow_all = TablePolicy({}, default=Verdict.ALLOW)
    result = claude_code.handle(text, lambda: allow_all, environ={})
    if result.exit_code != 0 or not result.stdout:
        return
    verdict, _ = decision_of(result.stdout)
    if verdict != "allow":
        return
    body = json.loads(text)
    assert body["tool_name"] == "Bash"
    assert body.get("hook_event_name", "PreToolUse") == "PreToolUse"
    assert isinstance(body["tool_input"]["command"], str)
    assert allow_all.calls[-1][0] == body["tool_input"]["command"]


def test_a_relative_cwd_is_the_hooks_folder_and_nul_is_refused(policy: TablePolicy) -> None:
    # review AM6: a relative cwd was joined to itself (`.ssh/.ssh/id_rsa`)
    import os

    claude_code.handle(payload("ls", cwd=".ssh"), lambda: policy, environ={})
    here = os.path.abspath(".ssh")
    assert policy.calls
    for command, cwd, workspace in policy.calls:  # the folder or one above it (BJ1)
        assert (command, cwd) == ("ls", here)
        assert here == workspace or here.startswith(workspace.rstrip("/") + "/")
    calls = len(policy.calls)
    result = claude_code.handle(payload("ls", cwd="/work/repo\x00/x"), lambda: policy, environ={})
    verdict, reason = decision_of(result.stdout)
    assert verdict == "ask"
    assert "NUL" in reason
    assert len(policy.calls) == calls
