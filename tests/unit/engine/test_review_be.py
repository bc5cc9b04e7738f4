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
        # tree skips hidden folders without `-a`, but is judged as `ls -R ~` (review BI5)
        ("tree ~", Verdict.DENY),
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


# ----------------------------------------------------------------- review BH (of the above)


@pytest.mark.parametrize(
    "command",
    [
        "read ab < payload.txt; [[ -v q[a${z}b] ]]",
        "read ab < payload.txt; test -v q[a${z}b]",
        'read ab < payload.txt; [[ -v "q[a${z}b]" ]]',
        "read ab < payload.txt; unset DIRSTACK[ab]",
        "unset GROUPS[GITHUB_TOKEN]",
        "[[ -v q[GITHUB_TO${z}KEN] ]]",
    ],
)
def test_subscripts_built_from_pieces_or_unquoted_ask(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BH1: the `-v` operand's joined name, and `unset` of an unquoted `NAME[SUB]` (a glob
    that matches no file is passed on as written)."""
    assert _verdict(default_policy, command, workspace, GITHUB_TOKEN="ghp-x") is Verdict.ASK


@pytest.mark.parametrize(
    "command",
    ["exec -l bash -c true", "bash -o errexit -lc true", "bash -o pipefail -l -c true"],
)
def test_every_login_shell_spelling_meets_the_workspace_programs(
    default_policy: Policy, workspace: Path, planted: Path, command: str
) -> None:
    """BH2, BH3: `exec -l` starts a login shell; `-o VALUE` hid a later `-l`."""
    assert _verdict(default_policy, command, workspace, PATH=f"{planted}:/usr/bin:/bin") is (
        Verdict.ASK
    )


def test_a_process_root_then_a_process_cwd_is_followed(
    default_policy: Policy, workspace: Path
) -> None:
    """BH8: `/proc/self/root/proc/self/cwd/..` was folded lexically past the cwd link."""
    home = workspace.parent / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("[default]\n")
    command = "cat /proc/self/root/proc/self/cwd/../home/.aws/credentials"
    assert _verdict(default_policy, command, workspace) is Verdict.DENY


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("fd . ~/.ssh", Verdict.DENY),  # BH9
        ("fd -l --search-path ~/.aws", Verdict.DENY),
        ("fd -H . ~", Verdict.DENY),
        ("fd foo src", Verdict.ALLOW),
        ("cat /run/containers/0/auth.json", Verdict.DENY),  # BH10
        ("cat ~/.dbt/profiles.yml", Verdict.DENY),
        ("cat ~/.snowflake/connections.toml", Verdict.DENY),
        ("cat - <<< 'rm -rf ~' | bash", Verdict.DENY),  # BH11
        ("echo 'rm -rf ~' | cat | bash", Verdict.DENY),
        ("printf '%s\\n' 'rm -rf ~' | bash", Verdict.DENY),
        ("echo -e 'rm -rf ~' | bash", Verdict.DENY),
    ],
)
def test_listings_credential_stores_and_fed_code(
    default_policy: Policy, workspace: Path, command: str, verdict: Verdict
) -> None:
    home = workspace.parent / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    assert _verdict(default_policy, command, workspace) is verdict


def test_a_workspace_program_behind_the_system_s_does_not_run(
    default_policy: Policy, workspace: Path
) -> None:
    """BH14: with `PATH=/usr/bin:/bin:` (the working folder last), a repository's `id` or
    `gradlew` never runs in place of a system program: `bash -lc true` stays allowed,
    while the same folder first on PATH asks."""
    for name in ("id", "gradlew"):
        program = workspace / name
        program.write_text("#!/bin/sh\necho planted\n")
        program.chmod(0o755)
    last = _verdict(default_policy, "bash -lc true", workspace, PATH="/usr/bin:/bin:")
    first = _verdict(default_policy, "bash -lc true", workspace, PATH=":/usr/bin:/bin")
    assert last is Verdict.ALLOW
    assert first is Verdict.ASK
    assert _verdict(default_policy, "id", workspace, PATH="/usr/bin:/bin:") is Verdict.ALLOW


def test_a_script_run_by_env_meets_a_workspace_interpreter(
    default_policy: Policy, tmp_path: Path, workspace: Path
) -> None:
    """BH4: `#!/usr/bin/env node` (npm) runs the `node` that PATH finds, the workspace's."""
    system = tmp_path / "sys"
    system.mkdir()
    tool = system / "whoami"  # a name the default policy allows
    tool.write_text("#!/usr/bin/env node\nconsole.log(1)\n")
    tool.chmod(0o755)
    bin_dir = workspace / "bin"
    bin_dir.mkdir()
    node = bin_dir / "node"
    node.write_text("#!/bin/sh\necho planted\n")
    node.chmod(0o755)
    path = f"{system}:{bin_dir}:/usr/bin:/bin"
    decision = default_policy.evaluate(
        "whoami", workspace=str(workspace), env={"HOME": str(tmp_path / "h"), "PATH": path}
    )
    assert decision.verdict is Verdict.ASK
    assert any("env node" in r.message for r in decision.reasons)


def test_git_meets_a_workspace_git_helper(default_policy: Policy, workspace: Path) -> None:
    """BH5: a repository's `.gitattributes` filter makes `git status` run `git-lfs`."""
    bin_dir = workspace / "bin"
    bin_dir.mkdir()
    helper = bin_dir / "git-lfs"
    helper.write_text("#!/bin/sh\necho planted\n")
    helper.chmod(0o755)
    env_path = f"{bin_dir}:/usr/bin:/bin"
    assert _verdict(default_policy, "git status", workspace, PATH=env_path) is Verdict.ASK
    assert _verdict(default_policy, "git status", workspace) is Verdict.ALLOW
