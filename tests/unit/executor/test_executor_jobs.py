"""Background jobs: lifecycle, polling, eviction, separate stores, kill on close. Real processes."""

from __future__ import annotations

import contextlib
import pathlib
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from policylang.decision import Verdict
from policylang.errors import ExecutionRefusedError, SandboxUnavailableError
from policylang.executor import BubblewrapBackend, JobStatus, JobStore, UnknownJobError

from .conftest import decision, live_group_members, zombie_children


@pytest.fixture
def store() -> Iterator[JobStore]:
    with JobStore(grace_s=0.2, drain_s=0.05) as js:
        yield js


def _start(store: JobStore, command: str, cwd: str, **kwargs: object) -> str:
    return store.start(command, decision=decision(command), cwd=cwd, **kwargs)  # type: ignore[arg-type]


def test_lifecycle_start_poll_finish(store: JobStore, workdir: str) -> None:
    job = _start(store, "echo one; echo warn >&2; sleep 0.3; echo two; exit 4", workdir)
    assert job == "job-1"
    first = store.poll(job)
    assert first.info.status is JobStatus.RUNNING  # start returned before the job ended
    assert not first.info.done
    info = store.wait(job, timeout_s=10)
    assert info.status is JobStatus.EXITED
    assert info.exit_code == 4
    rest = store.poll(job)
    lines = (first.output + rest.output).splitlines()
    # stdout and stderr are separate pipes: their relative order is the scheduler's
    assert sorted(lines) == ["one", "two", "warn"]
    assert lines.index("one") < lines.index("two")
    assert store.poll(job).output == ""  # only new output on each poll
    assert [j.id for j in store.jobs()] == [job]
    assert info.duration_ms >= 300


def test_poll_window_is_capped_and_counts_the_rest(workdir: str) -> None:
    with JobStore(poll_cap_bytes=1000, drain_s=0.05) as store:
        job = _start(store, "head -c 100000 /dev/zero | tr '\\0' a", workdir)
        store.wait(job, timeout_s=10)
        poll = store.poll(job)
        assert poll.output == "a" * 1000  # the head: the cap
        assert poll.output_tail == "a" * 125  # an eighth per stream: the tail
        assert poll.dropped_bytes == 100000 - 1125


def test_a_flooding_job_keeps_its_last_lines_and_errors(workdir: str) -> None:
    """Review AY11: the poll window kept only the first bytes, so a job that printed much
    lost its final lines, often its error."""
    script = "seq 1 100000; echo 'fatal: it broke' >&2; echo done"
    with JobStore(poll_cap_bytes=4000, drain_s=0.05) as store:
        job = _start(store, script, workdir)
        store.wait(job, timeout_s=20)
        poll = store.poll(job)
        assert poll.output.startswith("1\n2\n3\n")
        assert poll.output_tail.endswith("fatal: it broke\n")
        assert "100000\ndone\n" in poll.output_tail
        text = poll.text()
        assert "bytes dropped" in text
        assert text.index("bytes dropped") < text.index("fatal: it broke")
        kept = len(poll.output.encode()) + len(poll.output_tail.encode())
        assert kept + poll.dropped_bytes == len(
            subprocess.run(["bash", "-c", script], capture_output=True, check=True).stdout
        ) + len("fatal: it broke\n")
        assert store.poll(job).text() == ""  # the next poll starts afresh


def test_output_that_fits_is_not_split(workdir: str) -> None:
    """Review BH6: output past the head but within the tails was split around a line
    saying `0 bytes dropped`, and a character at the split was broken."""
    with JobStore(poll_cap_bytes=1000, drain_s=0.05) as store:
        job = _start(store, "for i in $(seq 300); do printf '€'; done", workdir)  # 900 bytes
        store.wait(job, timeout_s=10)
        poll = store.poll(job)
        assert poll.dropped_bytes == 0
        assert poll.output_tail == ""
        assert poll.text() == "€" * 300
        job = _start(store, "head -c 1100 /dev/zero | tr '\\0' b", workdir)  # head + tail
        store.wait(job, timeout_s=10)
        assert store.poll(job).text() == "b" * 1100


def test_a_tail_cut_inside_a_character_starts_at_the_next_one(workdir: str) -> None:
    with JobStore(poll_cap_bytes=80, drain_s=0.05) as store:
        job = _start(store, "for i in $(seq 200); do printf 'é'; done", workdir)
        store.wait(job, timeout_s=10)
        poll = store.poll(job)
        assert "\ufffd" not in poll.output_tail
        assert set(poll.output_tail) == {"é"}
        kept = len(poll.output.encode()) + len(poll.output_tail.encode())
        assert kept + poll.dropped_bytes == 400


