"""Review FJ, git doors left unexamined (real git 2.39, each line under the approval the
engine suggests for its innocent form).

FJ1: `git difftool --no-ext-diff` is `git diff` (difftool passes the options it does not
define to it): it printed a tracked `.env`, and a stash. FJ2: a stash's commit given by id
to `git merge`, `reset --soft`, `checkout`, `read-tree` … joined the history a bare
`git log -p` prints (and `git push` sends). FJ3: patch mode prints the hunks of every file
in scope before it asks anything: `git reset -p TREE`, `git restore -p --staged -s TREE`,
`git stash push -p`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _environment(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "home").mkdir(exist_ok=True)
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


def _run(tmp_path: Path, line: str) -> str:
    """What a real bash printed running `line` in the workspace, stdin at its end."""
    env = {**_environment(tmp_path), "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_PAGER": "cat"}  # fmt: skip
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path / "ws", env=env, timeout=60,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)  # fmt: skip
    return done.stdout + done.stderr


def _repository(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    _run(tmp_path, "git init -q -b main . && echo hello > README.md && git add README.md"
                   " && git commit -qm init")  # fmt: skip
    return workspace


def _filled_template(tmp_path: Path) -> Path:
    """A tracked `.env` template: HEAD holds one secret, the work tree another."""
    workspace = _repository(tmp_path)
    _run(tmp_path, "echo SECRET=CANARY_COMMITTED_FJ > .env && echo more >> README.md"
                   " && git add -A && git commit -qm second"
                   " && echo SECRET=CANARY_LOCAL_FJ > .env")  # fmt: skip
    return workspace


def _tracked_clean(tmp_path: Path) -> Path:
    """One commit tracks `.env`, never changed; the work tree is clean."""
    workspace = _repository(tmp_path)
    _run(tmp_path, "echo SECRET=CANARY_TRACKED_FJ > .env && git add .env"
                   " && git commit -qm env")  # fmt: skip
    return workspace


def _stashed(tmp_path: Path) -> Path:
    """An untracked `.env` put aside with `git stash -u`."""
    workspace = _repository(tmp_path)
    _run(tmp_path, "echo more >> README.md && git commit -qam second"
                   " && echo SECRET=CANARY_STASHED_FJ > .env && git stash -q -u")  # fmt: skip
    return workspace


def _approval(innocent: str, workspace: Path, env: dict[str, str]) -> str:
    decision = decide(innocent, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is not None, decision.explain()
    return decision.suggested_rule


@pytest.mark.parametrize(
    ("line", "printed"),
    [
        ("git difftool --no-ext-diff HEAD~1", "CANARY_LOCAL_FJ"),
        ("git difftool --no-ext-diff", "CANARY_COMMITTED_FJ"),
        ("git difftool --no-ext-diff --output=notes.txt HEAD~1; cat notes.txt", "CANARY_LOCAL_FJ"),
    ],
)
def test_fj1_difftool_without_its_helper_is_git_diff(
    tmp_path: Path, line: str, printed: str
) -> None:
    workspace = _filled_template(tmp_path)
    env = _environment(tmp_path)
    approval = _approval("git difftool HEAD~1", workspace, env)
    assert approval == "git difftool"
    command = line.partition(";")[0]
    decision = decide(command, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.git-tracked" in decision.explain()
    assert printed in _run(tmp_path, line)  # what git did


def test_fj1_difftool_of_a_stash_asks(tmp_path: Path) -> None:
    workspace = _stashed(tmp_path)
    env = _environment(tmp_path)
    approval = _approval("git difftool HEAD~1", workspace, env)
    line = "git difftool --no-ext-diff stash^3"
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "CANARY_STASHED_FJ" in _run(tmp_path, line)
    # (a plain difftool of history without secrets stays approved)
    assert decide("git difftool HEAD~1", workspace, env, approval).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("innocent", "line"),
    [
        ("git reset --soft HEAD", f"git reset -p {_EMPTY_TREE}"),
        ("git reset --soft HEAD", f"git reset --patch {_EMPTY_TREE}"),
        ("git reset --soft HEAD", f"git reset --patc {_EMPTY_TREE} -- ."),
        ("git restore README.md", f"git restore -p -S -s {_EMPTY_TREE}"),
        ("git restore README.md", f"git restore -pSs {_EMPTY_TREE}"),
        ("git restore README.md", f"git restore --patch --staged --source {_EMPTY_TREE}"),
        ("git restore README.md", f"git restore --source={_EMPTY_TREE} --staged -p"),
    ],
)
def test_fj3_patch_mode_against_a_tree_prints_tracked_files(
    tmp_path: Path, innocent: str, line: str
) -> None:
    workspace = _tracked_clean(tmp_path)
    env = _environment(tmp_path)
    approval = _approval(innocent, workspace, env)
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.git-tracked" in decision.explain()
    assert "CANARY_TRACKED_FJ" in _run(tmp_path, line)  # printed, nothing changed
    assert _run(tmp_path, "git status --short") == ""


@pytest.mark.parametrize(
    ("innocent", "line"),
    [
        ("git stash push README.md", "git stash push -p"),
        ("git stash push README.md", "git stash push --patch -m x"),
        ("git stash push README.md", "git stash push -kp -- ."),
        ("git stash save x", "git stash save -p x"),
    ],
)
def test_fj3_stash_in_patch_mode_prints_the_changes(
    tmp_path: Path, innocent: str, line: str
) -> None:
    workspace = _filled_template(tmp_path)
    env = _environment(tmp_path)
    approval = _approval(innocent, workspace, env)
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "CANARY_LOCAL_FJ" in _run(tmp_path, line)


def test_fj3_everyday_lines_stay_approved(tmp_path: Path) -> None:
    workspace = _tracked_clean(tmp_path)
    env = _environment(tmp_path)
    approvals = ("git reset", "git restore", "git stash push")
    for line in ("git reset --soft HEAD", "git reset HEAD README.md", "git restore README.md",
                 "git restore --staged README.md", "git stash push -m x README.md"):  # fmt: skip
        decision = decide(line, workspace, env, *approvals)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


# each line, its innocent form, and what shows the stash's `.env` in history after it
_BY_ID = [
    ("git merge main", "git merge {S}", "git log -p"),
    ("git merge main", "git merge {S3} --allow-unrelated-histories", "git log -p -m"),
    ("git reset --soft HEAD", "git reset --soft {S}", "git log -p"),
    ("git checkout main", "git checkout {S}", "git log -p"),
    ("git checkout main", "git checkout --detach {S}~0", "git log -p"),
    ("git checkout main", "git checkout -b y {s3}", "git log -p y"),
    ("git switch main", "git switch -c y {S3}", "git log -p y"),
    ("git rebase main", "git rebase {S}", "git log -p"),
    ("git read-tree HEAD", "git read-tree {S3}", "git commit -qm x; git log -p"),
    ("git read-tree HEAD", "git read-tree {S3}^{{tree}}", "git commit -qm x; git log -p"),
    ("git cherry-pick main", "git cherry-pick {S3}", "git log -p"),
    ("git stash apply", "git stash apply {S}", "cat .env"),
    # (the full id: git stash reads an all-digit word as `stash@{N}`, which a short id may be)
    ("git stash branch x", "git stash branch y {S}", "cat .env"),
    ("git commit-tree -m x HEAD^{tree}", "git commit-tree -p {S} -m x HEAD^{{tree}}",
     "git merge -q $(cat out); git log -p"),
    ("git commit-tree -m x HEAD^{tree}", "git commit-tree -p stash -m x HEAD^{{tree}}",
     "git merge -q $(cat out); git log -p"),
    # review FN1: these verbs take commits after `--` too
    ("git merge main", "git merge -- {S}", "git log -p"),
    ("git rebase main", "git rebase -- {S}", "git log -p"),
    ("git switch main", "git switch -c z -- {S}", "git log -p z"),
    ("git cherry-pick main", "git cherry-pick -- {S3}", "git log -p"),
    ("git read-tree HEAD", "git read-tree -- {S3}", "git commit -qm x; git log -p"),
    ("git stash apply", "git stash apply -- {S}", "cat .env"),
    # review FN3: `ID:` is the commit's tree
    ("git read-tree HEAD", "git read-tree {S3}:", "git commit -qm x; git log -p"),
    ("git reset --soft HEAD", "git reset {S3}: -- .", "git commit -qm x; git log -p"),
]  # fmt: skip


@pytest.mark.parametrize(("innocent", "line", "after"), _BY_ID)
def test_fj2_a_stash_by_id_asks(tmp_path: Path, innocent: str, line: str, after: str) -> None:
    workspace = _stashed(tmp_path)
    env = _environment(tmp_path)
    approval = _approval(innocent, workspace, env)
    ids = {
        "S": _run(tmp_path, "git rev-parse stash").strip(),
        "S3": _run(tmp_path, "git rev-parse stash^3").strip(),
    }
    ids.update(s=ids["S"][:8], s3=ids["S3"][:7])
    command = line.format(**ids)
    decision = decide(command, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    _run(tmp_path, f"{command} > out")
    assert "CANARY_STASHED_FJ" in _run(tmp_path, after)  # the stash's `.env` got out


def test_fj2_lines_without_an_id_stay_approved(tmp_path: Path) -> None:
    workspace = _stashed(tmp_path)
    env = _environment(tmp_path)
    approvals = ("git merge", "git reset", "git checkout", "git stash apply",
                 "git commit-tree")  # fmt: skip
    for line in ("git merge main", "git reset --soft HEAD~1", "git checkout main",
                 "git stash apply", "git commit-tree -m x HEAD^{tree}"):  # fmt: skip
        decision = decide(line, workspace, env, *approvals)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["git diff {S3}:", "git diff HEAD {S3}:", "git grep . {s3}:", "git diff-tree -p HEAD {S3}:"],
)
def test_fn2_a_stash_tree_by_id_asks_bare(tmp_path: Path, line: str) -> None:
    """Review FN2: `ID:` (a commit's tree, the path empty) printed the stash's `.env`."""
    workspace = _stashed(tmp_path)
    env = _environment(tmp_path)
    full = _run(tmp_path, "git rev-parse stash^3").strip()
    command = line.format(S3=full, s3=full[:7])
    decision = decide(command, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "CANARY_STASHED_FJ" in _run(tmp_path, command)
