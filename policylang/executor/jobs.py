"""Executor stage: background jobs owned by the host; imports `decision`, `errors`, `executor.*`.

A `JobStore` is an ordinary object, not a module global: two hosts (or two tool
instances) get separate slates. Each job runs the same `pump` as a foreground
command, on its own thread, into a window that holds the output produced since the
last poll (capped; the excess is counted). Finished jobs beyond `max_finished` are
evicted oldest first. `close()` kills every running job's process group and reaps it.
"""

from __future__ import annotations

import codecs
import enum
import itertools
import logging
import subprocess
import threading
import time
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from policylang.decision import ApprovalRecord, Decision
from policylang.errors import ExecutionRefusedError
from policylang.executor import output, process, runner
from policylang.executor.sandbox import Backend

_log = logging.getLogger(__name__)

DEFAULT_MAX_FINISHED = 20
DEFAULT_MAX_RUNNING = 16
DEFAULT_POLL_CAP_BYTES = 50_000


class JobStatus(enum.StrEnum):
    RUNNING = "running"
    EXITED = "exited"  # ended on its own, with an exit code
    KILLED = "killed"  # a signal ended it (not one we sent for a timeout or cancel)
    TIMED_OUT = "timed_out"
    CANCELLED = "cancelled"


class UnknownJobError(KeyError):
    """No job with that id in this store (never started, cleaned up, or evicted)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class JobInfo:
    """A job's state at one moment."""

    id: str
    command: str
    status: JobStatus
    exit_code: int | None
    signal: int | None
    duration_ms: int
    pid: int
    # as `ExecResult.protected_changed`, known once the job has ended
    protected_changed: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        return self.status is not JobStatus.RUNNING


@dataclass(frozen=True, slots=True, kw_only=True)
class JobPoll:
    """A job's state plus the output it produced since the previous poll."""

    info: JobInfo
    output: str  # stdout and stderr merged in arrival order (the head, when some was dropped)
    dropped_bytes: int  # produced since the previous poll but past the window's cap
    # the last bytes since the previous poll, after the dropped ones (stdout's, then
    # stderr's): where a job's final lines and errors are; "" when nothing was dropped
    output_tail: str = ""

    def text(self) -> str:
        """The output as shown: the head, a line marking what was dropped, the tail."""
        if not self.dropped_bytes and not self.output_tail:
            return self.output
        head = self.output if self.output.endswith("\n") or not self.output else self.output + "\n"
        gap = f"[… {self.dropped_bytes:,} bytes dropped …]\n"
        return head + gap + self.output_tail


