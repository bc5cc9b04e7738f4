"""Review FB: git commands that rewrite the work tree, under the approval the engine
suggests for the innocent form of the verb. Patch mode with no pathspec
(`yes | git checkout -p`, FB1), `git read-tree -u --reset` (FB2), a protected file written
through its folder from a branch (`git checkout evil -- .vscode`, FB3), forced submodule
updates (FB4), `git worktree remove -f` (FB5), `git sparse-checkout set` (FB6),
`git rebase --abort` (FB7) and a staged filled-in `.env` replaced by a commit's version
(FB8) had been allowed, and each lost a secret or wrote `.vscode/tasks.json`; they ask now.
`git restore --staged` alone leaves the work tree (FB9): no ask for its changes."""

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


def _run(line: str, cwd: Path, tmp_path: Path, **more: str) -> subprocess.CompletedProcess[str]:
    """`line` run by a real bash, as the agent would run it."""
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env={**_env(tmp_path), **more},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def _git(cwd: Path, tmp_path: Path, *args: str, input_text: str | None = None) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=_env(tmp_path), capture_output=True, text=True,
        timeout=60, check=True, input=input_text,
    )  # fmt: skip
    return done.stdout


def _repository(tmp_path: Path) -> Path:
    """A committed `.env` and `config/.env` template the user then filled in, a branch
    `other`, `evil` (holding `.vscode/tasks.json`) and `evilflat` (`tasks.json` on top)."""
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    (workspace / "config").mkdir(parents=True)
    (workspace / "src").mkdir()
    (workspace / "config" / ".env").write_text("API_KEY=\n")
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
    flat = flat.strip()
    nested = _git(workspace, tmp_path, "mktree", input_text=f"040000 tree {flat}\t.vscode\n")
    nested = nested.strip()
    for branch, tree in (("evilflat", flat), ("evil", nested)):
        commit = _git(workspace, tmp_path, "commit-tree", "-m", branch, tree).strip()
        _git(workspace, tmp_path, "branch", branch, commit)
    # the user fills in the templates
    (workspace / "config" / ".env").write_text("API_KEY=CANARY_FB_CONFIG\n")
    (workspace / ".env").write_text("API_KEY=CANARY_FB_TOP\n")
    return workspace


def _secrets(workspace: Path) -> str:
    return (workspace / ".env").read_text() + (workspace / "config" / ".env").read_text()


def _approved(innocent: str, workspace: Path, tmp_path: Path) -> str:
    """The approval the engine suggests for the innocent line."""
    suggested = decide(innocent, workspace, _env(tmp_path)).suggested_rule
    assert suggested is not None, innocent
    return suggested


