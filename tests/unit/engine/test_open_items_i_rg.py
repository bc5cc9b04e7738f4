"""Open items I: rg in a repository whose `.git` is a file with a relative `gitdir:` (a
submodule's, a worktree's). ripgrep 13 takes a relative `gitdir:` (and a `commondir` that
starts with neither `.` nor `/`) from its own working folder, not the `.git` file's: the
engine resolves it the same way from the segment's working folder, and reads the
`info/exclude` rg reads, where it had counted every hidden file (`rg KEY` in a repository
with submodules denied wherever a hidden protected file lay, even one rg never prints).
Each layout is run with the real rg: where it prints the protected `.env`, the engine must
not allow the line; where it does not, the engine allows it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, git_ok, run_printed

from policylang import Verdict
from policylang.engine import subtree

pytestmark = pytest.mark.skipif(
    shutil.which("rg") is None or shutil.which("git") is None, reason="needs ripgrep and git"
)


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / "a.txt").write_text("SECRET=plain\n")
    return workspace


def _leaks(line: str, workspace: Path, cwd: Path | None = None) -> None:
    """Real rg prints the protected `.env`, and the engine does not allow the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, cwd or workspace, env)
    assert "SECRET=abc" in out, out
    decision = decide(line, workspace, env, cwd=cwd)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _holds(line: str, workspace: Path, cwd: Path | None = None) -> None:
    """Real rg does not print `.env`, and the engine allows the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, cwd or workspace, env)
    assert "SECRET=plain" in out, out
    assert "SECRET=abc" not in out, out
    decision = decide(line, workspace, env, cwd=cwd)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def _with_submodule(tmp_path: Path) -> Path:
    """A repository `ws` with the submodule `sub` (`sub/.git`: `gitdir: ../.git/modules/sub`)
    and a hidden `.env` in each."""
    workspace = _workspace(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.txt").write_text("SECRET=plain\n")
    git_ok(other, "init", "-q", ".")
    git_ok(other, "add", "b.txt")
    git_ok(other, "commit", "-qm", "one")
    git_ok(workspace, "init", "-q", ".")
    git_ok(
        workspace, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(other), "sub"
    )
    assert (workspace / "sub" / ".git").read_text().startswith("gitdir: ../.git/modules/sub")
    (workspace / ".env").write_text("SECRET=abc\n")
    (workspace / "sub" / ".env").write_text("SECRET=abc\n")
    return workspace


@pytest.mark.parametrize("line", ["rg SECRET", "rg SECRET sub", "rg SECRET ."])
def test_a_submodule_no_longer_counts_every_hidden_file(tmp_path: Path, line: str) -> None:
    _holds(line, _with_submodule(tmp_path))


def test_in_the_submodule(tmp_path: Path) -> None:
    workspace = _with_submodule(tmp_path)
    _holds("rg SECRET", workspace, cwd=workspace / "sub")
    _holds("cd sub && rg SECRET", workspace)


def test_the_submodules_exclude_is_read(tmp_path: Path) -> None:
    # run in the submodule, its relative `gitdir:` leads to `.git/modules/sub`; rg 13 reads
    # that folder's `info/exclude` only through a `commondir` (a submodule has none)
    workspace = _with_submodule(tmp_path)
    modules = workspace / ".git" / "modules" / "sub"
    (modules / "info").mkdir(exist_ok=True)
    (modules / "info" / "exclude").write_text("!.env\n")
    (modules / "commondir").write_text(".\n")
    _leaks("rg SECRET", workspace, cwd=workspace / "sub")
    # from the top, `../.git/modules/sub` is a folder beside the workspace: nothing there
    _holds("rg SECRET", workspace)


def test_the_relative_gitdir_from_rgs_folder(tmp_path: Path) -> None:
    # `sub/.git` says `gitdir: gd`: from the workspace rg reads `gd/commondir`, not
    # `sub/gd/commondir`
    workspace = _workspace(tmp_path)
    sub = workspace / "sub"
    (sub / "gd" / "info").mkdir(parents=True)
    (sub / ".git").write_text("gitdir: gd\n")
    (sub / "gd" / "commondir").write_text(".\n")
    (sub / "gd" / "info" / "exclude").write_text("!.env\n")
    (sub / ".env").write_text("SECRET=abc\n")
    (sub / "b.txt").write_text("SECRET=plain\n")
    _holds("rg SECRET sub", workspace)  # beside the `.git` file: not read
    _leaks("rg SECRET", workspace, cwd=sub)  # from `sub`: read
    (workspace / "gd" / "info").mkdir(parents=True)
    (workspace / "gd" / "commondir").write_text(".\n")
    (workspace / "gd" / "info" / "exclude").write_text("!.env\n")
    _leaks("rg SECRET sub", workspace)


@pytest.mark.parametrize("common", ["cd", "", "./cd/.."])
def test_a_commondir_from_rgs_folder(tmp_path: Path, common: str) -> None:
    workspace = _workspace(tmp_path)
    sub = workspace / "sub"
    (workspace / "gd").mkdir()
    sub.mkdir()
    (sub / ".git").write_text("gitdir: gd\n")
    (workspace / "gd" / "commondir").write_text(f"{common}\n")
    (workspace / "cd").mkdir()
    (workspace / "gd" / "cd").mkdir()  # (`gd/./cd/..` is `gd` once `gd/cd` exists)
    place = {"cd": workspace / "cd", "": workspace, "./cd/..": workspace / "gd"}[common]
    (place / "info").mkdir(parents=True)
    (place / "info" / "exclude").write_text("!.env\n")
    (sub / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace)
    _leaks("rg SECRET sub", workspace)


def test_git_excludes_takes_rgs_folder(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / ".git").write_text("gitdir: ../gd\n")
    assert subtree.git_excludes(str(sub / ".git")) is None  # no folder known: unsure
    found = subtree.git_excludes(str(sub / ".git"), (str(sub),))
    assert found == (f"{sub}/../gd/info/exclude",)


@pytest.mark.parametrize("pointer", [b"gitdir: \xff\n", b"gitdir: a\0b\n", b"nothing\n"])
def test_an_odd_pointer_stays_strict(tmp_path: Path, pointer: bytes) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    (workspace / "sub" / ".git").write_bytes(pointer)
    (workspace / ".env").write_text("SECRET=abc\n")
    decision = decide("rg SECRET", workspace, env_beside(tmp_path))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_an_unknown_folder_stays_strict(tmp_path: Path) -> None:
    workspace = _with_submodule(tmp_path)
    decision = decide('cd "$D" && rg SECRET', workspace, env_beside(tmp_path))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
