"""Review EW2: `git restore config` / `git checkout -- config` overwrite a changed tracked
`config/.env` (a committed template the user filled in) with the committed version, the
user's secret lost, under the approval the engine suggests; only globs and the whole tree
had asked. A folder holding a changed tracked protected file asks now."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]


def _repository(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    (workspace / "config").mkdir(parents=True)
    (workspace / "src").mkdir()
    (workspace / "config" / ".env").write_text("API_KEY=\n")
    (workspace / "config" / "app.yml").write_text("a: 1\n")
    (workspace / "src" / "a.py").write_text("x = 1\n")
    (workspace / "README").write_text("hi\n")
    subprocess.run([*_GIT, "init", "-q", "."], cwd=workspace, check=True, timeout=60)
    subprocess.run([*_GIT, "add", "-A"], cwd=workspace, check=True, timeout=60)
    subprocess.run([*_GIT, "commit", "-qm", "x"], cwd=workspace, check=True, timeout=60)
    # the user fills in the template, and edits a source file
    (workspace / "config" / ".env").write_text("API_KEY=CANARY_EW2_SECRET_VALUE\n")
    (workspace / "src" / "a.py").write_text("x = 2\n")
    (tmp_path / "home").mkdir()
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    ("approval", "line"),
    [("git restore", "git restore config"), ("git checkout", "git checkout -- config"),
     ("git checkout", "git checkout HEAD -- config")],
)  # fmt: skip
def test_a_folder_holding_a_changed_secret_asks(tmp_path: Path, approval: str, line: str) -> None:
    workspace, env = _repository(tmp_path)
    assert decide(f"{approval} README", workspace, env).suggested_rule == approval
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any("config/.env" in r.message for r in decision.reasons)
    subprocess.run(line.split(), cwd=workspace, check=True, timeout=60)
    assert "CANARY" not in (workspace / "config" / ".env").read_text()  # what git did


def test_a_folder_without_one_stays_approved(tmp_path: Path) -> None:
    workspace, env = _repository(tmp_path)
    assert decide("git restore src", workspace, env, "git restore").verdict is Verdict.ALLOW
    assert decide("git checkout -- src", workspace, env, "git checkout").verdict is Verdict.ALLOW
