"""Helpers for executor tests: decisions are inputs; every process is real."""

from __future__ import annotations

import contextlib
import os
import pathlib
import signal
import sys

import pytest

from policylang.decision import Decision, Retention, Verdict
from policylang.errors import SandboxUnavailableError
from policylang.executor import BubblewrapBackend, ExecResult, run

PY = sys.executable


def decision(
    command: str,
    verdict: Verdict = Verdict.ALLOW,
    retention: Retention | None = Retention.DURABLE,
    *,
    locked: bool = False,
) -> Decision:
    return Decision(command=command, verdict=verdict, retention=retention,
                    concurrency_safe=verdict is Verdict.ALLOW, locked=locked)


def confined(command: str, ws: pathlib.Path, backend: BubblewrapBackend,
             marker: pathlib.Path) -> ExecResult | None:
    """`command` run in `backend`; where bubblewrap cannot work here, the refusal is
    asserted instead (nothing ran) and None returned."""
    if not backend.probe().ok:
        with pytest.raises(SandboxUnavailableError, match="never ran"):
            run(command, decision=decision(command), cwd=str(ws), sandbox=backend,
                timeout_s=20)
        assert not marker.exists()
        return None
    return run(command, decision=decision(command), cwd=str(ws), sandbox=backend, timeout_s=60)


def _stat(pid: str) -> tuple[int, int, str] | None:
    """(ppid, pgid, state) from /proc, None if the process vanished."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()
    return int(fields[1]), int(fields[2]), fields[0].decode()


def live_group_members(pgid: int) -> list[int]:
    """Pids of running (non-zombie) processes in a process group."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(entry)
            if st is not None and st[1] == pgid and st[2] not in ("Z", "X"):
                found.append(int(entry))
    return found


def running(pid: int) -> bool:
    st = _stat(str(pid))
    return st is not None and st[2] not in ("Z", "X")


def zombie_children() -> list[int]:
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(entry)
            if st is not None and st[0] == me and st[2] == "Z":
                found.append(int(entry))
    return found


def kill_pid(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@pytest.fixture
def workdir(tmp_path: object) -> str:
    return str(tmp_path)


def tagged(tag: str) -> list[int]:
    """Running processes whose argv[0] is `tag` (named with `exec -a`)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if fh.read().split(b"\0")[0] == tag.encode():
                    found.append(int(pid))
        except OSError:
            continue
    return found
