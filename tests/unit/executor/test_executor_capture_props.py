"""Property: what is kept of a stream is exactly its head and its tail, whatever the cap."""

from __future__ import annotations

import pathlib
import shlex
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.executor import run

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
