"""`policylang check FILE… [--strict] [--approvals A]`: load policies and print every diagnostic.

Inline `expect` lines are evaluated with the engine (skip with `--no-expect`). With
`--approvals`, each stored approval is judged against what the policy offers today for
lines it covers: one wider than those offers, offered for none of them, denied or no rule
at all is a warning at its entry, and a file the engine cannot read one of.
Exit status: 0 when no file has an error (warnings too with `--strict`), 1 otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from policylang.compiler.tree import CompiledPolicy
from policylang.diagnostics import Diagnostic, Severity, sort_diagnostics
from policylang.rules.load import check_ruleset
from policylang.span import SourceText, Span

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
    parser.add_argument(
        "--approvals",
        metavar="FILE",
        help="also judge this approvals TOML file's entries against today's offers",
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
        if result.policy is not None and args.approvals is not None:
            try:
                diagnostics = diagnostics + _approval_findings(result.policy, args.approvals)
            except OSError as error:
                print(f"{args.approvals}: cannot read: {error.strerror or error}")
                failed = True
                continue
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


def _approval_findings(policy: CompiledPolicy, name: str) -> tuple[Diagnostic, ...]:
    """Warnings at the approvals file's entries that today's offers would not make, and
    one at the file when the engine can read none of it (review GY3)."""
    from policylang.engine.approvalaudit import judge, read_stored
    from policylang.engine.policy import Policy

    stored = read_stored(Path(name))  # OSError: cannot read (a FIFO, /dev/zero: GY5)
    source = SourceText(name, stored.text)
    if stored.problem is not None:
        at = Span(stored.problem_at, stored.problem_at)
        message = f"the engine reads no approval of this file: {stored.problem}"
        return (_warning("unreadable", message, source, at, _FILE_HELP),)
    judged = Policy(policy)
    found = []
    for value, start, end in stored.entries:
        item = judge(judged, value)
        if item is not None:  # at the entry's own spelling (review GY4)
            code = item.finding.value
            found.append(_warning(code, item.message(), source, Span(start, end), _HELP[code]))
    return sort_diagnostics(tuple(found))


def _warning(code: str, message: str, source: SourceText, span: Span, advice: str) -> Diagnostic:
    return Diagnostic(
        code=f"approvals.{code}",
        message=message,
        source=source,
        span=span,
        severity=Severity.WARNING,
        help=advice,
    )


_HELP = {
    "wider-than-offer": (
        "remove it and approve the command again, or narrow it to the offer, unless a"
        " longer line you still run is offered exactly these words"
    ),
    "not-offered": (
        "policylang offers no approval as wide for the lines it tried; remove it, unless"
        " a longer line you still run is offered exactly these words"
    ),
    "denied": "no approval lifts a deny: remove it unless it is meant for longer lines",
    "unreadable": "remove it or write it as a command prefix (`npm run build`)",
}
_FILE_HELP = "fix the file: it must be UTF-8 TOML with one list `allow = [\"npm run build\"]`"
