"""Review EC, rg's ignore files and globs: EC1 a `commondir` whose first line is empty (rg
then reads `info/exclude` from its own working folder), EC2 a `!` line that ends in Unicode
whitespace (rg trims it, as Rust's `trim_end`), EC3 a `-g`/`--glob`/`--iglob` value that
ends in whitespace (rg reads it with the same line parser). Each layout is run with the
real rg: where it prints the protected `.env`, the engine must not allow the line; where
it does not, the engine's verdict is not made stricter."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, run_printed

from policylang import Verdict
from policylang.engine import subtree

pytestmark = pytest.mark.skipif(shutil.which("rg") is None, reason="needs ripgrep")


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / "a.txt").write_text("SECRET=plain\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    return workspace


def _leaks(line: str, workspace: Path, cwd: Path | None = None) -> None:
    """Real rg prints the protected `.env`, and the engine does not allow the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, cwd or workspace, env)
    assert "SECRET=abc" in out, out
    decision = decide(line, workspace, env, cwd=cwd)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _holds(line: str, workspace: Path) -> None:
    """Real rg does not print `.env`, and the engine allows the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert "SECRET=plain" in out, out
    assert "SECRET=abc" not in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- EC1: an empty first line of `commondir` --------------------------------------------------


def _linked(workspace: Path, commondir: bytes) -> Path:
    """`ws/sub/.git` naming the absolute git directory `ws/gd`, whose `commondir` holds
    `commondir`; `ws/info/exclude` re-includes `.env`; `ws/sub/.env` is the secret."""
    sub = workspace / "sub"
    sub.mkdir()
    (sub / ".git").write_text(f"gitdir: {workspace / 'gd'}\n")
    (workspace / "gd").mkdir()
    (workspace / "gd" / "commondir").write_bytes(commondir)
    (workspace / "info").mkdir()
    (workspace / "info" / "exclude").write_text("!.env\n")
    (workspace / ".env").unlink()
    (sub / ".env").write_text("SECRET=abc\n")
    return sub


@pytest.mark.parametrize("commondir", [b"\n", b"\r\n", b"\r\nx\n", b"\n/abs\n"])
@pytest.mark.parametrize("line", ["rg SECRET", "rg SECRET sub"])
def test_ec1_an_empty_commondir_line_counts_every_hidden_file(
    tmp_path: Path, commondir: bytes, line: str
) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace, commondir)
    _leaks(line, workspace)


def test_ec1_from_the_linked_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    sub = _linked(workspace, b"\n")
    (sub / "info").mkdir()
    (sub / "info" / "exclude").write_text("!.env\n")
    _leaks("rg SECRET", workspace, cwd=sub)


def test_ec1_an_empty_commondir_file_reads_no_exclude(tmp_path: Path) -> None:
    # no line at all: rg reads no exclude file (nothing to fail closed on)
    workspace = _workspace(tmp_path)
    _linked(workspace, b"")
    assert subtree.git_excludes(str(workspace / "sub" / ".git")) is not None
    _holds("rg SECRET", workspace)


@pytest.mark.parametrize("commondir", [b"\n", b"\r\n", b" \n"])
def test_ec1_git_excludes_fails_closed(tmp_path: Path, commondir: bytes) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace, commondir)
    assert subtree.git_excludes(str(workspace / "sub" / ".git")) is None
