"""`policylang test`: run a policy's inline expectations and external case tables."""

from __future__ import annotations

import argparse
import sys
from functools import partial

from policylang.engine.cases import Case, CaseTableError, failures, read_cases
from policylang.engine.policy import EXPECTATION_CONTEXT, load_policy
from policylang.errors import RulesetError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


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
    tables: list[Case] = []
    unusable = False
    for table in args.cases:
        try:
            tables += read_cases(table)
        except OSError as error:  # a table that is not there is a usage error (AR13)
            print(f"policylang test: cannot read case table {table}: "
                  f"{error.strerror or error}", file=sys.stderr)
            unusable = True
        except CaseTableError as error:
            print(str(error), file=sys.stderr)
            unusable = True
    if unusable:
        return EXIT_USAGE
    failed = 0
    for path in args.files:
        try:
            policy = load_policy(path, check=False)
        except RulesetError as error:
            print(str(error), file=sys.stderr)
            failed += 1
            continue
        except OSError as error:  # as `check` says it
            print(f"{path}: cannot read: {error.strerror or error}", file=sys.stderr)
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
