"""Executor stage: every POSIX-specific call in one place; imports nothing from policylang.

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
import time
import warnings
from collections.abc import Mapping, Sequence

_log = logging.getLogger(__name__)

_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)
_PIPE_SIZE = 1 << 20
_SPLICE_FLAGS = getattr(os, "SPLICE_F_MOVE", 1) | getattr(os, "SPLICE_F_NONBLOCK", 2)


def spawn(argv: Sequence[str], *, cwd: str, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start `argv` in a new session with stdin from /dev/null and both outputs piped.

    Raises:
        OSError: the program could not be started (missing, not executable, bad cwd).
    """
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
    return proc


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
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True  # no /proc: assume the worst
    return any(e.isdigit() and _proc_group_state(e) == (pgid, False) for e in entries)


def _proc_group_state(pid: str) -> tuple[int, bool] | None:
    """(pgid, is_zombie) of a pid from /proc, None if it vanished."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return None
    # The command name may contain spaces and parentheses: split after the last ')'.
    fields = stat[stat.rfind(b")") + 2 :].split()
    return int(fields[2]), fields[0] in (b"Z", b"X")


def terminate_group(proc: subprocess.Popen[bytes], *, grace_s: float) -> None:
    """TERM the whole group, wait up to `grace_s` for it to go, KILL it, reap the child."""
    pgid = proc.pid
    signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        proc.poll()
        if proc.returncode is not None and not group_running(pgid):
            break
        time.sleep(0.01)
    else:
        _log.debug("process group %d outlived the %.2fs grace period: SIGKILL", pgid, grace_s)
    if group_alive(pgid):
        signal_group(pgid, signal.SIGKILL)
    reap(proc)
    wait_group_gone(pgid)


def wait_group_gone(pgid: int, *, timeout_s: float = 2.0) -> bool:
    """Wait until no process of a KILLed group still runs; False if one outlived `timeout_s`.

    SIGKILL is delivered asynchronously: a process closes its descriptors before it
    becomes a zombie, so a closed pipe does not yet mean it is gone.
    """
    deadline = time.monotonic() + timeout_s
    while group_running(pgid):
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
