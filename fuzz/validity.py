#!/usr/bin/env python3
"""Measure how often each generator yields valid bash (`bash -O extglob -n`).

    .venv/bin/python fuzz/validity.py [--count 500] [--seed 0]

Prints one line per generator: valid/total and the rate; corpus-seeded generators are
included when ../shared/corpora is present. Exits 1 if a structural generator (all but
the deliberately broken and the mutated ones) is below 90 %.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from policylang.testing import bashcheck, seeds, strategies

STRUCTURAL: dict[str, Callable[[], st.SearchStrategy[Any]]] = {
    "simple_commands": strategies.simple_commands,
    "heredoc_commands": strategies.heredoc_commands,
    "command_lines": strategies.command_lines,
    "compounds": strategies.compounds,
    "wrapped_commands": strategies.wrapped_commands,
    "substituted_commands": strategies.substituted_commands,
    "respelled_commands": strategies.respelled_commands,
    "option_respellings": strategies.option_respellings,
    "path_respellings": strategies.path_respellings,
}


def _texts(example: Any) -> list[str]:
    if isinstance(example, str):
        return [example]
    if hasattr(example, "spellings"):
        return list(example.spellings)
    return [example.text]


def measure(name: str, strategy: st.SearchStrategy[Any], count: int, seed: int) -> float:
    texts = [t for ex in strategies.draw_sample(strategy, count, seed=seed) for t in _texts(ex)]
    ok = bashcheck.syntax_ok(texts)
    rate = sum(ok) / len(ok) if ok else 0.0
    print(f"{name:24} {sum(ok):6}/{len(ok):<6} {rate:7.1%}")
    return rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    low = [name for name, make in STRUCTURAL.items()
           if measure(name, make(), args.count, args.seed) < 0.9]
    measure("broken_commands (want 0%)", strategies.broken_commands(), args.count, args.seed)
    corpus = seeds.load_seeds()
    if corpus:
        measure("corpus_commands", strategies.corpus_commands(corpus), args.count, args.seed)
        measure("mutated_commands", strategies.mutated_commands(corpus), args.count, args.seed)
    if low:
        print("below 90%: " + ", ".join(low))
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
