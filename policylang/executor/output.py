"""Executor stage: read a child's stdout and stderr concurrently; imports `executor.process`.

One loop (`pump`) watches both pipes and the child's exit in a selector, so the
child can never block on a full pipe: bytes past a stream's cap are still drained
(spliced to /dev/null, not copied) and counted. The same loop enforces the deadline
(TERM the group, keep reading through the grace period, KILL) and the bounded drain
after a normal exit, which stops a detached helper that still holds the pipes from
hanging the call.

Where the bytes go is a `Sink`: `Capture` keeps the head of each stream for a
foreground run; the job store keeps a capped window of new output per poll.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from policylang.executor import process

STDOUT = 1
STDERR = 2
_CHUNK = 1 << 20
_EXIT = 0  # selector key data for the pidfd
_CANCEL = 3  # selector key data for a Cancel's wake-up pipe
_DISCARD_ROUNDS = 8  # splices per wake-up while draining past the cap
_POLL_S = 0.02  # re-check interval where no pidfd exists, and during a kill's grace


class Sink(Protocol):
    """Where `pump` delivers bytes; `room` may shrink to 0 and grow again."""

    def room(self, stream: int) -> int: ...
    def accept(self, stream: int, data: bytes) -> None: ...
    def dropped(self, stream: int, count: int) -> None: ...


class Cancel:
    """A thread-safe cancel flag that also wakes a waiting `pump` (a self-pipe)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)

    def set(self) -> None:
        self._event.set()
        with self._lock:
            # INVARIANT: never write after close: the number may name another file by then.
            if self._write >= 0:
                with contextlib.suppress(BlockingIOError):  # already woken
                    os.write(self._write, b"x")

    def is_set(self) -> bool:
        return self._event.is_set()

    def fileno(self) -> int:
        return self._read

    def close(self) -> None:
        with self._lock:
            process.close_quietly(self._read)
            process.close_quietly(self._write)
            self._read = self._write = -1


class Chunks:
    """Kept bytes of both streams plus their arrival order (merged consecutive runs)."""

    def __init__(self) -> None:
        self.data = {STDOUT: bytearray(), STDERR: bytearray()}
        self.seen = {STDOUT: 0, STDERR: 0}
        self.order: list[list[int]] = []  # [stream, length] runs over the kept bytes

    def keep(self, stream: int, data: bytes) -> None:
        self.data[stream] += data
        self.seen[stream] += len(data)
        if self.order and self.order[-1][0] == stream:
            self.order[-1][1] += len(data)
        else:
            self.order.append([stream, len(data)])


