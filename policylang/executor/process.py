"""Executor stage: every POSIX-specific call in one place; imports only `policylang._posix`
(the `prctl` calls, which the hooks use without the executor).

The child leads a new session and process group, so one `killpg` reaches every
grandchild and sub-shell that did not move itself elsewhere (`setsid`). Killing is
TERM to the group, a grace period, KILL to the group; the child is always reaped.
Failures to signal become warnings, never exceptions, so cleanup never masks the
original error.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import signal
import subprocess
import threading
import time
import warnings
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from policylang._posix import child_subreaper

_log = logging.getLogger(__name__)

_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)
_PIPE_SIZE = 1 << 20
_SPLICE_FLAGS = getattr(os, "SPLICE_F_MOVE", 1) | getattr(os, "SPLICE_F_NONBLOCK", 2)


def spawn(argv: Sequence[str], *, cwd: str, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start `argv` in a new session with stdin from /dev/null and both outputs piped.

    Raises:
        OSError: the program could not be started (missing, not executable, bad cwd).
    """
    reap_foreign()  # what commands left to the host and has ended since (review DU7)
    with _SPAWNED_LOCK:
        if _stopping():
            raise OSError(errno.ESHUTDOWN, "the host is stopping: no new command is started")
        _IN_FLIGHT[0] += 1  # `terminate_all` waits for it (review AT8)
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
            close_fds=True,
        )
        for pipe in (proc.stdout, proc.stderr):
            assert pipe is not None  # INVARIANT: both were requested as PIPE above
            os.set_blocking(pipe.fileno(), False)
        with _SPAWNED_LOCK:
            if not _stopping():
                _SPAWNED.add(proc)
                return proc
        # the host began stopping (`terminate_all`) while this command was being started:
        # left alone it would outlive the host (review AS4)
        kill_now(proc.pid, find_strays(proc.pid))
        reap(proc)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        raise OSError(errno.ESHUTDOWN, "the host is stopping: no new command is started")
    finally:
        with _SPAWNED_LOCK:
            _IN_FLIGHT[0] -= 1


# every command this process started, for `terminate_all` (weak: a reaped and forgotten
# command leaves the set by itself)
_SPAWNED: weakref.WeakSet[subprocess.Popen[bytes]] = weakref.WeakSet()
_SPAWNED_LOCK = threading.RLock()  # reentrant: `terminate_all` may run in a signal handler


# [`terminate_all` calls running, whether one was final]: while either holds, `spawn`
# kills what it started and refuses
_STOPPING = [0, 0]
_IN_FLIGHT = [0]  # `spawn` calls between their first check and registration or self-kill
_SETTLE_S = 2.0  # how long `terminate_all` waits for those


def _stopping() -> bool:
    return bool(_STOPPING[0] or _STOPPING[1])
_MAX_ROUNDS = 256  # `terminate_all` rounds (most wait 10 ms for a `spawn` in progress)


def terminate_all(*, grace_s: float = 0.5, final: bool = False) -> int:
    """TERM, then KILL, the group of every command this process started that is still
    running (its leader not yet reaped, so its group id cannot have been reused); how many.

    For a host that is being stopped by a signal (SIGTERM, SIGHUP): a foreground command
    in a worker thread would otherwise be left running under pid 1 with no timeout at all
    (review AQ2). Every group is signalled first and they share one grace period. While
    it runs, and for good with `final=True` (a host about to exit), `spawn` refuses: a
    command another thread started during the grace period had been left running (review
    AS4). Safe to call from several threads and from a signal handler.
    """
    with _SPAWNED_LOCK:
        _STOPPING[0] += 1
        _STOPPING[1] |= final
    stopped = 0
    settle_by = time.monotonic() + _SETTLE_S
    try:
        for _ in range(_MAX_ROUNDS):
            with _SPAWNED_LOCK:
                running = [proc for proc in _SPAWNED if proc.returncode is None]
                starting = _IN_FLIGHT[0]
            if running:
                _terminate_groups(running, grace_s)
                stopped += len(running)
            elif not starting or time.monotonic() >= settle_by:
                break
            else:
                # a thread is inside `Popen`: it registers its command or kills it itself,
                # and a host that exits right after this call must not leave it behind
                # (review AT8; bounded, since the caller may be that thread)
                time.sleep(0.01)
        foreign = _foreign_children(_proc_table() or {})
        if foreign:  # what commands left as the host's own children (review DU7)
            signal_strays(foreign, signal.SIGTERM)
            deadline = time.monotonic() + grace_s
            while strays_running(foreign) and time.monotonic() < deadline:
                time.sleep(0.01)
            kill_now(0, foreign)
            wait_group_gone(0, foreign)
            stopped += len(foreign)
        reap_foreign()
    finally:
        with _SPAWNED_LOCK:
            _STOPPING[0] -= 1
    return stopped


