"""A folder moved away takes every file below it out of its place.

`mv ~/.config /tmp/c` under an approval of `mv` was allowed: it took the protected
`~/.config/gh/hosts.yml` (and gcloud's credentials) to `/tmp/c/gh/hosts.yml`, where no
protect rule covers it, so the next call's `cat /tmp/c/gh/hosts.yml` printed it; `mv ~
…`, `mv -t DIR ~/.config`, `rename.ul .config .cfg ~/.config` and `git mv` (a home kept
in git) too. A mover's source is now a recursive write that removes, as `rm -r`'s operand
is (folders of the workspace keep moving: `mv docs old-docs`, `mv -T .venv old-env`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import approved, git_ok, run_real

from policylang import Verdict
from policylang.decision import Decision


@pytest.fixture
def home(workspace: Path) -> Path:
    home = workspace.parent / "home"
    (home / ".config" / "gh").mkdir(parents=True)
    (home / ".config" / "gh" / "hosts.yml").write_text("oauth_token: GH-MARKER\n")
    (home / ".config" / "fish").mkdir()
    (workspace / "docs").mkdir()
    (workspace / "docs" / "a.md").write_text("a\n")
    (workspace / ".venv" / "bin").mkdir(parents=True)
    (workspace / ".venv" / "bin" / "python").write_text("#!/bin/sh\n")
    return home


def _decide(command: str, workspace: Path, home: Path, *rules: str) -> Decision:
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    return approved(*rules).evaluate(command, workspace=str(workspace), env=environment)


@pytest.mark.parametrize(
    "command",
    [
        "mv ~/.config {away}",
        "mv ~/.config/ {away}",
        "mv {home}/.config {away}",
        "mv -t {away} ~/.config",
        "mv --target-directory={away} ~/.config",
        "mv ~/.config/fish ~/.config {away}",
        "mv ~/.c* {away}",
    ],
)
def test_a_folder_holding_protected_files_is_not_moved_away(
    workspace: Path, home: Path, command: str
) -> None:
    away = workspace.parent / "away"
    away.mkdir()
    line = command.format(away=away, home=home)
    decision = _decide(line, workspace, home, "mv")
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any("recursively" in r.message for r in decision.reasons), decision.explain()
    # what it is for: bash moves the token to where nothing protects it
    assert run_real(["bash", "-c", line], workspace, home).returncode == 0
    assert "GH-MARKER" in next(away.rglob("hosts.yml")).read_text()


def test_moving_home_away_is_denied(workspace: Path, home: Path) -> None:
    decision = _decide(f"mv ~ {workspace.parent / 'away'}", workspace, home, "mv")
    assert decision.verdict is Verdict.DENY


@pytest.mark.skipif(shutil.which("rename.ul") is None, reason="util-linux rename.ul not installed")
def test_a_folder_renamed_away_by_rename_ul(workspace: Path, home: Path) -> None:
    line = f"rename.ul .config .cfg {home}/.config"  # (a tilde word there asks anyway)
    assert _decide(line, workspace, home, "rename.ul").verdict is Verdict.DENY
    run_real(["bash", "-c", line], workspace, home)
    assert (home / ".cfg" / "gh" / "hosts.yml").exists()


def test_git_mv_of_a_protected_folder_in_a_home_kept_in_git(workspace: Path, home: Path) -> None:
    # a dotfiles repository: the workspace is the home itself
    git_ok(home, "init", "-q")
    git_ok(home, "add", ".config")
    git_ok(home, "commit", "-qm", "dotfiles")
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    policy = approved("git mv")
    for line in ("git mv ~/.config cfg", "git mv .config cfg"):
        decision = policy.evaluate(line, workspace=str(home), env=environment)
        assert decision.verdict is Verdict.DENY, (line, decision.explain())
    assert run_real(["git", "mv", ".config", "cfg"], home).returncode == 0
    assert (home / "cfg" / "gh" / "hosts.yml").exists()


@pytest.mark.parametrize(
    "command",
    [
        "mv docs old-docs",
        "mv -T .venv old-env",
        "mv docs/a.md docs/b.md",
        "mv -t old docs",
        # a glob is judged by what it matches, not by the folder it lies in (which holds
        # a `.env` here)
        "mv -- *.md docs",  # (`--`: else the glob may expand to an option)
        "mv -- d* old",
    ],
)
def test_folders_without_protected_files_still_move(
    workspace: Path, home: Path, command: str
) -> None:
    (workspace / "sub").mkdir()
    (workspace / "sub" / ".env").write_text("API_KEY=FAKE\n")
    (workspace / "notes.md").write_text("n\n")
    assert _decide(command, workspace, home, "mv").verdict is Verdict.ALLOW
