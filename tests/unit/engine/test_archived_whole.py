"""Folders read whole into an archive.

`7z a x.7z ~` under an approval of `7z a`, and `bsdtar -cf x.tar ~/.config`, `pax -w`,
`restic backup ~` under approvals of those programs, were allowed: they copy `~/.ssh` and
`~/.config/gh/hosts.yml` into an archive the next call prints (a tar archive holds them as
plain text). A tar or 7-Zip that creates an archive now reads its folder operands as `grep
-r` does; an approved program no rule describes reads each existing folder it is given
as `ls -R` does (inside the workspace the folder alone: `black .` beside a `.env` is what
such an approval is for). 7-Zip, bsdtar, pax and restic are not installed here: GNU tar
and a script stand for them where a real run shows the effect."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import approved, run_real

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import load_policy


@pytest.fixture
def home(workspace: Path) -> Path:
    home = workspace.parent / "home"
    (home / ".config" / "gh").mkdir(parents=True)
    (home / ".config" / "gh" / "hosts.yml").write_text("oauth_token: GH-MARKER\n")
    (workspace / "docs").mkdir()
    (workspace / "docs" / "a.md").write_text("a\n")
    return home


def _environment(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _decide(command: str, workspace: Path, home: Path, *rules: str) -> Decision:
    policy = approved(*rules)
    return policy.evaluate(command, workspace=str(workspace), env=_environment(home))


@pytest.mark.parametrize(
    "command",
    ["tar -cf x.tar ~/.config", "tar cf x.tar ~/.config", "tar -rf x.tar ~/.config"],
)
def test_tar_allowed_by_a_rule_does_not_archive_protected_files(
    workspace: Path, home: Path, command: str
) -> None:
    layer = workspace.parent / "team.policy"
    layer.write_text("allow tar ** when -c|-r|--create|--append\n")
    policy = load_policy(extra=[layer])
    decision = policy.evaluate(command, workspace=str(workspace), env=_environment(home))
    assert decision.verdict is Verdict.DENY, decision.explain()
    run_real(["bash", "-c", command], workspace, home)
    assert "GH-MARKER" in (workspace / "x.tar").read_text(errors="replace")


def test_tar_without_recursion_and_of_a_clean_folder_stays_allowed(
    workspace: Path, home: Path
) -> None:
    layer = workspace.parent / "team.policy"
    layer.write_text("allow tar ** when -c|-r|--create|--append\n")
    policy = load_policy(extra=[layer])
    for command in ("tar --no-recursion -cf x.tar ~/.config", "tar -cf x.tar docs"):
        decision = policy.evaluate(command, workspace=str(workspace), env=_environment(home))
        assert decision.verdict is Verdict.ALLOW, (command, decision.explain())
    run_real(["bash", "-c", "tar --no-recursion -cf x.tar ~/.config"], workspace, home)
    assert "GH-MARKER" not in (workspace / "x.tar").read_text(errors="replace")


@pytest.mark.parametrize(
    ("approval", "command"),
    [
        ("7z a", "7z a x.7z ~"),
        ("7z a", "7z a x.7z ~/.config"),
        ("7za", "7za a x.7z ~/.config"),
        ("bsdtar", "bsdtar -cf x.tar ~/.config"),
        ("pax", "pax -w -f x.pax ~/.config"),
        ("restic", "restic backup ~"),
    ],
)
def test_approved_archivers_do_not_archive_protected_files(
    workspace: Path, home: Path, approval: str, command: str
) -> None:
    decision = _decide(command, workspace, home, approval)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any(r.message.startswith("reads") for r in decision.reasons)


@pytest.mark.parametrize(
    ("approval", "command"),
    [
        ("7z a", "7z a x.7z docs"),
        ("bsdtar", "bsdtar -cf x.tar docs"),
        ("restic", "restic snapshots"),
    ],
)
def test_approved_archivers_of_clean_folders_stay_allowed(
    workspace: Path, home: Path, approval: str, command: str
) -> None:
    assert _decide(command, workspace, home, approval).verdict is Verdict.ALLOW


def test_an_approved_script_given_a_folder_reads_it_whole(workspace: Path, home: Path) -> None:
    script = workspace / "backup.sh"
    script.write_text('#!/bin/sh\ntar -cf out.tar "$1"\n')
    script.chmod(0o755)
    # (an approval of a script run by path is of its absolute path)
    assert _decide("./backup.sh docs", workspace, home, str(script)).verdict is Verdict.ALLOW
    decision = _decide("./backup.sh ~/.config", workspace, home, str(script))
    assert decision.verdict is Verdict.DENY, decision.explain()
    run_real(["bash", "-c", "./backup.sh ~/.config"], workspace, home)
    assert "GH-MARKER" in (workspace / "out.tar").read_text(errors="replace")


def test_an_approved_program_given_the_workspace_is_not_judged_by_its_env_files(
    workspace: Path, home: Path
) -> None:
    (workspace / ".env").write_text("API_KEY=FAKE\n")
    for approval, command in (("black", "black ."), ("eslint", "eslint docs .")):
        assert _decide(command, workspace, home, approval).verdict is Verdict.ALLOW
    assert _decide("black ~", workspace, home, "black").verdict is Verdict.DENY
