"""PATH lookups that keep a folder's listing and where an entry leads between lines, by
the folder's stamp: a long-lived policy still sees every change made between lines."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from policylang import Policy, Verdict, load_policy
from policylang.engine import paths

pytestmark = pytest.mark.source  # (the guard below is a module global of the source)


@pytest.fixture(autouse=True)
def _every_folder_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    # folders changed less than 3 s before they were read are not kept; here every folder
    # is, so that what is kept is what decides
    monkeypatch.setattr(paths, "_SETTLED_NS", -(10**18))


def _program(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\necho pwned\n")
    path.chmod(0o755)


def _verdict(policy: Policy, workspace: Path, env: dict[str, str]) -> Verdict:
    decision = policy.evaluate("whoami", workspace=str(workspace), env=env)
    time.sleep(0.02)  # the next change comes a clock tick later (the guard is off)
    return decision.verdict


def test_a_program_made_in_a_kept_workspace_entry_is_seen(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "bin").mkdir(parents=True)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{workspace}/bin:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    assert f"{workspace}/bin" in paths._NAMES  # its listing was kept
    _program(workspace / "bin" / "whoami")
    assert _verdict(policy, workspace, env) is Verdict.ASK
    (workspace / "bin" / "whoami").rename(workspace / "bin" / "other")
    assert _verdict(policy, workspace, env) is Verdict.ALLOW


def test_an_entry_that_comes_to_lead_into_the_workspace_is_seen(tmp_path: Path) -> None:
    workspace, system = tmp_path / "ws", tmp_path / "opt" / "bin"
    _program(system / "whoami")
    _program(workspace / "bin" / "whoami")
    entry = tmp_path / "tools"
    entry.symlink_to(system)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{entry}:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    entry.unlink()
    entry.symlink_to(workspace / "bin")  # the link leads into the workspace now
    assert _verdict(policy, workspace, env) is Verdict.ASK
    entry.unlink()
    entry.symlink_to(system)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    # the folder itself moved into the workspace, a link left where it was
    system.rename(workspace / "moved")
    system.symlink_to(workspace / "moved")
    assert _verdict(policy, workspace, env) is Verdict.ASK


def test_an_entry_whose_parent_folder_moves_into_the_workspace_is_seen(tmp_path: Path) -> None:
    # review DZ4: the folder an entry leads to keeps its stamp when a folder above it
    # moves (and a link is left where it was): where it leads is not kept between lines
    workspace, tools = tmp_path / "ws", tmp_path / "opt" / "tools"
    _program(tools / "bin" / "whoami")
    workspace.mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{tools}/bin:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    tools.rename(workspace / "tools")
    tools.symlink_to(workspace / "tools")
    assert _verdict(policy, workspace, env) is Verdict.ASK
    fresh = load_policy(snapshot=False, decision_cache=0)  # (nothing kept per process)
    assert _verdict(fresh, workspace, env) is Verdict.ASK


def test_a_decision_that_looked_at_path_entries_is_not_kept(tmp_path: Path) -> None:
    # (the decision cache keeps decisions that touched no file system: where a PATH entry
    # leads is the file system's answer, the same text may get another decision)
    workspace, tools = tmp_path / "ws", tmp_path / "opt" / "tools"
    _program(tools / "bin" / "whoami")
    workspace.mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{tools}/bin:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=1024)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    tools.rename(workspace / "tools")
    tools.symlink_to(workspace / "tools")
    assert _verdict(policy, workspace, env) is Verdict.ASK


@pytest.mark.parametrize("how", ["link", "variable"])
def test_an_entry_through_proc_names_the_lines_folder(tmp_path: Path, how: str) -> None:
    # review DZ1: `node_modules/.bin -> /proc/self/cwd/.t` (shipped by the repository) or
    # `PATH=/proc/self/cwd/bin` is looked up by bash in the line's working directory, by
    # policylang in its own
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    _program(workspace / "sub" / ".t" / "cat")
    _program(workspace / "bin" / "ls")
    if how == "link":
        (workspace / "node_modules").mkdir()
        (workspace / "node_modules" / ".bin").symlink_to("/proc/self/cwd/.t")
        entry = f"{workspace}/node_modules/.bin"
    else:
        entry = "/proc/self/cwd/bin"
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{entry}:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    for line in ("cd sub && cat README", "ls -la"):
        decision = policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.ASK, (line, decision.explain())
        assert any("/proc" in r.message for r in decision.reasons), decision.explain()
