"""Executor stage: `run` a command the engine approved; imports `decision`, `errors`, `executor.*`.

The boundary check comes first and nothing is spawned when it fails: the decision
must be for this exact command, and must be ALLOW, or ASK together with an
`ApprovalRecord` for this exact command. DENY is never run.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import subprocess
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import assert_never

from policylang.decision import ApprovalRecord, Decision, Retention, Verdict
from policylang.errors import ExecutionRefusedError, SandboxUnavailableError
from policylang.executor import output, process
from policylang.executor.env import scrub_env
from policylang.executor.sandbox import Backend, PlainBackend, write_denied

_log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MAX_STREAM_BYTES = 1_000_000
DEFAULT_GRACE_S = 0.5
DEFAULT_DRAIN_S = 0.25
_PLAIN = PlainBackend()  # shared so its shell lookup is cached across runs


@dataclass(frozen=True, slots=True, kw_only=True)
class ExecResult:
    """What a finished command did. Text properties decode with replacement."""

    command: str
    exit_code: int | None  # None when a signal ended the shell
    signal: int | None
    timed_out: bool
    cancelled: bool
    duration_ms: int
    timeout_s: float | None
    stdout_bytes: bytes  # the kept head and tail of stdout (at most the cap)
    stderr_bytes: bytes
    stdout_seen: int  # every byte the command wrote, kept or not
    stderr_seen: int
    # Where in stdout_bytes the omitted bytes were (the head's length); see `stdout_omitted`.
    stdout_gap_at: int
    stderr_gap_at: int
    # Runs of (stream, length) over the kept bytes: the head in arrival order, then the tails.
    interleaving: tuple[tuple[int, int], ...]
    retention: Retention | None
    backend: str
    sandboxed: bool
    sandbox_write_denied: bool  # a positive signal only; False proves nothing
    pid: int  # also the process group id
    # protected names of the workspace (`.mcp.json`, `CLAUDE.md` …) that a sandboxed
    # command created, removed or replaced where the sandbox could not keep them read-only
    protected_changed: tuple[str, ...] = ()

    @property
    def stdout(self) -> str:
        return self.stdout_bytes.decode("utf-8", "replace")

    @property
    def stderr(self) -> str:
        return self.stderr_bytes.decode("utf-8", "replace")

    @property
    def stdout_truncated(self) -> bool:
        return self.stdout_seen > len(self.stdout_bytes)

    @property
    def stderr_truncated(self) -> bool:
        return self.stderr_seen > len(self.stderr_bytes)

    @property
    def stdout_omitted(self) -> int:
        """Bytes written between the kept head and the kept tail of stdout."""
        return self.stdout_seen - len(self.stdout_bytes)

    @property
    def stderr_omitted(self) -> int:
        return self.stderr_seen - len(self.stderr_bytes)

    @property
    def failed(self) -> bool:
        return self.exit_code != 0

    @property
    def signal_name(self) -> str | None:
        if self.signal is None:
            return None
        try:
            return signal.Signals(self.signal).name
        except ValueError:
            return f"signal {self.signal}"


def authorize(command: str, decision: Decision, approval: ApprovalRecord | None) -> None:
    """Raise `ExecutionRefusedError` unless `decision` (and `approval`) permit `command`.

    >>> from policylang.decision import Decision, Verdict
    >>> authorize("ls", Decision(command="ls", verdict=Verdict.ALLOW, retention=None,
    ...                          concurrency_safe=True), None)
    >>> try:
    ...     authorize("ls -a", Decision(command="ls", verdict=Verdict.ALLOW, retention=None,
    ...                                 concurrency_safe=True), None)
    ... except ExecutionRefusedError as exc:
    ...     print(exc)
    refused: the decision was made for `ls`, not for `ls -a`; the command never ran
    """
    if decision.command != command:
        raise ExecutionRefusedError(
            f"refused: the decision was made for `{decision.command}`, not for `{command}`; "
            "the command never ran")
    match decision.verdict:
        case Verdict.ALLOW:
            return
        case Verdict.ASK:
            if approval is not None and approval.command == command:
                return
            what = "an approval for a different command" if approval else "no approval record"
            raise ExecutionRefusedError(
                f"refused: `{command}` needs approval and {what} was given; "
                "the command never ran")
        case Verdict.DENY:
            raise ExecutionRefusedError(
                f"refused: the policy denies `{command}`; the command never ran")
        case _:  # pragma: no cover - exhaustive
            assert_never(decision.verdict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Prepared:
    """A command that passed every check before spawning."""

    argv: tuple[str, ...]
    cwd: str
    env: Mapping[str, str]
    backend: Backend
    # (st_dev, st_ino) of the directory that was judged: the spawn refuses any other
    cwd_identity: tuple[int, int] | None = None


def prepare(
    command: str,
    *,
    decision: Decision,
    approval: ApprovalRecord | None,
    cwd: str,
    env: Mapping[str, str] | None,
    force_env: Iterable[str],
    login: bool,
    sandbox: Backend | None,
    cwd_identity: tuple[int, int] | None = None,
) -> Prepared:
    """Every check `run` and the job store make before anything is spawned.

    Raises:
        ExecutionRefusedError: the decision does not permit the command, or the working
            directory or plain backend is unusable.
        SandboxUnavailableError: a confined backend was requested and cannot work here.
    """
    authorize(command, decision, approval)
    backend = sandbox if sandbox is not None else _PLAIN
    available = backend.probe()
    if not available.ok:
        if backend.confined:
            raise SandboxUnavailableError(
                f"refused: the {backend.name} sandbox cannot be set up on this host "
                f"({available.detail}); the command never ran")
        raise ExecutionRefusedError(
            f"refused: no usable execution backend ({available.detail}); the command never ran")
    cwd = os.path.abspath(cwd)
    if not os.path.isdir(cwd):
        raise ExecutionRefusedError(
            f"refused: working directory `{cwd}` does not exist; the command never ran")
    child_env = scrub_env(os.environ, cwd=cwd, extra=env, force=force_env)
    argv = backend.argv(command, cwd=cwd, login=login, keep=force_env)
    if backend.confined and cwd_identity is not None:
        argv = _checked_directory(argv, command, cwd_identity, backend, cwd, login, force_env)
    return Prepared(argv=tuple(argv), cwd=cwd, env=child_env, backend=backend,
                    cwd_identity=cwd_identity)


def start(prepared: Prepared) -> subprocess.Popen[bytes]:
    """Spawn a prepared command; an OS failure becomes `ExecutionRefusedError`.

    With `cwd_identity`, the working directory is opened and compared with the directory
    that was judged, and an unconfined command starts in that open directory
    (`/proc/self/fd/N`), not in whatever its path names by then: a folder swapped for a
    link to `~/.config/gh` while the approver read the question had been followed
    (review AQ1). A confined command starts by path inside the sandbox (its own view of
    the file system), right after the same comparison, and compares again as its first
    line (`_checked_directory`, review AS3). Without `/proc/self/fd` an unconfined command
    starts by path after the comparison, a window as narrow as the spawn.
    """
    pinned = None
    try:
        cwd = prepared.cwd
        if prepared.cwd_identity is not None:
            pinned = _pin_directory(prepared.cwd, prepared.cwd_identity)
            if not prepared.backend.confined and os.path.isdir(_FD_DIR):
                cwd = f"{_FD_DIR}/{pinned}"
        return process.spawn(prepared.argv, cwd=cwd, env=prepared.env)
    except (OSError, ValueError) as exc:  # ValueError: text the OS cannot take (a surrogate)
        raise ExecutionRefusedError(
            f"refused: could not start `{prepared.argv[0]}`: {exc}; the command never ran"
        ) from exc
    finally:
        if pinned is not None:
            os.close(pinned)


_FD_DIR = "/proc/self/fd"


def _checked_directory(
    argv: list[str], command: str, identity: tuple[int, int], backend: Backend, cwd: str,
    login: bool, keep: Iterable[str],
) -> list[str]:
    """`argv` made to end with 126 unless the working directory inside the sandbox is
    the one judged. The sandbox tool enters the directory by its path, after `start`
    compared it and after setting up its mounts; a folder swapped for a link in that
    window had been followed (review AS3: 48 of 300 racing runs read the secret). Bind
    mounts keep device and inode numbers, and a process's working directory cannot be
    swapped under it, so the check inside holds for the whole command.

    The check runs in a `sh` placed between the sandbox tool and the shell (after its
    `--`), which then `exec`s the shell: the command's text is left as it was (review
    AT11: a first line of its own had moved `$LINENO`). Without a `--` in `argv`, the
    check becomes the text's first line instead.
    """
    device, inode = identity
    # by its full path: a `stat` planted in a workspace folder on `PATH` (an activated
    # `.venv/bin`) had answered the check (review AU5); none found: the check fails
    stat_program = next((p for p in _STAT_PROGRAMS if os.access(p, os.X_OK)), None)
    if stat_program is None:  # say so, rather than "the directory was replaced" (AV6)
        raise ExecutionRefusedError(
            "refused: the sandbox's working-directory check needs `stat` at one of "
            f"{', '.join(_STAT_PROGRAMS)}, and none is there; the command never ran")
    check = (
        f'[ "$({stat_program} -c %d:%i . 2>/dev/null)" = "{device}:{inode}" ] || {{ echo '
        '"policylang: the working directory is no longer the one the command was judged '
        'in (it was replaced, perhaps by a link); the command did not run" >&2; exit 126; }'
    )
    if "--" in argv:
        cut = argv.index("--") + 1
        return [*argv[:cut], "/bin/sh", "-c", check + '\nexec "$@"', "sh", *argv[cut:]]
    return backend.argv(check + "\n" + command, cwd=cwd, login=login, keep=keep)


_STAT_PROGRAMS = (  # the system's, read-only in the sandbox (the last: NixOS)
    "/usr/bin/stat", "/bin/stat", "/run/current-system/sw/bin/stat",
)


def _pin_directory(path: str, identity: tuple[int, int]) -> int:
    """An open descriptor of directory `path`, which must still be the one judged."""
    descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    found = os.fstat(descriptor)
    if (found.st_dev, found.st_ino) != identity:
        os.close(descriptor)
        raise ExecutionRefusedError(
            f"refused: the working directory `{path}` is no longer the directory the command "
            "was judged in (it was replaced, perhaps by a link); the command never ran")
    return descriptor


def final_retention(declared: Retention | None, *, failed: bool) -> Retention | None:
    """A read-only compound that failed is unclassed; anything else keeps its class."""
    if declared is Retention.REQUERY and failed:
        return Retention.UNCLASSED
    return declared


def run(
    command: str,
    *,
    decision: Decision,
    cwd: str,
    timeout_s: float | None = DEFAULT_TIMEOUT_S,
    env: Mapping[str, str] | None = None,
    max_stream_bytes: int = DEFAULT_MAX_STREAM_BYTES,
    login: bool = False,
    sandbox: Backend | None = None,
    approval: ApprovalRecord | None = None,
    force_env: Iterable[str] = (),
    grace_s: float = DEFAULT_GRACE_S,
    drain_s: float = DEFAULT_DRAIN_S,
    cwd_identity: tuple[int, int] | None = None,
    cancel: output.Cancel | None = None,
) -> ExecResult:
    """Run an approved command with `bash -c` and capture its output.

    Args:
        command: the exact command text the decision was made for.
        decision: the engine's decision; ALLOW runs, ASK needs `approval`, DENY never runs.
        cwd: working directory (must exist).
        timeout_s: wall-clock limit; then TERM to the group, `grace_s`, KILL. None: no limit.
        env: variables to add to the scrubbed environment (secret-looking names dropped).
        max_stream_bytes: bytes kept per stream; the rest is drained and counted.
        login: use `bash -lc` (sources profile files, which may print or change PATH).
        sandbox: the backend; None runs unconfined (`PlainBackend`).
        approval: the approval flow's record for exactly this command (needed for ASK).
        force_env: secret-looking names that may pass anyway, by exact name.
        grace_s: time between TERM and KILL.
        drain_s: how long to keep reading after the shell exits while a helper holds the pipes.
        cwd_identity: `(st_dev, st_ino)` of `cwd` when the command was judged; the command
            then runs in that directory or not at all (see `start`).
        cancel: set from another thread, it stops the command as a timeout does (TERM to
            the group, `grace_s`, KILL); the result says `cancelled`.

    Returns:
        The frozen `ExecResult`.

    Raises:
        ExecutionRefusedError: nothing was spawned (see `prepare`).
        SandboxUnavailableError: the sandbox cannot be set up; nothing was spawned.
        ValueError: a numeric argument is out of range.
    """
    _check_numbers(timeout_s=timeout_s, max_stream_bytes=max_stream_bytes,
                   grace_s=grace_s, drain_s=drain_s)
    prepared = prepare(command, decision=decision, approval=approval, cwd=cwd, env=env,
                       force_env=force_env, login=login, sandbox=sandbox,
                       cwd_identity=cwd_identity)
    capture = output.Capture(max_stream_bytes)
    before = protected_state(prepared.backend, at_start=True)
    started = time.monotonic()
    proc = start(prepared)
    _log.debug("started pid %d: %s", proc.pid, command)
    outcome = output.pump(proc, capture, timeout_s=timeout_s, grace_s=grace_s, drain_s=drain_s,
                          cancel=cancel)
    result = build_result(command, decision=decision, capture=capture, outcome=outcome,
                          started=started, timeout_s=timeout_s, backend=prepared.backend,
                          pid=proc.pid)
    changed = protected_changes(before, protected_state(prepared.backend))
    return dataclasses.replace(result, protected_changed=changed) if changed else result


def protected_state(backend: Backend, *, at_start: bool = False) -> dict[str, object]:
    """What a backend that watches protected names (the sandbox) sees there now;
    `at_start`: taken right after `prepare`, before the spawn, where the sandbox reuses
    the search of the workspace its `argv` made (`protected_state_at_start`, review DV3)."""
    state = getattr(backend, "protected_state_at_start", None) if at_start else None
    if not callable(state):
        state = getattr(backend, "protected_state", None)
    return dict(state()) if callable(state) else {}


def protected_changes(before: dict[str, object], after: dict[str, object]) -> tuple[str, ...]:
    """The protected names created, removed or replaced between two `protected_state`s."""
    names = before.keys() | after.keys()
    return tuple(sorted(n for n in names if before.get(n) != after.get(n)))


def build_result(
    command: str,
    *,
    decision: Decision,
    capture: output.Capture,
    outcome: output.PumpOutcome,
    started: float,
    timeout_s: float | None,
    backend: Backend,
    pid: int,
) -> ExecResult:
    code = outcome.returncode
    exit_code, sig = (code, None) if code >= 0 else (None, -code)
    out, err = capture.kept(output.STDOUT), capture.kept(output.STDERR)
    failed = exit_code != 0 or outcome.timed_out or outcome.cancelled
    return ExecResult(
        command=command,
        exit_code=exit_code,
        signal=sig,
        timed_out=outcome.timed_out,
        cancelled=outcome.cancelled,
        duration_ms=round((time.monotonic() - started) * 1000),
        timeout_s=timeout_s,
        stdout_bytes=out,
        stderr_bytes=err,
        stdout_seen=capture.seen[output.STDOUT],
        stderr_seen=capture.seen[output.STDERR],
        stdout_gap_at=_gap_at(capture, output.STDOUT, len(out)),
        stderr_gap_at=_gap_at(capture, output.STDERR, len(err)),
        interleaving=capture.interleaving(),
        retention=final_retention(decision.retention, failed=failed),
        backend=backend.name,
        sandboxed=backend.confined,
        sandbox_write_denied=write_denied(backend.confined, out, err),
        pid=pid,
    )


def _gap_at(capture: output.Capture, stream: int, kept: int) -> int:
    """The head's length when bytes were skipped; the whole length when none were."""
    return len(capture.head[stream]) if capture.seen[stream] > kept else kept


