"""Tool contract: the `bash` tool an LLM calls; imports `decision`, `errors`, `executor`.

`BashTool.call(arguments)` validates the arguments (teaching errors), checks that an
execution backend works here, evaluates the policy, asks the approver on ASK (or on
a sandbox escalation request), refuses on DENY, and runs the command in the
foreground or as a background job. It never raises on anything a model can send.

The policy is anything with `evaluate(...) -> Decision` (`PolicyLike`); approvals that
outlive one call go to an `ApprovalSink` (`add(rule, *, persist)`), by default the
policy's `approvals` attribute when it has one.
"""

from __future__ import annotations

import enum
import logging
import os
import shlex
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from policylang.decision import (
    ApprovalRecord,
    ApprovalScope,
    Decision,
    Reason,
    Verdict,
    shown_lines,
    visible,
    visible_line,
)
from policylang.errors import ExecutionRefusedError
from policylang.executor import (
    Backend,
    Cancel,
    ExecResult,
    JobStore,
    PlainBackend,
    fit,
    for_display,
    render_for_display,
    render_for_model,
    run,
    scrub_env,
)
from policylang.executor.render import default_spill_dir
from policylang.executor.runner import check_durations
from policylang.tool.schema import (
    ArgumentProblems,
    BashArgs,
    SandboxRequest,
    bash_tool_schema,
    parse_arguments,
)

_log = logging.getLogger(__name__)

TOOL_NAME = "bash"
TOOL_DESCRIPTION = (
    "Run a shell command line with bash. A policy decides whether it may run; some "
    "commands need a person's approval and some are refused with the reasons. Output is "
    "stdout and stderr merged, headed by [exit CODE, DURATIONms]; long output is "
    "truncated and saved to a file you can grep."
)


class PolicyLike(Protocol):
    """What the tool needs of a policy (the engine's `Policy` implements it).

    `env` is the scrubbed environment the command will get; `host_env` is this process's
    own, whose variables say where the user's credentials are (`KUBECONFIG` …): they are
    protected though the command does not get the variables (review GE1)."""

    def evaluate(
        self,
        command: str,
        *,
        cwd: str | None = None,
        workspace: str | None = None,
        env: Mapping[str, str] | None = None,
        host_env: Mapping[str, str] | None = None,
    ) -> Decision: ...


@runtime_checkable
class ApprovalSink(Protocol):
    """Where "always for this session" and "always (persisted)" approvals go."""

    def add(self, rule: str, *, persist: bool) -> None: ...


def _saves(sink: ApprovalSink | None) -> bool:
    """Whether "always" approvals given to `sink` outlive the session: policylang's
    `Approvals` without a file keeps them in memory only; another sink decides itself."""
    return sink is not None and getattr(sink, "path", True) is not None


class ApprovalAnswer(enum.StrEnum):
    ONCE = "once"
    SESSION = "session"  # always, for this session
    ALWAYS = "always"  # always, persisted through the approvals file
    DENY = "deny"


class ApprovalMode(enum.StrEnum):
    """When the tool may ask a person.

    NEVER: nobody can approve; ASK verdicts and escalation requests are refused.
    POLICY: ask when the policy says ASK; escalation requests are refused.
    ON_REQUEST: as POLICY, and a sandbox escalation request is put to the approver.
    """

    NEVER = "never"
    POLICY = "policy"
    ON_REQUEST = "on-request"


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalRequest:
    """What the approver is shown."""

    command: str
    description: str | None
    reasons: tuple[Reason, ...]
    suggested_rule: str | None
    workdir: str
    verdict: Verdict
    escalation: bool = False  # the model asks to run outside the sandbox
    justification: str | None = None
    # only ONCE can be granted: a locked rule decided, or the call runs outside the sandbox
    locked: bool = False
    decision: Decision | None = field(default=None, compare=False, repr=False)  # in full
    # whether an "always" answer is saved (an approvals file); else it lasts the session
    can_persist: bool = True

    def render(self) -> str:
        # the command and the model's words may carry terminal controls: shown escaped
        lines = _command_block(self.command, visible(self.workdir))
        if self.description:
            lines.append(f"  purpose: {_one_line(self.description)}")
        if self.escalation:
            lines.append(f"  OUTSIDE THE SANDBOX, because: {_one_line(self.justification or '')}")
        lines.extend(f"  {reason.render()}" for reason in self.reasons)
        if self.suggested_rule and not self.locked:
            # the rule is made of the command's words: escaped too (review J3)
            lines.append(f"  always allowing would add: {_one_line(self.suggested_rule)}")
        return "\n".join(lines)