class Capture(Chunks):
    """Keeps the first `cap` bytes of each stream; counts everything seen."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap

    def room(self, stream: int) -> int:
        return max(0, self.cap - len(self.data[stream]))

    def accept(self, stream: int, data: bytes) -> None:
        self.keep(stream, data)

    def dropped(self, stream: int, count: int) -> None:
        self.seen[stream] += count


@dataclass(frozen=True, slots=True, kw_only=True)
class PumpOutcome:
    timed_out: bool
    cancelled: bool
    returncode: int


@dataclass(slots=True)
class _State:
    deadline: float | None
    exited_at: float | None = None
    kill_at: float | None = None  # set once TERM was sent: KILL at this time
    killed_at: float | None = None
    timed_out: bool = False
    cancelled: bool = False
    # Whether to ask the kernel if the child exited; with a pidfd only once it fired.
    check_exit: bool = True

    def drain_until(self, drain_s: float) -> float | None:
        """When reading stops although pipes are still open (None: not yet known)."""
        if self.exited_at is None or (self.kill_at is not None and self.killed_at is None):
            return None
        return max(self.exited_at, self.killed_at or 0.0) + drain_s


def pump(
    proc: subprocess.Popen[bytes],
    sink: Sink,
    *,
    timeout_s: float | None,
    grace_s: float,
    drain_s: float,
    cancel: Cancel | None = None,
) -> PumpOutcome:
    """Move the child's output into `sink` until it exits and its pipes are drained.

    Always reaps the child, and on any exception (KeyboardInterrupt included) kills
    the whole group and reaps it before re-raising.
    """
    state = _State(deadline=None if timeout_s is None else time.monotonic() + timeout_s)
    pidfd = process.open_pidfd(proc.pid)
    devnull = process.open_devnull()
    sel = selectors.DefaultSelector()
    try:
        for pipe, stream in ((proc.stdout, STDOUT), (proc.stderr, STDERR)):
            assert pipe is not None  # INVARIANT: process.spawn always pipes both
            sel.register(pipe.fileno(), selectors.EVENT_READ, stream)
        if pidfd is not None:
            sel.register(pidfd, selectors.EVENT_READ, _EXIT)
        if cancel is not None:
            sel.register(cancel.fileno(), selectors.EVENT_READ, _CANCEL)
        poll = pidfd is None
        while _advance(proc, state, grace_s=grace_s, cancel=cancel):
            state.check_exit = poll
            now = time.monotonic()
            until = state.drain_until(drain_s)
            if until is not None and (now >= until or not _pipes_open(sel)):
                break
            for key, _ in sel.select(_wait_time(state, now, until, poll=poll or not sel.get_map())):
                if key.data in (_EXIT, _CANCEL) or not _read_once(key.fd, key.data, sink,
                                                                   devnull):
                    sel.unregister(key.fd)
                    state.check_exit = True
    except BaseException:
        process.terminate_group(proc, grace_s=grace_s)
        raise
    finally:
        sel.close()
        process.close_quietly(pidfd)
        process.close_quietly(devnull)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
    returncode = process.reap(proc)
    if state.killed_at is not None:
        process.wait_group_gone(proc.pid)
    return PumpOutcome(timed_out=state.timed_out, cancelled=state.cancelled,
                       returncode=returncode)


def _pipes_open(sel: selectors.BaseSelector) -> bool:
    return any(key.data in (STDOUT, STDERR) for key in sel.get_map().values())


def _advance(
    proc: subprocess.Popen[bytes],
    state: _State,
    *,
    grace_s: float,
    cancel: Cancel | None,
) -> bool:
    """Update the exit and kill state machine; always True (a loop condition for clarity)."""
    now = time.monotonic()
    if state.exited_at is None and (state.check_exit or state.kill_at is not None) \
            and proc.poll() is not None:
        state.exited_at = now
    if state.kill_at is None:
        if state.exited_at is not None:
            return True  # finished on its own: never kill what it left behind
        timed_out = state.deadline is not None and now >= state.deadline
        if timed_out or (cancel is not None and cancel.is_set()):
            state.timed_out, state.cancelled = timed_out, not timed_out
            process.signal_group(proc.pid, signal.SIGTERM)
            state.kill_at = now + grace_s
    elif state.killed_at is None and (
        now >= state.kill_at
        or (state.exited_at is not None and not process.group_running(proc.pid))
    ):
        # Sent even when only zombies are left: harmless, and it cannot miss a process.
        if process.group_alive(proc.pid):
            process.signal_group(proc.pid, signal.SIGKILL)
        state.killed_at = now
    return True


def _wait_time(state: _State, now: float, until: float | None, *, poll: bool) -> float | None:
    limits: list[float] = []
    if state.deadline is not None and state.kill_at is None:
        limits.append(state.deadline - now)
    if state.kill_at is not None and state.killed_at is None:
        limits.extend((state.kill_at - now, _POLL_S))
    if until is not None:
        limits.append(until - now)
    if poll:
        limits.append(_POLL_S)
    return max(0.0, min(limits)) if limits else None


def _read_once(fd: int, stream: int, sink: Sink, devnull: int) -> bool:
    """Read (or discard) what a ready pipe holds; False at end of file."""
    room = sink.room(stream)
    try:
        if room > 0:
            data = os.read(fd, min(room, _CHUNK))
            if data:
                sink.accept(stream, data)
            return bool(data)
        return _discard(fd, stream, sink, devnull)
    except BlockingIOError:
        return True


def _discard(fd: int, stream: int, sink: Sink, devnull: int) -> bool:
    """Past the cap: splice the pipe empty (a few rounds), counting; False at end of file."""
    moved = 0
    try:
        for _ in range(_DISCARD_ROUNDS):
            count = process.discard(fd, devnull, _CHUNK)
            if count == 0:
                return False
            moved += count
    finally:
        if moved:
            sink.dropped(stream, moved)
    return True