def _terminate_groups(procs: list[subprocess.Popen[bytes]], grace_s: float) -> None:
    """`terminate_group` for several groups at once, sharing one grace period."""
    strays = {proc.pid: find_strays(proc.pid) for proc in procs}
    for proc in procs:
        signal_group(proc.pid, signal.SIGTERM)
        signal_strays(strays[proc.pid], signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        for proc in procs:
            proc.poll()
        if not any(
            proc.returncode is None or alive(proc.pid, strays[proc.pid]) for proc in procs
        ):
            break
        time.sleep(0.01)
    for proc in procs:
        with contextlib.suppress(OSError):
            kill_now(proc.pid, strays[proc.pid])
            reap(proc)
            wait_group_gone(proc.pid, strays[proc.pid])


def grow_pipe(fd: int) -> None:
    """Enlarge a pipe (fewer wake-ups on a flood); a refusal only costs speed."""
    with contextlib.suppress(OSError):
        fcntl.fcntl(fd, _F_SETPIPE_SZ, _PIPE_SIZE)


def open_pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when `pid` exits, or None where unsupported."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        fd: int = opener(pid)
    except OSError:
        return None
    return fd


def signal_group(pgid: int, sig: signal.Signals) -> bool:
    """Send `sig` to a process group; False when the group no longer exists.

    Any other failure is reported as a `RuntimeWarning` and counted as "still there".
    """
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except OSError as exc:
        warnings.warn(f"could not send {sig.name} to process group {pgid}: {exc}",
                      RuntimeWarning, stacklevel=2)
    return True


def group_alive(pgid: int) -> bool:
    """Whether any process (zombies included) is still in the group."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def group_running(pgid: int) -> bool:
    """Whether a process of the group is still running (zombies do not count).

    Zombies are ignored because an orphaned grandchild's zombie belongs to whoever
    reaps orphans on this host, which may never happen inside a container.
    """
    if not group_alive(pgid):
        return False
    table = _proc_table()
    if table is None:
        return True  # no /proc: assume the worst
    return any(st.pgid == pgid and not st.zombie for st in table.values())


@dataclass(frozen=True, slots=True)
class _Stat:
    ppid: int
    pgid: int
    zombie: bool
    start: bytes  # start time in clock ticks since boot: tells a reused pid apart
    sid: int = 0


def _stat(pid: int | str) -> _Stat | None:
    """A process's /proc stat fields we use, None if it vanished."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    # The command name may contain spaces and parentheses: split after the last ')'.
    f = raw[raw.rfind(b")") + 2 :].split()
    return _Stat(ppid=int(f[1]), pgid=int(f[2]), zombie=f[0] in (b"Z", b"X"), start=f[19],
                 sid=int(f[3]))


def _proc_table() -> dict[int, _Stat] | None:
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    table = {}
    for entry in entries:
        if entry.isdigit() and (st := _stat(entry)) is not None:
            table[int(entry)] = st
    return table


Strays = dict[int, bytes]  # pid -> start time


