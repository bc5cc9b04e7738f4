"""Corpus differential against `bash -n`: where bash rejects a line, is there a problem?

Not a test (it takes about two minutes: one `bash -n` per distinct corpus line, batched by
policylang.testing.bashcheck.syntax_ok, which only parses and runs nothing). Run it after
changing the shell analyser:

    .venv/bin/python tests/corpus/bash_differential.py [--show N]

It prints how many lines bash rejects while the analyser reports no problem (fail-open:
must be 0) and how many bash accepts while the analyser reports one (fail-closed: the
engine asks; each is a tree-sitter limit or a deliberate repair report).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from policylang.shell.parse import parse_command
from policylang.testing.bashcheck import syntax_ok

CORPORA = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"
FILES = (("tldr.tsv", "command"), ("nl2bash.tsv", "command"), ("codex_cases.tsv", "command"))


def corpus() -> list[str]:
    csv.field_size_limit(1 << 24)
    commands: set[str] = set()
    for name, column in FILES:
        with open(CORPORA / name, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
            commands.update(row[column] for row in reader)
    return sorted(commands)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=20, help="lines of each kind to print")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"shared corpora not found at {CORPORA.resolve()}", file=sys.stderr)
        return 2
    commands = corpus()
    accepted = syntax_ok(commands, timeout=3600)
    fail_open: list[str] = []
    fail_closed: list[str] = []
    for text, ok in zip(commands, accepted, strict=True):
        problems = parse_command(text).problems
        if not ok and not problems:
            fail_open.append(text)
        elif ok and problems:
            fail_closed.append(text)
    print(f"distinct lines {len(commands)}; bash rejects {accepted.count(False)}")
    print(f"fail-open (bash rejects, no problem): {len(fail_open)}")
    for text in fail_open[: args.show]:
        print(f"  {text!r}")
    print(f"fail-closed (bash accepts, a problem): {len(fail_closed)}")
    for text in fail_closed[: args.show]:
        print(f"  {text!r}")
    return 1 if fail_open else 0


if __name__ == "__main__":
    raise SystemExit(main())
