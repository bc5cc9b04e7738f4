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
import re
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

EVENT = "BeforeTool"
SHELL_TOOL = "run_shell_command"
EXIT_BLOCK = 2
# The shell tool's working-directory argument, relative to the project root; older
# releases named it `directory`, current ones ignore that key (review N3).
_DIR_KEYS = ("dir_path", "directory")

_S = f"[{JS_SPACE}]"
# The shell wrappers Gemini CLI releases cut off before running a command: exactly
# `sh|bash|zsh -c` (any case), and, in some releases, with assignments before, a path, and
# flags such as `-e`, `-o pipefail` or `-lc`. Matching too much costs only a stricter
# answer: every text is judged, and the strictest verdict wins.
_WRAPPER_PREFIXES = (
    re.compile(f"{_S}*(?:sh|bash|zsh){_S}+-c{_S}", re.IGNORECASE | re.ASCII),
    # Windows wrappers are cut on every platform (review Q5): `cmd.exe /c cat .env` runs
    # `cat .env` through bash on Linux
    re.compile(f"{_S}*cmd\\.exe{_S}+/c{_S}", re.IGNORECASE | re.ASCII),
    re.compile(
        f"{_S}*(?:powershell|pwsh)(?:\\.exe)?{_S}+(?:-NoProfile{_S}+)?-Command{_S}",
        re.IGNORECASE | re.ASCII,
    ),
    re.compile(
        f"{_S}*(?:[A-Za-z_][A-Za-z0-9_]*=[^{JS_SPACE}]*{_S}+)*"
        f"(?:[^{JS_SPACE}]*[/\\\\])?(?:sh|bash|zsh|dash|ksh)(?:\\.exe)?{_S}+"
        f"(?:[-+][A-Za-z-]*{_S}+(?:[A-Za-z][A-Za-z0-9_-]*{_S}+)??)*?"
        f"-[A-Za-z]*c[A-Za-z]*{_S}",
        re.IGNORECASE | re.ASCII,
    ),
)


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
        workspace: the workspace root; defaults to `$GEMINI_PROJECT_DIR`, then
            `guessed_workspaces(cwd)` (the strictest decision wins).
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
    # an event named otherwise, or not by a string (`null`), is no call to judge here
    if payload.get("hook_event_name", EVENT) != EVENT or tool != SHELL_TOOL:
        return HookResult()
    tool_input = payload.get("tool_input")
    command = string_field(tool_input, "command") if isinstance(tool_input, dict) else None
    if command is None or not isinstance(tool_input, dict):
        return answer(Verdict.DENY, "policylang: shell call without a string `tool_input.command`")
    env = os.environ if environ is None else environ
    base = string_field(payload, "cwd")
    if base is not None and "\x00" in base:
        return answer(Verdict.ASK, "policylang: the payload's `cwd` holds a NUL byte")
    if base:
        # a relative `cwd` (`.` in a hand-made payload) is the hook's own folder; judged
        # as given, it was joined to itself as the workspace too (review AM6)
        base = os.path.abspath(base)
    given = workspace or env.get("GEMINI_PROJECT_DIR")
    roots = [given] if given else guessed_workspaces(base)
    worst: Decision | None = None
    for text in commands_run(command):
        for root in roots:
            for cwd in working_directories(tool_input, base or root):
                outcome = evaluate_safely(factory, text, cwd=cwd, workspace=root, env=env)
                if not isinstance(outcome, Decision):
                    return answer(ask_as, outcome)
                if worst is None or strictest(outcome.verdict, worst.verdict) is not worst.verdict:
                    worst = outcome
    assert worst is not None  # INVARIANT: at least one text and one directory
    verdict = ask_as if worst.verdict is Verdict.ASK else worst.verdict
    return answer(verdict, describe_decision(worst))


def commands_run(command: str) -> tuple[str, ...]:
    """`command` as sent, and every text a Gemini CLI release may run in its place.

    Gemini CLI cuts a leading shell wrapper (`bash -c `), then the first and last
    character when both are the same quote, *without checking that they pair up*: `bash
    -c 'echo ok' x '; cat .env'` runs `echo ok' x '; cat .env` (review N1). It runs the
    result inside `{ …; }`; that group cannot be closed early by a text that parses on
    its own, and one that does not parse is never allowed, so the group is not judged.

    >>> commands_run("bash -c 'echo ok' x '; cat .env'")
    ("bash -c 'echo ok' x '; cat .env'", "echo ok' x '; cat .env")
    >>> commands_run("git status")
    ('git status',)
    >>> commands_run("cat .env\\u00a0")
    ('cat .env\\xa0', 'cat .env')
    """
    found = [command]
    # with no wrapper, Gemini CLI runs `command.trim()`: a trailing U+00A0 or U+3000,
    # part of the last word for bash, is gone (`cat .env\u00a0` ran `cat .env`: review FA1)
    trimmed = command.strip(JS_SPACE)
    if trimmed != command:
        found.append(trimmed)
    for prefix in _WRAPPER_PREFIXES:
        match = prefix.match(command)
        if match is None:
            continue
        rest = command[match.end() :].strip(JS_SPACE)
        if rest[:1] in ("'", '"') and rest.endswith(rest[0]):
            rest = rest[1:-1]  # JavaScript's `substring(1, length - 1)`: "" for one quote
        if rest not in found:
            found.append(rest)
    return tuple(found)


def working_directories(tool_input: Mapping[str, Any], base: str | None) -> tuple[str | None, ...]:
    """Every directory a Gemini CLI release may run the command in: the project root (or
    the payload's `cwd`), then `dir_path` and `directory` when given.

    Current releases read `dir_path` (an empty one is the project root) and ignore
    `directory`; older ones read `directory`. The model writes these arguments, so a
    `directory` that current releases ignore must not move the judgement away from where
    the command runs (review N3): each candidate is judged, and the strictest answer wins.
    """
    found: list[str | None] = [base]
    for key in _DIR_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            resolved = _resolve(value, base)
            if resolved not in found:
                found.append(resolved)
    return tuple(found)


def _resolve(value: str, base: str | None) -> str | None:
    if os.path.isabs(value):
        return value
    return None if base is None else os.path.normpath(os.path.join(base, value))


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
