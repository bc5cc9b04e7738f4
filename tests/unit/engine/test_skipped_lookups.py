"""Lookups a line skips where their answer cannot matter: the git configuration's includes
for a read of files that are not there, and a failing `lstat` per folder for git's HEAD."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from policylang import Verdict, load_policy
from policylang.engine import gitconfig

pytestmark = pytest.mark.source  # (counts calls of the source's functions)


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    original = gitconfig.GitConfigInspector.included_files

    def counted(self: gitconfig.GitConfigInspector, directory: str, *args: object) -> object:
        calls.append(directory)
        return original(self, directory, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(gitconfig.GitConfigInspector, "included_files", counted)
    return calls


def test_a_read_of_missing_files_does_not_look_up_the_includes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that is not there holds no credential to print, so its read does not look
    up which files git's configuration includes; one that is there does, and a file an
    include names is still found to hold a credential once it exists."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    _git("init", "-q", str(ws), cwd=tmp_path)
    _git("config", "include.path", "../creds.cfg", cwd=ws)
    calls = _counting(monkeypatch)
    policy = load_policy(snapshot=False, decision_cache=0)
    calls.clear()  # (loading ran the policy's own expectations)
    env = {"HOME": str(home)}
    decision = policy.evaluate("cat creds.cfg", workspace=str(ws), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    assert calls == []
    (ws / "creds.cfg").write_text("[http]\n\textraheader = AUTHORIZATION: basic Zm9v\n")
    decision = policy.evaluate("cat creds.cfg", workspace=str(ws), env=env)
    assert calls, "an existing file's read looks the includes up"
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.git-credentials" for r in decision.reasons)


def test_a_dangling_link_as_head_is_still_read_as_one(tmp_path: Path) -> None:
    """`_valid_head` looks for HEAD without following a link before it `lstat`s it: a
    link to `refs/…` that leads nowhere is a valid HEAD (git's `validate_headref`), a
    missing one is none."""
    bare = tmp_path / "b.git"
    for sub in ("objects", "refs"):
        (bare / sub).mkdir(parents=True)
    assert gitconfig._valid_head(str(bare / "HEAD")) is None
    os.symlink("refs/heads/main", bare / "HEAD")
    assert gitconfig._valid_head(str(bare / "HEAD")) is True
    found, complete = gitconfig.find_gitdirs(str(bare))
    assert complete
    assert (str(bare), None) in found
