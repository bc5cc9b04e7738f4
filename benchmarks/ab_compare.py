"""Side-by-side cost of `Policy.evaluate` in two or more checkouts (an A/B of a change).

Run: .venv/bin/python benchmarks/ab_compare.py [--rounds R] [--repeat K] ROOT [ROOT …]

Each ROOT is a checkout of policylang (built with `make native` for the compiled engine,
or not, and then it runs from source). For every round, each ROOT in turn runs in a
fresh process with `PYTHONPATH=ROOT`: each distinct command of bench_engine.py's fixed
sample is evaluated K times (bare setting, no cache) and its fastest thread-CPU time is
kept. Alternating the checkouts round by round spreads the load of a shared machine over
all of them; the fastest of K drops a scheduler's interruptions. Figures of one machine
and one moment: only their ratio is worth quoting.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# the child: this file's sample, the checkout's engine; prints one JSON object
_CHILD = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import policylang
from bench_engine import sample
from policylang import _native
from policylang.engine.context import EvalContext
from policylang.engine.policy import load_policy
root, repeat = sys.argv[2], int(sys.argv[3])
if not policylang.__file__.startswith(root):
    sys.exit(f"policylang came from {policylang.__file__}, not {root}")
commands = list(dict.fromkeys(sample(3000)))
policy = load_policy(parse_cache=0, decision_cache=0)
ctx = EvalContext.build(workspace="/nonexistent/workspace", env={"HOME": "/nonexistent/home"})
for command in commands[:300]:
    policy.evaluate_in(command, ctx)
best = dict.fromkeys(commands, float("inf"))
for _ in range(repeat):
    for command in commands:
        start = time.thread_time_ns()
        policy.evaluate_in(command, ctx)
        best[command] = min(best[command], time.thread_time_ns() - start)
micros = sorted(value / 1000 for value in best.values())
cuts = statistics.quantiles(micros, n=100)
print(json.dumps({"engine": _native.STATUS, "n": len(micros),
                  "median": statistics.median(micros), "p90": cuts[89], "p99": cuts[98]}))
"""


def _measure(root: Path, repeat: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(HERE), str(root), str(repeat)],
        env=env,
        cwd=root,  # `-c` puts the working folder first on sys.path
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{root}: the measurement failed:\n{done.stderr.strip()}")
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", type=Path, help="checkouts to compare")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds (2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per command (3)")
    args = parser.parse_args()
    roots = [root.resolve() for root in args.roots]
    for root in roots:
        if not (root / "policylang" / "__init__.py").is_file():
            parser.error(f"{root} is not a policylang checkout")
    if Path("/nonexistent").exists():
        parser.error("/nonexistent exists: the bare setting would resolve real paths")
    medians: dict[Path, list[float]] = {root: [] for root in roots}
    for round_number in range(1, args.rounds + 1):
        for root in roots:
            figures = _measure(root, args.repeat)
            medians[root].append(float(str(figures["median"])))
            print(
                f"round {round_number}  {root}  [{str(figures['engine'])[:40]}]  "
                f"n={figures['n']}  median {float(str(figures['median'])):.1f} us  "
                f"p90 {float(str(figures['p90'])):.0f}  p99 {float(str(figures['p99'])):.0f} us",
                flush=True,
            )
    print("medians per round (us):")
    for root, values in medians.items():
        print(f"  {root}: " + " / ".join(f"{value:.1f}" for value in values)
              + f"  (mean {statistics.mean(values):.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
