"""Review BA: the spellings that the fixes of reviews AW, AX and AY left open."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict, load_policy
from policylang.engine.approvals import Approvals


def _approved(*rules: str) -> Approvals:
    approvals = Approvals()
    for rule in rules:
        approvals.add(rule, persist=False)
    return approvals


@pytest.mark.parametrize(
    "command", ["git show -L1,1:.env", "git whatchanged -L1,1:.env", "git show -L1,5:x/.env"]
)
def test_every_revision_walk_with_a_line_range_reads_its_file(tmp_path: Path, command: str) -> None:
    """BA1: the AW4 fix covered `git log -L` only."""
    decision = load_policy(snapshot=False).evaluate(command, workspace=str(tmp_path))
    assert decision.verdict is Verdict.DENY


@pytest.mark.parametrize("command", ["zgrep hi a.gz", "xzgrep hi a.xz", "zstdgrep hi a.zst"])
def test_a_script_that_runs_programs_by_path_asks_when_the_workspace_has_programs_on_it(
    tmp_path: Path, command: str
) -> None:
    """BA2: `zgrep` is a shell script that runs `grep`, `sed`, `expr` … by PATH; only its
    decompressor was looked up, and the workspace's `grep` ran under an allow."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    planted = bin_dir / "grep"
    planted.write_text("#!/bin/sh\necho pwned\n")
    planted.chmod(0o755)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{bin_dir}:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, approvals=_approved(command.split()[0]))
    decision = policy.evaluate(command, workspace=str(tmp_path), env=env)
    assert decision.verdict is Verdict.ASK
    assert "engine.path-program" in [r.rule_id for r in decision.reasons]
    plain = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    assert policy.evaluate("zgrep hi a.gz", workspace=str(tmp_path), env=plain).verdict is (
        Verdict.ALLOW
    )


@pytest.mark.parametrize(
    ("approval", "command"),
    [
        ("git submodule", "git submodule -q foreach 'rm -rf ~'"),
        ("git submodule", "git submodule --quiet foreach 'sudo id'"),
        ("python -m policylang.__main__", "python -m policylang.__main__ check evil.policy"),
        ("vagrant winrm", "vagrant winrm -c 'rm -rf ~'"),
        ("vagrant powershell", "vagrant powershell -c 'x'"),
    ],
)
def test_sibling_spellings_of_never_approvable_commands_stay_unapproved(
    tmp_path: Path, approval: str, command: str
) -> None:
    """BA4, BA5: an option before `foreach`, another module of policylang, vagrant's
    other ways to run a command."""
    plain = load_policy(snapshot=False, approvals=Approvals()).evaluate(
        command, workspace=str(tmp_path)
    )
    assert plain.suggested_rule is None
    approved = load_policy(snapshot=False, approvals=_approved(approval))
    assert approved.evaluate(command, workspace=str(tmp_path)).verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "target",
    [".vscode/mcp.json", "sub/.gemini/settings.json", "sub/.codex/config.toml", ".cursorrules",
     ".github/copilot-instructions.md"],
)
def test_more_agent_configuration_is_protected(tmp_path: Path, target: str) -> None:
    """BA9."""
    decision = load_policy(snapshot=False).evaluate(
        f"echo x > {target}", workspace=str(tmp_path)
    )
    assert decision.verdict is Verdict.DENY


def test_an_approvals_file_rewritten_within_one_mtime_tick_is_read_again(tmp_path: Path) -> None:
    """BA11: a rewrite of the same size that kept the mtime was missed."""
    import os

    path = tmp_path / "a.toml"
    path.write_text('allow = ["npm install"]\n')
    store = Approvals(path)
    before = os.stat(path)
    path.write_text('allow = ["npm instalX"]\n')
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same size and mtime
    store.refresh()
    assert store.match(("npm", "install")) is None
