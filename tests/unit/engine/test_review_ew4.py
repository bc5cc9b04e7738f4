"""Review EW4: a stash holds the local changes a user put aside, a filled-in `.env`
template among them. `git reset stash@{0} -- config` and `git restore -S -s stash@{0}
config` stage the stash's versions, and the next `git commit -m x` (approved) commits the
secret; under the approvals the engine suggests, both had been allowed. Naming a stash as
the source of what is staged asks now; putting a stash back (`git stash pop`) does not."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]


def _git(workspace: Path, *args: str) -> str:
    done = subprocess.run(
        [*_GIT, *args], cwd=workspace, check=True, timeout=60, capture_output=True, text=True
    )
    return done.stdout


def _repository(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A committed `config/.env` template; the user filled it in and stashed that."""
    workspace = tmp_path / "ws"
    (workspace / "config").mkdir(parents=True)
    (workspace / "config" / ".env").write_text("DB_PASS=template\n")
    (workspace / "src.txt").write_text("x\n")
    _git(workspace, "init", "-q", ".")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "x")
    (workspace / "config" / ".env").write_text("DB_PASS=CANARY_EW4\n")
    _git(workspace, "stash", "-q")
    (tmp_path / "home").mkdir()
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    ("approval", "line"),
    [("git reset", "git reset stash@{0} -- config"), ("git reset", "git reset stash@{0} config"),
     ("git reset", "git reset stash@{0} -- 'config/.e*'"), ("git reset", "git reset stash"),
     ("git reset", "git reset --soft refs/stash"),
     ("git restore", "git restore --staged -s stash@{0} config"),
     ("git restore", "git restore -S -s stash@{0} config"),
     ("git restore", "git restore -S --source=stash config"),
     ("git restore", "git restore -Ssstash config"),
     ("git checkout", "git checkout stash@{0} -- config")],
)  # fmt: skip
def test_staging_from_a_stash_asks(tmp_path: Path, approval: str, line: str) -> None:
    workspace, env = _repository(tmp_path)
    innocent = "git reset src.txt" if approval == "git reset" else f"{approval} src.txt"
    assert decide(innocent, workspace, env).suggested_rule == approval
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.git-stash-source" for r in decision.reasons)
    # what git does: the stashed secret is staged (or the stash becomes the branch's
    # commit), and a commit takes it into the branch's history, which a push publishes
    subprocess.run(["bash", "-c", line], cwd=workspace, check=True, timeout=60,
                   capture_output=True)  # fmt: skip
    _git(workspace, "commit", "-qm", "y", "--allow-empty")
    assert "CANARY_EW4" in _git(workspace, "log", "-p", "-m", "HEAD")


def test_putting_a_stash_back_and_other_resets_stay_approved(tmp_path: Path) -> None:
    workspace, env = _repository(tmp_path)
    assert decide("git stash pop", workspace, env, "git stash").verdict is Verdict.ALLOW
    assert decide("git reset HEAD -- src.txt", workspace, env, "git reset").verdict is Verdict.ALLOW
    assert decide("git reset src.txt", workspace, env, "git reset").verdict is Verdict.ALLOW
