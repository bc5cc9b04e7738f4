"""Review BE: allowed lines run for real under strace; what they did that `allow` promised
they would not."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.engine.policy import Policy


def _verdict(policy: Policy, command: str, workspace: Path, **env: str) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin", **env}
    return policy.evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    "command",
    [
        "zgrep --dereference-recursive KEY notes",
        "zgrep --derefer KEY notes",
        "zegrep --der KEY notes",
        "xzgrep -R KEY notes",
    ],
)
def test_a_recursive_option_through_a_zgrep_script_asks(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BE1: the script passes the option to a grep with no file operand, which reads the
    whole working folder (`.env` included)."""
    assert _verdict(default_policy, command, workspace) is Verdict.ASK


def test_the_zgrep_recursion_is_real(workspace: Path) -> None:
    (workspace / ".env").write_text("KEY=hunter2\n")
    (workspace / "notes").write_text("nothing\n")
    done = subprocess.run(
        ["bash", "-c", "zgrep --derefer hunter2 notes"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert "hunter2" in done.stdout


@pytest.fixture
def planted(workspace: Path) -> Path:
    """A workspace `bin` on PATH holding programs named like the helpers tools run."""
    bin_dir = workspace / "bin"
    bin_dir.mkdir()
    for name in ("grep", "diff", "git", "jq", "ls", "id"):
        program = bin_dir / name
        program.write_text("#!/bin/sh\necho planted\n")
        program.chmod(0o755)
    return bin_dir


@pytest.mark.parametrize(
    "command",
    [
        "egrep a f",
        "fgrep a f",
        "sdiff a b",
        "diff3 a b c",
        "ag a f",
        "tomlq . x.toml",
        "fdfind -l",
        "bash -lc true",
        "bash --login -c true",
        "sh -lc true",
    ],
)
def test_helpers_run_by_path_meet_the_workspace_programs(
    default_policy: Policy, workspace: Path, planted: Path, command: str
) -> None:
    """BE3, BE6: the helpers these programs (or a login shell's start-up files) run by
    PATH were not looked up, so the workspace's `grep`, `diff`, `git`, `jq`, `ls`, `id` ran
    under an allow."""
    env = {"PATH": f"{planted}:/usr/bin:/bin"}
    decision = default_policy.evaluate(command, workspace=str(workspace), env={
        "HOME": str(workspace.parent / "home"), **env})
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.path-program" in [r.rule_id for r in decision.reasons]


@pytest.mark.parametrize("command", ["egrep a f", "bash -lc true", "sdiff a b"])
def test_without_a_workspace_path_entry_they_stay_allowed(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.ALLOW


@pytest.mark.parametrize(
    "path",
    [
        "/etc/shadow-",
        "/etc/gshadow-",
        "/var/backups/shadow.bak",
        "/etc/security/opasswd",
        "/etc/krb5.keytab",
        "/etc/NetworkManager/system-connections/home.nmconnection",
        "/etc/mysql/debian.cnf",
        "/etc/letsencrypt/live/example.org/privkey.pem",
        "~/.config/containers/auth.json",
        "~/.dockercfg",
        "~/.android/adbkey",
        "~/.local/share/com.vercel.cli/auth.json",
        "~/.config/.wrangler/config/default.toml",
    ],
)
def test_more_credential_stores_are_protected(
    default_policy: Policy, workspace: Path, path: str
) -> None:
    """BE4, BE5: password-hash backups and other tools' credential stores."""
    assert _verdict(default_policy, f"cat {path}", workspace) is Verdict.DENY


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("man -u ls", Verdict.ASK),  # BE8: rebuilds /var/cache/man
        ("man -c ls", Verdict.ASK),
        ("man --update ls", Verdict.ASK),
        ("man ls", Verdict.ALLOW),
        ("fdfind --ignore-file .env x", Verdict.DENY),  # BE9
        ("fd --ignore-file=.env x", Verdict.DENY),
        ("fdfind -e py", Verdict.ALLOW),
        ("fdfind -d 2 src", Verdict.ALLOW),
    ],
)
def test_man_cache_writes_and_fd_ignore_files(
    default_policy: Policy, workspace: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, workspace) is verdict


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("tree -a ~", Verdict.DENY),
        ("du -a ~", Verdict.DENY),
        ("du --all ~", Verdict.DENY),
        ("tree ~", Verdict.ALLOW),  # hidden folders (`~/.ssh`) are not listed
        ("du -sh ~", Verdict.ALLOW),
        ("tree -a", Verdict.ALLOW),
        ("du -a .", Verdict.ALLOW),
    ],
)
def test_listers_of_hidden_names_are_recursive_reads(
    default_policy: Policy, workspace: Path, command: str, verdict: Verdict
) -> None:
    """BE10: `tree -a ~` and `du -a ~` listed the files in `~/.ssh`, as `ls -R ~` (denied)."""
    home = workspace.parent / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    assert _verdict(default_policy, command, workspace) is verdict
