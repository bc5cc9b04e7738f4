"""Review FK5, FK6: the ci policy denied everyday reads the default policy allows (`git
stash list`, `git stash show -p`, `git branch --no-color`, `npm|pip|make --version`), and
asked, where nobody answers, on `git remote -vv` and `git remote --verb`: common.policy's
`git-network` ask had no ci deny over it. The readonly policy asked on a plain `echo
"$X"`, through its undecidable `echo -e` rule."""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, git_ok, run_real

from policylang import Verdict
from policylang.engine.policy import Policy, load_policy, shipped_ruleset


@functools.cache
def _policy(name: str) -> Policy:
    return load_policy(shipped_ruleset(name), check=False, snapshot=False)


def _verdict(name: str, line: str, workspace: Path) -> Verdict:
    decision = _policy(name).evaluate(
        line, workspace=str(workspace), env=canary_environment(workspace)
    )
    return decision.verdict


def _repository(tmp_path: Path) -> Path:
    """A repository with one stash and a remote."""
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README.md").write_text("one\n")
    git_ok(workspace, "init", "-q", "-b", "main", ".")
    git_ok(workspace, "add", "README.md")
    git_ok(workspace, "commit", "-qm", "x")
    (workspace / "README.md").write_text("one\ntwo\n")
    git_ok(workspace, "stash", "-q")
    git_ok(workspace, "remote", "add", "origin", "https://example.invalid/x.git")
    return workspace


def _state(workspace: Path) -> str:
    """The refs, the stash list and the work tree's status: what a read leaves alone."""
    return "".join(
        run_real(["git", *args], workspace).stdout
        for args in (["for-each-ref"], ["stash", "list"], ["status", "--porcelain"])
    )


@pytest.mark.parametrize(
    "line", ["git stash list", "git stash show -p", "git stash show", "git branch --no-color"]
)
def test_fk5_ci_allows_the_git_reads_default_allows(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    assert _verdict("default", line, workspace) is Verdict.ALLOW
    assert _verdict("ci", line, workspace) is Verdict.ALLOW
    before = _state(workspace)
    run_real(line.split(), workspace)
    assert _state(workspace) == before


@pytest.mark.parametrize(
    "line",
    ["git stash", "git stash -p", "git stash pop", "git stash drop", "git stash lis",
     "git stash show -u", "git stash list --output=x", "git branch --no-color newb",
     "git branch --color always", "git branch --column newb"],
)  # fmt: skip
def test_fk5_ci_still_denies_the_changes(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    assert _verdict("ci", line, workspace) is Verdict.DENY
    assert _verdict("readonly", line, workspace) is Verdict.DENY


@pytest.mark.parametrize("program", ["npm", "pip", "make"])
def test_fk5_ci_allows_version_queries(tmp_path: Path, program: str) -> None:
    workspace = _repository(tmp_path)
    for name in ("default", "ci", "readonly"):
        assert _verdict(name, f"{program} --version", workspace) is Verdict.ALLOW, name
    for line in (f"{program} --vers", f"{program} --version x", f"{program} install x",
                 f"{program} --version=x", f"{program} x --version", program):  # fmt: skip
        assert _verdict("ci", line, workspace) is Verdict.DENY, line
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    before = sorted(p.name for p in workspace.iterdir())
    done = subprocess.run([program, "--version"], cwd=workspace, capture_output=True, text=True,
                          env=canary_environment(workspace), timeout=60, check=False)  # fmt: skip
    assert any(c.isdigit() for c in done.stdout)
    assert sorted(p.name for p in workspace.iterdir()) == before


@pytest.mark.parametrize("line", ["git remote -vv", "git remote --verb"])
def test_fk6_ci_denies_the_remote_listings_default_asks_about(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    # git reads them as `git remote -v`: a listing, which the default policy asks about
    assert (
        run_real(line.split(), workspace).stdout
        == run_real(["git", "remote", "-v"], workspace).stdout
    )
    assert _verdict("default", line, workspace) is Verdict.ASK
    assert _verdict("ci", line, workspace) is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    ["git remote -v show origin", "git remote -v get-url origin", "git remote -x",
     "git remote --foo", "git remote show", "git remote add x y", "git remote -v -v"],
)  # fmt: skip
def test_fk6_ci_denies_what_common_asks_of_git_remote(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    assert _verdict("default", line, workspace) is Verdict.ASK
    assert _verdict("ci", line, workspace) is Verdict.DENY


@pytest.mark.parametrize(
    "line", ["git remote", "git remote -v", "git remote --verbose", "git remote get-url origin"]
)
def test_fk6_ci_keeps_the_remote_listings(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    assert _verdict("ci", line, workspace) is Verdict.ALLOW


def test_fk6_readonly_allows_echo_of_a_variable(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    # a variable that is `-e` makes echo print nothing; one that holds escapes prints them
    # with or without `-e`, as `printf '\e'` does, which every policy allows
    done = subprocess.run(["bash", "-c", 'echo "$X"'], env={"X": "-e"}, capture_output=True,
                          text=True, check=True)  # fmt: skip
    assert done.stdout == "\n"
    for line in ('echo "$X"', "echo $(cat README.md)", "echo hi -e", 'printf %s "$X"'):
        assert _verdict("readonly", line, workspace) is Verdict.ALLOW, line
    for line in ("echo -e hi", "echo -ne hi", "echo -n -e hi", "echo -n -E -e hi"):
        assert _verdict("readonly", line, workspace) is Verdict.DENY, line
