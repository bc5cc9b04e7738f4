"""Protected targets and probe lines for the approval-width oracle: pure, imports only the
other pure modules of this package.

The dynamic oracle's `--approvals` mode (`policylang.testing.oracle`) approves, one at a
time, each "always allow" prefix the engine suggests, and runs the commands that approval
newly allows. This module holds the data: the protected files planted in the sandbox (a
write to one is a finding even when it fails), the values probes point at them, and the
pure functions that write the probe lines for an approval. Nothing here runs a command.

Paths are relative to the scratch workspace (`WORKSPACE_TARGETS`) or home
(`HOME_TARGETS`); every one is a path the shipped default ruleset protects against
writes (the test suite asks the policy).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence

from policylang.testing import _secrets
from policylang.testing._optionprobe import PROBE_VALUE

#: Files planted in the workspace (a path relative to it) → their text. `.git/config` is
#: the scratch repository's own. The hook is not executable, so git never runs it: a
#: write or a `chmod` of it is what shows.
WORKSPACE_TARGETS: dict[str, str] = {
    ".git/hooks/pre-commit": "#!/bin/sh\n# planted by the approval oracle\nexit 0\n",
    ".claude/settings.json": "{}\n",
    ".mcp.json": '{"mcpServers": {}}\n',
    ".vscode/tasks.json": '{"version": "2.0.0", "tasks": []}\n',
    "CLAUDE.md": "# Instructions\n",
}

#: Files planted in the home (`~/NAME`) → their text.
HOME_TARGETS: dict[str, str] = {
    ".bashrc": "# planted by the approval oracle\n",
    ".ssh/authorized_keys": "ssh-ed25519 FAKE oracle@example.invalid\n",
}

#: Globs (relative to the workspace, or the home) under which every write is a finding,
#: whatever the policy says; other writes are judged by the policy (`touch PATH` denied).
WORKSPACE_GLOBS: tuple[str, ...] = (".git/hooks", ".git/hooks/*", ".git/config",
                                    ".git/config.*", ".claude", ".claude/*", ".mcp.json",
                                    ".vscode", ".vscode/*", "CLAUDE.md")
HOME_GLOBS: tuple[str, ...] = (".bashrc", ".profile", ".bash_profile", ".ssh", ".ssh/*",
                               ".gitconfig", ".config/git/*", ".local/bin/*")

#: Where the probes point a write: the planted targets, as a command spells them (`$HOME`
#: expands after `=`, a tilde does not).
WRITE_VALUES: tuple[str, ...] = (*WORKSPACE_TARGETS, ".git/config", "$HOME/.bashrc",
                                 "$HOME/.ssh/authorized_keys")
#: Where the probes point a read: canary secrets of `_secrets`.
READ_VALUES: tuple[str, ...] = _secrets.OPTION_VALUES
#: What the probes give an option that may run a program: an executable in the workspace.
EXEC_VALUE = PROBE_VALUE

#: The values each valued option of the program's help gets (one of each kind: a help
#: lists dozens of options).
OPTION_VALUES: tuple[str, ...] = (".git/hooks/pre-commit", "$HOME/.bashrc", READ_VALUES[0],
                                  EXEC_VALUE)

#: Words appended to an approval that may run a program or a script (`{}` the program).
EXEC_SHAPES: tuple[str, ...] = ("{}", "-- {}", "-c {}", "-e {}", "-x {}", "--exec={}",
                                "--exec {}", "-exec {} ;", "--command={}", "--shell={}",
                                "-c 'cat .env'", "-e 'cat .env'")

#: What corpus lines get in place of their last path operand.
CORPUS_OPERANDS: tuple[str, ...] = (".git/hooks/pre-commit", ".git/hooks", "CLAUDE.md",
                                    "~/.bashrc", "~/.ssh/authorized_keys", ".env",
                                    "~/.netrc", EXEC_VALUE)

_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9_-]*$")


def is_target(relative: str, globs: Sequence[str]) -> bool:
    """Whether a path relative to the workspace (or home) is under one of `globs`."""
    return any(fnmatch.fnmatchcase(relative, glob) for glob in globs)


def help_targets(words: Sequence[str]) -> tuple[str, ...]:
    """What to ask for the options of an approval's program: `git log -h` for git, and for
    others `PROGRAM --help` and `PROGRAM SUBCOMMAND --help` (`npm run --help`)."""
    if not words:
        return ()
    program = words[0]
    if program == "git":
        return (f"git {words[1]} -h",) if len(words) > 1 and _SUBCOMMAND.match(words[1]) else ()
    targets = [f"{program} --help"]
    if len(words) > 1 and _SUBCOMMAND.match(words[1]):
        targets.append(f"{program} {words[1]} --help")
    return tuple(targets)


def operand_lines(example: str) -> list[str]:
    """`example` followed by a protected target, a secret, or the workspace program, as an
    operand (`cp` is `cp .git/hooks/pre-commit`) or after a first one (`cp file …`)."""
    lines = [f"{example} {value}" for value in (*WRITE_VALUES, *READ_VALUES)]
    lines += [f"{example} file {value}" for value in WRITE_VALUES]
    lines += [f"{example} {shape.replace('{}', EXEC_VALUE)}" for shape in EXEC_SHAPES]
    return lines


def option_lines(example: str, long_options: Iterable[str], short_options: Iterable[str],
                 values: Sequence[str] = OPTION_VALUES) -> list[str]:
    """`example --OPTION=VALUE` and `example -O VALUE` for each valued option and value,
    in rounds: each option once (with values in turn) before any option twice, so the
    first lines cover every option."""
    spelled = [f"{example} --{option}=" for option in long_options]
    spelled += [f"{example} -{option} " for option in short_options]
    return [line + values[(index + turn) % len(values)]
            for turn in range(len(values)) for index, line in enumerate(spelled)]


def matching(words: Sequence[str], commands: Iterable[str]) -> list[str]:
    """The commands in which the approval's words stand in a row (where it can apply:
    `cp` in `find . | xargs cp x`), by blank-separated words."""
    size = len(words)
    found = []
    for command in commands:
        split = command.split()
        if words[0] in split and any(tuple(split[i:i + size]) == tuple(words)
                                     for i in range(len(split) - size + 1)):
            found.append(command)
    return found


def corpus_variants(commands: Iterable[str]) -> list[str]:
    """Simple commands with their last path operand replaced by a target (`_secrets`)."""
    return _secrets.corpus_lines(commands, CORPUS_OPERANDS)
