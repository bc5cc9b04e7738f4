"""Fixer AL: review GJ6.

GJ6: FY4's hard-link check grouped the names of one inode only within the tree a line
reads: `src/leak.py` and `notes.txt`, hard links of the top `.env` (what `tar xf` of a
crafted archive makes), were printed by `rg DB_PASS src`, `grep -r DB_PASS src`, an
approved `ruff check src`, `cat notes.txt` and `head -n 5 src/*.py`, all allowed. A
regular file read with more than one name now meets the inodes of the workspace's and
the home's protected files; where those cannot all be listed, it asks."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from realrun import decide, printed

from policylang import Verdict

_RUFF = Path(sys.executable).parent / "ruff"
_LINES = ("rg DB_PASS src", "grep -r DB_PASS src", "cat notes.txt", "head -n 5 src/*.py")


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    (workspace / "src").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    (workspace / "README.md").write_text("# app\n")
    (workspace / "src" / "app.py").write_text("x = 1\n")
    (workspace / ".env").write_text("DB_PASS=CANARY_GJ6\n")
    return workspace


def _leak(workspace: Path) -> None:
    """The crafted archive's hard links of `.env`, one below `src`, one at the top."""
    os.link(workspace / ".env", workspace / "src" / "leak.py")
    os.link(workspace / ".env", workspace / "notes.txt")


def _verdict(line: str, workspace: Path, *approvals: str) -> Verdict:
    env = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return decide(line, workspace, env, *approvals).verdict


def _bash(line: str, workspace: Path) -> str:
    return printed(["bash", "-c", line], workspace)


@pytest.mark.skipif(shutil.which("rg") is None, reason="rg")
def test_gj6_a_hard_link_of_env_outside_the_read_tree_is_env(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    for line in (*_LINES, "cat README.md", "rg foo src"):
        assert _verdict(line, workspace) is Verdict.ALLOW, line
    _leak(workspace)
    for line in _LINES:
        assert "CANARY_GJ6" in _bash(line, workspace), line
        assert _verdict(line, workspace) is Verdict.DENY, line
    # the read of the tree, whatever the pattern (`rg foo src` prints `leak.py` with `-v`)
    assert _verdict("rg foo src", workspace) is Verdict.DENY
    assert _verdict("cat src/app.py", workspace) is Verdict.ALLOW
    assert _verdict("cat README.md", workspace) is Verdict.ALLOW


@pytest.mark.skipif(not _RUFF.exists(), reason="ruff")
def test_gj6_an_approved_ruff_check_of_the_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    assert _verdict("ruff check src", workspace, "ruff check") is Verdict.ALLOW
    _leak(workspace)
    assert "CANARY_GJ6" in printed([str(_RUFF), "check", "--no-cache", "src"], workspace)
    assert _verdict("ruff check src", workspace, "ruff check") is Verdict.DENY


def test_gj6_a_hard_link_of_a_home_credential(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir()
    (ssh / "id_ed25519").write_text("KEY_CANARY_GJ6\n")
    os.link(ssh / "id_ed25519", workspace / "src" / "key.txt")
    assert "KEY_CANARY_GJ6" in _bash("cat src/key.txt; grep -r KEY src", workspace)
    assert _verdict("cat src/key.txt", workspace) is Verdict.DENY
    assert _verdict("grep -r KEY src", workspace) is Verdict.DENY


def test_gj6_hard_links_of_other_files_stay_allowed(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    # pnpm's store: every installed file a hard link of one outside the workspace
    store = tmp_path / "store"
    store.mkdir()
    (store / "index.js").write_text("module.exports = 1\n")
    package = workspace / "node_modules" / "pkg"
    package.mkdir(parents=True)
    os.link(store / "index.js", package / "index.js")
    os.link(workspace / "src" / "app.py", workspace / "src" / "copy.py")
    assert os.stat(package / "index.js").st_nlink == 2
    for line in (
        "cat node_modules/pkg/index.js", "grep -r exports node_modules", "cat src/copy.py",
        "rg x src", "head -n 5 src/*.py",
    ):  # fmt: skip
        assert _verdict(line, workspace) is Verdict.ALLOW, line


def test_gj6_protected_files_that_cannot_all_be_listed_ask(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    data = workspace / "data"
    data.mkdir()
    for index in range(100_001):  # more than the engine lists of a workspace (review AX3)
        (data / str(index)).touch()
    outside = tmp_path / "other.txt"
    outside.write_text("x\n")
    os.link(outside, workspace / "src" / "linked.py")
    # a file with one name costs nothing and stays allowed
    assert _verdict("cat src/app.py", workspace) is Verdict.ALLOW
    for line in ("cat src/linked.py", "rg x src", "grep -r x src"):
        decision = decide(line, workspace, {"HOME": str(tmp_path / "home")})
        assert decision.verdict is Verdict.ASK, line
        assert "hard link" in decision.explain(), line
    _leak(workspace)
    assert "CANARY_GJ6" in _bash("cat notes.txt", workspace)
    assert _verdict("cat notes.txt", workspace) is not Verdict.ALLOW
