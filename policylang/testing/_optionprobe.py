"""Option probes for the dynamic oracle: read a program's `--help`, write one probe per
option that takes a value. Pure text functions; imports nothing.

A read-only label often hides one option that writes (`sdiff -o FILE`,
`tar --index-file=FILE`) or runs a program (`--rsh-command=PROG`). The oracle asks each
program the policy labels read-only for its help (inside the sandbox), and tries every
option that takes a value with the value `./oracle-probe`: an executable in the scratch
workspace, so an option that names an output file opens it for writing and an option
that names a program runs it, and the trace shows either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: The value every probe passes; the oracle's workspace holds an executable of this name.
PROBE_VALUE = "./oracle-probe"

# `--output=FILE`, `--output[=WHEN]`, `--output FILE`, `--output <file>` (git's style)
_VALUED = re.compile(
    r"(?<![\w-])--([a-z][a-z0-9-]{1,40})"
    r"(?:\[?=<?([A-Za-z][\w.-]*)>?\]?|[ ](?:<([a-z][\w-]*)>|([A-Z][A-Z_-]+)\b))")

#: Programs whose help is not the place to look (shells and wrappers run other commands;
#: their options are the invariants' business).
_SKIP = frozenset({"bash", "sh", "dash", "zsh", "env", "xargs", "timeout", "nice", "watch",
                   "command", "exec", "time", "sudo", "nohup", "stdbuf"})
_PROGRAM = re.compile(r"^[a-z][a-z0-9_.+-]*$")
_SPECIAL = re.compile(r"[|&;<>()$`'\"\\*?\[\]{}~!#\n]")


def valued_options(help_text: str) -> tuple[str, ...]:
    """The long options that take a value, in the order `--help` lists them."""
    found = dict.fromkeys(m.group(1) for m in _VALUED.finditer(help_text))
    found.pop("help", None)
    return tuple(found)


# `-o FILE`, `-o, --output=FILE`, `-f <file>`, `-e script, --expression=…`: a short
# option and its value
_SHORT_VALUED = re.compile(
    r"(?<![\w-])-([A-Za-z0-9])(?:,\s+--[a-z][a-z0-9-]*)?"
    r"(?:=|[ ])(?:<[A-Za-z][\w-]*>|[A-Z][A-Z_-]+\b|\[[A-Z][A-Z_-]+\]"
    # a lower-case value name only in a help's option column (`-e script, --expression`,
    # `-e program    one line of program`), not in prose
    r"|[a-z][\w-]*(?=,\s+--|[ ]{2}|[ ]:|\t))")


def valued_short_options(help_text: str) -> tuple[str, ...]:
    """The one-letter options that take a value (`-o FILE`), in the order `--help` lists
    them. A long option's value after its short form (`-o, --output=FILE`) counts."""
    found = dict.fromkeys(m.group(1) for m in _SHORT_VALUED.finditer(help_text))
    found.pop("h", None)
    return tuple(found)


def probe_targets(commands: Iterable[str]) -> dict[str, str]:
    """Program (or `git SUBCOMMAND`) → the shortest simple command that starts with it.

    Only commands without operators, redirects, quotes or expansions are examples, so
    an appended option lands on that program.
    """
    examples: dict[str, str] = {}
    for command in commands:
        words = command.split()
        if not words or _SPECIAL.search(command) or not _PROGRAM.match(words[0]):
            continue
        if words[0] in _SKIP:
            continue
        target = words[0]
        if target == "git":
            if len(words) < 2 or not _PROGRAM.match(words[1]):
                continue
            target = "git " + words[1]
        if target not in examples or len(command) < len(examples[target]):
            examples[target] = command
    return examples


def help_command(target: str) -> str:
    """How to ask `target` for its options (`git log -h`, `sort --help`)."""
    return f"{target} -h" if target.startswith("git ") else f"{target} --help"


def probes_for(example: str, help_text: str) -> tuple[str, ...]:
    """One probe per valued option: the example command with `--OPTION=./oracle-probe` added."""
    return tuple(f"{example} --{option}={PROBE_VALUE}"
                 for option in valued_options(help_text))
