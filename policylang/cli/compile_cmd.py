"""`policylang compile [--dump] FILE [--layer FILE]…`: compile a policy, optionally print it.

Exit status 1 when the policy has errors. Diagnostics go to stderr, so that stdout holds
only the summary or the dump (`compile --dump FILE > tree.txt` stays a clean dump).
"""

from __future__ import annotations

import argparse
import sys

from policylang.rules.load import check_ruleset

EXIT_RULESET_ERROR = 1  # the files did not load


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "compile",
        help="compile a policy and print its decision tree",
        description="Compile a policy (with its includes and layers) into its decision tree.",
    )
    parser.add_argument("file", metavar="FILE", help="the policy file")
    parser.add_argument("--dump", action="store_true", help="print the compiled policy")
    parser.add_argument(
        "--layer",
        action="append",
        default=[],
        metavar="FILE",
        help="a later layer loaded on top of FILE (repeatable)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = check_ruleset(args.file, extra_layers=args.layer)
    except OSError as error:
        print(f"{args.file}: cannot read: {error.strerror or error}", file=sys.stderr)
        return EXIT_RULESET_ERROR
    for diagnostic in result.diagnostics:
        print(diagnostic.render(), file=sys.stderr)
    policy = result.policy
    if policy is None:
        return EXIT_RULESET_ERROR
    if args.dump:
        print(policy.dump(), end="")
    else:
        rules, layers = policy.tree.rule_count, len(policy.sources)
        print(f"{args.file}: {rules} rule{'s' * (rules != 1)} in {layers} "
              f"layer{'s' * (layers != 1)} (--dump prints the decision tree)")
    return 0
