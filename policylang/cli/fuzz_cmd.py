"""`policylang fuzz`: check a ruleset against the invariants (see docs/fuzzing.md).

The campaign itself lives in `policylang.testing.campaign`; it needs the `fuzz` extra
(Hypothesis) only when it runs, so registering this subcommand costs nothing without it.
"""

from __future__ import annotations

import argparse

from policylang.testing import campaign

# the campaign's own codes (`policylang.testing.campaign.EXIT_FOUND`, `EXIT_USAGE`),
# named here for the command reference
EXIT_COUNTEREXAMPLE = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "fuzz",
        help="search a ruleset for counterexamples to its invariants",
        description=(
            "Generate command lines and check that RULESET satisfies the invariants "
            "(totality, fail closed, monotonicity, quoting/option/path invariance, "
            "substitution soundness, wrapper transparency, …). Each counterexample is "
            "printed as a minimal command with the explain trace and the options that "
            "reproduce it. Exit status 1 when a counterexample was found, 2 on a usage "
            "or setup error, 3 when an invariant stopped on an error of the campaign "
            "itself. Needs the fuzz extra (Hypothesis)."
        ),
    )
    campaign.add_arguments(parser)
    parser.set_defaults(func=campaign.run_from_args)
