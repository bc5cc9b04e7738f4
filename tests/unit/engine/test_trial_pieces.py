"""Whether a suggestion is offered for a line that asked: a trial of the approval that
skips the words naming nothing but relative names that do not exist and that no
protected rule names (`_Walk._plainly_inside`), and the pieces of words such as `09:30`
or `k=v` that are such names (`_Walk._plain_name`). A piece that is protected, exists,
or leads elsewhere is still looked at."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict, load_policy

CASES = [
    ("moro hi 09:30", "moro hi"),
    ("moro a,b", "moro"),
    ("moro x@y", "moro"),
    ("moro k=nothere", "moro"),
    ("moro k=.env", None),  # a protected name
    ("moro 09:.env", None),
    ("moro @.env", None),
    ("moro k=~/.ssh", None),
    ("moro k=cfg", None),  # exists: a link to ~/.ssh
]


@pytest.mark.parametrize(("command", "suggested"), CASES)
def test_suggestions_of_words_with_pieces(
    tmp_path: Path, command: str, suggested: str | None
) -> None:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    workspace.mkdir()
    (home / ".ssh").mkdir(parents=True)
    (workspace / "cfg").symlink_to(home / ".ssh")
    policy = load_policy(snapshot=False, decision_cache=0)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = policy.evaluate(command, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == suggested
