"""`gitrefs`: what the refs on the disk say, against what real git does with them."""

from __future__ import annotations

from pathlib import Path

from realrun import git_ok, printed

from policylang.engine.gitrefs import head_branch, odd_symref, sends_branch


def _repository(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "x")
    git_ok(workspace, "branch", "-M", "main")
    return workspace


def test_a_fresh_repository_has_git_own_refs_only(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
    gitdir = str(workspace / ".git")
    assert odd_symref(gitdir) is None
    assert head_branch(gitdir) == "main"
    assert sends_branch(gitdir, "main")
    assert sends_branch(gitdir, "HEAD")


def test_a_branch_in_packed_refs_only_is_a_branch(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "branch", "feature")
    git_ok(workspace, "pack-refs", "--all")
    assert not (workspace / ".git" / "refs" / "heads" / "feature").exists()
    assert sends_branch(str(workspace / ".git"), "feature")
    assert sends_branch(str(workspace / ".git"), "refs/heads/feature")


def test_a_symbolic_branch_is_odd_and_no_branch(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "symbolic-ref", "refs/heads/alias", "refs/tags/v1")
    gitdir = str(workspace / ".git")
    assert odd_symref(gitdir) == "refs/heads/alias -> refs/tags/v1"
    assert not sends_branch(gitdir, "alias")


def test_a_name_git_finds_as_a_tag_first_is_no_branch(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "tag", "v1")
    git_ok(workspace, "branch", "v1")
    assert "ambiguous" in printed(["git", "rev-parse", "v1"], workspace)
    assert not sends_branch(str(workspace / ".git"), "v1")
    assert not sends_branch(str(workspace / ".git"), "no-such-branch")
    assert not sends_branch(str(workspace / ".git"), "main~1")


def test_a_detached_head_and_a_linked_worktree(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "worktree", "add", "-q", "-b", "side", str(tmp_path / "side"))
    linked = str(workspace / ".git" / "worktrees" / "side")
    assert head_branch(linked) == "side"
    assert sends_branch(linked, "HEAD")
    assert odd_symref(linked) is None
    git_ok(workspace, "checkout", "-q", "--detach")
    assert head_branch(str(workspace / ".git")) is None
    assert not sends_branch(str(workspace / ".git"), "HEAD")


def test_a_reftable_or_unreadable_store_is_not_known(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    (workspace / ".git" / "reftable").mkdir()
    assert not sends_branch(str(workspace / ".git"), "main")
    assert odd_symref(str(tmp_path / "missing")) is not None
