"""`policylang test`: run a policy's inline expectations and external case tables."""

from __future__ import annotations

import argparse
import sys
from functools import partial

from policylang.engine.cases import CaseTableError, failures, read_cases
from policylang.engine.policy import EXPECTATION_CONTEXT, load_policy
from policylang.errors import RulesetError

EXIT_OK = 0
EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "test",
        help="run a policy's expectations and case tables",
        description=(
            "Load each policy file, run its inline `expect` lines, and run every case table "
            "given with --cases against it (command<TAB>verdict[<TAB>retention] per line). "
            "Cases are evaluated in a synthetic workspace /nonexistent/workspace with home "
            "/nonexistent/home, like inline expectations."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="policy files")
    parser.add_argument(
        "--cases", action="append", default=[], metavar="TABLE", help="a TSV table of cases"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        tables = [case for path in args.cases for case in read_cases(path)]
    except (OSError, CaseTableError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    failed = 0
    for path in args.files:
        try:
            policy = load_policy(path, check=False)
        except (RulesetError, OSError) as error:
            print(str(error), file=sys.stderr)
            failed += 1
            continue
        expected = policy.check_expectations()
        for diagnostic in expected:
            print(diagnostic.render())
        bad = failures(
            tables, partial(policy.evaluate_in, ctx=EXPECTATION_CONTEXT, approvals=False)
        )
        for line in bad:
            print(line)
        total = len(policy.compiled.expectations)
        passed = total - len(expected) + len(tables) - len(bad)
        print(f"{path}: {passed} passed, {len(expected) + len(bad)} failed")
        failed += len(expected) + len(bad)
    return EXIT_FAILED if failed else EXIT_OK
