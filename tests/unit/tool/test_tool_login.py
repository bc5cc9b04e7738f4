"""Review EL2: the tool's `login: true` runs `bash -l -c COMMAND`, whose profile scripts run
programs by PATH before the command; with a workspace folder on PATH (direnv's `PATH_add`)
that is the repository's program. The command is judged as the engine judges `bash -l -c
COMMAND` written out: the same ask, and nothing runs. Real processes, the shipped policy."""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest

from policylang import load_policy
from policylang.decision import Verdict
from policylang.tool import BashTool, ToolStatus

_REAL_PATH = os.environ.get("PATH", os.defpath)


@pytest.fixture
def planted(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """A workspace whose `tools/` (first on PATH) holds an `id` and a `locale` that leave
    a marker: programs a profile runs."""
    workspace = tmp_path / "ws"
    tools = workspace / "tools"
    tools.mkdir(parents=True)
    for name in ("id", "locale", "tty", "mesg"):
        program = tools / name
        program.write_text(f"#!/bin/sh\ntouch '{tmp_path / 'ran'}'\n/usr/bin/{name} \"$@\"\n")
        program.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{_REAL_PATH}")
    return workspace


def test_a_login_shell_is_judged_as_one(planted: pathlib.Path) -> None:
    tool = BashTool(load_policy(), workspace=str(planted))
    plain = tool.call({"command": "echo hi"})
    assert plain.status is ToolStatus.OK
    assert plain.decision is not None
    assert plain.decision.verdict is Verdict.ALLOW
    login = tool.call({"command": "echo hi", "login": True})
    assert login.status is not ToolStatus.OK
    assert login.decision is not None
    assert login.decision.verdict is Verdict.ASK
    assert login.decision.suggested_rule is None  # approving `echo` would not lift it
    assert "bash -l" in login.model_text
    assert not (planted.parent / "ran").exists()
    assert not tool.concurrency_safe({"command": "echo hi", "login": True})


def test_without_a_workspace_folder_on_path_login_changes_nothing(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (home apart from the workspace: a login shell's start-up files in the workspace ask,
    # review EM3)
    (tmp_path / "home").mkdir()
    (tmp_path / "ws").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", _REAL_PATH)
    tool = BashTool(load_policy(), workspace=str(tmp_path / "ws"))
    login = tool.call({"command": "echo hi", "login": True})
    assert login.status is ToolStatus.OK, login.model_text
    assert login.decision is not None
    assert login.decision.verdict is Verdict.ALLOW


def test_the_profile_runs_the_workspace_s_programs(planted: pathlib.Path) -> None:
    """The premise, with real bash: where the system's profile runs a program by PATH
    (Debian's `/etc/profile` runs `id -u`), a login shell runs the workspace's."""
    profile = pathlib.Path("/etc/profile")
    runs = profile.exists() and any(f"$({n}" in profile.read_text() for n in ("id", "locale"))
    subprocess.run(["bash", "-l", "-c", "true"], cwd=planted, env=dict(os.environ),
                   capture_output=True, timeout=60, check=False)
    assert (planted.parent / "ran").exists() is runs
