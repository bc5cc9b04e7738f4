from __future__ import annotations

import pytest

from policylang.engine.envpoison import is_poison_name, poison_of
from policylang.shell.parse import parse_command


def _poison(command: str) -> str | None:
    segment = parse_command(command).segments[0]
    found = poison_of(segment)
    return None if found is None else found.reason


@pytest.mark.parametrize(
    "command",
    [
        "PATH=/tmp",
        "export PATH=/tmp",
        "declare -x LD_PRELOAD=/x.so",
        "export -f ls",
        "alias ls='rm -rf ~'",
        "hash -p /tmp/evil ls",
        "f() { echo; }",
        "source x.sh",
        ". x.sh",
        "eval x",
        "trap 'rm x' EXIT",
        "shopt -s expand_aliases",
        "set -o posix",
        "enable -f x.so y",
        "IFS=/",
        "export $X",
    ],
)
def test_poisoning_segments(command: str) -> None:
    assert _poison(command) is not None


@pytest.mark.parametrize(
    "command",
    ["ls", "FOO=1", "export FOO=1", "PATH=/x ls", "set -e", "set -euo pipefail", "hash", "shopt"],
)
def test_harmless_segments(command: str) -> None:
    assert _poison(command) is None


def test_poison_names() -> None:
    assert is_poison_name("LD_LIBRARY_PATH")
    assert is_poison_name("GIT_SSH_COMMAND")
    assert not is_poison_name("LANG")


# --- builtins that assign variables (review A-F2, B-F4) ---------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "read PATH",
        "read -r -- PATH",
        "read x PATH",
        "read -a PATH",
        "read -ra LD_PRELOAD",
        "printf -v PATH %s /tmp",
        "printf -vHOME %s /tmp",
        "mapfile CDPATH",
        "readarray -t PATH",
        "getopts ab IFS",
        "unset PATH",
        "unset -v IFS",
        "export -n PATH",
        "local PATH",
        "declare BASH_ENV",
        "command read PATH",
        "builtin printf -v PS4 x",
        "read $name",
        "for PATH in /tmp; do :; done",
    ],
)
def test_assigning_builtins_poison(command: str) -> None:
    assert _poison(command) is not None


@pytest.mark.parametrize(
    "command",
    ["read line", "read -p PATH x", "printf PATH", "unset x", "unset -f PATH", "export PATH"],
)
def test_assigning_builtins_harmless(command: str) -> None:
    assert _poison(command) is None