def _asks(line: str, workspace: Path, tmp_path: Path, approval: str) -> None:
    decision = decide(line, workspace, _env(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("innocent", "line"),
    [("git checkout README", "git checkout -p"), ("git checkout README", "git checkout -qp"),
     ("git checkout README", "git checkout --patch HEAD"),
     ("git checkout README", "git checkout -p --"), ("git restore README", "git restore -p"),
     ("git restore README", "git restore -Wp"),
     ("git restore README", "git restore -p -s HEAD~0")],
)  # fmt: skip
def test_fb1_patch_mode_without_a_pathspec_asks(
    tmp_path: Path, innocent: str, line: str
) -> None:
    workspace = _repository(tmp_path)
    approval = _approved(innocent, workspace, tmp_path)
    _asks(f"yes | {line}", workspace, tmp_path, approval)
    assert _run(f"yes | {line}", workspace, tmp_path).returncode == 0
    assert "CANARY" not in _secrets(workspace)  # what git did: both secrets lost


@pytest.mark.parametrize("line", ["git read-tree -u --reset HEAD", "git read-tree --reset -u HEAD"])
def test_fb2_read_tree_update_asks(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    approval = _approved("git read-tree HEAD", workspace, tmp_path)
    _asks(line, workspace, tmp_path, approval)
    assert _run(line, workspace, tmp_path).returncode == 0
    assert "CANARY" not in _secrets(workspace)


@pytest.mark.parametrize(
    ("innocent", "line"),
    [("git checkout README", "git checkout evil -- .vscode"),
     ("git restore README", "git restore -s evil .vscode"),
     ("git worktree add wt other", "git worktree add .vscode evilflat"),
     ("git read-tree HEAD", "git read-tree --prefix=.vscode/ -u evilflat")],
)  # fmt: skip
def test_fb3_a_protected_file_written_through_its_folder_asks(
    tmp_path: Path, innocent: str, line: str
) -> None:
    workspace = _repository(tmp_path)
    approval = _approved(innocent, workspace, tmp_path)
    decision = decide(line, workspace, _env(tmp_path), approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert _run(line, workspace, tmp_path).returncode == 0
    assert "folderOpen" in (workspace / ".vscode" / "tasks.json").read_text()


def _submodule(tmp_path: Path) -> Path:
    """A workspace whose submodule `sub` tracks a `.env` template the user filled in."""
    (tmp_path / "home").mkdir()
    source, workspace = tmp_path / "subsrc", tmp_path / "ws"
    source.mkdir()
    workspace.mkdir()
    (source / ".env").write_text("TOKEN=\n")
    _git(source, tmp_path, "init", "-q", ".")
    _git(source, tmp_path, "add", "-A")
    _git(source, tmp_path, "commit", "-qm", "s")
    (workspace / "README").write_text("hi\n")
    _git(workspace, tmp_path, "init", "-q", ".")
    _git(workspace, tmp_path, "add", "README")
    _git(workspace, tmp_path, "commit", "-qm", "a")
    _git(workspace, tmp_path, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
         str(source), "sub")  # fmt: skip
    _git(workspace, tmp_path, "commit", "-qm", "sub")
    (workspace / "sub" / ".env").write_text("TOKEN=CANARY_FB_SUB\n")
    return workspace


@pytest.mark.parametrize(
    ("innocent", "line"),
    [("git submodule update", "git submodule update --force"),
     ("git submodule update", "git submodule update --checkout -f"),
     ("git submodule deinit sub", "git submodule deinit -f sub")],
)  # fmt: skip
def test_fb4_forced_submodule_updates_ask(tmp_path: Path, innocent: str, line: str) -> None:
    workspace = _submodule(tmp_path)
    approval = _approved(innocent, workspace, tmp_path)
    _asks(line, workspace, tmp_path, approval)
    assert _run(line, workspace, tmp_path).returncode == 0
    secret = workspace / "sub" / ".env"
    assert not secret.exists() or "CANARY" not in secret.read_text()


@pytest.mark.parametrize("line", ["git worktree remove -f wt", "git worktree remove --force wt"])
def test_fb5_a_forced_worktree_removal_asks(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    _git(workspace, tmp_path, "worktree", "add", "-q", "wt", "other")
    (workspace / "wt" / "config" / ".env").write_text("API_KEY=CANARY_FB_WT\n")
    approval = _approved("git worktree remove wt", workspace, tmp_path)
    _asks(line, workspace, tmp_path, approval)
    assert _run(line, workspace, tmp_path).returncode == 0
    assert not (workspace / "wt").exists()


def test_fb5_a_plain_worktree_removal_over_an_ignored_secret_asks(tmp_path: Path) -> None:
    # (beyond the review: git removes a worktree whose only untracked files are ignored)
    workspace = _repository(tmp_path)
    _git(workspace, tmp_path, "worktree", "add", "-q", "wt", "other")
    (workspace / "wt" / "config" / ".env").write_text("API_KEY=\n")
    (workspace / ".git" / "info" / "exclude").write_text(".env.local\n")
    (workspace / "wt" / ".env.local").write_text("API_KEY=CANARY_FB_LOCAL\n")
    _asks("git worktree remove wt", workspace, tmp_path, "git worktree remove")
    assert _run("git worktree remove wt", workspace, tmp_path).returncode == 0
    assert not (workspace / "wt" / ".env.local").exists()


@pytest.mark.parametrize(
    "line", ["git sparse-checkout set --sparse-index src", "git sparse-checkout init --cone"]
)
def test_fb6_sparse_checkout_asks(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    (workspace / "deploy").mkdir()
    (workspace / "deploy" / ".gitignore").write_text(".env\n")
    _git(workspace, tmp_path, "add", "deploy/.gitignore")
    _git(workspace, tmp_path, "commit", "-qm", "deploy")
    (workspace / "deploy" / ".env").write_text("API_KEY=CANARY_FB_DEPLOY\n")
    # (the approval the engine had suggested for `git sparse-checkout add src`; it now
    # suggests none)
    _asks(line, workspace, tmp_path, "git sparse-checkout")
    assert _run(line, workspace, tmp_path).returncode == 0
    _git(workspace, tmp_path, "sparse-checkout", "disable")
    assert not (workspace / "deploy" / ".env").exists()


def _rebasing(tmp_path: Path) -> Path:
    """A real `git rebase -i` stopped at `edit`; the user fills in the templates meanwhile."""
    workspace = _repository(tmp_path)
    for name in (".env", "config/.env"):
        _git(workspace, tmp_path, "checkout", "--", name)
    (workspace / "src" / "a.py").write_text("x = 2\n")
    _git(workspace, tmp_path, "commit", "-qam", "two")
    done = _run("git rebase -i HEAD~1", workspace, tmp_path,
                GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (workspace / ".git" / "rebase-merge").is_dir()
    (workspace / "config" / ".env").write_text("API_KEY=CANARY_FB_CONFIG\n")
    (workspace / ".env").write_text("API_KEY=CANARY_FB_TOP\n")
    return workspace


@pytest.mark.parametrize("line", ["git rebase --abort", "git rebase --skip"])
def test_fb7_a_rebase_abort_or_skip_asks(tmp_path: Path, line: str) -> None:
    workspace = _rebasing(tmp_path)
    approval = _approved("git rebase main", workspace, tmp_path)
    _asks(line, workspace, tmp_path, approval)
    assert _run(line, workspace, tmp_path).returncode == 0
    assert "CANARY" not in _secrets(workspace)


@pytest.mark.parametrize(
    ("approval", "line"),
    [("git checkout", "git checkout HEAD -- config"), ("git restore", "git restore -s HEAD config"),
     ("git restore", "git restore --staged --worktree config"),
     ("git checkout", "git checkout HEAD config")],
)  # fmt: skip
def test_fb8_a_staged_secret_replaced_by_a_commit_asks(
    tmp_path: Path, approval: str, line: str
) -> None:
    workspace = _repository(tmp_path)
    _git(workspace, tmp_path, "add", "config/.env")  # the index now holds the secret
    assert _approved(f"{approval} README", workspace, tmp_path) == approval
    _asks(line, workspace, tmp_path, approval)
    assert _run(line, workspace, tmp_path).returncode == 0
    assert "CANARY" not in (workspace / "config" / ".env").read_text()


@pytest.mark.parametrize("line", ["git restore --staged config", "git restore -S config"])
def test_fb9_restore_staged_alone_keeps_the_work_tree(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    decision = decide(line, workspace, _env(tmp_path), "git restore")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    assert _run(line, workspace, tmp_path).returncode == 0
    assert "CANARY_FB_CONFIG" in (workspace / "config" / ".env").read_text()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("git checkout", "git checkout -- src"), ("git checkout", "git checkout HEAD -- src"),
     ("git checkout", "git checkout -p -- src"), ("git checkout", "git checkout other"),
     ("git restore", "git restore src/a.py"), ("git restore", "git restore -s HEAD src"),
     ("git read-tree", "git read-tree HEAD"), ("git rebase", "git rebase --continue"),
     ("git worktree add", "git worktree add wt other")],
)  # fmt: skip
def test_everyday_forms_stay_approved(tmp_path: Path, approval: str, line: str) -> None:
    workspace = _repository(tmp_path)
    decision = decide(line, workspace, _env(tmp_path), approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def _flat_repository(tmp_path: Path) -> Path:
    """A repository `src` (outside the workspace) with `tasks.json` at its top."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "tasks.json").write_text(_TASKS)
    _git(source, tmp_path, "init", "-q", ".")
    _git(source, tmp_path, "add", "-A")
    _git(source, tmp_path, "commit", "-qm", "flat")
    return source


@pytest.mark.parametrize(
    ("innocent", "line"),
    [("git submodule add ../src lib", "git submodule add ../src .vscode"),
     ("git worktree move wt wt2", "git worktree move wt .vscode")],
)  # fmt: skip
def test_fb3_beyond_the_review_other_verbs_writing_a_folder_ask(
    tmp_path: Path, innocent: str, line: str
) -> None:
    # (beyond the review: the same folder write through `submodule add` and `worktree move`)
    workspace = _repository(tmp_path)
    _flat_repository(tmp_path)
    _git(workspace, tmp_path, "worktree", "add", "-q", "wt", "evilflat")
    approval = _approved(innocent, workspace, tmp_path)
    decision = decide(line, workspace, _env(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    allow_file = "'protocol.file.allow'='always'"
    assert _run(line, workspace, tmp_path, GIT_CONFIG_PARAMETERS=allow_file).returncode == 0
    assert "folderOpen" in (workspace / ".vscode" / "tasks.json").read_text()


def _refreshed(tree: Path, tmp_path: Path) -> None:
    """The index of `tree` holding the stat data of its files as they are, written after
    them: what git has after any `git status` there. (The engine judges a tracked file by
    its stat data alone, review FD3: an entry staged as late as the index was written
    may differ with equal stat data, until the index is written again.)"""
    time.sleep(0.05)
    _git(tree, tmp_path, "update-index", "-q", "--refresh")


def test_a_submodule_or_worktree_elsewhere_stays_approved(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    _git(workspace, tmp_path, "worktree", "add", "-q", "wt", "evilflat")  # (no secret in it)
    env = _env(tmp_path)
    assert decide("git submodule add ../src vendor/lib", workspace, env, "git submodule add"
                  ).verdict is Verdict.ALLOW  # fmt: skip
    assert decide("git worktree move wt wt2", workspace, env, "git worktree move"
                  ).verdict is Verdict.ALLOW  # fmt: skip
    # a worktree whose protected files are tracked as they are: git keeps them
    _git(workspace, tmp_path, "worktree", "add", "-q", "wt3", "other")
    _refreshed(workspace / "wt3", tmp_path)
    assert decide("git worktree remove wt3", workspace, env, "git worktree remove"
                  ).verdict is Verdict.ALLOW  # fmt: skip


def test_fb4_beyond_the_review_a_plain_deinit_over_an_ignored_secret_asks(
    tmp_path: Path,
) -> None:
    # (beyond the review: `git submodule deinit sub` clears a clean submodule's folder,
    # its ignored files too)
    workspace = _submodule(tmp_path)
    (workspace / "sub" / ".env").write_text("TOKEN=\n")
    (workspace / ".git" / "modules" / "sub" / "info" / "exclude").write_text(".env.local\n")
    (workspace / "sub" / ".env.local").write_text("TOKEN=CANARY_FB_LOCAL\n")
    approval = _approved("git submodule deinit sub", workspace, tmp_path)
    for line in ("git submodule deinit sub", "git submodule -q deinit sub"):
        _asks(line, workspace, tmp_path, approval)
    assert _run("git submodule deinit sub", workspace, tmp_path).returncode == 0
    assert not (workspace / "sub" / ".env.local").exists()


def test_a_clean_submodule_deinit_stays_approved(tmp_path: Path) -> None:
    workspace = _submodule(tmp_path)
    _git(workspace / "sub", tmp_path, "checkout", "-q", "--", ".env")  # the template back
    _refreshed(workspace / "sub", tmp_path)
    env = _env(tmp_path)
    decision = decide("git submodule deinit sub", workspace, env, "git submodule deinit")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