def test_finished_jobs_beyond_the_limit_are_evicted_oldest_first(workdir: str) -> None:
    with JobStore(max_finished=3, drain_s=0.05) as store:
        ids = []
        for i in range(5):
            ids.append(_start(store, f"echo {i}", workdir))
            store.wait(ids[-1], timeout_s=10)
        assert [j.id for j in store.jobs()] == ids[2:]
        with pytest.raises(UnknownJobError, match="no job `job-1`"):
            store.poll("job-1")
        assert store.poll(ids[-1]).output == "4\n"


def test_running_jobs_are_never_evicted(workdir: str) -> None:
    with JobStore(max_finished=1, grace_s=0.1, drain_s=0.05) as store:
        running = _start(store, "sleep 30", workdir)
        first = _start(store, "true", workdir)
        store.wait(first, timeout_s=10)
        second = _start(store, "true", workdir)
        store.wait(second, timeout_s=10)
        assert [j.id for j in store.jobs()] == [running, second]


def test_cleanup_forgets_finished_jobs_only(store: JobStore, workdir: str) -> None:
    running = _start(store, "sleep 30", workdir)
    done = _start(store, "true", workdir)
    store.wait(done, timeout_s=10)
    assert store.cleanup() == 1
    assert [j.id for j in store.jobs()] == [running]


def test_two_stores_have_separate_slates(workdir: str) -> None:
    with JobStore() as a, JobStore() as b:
        ja = _start(a, "true", workdir)
        assert b.jobs() == ()
        jb = _start(b, "true", workdir)
        assert ja == jb == "job-1"
        a.wait(ja, 10)
        b.wait(jb, 10)
        assert len(a.jobs()) == len(b.jobs()) == 1


GRANDCHILD = "sleep 60 & sleep 61"


def test_close_kills_every_running_group(workdir: str) -> None:
    store = JobStore(grace_s=0.2)
    ids = [_start(store, GRANDCHILD, workdir) for _ in range(3)]
    pids = [j.pid for j in store.jobs()]
    start = time.monotonic()
    store.close()
    assert time.monotonic() - start < 10.0  # not the 60 s the jobs would take
    for pid in pids:
        assert live_group_members(pid) == []
    assert {store.poll(i).info.status for i in ids} == {JobStatus.CANCELLED}
    assert zombie_children() == []
    with pytest.raises(ExecutionRefusedError, match="closed"):
        _start(store, "true", workdir)


def test_kill_one_job(store: JobStore, workdir: str) -> None:
    job = _start(store, GRANDCHILD, workdir)
    info = store.kill(job)
    assert info.status is JobStatus.CANCELLED
    assert live_group_members(info.pid) == []


def test_job_timeout(store: JobStore, workdir: str) -> None:
    job = _start(store, GRANDCHILD, workdir, timeout_s=0.2)
    info = store.wait(job, timeout_s=10)
    assert info.status is JobStatus.TIMED_OUT
    assert live_group_members(info.pid) == []


def test_signal_death_is_killed_status(store: JobStore, workdir: str) -> None:
    job = _start(store, "kill -9 $$", workdir)
    info = store.wait(job, timeout_s=10)
    assert info.status is JobStatus.KILLED
    assert info.signal == 9
    assert info.exit_code is None


def test_refused_start_records_nothing(store: JobStore, tmp_path: pathlib.Path) -> None:
    marker = tmp_path / "ran"
    command = f"touch {shlex.quote(str(marker))}"
    with pytest.raises(ExecutionRefusedError):
        store.start(command, decision=decision(command, Verdict.ASK), cwd=str(tmp_path))
    with pytest.raises(SandboxUnavailableError):
        store.start(command, decision=decision(command), cwd=str(tmp_path),
                    sandbox=BubblewrapBackend(str(tmp_path), bwrap="/nonexistent/bwrap"))
    assert store.jobs() == ()
    assert zombie_children() == []  # nothing was spawned, so nothing waits to be reaped
    assert not marker.exists()


def test_unknown_job_lists_known_ids(store: JobStore, workdir: str) -> None:
    job = _start(store, "true", workdir)
    with pytest.raises(UnknownJobError, match=f"known: {job}"):
        store.poll("job-99")
    with pytest.raises(KeyError):
        store.wait("nope")


def test_no_zombies_after_many_jobs(workdir: str) -> None:
    with JobStore(max_finished=5, drain_s=0.02) as store:
        ids = [_start(store, "echo x", workdir) for _ in range(40)]
        for job in ids:
            # an evicted job raises: eviction only happens to finished jobs
            with contextlib.suppress(UnknownJobError):
                assert store.wait(job, timeout_s=10).done
        assert len(store.jobs()) == 5
    assert zombie_children() == []


