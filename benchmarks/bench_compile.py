"""Benchmark: compile a generated 5,000-rule policy; lookup cost with 5,000 vs 50 rules.

Targets (issue 3): compile <= 1 s; lookup(5,000 rules) <= 1.3 x lookup(50 rules) on the same
commands in the same run. Prints the figures (CPU time, so that other load on the machine
distorts them less): `.venv/bin/python benchmarks/bench_compile.py`.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

from policylang.compiler.passes import Layer, compile_layers
from policylang.compiler.tree import CompiledPolicy
from policylang.rules.load import load_ruleset_text
from policylang.rules.parser import parse_ruleset
from policylang.shell.model import Word
from policylang.shell.parse import parse_command

SEED = 20_261_202
SUBCOMMANDS = ("status", "log", "diff", "run", "build", "test", "show", "list", "get", "set")
OPTIONS = ("-a", "-b", "-f", "-r", "--force", "--output", "--dry-run", "-n", "-v")


def generate_policy(rules: int, rng: random.Random) -> str:
    """`rules` command rules over rules // 5 command names, with clauses and globs."""
    commands = [f"cmd{i}" for i in range(max(1, rules // 5))]
    lines = ['policy "bench" version "1"', "default ask"]
    for index in range(rules):
        verdict = rng.choice(("allow", "ask", "deny", "readonly"))
        words = [commands[index % len(commands)]]
        shape = index // len(commands)
        words.append(
            SUBCOMMANDS[shape % len(SUBCOMMANDS)] + ("|" + rng.choice(SUBCOMMANDS)) * (shape % 2)
        )
        if shape % 3 == 0:
            words.append("*")
        if shape % 4 == 1:
            words[-1] = words[-1].split("|")[0] + "*"
        words.append("**")
        clause = ""
        if rng.random() < 0.5:
            clause = f" unless {'|'.join(rng.sample(OPTIONS, 3))}"
        if verdict == "deny":
            clause = f" when {rng.choice(OPTIONS)}"
        lines.append(f"{verdict} {' '.join(words)}{clause} id r{index}")
    return "\n".join(lines) + "\n"


def best_of(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def lookup_all(policy: CompiledPolicy, commands: Sequence[tuple[Word, ...]]) -> None:
    for words in commands:
        policy.lookup(words)


def main() -> None:
    rng = random.Random(SEED)
    big_text = generate_policy(5000, rng)
    small_text = generate_policy(50, random.Random(SEED))
    big = load_ruleset_text(big_text, filename="bench.policy")
    assert big.tree.rule_count == 5000

    load_s = best_of(lambda: load_ruleset_text(big_text, filename="bench.policy"), 5)
    ruleset, _ = parse_ruleset(big_text, filename="bench.policy")
    parse_s = best_of(lambda: parse_ruleset(big_text, filename="bench.policy"), 5)
    layers = (Layer(index=0, ruleset=ruleset),)
    compile_s = best_of(lambda: compile_layers(layers), 5)
    print("compile a 5,000-rule policy (CPU time, best of 5):")
    print(f"  parse + validate + compile (load_ruleset_text): {load_s * 1000:8.1f} ms  (<= 1000)")
    print(f"  parse only:                                     {parse_s * 1000:8.1f} ms")
    print(f"  compiler passes only:                           {compile_s * 1000:8.1f} ms")

    small = load_ruleset_text(small_text, filename="small.policy")
    names = [f"cmd{i}" for i in range(10)] + ["git", "ls", "make"]
    texts = []
    for i in range(2000):
        options = " ".join(rng.sample(OPTIONS, rng.randint(0, 3)))
        texts.append(f"{rng.choice(names)} {rng.choice(SUBCOMMANDS)} {options} file{i}")
    commands = [parse_command(text).segments[0].words for text in texts]
    rounds = []
    for _ in range(7):
        big_s = best_of(lambda: lookup_all(big, commands), 3)
        small_s = best_of(lambda: lookup_all(small, commands), 3)
        rounds.append((big_s, small_s))
    big_s = statistics.median(r[0] for r in rounds)
    small_s = statistics.median(r[1] for r in rounds)
    per = 1e6 / len(commands)
    print(f"lookup over {len(commands)} commands (median of 7 rounds, best of 3 each):")
    print(f"  5,000 rules: {big_s * per:6.2f} us/lookup")
    print(f"     50 rules: {small_s * per:6.2f} us/lookup")
    print(f"  ratio 5,000 / 50: {big_s / small_s:.2f}  (target <= 1.3)")
    shipped_lookup()


SHIPPED_SAMPLE = (
    "git status", "git log --oneline -5", "ls -la", "cat README.md", "rm -rf build",
    "npm run test", "find . -name '*.py'", "sed -n 1,5p f", "curl https://x",
    "python3 -c 'print(1)'", "grep -rn foo src", "make",
)  # fmt: skip


def shipped_lookup() -> None:
    """Lookup on the shipped default ruleset, whose rules have clauses and checks."""
    from pathlib import Path

    from policylang.rules.load import load_ruleset

    path = Path(__file__).resolve().parents[1] / "rulesets" / "default.policy"
    policy = load_ruleset(path)
    commands = [parse_command(text).segments[0].words for text in SHIPPED_SAMPLE] * 200
    seconds = statistics.median(best_of(lambda: lookup_all(policy, commands), 3) for _ in range(5))
    print(f"lookup on rulesets/default.policy ({policy.tree.rule_count} rules, clauses, checks):")
    print(f"  {seconds * 1e6 / len(commands):6.2f} us/lookup")


if __name__ == "__main__":
    main()
