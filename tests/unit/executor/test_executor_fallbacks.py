"""The portability fallbacks behave like the fast paths: no pidfd (poll), no splice (read)."""

from __future__ import annotations

import os

import pytest

from policylang.executor import JobStatus, JobStore, process, run

from .conftest import decision, live_group_members, zombie_children


@pytest.fixture
def no_pidfd(monkeypatch: pytest.MonkeyPatch) -> None:
    # As on kernels before 5.3: the loop polls for the child's exit instead.
    monkeypatch.setattr(process, "open_pidfd", lambda pid: None)


@pytest.mark.usefixtures("no_pidfd")
def test_without_pidfd_runs_times_out_and_drains(workdir: str) -> None:
    ok = run("echo hi; exit 2", decision=decision("echo hi; exit 2"), cwd=workdir)
    assert ok.exit_code == 2
    assert ok.stdout == "hi\n"
    slow = run("sleep 60 & sleep 61", decision=decision("sleep 60 & sleep 61"), cwd=workdir,
               timeout_s=0.2, grace_s=0.1)
    assert slow.timed_out
    assert live_group_members(slow.pid) == []
    quiet = "exec >/dev/null 2>&1; sleep 0.2"  # closes its pipes and keeps running
    res = run(quiet, decision=decision(quiet), cwd=workdir, timeout_s=5)
    assert res.exit_code == 0
    assert res.duration_ms >= 200
    assert zombie_children() == []


@pytest.mark.usefixtures("no_pidfd")
def test_without_pidfd_jobs_can_be_killed(workdir: str) -> None:
    with JobStore(grace_s=0.1) as store:
        job = store.start("sleep 60", decision=decision("sleep 60"), cwd=workdir)
        assert store.kill(job).status is JobStatus.CANCELLED


def test_without_splice_the_excess_is_read_and_counted(monkeypatch: pytest.MonkeyPatch,
                                                       workdir: str) -> None:
    monkeypatch.delattr(os, "splice")
    with JobStore(poll_cap_bytes=16) as store:  # a job window reads on into its tails
        command = "head -c 3000000 /dev/zero"
        job = store.start(command, decision=decision(command), cwd=workdir)
        store.wait(job, timeout_s=30)
        poll = store.poll(job)
    assert len(poll.output) == 16
    assert len(poll.output_tail) == 2
    assert poll.dropped_bytes == 3_000_000 - 18


def test_closed_pipes_but_still_running_is_still_timed(workdir: str) -> None:
    command = "exec >/dev/null 2>&1; sleep 60"
    res = run(command, decision=decision(command), cwd=workdir, timeout_s=0.3, grace_s=0.1)
    assert res.timed_out
    assert live_group_members(res.pid) == []
