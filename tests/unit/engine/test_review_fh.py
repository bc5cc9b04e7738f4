"""Review FH, of the session's last fixes.

FH1: `%(*raw)` prints the object an annotated tag points at, a blob of `.env` too.
FH2: `git clone X.bundle` names its folder without `.bundle` (`.vscode.bundle` wrote
`.vscode/tasks.json`). FH3: `git worktree add DIR stash` checks out a stash's commit, whose
untracked `.env` a later `git log -p` prints. FH4: `git bisect--helper run CMD`, git's
internal command behind `git bisect`, ran CMD under its own approval. FH5: `git worktree
remove link`, a committed link to a worktree elsewhere, removed that worktree."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
        "-c", "protocol.file.allow=always"]  # fmt: skip


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run([*_GIT, *args], cwd=cwd, check=True, timeout=60,
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout


def _env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "home").mkdir(exist_ok=True)
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


def _repository(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("SECRET=CANARY_FH\n")
    (workspace / "README").write_text("hi\n")
    _git(workspace, "init", "-q", "-b", "main", ".")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "x")
    return workspace


@pytest.mark.parametrize(
    "line",
    ["git for-each-ref --format='%(*raw)' refs/tags", "git tag -l --format='%(*raw)'"],
)
def test_fh1_a_dereferenced_raw_format_asks(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    blob = _git(workspace, "rev-parse", "HEAD:.env").strip()
    _git(workspace, "tag", "-a", "-m", "t", "v1", blob)  # (a tag of the blob, made before)
    decision = decide(line, workspace, _env(tmp_path))
    assert decision.verdict is Verdict.ASK, decision.explain()
    ran = subprocess.run(["bash", "-c", line], cwd=workspace, capture_output=True, text=True,
                         timeout=60)  # fmt: skip
    assert "CANARY_FH" in ran.stdout


@pytest.mark.parametrize("url", [".vscode.bundle", "x/.vscode.bundle", "./.vscode.bundle"])
def test_fh2_a_bundle_cloned_into_a_protected_folder_asks(tmp_path: Path, url: str) -> None:
    source = tmp_path / "src"
    (source / ".vscode").mkdir(parents=True)
    (source / ".vscode" / "tasks.json").write_text('{"tasks": []}\n')
    (source / "tasks.json").write_text('{"tasks": ["CANARY"]}\n')
    _git(source, "init", "-q", "-b", "main", ".")
    _git(source, "add", "-A")
    _git(source, "commit", "-qm", "x")
    workspace = tmp_path / "ws"
    (workspace / "x").mkdir(parents=True)
    bundle = workspace / url
    _git(source, "bundle", "create", "-q", str(bundle), "HEAD", "main")
    env = _env(tmp_path)
    approval = decide("git clone https://github.com/a/b", workspace, env).suggested_rule
    assert approval == "git clone"
    decision = decide(f"git clone {url}", workspace, env, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    _git(workspace, "clone", "-q", url)
    assert (workspace / ".vscode" / "tasks.json").exists()  # what git did


def _stashed_untracked(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README").write_text("hi\n")
    _git(workspace, "init", "-q", "-b", "main", ".")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "x")
    (workspace / ".env").write_text("SECRET=CANARY_FH3\n")
    _git(workspace, "stash", "-q", "-u")
    return workspace


@pytest.mark.parametrize("revision", ["stash", "stash^3", "ID"])
def test_fh3_a_worktree_of_a_stash_asks(tmp_path: Path, revision: str) -> None:
    workspace = _stashed_untracked(tmp_path)
    if revision == "ID":
        revision = _git(workspace, "rev-parse", "stash^3").strip()
    env = _env(tmp_path)
    approval = decide("git worktree add ../wt", workspace, env).suggested_rule
    assert approval == "git worktree add"
    line = f"git worktree add -b y ../wt2 {revision}"
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    _git(workspace, "worktree", "add", "-q", "-b", "y", "../wt2", revision)
    assert "CANARY_FH3" in _git(workspace, "log", "-p", "-m", "y")


def test_fh4_git_s_internal_bisect_command_asks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    env = _env(tmp_path)
    for line in ("git bisect--helper run sh t.sh", "git submodule--helper update --force"):
        decision = decide(line, workspace, env, "git bisect--helper", "git submodule--helper")
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.suggested_rule is None


def test_fh5_a_worktree_removed_through_a_link_asks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    (workspace / ".gitignore").write_text(".env.local\n")
    _git(workspace, "add", ".gitignore")
    _git(workspace, "commit", "-qm", "ignore")
    _git(workspace, "worktree", "add", "-q", "../ext-wt")
    (tmp_path / "ext-wt" / ".env.local").write_text("SECRET=CANARY_FH5\n")
    (workspace / "link").symlink_to("../ext-wt")
    env = _env(tmp_path)
    approval = decide("git worktree remove wt2", workspace, env).suggested_rule
    assert approval == "git worktree remove"
    decision = decide("git worktree remove link", workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run([*_GIT, "worktree", "remove", "link"], cwd=workspace, timeout=60,
                   capture_output=True, check=False)  # fmt: skip
    assert not (tmp_path / "ext-wt" / ".env.local").exists()  # what git did