def _directory_identity(path: str) -> tuple[int, int] | None:
    """`(st_dev, st_ino)` of the directory `path` names, checked to name it without a
    link still (a swap between resolving and looking is refused); the command later runs
    in exactly this directory (review AQ1)."""
    try:
        found = os.stat(path)
        if os.path.realpath(path) != path or not stat.S_ISDIR(found.st_mode):
            return None
    except (OSError, ValueError):
        return None
    return found.st_dev, found.st_ino


def _command_block(command: str, workdir: str) -> list[str]:
    """The question's first lines. A command of several lines is shown as a numbered block
    under a header that counts them, so a line of the command cannot pass for one of the
    reason lines that follow (review AM4)."""
    shown = shown_lines(command)
    if len(shown) == 1:
        return [f"run `{shown[0]}` in {workdir}?"]
    header = f"run this command of {len(shown)} lines in {workdir}?"
    return [header, *(f"  {number:>3} | {line}" for number, line in enumerate(shown, 1))]


def _one_line(text: str) -> str:
    """The model's own words on one line: a newline there could imitate a reason line."""
    return visible_line(text)


Approver = Callable[[ApprovalRequest], "ApprovalAnswer | str"]


class ToolStatus(enum.StrEnum):
    OK = "ok"  # ran and exited 0
    FAILED = "failed"  # ran and failed (non-zero exit, signal, timeout)
    STARTED = "started"  # a background job was started
    INVALID = "invalid"  # the arguments were wrong; nothing ran
    DENIED = "denied"  # the policy or the approver said no; nothing ran
    REFUSED = "refused"  # could not run here (no backend, no approver, bad workdir...)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolOptions:
    """Executor and rendering settings of a `BashTool`."""

    env: Mapping[str, str] = field(default_factory=dict)
    force_env: tuple[str, ...] = ()
    max_stream_bytes: int = 1_000_000
    grace_s: float = 0.5
    drain_s: float = 0.25
    spill_dir: str | None = None
    model_max_lines: int = 2000
    model_max_bytes: int = 50_000
    display_max_bytes: int = 30_000

    def __post_init__(self) -> None:
        # checked here, not at the first run: `grace_s=nan` meant no SIGKILL ever
        check_durations(grace_s=self.grace_s, drain_s=self.drain_s)
        if self.max_stream_bytes < 0:
            raise ValueError(f"max_stream_bytes must be >= 0, got {self.max_stream_bytes!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolResult:
    """A call's outcome: the model's view, a shorter display view, and structured fields."""

    status: ToolStatus
    model_text: str
    display_text: str
    is_error: bool
    decision: Decision | None = None
    result: ExecResult | None = None
    job_id: str | None = None
    spill_path: str | None = None
    approval: ApprovalRecord | None = None

    def to_dict(self) -> dict[str, Any]:
        res = self.result
        return {
            "status": str(self.status),
            "is_error": self.is_error,
            "exit_code": None if res is None else res.exit_code,
            "signal": None if res is None else res.signal,
            "timed_out": False if res is None else res.timed_out,
            "duration_ms": None if res is None else res.duration_ms,
            "stdout_truncated": False if res is None else res.stdout_truncated,
            "stderr_truncated": False if res is None else res.stderr_truncated,
            "retention": None if res is None or res.retention is None else str(res.retention),
            "job_id": self.job_id,
            "spill_path": self.spill_path,
            "approval": None if self.approval is None else str(self.approval.scope),
            "decision": None if self.decision is None else self.decision.to_dict(),
        }


def _plain(status: ToolStatus, text: str, decision: Decision | None = None) -> ToolResult:
    # the text quotes the command, which may carry terminal controls (review J7)
    return ToolResult(status=status, model_text=fit(text), display_text=for_display(text),
                      is_error=status is not ToolStatus.STARTED, decision=decision)


def _with_login_floor(decision: Decision, started: Decision) -> Decision:
    """`decision` for a command a login shell runs, raised to `started`'s verdict (the
    same command judged as `bash -l -c COMMAND`) where that is stricter. The suggestion
    is dropped then: approving the command would not lift what the login start-up asks."""
    if started.verdict.rank <= decision.verdict.rank:
        return decision
    added = tuple(r for r in started.reasons if r not in decision.reasons)
    return Decision(command=decision.command, verdict=started.verdict,
                    retention=decision.retention, concurrency_safe=False,
                    reasons=(*decision.reasons, *added), segments=decision.segments,
                    suggested_rule=None, locked=decision.locked or started.locked)


def _reasons_text(decision: Decision) -> str:
    lines = [f"  {r.render()}" for r in decision.reasons]
    return "\n".join(["reasons:", *lines]) if lines else "reasons: none given"


class BashTool:
    """The policy-gated `bash` tool (see module docstring)."""

    name = TOOL_NAME
    description = TOOL_DESCRIPTION

    def __init__(
        self,
        policy: PolicyLike,
        *,
        workspace: str,
        approver: Approver | None = None,
        approvals: ApprovalSink | None = None,
        approval_mode: ApprovalMode | None = None,
        backend: Backend | None = None,
        escalation_backend: Backend | None = None,
        job_store: JobStore | None = None,
        options: ToolOptions | None = None,
    ) -> None:
        """Args:
            policy: evaluates each command (`PolicyLike`).
            workspace: the default working directory, passed to the policy and the sandbox.
            approver: asked on ASK; None means nobody can approve.
            approvals: receives session/persisted approvals; default `policy.approvals`.
            approval_mode: default POLICY with an approver, NEVER without.
            backend: how commands run; default `PlainBackend()`.
            escalation_backend: used for an approved escalation; default `PlainBackend()`.
            job_store: enables `background: true`; owned (and closed) by the host.
            options: executor and rendering settings.
        """
        self.policy = policy
        self.workspace = os.path.abspath(workspace)
        self.approver = approver
        sink = approvals if approvals is not None else getattr(policy, "approvals", None)
        self.approvals: ApprovalSink | None = sink if isinstance(sink, ApprovalSink) else None
        default_mode = ApprovalMode.POLICY if approver else ApprovalMode.NEVER
        self.approval_mode = approval_mode or default_mode
        self.backend = backend or PlainBackend(workspace=self.workspace)
        self.escalation_backend = escalation_backend or PlainBackend(workspace=self.workspace)
        self.job_store = job_store
        self.options = options or ToolOptions()

    @property
    def schema(self) -> dict[str, Any]:
        """The arguments' JSON Schema; the sandbox keys appear only with a sandbox."""
        return bash_tool_schema(sandbox_keys=self.backend.confined)

    def definition(self) -> dict[str, Any]:
        """Name, description and input schema, the shape most tool APIs take."""
        return {"name": self.name, "description": self.description, "input_schema": self.schema}

    def concurrency_safe(self, arguments: object) -> bool:
        """Whether this call may run in parallel: an allowed, read-only foreground call."""
        args = parse_arguments(arguments)
        if isinstance(args, ArgumentProblems) or args.background:
            return False
        if args.sandbox is SandboxRequest.ESCALATED:
            return False
        cwd = self._cwd(args)
        if cwd is None:
            return False
        decision = self._evaluate(args.command, cwd, login=args.login)
        return decision.verdict is Verdict.ALLOW and decision.concurrency_safe

    def call(self, arguments: object, *, cancel: Cancel | None = None) -> ToolResult:
        """Validate, decide, maybe ask, and run; never raises for anything a model sends.

        `cancel`: set by the host when the call is cancelled (an MCP client's
        `notifications/cancelled`, a disconnect): a foreground command is then stopped as
        a timeout stops it, and one not yet started is never started."""
        args = parse_arguments(arguments)
        if isinstance(args, ArgumentProblems):
            return _plain(ToolStatus.INVALID, args.message)
        early = self._precheck(args)
        if early is not None:
            return early
        cwd = self._cwd(args)
        identity = None if cwd is None else _directory_identity(cwd)
        if cwd is None or identity is None:
            return _plain(ToolStatus.INVALID, self._workdir_problem(args))
        decision = self._evaluate(args.command, cwd, login=args.login)
        approval, refusal = self._authorize(args, decision, cwd)
        if refusal is not None:
            return refusal
        if cancel is not None and cancel.is_set():
            # an approval question may outlast the call that asked it (review AY2)
            return _plain(ToolStatus.REFUSED, "the call was cancelled; nothing was run", decision)
        return self._execute(args, decision, approval, cwd, identity, cancel)

    # -- steps of `call` ----------------------------------------------------------------

    def _precheck(self, args: BashArgs) -> ToolResult | None:
        """Refusals that need no policy: escalation rules, background support, backend probe."""
        escalated = args.sandbox is SandboxRequest.ESCALATED
        if escalated and not self.backend.confined:
            return _plain(ToolStatus.INVALID,
                          "this session runs commands without a sandbox, so there is nothing "
                          "to escalate from; remove 'sandbox' and 'justification'")
        if escalated and self.approval_mode is not ApprovalMode.ON_REQUEST:
            return _plain(ToolStatus.REFUSED,
                          "sandbox escalation is not available in this session, so nothing "
                          "ran. Run the command inside the sandbox (omit 'sandbox'); if the "
                          "sandbox is what makes it fail, tell the user instead of retrying "
                          "with escalation")
        if args.background and self.job_store is None:
            return _plain(ToolStatus.INVALID, "background jobs are not available in this "
                          "session; omit 'background' to run the command in the foreground")
        backend = self.escalation_backend if escalated else self.backend
        available = backend.probe()
        if not available.ok:
            return _plain(ToolStatus.REFUSED,
                          f"no usable execution backend on this host ({backend.name}: "
                          f"{available.detail}); the command never ran")
        return None

    def _cwd(self, args: BashArgs) -> str | None:
        # INVARIANT: the policy judges, and the shell starts in, the same resolved path.
        # Given through a symbolic link, the policy judged the link's target while the
        # spawn followed the link again, so a writer flipping it between the two reads a
        # protected directory (review J6).
        try:
            path = os.path.realpath(os.path.join(self.workspace, args.workdir or ""))
            return path if os.path.isdir(path) else None
        except ValueError:  # a NUL or a lone surrogate: no such directory (review AQ7)
            return None

    def _workdir_problem(self, args: BashArgs) -> str:
        shown = visible(args.workdir or "")
        return (f"'workdir' `{shown}` is not an existing directory (relative paths are "
                f"resolved against the workspace {self.workspace}); nothing ran")

    def _child_env(self, cwd: str) -> dict[str, str]:
        return scrub_env(os.environ, cwd=cwd, extra=self.options.env,
                         force=self.options.force_env)

    def _evaluate(self, command: str, cwd: str, *, login: bool = False) -> Decision:
        try:
            env = self._child_env(cwd)
            # judged in the environment the command gets, with the credential places this
            # process's own names (`GOOGLE_APPLICATION_CREDENTIALS` …): the scrub drops
            # the variables, not the files (review GE1)
            host = dict(os.environ)
            decision = self.policy.evaluate(command, cwd=cwd, workspace=self.workspace,
                                            env=env, host_env=host)
            if login:
                # `login` runs `bash -l -c COMMAND`: the profile's scripts run first, and
                # run programs by PATH, which may find the workspace's (review EL2); the
                # engine judges that start-up where it sees `bash -l` written
                started = self.policy.evaluate(f"bash -l -c {shlex.quote(command)}", cwd=cwd,
                                               workspace=self.workspace, env=env,
                                               host_env=host)
                decision = _with_login_floor(decision, started)
            return decision
        except Exception as exc:  # fail closed: a broken policy never allows
            _log.exception("policy evaluation failed for %r", command)
            reason = Reason(rule_id="tool.policy-error", verdict=Verdict.DENY,
                            message=f"the policy could not evaluate the command ({exc})")
            return Decision(command=command, verdict=Verdict.DENY, retention=None,
                            concurrency_safe=False, reasons=(reason,))

    def _authorize(
        self, args: BashArgs, decision: Decision, cwd: str
    ) -> tuple[ApprovalRecord | None, ToolResult | None]:
        escalated = args.sandbox is SandboxRequest.ESCALATED
        if decision.verdict is Verdict.DENY:
            return None, _plain(ToolStatus.DENIED,
                                f"denied by policy: `{args.command}` was not run\n"
                                f"{_reasons_text(decision)}", decision)
        if decision.verdict is Verdict.ALLOW and not escalated:
            return None, None
        if self.approver is None or self.approval_mode is ApprovalMode.NEVER:
            rule = (f"\nsuggested rule to allow it: {decision.suggested_rule}"
                    if decision.suggested_rule else "")
            return None, _plain(ToolStatus.REFUSED,
                                f"`{args.command}` needs a person's approval and nobody can "
                                f"approve in this session; it was not run\n"
                                f"{_reasons_text(decision)}{rule}", decision)
        return self._ask(args, decision, cwd)

    def _ask(
        self, args: BashArgs, decision: Decision, cwd: str
    ) -> tuple[ApprovalRecord | None, ToolResult | None]:
        assert self.approver is not None  # INVARIANT: checked by _authorize
        request = ApprovalRequest(
            command=args.command, description=args.description, reasons=decision.reasons,
            suggested_rule=decision.suggested_rule, workdir=cwd, verdict=decision.verdict,
            escalation=args.sandbox is SandboxRequest.ESCALATED,
            justification=args.justification,
            # an escalation is approved one run at a time: "always" for `touch` outside
            # the sandbox was saved as `touch` for every later session (review L10)
            locked=decision.locked or args.sandbox is SandboxRequest.ESCALATED,
            decision=decision,
            can_persist=_saves(self.approvals))
        try:
            answer = ApprovalAnswer(self.approver(request))
        except Exception:  # a broken approver is a "no"
            _log.exception("the approver failed; treating it as deny")
            answer = ApprovalAnswer.DENY
        if answer is ApprovalAnswer.DENY:
            return None, _plain(ToolStatus.DENIED,
                                f"the user declined to run `{args.command}`; it was not run. "
                                "Do not retry it unchanged; ask the user how to proceed",
                                decision)
        scope = ApprovalScope.ONCE if request.locked else self._remember(answer, decision)
        return ApprovalRecord(command=args.command, scope=scope,
                              suggested_rule=decision.suggested_rule), None

    def _remember(self, answer: ApprovalAnswer, decision: Decision) -> ApprovalScope:
        """Record a session/always approval when allowed; the scope actually granted."""
        if answer is ApprovalAnswer.ONCE:
            return ApprovalScope.ONCE
        rule = decision.suggested_rule
        if decision.locked or rule is None or self.approvals is None:
            why = ("a locked rule decided" if decision.locked else
                   "there is no suggested rule" if rule is None else "there is no approvals store")
            _log.warning("approval `%s` granted once only: %s", answer, why)
            return ApprovalScope.ONCE
        persist = answer is ApprovalAnswer.ALWAYS
        if persist and not _saves(self.approvals):
            # no approvals file: "always" cannot be saved, and is not reported as saved
            # (review BJ3)
            _log.warning("approval `%s` kept for the session only: no approvals file", rule)
            persist = False
        try:
            self.approvals.add(rule, persist=persist)
        except Exception:
            _log.exception("could not record the approval of `%s`; granted once", rule)
            return ApprovalScope.ONCE
        return ApprovalScope.ALWAYS if persist else ApprovalScope.SESSION

    def _execute(
        self,
        args: BashArgs,
        decision: Decision,
        approval: ApprovalRecord | None,
        cwd: str,
        identity: tuple[int, int],
        cancel: Cancel | None = None,
    ) -> ToolResult:
        escalated = args.sandbox is SandboxRequest.ESCALATED
        backend = self.escalation_backend if escalated else self.backend
        opts = self.options
        try:
            if args.background:
                assert self.job_store is not None  # INVARIANT: checked by _precheck
                job_id = self.job_store.start(
                    args.command, decision=decision, cwd=cwd, approval=approval,
                    timeout_s=args.timeout_s if args.timeout_given else None, env=opts.env,
                    force_env=opts.force_env, login=args.login, sandbox=backend,
                    cwd_identity=identity)
                return self._started(job_id, args, decision, approval)
            result = run(args.command, decision=decision, cwd=cwd, timeout_s=args.timeout_s,
                         env=opts.env, max_stream_bytes=opts.max_stream_bytes,
                         login=args.login, sandbox=backend, approval=approval,
                         force_env=opts.force_env, grace_s=opts.grace_s, drain_s=opts.drain_s,
                         cwd_identity=identity, cancel=cancel)
        except ExecutionRefusedError as exc:
            return _plain(ToolStatus.REFUSED, str(exc), decision)
        return self._finished(args, result, decision, approval)

    def _started(
        self, job_id: str, args: BashArgs, decision: Decision, approval: ApprovalRecord | None
    ) -> ToolResult:
        until = (f"until it exits or is killed after {args.timeout_s:g} s"
                 if args.timeout_given else "until it exits or is killed")
        text = (f"[started {job_id} in the background] poll it for status and new output; "
                f"it keeps running {until}")
        if args.timeout_clamped:
            text += f"\n(note: timeout_s was clamped to {args.timeout_s:g} s)"
        return ToolResult(status=ToolStatus.STARTED, model_text=text,
                          display_text=for_display(text),
                          is_error=False, decision=decision, job_id=job_id, approval=approval)

    def _finished(
        self, args: BashArgs, result: ExecResult, decision: Decision,
        approval: ApprovalRecord | None,
    ) -> ToolResult:
        opts = self.options
        model = render_for_model(result, max_lines=opts.model_max_lines,
                                 max_bytes=opts.model_max_bytes,
                                 spill_dir=opts.spill_dir
                                 or default_spill_dir(sandboxed=result.sandboxed))
        display = render_for_display(result, max_bytes=opts.display_max_bytes,
                                     spill_path=model.spill_path)
        text = model.text
        if args.timeout_clamped:
            text += f"\n(note: timeout_s was clamped to {args.timeout_s:g} s)"
        return ToolResult(
            status=ToolStatus.FAILED if result.failed else ToolStatus.OK,
            model_text=text, display_text=display.text, is_error=model.is_error,
            decision=decision, result=result, spill_path=model.spill_path, approval=approval)
