"""Content-printing git commands and the tracked files they may print (review E7).

Real repositories made by the real git: the index is git's own, in each of its formats.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from policylang.decision import Verdict
from policylang.engine.gitconfig import GitConfigInspector
from policylang.engine.policy import Policy

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the real git")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"},
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "main.py").write_text("print(1)\n")
    (root / "config").mkdir()
    (root / "config" / ".env").write_text('API_KEY="COMMITTED"\n')
    (root / "README.md").write_text("hello\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "one")
    # an index written after the files' last change: their stat data is not racy
    later = os.stat(root / ".git" / "index").st_mtime + 5
    os.utime(root / ".git" / "index", (later, later))
    return root


def _verdict(policy: Policy, root: Path, command: str) -> Verdict:
    home = root.parent / "home"
    return policy.evaluate(command, workspace=root, env={"HOME": str(home)}).verdict


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("git show", Verdict.ASK),  # the commit's patch includes config/.env
        ("git log -p", Verdict.ASK),
        ("git diff HEAD~0", Verdict.ASK),
        ("git diff --cached", Verdict.ASK),
        ("git log -p -- config", Verdict.ASK),
        ("git log -p -- src", Verdict.ALLOW),
        ("git show --stat", Verdict.ALLOW),
        ("git log --oneline", Verdict.ALLOW),
        ("git show HEAD:README.md", Verdict.ALLOW),
        ("git diff", Verdict.ALLOW),  # nothing differs from the index
        ("git diff .", Verdict.ALLOW),
        ("git status", Verdict.ALLOW),
    ],
)
def test_tracked_secret_in_what_git_prints(
    default_policy: Policy, repo: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, repo, command) is verdict


def test_plain_diff_asks_once_the_tracked_secret_changes(
    default_policy: Policy, repo: Path
) -> None:
    (repo / "config" / ".env").write_text('API_KEY="NEWSECRET, LONGER"\n')
    assert _verdict(default_policy, repo, "git diff") is Verdict.ASK
    assert _verdict(default_policy, repo, "git diff .") is Verdict.ASK
    assert _verdict(default_policy, repo, "git diff config") is Verdict.ASK
    assert _verdict(default_policy, repo, "git diff src") is Verdict.ALLOW
    assert _verdict(default_policy, repo, "git diff --stat") is Verdict.ALLOW
    # and git does print it: the case is real
    shown = subprocess.run(["git", "diff"], cwd=repo, capture_output=True, text=True, check=True)
    assert "NEWSECRET" in shown.stdout


def test_a_deleted_secret_is_printed_as_removed_lines(default_policy: Policy, repo: Path) -> None:
    (repo / "config" / ".env").unlink()
    assert _verdict(default_policy, repo, "git diff") is Verdict.ASK


def test_reason_names_the_file_and_the_rule(default_policy: Policy, repo: Path) -> None:
    decision = default_policy.evaluate(
        "git show", workspace=repo, env={"HOME": str(repo.parent / "home")}
    )
    reasons = [r for r in decision.reasons if r.rule_id == "engine.git-tracked"]
    assert reasons, decision.explain()
    assert "config/.env" in reasons[0].message
    assert "secrets-workspace" in reasons[0].message


@pytest.mark.parametrize(
    "setup",
    [
        ("update-index", "--index-version", "2"),
        ("update-index", "--index-version", "3"),
        ("update-index", "--index-version", "4"),
        ("update-index", "--split-index"),
    ],
    ids=["v2", "v3", "v4", "split"],
)
def test_every_index_format_is_read(repo: Path, setup: tuple[str, ...]) -> None:
    _git(repo, *setup)
    selections, complete = GitConfigInspector().tracked(
        str(repo / "src"), lambda path: path if path.endswith(".env") else None, "t"
    )
    assert complete
    assert [s.top for s in selections] == [str(repo)]
    assert [entry.path for entry, _ in selections[0].files] == ["config/.env"]
    entry = selections[0].files[0][0]
    st = os.stat(repo / "config" / ".env")
    assert (entry.size, entry.mtime_ns) == (st.st_size, st.st_mtime_ns)


def test_an_unreadable_index_asks(default_policy: Policy, repo: Path) -> None:
    (repo / ".git" / "index").write_bytes(b"DIRC\x00\x00\x00\x09garbage")
    assert _verdict(default_policy, repo, "git show") is Verdict.ASK


def test_diff_check_prints_lines_so_it_is_checked_too(default_policy: Policy, repo: Path) -> None:
    # `git diff --check` prints each changed line with a whitespace error, contents and all
    (repo / "config" / ".env").write_text('API_KEY="NEWSECRET, LONGER" \n')
    assert _verdict(default_policy, repo, "git diff --check") is Verdict.ASK
    assert _verdict(default_policy, repo, "git diff --stat") is Verdict.ALLOW
