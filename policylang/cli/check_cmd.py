"""`policylang check FILE… [--strict] [--approvals A]`: load policies and print every diagnostic.

Inline `expect` lines are evaluated with the engine (skip with `--no-expect`). With
`--approvals`, each stored approval is judged against what the policy offers today: one
wider than today's offer, no longer offered, or denied is a warning in the approvals file.
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
    """Warnings at the approvals file's entries that today's offers would not make."""
    from policylang.engine.approvalaudit import audit
    from policylang.engine.approvals import MAX_FILE_BYTES, Approvals
    from policylang.engine.policy import Policy

    path = Path(name)
    if path.stat().st_size > MAX_FILE_BYTES:  # what loading it would refuse as well
        raise OSError(f"larger than {MAX_FILE_BYTES} bytes")
    source = SourceText(name, path.read_text(encoding="utf-8", errors="replace"))
    found = audit(Policy(policy), Approvals(path).rules())
    return sort_diagnostics(tuple(
        Diagnostic(
            code=f"approvals.{item.finding.value}",
            message=item.message(),
            source=source,
            span=_entry_span(source.text, item.rule),
            severity=Severity.WARNING,
            help=_HELP[item.finding.value],
        )
        for item in found
    ))


_HELP = {
    "wider-than-offer": "remove it and approve the command again, or narrow it to the offer",
    "not-offered": "remove it: policylang no longer offers an approval for these words",
    "denied": "no approval lifts a deny: remove it unless it is meant for longer lines",
    "unreadable": "remove it or write it as a command prefix (`npm run build`)",
}


def _entry_span(text: str, rule: str) -> Span:
    """Where the file spells `rule` (as a quoted TOML string), else its start."""
    for spelled in (f'"{rule}"', f"'{rule}'"):
        at = text.find(spelled)
        if at >= 0:
            return Span(at, at + len(spelled))
    return Span(0, 0)