def test_bad_arguments(workdir: str) -> None:
    with pytest.raises(ValueError, match="max_finished"):
        JobStore(max_finished=-1)
    with JobStore() as store, pytest.raises(ValueError, match="timeout_s"):
        _start(store, "true", workdir, timeout_s=0)


_FORGETFUL_HOST = """
import sys
from policylang.decision import Decision, Verdict
from policylang.executor import JobStore
store = JobStore(grace_s=0.1)
command = sys.argv[1]
decision = Decision(command=command, verdict=Verdict.ALLOW, retention=None,
                    concurrency_safe=False)
job = store.start(command, decision=decision, cwd="/")
print(store.jobs()[0].pid, flush=True)
# exits without close(): the store's finalizer must still kill the job
"""


def test_jobs_die_when_the_host_exits_without_closing(workdir: str) -> None:
    done = subprocess.run([sys.executable, "-c", _FORGETFUL_HOST, "sleep 60 & sleep 61"],
                          capture_output=True, text=True, timeout=30, check=True)
    pgid = int(done.stdout)
    assert live_group_members(pgid) == []


def test_the_last_incomplete_character_of_a_job_is_not_dropped() -> None:
    # review AQ14: the decoder was never flushed, so `part\xe2\x82` polled as `part`
    from policylang.executor import JobStore

    from .conftest import decision

    command = r"printf 'part\342\202'"
    with JobStore() as store:
        job = store.start(command, decision=decision(command), cwd="/")
        store.wait(job, timeout_s=30)
        assert store.poll(job).output == "part\ufffd"


def test_concurrent_starts_keep_to_the_cap() -> None:
    # review AQ10: starts counted the same free slots at once; 18 of a cap of 16 ran
    import threading

    from policylang.errors import ExecutionRefusedError
    from policylang.executor import JobStore

    from .conftest import decision

    started: list[str] = []
    refused: list[str] = []
    lock = threading.Lock()
    with JobStore(max_running=4, grace_s=0.1) as store:

        def start(index: int) -> None:
            command = f"sleep 30 # {index}"
            try:
                job = store.start(command, decision=decision(command), cwd="/")
            except ExecutionRefusedError as error:
                with lock:
                    refused.append(str(error))
                return
            with lock:
                started.append(job)

        threads = [threading.Thread(target=start, args=(i,)) for i in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(started) == 4
        assert len(refused) == 16


def test_kill_running_kills_every_job_within_one_grace_period(workdir: str) -> None:
    # review AY6: jobs that ignore TERM were killed one after the other, a grace period
    # each (8 s for 16 jobs), with the MCP server's event loop blocked meanwhile
    store = JobStore(grace_s=1.0)
    ignoring = "trap '' TERM; sleep 60"
    ids = [_start(store, ignoring, workdir) for _ in range(8)]
    time.sleep(0.3)  # the traps are set
    pids = [j.pid for j in store.jobs()]
    start = time.monotonic()
    assert store.kill_running() == 8
    assert time.monotonic() - start < 6.0  # one grace period for all, not 8 in turn
    for pid in pids:
        assert live_group_members(pid) == []
    assert {store.poll(i).info.status for i in ids} == {JobStatus.CANCELLED}
    assert store.kill_running() == 0
    store.close()


def test_both_streams_tails_survive_the_model_budget(workdir: str) -> None:
    """Review BH7: with thousands of tail lines, the model's line budget kept only
    stderr's end; each stream's tail is now at most 100 lines."""
    from policylang.executor.render import fit

    script = "seq 1 100000; echo RESULT-OUT; seq 1 100000 >&2; echo FATAL-ERR >&2"
    with JobStore(drain_s=0.05) as store:
        job = _start(store, script, workdir)
        store.wait(job, timeout_s=30)
        shown = fit(store.poll(job).text())
    assert "RESULT-OUT" in shown
    assert "FATAL-ERR" in shown


def test_a_character_still_arriving_is_shown_whole_by_the_next_poll() -> None:
    """Review BH13: a poll that fell inside a character showed replacement characters."""
    from policylang.executor import output
    from policylang.executor.jobs import _Window

    window = _Window(16)
    window.accept(output.STDOUT, b"x" * 16)  # the head is full
    euro = "€".encode()
    window.accept(output.STDOUT, euro[:1])
    first = window.take()
    window.accept(output.STDOUT, euro[1:] + b"!")
    second = window.take()
    assert "\ufffd" not in first[0] + first[2] + second[0] + second[2]
    assert (first[0] + first[2] + second[0] + second[2]) == "x" * 16 + "€!"