class _Window:
    """New output since the last `take`, capped at `cap` bytes (a `Sink` for `pump`).

    The first `cap` bytes since the last poll are kept; past them each stream keeps its
    last eighth of the cap, as a foreground capture keeps its tail: a job that floods
    between two polls keeps its final lines and error message (review AY11). What lies
    between is counted as dropped; when nothing was, the tails simply follow the head
    (review BH6). Everything passes through `accept` under the window's lock (no ring
    the reader fills behind it), so a poll never reads bytes being written.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._tail_cap = cap // 8  # per stream
        self._lock = threading.Lock()
        self._parts: list[str] = []
        self._kept = 0
        self._dropped = 0
        self._finished = False
        streams = (output.STDOUT, output.STDERR)
        self._tails = {s: bytearray() for s in streams}
        self._in_tail = dict.fromkeys(streams, False)
        self._cut = dict.fromkeys(streams, False)  # a tail lost its start
        self.seen = dict.fromkeys(streams, 0)
        self._decoders = {s: codecs.getincrementaldecoder("utf-8")("replace") for s in streams}

    def room(self, stream: int) -> int:
        with self._lock:
            left = self.cap - self._kept
        # past the head, reads go on (into the tails) in large pieces
        return left if left > 0 else _TAIL_READ

    def accept(self, stream: int, data: bytes) -> None:
        with self._lock:
            self.seen[stream] += len(data)
            left = max(0, self.cap - self._kept)
            if left:
                head = data[:left]
                self._parts.append(self._decoders[stream].decode(head))
                self._kept += len(head)
            if len(data) > left:
                self._to_tail(stream, memoryview(data)[left:])

    def _to_tail(self, stream: int, rest: memoryview) -> None:
        tail = self._tails[stream]
        if not self._in_tail[stream]:
            # a character cut at the head's end goes on in the tail, whole
            pending, _ = self._decoders[stream].getstate()
            self._decoders[stream].reset()
            tail += pending
            self._in_tail[stream] = True
        cap = self._tail_cap
        if len(rest) >= cap:
            # a large piece replaces the tail: no copy of what is dropped anyway (BH12)
            lost = len(tail) + len(rest) - cap
            tail[:] = rest[len(rest) - cap :]
        else:
            tail += rest
            lost = max(0, len(tail) - cap)
            del tail[:lost]
        if lost:
            self._dropped += lost
            self._cut[stream] = True

    def tail(self, stream: int) -> output.Ring | None:
        return None  # the window keeps its own tails (`accept`): it never gets to a ring

    def filled(self, stream: int, count: int) -> None:  # pragma: no cover - no ring
        raise AssertionError("a job window has no tail ring")

    def dropped(self, stream: int, count: int) -> None:
        with self._lock:
            self._dropped += count
            self.seen[stream] += count

    def finish(self) -> None:
        """Flush the decoders: the last bytes of an incomplete UTF-8 sequence had been
        dropped (review AQ14); they show as a replacement character, as in the
        foreground."""
        with self._lock:
            self._finished = True
            for decoder in self._decoders.values():
                text = decoder.decode(b"", final=True)
                if text:
                    self._parts.append(text)

    def take(self) -> tuple[str, int, str]:
        """The head, the bytes dropped between head and tails, and the tails (stdout's,
        then stderr's; each at most `_TAIL_LINES` lines, so that a model's line budget
        keeps both: review BH7). With nothing dropped, the tails end the head instead."""
        with self._lock:
            text, dropped = "".join(self._parts), self._dropped
            tails: list[bytes] = []
            for stream, buffer in self._tails.items():
                raw = bytes(buffer)
                if self._cut[stream]:
                    # cut inside a character: start at the next one
                    whole = _from_character_start(raw)
                    dropped += len(raw) - len(whole)
                    raw = whole
                if not self._finished:
                    # a character still arriving is shown whole by the next poll (BH13)
                    complete = _complete_length(raw)
                    if complete < len(raw):
                        self._decoders[stream].decode(raw[complete:])
                        raw = raw[:complete]
                tails.append(raw)
                buffer.clear()
                self._cut[stream] = self._in_tail[stream] = False
            self._parts, self._kept, self._dropped = [], 0, 0
        shown = [t.decode("utf-8", "replace") for t in tails]
        if not dropped:
            return text + "".join(shown), 0, ""
        kept: list[str] = []
        for part in shown:
            last = _last_lines(part, _TAIL_LINES)
            dropped += len(part.encode("utf-8", "surrogatepass")) - len(
                last.encode("utf-8", "surrogatepass")
            )
            kept.append(last)
        return text, dropped, "".join(kept)


_TAIL_READ = 1 << 20  # bytes read at once past a window's head
_TAIL_LINES = 100  # lines of each stream's tail shown


def _from_character_start(data: bytes) -> bytes:
    """`data` without the continuation bytes of a UTF-8 character it was cut into."""
    start = 0
    while start < min(len(data), 3) and data[start] & 0xC0 == 0x80:
        start += 1
    return data[start:]


def _complete_length(data: bytes) -> int:
    """The length of `data` without an incomplete UTF-8 character at its end."""
    for back in range(1, min(len(data), 3) + 1):
        byte = data[-back]
        if byte & 0xC0 == 0x80:
            continue  # a continuation byte: look further back for the lead
        if byte >= 0xC0:
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return len(data) - back if back < need else len(data)
        return len(data)
    return len(data)


def _last_lines(text: str, count: int) -> str:
    """The last `count` lines of `text` (a final newline does not start a line)."""
    end = len(text) - 1 if text.endswith("\n") else len(text)
    cut = end
    for _ in range(count):
        cut = text.rfind("\n", 0, cut)
        if cut < 0:
            return text
    return text[cut + 1 :]


class _Job:
    def __init__(self, job_id: str, command: str, window: _Window) -> None:
        self.id = job_id
        self.command = command
        self.window = window
        self.cancel = output.Cancel()
        self.started = time.monotonic()
        self.finished: float | None = None
        self.outcome: output.PumpOutcome | None = None
        self.pid = 0
        self.thread: threading.Thread | None = None
        # what `runner.protected_state` saw before the spawn, and the backend to ask after
        self.protected_before: dict[str, object] = {}
        self.backend: Backend | None = None
        self.protected_changed: tuple[str, ...] = ()

    def info(self) -> JobInfo:
        outcome, end = self.outcome, self.finished or time.monotonic()
        code = None if outcome is None else outcome.returncode
        return JobInfo(id=self.id, command=self.command, status=_status(outcome),
                       exit_code=code if code is not None and code >= 0 else None,
                       signal=-code if code is not None and code < 0 else None,
                       duration_ms=round((end - self.started) * 1000), pid=self.pid,
                       protected_changed=self.protected_changed)


def _status(outcome: output.PumpOutcome | None) -> JobStatus:
    if outcome is None:
        return JobStatus.RUNNING
    if outcome.timed_out:
        return JobStatus.TIMED_OUT
    if outcome.cancelled:
        return JobStatus.CANCELLED
    return JobStatus.KILLED if outcome.returncode < 0 else JobStatus.EXITED


def _shutdown(jobs: dict[str, _Job], lock: threading.Lock) -> None:
    """Cancel every running job and wait for its watcher (which kills and reaps)."""
    with lock:
        held = list(jobs.values())
    for job in held:
        if job.outcome is None:
            job.cancel.set()
    for job in held:
        if job.thread is not None:
            job.thread.join()


class JobStore:
    """The host's background jobs (see module docstring). Use as a context manager."""

    def __init__(
        self,
        *,
        max_finished: int = DEFAULT_MAX_FINISHED,
        max_running: int = DEFAULT_MAX_RUNNING,
        poll_cap_bytes: int = DEFAULT_POLL_CAP_BYTES,
        grace_s: float = runner.DEFAULT_GRACE_S,
        drain_s: float = runner.DEFAULT_DRAIN_S,
    ) -> None:
        if max_finished < 0 or poll_cap_bytes < 0:
            raise ValueError("max_finished and poll_cap_bytes must be >= 0")
        if max_running < 1:
            raise ValueError(f"max_running must be >= 1, got {max_running!r}")
        runner.check_durations(grace_s=grace_s, drain_s=drain_s)
        self.max_finished = max_finished
        self.max_running = max_running
        self.poll_cap_bytes = poll_cap_bytes
        self.grace_s = grace_s
        self.drain_s = drain_s
        self._jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._starting = 0  # slots held by starts in progress
        self._ids = itertools.count(1)
        self._closed = False
        # Runs close() at interpreter exit (or when the store is collected), so a host
        # that forgets to close it does not leave its jobs running as orphans.
        self._finalizer = weakref.finalize(self, _shutdown, self._jobs, self._lock)

    def start(
        self,
        command: str,
        *,
        decision: Decision,
        cwd: str,
        approval: ApprovalRecord | None = None,
        timeout_s: float | None = None,
        env: Mapping[str, str] | None = None,
        force_env: Iterable[str] = (),
        login: bool = False,
        sandbox: Backend | None = None,
        cwd_identity: tuple[int, int] | None = None,
    ) -> str:
        """Start `command` in the background and return its job id at once.

        Checks are the same as `run` and happen before anything is spawned or recorded.

        Raises:
            ExecutionRefusedError: refused (also when the store is closed); nothing recorded.
            SandboxUnavailableError: the sandbox cannot be set up; nothing recorded.
        """
        if self._closed:
            raise ExecutionRefusedError("refused: the job store is closed; the command never ran")
        runner.check_durations(timeout_s=timeout_s)
        with self._lock:
            running = sum(1 for held in self._jobs.values() if held.outcome is None)
            running += self._starting
            if running < self.max_running:
                # a slot is held from here to the record below: concurrent starts had
                # counted the same free slots and exceeded the cap (review AQ10)
                self._starting += 1
        if running >= self.max_running:
            # each job holds pipes and a thread: without a cap a model can exhaust the
            # host's file descriptors, where a job's watcher then failed (review J4)
            raise ExecutionRefusedError(
                f"refused: {running} background jobs are running, the most this host "
                "allows; wait for one to finish or kill one; the command never ran")
        try:
            return self._start_counted(command, decision=decision, cwd=cwd, approval=approval,
                                       timeout_s=timeout_s, env=env, force_env=force_env,
                                       login=login, sandbox=sandbox, cwd_identity=cwd_identity)
        finally:
            with self._lock:
                self._starting -= 1

    def _start_counted(
        self,
        command: str,
        *,
        decision: Decision,
        cwd: str,
        approval: ApprovalRecord | None,
        timeout_s: float | None,
        env: Mapping[str, str] | None,
        force_env: Iterable[str],
        login: bool,
        sandbox: Backend | None,
        cwd_identity: tuple[int, int] | None,
    ) -> str:
        prepared = runner.prepare(command, decision=decision, approval=approval, cwd=cwd,
                                  env=env, force_env=force_env, login=login, sandbox=sandbox,
                                  cwd_identity=cwd_identity)
        # INVARIANT: whatever can fail (the cancel pipe, the thread) is made before the
        # spawn or undone with a kill: a job is never left running unwatched
        job = _Job(f"job-{next(self._ids)}", command, _Window(self.poll_cap_bytes))
        job.backend = prepared.backend
        job.protected_before = runner.protected_state(prepared.backend, at_start=True)
        try:
            proc = runner.start(prepared)
        except BaseException:
            job.cancel.close()
            raise
        job.pid = proc.pid
        job.thread = threading.Thread(target=self._watch, args=(job, proc, timeout_s),
                                      name=f"policylang-{job.id}", daemon=True)
        try:
            job.thread.start()
        except BaseException as exc:
            process.terminate_group(proc, grace_s=self.grace_s)
            job.cancel.close()
            raise ExecutionRefusedError(
                f"refused: could not watch the job ({exc}); it was killed") from exc
        with self._lock:
            self._jobs[job.id] = job
        _log.debug("started %s (pid %d): %s", job.id, proc.pid, command)
        return job.id

    def _watch(self, job: _Job, proc: subprocess.Popen[bytes],
               timeout_s: float | None) -> None:
        try:
            outcome = output.pump(proc, job.window, timeout_s=timeout_s,
                                  grace_s=self.grace_s, drain_s=self.drain_s,
                                  cancel=job.cancel)
        except Exception:
            _log.exception("background %s failed", job.id)
            if proc.returncode is None:  # pump kills and reaps on failure: make sure
                process.terminate_group(proc, grace_s=self.grace_s)
            outcome = output.PumpOutcome(timed_out=False, cancelled=True,
                                         returncode=proc.returncode or -9)
        finally:
            job.window.finish()
            # before the outcome: a job seen as done has its protected names compared
            job.protected_changed = self._protected_changes(job)
            job.finished = time.monotonic()
            job.cancel.close()
        job.outcome = outcome

    @staticmethod
    def _protected_changes(job: _Job) -> tuple[str, ...]:
        """What the sandbox could not keep read-only, compared once the job has ended."""
        if job.backend is None:
            return ()
        try:
            after = runner.protected_state(job.backend)
        except Exception:  # cannot look: say so rather than report nothing
            _log.exception("background %s: protected names not checked", job.id)
            return ("(protected names could not be checked)",)
        return runner.protected_changes(job.protected_before, after)

    def jobs(self) -> tuple[JobInfo, ...]:
        """Every job this store still holds, oldest first."""
        with self._lock:
            self._evict()
            held = tuple(self._jobs.values())
        return tuple(job.info() for job in held)

    def poll(self, job_id: str) -> JobPoll:
        """Status plus new output since the last poll of this job.

        Raises:
            UnknownJobError: no such job here (ids are per store).
        """
        job = self._get(job_id)
        info = job.info()  # status before output: a finished job's output is complete
        text, dropped, tail = job.window.take()
        return JobPoll(info=info, output=text, dropped_bytes=dropped, output_tail=tail)

    def wait(self, job_id: str, timeout_s: float | None = None) -> JobInfo:
        """Block until the job is done (or `timeout_s` passes); returns its state."""
        job = self._get(job_id)
        if job.thread is not None:
            job.thread.join(timeout_s)
        return job.info()

    def kill(self, job_id: str) -> JobInfo:
        """TERM, grace, KILL the job's process group and wait for it to be reaped."""
        job = self._get(job_id)
        job.cancel.set()
        if job.thread is not None:
            job.thread.join()
        return job.info()

    def kill_running(self) -> int:
        """Kill every running job at once (one grace period for all of them, not one per
        job in turn: 16 jobs that ignore TERM had taken 8 s, review AY6); how many."""
        with self._lock:
            running = [job for job in self._jobs.values() if job.outcome is None]
        for job in running:
            job.cancel.set()
        for job in running:
            if job.thread is not None:
                job.thread.join()
        return len(running)

    def cleanup(self) -> int:
        """Forget every finished job; returns how many were removed."""
        with self._lock:
            done = [k for k, job in self._jobs.items() if job.outcome is not None]
            for key in done:
                del self._jobs[key]
        return len(done)

    def close(self) -> None:
        """Kill every running job's group, reap it, and refuse new jobs."""
        self._closed = True
        self._finalizer()

    def __enter__(self) -> JobStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _get(self, job_id: str) -> _Job:
        with self._lock:
            self._evict()
            job = self._jobs.get(job_id)
        if job is None:
            known = ", ".join(self._jobs) or "none"
            raise UnknownJobError(f"no job `{job_id}` in this store (known: {known})")
        return job

    def _evict(self) -> None:
        # INVARIANT: called with self._lock held.
        finished = sorted((j for j in self._jobs.values() if j.finished is not None),
                          key=lambda j: j.finished or 0.0)
        for job in finished[: max(0, len(finished) - self.max_finished)]:
            del self._jobs[job.id]
