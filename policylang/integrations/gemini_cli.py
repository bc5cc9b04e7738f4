"""Integrations stage: the Gemini CLI `BeforeTool` hook; imports `decision` and `_common`.

Gemini CLI runs the hook with a JSON payload on stdin::

    {"session_id": "…", "transcript_path": "…", "cwd": "/repo", "hook_event_name": "BeforeTool",
     "timestamp": "…", "tool_name": "run_shell_command",
     "tool_input": {"command": "npm test", "description": "…", "dir_path": "web"}}

and reads ``{"decision": "allow" | "ask" | "deny", "reason": "…"}`` from stdout (exit 0).
A `deny` blocks the call and sends `reason` to the model; `ask` makes Gemini CLI confirm
with the user even when its own policy would not (releases whose hooks predate `ask`
ignore it: use ``--ask-as deny`` there, or in headless runs); `allow` means policylang
has no objection, and Gemini CLI's own policy still applies.

Payload handling follows the Claude Code adapter: other tools and events pass through
(exit 0, no output); an unreadable payload exits 2 (Gemini CLI blocks the call and uses
stderr as the reason); a shell call without a string command is denied; a policy that
fails to load, or an evaluation that fails, is asked.
"""

from __future__ import annotations

import json
import os
import os.path
from collections.abc import Mapping
from typing import Any, assert_never

from policylang.decision import Decision, Verdict
from policylang.integrations._common import (
    HookResult,
    PayloadError,
    PolicyFactory,
    describe_decision,
    evaluate_safely,
    read_payload,
    string_field,
)

EVENT = "BeforeTool"
SHELL_TOOL = "run_shell_command"
EXIT_BLOCK = 2
# The shell tool's working-directory argument, relative to the project root; older
# releases named it `directory`.
_DIR_KEYS = ("dir_path", "directory")


def handle(
    text: str,
    factory: PolicyFactory,
    *,
    workspace: str | None = None,
    ask_as: Verdict = Verdict.ASK,
    environ: Mapping[str, str] | None = None,
) -> HookResult:
    """Answer one BeforeTool payload.

    Args:
        text: the raw stdin of the hook.
        factory: returns the policy; called only for shell calls.
        workspace: the workspace root; defaults to `$GEMINI_PROJECT_DIR`, then the payload's cwd.
        ask_as: what to answer when the policy says ask (ASK or DENY).
        environ: the hook's environment; defaults to `os.environ`.

    Returns:
        The stdout, stderr and exit code the hook process must produce.
    """
    if ask_as is Verdict.ALLOW:
        raise ValueError("ask can be answered as ask or deny, never allow")
    try:
        payload = read_payload(text)
    except PayloadError as error:
        return HookResult(stderr=f"policylang: refused: {error}\n", exit_code=EXIT_BLOCK)
    tool = string_field(payload, "tool_name")
    if tool is None:
        return HookResult(
            stderr="policylang: refused: hook payload has no string `tool_name`\n",
            exit_code=EXIT_BLOCK,
        )
    event = string_field(payload, "hook_event_name")
    if (event is not None and event != EVENT) or tool != SHELL_TOOL:
        return HookResult()
    tool_input = payload.get("tool_input")
    command = string_field(tool_input, "command") if isinstance(tool_input, dict) else None
    if command is None or not isinstance(tool_input, dict):
        return answer(Verdict.DENY, "policylang: shell call without a string `tool_input.command`")
    env = os.environ if environ is None else environ
    base = string_field(payload, "cwd")
    root = workspace or env.get("GEMINI_PROJECT_DIR") or base
    cwd = _working_directory(tool_input, base or root)
    outcome = evaluate_safely(factory, command, cwd=cwd, workspace=root)
    if isinstance(outcome, Decision):
        verdict = ask_as if outcome.verdict is Verdict.ASK else outcome.verdict
        return answer(verdict, describe_decision(outcome))
    return answer(ask_as, outcome)


def _working_directory(tool_input: Mapping[str, Any], base: str | None) -> str | None:
    for key in _DIR_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            if os.path.isabs(value):
                return value
            return None if base is None else os.path.normpath(os.path.join(base, value))
    return base


def answer(verdict: Verdict, reason: str) -> HookResult:
    """The hook output for a verdict."""
    body: dict[str, str] = {"decision": _decision(verdict)}
    if verdict is not Verdict.ALLOW:
        body["reason"] = reason
        body["systemMessage"] = reason
    # ASCII: a lone surrogate from the payload is escaped, never an encoding error
    return HookResult(stdout=json.dumps(body) + "\n")


def _decision(verdict: Verdict) -> str:
    match verdict:
        case Verdict.ALLOW:
            return "allow"
        case Verdict.ASK:
            return "ask"
        case Verdict.DENY:
            return "deny"
        case _:
            assert_never(verdict)
