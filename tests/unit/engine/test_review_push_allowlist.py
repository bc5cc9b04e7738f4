"""An approved `git push` is an allowlist (closing note 33), and the refs on the disk count.

Every blocklisted spelling of "push something else, or somewhere else" had another (reviews
FD1, FO5, FO6, FR1-FR3, FS1, FT1, FT2). FR6: a symbolic ref already in `.git` (`HEAD` or
`refs/heads/leak` = `ref: refs/stash`) made `git log -p` print the stash and an approved
push publish it. FQ7: a crafted `remote.up.fetch = +refs/stash:refs/remotes/up/main`
copied the stash into a remote-tracking branch under an approval of `git fetch`, and an
approved push of `up/main` published it. Now an approved push is allowed only to a remote
the repository names with a `url`, of sources that are certainly local branches, where no
symbolic ref stands that git does not make itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import (
    bare_rewrite,
    decide,
    git_out,
    stashed_repository,
    untracked_stash_repository,
)

from policylang import Verdict


def _pushed(tmp_path: Path, line: str, branch: str, path: str = "config/.env") -> str:
    """Run `line` for real (the remote reached through `bare_rewrite`); what the remote's
    `BRANCH:PATH` holds."""
    subprocess.run(["bash", "-c", line], cwd=tmp_path / "ws", check=True, timeout=60,
                   capture_output=True, env=bare_rewrite(tmp_path))  # fmt: skip
    return git_out(tmp_path, "--git-dir", str(tmp_path / "origin.git"), "show",
                   f"{branch}:{path}")  # fmt: skip


def _symref(workspace: Path, name: str, target: str) -> None:
    (workspace / ".git" / name).write_text(f"ref: {target}\n")


def test_fr6_head_naming_the_stash_asks_for_the_printers(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    assert decide("git log -p", workspace, env).verdict is Verdict.ALLOW  # (before)
    _symref(workspace, "HEAD", "refs/stash")
    assert "CANARY_FD" in git_out(workspace, "log", "-p")  # what git does: the stash
    for line in ("git log -p", "git show", "git diff HEAD^1 HEAD"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert any(r.rule_id == "engine.git-stash" for r in decision.reasons)


def test_fr6_a_branch_naming_the_stash_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    _symref(workspace, "refs/heads/leak", "refs/stash")
    assert "CANARY_FD" in git_out(workspace, "log", "-p", "leak")
    decision = decide("git log -p leak", workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    decision = decide("git branch y leak", workspace, env, "git branch")
    assert decision.verdict is Verdict.ASK, decision.explain()
    line = "git push -q origin leak:refs/heads/leak"
    decision = decide(line, workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    # what git did: the stash went out, its untracked files in its third parent
    assert "CANARY_FD" in _pushed(tmp_path, line, "leak^3")


def test_fr6_head_naming_the_stash_asks_for_an_approved_push(tmp_path: Path) -> None:
    workspace, env = stashed_repository(tmp_path)
    _symref(workspace, "HEAD", "refs/stash")
    line = "git push -q origin HEAD:refs/heads/leak"
    decision = decide(line, workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "CANARY_FD" in _pushed(tmp_path, line, "leak")


def test_a_symref_without_a_stash_changes_nothing_for_the_printers(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    git_out(workspace, "stash", "drop", "-q")
    _symref(workspace, "refs/heads/alias", "refs/heads/main")
    assert decide("git log -p alias", workspace, env).verdict is Verdict.ALLOW


def test_fq7_a_fetch_refspec_copying_the_stash_asks(tmp_path: Path) -> None:
    workspace, env = stashed_repository(tmp_path)
    offered = decide("git fetch origin", workspace, env).suggested_rule
    assert offered == "git fetch"
    git_out(workspace, "config", "remote.up.url", ".git")
    git_out(workspace, "config", "remote.up.fetch", "+refs/stash:refs/remotes/up/main")
    decision = decide("git fetch up", workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.approved-fetch-refspec" for r in decision.reasons)
    git_out(workspace, "fetch", "-q", "up")  # what git does: the stash is `up/main` now
    assert "CANARY_FD" in git_out(workspace, "show", "up/main:config/.env")
    # the remote on the network again: only the source is left to ask for
    git_out(workspace, "config", "remote.up.url", "https://example.invalid/up.git")
    git_out(workspace, "config", "--unset", "remote.up.fetch")
    line = "git push -q origin up/main:refs/heads/leak"
    decision = decide(line, workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.approved-push-source" for r in decision.reasons)
    assert "CANARY_FD" in _pushed(tmp_path, line, "leak")


@pytest.mark.parametrize(
    "setup",
    [
        ["config", "remote.up.url", "https://example.invalid/x.git"],  # (another remote)
        ["branch", "feature"],
        ["config", "push.default", "current"],
    ],
)
def test_pushes_of_branches_to_remotes_stay_approved(tmp_path: Path, setup: list[str]) -> None:
    workspace, env = stashed_repository(tmp_path)
    git_out(workspace, *setup)
    git_out(workspace, "pack-refs", "--all")  # (a branch listed in `packed-refs` only)
    lines = ("git push origin main", "git push -u origin main:main", "git push origin HEAD",
             "git push", "git push origin", "git push --set-upstream origin main",
             "git push origin HEAD:refs/for/main", "git push -o ci.skip origin main")  # fmt: skip
    for line in lines:
        decision = decide(line, workspace, env, "git push")
        assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("setup", "line"),
    [
        ([], "git push upstream main"),  # no remote of that name: git reads a path or URL
        ([], "git push origin v1"),  # a tag, not a branch
        ([], "git push origin main~1:refs/heads/x"),
        ([], "git push origin no-such-branch"),
        ([], "git push --recurse-submodules=on-demand origin main"),
        ([], "git push --recurse-submodules on-demand origin main"),
        (["config", "push.recurseSubmodules", "on-demand"], "git push origin main"),
        (["config", "submodule.recurse", "true"], "git push origin main"),
        (["config", "branch.main.pushRemote", "elsewhere"], "git push"),
        (["config", "remote.pushDefault", "nowhere"], "git push"),
        (["checkout", "-q", "--detach"], "git push origin HEAD"),
    ],
)
def test_what_no_allowlist_entry_covers_asks(tmp_path: Path, setup: list[str], line: str) -> None:
    workspace, env = stashed_repository(tmp_path)
    git_out(workspace, "tag", "v1")
    if setup:
        git_out(workspace, *setup)
    decision = decide(line, workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_a_push_from_no_repository_asks_and_is_not_offered(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    decision = decide("git push origin main", tmp_path, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None
