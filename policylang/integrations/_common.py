"""Integrations stage: what every hook adapter shares; imports only `decision` and `errors`.

The adapters see a policy through `PolicyLike` (the engine's `Policy` satisfies it) and
get it from a zero-argument factory, so a hook that passes a non-shell tool through never
pays for, or fails on, loading the ruleset.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from policylang.decision import Decision, Verdict
from policylang.diagnostics import Severity
from policylang.errors import PolicylangError, RulesetError

if TYPE_CHECKING:
    from policylang.executor.sandbox import Backend

_log = logging.getLogger(__name__)

# A reason longer than this is cut: hook reasons end up in a prompt or in the model's context.
_MAX_REASON_CHARS = 2000

#: JavaScript's `trim()` and `\s`: what a Node-based agent may strip around a command.
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


class PolicyLike(Protocol):
    """The one method the integrations need from a policy (`host_env`: the MCP server's
    and `policylang run`'s own environment, see `policylang.tool.PolicyLike`)."""

    def evaluate(
        self,
        command: str,
        *,
        cwd: str | None = None,
        workspace: str | None = None,
        env: Mapping[str, str] | None = None,
        host_env: Mapping[str, str] | None = None,
    ) -> Decision: ...


PolicyFactory = Callable[[], PolicyLike]


@dataclass(frozen=True, slots=True, kw_only=True)
class HookResult:
    """What a hook process writes and how it exits."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0


class PayloadError(ValueError):
    """A hook payload that cannot be read; the adapters never answer such a payload with allow."""


def read_payload(text: str) -> dict[str, Any]:
    """The hook payload as a JSON object.

    Raises:
        PayloadError: the text is not JSON, or not a JSON object.
    """
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise PayloadError(f"hook payload is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise PayloadError(f"hook payload is a JSON {type(value).__name__}, not an object")
    return value


def string_field(payload: Mapping[str, Any], key: str) -> str | None:
    """`payload[key]` when it is a string, else None."""
    value = payload.get(key)
    return value if isinstance(value, str) else None


def describe_decision(decision: Decision) -> str:
    """One short paragraph saying what policylang decided and why, for a hook reason.

    >>> from policylang.decision import Decision, Reason, Verdict
    >>> d = Decision(command="rm -rf ~", verdict=Verdict.DENY, retention=None,
    ...     concurrency_safe=False, reasons=(Reason(rule_id="rm-recursive",
    ...     message="recursive delete", verdict=Verdict.DENY, segment="rm -rf ~"),))
    >>> describe_decision(d)
    'policylang: deny: recursive delete [rm-recursive] on `rm -rf ~`'
    """
    decisive = [r.render() for r in decision.reasons if r.verdict is decision.verdict]
    # The same reason can come from several segments (or twice from one); say it once.
    parts = list(dict.fromkeys(decisive or [r.render() for r in decision.reasons]))
    if not parts:
        parts = [f"{decision.verdict}: no rule gave a reason"]
    text = "policylang: " + "; ".join(parts)
    if decision.verdict is not Verdict.ALLOW and decision.suggested_rule:
        text += f" (suggested rule to always allow it: `{decision.suggested_rule}`)"
    return _clip(text)


def _clip(text: str) -> str:
    if len(text) <= _MAX_REASON_CHARS:
        return text
    return text[: _MAX_REASON_CHARS - 1] + "…"


def failure_reason(what: str, error: BaseException) -> str:
    """A one-line reason for a hook that could not evaluate (never an allow).

    For a ruleset that did not load, the first error's location, code and message follow
    the count: the approver sees what to fix without the hook's stderr (review BJ5).
    """
    detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    diagnostics = error.diagnostics if isinstance(error, RulesetError) else ()
    first = next((d for d in diagnostics if d.severity is Severity.ERROR), None)
    if first is not None:
        detail += f"; first: {first.location}: {first.severity}[{first.code}]: {first.message}"
    return _clip(f"policylang: {what}: {detail}")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def as_sent(command: str) -> str:
    r"""The command as the agent's runtime will hand it to the shell: a JSON payload can
    carry lone surrogates (`"\ud800"`), which JavaScript encodes as U+FFFD.

    >>> as_sent("ls \ud800x") == "ls \ufffdx"
    True
    """
    return _LONE_SURROGATE.sub("\ufffd", command)


def guessed_workspaces(cwd: str | None) -> list[str | None]:
    """The workspace roots to judge a hook call under when neither `--workspace` nor the
    agent's project variable names one (review BJ1: the payload's `cwd` alone let `cat
    ../server.key` through from a subfolder, since the workspace followed the agent's
    `cd`). The repository above `cwd` (the nearest folder holding `.git`) when there is
    one; else `cwd` and each folder above it (up to 8, not `/`), of which the caller takes
    the strictest decision."""
    if not cwd:
        return [None]
    folders: list[str] = []
    folder = os.path.abspath(cwd)
    while len(folders) < _GUESSED_LEVELS and folder != "/":
        if os.path.lexists(os.path.join(folder, ".git")):
            return [folder]
        folders.append(folder)
        folder = os.path.dirname(folder)
    return [*folders] or [cwd]


_GUESSED_LEVELS = 8


def evaluate_safely(
    factory: PolicyFactory,
    command: str,
    *,
    cwd: str | None,
    workspace: str | None,
    env: Mapping[str, str] | None = None,
) -> Decision | str:
    """The policy's decision for `command`, or a failure reason when none could be had.

    Loading the policy and evaluating are both guarded: any exception becomes a reason
    string, which the adapters answer with ask (a human can still decide), never allow.
    """
    try:
        policy = factory()
    except Exception as error:
        # a ruleset's own diagnostics say what is wrong; a stack trace of them does not
        # help the person reading the hook's stderr (review AR6)
        _log.warning("policy failed to load: %s", error,
                     exc_info=not isinstance(error, PolicylangError | OSError))
        return failure_reason("the policy could not be loaded", error)
    try:
        return policy.evaluate(as_sent(command), cwd=cwd, workspace=workspace, env=env)
    except Exception as error:
        _log.error("evaluate raised", exc_info=True)
        return failure_reason("internal error while evaluating", error)


def policy_factory(paths: Sequence[str] = (), *, approvals: str | None = None) -> PolicyFactory:
    """A cached factory loading the policy from `paths` (the first is the policy, the rest
    are extra layers; none means the shipped default ruleset), with learned approvals
    persisted in the TOML file `approvals` when given.

    The engine is imported when the factory is first called, not before.
    """
    cache: list[PolicyLike] = []

    def load() -> PolicyLike:
        if not cache:
            from policylang.engine.policy import load_policy

            first = paths[0] if paths else None
            policy: PolicyLike = load_policy(first, extra=tuple(paths[1:]), approvals=approvals)
            cache.append(policy)
        return cache[0]

    return load


def policy_files(policy: object, approvals: str | None) -> tuple[str, ...]:
    """The files that decide what runs: every policy layer and include, the approvals file
    and the snapshot folder. Inside the workspace a sandboxed command could rewrite them
    (review L2)."""
    from policylang.engine.snapshot import cache_dir

    compiled = getattr(policy, "compiled", None)
    files = [str(name) for name in getattr(compiled, "sources", ())]
    files += [str(name) for name in getattr(policy, "input_files", ())]  # arity files too
    if approvals:
        files.append(approvals)
    # compiled snapshots: a workspace that holds the cache (the home folder, or
    # `$XDG_CACHE_HOME` inside it) let a sandboxed script rewrite one (review M3)
    files.append(str(cache_dir()))
    return tuple(os.path.abspath(os.path.expanduser(name)) for name in files)


def approvals_problem(approvals: str | None, workspace: str) -> str | None:
    """Why this approvals file cannot be used with this workspace, or None."""
    if not approvals:
        return None
    path = os.path.realpath(os.path.expanduser(approvals))
    root = os.path.realpath(workspace)
    if path == root or path.startswith(root.rstrip("/") + "/"):
        return (f"the approvals file {path} is inside the workspace, where the agent's "
                "commands could add approvals to it; keep it in ~/.config/policylang/")
    return None


def sandbox_backend(
    kind: str, workspace: str, *, network: bool = False, readonly: tuple[str, ...] = (),
    nested_folders: int = 0,
) -> Backend | None:
    """The executor backend for a `--sandbox` choice: None (the tool's plain default) or
    bubblewrap confined to `workspace`, with `readonly` files (the policy's own, see
    `policy_files`) kept read-only. An unusable sandbox is refused at each call, never
    silently replaced by an unconfined run. `nested_folders`: how many folders the
    sandbox's search of the workspace may list (`--nested-folders`; 0: its default).
    """
    if kind == "none":
        return None
    if kind == "bubblewrap":
        from policylang.executor import BubblewrapBackend

        return BubblewrapBackend(workspace, network=network, readonly=readonly,
                                 nested_folders=nested_folders)
    raise ValueError(f"unknown sandbox `{kind}`")
