"""Review GY1: `policylang check --approvals` judges an approval by the lines it covers.

An approval of `git remote -v` (its own words are allowed) let the engine allow `git
remote -v set-url origin URL`, which real git runs as `git remote set-url`, and the audit
had called the approval fine (`ok, 0 warnings`, rc 0 with --strict).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from policylang import load_policy
from policylang.decision import Verdict
from policylang.engine.approvals import Approvals

ROOT = Path(__file__).parents[3]
SHIPPED = ROOT / "policylang" / "rulesets" / "default.policy"
EVIL = "https://evil.example/r.git"
LINE = f"git remote -v set-url origin {EVIL}"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(workspace: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=workspace, capture_output=True, text=True, check=True, timeout=30
    ).stdout


def test_the_audit_flags_an_allowed_prefix_approval_that_widens(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    _git(workspace, "init", "-q")
    _git(workspace, "remote", "add", "origin", "https://example.com/good.git")
    approvals = tmp_path / "approvals.toml"
    approvals.write_text('allow = ["git remote -v"]\n')

    # the premise: the approval turns the line into allow, and real git then rewrites the
    # remote's URL
    policy = load_policy(approvals=Approvals(approvals))
    assert policy.evaluate(LINE, cwd=workspace, workspace=workspace).verdict is Verdict.ALLOW
    plain = load_policy()
    assert plain.evaluate(LINE, cwd=workspace, workspace=workspace).verdict is Verdict.ASK
    subprocess.run(["bash", "-c", LINE], cwd=workspace, check=True, capture_output=True)
    assert EVIL in _git(workspace, "remote", "get-url", "origin")

    result = subprocess.run(
        [sys.executable, "-m", "policylang", "check", "--no-expect", "--strict", str(SHIPPED),
         "--approvals", str(approvals)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 1, result.stdout
    assert f"{approvals}:1:10: warning[approvals.not-offered]: approval `git remote -v`" in (
        result.stdout
    )
