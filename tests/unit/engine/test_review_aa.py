"""Fixer AA: reviews GB6, FY4 and FW5.

GB6: in a linked worktree (`git worktree add`) of a repository with an initialised
submodule, every git line asked: the main checkout's submodule git directory
(`.git/modules/sub`) has `core.worktree = ../../../sub`, outside the workspace, though no
command run in the linked worktree uses it (git keeps that worktree's submodules in
`.git/worktrees/NAME/modules/`). FY4: a hard link `leak.py` on the inode of `.env` was
printed by an approved `ruff check .` (and by `rg KEY`, which skips the hidden `.env`).
FW5: under ci, `make $T` asked where ci denies (nobody answers an ask there), the
explanation said an exception "applies" where it only may, and readonly denied
`echo -- -e x`, which bash prints as it stands."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, env_beside, git_ok, printed, run_real

from policylang import Verdict
from policylang.engine.policy import Policy, load_policy, shipped_ruleset

_FILE = "protocol.file.allow=always"  # (a submodule cloned from a local folder)


def _linked_worktree(tmp_path: Path) -> tuple[Path, Path]:
    """`main`, a clone-like repository with the submodule `sub` initialised, and `wt`, a
    linked worktree of it (the submodule not populated there): (main, wt)."""
    (tmp_path / "home").mkdir()
    source, main = tmp_path / "subsrc", tmp_path / "main"
    for folder in (source, main):
        folder.mkdir()
        git_ok(folder, "init", "-q", "-b", "main")
        (folder / "f.txt").write_text("x\n")
        git_ok(folder, "add", "f.txt")
        git_ok(folder, "commit", "-qm", "first")
    git_ok(main, "-c", _FILE, "submodule", "add", "-q", "../subsrc", "sub")
    git_ok(main, "commit", "-qm", "sub")
    git_ok(main, "worktree", "add", "-q", "../wt")
    return main, tmp_path / "wt"


def _verdict(line: str, workspace: Path, *approvals: str) -> Verdict:
    return decide(line, workspace, env_beside(workspace.parent), *approvals).verdict


def test_gb6_git_in_a_linked_worktree_of_a_repository_with_a_submodule(tmp_path: Path) -> None:
    main, wt = _linked_worktree(tmp_path)
    config = (main / ".git" / "modules" / "sub" / "config").read_text()
    assert "worktree = ../../../sub" in config  # the main checkout's, outside `wt`
    assert run_real(["git", "status"], wt).returncode == 0
    for line in ("git status", "git log -p", "git diff"):
        assert _verdict(line, wt) is Verdict.ALLOW, line
    # populated here, git keeps its git directory below `worktrees/wt/`, `core.worktree`
    # naming `wt/sub`: still a submodule's own checkout
    git_ok(wt, "-c", _FILE, "submodule", "update", "--init", "-q")
    assert (main / ".git" / "worktrees" / "wt" / "modules" / "sub" / "HEAD").exists()
    assert _verdict("git status", wt) is Verdict.ALLOW


def test_gb6_a_submodule_here_on_the_main_checkouts_git_directory_asks(tmp_path: Path) -> None:
    main, wt = _linked_worktree(tmp_path)
    (wt / "sub" / ".git").write_text("gitdir: ../../main/.git/modules/sub\n")
    # git then works in the main checkout's `sub`, outside the workspace
    shown = printed(["git", "rev-parse", "--show-toplevel"], wt / "sub").strip()
    assert shown == str(main / "sub")
    assert _verdict("git status", wt) is Verdict.ASK
    # and a worktree's own submodule git directory naming a tree outside asks as well
    os.remove(wt / "sub" / ".git")
    own = main / ".git" / "worktrees" / "wt" / "modules"
    shutil.copytree(main / ".git" / "modules", own)
    assert _verdict("git status", wt) is Verdict.ASK


def _hard_linked(tmp_path: Path) -> Path:
    workspace, _ = canary_workspace(tmp_path, "DB_PASS=CANARY_ENV\n", {"app.py": "x = 1\n"})
    return workspace


_RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.skipif(not _RUFF.exists() or shutil.which("rg") is None, reason="ruff, rg")
def test_fy4_a_hard_link_of_env_reads_as_env(tmp_path: Path) -> None:
    workspace = _hard_linked(tmp_path)
    # without one, the everyday lines stay allowed
    assert _verdict("ruff check .", workspace, "ruff check") is Verdict.ALLOW
    assert _verdict("rg DB_PASS", workspace) is Verdict.ALLOW
    os.link(workspace / ".env", workspace / "leak.py")
    assert "CANARY_ENV" in printed([str(_RUFF), "check", "--no-cache", "."], workspace)
    assert "CANARY_ENV" in printed(["rg", "DB_PASS"], workspace)
    assert _verdict("ruff check .", workspace, "ruff check") is Verdict.DENY
    assert _verdict("ruff check", workspace, "ruff check") is Verdict.DENY
    assert _verdict("rg DB_PASS", workspace) is Verdict.DENY
    assert _verdict("grep -r DB_PASS .", workspace) is Verdict.DENY


def test_fy4_hard_links_of_other_files_stay_allowed(tmp_path: Path) -> None:
    workspace = _hard_linked(tmp_path)
    os.link(workspace / "app.py", workspace / "copy.py")
    assert _verdict("ruff check .", workspace, "ruff check") is Verdict.ALLOW
    assert _verdict("rg DB_PASS", workspace) is Verdict.ALLOW


def _policy(name: str) -> Policy:
    return load_policy(shipped_ruleset(name))


def _judged(policy: Policy, line: str, workspace: Path) -> Verdict:
    return policy.evaluate(line, workspace=str(workspace), env=env_beside(workspace.parent)).verdict


@pytest.mark.parametrize("line", ['make $T', 'npm "$X"', "pip $X", "pip3 $X"])
def test_fw5_ci_denies_what_its_unless_cannot_decide(tmp_path: Path, line: str) -> None:
    workspace = _hard_linked(tmp_path)
    assert _judged(_policy("default"), line, workspace) is Verdict.ASK
    for name in ("ci", "readonly"):
        decision = _policy(name).evaluate(
            line, workspace=str(workspace), env={"HOME": str(tmp_path / "home")}
        )
        assert decision.verdict is Verdict.DENY, (name, decision.explain())
        assert "cannot decide is denied" in decision.explain()
    assert _judged(_policy("ci"), "make --version", workspace) is Verdict.ALLOW


def test_fw5_an_exception_that_only_may_apply_says_so(tmp_path: Path) -> None:
    workspace = _hard_linked(tmp_path)
    env = {"HOME": str(tmp_path / "home")}
    maybe = _policy("ci").evaluate("find . $X", workspace=str(workspace), env=env)
    assert maybe.verdict is Verdict.DENY
    assert "one of its exceptions may apply" in maybe.explain()
    certain = _policy("ci").evaluate("find . -delete", workspace=str(workspace), env=env)
    assert "one of its exceptions applies" in certain.explain()


def test_fw5_readonly_echo_takes_no_double_dash(tmp_path: Path) -> None:
    workspace = _hard_linked(tmp_path)
    assert printed(["bash", "-c", "echo -- -e 'a\\tb'"], workspace) == "-- -e a\\tb\n"
    readonly = _policy("readonly")
    for line in ("echo -- -e x", "echo -n -- -e x", "echo - -e x"):
        assert _judged(readonly, line, workspace) is Verdict.ALLOW, line
    assert printed(["bash", "-c", "echo -n -e 'a\\tb'"], workspace) == "a\tb"
    for line in ("echo -e x", "echo -n -e x", "echo -n -E -e x"):
        assert _judged(readonly, line, workspace) is Verdict.DENY, line
