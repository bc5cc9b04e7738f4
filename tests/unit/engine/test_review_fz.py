"""Review FZ: approved fetches are an allowlist now, and a ref holding the stash's commit
makes the printers ask.

FZ1: a path operand of an approved `git pull` was looked for from the working folder, while
git reads it from the work tree's top: from `src/`, `git pull --no-ff up.git` (a committed
crafted git directory whose `HEAD` is the stash) merged the stash into `main`. FZ2, FZ3:
`git remote update` and `git maintenance run` (prefetch) fetched through a crafted remote
without the fetch checks. FZ4: a plain ref holding the stash's commit (`up/main`,
`FETCH_HEAD`) was printed bare. FZ5: `host:path` (ssh without a user) was no URL to the
check. Now every repository an approved fetch names must be a remote the configuration
names with a `url`."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import asks, decide, git_out, stash_head_folder, untracked_stash_repository

from policylang import Verdict


def test_fz1_a_path_read_from_the_top_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    (workspace / "src").mkdir()
    stash_head_folder(workspace / "up.git", "../.git")
    line = "git pull --no-ff --no-edit up.git"
    asks(line, workspace, env, "git pull", cwd=workspace / "src")
    asks("git fetch up.git", workspace, env, "git fetch", cwd=workspace / "src")
    git_out(workspace / "src", "pull", "-q", "--no-ff", "--no-edit", "up.git")
    assert "CANARY_FD" in git_out(workspace, "log", "-p")  # what git did: a merge of it


def _crafted_remote(workspace: Path) -> None:
    git_out(workspace, "config", "remote.up.url", ".git")
    git_out(workspace, "config", "remote.up.fetch", "+refs/stash:refs/remotes/up/main")


def test_fz2_remote_update_and_the_printers_of_what_it_fetched(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    offered = decide("git remote update", workspace, env).suggested_rule
    assert offered is not None
    assert decide("git remote update", workspace, env, offered).verdict is Verdict.ALLOW
    _crafted_remote(workspace)
    asks("git remote update", workspace, env, offered)
    asks("git remote update up", workspace, env, offered)
    git_out(workspace, "remote", "update", "up")  # what git does: the stash is `up/main`
    assert "CANARY_FD" in git_out(workspace, "log", "-p", "up/main")
    for line in ("git log -p up/main", "git log -p --remotes", "git show up/main^3"):
        asks(line, workspace, env)  # (FZ4: a plain ref holding the stash's commit)
    git_out(workspace, "fetch", "-q", "up")
    assert "CANARY_FD" in git_out(workspace, "log", "-p", "FETCH_HEAD")
    git_out(workspace, "update-ref", "-d", "refs/remotes/up/main")
    asks("git log -p FETCH_HEAD", workspace, env)


def test_fz3_maintenance_prefetch_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    offered = decide("git maintenance run", workspace, env).suggested_rule
    _crafted_remote(workspace)
    git_out(workspace, "config", "maintenance.prefetch.enabled", "true")
    asks("git maintenance run", workspace, env, *filter(None, [offered]))
    git_out(workspace, "config", "--remove-section", "remote.origin")  # (no network here)
    git_out(workspace, "maintenance", "run")  # what git does: prefetches the stash
    prefetched = git_out(workspace, "for-each-ref", "--format=%(refname)", "refs/prefetch")
    assert "refs/prefetch/remotes/up/main" in prefetched


@pytest.mark.parametrize(
    "line",
    ["git pull evil.example:repo main", "git fetch evil.example:repo",
     "git pull https://x.example/evil.git main", "git fetch git@x.example:evil.git",
     "git fetch --multiple origin evil.example:r", "git fetch --upload-pack=./x origin",
     "git fetch --bogus origin", "git fetch $REMOTE"],
)  # fmt: skip
def test_fz5_what_is_no_named_remote_asks(tmp_path: Path, line: str) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    asks(line, workspace, env, "git pull", "git fetch")


def test_fetches_from_the_named_remotes_stay_approved(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    git_out(workspace, "config", "remote.up.url", "https://example.invalid/up.git")
    for line in ("git fetch", "git fetch origin", "git fetch origin main:refs/remotes/o/m",
                 "git fetch --depth 1 origin", "git fetch -j4 --all", "git fetch -p",
                 "git fetch --multiple origin up", "git pull --rebase origin main",
                 "git pull --no-rebase -X theirs origin main", "git pull --ff-only",
                 "git remote update", "git remote update origin up"):  # fmt: skip
        decision = decide(line, workspace, env, "git fetch", "git pull", "git remote update")
        assert decision.verdict is Verdict.ALLOW, decision.explain()
