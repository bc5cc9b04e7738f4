"""Review H (sixth round): a workspace or home given through a symbolic link, tree scans
that cannot finish, one tree read many times, and a parse that would not end."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from policylang.decision import Verdict
from policylang.engine import checks, subtree
from policylang.engine.policy import Policy
from policylang.shell import parse as shell_parse
from policylang.shell.parse import parse_command


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """A workspace and a home, each also reachable through a symbolic link."""
    ws = tmp_path / "ws"
    (ws / ".git" / "hooks").mkdir(parents=True)
    (ws / ".env").write_text("API_KEY=ENVSECRET\n")
    home = tmp_path / "realhome"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIASECRET\n")
    ws_link = tmp_path / "wslink"
    ws_link.symlink_to(ws)
    home_link = tmp_path / "homelink"
    home_link.symlink_to(home)
    return ws, ws_link, home, home_link


@pytest.mark.parametrize(
    "command",
    [
        "cat .env",
        "cat ../ws/.env",
        "grep -r API {ws}",
        "echo x > .git/hooks/pre-commit",
        "cat {home}/.aws/credentials",
    ],
)
def test_a_workspace_and_home_given_through_links_still_protect(
    default_policy: Policy, linked: tuple[Path, Path, Path, Path], command: str
) -> None:
    # H9: `/tmp` is a link to `/private/tmp` on macOS; the real path of a protected file
    # was matched against the workspace as given, and was "outside" it
    ws, ws_link, home, home_link = linked
    text = command.format(ws=ws, home=home)
    decision = default_policy.evaluate(
        text, cwd=ws, workspace=ws_link, env={"HOME": str(home_link)}
    )
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.source  # patches the scan's calls
def test_a_tree_the_scan_cannot_enter_is_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # H7: a directory deeper than PATH_MAX is readable by `grep -r` (it walks relative to
    # the parent) but not by a scan of full paths: the scan says it is incomplete
    (tmp_path / "deep").mkdir()
    real = os.scandir

    def scandir(path: str) -> object:
        if str(path).endswith("deep"):
            raise OSError(errno.ENAMETOOLONG, "File name too long", str(path))
        return real(path)

    monkeypatch.setattr(subtree.os, "scandir", scandir)
    assert subtree.scan(str(tmp_path), hidden=True, budget=100).complete is False

    def denied(path: str) -> object:
        if str(path).endswith("deep"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    # another user's directory the agent may not read: `grep -r` skips it too, so the
    # scan is still complete; one of the agent's own it may open again first (`chmod
    # 700 app && grep -r x .`, review DA3): incomplete
    monkeypatch.setattr(subtree.os, "scandir", denied)
    monkeypatch.setattr(subtree, "owned", lambda path: False)
    assert subtree.scan(str(tmp_path), hidden=True, budget=100).complete is True
    monkeypatch.setattr(subtree, "owned", lambda path: True)
    assert subtree.scan(str(tmp_path), hidden=True, budget=100).complete is False


def test_one_tree_read_many_times_is_scanned_once(
    default_policy: Policy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # H8: `grep -r x . . . …` rescanned the whole tree for every operand
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "a.py").write_text("x\n")
    calls: list[str] = []
    real = subtree.scan

    def counting(root: str, **how: Any) -> subtree.TreeScan:
        calls.append(root)
        return real(root, **how)

    monkeypatch.setattr(subtree, "scan", counting)
    home = str(tmp_path / "home")
    decision = default_policy.evaluate("grep -r x " + ". " * 50, workspace=ws, env={"HOME": home})
    assert decision.verdict is Verdict.ALLOW
    assert len(calls) <= 2  # (a second scan when an ignore file re-includes)
    many = " ".join(f"d{i}" for i in range(checks.TREES_PER_LINE + 1))
    for i in range(checks.TREES_PER_LINE + 1):
        (ws / f"d{i}").mkdir()
    decision = default_policy.evaluate(f"grep -r x {many}", workspace=ws, env={"HOME": home})
    assert decision.verdict is Verdict.ASK
    assert any(r.rule_id == "engine.tree-budget" for r in decision.reasons)


@pytest.mark.source  # patches the parse deadline
def test_a_parse_past_its_deadline_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    # H6: tree-sitter's error recovery is quadratic; a long line gets a deadline
    monkeypatch.setattr(shell_parse, "PARSE_SECONDS", 0.0)
    line = parse_command("ls " + "a(b)" * 2000)
    assert [p.code for p in line.problems] == ["shell.limit-time"]
    assert line.segments == ()
    # short lines are parsed without one, and long well-formed ones finish in time
    assert parse_command("ls a(b)").problems
    monkeypatch.setattr(shell_parse, "PARSE_SECONDS", 30.0)
    heredoc = "cat > x.py <<'EOF'\n" + "print(1)\n" * 2000 + "EOF"
    assert parse_command(heredoc).problems == ()
