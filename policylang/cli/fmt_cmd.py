"""`policylang fmt [--check] FILE…`: rewrite policy files in the canonical layout.

A file with syntax errors is not rewritten (its diagnostics are printed). With `--check`
nothing is written; files that would change are listed. `-` formats standard input to
standard output (for editors). Exit status 1 when a file has syntax errors or, with
`--check`, would change.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from policylang.rules.files import MAX_FILE_CHARS, read_policy_file
from policylang.rules.format import format_ruleset
from policylang.rules.parser import parse_ruleset

EXIT_NOT_FORMATTED = 1  # would reformat (--check), a syntax error, or unreadable


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "fmt",
        help="format policy files canonically",
        description="Rewrite policy files in the one canonical layout (comments kept).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="policy files")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail if a file would change"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for name in args.files:
        if name == "-":
            status = max(status, _stdin(args.check))
            continue
        path = Path(name)
        try:
            # bounded, regular files only, newlines as the grammar reads them (review K3)
            text = read_policy_file(path)
        except OSError as error:
            print(f"{name}: cannot read: {error.strerror or error}")
            status = 1
            continue
        ruleset, diagnostics = parse_ruleset(text, filename=name)
        if diagnostics:
            for diagnostic in diagnostics:
                print(diagnostic.render())
            print(f"{name}: not formatted (syntax errors)")
            status = 1
            continue
        formatted = format_ruleset(ruleset)
        if formatted == text:
            continue
        if args.check:
            print(f"would reformat {name}")
            status = 1
        else:
            path.write_text(formatted, encoding="utf-8")
            print(f"reformatted {name}")
    return status


def _stdin(check: bool) -> int:
    # bytes, decoded here: text mode would turn a bare `\r` into a line break (review K1)
    raw = sys.stdin.buffer.read(MAX_FILE_CHARS * 4 + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        print(f"<stdin>: cannot read: not UTF-8: {error.reason}", file=sys.stderr)
        return EXIT_NOT_FORMATTED
    if len(text) > MAX_FILE_CHARS:
        print(f"<stdin>: cannot read: larger than {MAX_FILE_CHARS} characters", file=sys.stderr)
        return EXIT_NOT_FORMATTED
    ruleset, diagnostics = parse_ruleset(text, filename="<stdin>")
    if diagnostics:
        for diagnostic in diagnostics:
            print(diagnostic.render(), file=sys.stderr)
        if not check:
            print(text, end="")  # an editor pipe must get its text back unchanged
        return EXIT_NOT_FORMATTED
    formatted = format_ruleset(ruleset)
    if check:
        return 0 if formatted == text else EXIT_NOT_FORMATTED
    print(formatted, end="")
    return 0
