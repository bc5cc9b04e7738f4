"""Option probes from `--help` text (policylang.testing._optionprobe): pure, nothing runs."""

from __future__ import annotations

from policylang.testing._optionprobe import (
    PROBE_VALUE,
    help_command,
    probe_targets,
    probes_for,
    valued_options,
)

GNU_HELP = """\
Usage: sdiff [OPTION]... FILE1 FILE2
  -o, --output=FILE            operate interactively, sending output to FILE
  -i, --ignore-case            consider upper- and lower-case to be the same
  -W, --ignore-all-space       ignore all white space
      --tabsize=NUM            tab stops at every NUM (default 8) print columns
      --color[=WHEN]           color output; WHEN is 'never', 'always', or 'auto'
      --diff-program=PROGRAM   use PROGRAM to compare files
      --help                   display this help and exit
"""

GIT_HELP = """\
usage: git log [<options>] [<revision-range>] [[--] <path>...]
    --output <file>       output to a specific file
    --decorate-refs <pattern>
                          only decorate refs that match <pattern>
    -q, --quiet           suppress diff output
"""


def test_valued_options_in_gnu_help() -> None:
    assert valued_options(GNU_HELP) == ("output", "tabsize", "color", "diff-program")


def test_valued_options_in_git_help() -> None:
    assert valued_options(GIT_HELP) == ("output", "decorate-refs")


def test_no_options_in_prose() -> None:
    assert valued_options("Print the date. See --help for more. --verbose explains.") == ()


def test_probe_targets_pick_the_shortest_simple_example() -> None:
    commands = ["sort -r file", "sort file", "sort $X", "sort < file", "git log -1",
                "git log", "git", "bash -c 'ls'", "env ls", "/bin/ls", "ls | wc"]
    assert probe_targets(commands) == {"sort": "sort file", "git log": "git log"}


def test_probes_append_each_valued_option() -> None:
    probes = probes_for("sdiff file1 file2", GNU_HELP)
    assert probes[0] == f"sdiff file1 file2 --output={PROBE_VALUE}"
    assert len(probes) == 4


def test_help_commands() -> None:
    assert help_command("sort") == "sort --help"
    assert help_command("git log") == "git log -h"
