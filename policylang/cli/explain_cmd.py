"""`policylang explain`: print how a command's verdict was reached, segment by segment."""

from __future__ import annotations

import argparse
import os

from policylang.cli.eval_cmd import add_policy_arguments, load_from_args
from policylang.engine.explain import explain_with_sources

EXIT_OK = 0
EXIT_RULESET_ERROR = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="explain a verdict",
        description=(
            "Evaluate a command line and print a readable trace of the decision: every "
            "segment, its verdict, and the rules that decided, with their source lines."
        ),
    )
    add_policy_arguments(parser)
    parser.add_argument("command", metavar="COMMAND", help="the command line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    policy = load_from_args(args)
    if policy is None:
        return EXIT_RULESET_ERROR
    # the process's environment, as `eval` and the hooks judge with: PATH and git's
    # variables change decisions, and the trace must be of the decision `eval` gives
    # (review EL3: without it, a workspace `bin/cat` first on PATH was explained `allow`)
    decision = policy.evaluate(
        args.command, cwd=args.cwd, workspace=args.workspace, env=dict(os.environ)
    )
    print(explain_with_sources(decision))
    return EXIT_OK