def find_strays(root: int) -> Strays:
    """Running descendants of `root` that left its process group (`setsid`, `setpgid`).

    `killpg` cannot reach them; at a timeout they are signalled one by one. A process
    that was already orphaned (a double-forked daemon) is no longer a descendant and
    cannot be found this way. In a host that `own_children` declared, the host's own
    children that came from commands started since `root` (see there) count too.
    """
    table = _proc_table() or {}
    children: dict[int, list[int]] = {}
    for pid, st in table.items():
        children.setdefault(st.ppid, []).append(pid)
    found: Strays = {}
    todo = list(children.get(root, ()))
    if root in table:
        foreign = _foreign_children(table, since=int(table[root].start))
        found.update(foreign)
        todo += [child for pid in foreign for child in children.get(pid, ())]
    while todo:
        pid = todo.pop()
        st = table[pid]
        if st.pgid != root and not st.zombie:
            found[pid] = st.start
        todo.extend(children.get(pid, ()))
    return found


# whether every child of this process that is not in its own session came from a command
_OWNS_CHILDREN = [False]


def own_children() -> bool:
    """Declare that this process starts nothing in a session of its own but commands
    (`policylang run` and `policylang mcp` do; an embedding host may, when true of it).

    A command can make a process whose parent is the host itself (`clone(CLONE_PARENT)`)
    and move it to a session of its own: it was no descendant of the command, so its
    deadline did not reach it, and it outlived `run` and `terminate_all` (review DU7).
    Once declared, the host's children that `spawn` did not start and that are not in
    the host's session (what the host starts itself, `git` for the engine, the sandbox
    probe, is) count as the commands': at a command's deadline, those started since the
    command are killed with it, `terminate_all` kills all of them, and the dead are
    reaped. The host also becomes a child subreaper (Linux), so that an orphaned
    descendant of a command (a double-forked daemon) comes back to it instead of to
    init, and is found the same way. Returns whether the subreaper could be set.
    """
    _OWNS_CHILDREN[0] = True
    return child_subreaper()


def _foreign_children(table: dict[int, _Stat], *, since: int = 0,
                      zombies: bool = False) -> Strays:
    """The host's children that came from commands (see `own_children`) and started at
    or after `since` (clock ticks), running ones (or, with `zombies`, dead ones)."""
    if not _OWNS_CHILDREN[0]:
        return {}
    me = os.getpid()
    session = os.getsid(0)
    with _SPAWNED_LOCK:
        known = {proc.pid for proc in _SPAWNED}
    return {
        pid: st.start
        for pid, st in table.items()
        if st.ppid == me and st.sid != session and pid not in known
        and st.zombie == zombies and int(st.start) >= since
    }


def reap_foreign() -> int:
    """Reap the dead children of a host that `own_children` declared, which came from
    commands (nothing else waits for them); how many."""
    if not _OWNS_CHILDREN[0]:
        return 0
    reaped = 0
    with _SPAWNED_LOCK:
        if _IN_FLIGHT[0]:  # a command being started is not yet known: its status is not ours
            return 0
        for pid in _foreign_children(_proc_table() or {}, zombies=True):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    reaped += 1
    return reaped


def signal_strays(strays: Strays, sig: signal.Signals) -> None:
    for pid, start in strays.items():
        st = _stat(pid)
        if st is not None and st.start == start and not st.zombie:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)


def strays_running(strays: Strays) -> bool:
    return any((st := _stat(pid)) is not None and st.start == start and not st.zombie
               for pid, start in strays.items())


