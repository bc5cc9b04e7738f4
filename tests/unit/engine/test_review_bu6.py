"""Review BU6: `unset "$x"` evaluates the subscript of the name x holds, as `test -v "$x"`
does, so a name the line's data gives (a file name, a line read from a file, a commit
message) runs the command in its subscript. bash runs for real."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import run_real

from policylang import Verdict
from policylang.engine.policy import load_policy

_PAYLOAD = "GROUPS[$(touch${IFS}pwned)]"  # (no blank: `unset ${x}` splits words)


def _verdict(command: str, workspace: Path) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return load_policy().evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    "command",
    [
        'for f in *; do unset "$f"; done',
        'read x <p.txt; unset "$x"',
        'read <p.txt; unset "$REPLY"',
        "read x <p.txt; unset ${x}",
        'read -a l <p.txt; unset "${l[@]}"',
        'while read -r v; do unset "$v"; done <p.txt',
        'read x <p.txt; read "$x" <q.txt',
    ],
)
def test_unset_of_a_name_from_data_asks(workspace: Path, command: str) -> None:
    (workspace / "p.txt").write_text(_PAYLOAD + "\n")
    (workspace / "q.txt").write_text("v\n")
    (workspace / _PAYLOAD).write_text("")
    assert _verdict(command, workspace) is Verdict.ASK
    run_real(["bash", "-c", command], workspace)
    assert (workspace / "pwned").exists()  # what the ask is for


@pytest.mark.parametrize(
    "command",
    [
        "unset x",
        "unset -v NAME",
        "unset -f helper",
        'read -r line <p.txt; echo "$line"',
        # a prompt or a delimiter is printed or compared, not evaluated (the corpus has these)
        'read x <p.txt; read -p "$x" y',
        'read -r -n 1 -p "${1:-Continue?} [y/n]: " REPLY',
        'read -d "$(printf x)" rest',
    ],
)
def test_unset_and_read_of_literal_names_stay_allowed(workspace: Path, command: str) -> None:
    (workspace / "p.txt").write_text("hello\n")
    assert _verdict(command, workspace) is Verdict.ALLOW
