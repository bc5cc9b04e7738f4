"""Review FY, of review FX's fixes.

FY1: git's old-style remotes (`.git/remotes/origin` = `URL: .`, `Pull: refs/stash:…`) were
not read by the check of an approved fetch or pull: a bare approved `git pull` merged the
stash into `main`. FY2: a remote group (`remotes.origin = fixtures/up.git`) is taken before
`remote.origin`: an approved `git pull origin` pulled from a crafted folder whose `HEAD` is
the stash. FY3: help and version lines in other spellings (`-v`, `--ver`, `-hv`, `-h run`)
were still offered the bare program, which covered every verb."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import decide, git_out, stash_head_folder, untracked_stash_repository

from policylang import Verdict


def test_fy1_an_old_style_remote_file_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    offered = decide("git pull", workspace, env).suggested_rule
    assert offered == "git pull"
    git_out(workspace, "config", "--remove-section", "remote.origin")
    (workspace / ".git" / "remotes").mkdir()
    (workspace / ".git" / "remotes" / "origin").write_text(
        "URL: .\nPull: refs/stash:refs/remotes/origin/x\n"
    )
    for line in ("git pull", "git fetch --all", "git pull origin"):
        decision = decide(line, workspace, env, offered, "git fetch")
        assert decision.verdict is Verdict.ASK, decision.explain()
    git_out(workspace, "pull", "-q", "--no-rebase")  # what git does: the stash is in `main`
    assert "CANARY_FD" in git_out(workspace, "log", "-p")


def test_fy2_a_remote_group_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    offered = decide("git pull", workspace, env).suggested_rule
    assert offered == "git pull"
    stash_head_folder(workspace / "fixtures" / "up.git", "../../.git")
    git_out(workspace, "config", "remote.gh.url", "https://example.invalid/gh.git")
    git_out(workspace, "config", "remotes.origin", "fixtures/up.git gh")
    for line in ("git pull origin", "git fetch origin"):
        decision = decide(line, workspace, env, offered, "git fetch")
        assert decision.verdict is Verdict.ASK, decision.explain()
    # what git does (`gh` reached on this machine for the run): the stash is in `main`
    git_out(tmp_path, "--git-dir", str(tmp_path / "origin.git"), "symbolic-ref", "HEAD",
            "refs/heads/main")  # fmt: skip
    rewrite = {**os.environ, "GIT_CONFIG_COUNT": "1",
               "GIT_CONFIG_KEY_0": f"url.{tmp_path / 'origin.git'}.insteadOf",
               "GIT_CONFIG_VALUE_0": "https://example.invalid/gh.git"}  # fmt: skip
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
                           "pull", "-q", "--no-rebase", "--no-edit", "origin"],
                          cwd=workspace, env=rewrite, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "CANARY_FD" in git_out(workspace, "log", "-p")


@pytest.mark.parametrize(
    "line",
    ["fastapi -v", "fastapi -h run", "fastapi --help run", "VBoxManage --ver",
     "VBoxManage -hv", "VBoxManage --version=1", "VBoxManage -H"],
)  # fmt: skip
def test_fy3_help_lines_in_other_spellings_are_offered_exactly(tmp_path: Path, line: str) -> None:
    (tmp_path / "home").mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    offered = decide(line, tmp_path, env).suggested_rule
    assert offered is None or offered.endswith("$"), offered
    program = line.split()[0]
    assert decide(f"{program} run main.py", tmp_path, env, *filter(None, [offered])).verdict is (
        Verdict.ASK
    )


@pytest.mark.parametrize(
    "line",
    ["git pull https://x.example/evil.git main", "git fetch git@x.example:evil.git",
     "git pull ssh://x.example/evil.git", "git fetch --depth 1 https://x.example/e.git"],
)  # fmt: skip
def test_a_fetch_from_a_url_the_repository_does_not_name_asks(tmp_path: Path, line: str) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    decision = decide(line, workspace, env, "git pull", "git fetch")
    assert decision.verdict is Verdict.ASK, decision.explain()
