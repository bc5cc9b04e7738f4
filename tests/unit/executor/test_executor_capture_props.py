"""Property: what is kept of a stream is exactly its head and its tail, whatever the cap."""

from __future__ import annotations

import pathlib
import shlex
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.executor import output, run

from .conftest import decision


def _expected(data: bytes, cap: int) -> bytes:
    if len(data) <= cap:
        return data
    tail = cap // 4
    head = data[: cap - tail]
    return head + (data[-tail:] if tail else b"")


@settings(max_examples=40, deadline=None)
@given(out=st.binary(max_size=300_000), err=st.binary(max_size=5_000),
       cap=st.integers(0, 200_000), repeat=st.integers(1, 4))
def test_kept_bytes_are_head_and_tail(out: bytes, err: bytes, cap: int, repeat: int) -> None:
    out = out * repeat  # long outputs wrap the tail ring several times
    with tempfile.TemporaryDirectory() as tmp:
        o, e = pathlib.Path(tmp, "out"), pathlib.Path(tmp, "err")
        o.write_bytes(out)
        e.write_bytes(err)
        command = f"cat {shlex.quote(str(o))}; cat {shlex.quote(str(e))} >&2"
        res = run(command, decision=decision(command), cwd=tmp, max_stream_bytes=cap,
                  timeout_s=30)
    assert res.stdout_seen == len(out)
    assert res.stderr_seen == len(err)
    assert res.stdout_bytes == _expected(out, cap)
    assert res.stderr_bytes == _expected(err, cap)
    assert res.stdout_gap_at == (cap - cap // 4 if len(out) > cap else len(out))
    assert sum(n for s, n in res.interleaving if s == 1) == len(res.stdout_bytes)
    assert sum(n for s, n in res.interleaving if s == 2) == len(res.stderr_bytes)



def test_a_capture_of_streams_alternating_byte_by_byte_records_a_bounded_order() -> None:
    """review AY3: one `[stream, length]` list per change of stream: 1.2 million of them
    (200 MB) for a child alternating 1-byte writes; the order is now capped and the rest
    of each stream's head is merged after it, nothing lost."""
    capture = output.Capture(1 << 20)
    for _ in range(3 * output.MAX_RUNS):
        capture.accept(output.STDOUT, b"o")
        capture.accept(output.STDERR, b"e")
    runs = capture.interleaving()
    assert len(capture.order) == output.MAX_RUNS
    assert len(runs) <= output.MAX_RUNS + 2
    totals = {output.STDOUT: 0, output.STDERR: 0}
    for stream, length in runs:
        totals[stream] += length
    assert totals == {output.STDOUT: 3 * output.MAX_RUNS, output.STDERR: 3 * output.MAX_RUNS}
    assert runs[: 4] == ((output.STDOUT, 1), (output.STDERR, 1)) * 2  # exact while it can be


def test_a_child_alternating_streams_loses_nothing() -> None:
    code = "import os\nfor i in range(12000):\n    os.write(1, b'o'); os.write(2, b'e')\n"
    script = shlex.join(["python3", "-c", code])
    result = run(script, decision=decision(script), cwd=tempfile.gettempdir())
    assert result.exit_code == 0
    assert result.stdout_bytes == b"o" * 12000
    assert result.stderr_bytes == b"e" * 12000
    assert sum(length for _, length in result.interleaving) == 24000


def test_a_tail_follows_the_rest_of_its_head_where_the_order_was_capped() -> None:
    """Review CQ2: past `MAX_RUNS` changes of stream, a capped stream's tail was merged
    before the rest of its head, so the gap between them was not where `merged_text`
    looks: the `[... N bytes ... not kept ...]` line was missing and the text jumped."""
    capture = output.Capture(4096)
    for _ in range(output.MAX_RUNS):
        capture.accept(output.STDOUT, b"o")
        capture.accept(output.STDERR, b"e")
    capture.accept(output.STDOUT, b"O" * capture.room(output.STDOUT))
    ring = capture.tail(output.STDOUT)
    assert ring is not None
    remaining = 5000
    while remaining:  # (as the reader fills it: into the free region, then advance)
        free = ring.free()
        count = min(len(free), remaining)
        free[:count] = b"T" * count
        ring.advance(count)
        capture.filled(output.STDOUT, count)
        remaining -= count
    runs = capture.interleaving()
    offsets = {output.STDOUT: 0, output.STDERR: 0}
    tail_starts = []
    for stream, length in runs:
        if stream == output.STDOUT and offsets[stream] == len(capture.head[output.STDOUT]):
            tail_starts.append(offsets[stream])
        offsets[stream] += length
    assert tail_starts == [len(capture.head[output.STDOUT])]  # a run starts at the gap
    assert runs[-1] == (output.STDOUT, capture.tail_cap)