MAX_DURATION_S = 1e8  # about three years: longer is a mistake, and overflows the clock


def _check_numbers(
    *, timeout_s: float | None, max_stream_bytes: int, grace_s: float, drain_s: float
) -> None:
    check_durations(timeout_s=timeout_s, grace_s=grace_s, drain_s=drain_s)
    if max_stream_bytes < 0:
        raise ValueError(f"max_stream_bytes must be >= 0, got {max_stream_bytes!r}")


def check_durations(
    *, timeout_s: float | None = None, grace_s: float = 0.0, drain_s: float = 0.0
) -> None:
    """Refuse durations that are not finite, negative or absurd, before any spawn.

    `grace_s=nan` meant no SIGKILL ever, and `timeout_s=inf` raised after the spawn
    (review J10).

    Raises:
        ValueError: which duration, and what was given.
    """
    if timeout_s is not None and not 0 < timeout_s <= MAX_DURATION_S:
        raise ValueError(f"timeout_s must be a number of seconds in (0, {MAX_DURATION_S:g}] "
                         f"or None, got {timeout_s!r}")
    for name, value in (("grace_s", grace_s), ("drain_s", drain_s)):
        if not 0 <= value <= MAX_DURATION_S:
            raise ValueError(f"{name} must be a number of seconds in [0, {MAX_DURATION_S:g}], "
                             f"got {value!r}")
