"""Integrations stage: the Claude Code `PreToolUse` hook; imports `decision` and `_common`.

Claude Code runs the hook once per tool call with a JSON payload on stdin::

    {"session_id": "…", "transcript_path": "…", "cwd": "/repo", "permission_mode": "default",
     "hook_event_name": "PreToolUse", "tool_name": "Bash",
     "tool_input": {"command": "npm test", "description": "…", "timeout": 120000},
     "tool_use_id": "toolu_…"}

and reads the answer from stdout (exit 0)::

    {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                            "permissionDecisionReason": "policylang: …"}}

How each payload is answered (`handle`):

==================================================  ==========================================
payload                                             answer
==================================================  ==========================================
`Bash` call                                         allow / ask / deny from the policy, exit 0
any other tool, or another hook event               nothing on stdout, exit 0 (pass-through:
                                                    Claude Code's own permissions decide)
not JSON, not an object, no string `tool_name`      exit 2 with the reason on stderr: Claude
                                                    Code blocks the call (a deny)
`Bash` call without a string `tool_input.command`   deny
`Bash` call with `dangerouslyDisableSandbox` set    at most ask: leaving Claude Code's own
                                                    sandbox is the human's to allow
policy fails to load, or evaluation fails           ask, with the error as the reason
an ask, when `permission_mode` is one in which       deny, with the reason: Claude Code runs
Claude Code does not prompt (`auto`,                 a hook's ask there without a prompt
`bypassPermissions`, `dontAsk`, any it does not      (review DU6); likewise every ask with
know), or with `ask_as=DENY`                         `ask_as=DENY` (`--ask-as deny`)
==================================================  ==========================================

A malformed payload is denied rather than asked because policylang saw nothing it could
show a human; a broken policy is asked because the human sees the real command in Claude
Code's prompt and can still decide.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, assert_never

from policylang.decision import Decision, Verdict, strictest
from policylang.integrations._common import (
    JS_SPACE,
    HookResult,
    PayloadError,
    PolicyFactory,
    describe_decision,
    evaluate_safely,
    guessed_workspaces,
    read_payload,
    string_field,
)

#: The permission modes in which Claude Code shows a person a hook's `ask`. In the others
#: an `ask` runs unprompted (`auto`: anthropics/claude-code#51255, #89561;
#: `bypassPermissions` before 2.1.233: #77212) or is refused, so policylang answers deny
#: there, and for a mode it does not know. A payload without `permission_mode` (older
#: releases, a hand-made payload) keeps its ask.
PROMPTING_MODES = frozenset({"default", "acceptEdits", "plan"})

EVENT = "PreToolUse"
SHELL_TOOL = "Bash"
# Claude Code treats exit 2 from a PreToolUse hook as "block this call", stderr as the reason.
EXIT_BLOCK = 2


def handle(
    text: str,
    factory: PolicyFactory,
    *,
    workspace: str | None = None,
    environ: Mapping[str, str] | None = None,
    ask_as: Verdict = Verdict.ASK,
) -> HookResult:
    """Answer one PreToolUse payload.

    Args:
        text: the raw stdin of the hook.
        factory: returns the policy; called only for `Bash` calls.
        workspace: the workspace root; defaults to `$CLAUDE_PROJECT_DIR`, then
            `guessed_workspaces(cwd)` (the strictest decision wins).
        environ: the hook's environment (for `CLAUDE_PROJECT_DIR`); defaults to `os.environ`.
        ask_as: what to answer when the policy says ask (ASK or DENY); an ask is a deny
            anyway when the payload's `permission_mode` is not in `PROMPTING_MODES`.

    Returns:
        The stdout, stderr and exit code the hook process must produce.
    """
    if ask_as is Verdict.ALLOW:
        raise ValueError("ask_as must be ASK or DENY: an ask is never turned into allow")
    result = _handle(text, factory, workspace=workspace, environ=environ)
    return _unprompted(text, result, ask_as)


def _unprompted(text: str, result: HookResult, ask_as: Verdict) -> HookResult:
    """`result`, an ask turned into deny where no person would be asked (see `handle`)."""
    if not result.stdout:
        return result
    body = json.loads(result.stdout)["hookSpecificOutput"]
    if body["permissionDecision"] != "ask":
        return result
    reason = str(body["permissionDecisionReason"])
    if ask_as is Verdict.DENY:
        return answer(Verdict.DENY, f"{reason} [denied: the hook answers ask as deny "
                                    "(`--ask-as deny`)]")
    mode = read_payload(text).get("permission_mode")  # (it parsed: there is an answer)
    if mode is None or (isinstance(mode, str) and mode in PROMPTING_MODES):
        return result
    if not isinstance(mode, str):
        # a list or an object is no mode Claude Code sends: `mode in PROMPTING_MODES` had
        # raised (unhashable), and the call was blocked as an internal error (review DV4)
        return answer(
            Verdict.DENY,
            f"{reason} [denied: the payload's permission mode (`permission_mode`) is not a "
            f"string ({json.dumps(mode)[:80]}), so whether Claude Code would ask anyone "
            "cannot be known; an ask is a deny in a mode policylang does not know]",
        )
    return answer(
        Verdict.DENY,
        f"{reason} [denied: in permission mode `{mode}` Claude Code would run a hook's "
        "ask without asking anyone; switch to the default mode to be asked, or add a rule]",
    )


def _handle(
    text: str,
    factory: PolicyFactory,
    *,
    workspace: str | None,
    environ: Mapping[str, str] | None,
) -> HookResult:
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
    # an event named otherwise, or not by a string (`null`), is no call to judge here
    if payload.get("hook_event_name", EVENT) != EVENT or tool != SHELL_TOOL:
        return HookResult()
    command = _command_of(payload)
    if command is None:
        return answer(Verdict.DENY, "policylang: Bash call without a string `tool_input.command`")
    cwd = string_field(payload, "cwd")
    if cwd is not None and "\x00" in cwd:
        return answer(Verdict.ASK, "policylang: the payload's `cwd` holds a NUL byte")
    if cwd:
        # a relative `cwd` (`.` in a hand-made payload) is the hook's own folder; judged
        # as given, it was joined to itself as the workspace too (review AM6)
        cwd = os.path.abspath(cwd)
    env = os.environ if environ is None else environ
    given = workspace or env.get("CLAUDE_PROJECT_DIR")
    worst: Decision | None = None
    for text in _texts_run(command):
        for root in [given] if given else guessed_workspaces(cwd):
            outcome = evaluate_safely(factory, text, cwd=cwd, workspace=root, env=env)
            if not isinstance(outcome, Decision):
                return answer(Verdict.ASK, outcome)
            if worst is None or strictest(outcome.verdict, worst.verdict) is not worst.verdict:
                worst = outcome
    assert worst is not None  # INVARIANT: at least one root
    if worst.verdict is Verdict.ALLOW and _leaves_sandbox(payload):
        # an allow answered here skips the prompt Claude Code shows for a command run
        # outside its sandbox (review CG6): the policy judged the command, not that
        return answer(
            Verdict.ASK,
            "policylang: the command asks to run outside Claude Code's sandbox "
            f"(`dangerouslyDisableSandbox`); the policy allows it: {describe_decision(worst)}",
        )
    return answer(worst.verdict, describe_decision(worst))


def _texts_run(command: str) -> tuple[str, ...]:
    """`command`, and the same with JavaScript's white space trimmed from its ends.

    WHY: Gemini CLI runs `command.trim()` (review FA1: `cat .env\\u00a0`, one word
    `.env\\xa0` for bash, ran `cat .env`), and whether a Claude Code release trims the
    command it runs is not known here, so both are judged and the strictest answer wins.

    >>> _texts_run("cat .env\\u3000")
    ('cat .env\\u3000', 'cat .env')
    >>> _texts_run("git status")
    ('git status',)
    """
    trimmed = command.strip(JS_SPACE)
    return (command,) if trimmed == command else (command, trimmed)


def _leaves_sandbox(payload: Mapping[str, Any]) -> bool:
    """Whether the call asks to run outside Claude Code's sandbox (any value but an
    explicit false counts: a string "true" is what a model may send)."""
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict) or "dangerouslyDisableSandbox" not in tool_input:
        return False
    return tool_input["dangerouslyDisableSandbox"] not in (False, None)


def _command_of(payload: Mapping[str, Any]) -> str | None:
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    return string_field(tool_input, "command")


def answer(verdict: Verdict, reason: str) -> HookResult:
    """The hook output for a verdict: Claude Code's `permissionDecision` uses our words."""
    body = {
        "hookSpecificOutput": {
            "hookEventName": EVENT,
            "permissionDecision": _permission_decision(verdict),
            "permissionDecisionReason": reason,
        }
    }
    # ASCII: a lone surrogate from the payload is escaped, never an encoding error
    return HookResult(stdout=json.dumps(body) + "\n")


def _permission_decision(verdict: Verdict) -> str:
    match verdict:
        case Verdict.ALLOW:
            return "allow"
        case Verdict.ASK:
            return "ask"
        case Verdict.DENY:
            return "deny"
        case _:
            assert_never(verdict)
