"""Executor stage: read a child's stdout and stderr concurrently; imports `executor.process`.

One loop (`pump`) watches both pipes and the child's exit (a pidfd) in a selector,
so the child can never block on a full pipe: past a stream's cap, bytes are still
read (into a fixed tail ring) or drained (spliced to /dev/null, never copied into
Python objects), and always counted. The same loop enforces the deadline (TERM the
group, keep reading through the grace period, KILL) and the bounded drain after a
normal exit, which stops a detached helper that still holds the pipes from hanging
the call.

Where the bytes go is a `Sink`: `Capture` keeps the head and the tail of each stream
for a foreground run; the job store keeps a capped window of new output per poll.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Protocol

from policylang.executor import process

STDOUT = 1
STDERR = 2
_CHUNK = 1 << 20
_EXIT = 0  # selector key data for the pidfd
_CANCEL = 3  # selector key data for a Cancel's wake-up pipe
_SMALL_PIPE = 1 << 16  # Linux's default pipe capacity
_DRAIN_BUDGET = 4 << 20  # bytes moved per wake-up past the head before looking around
_POLL_S = 0.02  # re-check interval where no pidfd exists, and during a kill's grace


class Sink(Protocol):
    """Where `pump` delivers bytes.

    `room` bytes are read and passed to `accept`; once it is 0 (it may grow again), bytes
    are read into the `tail` ring if there is one (then `filled` is called), and are
    drained and `dropped` otherwise.
    """

    def room(self, stream: int) -> int: ...
    def accept(self, stream: int, data: bytes) -> None: ...
    def tail(self, stream: int) -> Ring | None: ...
    def filled(self, stream: int, count: int) -> None: ...
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


class Ring:
    """The last `size` bytes written through it, in one fixed buffer (no reallocation)."""

    def __init__(self, size: int) -> None:
        self.buf = bytearray(size)
        self.pos = 0
        self.total = 0

    def free(self) -> memoryview:
        """The contiguous region the next read may fill."""
        return memoryview(self.buf)[self.pos :]

    def advance(self, count: int) -> None:
        self.total += count
        self.pos = (self.pos + count) % len(self.buf)

    def contents(self) -> bytes:
        if self.total < len(self.buf):
            return bytes(self.buf[: self.pos])
        return bytes(self.buf[self.pos :] + self.buf[: self.pos])


# the most runs of arrival order a capture records (each change of stream is one)
MAX_RUNS = 8192


class Capture:
    """Keeps the head and the tail of each stream within `cap` bytes; counts everything.

    A quarter of the cap (by default) is a ring holding the last bytes, so the end of a
    long output (where errors tend to be) survives; the head keeps the rest. The arrival
    order of the head is recorded as runs of `[stream, length]`.
    """

    def __init__(self, cap: int, *, tail: int | None = None) -> None:
        tail = cap // 4 if tail is None else min(tail, cap)
        self.head_cap = cap - tail
        self.tail_cap = tail
        self.head = {STDOUT: bytearray(), STDERR: bytearray()}
        self.seen = {STDOUT: 0, STDERR: 0}
        self.order: list[list[int]] = []
        # head bytes that arrived after `order` had `MAX_RUNS` runs, per stream
        self._unordered = {STDOUT: 0, STDERR: 0}
        self._rings: dict[int, Ring] = {}
        # len(order) at each stream's latest tail write: where its tail goes in the merge
        self._tail_pos: dict[int, int] = {}

    def room(self, stream: int) -> int:
        return max(0, self.head_cap - len(self.head[stream]))

    def accept(self, stream: int, data: bytes) -> None:
        self.head[stream] += data
        self.seen[stream] += len(data)
        if self.order and self.order[-1][0] == stream:
            self.order[-1][1] += len(data)
        elif len(self.order) < MAX_RUNS:
            self.order.append([stream, len(data)])
        else:
            # a child alternating 1-byte writes on both streams made a run per byte: 1.2
            # million lists, 200 MB for one run (review AY3); past the cap the rest of
            # the head is kept per stream and merged after the recorded runs
            self._unordered[stream] += len(data)

    def tail(self, stream: int) -> Ring | None:
        if not self.tail_cap:
            return None
        ring = self._rings.get(stream)
        if ring is None:
            ring = self._rings[stream] = Ring(self.tail_cap)
        return ring

    def filled(self, stream: int, count: int) -> None:
        self.seen[stream] += count
        self._tail_pos[stream] = len(self.order)

    def dropped(self, stream: int, count: int) -> None:
        self.seen[stream] += count

    def kept(self, stream: int) -> bytes:
        ring = self._rings.get(stream)
        return bytes(self.head[stream]) + (ring.contents() if ring else b"")

    def interleaving(self) -> tuple[tuple[int, int], ...]:
        """Runs over the kept bytes in arrival order.

        A stream's tail is placed after the head runs that arrived before its last byte
        did: exact for the usual case (a flood, then a few lines on the other stream).
        Where the order was capped, a stream's tail follows the rest of its head, merged
        after the recorded runs (review CQ2: put before it, the tail was read as head
        bytes and the gap between them was not marked).
        """
        runs = [(stream, length) for stream, length in self.order]
        rest_at: dict[int, int] = {}
        for stream, count in self._unordered.items():
            if count:
                rest_at[stream] = len(runs)
                runs.append((stream, count))
        tails = sorted(((rest_at[s] + 1 if s in rest_at else self._tail_pos.get(s, len(runs)),
                         s, min(r.total, len(r.buf)))
                        for s, r in self._rings.items()), reverse=True)
        for pos, stream, length in tails:  # from the back, so earlier positions hold
            if length:
                runs.insert(pos, (stream, length))
        return tuple(runs)


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
    strays: process.Strays = field(default_factory=dict)  # descendants outside the group
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
    reader = _Reader(sink)  # no system call
    pidfd: int | None = None
    sel: selectors.BaseSelector | None = None
    try:
        # INVARIANT: everything that can fail after the spawn is inside the guard. Out of
        # file descriptors, the selector failed before it and the child ran on, unkilled
        # (review J4).
        pidfd = process.open_pidfd(proc.pid)
        sel = selectors.DefaultSelector()
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
            events = sel.select(_wait_time(state, now, until, poll=poll or not sel.get_map()))
            # Both pipes ready at once: the one being read last is most likely mid-flood
            # with older bytes pending, so it goes first (arrival order is approximate).
            events.sort(key=lambda event: event[0].data != reader.last)
            for key, _ in events:
                if key.data in (_EXIT, _CANCEL) or not reader.read(key.fd, key.data):
                    sel.unregister(key.fd)
                    state.check_exit = True
    except BaseException:
        process.terminate_group(proc, grace_s=grace_s)
        raise
    finally:
        if sel is not None:
            sel.close()
        process.close_quietly(pidfd)
        reader.close()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
    returncode = process.reap(proc)
    if state.killed_at is not None:
        process.wait_group_gone(proc.pid, state.strays)
        process.reap_foreign()
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
            state.strays = process.find_strays(proc.pid)
            process.signal_group(proc.pid, signal.SIGTERM)
            process.signal_strays(state.strays, signal.SIGTERM)
            state.kill_at = now + grace_s
    elif state.killed_at is None and (
        now >= state.kill_at
        or (state.exited_at is not None and not process.alive(proc.pid, state.strays))
    ):
        process.kill_now(proc.pid, state.strays)
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


class _Reader:
    """Moves bytes from ready pipes into a sink; /dev/null and big pipes only on demand."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self._devnull: int | None = None
        self._grown: set[int] = set()
        self.last = STDOUT  # the stream read most recently

    def close(self) -> None:
        process.close_quietly(self._devnull)

    def read(self, fd: int, stream: int) -> bool:
        """Read (or drain) what a ready pipe holds; False at end of file."""
        self.last = stream
        try:
            room = self.sink.room(stream)
            if room > 0:
                # os.read allocates its full size up front: ask for what the pipe can hold
                data = os.read(fd, min(room, _CHUNK if fd in self._grown else _SMALL_PIPE))
                if data:
                    self.sink.accept(stream, data)
                    self._maybe_grow(fd, len(data))
                return bool(data)
            ring = self.sink.tail(stream)
            if ring is not None:
                return self._fill(fd, stream, ring)
            return self._discard(fd, stream)
        except BlockingIOError:
            return True

    def _maybe_grow(self, fd: int, count: int) -> None:
        # A read that emptied a full default-sized pipe means a flood: fewer, larger
        # wake-ups from here on. Most commands never get here and pay nothing for it.
        if count >= _SMALL_PIPE and fd not in self._grown:
            self._grown.add(fd)
            process.grow_pipe(fd)

    def _fill(self, fd: int, stream: int, ring: Ring) -> bool:
        """Past the head: read into the tail ring until the pipe is empty (or a budget
        is spent, so the loop still sees deadlines); False at end of file."""
        moved = 0
        while moved < _DRAIN_BUDGET:
            count = os.readv(fd, [ring.free()])
            if count == 0:
                return False
            moved += count
            ring.advance(count)
            self.sink.filled(stream, count)
            self._maybe_grow(fd, count)
        return True

    def _discard(self, fd: int, stream: int) -> bool:
        """Past the cap: splice the pipe empty (within the budget), counting; False at EOF."""
        if self._devnull is None:
            self._devnull = process.open_devnull()
        moved = 0
        try:
            while moved < _DRAIN_BUDGET:
                count = process.discard(fd, self._devnull, _CHUNK)
                if count == 0:
                    return False
                moved += count
                self._maybe_grow(fd, count)
        finally:
            if moved:
                self.sink.dropped(stream, moved)
        return True
