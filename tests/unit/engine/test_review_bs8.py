"""Review BS8: `du` without `-a` prints every folder below its operands, so `du ~`
printed the folders inside protected ones (`~/.password-store/bank.example.com`), as
`tree -d ~` would. GNU du runs for real."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import run_real

from policylang import Verdict
from policylang.engine.policy import load_policy


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".password-store" / "bank.example.com").mkdir(parents=True)
    (home / "project" / "src").mkdir(parents=True)
    return home


def _verdict(command: str, home: Path) -> Verdict:
    workspace = home / "project"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    return load_policy().evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    "command",
    ["du ~", "du -h ~", "du -d 2 ~", "du --max-depth=3 -h ~", "du -d 1 -d 2 ~", "du -hc ~"],
)
def test_du_listing_the_folders_of_a_protected_folder_is_denied(
    home: Path, command: str
) -> None:
    assert _verdict(command, home) is Verdict.DENY
    printed = run_real(["bash", "-c", command], home / "project", home).stdout
    assert "bank.example.com" in printed  # what the deny is for


@pytest.mark.parametrize(
    "command",
    ["du -sh ~", "du -s ~", "du -h --max-depth=1 ~", "du -d1 ~", "du -h", "du -h src"],
)
def test_du_printing_no_folder_below_a_protected_one_stays_allowed(
    home: Path, command: str
) -> None:
    assert _verdict(command, home) is Verdict.ALLOW
    printed = run_real(["bash", "-c", command], home / "project", home).stdout
    assert printed  # (du ran)
    assert "bank.example.com" not in printed
