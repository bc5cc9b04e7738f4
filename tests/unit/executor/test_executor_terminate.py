"""`terminate_all`: every command this process started is stopped, including those other
threads start while it waits (review AS4). Real processes throughout."""

from __future__ import annotations

import os
import pathlib
import subprocess
import threading
import time

import policylang
from policylang.executor import process, terminate_all

from .conftest import PY


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


def _closed(*procs: subprocess.Popen[bytes]) -> None:
    for proc in procs:
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def test_commands_started_during_the_grace_period_do_not_survive() -> None:
    stubborn = process.spawn(
        ["bash", "-c", "trap '' TERM; sleep 100"], cwd="/", env=dict(os.environ)
    )
    time.sleep(0.2)  # let bash set its trap
    late: list[object] = []

    def start_late() -> None:
        time.sleep(0.2)  # inside terminate_all's grace period
        try:
            late.append(process.spawn(["sleep", "4242"], cwd="/", env=dict(os.environ)))
        except OSError as error:
            late.append(error)

    thread = threading.Thread(target=start_late)
    thread.start()
    stopped = terminate_all(grace_s=0.6)
    thread.join()
    assert stopped >= 1
    assert stubborn.returncode is not None
    _closed(stubborn)
    (outcome,) = late
    if isinstance(outcome, subprocess.Popen):
        _closed(outcome)
        assert outcome.returncode is not None
        assert not _alive(outcome.pid)
    else:
        assert isinstance(outcome, OSError)
        assert "stopping" in str(outcome)


def test_spawning_works_again_after_a_call_that_was_not_final() -> None:
    terminate_all(grace_s=0.1)
    proc = process.spawn(["true"], cwd="/", env=dict(os.environ))
    assert proc.wait(timeout=10) == 0
    _closed(proc)


def test_several_stubborn_groups_share_one_grace_period() -> None:
    procs = [
        process.spawn(["bash", "-c", "trap '' TERM; sleep 100"], cwd="/", env=dict(os.environ))
        for _ in range(4)
    ]
    time.sleep(0.2)
    began = time.monotonic()
    assert terminate_all(grace_s=0.5) == 4
    # one shared grace period, not four in a row (each group ignores TERM)
    assert time.monotonic() - began < 1.5
    assert all(proc.returncode is not None for proc in procs)
    _closed(*procs)


def test_after_a_final_call_nothing_is_started(tmp_path: pathlib.Path) -> None:
    code = (
        "import os\n"
        "from policylang.executor import process, terminate_all\n"
        "terminate_all(final=True)\n"
        "try:\n"
        "    process.spawn(['touch', 'started'], cwd=os.getcwd(), env=dict(os.environ))\n"
        "except OSError as error:\n"
        "    print('refused:', error)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(policylang.__file__).parents[1]))
    proc = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60,
                          env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "refused:" in proc.stdout
    assert "stopping" in proc.stdout
    assert not (tmp_path / "started").exists()



_STARTER = """
import os, sys, threading, time
from policylang.executor import process, terminate_all
tag = sys.argv[1]

def loop():
    while True:
        try:
            proc = process.spawn(["sleep", tag], cwd="/", env=dict(os.environ))
        except OSError:
            return
        proc.kill()
        proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()

for _ in range(3):
    threading.Thread(target=loop, daemon=True).start()
time.sleep(0.3)
terminate_all(final=True, grace_s=0.1)
os._exit(0)  # as the MCP server's signal handler does
"""


def _left(tag: str) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if handle.read() == f"sleep\0{tag}\0".encode():
                        pids.append(int(entry))
            except OSError:
                continue
    return pids


def test_a_final_call_leaves_no_command_that_was_being_started() -> None:
    # review AT8: a thread inside `Popen` when the host called `os._exit` right after
    # `terminate_all` left its command running (22 of 30 stress runs)
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(policylang.__file__).parents[1]))
    orphans: list[int] = []
    for run in range(5):
        tag = f"{4000 + run}.{os.getpid()}"
        subprocess.run([PY, "-c", _STARTER, tag], env=env, timeout=60, check=True)
        time.sleep(0.1)
        left = _left(tag)
        for pid in left:
            os.kill(pid, 9)
        orphans += left
    assert orphans == []
