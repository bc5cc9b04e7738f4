"""Review J: what a hostile command or a careless embedder did to the executor."""

from __future__ import annotations

import errno
import math
import os
import pathlib
import selectors
import shlex
import sys
import time

import pytest

from policylang.errors import ExecutionRefusedError
from policylang.executor import JobStatus, JobStore, run

from .conftest import decision, tagged


def _no_selector() -> selectors.BaseSelector:
    raise OSError(errno.EMFILE, "Too many open files")


def test_a_watcher_that_cannot_start_kills_the_command(
    workdir: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review J4: out of descriptors, the selector failed outside the kill-on-error guard,
    # and the command ran on, unkilled, under a job marked "cancelled"
    tag = f"policylang-j4-{os.getpid()}"
    command = f"exec -a {tag} sleep 60"
    monkeypatch.setattr(selectors, "DefaultSelector", _no_selector)  # the module output uses
    with JobStore(grace_s=0.2, drain_s=0.05) as store:
        job = store.start(command, decision=decision(command), cwd=workdir)
        info = store.wait(job, timeout_s=10)
        assert info.status is JobStatus.CANCELLED
        assert tagged(tag) == []
    with pytest.raises(OSError, match="Too many open files"):
        run(command, decision=decision(command), cwd=workdir, grace_s=0.2)
    assert tagged(tag) == []


def test_running_jobs_are_capped(workdir: str, tmp_path: pathlib.Path) -> None:
    marker = tmp_path / "third"
    with JobStore(max_running=2, grace_s=0.2, drain_s=0.05) as store:
        for _ in range(2):
            store.start("sleep 30", decision=decision("sleep 30"), cwd=workdir)
        third = f"touch {shlex.quote(str(marker))}"
        with pytest.raises(ExecutionRefusedError, match="2 background jobs are running"):
            store.start(third, decision=decision(third), cwd=workdir)
        assert not marker.exists()
        store.kill(store.jobs()[0].id)
        store.start(third, decision=decision(third), cwd=workdir)  # room again
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert marker.exists()


@pytest.mark.parametrize(
    "numbers",
    [
        {"timeout_s": math.inf},
        {"timeout_s": 1e300},
        {"timeout_s": math.nan},
        {"grace_s": math.nan},
        {"drain_s": math.nan},
        {"grace_s": -1.0},
    ],
    ids=repr,
)
def test_durations_that_are_not_finite_are_refused_before_the_spawn(
    workdir: str, tmp_path: pathlib.Path, numbers: dict[str, float]
) -> None:
    # review J10: `timeout_s=inf` raised after the spawn; `grace_s=nan` never sent SIGKILL
    marker = tmp_path / "ran"
    command = f"touch {shlex.quote(str(marker))}"
    with pytest.raises(ValueError, match="must be a number of seconds"):
        run(command, decision=decision(command), cwd=workdir, **numbers)  # type: ignore[arg-type]
    assert not marker.exists()
    durations = {k: v for k, v in numbers.items() if k != "timeout_s"}
    if durations:
        with pytest.raises(ValueError, match="must be a number of seconds"):
            JobStore(**durations)  # type: ignore[arg-type]
    else:
        with JobStore() as store, pytest.raises(ValueError, match="must be a number of seconds"):
            store.start(command, decision=decision(command), cwd=workdir, **numbers)  # type: ignore[arg-type]
    assert not marker.exists()


_ESCAPE_ON_TERM = """
import os, signal, sys, time
def escape(signum, frame):
    if os.fork() == 0:
        os.setsid()
        os.execvp("bash", ["bash", "-c", "exec -a {tag} sleep 60"])
signal.signal(signal.SIGTERM, escape)
open(sys.argv[1], "w").close()
while True:
    time.sleep(0.05)
"""


@pytest.mark.parametrize("stray", [False, True], ids=["group-member", "stray"])
def test_a_process_forking_away_on_term_is_killed_too(
    workdir: str, tmp_path: pathlib.Path, stray: bool
) -> None:
    # review J2: the strays were listed once, when TERM was sent; a child forked into a
    # new session by a TERM handler was in neither the group nor the list, and survived
    tag = f"policylang-j2-{os.getpid()}-{stray}"
    script = tmp_path / "escape.py"
    script.write_text(_ESCAPE_ON_TERM.replace("{tag}", tag))
    ready = tmp_path / "ready"
    python = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(ready))}"
    command = f"setsid {python} & wait" if stray else python
    try:
        res = run(command, decision=decision(command), cwd=workdir, timeout_s=1.5, grace_s=0.5)
        assert ready.exists()  # the handler was installed before the timeout
        assert res.timed_out
        deadline = time.monotonic() + 5
        while tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert tagged(tag) == [], "a process forked on TERM outlived the kill"
    finally:
        for pid in tagged(tag):
            os.kill(pid, 9)
