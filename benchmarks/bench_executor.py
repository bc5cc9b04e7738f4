"""Executor benchmarks: spawn overhead, flood drain speed and memory, sandbox cost.

Prints figures and the issue-5 targets next to them; exits 1 if a target is missed.

    .venv/bin/python benchmarks/bench_executor.py [--quick]

1. overhead of `run("true")` vs a bare `subprocess.run(["bash", "-c", "true"])`
   (median of N interleaved runs; target ratio <= 1.2);
2. a 1 GiB flood (`head -c 1G /dev/zero`) with the default 1 MB cap: peak RSS growth
   (target <= 32 MiB, measured in a fresh process) and throughput vs
   `head -c 1G /dev/zero | cat > /dev/null` (target >= 50 %);
3. sandboxed `true` (bubblewrap) vs plain `run("true")`, when bubblewrap works here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from policylang.decision import Decision, Verdict
from policylang.executor import BubblewrapBackend, run

GIB = 1 << 30


def _allow(command: str) -> Decision:
    return Decision(command=command, verdict=Verdict.ALLOW, retention=None,
                    concurrency_safe=True)


def _median_ms(fn: Callable[[], object], n: int) -> float:
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def bench_overhead(n: int) -> bool:
    decision = _allow("true")
    bare_ms: list[float] = []
    ours_ms: list[float] = []
    for _ in range(n):  # interleaved, so drift on a shared machine hits both alike
        bare_ms.append(_median_ms(lambda: subprocess.run(["bash", "-c", "true"], check=True), 1))
        ours_ms.append(_median_ms(lambda: run("true", decision=decision, cwd="/"), 1))
    bare, ours = statistics.median(bare_ms), statistics.median(ours_ms)
    ratio = ours / bare
    best = min(ours_ms) / min(bare_ms)
    print(f"overhead: bare subprocess.run(bash -c true) {bare:.2f} ms, "
          f"run('true') {ours:.2f} ms, median ratio {ratio:.2f} (target <= 1.2, n={n}); "
          f"best-case ratio {best:.2f}")
    return ratio <= 1.2


_FLOOD_CHILD = """
import resource, sys, time
from policylang.decision import Decision, Verdict
from policylang.executor import run
allow = lambda c: Decision(command=c, verdict=Verdict.ALLOW, retention=None, concurrency_safe=True)
run("true", decision=allow("true"), cwd="/")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cmd = sys.argv[1]
start = time.perf_counter()
res = run(cmd, decision=allow(cmd), cwd="/", timeout_s=600)
elapsed = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(res.stdout_seen, len(res.stdout_bytes), after - before, elapsed)
"""


def bench_flood(size: int, rounds: int) -> bool:
    """Best of `rounds` for each side, interleaved: the machine is shared and noisy."""
    head = f"head -c {size} /dev/zero"
    cat_s = ours_s = float("inf")
    growth_kib = kept = 0
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run(["bash", "-c", f"{head} | cat > /dev/null"], check=True)
        cat_s = min(cat_s, time.perf_counter() - start)
        out = subprocess.run([sys.executable, "-c", _FLOOD_CHILD, head], check=True,
                             capture_output=True, text=True).stdout.split()
        assert int(out[0]) == size, (out, size)
        kept, growth_kib = int(out[1]), max(growth_kib, int(out[2]))
        ours_s = min(ours_s, float(out[3]))
    cat_rate, our_rate = size / cat_s / 2**20, size / ours_s / 2**20
    share = our_rate / cat_rate
    growth_mib = growth_kib / 1024
    print(f"flood {size / 2**20:.0f} MiB (best of {rounds}): kept {kept:,} bytes; peak RSS growth "
          f"{growth_mib:.1f} MiB (target <= 32)")
    print(f"flood drain: run {our_rate:,.0f} MiB/s vs `cat > /dev/null` {cat_rate:,.0f} MiB/s "
          f"= {share:.0%} (target >= 50%)")
    return growth_mib <= 32 and share >= 0.5


def bench_sandbox(n: int) -> bool:
    with tempfile.TemporaryDirectory() as ws:
        backend = BubblewrapBackend(ws)
        probe = backend.probe()
        if not probe.ok:
            print(f"sandbox: not measured, bubblewrap unusable here ({probe.detail})")
            return True
        decision = _allow("true")
        plain = _median_ms(lambda: run("true", decision=decision, cwd=ws), n)
        boxed = _median_ms(lambda: run("true", decision=decision, cwd=ws, sandbox=backend), n)
        bare = _median_ms(lambda: subprocess.run(
            ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "true"], check=True), n)
    print(f"sandbox: run('true') {plain:.2f} ms, sandboxed {boxed:.2f} ms "
          f"(+{boxed - plain:.2f} ms); bare `bwrap ... true` {bare:.2f} ms (n={n})")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, 256 MiB flood")
    opts = parser.parse_args()
    n = 30 if opts.quick else 200
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f} on {} CPUs".format(
        *os.getloadavg(), os.cpu_count()))
    ok = bench_overhead(n)
    ok &= bench_flood(GIB // 4 if opts.quick else GIB, rounds=2 if opts.quick else 3)
    ok &= bench_sandbox(n // 2)
    print("executor benchmarks:", "all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
