"""Review FI: bash builtins under the approvals the engine suggests.

Found before the review, while writing its brief: builtins without a rule ask as unknown
commands and suggest their bare name, so an approval of `mapfile -t a < README` covered
`mapfile -C CODE`, which evaluates CODE, and approvals of `history 5` and `fc -l` covered
`history -s CMD; fc -s`, which runs CMD (`fc -e EDITOR` runs EDITOR, then the commands)."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import bash_ran, copy_workspace, judge

from policylang import Verdict


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / "README").write_text("one\ntwo\n")
    return workspace


def test_mapfile_is_offered_its_name(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    decision = judge("mapfile -t a < README", workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == "mapfile"
    assert judge("mapfile -t a < README", workspace, "mapfile").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "mapfile -C 'touch pwned' -c 1 a < README",
        "mapfile -tC 'touch pwned' -c1 a < README",
        "mapfile -tC'touch pwned' -c1 a < README",
        "readarray -c1 -C 'touch pwned' a < README",
    ],
)
def test_a_mapfile_callback_asks_under_its_approval(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(line, workspace, "mapfile", "readarray")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "shell-mapfile-callback" in decision.explain()
    bash_ran(line, workspace)
    assert (workspace / "pwned").exists()  # (the premise: bash ran the callback)


@pytest.mark.parametrize(
    "line", ["history -s 'touch pwned'; fc -s", "fc -e 'touch pwned'", "fc -l", "fc"]
)
def test_fc_is_a_locked_ask(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(line, workspace, "history", "fc")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None


def test_history_then_fc_runs_the_command(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    bash_ran("history -s 'touch pwned'; fc -s", workspace)
    assert (workspace / "pwned").exists()  # (the premise of the locked ask above)
