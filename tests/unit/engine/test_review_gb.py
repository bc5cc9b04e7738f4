"""Review GB, of review GA's fixes.

GB1: a submodule's configuration (`.git/modules/foo/config`) gave the top repository a
remote's name, so a committed `up.git` (its `HEAD` the stash, its `commondir` this
repository's) passed an approved `git pull up.git`. GB2: so did a committed `src/` holding
`HEAD` and `config`, a git directory git rejects. GB3: `http.proxy` in a global
configuration file inside the workspace (`XDG_CONFIG_HOME` there) was not read. GB4: a
harmless `http.postBuffer` made every approved push ask. GB5: black's `include` given as a
list raised inside the engine."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import asks, decide, git_out, stash_head_folder, untracked_stash_repository

from policylang import Verdict

_SECTION = '[remote "up.git"]\n\turl = https://example.invalid/up.git\n'


def test_gb1_a_submodules_configuration_names_no_remote_here(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    stash_head_folder(workspace / "up.git", "../.git")
    module = workspace / ".git" / "modules" / "foo"
    (module / "objects").mkdir(parents=True)
    (module / "refs").mkdir()
    (module / "HEAD").write_text("ref: refs/heads/main\n")
    (module / "config").write_text("[core]\n\tbare = false\n" + _SECTION)
    asks("git pull --no-ff --no-edit up.git", workspace, env, "git pull")
    git_out(workspace, "pull", "-q", "--no-ff", "--no-edit", "up.git")  # what git does
    assert "CANARY_FD" in git_out(workspace, "log", "-p")


def test_gb2_a_rejected_git_directory_names_no_remote(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    stash_head_folder(workspace / "up.git", "../.git")
    src = workspace / "src"
    src.mkdir()
    (src / "HEAD").write_text("ref: refs/heads/main\n")
    (src / "config").write_text(_SECTION)
    asks("git pull --no-ff --no-edit up.git", workspace, env, "git pull", cwd=src)
    asks("git fetch up.git", workspace, env, "git fetch", cwd=src)


def test_gb3_a_global_file_in_the_workspace_with_a_proxy_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    config = workspace / ".config" / "git"
    config.mkdir(parents=True)
    (config / "config").write_text("[http]\n\tproxy = http://127.0.0.1:9\n\tsslVerify = false\n")
    env = {**env, "XDG_CONFIG_HOME": str(workspace / ".config")}
    for line, approval in (("git pull", "git pull"), ("git push origin main", "git push")):
        asks(line, workspace, env, approval)


@pytest.mark.parametrize("key", ["http.postBuffer", "http.version", "http.lowSpeedLimit"])
def test_gb4_harmless_http_settings_stay_approved(tmp_path: Path, key: str) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    git_out(workspace, "stash", "drop", "-q")
    git_out(workspace, "config", key, "HTTP/1.1" if key == "http.version" else "524288000")
    for line, approval in (("git pull", "git pull"), ("git push origin main", "git push")):
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_gb5_a_list_include_of_black_is_judged_without_an_error(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "pyproject.toml").write_text('[tool.black]\ninclude = [".env"]\n')
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    decision = decide("black .", workspace, env, "black")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert all("internal" not in r.rule_id for r in decision.reasons), decision.explain()


def test_gc1_a_candidate_reached_through_a_link_still_names_its_remotes(tmp_path: Path) -> None:
    # (review GC1: the repository git uses was reached first through a committed link
    # below a rejected candidate, and so got no say in the remote names)
    workspace, env = untracked_stash_repository(tmp_path)
    up = workspace / "up"
    (up / "objects").mkdir(parents=True)
    (up / "refs" / "heads").mkdir(parents=True)
    (up / "HEAD").write_text("ref: refs/stash\n")
    (up / "commondir").write_text("../.git\n")
    src = workspace / "src"
    (src / "refs").mkdir(parents=True)
    (src / "modules").mkdir()
    (src / "HEAD").write_text("ref: refs/heads/main\n")
    (src / "config").write_text(
        '[remote "up"]\n\turl = https://example.invalid/up.git\n'
        '[remote "origin"]\n\turl = https://example.invalid/origin.git\n'
    )
    (src / "modules" / "x").symlink_to("../../.git")
    git_out(workspace, "config", "branch.main.remote", "up")
    git_out(workspace, "config", "branch.main.merge", "HEAD")
    asks("git pull --no-ff --no-edit", workspace, env, "git pull", cwd=src)
    git_out(src, "pull", "-q", "--no-ff", "--no-edit")  # what git does: merges the stash
    assert "CANARY_FD" in git_out(workspace, "log", "-p")


def test_a_checkout_actions_extraheader_stays_approved(tmp_path: Path) -> None:
    # GitHub's checkout action writes `http.https://github.com/.extraheader` (its token):
    # the header goes to that host only, so the pushes and pulls stay approved there
    workspace, env = untracked_stash_repository(tmp_path)
    git_out(workspace, "stash", "drop", "-q")
    git_out(workspace, "config", "http.https://example.invalid/.extraheader",
            "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46")  # fmt: skip
    for line, approval in (("git pull", "git pull"), ("git push origin main", "git push"),
                           ("git remote", "git remote")):  # fmt: skip
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ALLOW, decision.explain()
