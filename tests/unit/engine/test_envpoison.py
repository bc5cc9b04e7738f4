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
