"""`policylang check FILE… [--strict]`: load policies and print every diagnostic.

Inline `expect` lines are evaluated with the engine (skip with `--no-expect`).
Exit status: 0 when no file has an error (warnings too with `--strict`), 1 otherwise.
"""

from __future__ import annotations

import argparse

from policylang.compiler.tree import CompiledPolicy
from policylang.diagnostics import Diagnostic, Severity, sort_diagnostics
from policylang.rules.load import check_ruleset

EXIT_RULESET_ERROR = 1  # an error (or, with --strict, a warning), or a file unreadable


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check policy files and print their diagnostics",
        description="Parse, validate and compile policy files; print every problem found.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="policy files")
    parser.add_argument("--strict", action="store_true", help="fail on warnings too")
    parser.add_argument(
        "--no-expect", action="store_true", help="do not evaluate inline `expect` lines"
    )
    parser.add_argument(
        "--layer",
        action="append",
        default=[],
        metavar="FILE",
        help="a later layer loaded on top of each FILE (repeatable)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    failed = False
    for name in args.files:
        # the summary names every file it covers: an error may be in a layer (review AO13)
        label = " + ".join([name, *args.layer])
        try:
            result = check_ruleset(name, extra_layers=args.layer)
        except OSError as error:
            # the file that could not be read, which may be a layer, not `name`
            print(f"{error.filename or name}: cannot read: {error.strerror or error}")
            failed = True
            continue
        diagnostics = result.diagnostics
        if result.policy is not None and not args.no_expect:
            diagnostics = sort_diagnostics(diagnostics + _expectation_failures(result.policy))
        for diagnostic in diagnostics:
            print(diagnostic.render())
        errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
        warnings = len(diagnostics) - errors
        if errors == 0 and result.policy is not None:
            rules = result.policy.tree.rule_count
            print(f"{label}: ok ({rules} rules, {warnings} warnings)")
        else:
            print(f"{label}: {errors} errors, {warnings} warnings")
        failed = failed or errors > 0 or (args.strict and warnings > 0)
    return EXIT_RULESET_ERROR if failed else 0


def _expectation_failures(policy: CompiledPolicy) -> tuple[Diagnostic, ...]:
    from policylang.engine.policy import Policy

    return Policy(policy).check_expectations()
