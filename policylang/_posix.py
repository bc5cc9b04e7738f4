"""Process attributes set through `prctl` (Linux); imports nothing from policylang, so
that the hooks can use it without loading the executor."""

from __future__ import annotations

import contextlib

_PR_SET_DUMPABLE = 4  # <linux/prctl.h>
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    return False


def not_dumpable() -> bool:
    """Make this process not dumpable (Linux): other processes of the same user, the
    commands it runs among them, can then no longer open its `/proc/PID/environ`,
    `fd/*` or `mem`. Without it an approved, unconfined command read the host's secrets
    from `/proc/$PPID/environ` although its own environment was scrubbed (review DU2),
    or wrote into the host's stdin (`/proc/$PPID/fd/0`, review CQ). The commands it
    starts are dumpable again: the flag is reset at `execve`. It does not stop a process
    with `CAP_SYS_PTRACE` (root). Whether it was set (False where the call does not
    exist). `policylang run`, `policylang mcp` and the hooks call it; a host that embeds
    `BashTool` should call it too, or keep its secrets out of its environment.
    """
    return _prctl(_PR_SET_DUMPABLE, 0)


def child_subreaper() -> bool:
    """Make this process a child subreaper (Linux): orphaned descendants come back to it
    instead of to init. Whether it was set."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)
