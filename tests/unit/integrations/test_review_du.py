"""Review DU: the Claude Code hook in modes that do not prompt, and `--ask-as deny`;
`policylang run` and the hooks are not dumpable. Real processes, real protocols."""

from __future__ import annotations

import json

import pytest

from .test_hook_cli import claude_answer, hook


def _payload(command: str, mode: object = "default") -> str:
    body: dict[str, object] = {
        "session_id": "0b6d8c52", "cwd": "/tmp", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_01",
    }
    if mode is not None:
        body["permission_mode"] = mode
    return json.dumps(body)


@pytest.mark.parametrize("mode", ["auto", "bypassPermissions", "dontAsk", "someNewMode", 7])
def test_du6_an_ask_is_denied_where_claude_code_would_not_prompt(mode: object) -> None:
    # Claude Code runs a hook's `ask` without a prompt in these modes: the ask must hold
    out = claude_answer(hook("claude-code", _payload("npm install left-pad", mode)))
    assert out["permissionDecision"] == "deny"
    reason = out["permissionDecisionReason"]
    assert "npm install" in reason
    assert "permission mode" in reason


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", None])
def test_du6_an_ask_stays_an_ask_where_claude_code_prompts(mode: object) -> None:
    out = claude_answer(hook("claude-code", _payload("npm install left-pad", mode)))
    assert out["permissionDecision"] == "ask"


@pytest.mark.parametrize(("command", "verdict"), [("ls -la", "allow"), ("rm -rf build", "deny")])
def test_du6_allow_and_deny_are_unchanged_in_auto_mode(command: str, verdict: str) -> None:
    out = claude_answer(hook("claude-code", _payload(command, "auto")))
    assert out["permissionDecision"] == verdict


def test_du6_ask_as_deny_is_honoured_for_claude_code() -> None:
    # it was accepted and silently ignored
    proc = hook("claude-code", _payload("npm install left-pad"), "--ask-as", "deny")
    out = claude_answer(proc)
    assert out["permissionDecision"] == "deny"
    assert "--ask-as deny" in out["permissionDecisionReason"]
    allowed = claude_answer(hook("claude-code", _payload("ls -la"), "--ask-as", "deny"))
    assert allowed["permissionDecision"] == "allow"
