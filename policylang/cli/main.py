"""Entry point of the `policylang` command: builds the parser from subcommand modules.

Each subcommand lives in its own module under `policylang.cli` and exposes
``register(subparsers) -> None``, which adds its parser and sets ``func`` (taking the
parsed namespace, returning an exit code). Exit codes are documented in docs/cli.md.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# Order is the order shown in --help. Every module listed here must exist.
SUBCOMMANDS: tuple[str, ...] = (
    "demo", "parse", "eval", "explain", "test", "run", "hook", "mcp", "import", "check", "fmt",
    "compile", "fuzz",
)  # fmt: skip

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141  # what a shell reports for a process killed by SIGPIPE


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser, or with `only` the parser with just that subcommand registered.

    Registering one subcommand imports one module: hooks run once per agent tool call, and
    importing every subcommand (MCP SDK, executor, importers) costs more than the decision.
    """
    parser = argparse.ArgumentParser(
        prog="policylang",
        description="Decide whether an LLM agent may run a shell command, and run it safely.",
    )
    from policylang import __version__, _native

    # which engine runs: the compiled one or its source, and why (`make native`)
    version = f"policylang {__version__} (engine: {_native.STATUS})"
    parser.add_argument("--version", action="version", version=version)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in SUBCOMMANDS if only is None else (only,):
        module = importlib.import_module(f"policylang.cli.{name}_cmd")
        module.register(subparsers)
    return parser


def _subparser(parser: argparse.ArgumentParser, args: argparse.Namespace
               ) -> argparse.ArgumentParser:
    """The parser of the subcommand `args` came from (the top-level one if none)."""
    func = getattr(args, "func", None)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                if func is not None and sub.get_default("func") is func:
                    found: argparse.ArgumentParser = sub
                    return found
    return parser


# = hook_cmd.EXIT_BLOCKED: agents read any other failure status as "the hook failed, go ahead"
_HOOK_BLOCKED = 2


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    chosen = arguments[0] if arguments and arguments[0] in SUBCOMMANDS else None
    if chosen != "hook":
        return _main(arguments, chosen)
    try:
        return _main(arguments, chosen)
    except Exception as error:  # INVARIANT: a hook that fails (even to import) blocks
        message = f"policylang: refused: internal error: {error!r}\n"
        sys.stderr.buffer.write(message.encode("utf-8", "backslashreplace"))
        return _HOOK_BLOCKED


def _main(arguments: list[str], chosen: str | None) -> int:
    parser = build_parser(chosen)
    args, unknown = parser.parse_known_args(arguments)
    if unknown:
        # the subcommand's own usage line, not the top-level one (review AR13)
        _subparser(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        # the reader went away (`policylang explain … | head`): not an error of ours;
        # point stdout at /dev/null so the interpreter's final flush cannot raise again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return code


if __name__ == "__main__":
    sys.exit(main())
