"""Benchmark: start-up of one-shot processes (a hook call), with and without policy snapshots.

Run: .venv/bin/python benchmarks/bench_startup.py [--runs N]

A hook (`policylang hook claude-code`) is one process per tool call, so its start-up is
its cost. Each figure is the median wall time of N fresh processes; "without" sets
POLICYLANG_SNAPSHOTS=0, "with" first makes sure the snapshot of the shipped policy exists.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HOOK_INPUT = json.dumps(
    {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status && ls -la"},
        "cwd": "/tmp",
    }
)
LOAD = "import policylang; policylang.load_policy()"


def _median_ms(args: list[str], runs: int, *, snapshots: bool, stdin: str = "") -> float:
    env = dict(os.environ, POLICYLANG_SNAPSHOTS="1" if snapshots else "0")
    subprocess.run(args, input=stdin, capture_output=True, text=True, env=env, check=False)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, input=stdin, capture_output=True, text=True, env=env, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    hook = [sys.executable, "-m", "policylang.cli.main", "hook", "claude-code"]
    load = [sys.executable, "-c", LOAD]
    bare = [sys.executable, "-c", "pass"]
    print(f"median of {args.runs} fresh processes; load average {os.getloadavg()[0]:.2f}")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        # then only bytecode compiled beforehand (`make` runs compileall) is used
        print("  note: PYTHONDONTWRITEBYTECODE is set; stale bytecode is compiled on every start")
    print(f"  python -c pass                 {_median_ms(bare, args.runs, snapshots=True):7.1f} ms")
    for label, command, stdin in (("load_policy()", load, ""), ("hook call", hook, HOOK_INPUT)):
        without = _median_ms(command, args.runs, snapshots=False, stdin=stdin)
        with_snapshot = _median_ms(command, args.runs, snapshots=True, stdin=stdin)
        print(f"  {label:30} {without:7.1f} ms without snapshots, {with_snapshot:7.1f} ms with")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
