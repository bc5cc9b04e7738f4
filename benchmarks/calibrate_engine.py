"""Calibration: the default ruleset over ../shared/corpora (issue 4 §4).

Run: .venv/bin/python benchmarks/calibrate_engine.py [--disagreements]

- codex_cases.tsv: how many of Codex's `safe` cases we allow, how many of its `unsafe`
  cases we do not allow; with --disagreements, every disagreement and our top reason.
- tldr.tsv and nl2bash.tsv: the distribution of verdicts; every command must evaluate
  without an internal error.

Commands are evaluated in the synthetic workspace /nonexistent/workspace (home
/nonexistent/home), so the figures do not depend on this machine's files.
"""

from __future__ import annotations

import argparse
import collections
import shlex
import sys
from pathlib import Path

from policylang.decision import Decision, Verdict
from policylang.engine.policy import EXPECTATION_CONTEXT, Policy, load_policy

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def _rows(name: str) -> list[dict[str, str]]:
    lines = (CORPORA / name).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=False)) for line in lines[1:]]


def _why(decision: Decision) -> str:
    strict = [r for r in decision.reasons if r.verdict is decision.verdict]
    top = strict[0] if strict else (decision.reasons[0] if decision.reasons else None)
    return "-" if top is None else f"{top.rule_id}: {top.message}"


def codex(policy: Policy, show: bool) -> None:
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    disagreements: list[str] = []
    for row in _rows("codex_cases.tsv"):
        expected = row["expected"]
        if expected not in ("safe", "unsafe"):
            continue
        decision = policy.evaluate_in(row["command"], EXPECTATION_CONTEXT, approvals=False)
        counts[(expected, decision.verdict.value)] += 1
        allowed = decision.verdict is Verdict.ALLOW
        if (expected == "safe") != allowed:
            disagreements.append(
                f"  {expected:6} -> {decision.verdict:5}  {row['command']}\n"
                f"           {_why(decision)}"
            )
    safe = sum(v for (e, _), v in counts.items() if e == "safe")
    unsafe = sum(v for (e, _), v in counts.items() if e == "unsafe")
    safe_allowed = counts[("safe", "allow")]
    unsafe_not = unsafe - counts[("unsafe", "allow")]
    print("codex_cases.tsv (safe/unsafe rows)")
    print(f"  safe allowed:       {safe_allowed}/{safe}")
    print(f"  unsafe not allowed: {unsafe_not}/{unsafe}")
    for (expected, verdict), n in sorted(counts.items()):
        print(f"    {expected:6} -> {verdict:5} {n}")
    if show:
        print("  disagreements:")
        print("\n".join(disagreements))


def distribution(policy: Policy, name: str) -> None:
    counts: collections.Counter[str] = collections.Counter()
    errors: list[str] = []
    rows = _rows(name)
    for row in rows:
        command = row.get("command", "")
        decision = policy.evaluate_in(command, EXPECTATION_CONTEXT, approvals=False)
        counts[decision.verdict.value] += 1
        if any(r.rule_id == "engine.internal-error" for r in decision.reasons):
            errors.append(command)
    total = len(rows)
    parts = ", ".join(f"{v} {counts[v]} ({100 * counts[v] / total:.1f}%)" for v in Verdict)
    print(f"{name}: {total} commands: {parts}; internal errors: {len(errors)}")
    for command in errors[:10]:
        print(f"  internal error: {shlex.quote(command)[:120]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--disagreements", action="store_true")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"corpora not found at {CORPORA}", file=sys.stderr)
        return 1
    policy = load_policy()
    codex(policy, args.disagreements)
    for name in ("tldr.tsv", "nl2bash.tsv"):
        distribution(policy, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
