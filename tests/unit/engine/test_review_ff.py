"""Review FF: the object-model floors of review EZ had gaps. `git update-ref --std` (a
prefix of `--stdin`, FF1) and `git update-index --ca` (of `--cacheinfo`, FF6) pointed a
name at a blob; `git fetch . ID:REF` and `git stash store ID` made a blob ref (FF2);
`git fetch . refs/stash:REF`, `git symbolic-ref REF refs/stash` and `git bisect start
stash^3` named a stash's commit (FF3); `git fast-export --no-data --data` printed blobs
(FF4); `git bisect view CMD` ran `git CMD` (FF5); `git grep -eP stash^3` printed a stash
(FF7); `diff.submodule = diff` printed a nested repository's `.env` that only HEAD's
gitlink names (FF8); `unzip -lT` rewrote the archive (FF9); `command -pv` only prints
(FF10). Each line is run with the real program to show the premise, and the engine's
verdict is asserted."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
        "-c", "init.defaultBranch=main"]  # fmt: skip


def _env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "home").mkdir(exist_ok=True)
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}  # fmt: skip


def _git(workspace: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [*_GIT, *args], cwd=workspace, check=True, timeout=60, capture_output=True, text=True,
        env=env,
    )  # fmt: skip
    return done.stdout.strip()


def _tracked(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository that tracks `.env`, three commits (review FF's ws3)."""
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("SECRET=CANARY_FF_TRACKED\n")
    (workspace / "README.md").write_text("hello\n")
    _git(workspace, env, "init", "-q", ".")
    _git(workspace, env, "add", "-A", "-f")
    _git(workspace, env, "commit", "-qm", "one")
    for text in ("more\n", "again\n"):
        with (workspace / "README.md").open("a") as readme:
            readme.write(text)
        _git(workspace, env, "commit", "-qam", text)
    return workspace, env


def _stashed(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """An untracked `.env` put aside with `git stash -u` (review FF's ws4)."""
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README.md").write_text("hello\n")
    _git(workspace, env, "init", "-q", ".")
    _git(workspace, env, "add", "-A")
    _git(workspace, env, "commit", "-qm", "one")
    (workspace / "README.md").write_text("hello\nmore\n")
    _git(workspace, env, "commit", "-qam", "two")
    (workspace / ".env").write_text("SECRET=CANARY_FF_STASHED\n")
    _git(workspace, env, "stash", "-q", "-u")
    return workspace, env


def _asks(line: str, workspace: Path, env: dict[str, str], rule: str, *approvals: str) -> None:
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == rule for r in decision.reasons), decision.explain()


