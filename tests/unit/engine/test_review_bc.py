"""Review BC: how the engine reads the options of the programs it allows.

Each line was allowed before the fix; where the program is on every machine the tests
run on (GNU diff, grep, git), the real program shows the effect."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.engine.policy import Policy

SECRET = "SECRET=hunter2"


@pytest.fixture
def repo(workspace: Path) -> Path:
    """A workspace whose repository tracks a `.env`, with a fake key in a fake home."""
    (workspace / ".env").write_text(SECRET + "\n")
    (workspace / "a.txt").write_text("hello\n")
    home = workspace.parent / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("FAKE-KEY\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@x", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    subprocess.run(["git", "add", "-A"], cwd=workspace, check=True)
    subprocess.run([*git, "commit", "-qm", "one"], cwd=workspace, check=True)
    (workspace / "a.txt").write_text("hello again\n")
    subprocess.run([*git, "commit", "-qam", "two"], cwd=workspace, check=True)
    return workspace


def _verdict(policy: Policy, command: str, workspace: Path) -> Verdict:
    env = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return policy.evaluate(command, workspace=str(workspace), env=env).verdict


def _output(command: str, cwd: Path) -> str:
    env = {"HOME": str(cwd.parent / "home"), "PATH": "/usr/bin:/bin", "LESS": "", "PAGER": "cat"}
    done = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=20
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("diff --unified .env a.txt", Verdict.DENY),  # BC1
        ("diff --context ~/.ssh/id_rsa a.txt", Verdict.DENY),
        ("diff --unif .env a.txt", Verdict.DENY),
        ("grep -d rec hunter2 .", Verdict.DENY),  # BC2
        ("grep -drec hunter2 .", Verdict.DENY),
        ("grep --directories=recu KEY ~", Verdict.DENY),
        ("man --troff-device ./.env", Verdict.DENY),  # BC3
        ("man -T ~/.ssh/id_rsa", Verdict.DENY),
        ("ag --hid hunter2 .", Verdict.DENY),  # BC6
        ("ag --unr hunter2", Verdict.DENY),
        ("less a.txt -x ~/.ssh/id_rsa", Verdict.DENY),  # BC9
        ("less a.txt -p .env", Verdict.DENY),
        ("pgrep -F .env", Verdict.DENY),  # BC10
        ("pgrep -F.env", Verdict.DENY),
    ],
)
def test_an_option_spelling_no_longer_hides_a_protected_read(
    default_policy: Policy, repo: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, repo) is verdict


@pytest.mark.parametrize(
    "command",
    [
        "git log -U1",  # BC4
        "git log --unified=0",
        "git log --binary",
        "git log -c",
        "git show -s -U1 HEAD",
        "git diff-tree --binary HEAD",
        "git diff --stat -U1 HEAD~1 HEAD",
        "git log --word-diff",
        "unzip -lp x.zip",  # BC5
        "unzip -l -c x.zip",
        "ulimit -cunlimited",  # BC7
        "ulimit -Hc0",
        "git log -1 --format='%-GS'",  # BC8
        "git show -s --format=%+GK",
        "git log -1 --format='% G?'",
        "man -X ls",  # BC11
    ],
)
def test_an_option_that_prints_contents_or_changes_state_asks(
    default_policy: Policy, repo: Path, command: str
) -> None:
    assert _verdict(default_policy, command, repo) is Verdict.ASK


@pytest.mark.parametrize(
    "command",
    [
        "diff -u a.txt a.txt",
        "diff --unified=3 a.txt a.txt",
        "grep -d skip hello a.txt",
        "grep -d read hello a.txt",
        "less -N a.txt",
        "less -p hello a.txt",
        "man -Tutf8 ls",
        "git log --oneline",
        "git log --stat",
        "git log --format='%h %s'",
        "ulimit -a",
        "ulimit -Sn",
        "unzip -l x.zip",
        "unzip -Zp x.zip",
        "pgrep -l bash",
        "ag hello",
    ],
)
def test_the_everyday_spellings_stay_allowed(
    default_policy: Policy, repo: Path, command: str
) -> None:
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW


def test_hash_p_bundled_poisons_what_follows(default_policy: Policy, repo: Path) -> None:
    """BC12: bash takes `-rp/bin/echo` as `-r -p /bin/echo`."""
    decision = default_policy.evaluate("hash -rp/bin/echo ls; ls", workspace=str(repo))
    assert "engine.env-poisoned" in [r.rule_id for r in decision.reasons]


@pytest.mark.parametrize(
    "command",
    [
        "diff --unified .env a.txt",
        "grep -d rec -r hunter2 . --exclude-dir=.git",
        "git log --format=%h -U1",
    ],
)
def test_the_real_programs_print_the_secret(repo: Path, command: str) -> None:
    """The findings are real: the program prints the file the old reading missed."""
    assert "hunter2" in _output(command, repo)