def terminate_group(proc: subprocess.Popen[bytes], *, grace_s: float) -> None:
    """TERM the whole group (and stray descendants), wait up to `grace_s` for them to
    go, KILL them, reap the child."""
    pgid = proc.pid
    strays = find_strays(pgid)
    signal_group(pgid, signal.SIGTERM)
    signal_strays(strays, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        proc.poll()
        if proc.returncode is not None and not alive(pgid, strays):
            break
        time.sleep(0.01)
    else:
        _log.debug("process group %d outlived the %.2fs grace period: SIGKILL", pgid, grace_s)
    kill_now(pgid, strays)
    reap(proc)
    wait_group_gone(pgid, strays)
    reap_foreign()


def alive(pgid: int, strays: Strays) -> bool:
    """Whether a process of the group, or a stray, is still running."""
    return group_running(pgid) or strays_running(strays)


def kill_now(pgid: int, strays: Strays) -> None:
    """SIGKILL the group (sent even when only zombies are left: harmless) and the strays.

    First the group and the strays are stopped, and their descendants that left the group
    since the strays were found are added (`strays` grows in place) until none is new:
    a process answering TERM by forking a child into a new session escaped the kill
    (review J2). A stopped process cannot fork, so the last walk sees them all.
    """
    for _ in range(_SWEEPS):
        if pgid > 0 and group_alive(pgid):  # (0: strays alone; killpg(0) is our own group)
            signal_group(pgid, signal.SIGSTOP)
        signal_strays(strays, signal.SIGSTOP)
        new = _left_the_group(pgid, strays)
        if not new:
            break
        strays.update(new)
    if pgid > 0 and group_alive(pgid):
        signal_group(pgid, signal.SIGKILL)
    signal_strays(strays, signal.SIGKILL)


_SWEEPS = 8


def _left_the_group(pgid: int, strays: Strays) -> Strays:
    """Running descendants of the group's members and of `strays` that are neither in the
    group nor already in `strays`."""
    table = _proc_table() or {}
    children: dict[int, list[int]] = {}
    for pid, st in table.items():
        children.setdefault(st.ppid, []).append(pid)
    roots = [pid for pid, st in table.items() if st.pgid == pgid]
    roots += [pid for pid in strays if pid in table and table[pid].start == strays[pid]]
    found: Strays = {}
    todo = [child for root in roots for child in children.get(root, ())]
    while todo:
        pid = todo.pop()
        st = table[pid]
        if st.pgid != pgid and not st.zombie and pid not in strays and pid not in found:
            found[pid] = st.start
        todo.extend(children.get(pid, ()))
    return found


def wait_group_gone(pgid: int, strays: Strays | None = None, *, timeout_s: float = 2.0) -> bool:
    """Wait until no process of a KILLed group still runs; False if one outlived `timeout_s`.

    SIGKILL is delivered asynchronously: a process closes its descriptors before it
    becomes a zombie, so a closed pipe does not yet mean it is gone.
    """
    deadline = time.monotonic() + timeout_s
    while (pgid > 0 and group_running(pgid)) or strays_running(strays or {}):
        if time.monotonic() >= deadline:
            warnings.warn(f"process group {pgid} survived SIGKILL for {timeout_s}s",
                          RuntimeWarning, stacklevel=2)
            return False
        time.sleep(0.005)
    return True


def reap(proc: subprocess.Popen[bytes]) -> int:
    """Wait for the direct child, retrying through EINTR; returns its Popen returncode."""
    while True:
        try:
            return proc.wait()
        except OSError as exc:  # pragma: no cover - wait() already retries EINTR
            if exc.errno != errno.EINTR:
                raise


def close_quietly(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def open_devnull() -> int:
    return os.open(os.devnull, os.O_WRONLY)


def discard(fd: int, devnull: int, size: int) -> int:
    """Drain up to `size` bytes from a pipe without copying them into Python.

    Returns the byte count moved (0 at end of file). Raises BlockingIOError when
    the pipe is empty, like `os.read` on a non-blocking descriptor.
    """
    splicer = getattr(os, "splice", None)
    if splicer is not None:
        try:
            moved: int = splicer(fd, devnull, size, flags=_SPLICE_FLAGS)
        except OSError as exc:
            if exc.errno not in (errno.EINVAL, errno.ENOSYS):
                raise
        else:
            return moved
    return len(os.read(fd, size))