def _allows(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> None:
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def _suggests(line: str, workspace: Path, env: dict[str, str]) -> str:
    suggested = decide(line, workspace, env).suggested_rule
    assert suggested is not None
    return suggested


@pytest.mark.parametrize("option", ["--std", "--st", "--s", "--stdi"])
def test_ff1_update_ref_stdin_prefix_asks(tmp_path: Path, option: str) -> None:
    workspace, env = _tracked(tmp_path)
    approval = _suggests("git update-ref refs/heads/wip HEAD", workspace, env)
    line = f"echo 'update refs/tags/v1 HEAD:.env' | git update-ref {option}"
    _asks(line, workspace, env, "engine.git-object-swap", approval)
    assert run_printed(line, workspace, env) == ""
    shown = run_printed("git for-each-ref --format='%(raw)' refs/tags", workspace, env)
    assert "CANARY_FF_TRACKED" in shown
    _asks("git for-each-ref --format='%(raw)' refs/tags", workspace, env,
          "engine.git-raw-format")  # fmt: skip
    _allows("git for-each-ref --format='%(refname) %(objectname)'", workspace, env)
    for fine in ("git update-ref refs/heads/wip HEAD", "git update-ref --no-deref ORIG_HEAD HEAD",
                 "git update-ref --create-reflog refs/heads/x HEAD"):  # fmt: skip
        _allows(fine, workspace, env, approval)


def _blob(workspace: Path, env: dict[str, str]) -> str:
    return _git(workspace, env, "rev-parse", "HEAD:.env")


@pytest.mark.parametrize(
    "line", ["git fetch . {id}:refs/tags/v1", "git fetch . +{id}:refs/tags/v1"]
)
def test_ff2_fetch_of_a_blob_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _tracked(tmp_path)
    line = line.format(id=_blob(workspace, env))
    _asks(line, workspace, env, "engine.git-object-swap", "git fetch")
    run_printed(line, workspace, env)
    shown = run_printed("git for-each-ref --format='%(raw)' refs/tags", workspace, env)
    assert "CANARY_FF_TRACKED" in shown
    # (an approved fetch is allowed from the repository's named network remotes only)
    _git(workspace, env, "remote", "add", "origin", "https://example.invalid/r.git")
    for fine in ("git fetch origin", "git fetch origin main", "git fetch origin main:main",
                 "git fetch --depth 1000 origin main", "git fetch --all --prune",
                 "git pull --rebase origin main"):  # fmt: skip
        _allows(fine, workspace, env, "git fetch", "git pull")


def test_ff2_stash_store_of_a_blob_asks(tmp_path: Path) -> None:
    workspace, env = _tracked(tmp_path)
    line = f"git stash store -m x {_blob(workspace, env)}"
    _asks(line, workspace, env, "engine.git-object-swap", "git stash store")
    run_printed(line, workspace, env)
    shown = run_printed("git for-each-ref --format='%(raw)' refs/stash", workspace, env)
    assert "CANARY_FF_TRACKED" in shown


@pytest.mark.parametrize(
    ("line", "approval", "reader"),
    [("git fetch . refs/stash:refs/heads/y", "git fetch", "git show y^3"),
     ("git fetch . 'refs/*:refs/heads/y/*'", "git fetch", "git show y/stash^3"),
     ("git symbolic-ref refs/heads/x refs/stash", "git symbolic-ref", "git log -p -1 x^3"),
     ("git bisect start stash^3 HEAD", "git bisect", "git show refs/bisect/bad")],
)  # fmt: skip
def test_ff3_another_name_for_a_stash_asks(
    tmp_path: Path, line: str, approval: str, reader: str
) -> None:
    workspace, env = _stashed(tmp_path)
    _asks(line, workspace, env, "engine.git-object-swap", approval)
    # (judged before the line runs: a symbolic ref to the stash beside it makes every
    # revision given to a writer ask, review FR6)
    for fine in ("git symbolic-ref HEAD", "git symbolic-ref HEAD refs/heads/main",
                 "git bisect start HEAD HEAD~1", "git bisect good",
                 "git bisect reset"):  # fmt: skip
        _allows(fine, workspace, env, "git symbolic-ref", "git bisect")
    run_printed(line, workspace, env)
    assert "CANARY_FF_STASHED" in run_printed(reader, workspace, env)


@pytest.mark.parametrize("data", ["--data", "--no-no-data"])
def test_ff4_fast_export_data_after_no_data_asks(tmp_path: Path, data: str) -> None:
    workspace, env = _tracked(tmp_path)
    approval = _suggests("git fast-export --no-data HEAD", workspace, env)
    line = f"git fast-export --no-data {data} HEAD"
    assert "CANARY_FF_TRACKED" in run_printed(line, workspace, env)
    _asks(line, workspace, env, "engine.git-tracked", approval)
    _allows("git fast-export --data --no-data HEAD", workspace, env, approval)


def test_ff5_bisect_view_command_asks(tmp_path: Path) -> None:
    workspace, env = _tracked(tmp_path)
    approval = _suggests("git bisect log", workspace, env)
    _git(workspace, env, "bisect", "start", "HEAD", "HEAD~2")
    line = "git bisect view fast-export"
    assert "CANARY_FF_TRACKED" in run_printed(line, workspace, env)
    _asks(line, workspace, env, "engine.git-bisect-view", approval)
    tool = "git bisect view difftool -y -x 'echo RAN_FF5 >&2'"
    assert "RAN_FF5" in run_printed(tool, workspace, env)
    _asks(tool, workspace, env, "engine.git-bisect-view", approval)
    _allows("git bisect view --stat", workspace, env, approval)


@pytest.mark.parametrize("option", ["--ca", "--cac", "--cacheinfo"])
def test_ff6_update_index_cacheinfo_prefix_asks(tmp_path: Path, option: str) -> None:
    workspace, env = _tracked(tmp_path)
    approval = _suggests("git update-index --refresh", workspace, env)
    line = f"git update-index {option} 100644,{_blob(workspace, env)},README.md"
    _asks(line, workspace, env, "engine.git-object-swap", approval)
    run_printed(line, workspace, env)
    assert "CANARY_FF_TRACKED" in run_printed("git show :README.md", workspace, env)
    _allows("git update-index --refresh", workspace, env, approval)


@pytest.mark.parametrize("line", ["git grep -eSECRET stash^3", "git grep -iweSECRET stash^3",
                                  "git grep -e SECRET stash^3"])  # fmt: skip
def test_ff7_grep_pattern_glued_to_e_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _stashed(tmp_path)
    assert "CANARY_FF_STASHED" in run_printed(line, workspace, env)
    _asks(line, workspace, env, "engine.git-stash")
    for fine in ("git grep stash", "git grep -e stash", "git grep -n -e foo HEAD"):
        _allows(fine, workspace, env)


def _nested(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """HEAD records `sub` as a gitlink, the index no longer does, and `sub/` is a nested
    repository that tracks `.env` (review FF's ws7)."""
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (workspace / "README.md").write_text("hi\n")
    _git(workspace, env, "init", "-q", ".")
    _git(workspace, env, "add", "README.md")
    _git(workspace, env, "commit", "-qm", "one")
    sub = workspace / "sub"
    (sub / "a.txt").write_text("a\n")
    (sub / ".env").write_text("SUBSECRET=CANARY_FF_SUB\n")
    _git(sub, env, "init", "-q", ".")
    _git(sub, env, "add", "-f", "a.txt", ".env")
    _git(sub, env, "commit", "-qm", "s")
    _git(workspace, env, "add", "sub")
    _git(workspace, env, "commit", "-qm", "gitlink")
    _git(workspace, env, "rm", "-q", "--cached", "sub")
    return workspace, env


@pytest.mark.parametrize("where", ["repository", "global"])
@pytest.mark.parametrize("line", ["git show", "git diff --cached", "git log -p -1"])
def test_ff8_submodule_setting_with_a_gitlink_in_head_asks(
    tmp_path: Path, where: str, line: str
) -> None:
    workspace, env = _nested(tmp_path)
    if where == "repository":
        _git(workspace, env, "config", "diff.submodule", "diff")
    else:
        (tmp_path / "home" / ".gitconfig").write_text("[diff]\n\tsubmodule = diff\n")
    assert "CANARY_FF_SUB" in run_printed(line, workspace, env)
    _asks(line, workspace, env, "engine.git-submodule-diff")


@pytest.mark.skipif(shutil.which("unzip") is None, reason="needs UnZip")
def test_ff9_unzip_list_with_t_asks(tmp_path: Path) -> None:
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    archive = workspace / "x.zip"
    with zipfile.ZipFile(archive, "w") as made:
        made.writestr(zipfile.ZipInfo("a.txt", (2000, 1, 1, 0, 0, 0)), "a\n")
    os.utime(archive, (0, 0))
    run_printed("unzip -lT x.zip", workspace, env)
    assert archive.stat().st_mtime > 0  # (set to the newest member's time)
    assert decide("unzip -lT x.zip", workspace, env).verdict is Verdict.ASK
    _allows("unzip -l x.zip", workspace, env)


@pytest.mark.parametrize("line", ["command -pv ls", "command -pV ls", "command -v -p ls"])
def test_ff10_command_p_with_v_only_prints(tmp_path: Path, line: str) -> None:
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "ran").write_text("")
    printed = run_printed(line, workspace, env)
    assert "/ls" in printed
    assert "ran" not in printed  # (a path, not a listing)
    _allows(line, workspace, env)
    assert decide("command -p rm -v x", workspace, env).verdict is Verdict.ASK


def test_ff3_a_stash_by_its_id_asks_where_a_stash_exists(tmp_path: Path) -> None:
    workspace, env = _stashed(tmp_path)
    approval = _suggests("git bisect log", workspace, env)
    stashed = _git(workspace, env, "rev-parse", "stash^3")
    line = f"git bisect start {stashed} HEAD~1"
    _asks(line, workspace, env, "engine.git-object-swap", approval)
    run_printed(line, workspace, env)
    assert "CANARY_FF_STASHED" in run_printed("git show refs/bisect/bad", workspace, env)
    _git(workspace, env, "bisect", "reset")
    _git(workspace, env, "stash", "clear")
    older = _git(workspace, env, "rev-parse", "HEAD~1")
    _allows(f"git bisect start HEAD {older}", workspace, env, approval)
