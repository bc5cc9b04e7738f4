"""Benchmark: does `evaluate` slow down as a policy grows? (It should not: the rule trie and
the protected-path index are looked up by the command's words and the path's components.)

Run: .venv/bin/python benchmarks/bench_rule_count.py [--n N] [--sizes 0,200,1000]

Each size adds that many groups of five rules to the default ruleset, each group about a
command of its own (an allow, a deny, an ask with an operand clause) and two protected
globs (a home directory, a file name anywhere). The sample is the one `bench_engine.py`
uses. Timings are the fastest of three runs of each command (thread CPU time), so that
another job on the machine does not show up as growth.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_engine import sample

from policylang.engine.context import EvalContext
from policylang.engine.policy import load_policy


def extra_rules(groups: int) -> str:
    lines = ['policy "extra" version "1"']
    for i in range(groups):
        lines.append(f"allow tool{i} sub{i} ** id a{i}")
        lines.append(f"deny tool{i} kill{i} ** id d{i}")
        lines.append(f"ask tool{i} log ** operand x{i}y id g{i}")
        lines.append(f"protect read-write ~/secret{i}/** deny id p{i}")
        lines.append(f"protect write **/gen{i}.lock ask id q{i}")
    return "\n".join(lines) + "\n"


def measure(commands: list[str], groups: int, folder: Path) -> list[float]:
    extra: tuple[str, ...] = ()
    if groups:
        path = folder / f"extra{groups}.policy"
        path.write_text(extra_rules(groups), encoding="utf-8")
        extra = (str(path),)
    policy = load_policy(extra=extra, parse_cache=0, decision_cache=0, snapshot=False)
    ctx = EvalContext.build(workspace="/nonexistent/workspace", env={"HOME": "/nonexistent/home"})
    for command in commands:
        policy.evaluate_in(command, ctx)
    best = [float("inf")] * len(commands)
    for _ in range(3):
        for index, command in enumerate(commands):
            start = time.thread_time_ns()
            policy.evaluate_in(command, ctx)
            best[index] = min(best[index], (time.thread_time_ns() - start) / 1000)
    return sorted(best)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1500, help="sample size")
    parser.add_argument("--sizes", default="0,200,1000", help="groups of 5 rules to add")
    args = parser.parse_args()
    commands = sample(args.n)
    with tempfile.TemporaryDirectory() as folder:
        for groups in (int(size) for size in args.sizes.split(",")):
            timings = measure(commands, groups, Path(folder))
            p99 = statistics.quantiles(timings, n=100)[98]
            print(
                f"default + {5 * groups:5d} rules: median {statistics.median(timings):7.1f} us"
                f"   p99 {p99:7.1f} us   ({len(commands)} commands, fastest of 3)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
