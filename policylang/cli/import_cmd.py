"""`policylang import --from FORMAT FILE`: convert a peer's permission rules to a policy.

The policy goes to stdout (or `-o FILE`), every warning to stderr; the policy text also
carries each rule's origin and every warning as comments. See docs/importing.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from policylang.decision import visible
from policylang.importers import (
    FORMATS,
    ImportFormatError,
    ImportResult,
    Severity,
    import_file,
    render_policy,
)
from policylang.importers.common import settle_expectations

EXIT_OK = 0
EXIT_UNCONVERTED = 1
EXIT_USAGE = 2

_EPILOG = """\
examples:
  policylang import --from claude-code .claude/settings.json -o claude.policy
  policylang import --from opencode opencode.json
  policylang import --from gemini ~/.gemini/policies/team.toml -o team.policy
  policylang import --from codex ~/.codex/rules/default.rules --json

exit codes: 0 converted (some rules may have been made stricter: see the warnings);
1 converted, but some ask or deny rules could not be expressed, or the result fails its
own checks (review by hand); 2 the file could not be read or is not in that format
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "import",
        help="convert Claude Code, OpenCode, Gemini CLI or Codex rules to a policy",
        description="Convert a peer's permission rules into a policy file, with warnings "
        "for everything that does not translate exactly (never toward allow).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--from", dest="fmt", required=True, choices=FORMATS, help="input format")
    parser.add_argument("file", metavar="FILE", help="the peer's settings or rules file")
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write the policy here (default: stdout)"
    )
    parser.add_argument("--name", help="the policy's name (default: imported-FORMAT)")
    parser.add_argument(
        "--json", action="store_true", help="print a JSON report (policy text and warnings)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = import_file(args.fmt, args.file)
    except (OSError, UnicodeDecodeError) as error:
        print(f"policylang import: cannot read {args.file}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ImportFormatError as error:
        print(f"policylang import: {error}", file=sys.stderr)
        print(f"hint: is this a {args.fmt} file? see `policylang import --help`", file=sys.stderr)
        return EXIT_USAGE
    name = Path(args.output).name if args.output else f"{args.fmt}.policy"
    result = _settle(result, name, args.name)
    text = render_policy(result, name=args.name)
    code = EXIT_UNCONVERTED if _has_unconverted(result) else EXIT_OK
    failure = _verify(text, name)
    if failure is not None:
        print(
            f"policylang import: the converted policy fails its checks:\n{failure}", file=sys.stderr
        )
        code = EXIT_UNCONVERTED
    if args.json:
        print(json.dumps(_report(result, text, args.output), ensure_ascii=False, indent=2))
    elif args.output is None:
        sys.stdout.write(text)
    if args.output is not None:
        Path(args.output).write_text(text, encoding="utf-8")
    for warning in result.warnings:
        print(f"policylang import: {visible(warning.render())}", file=sys.stderr)
    _summary(result, args.output)
    return code


def _settle(result: ImportResult, name: str, policy_name: str | None) -> ImportResult:
    """Give the peer's examples the verdicts of the converted policy where it is stricter."""
    if not result.expectations:
        return result
    from policylang.decision import Verdict
    from policylang.engine.policy import load_policy
    from policylang.errors import RulesetError

    with tempfile.TemporaryDirectory(prefix="policylang-import-") as scratch:
        path = Path(scratch) / name
        path.write_text(render_policy(result, name=policy_name), encoding="utf-8")
        try:
            policy = load_policy(path, check=False)
        except RulesetError:
            return result  # reported by _verify

        def evaluate(command: str) -> Verdict:
            return policy.evaluate(command, cwd=scratch, workspace=scratch).verdict

        return settle_expectations(result, evaluate)


def _verify(text: str, name: str) -> str | None:
    """Load the converted policy with the engine, checking its inline expectations (the
    Codex examples): the rendered diagnostics if it fails, else None."""
    from policylang.engine.policy import load_policy
    from policylang.errors import RulesetError

    with tempfile.TemporaryDirectory(prefix="policylang-import-") as scratch:
        path = Path(scratch) / name
        path.write_text(text, encoding="utf-8")
        try:
            load_policy(path)
        except RulesetError as error:
            return str(error).replace(str(path), name)
    return None


def _has_unconverted(result: ImportResult) -> bool:
    return any(w.severity is Severity.UNCONVERTED for w in result.warnings)


def _report(result: ImportResult, text: str, output: str | None) -> dict[str, object]:
    return {
        "format": result.source_format,
        "file": result.source_file,
        "output": output,
        "rules": len(result.rules),
        "dropped": len(result.dropped),
        "default": str(result.default),
        "faithful": result.faithful,
        "warnings": [
            {
                "severity": str(w.severity),
                "message": w.message,
                "origin": None if w.origin is None else w.origin.cite(),
            }
            for w in result.warnings
        ],
        "policy": text,
    }


def _summary(result: ImportResult, output: str | None) -> None:
    counts = {s: sum(1 for w in result.warnings if w.severity is s) for s in Severity}
    where = f" to {output}" if output else ""
    print(
        f"policylang import: {len(result.rules)} rule(s) written{where}; "
        f"{counts[Severity.STRICTER]} made stricter, {counts[Severity.UNCONVERTED]} not "
        f"converted, {counts[Severity.NOTE]} note(s)",
        file=sys.stderr,
    )
