"""Review CG2: the plain backend's shell is never the repository's own `bash`.

`PATH` with an activated `.venv/bin` (or direnv's `PATH_add bin`, or a `.`/empty entry)
found a `bash` the repository ships, and every allowed command ran through it. Real
processes: the planted `bash` is a script that leaves a marker when it runs.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import sys

import pytest

from policylang.decision import Decision, Retention, Verdict
from policylang.errors import ExecutionRefusedError
from policylang.executor import PlainBackend, run
from policylang.tool import ToolStatus

from .conftest import TablePolicy, make_tool

_REAL_PATH = os.environ.get("PATH", os.defpath)


def decision(command: str) -> Decision:
    return Decision(command=command, verdict=Verdict.ALLOW, retention=Retention.DURABLE,
                    concurrency_safe=False)


def _plant_bash(folder: pathlib.Path, marker: pathlib.Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    fake = folder / "bash"
    fake.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
    fake.chmod(0o755)


@pytest.fixture
def planted(tmp_path: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    workspace = tmp_path / "ws"
    marker = tmp_path / "planted-bash-ran"
    _plant_bash(workspace / ".venv" / "bin", marker)
    return workspace, marker


def test_tool_refuses_a_shell_in_the_workspace(
    planted: tuple[pathlib.Path, pathlib.Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, marker = planted
    monkeypatch.setenv("PATH", f"{workspace / '.venv' / 'bin'}{os.pathsep}{_REAL_PATH}")
    result = make_tool(TablePolicy(), str(workspace)).call({"command": "echo hi"})
    assert result.status is not ToolStatus.OK
    assert "lies in the workspace" in result.model_text
    assert not marker.exists()


def test_run_refuses_a_shell_in_the_backend_s_workspace(
    planted: tuple[pathlib.Path, pathlib.Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, marker = planted
    monkeypatch.setenv("PATH", f"{workspace / '.venv' / 'bin'}{os.pathsep}{_REAL_PATH}")
    backend = PlainBackend(workspace=str(workspace))
    assert "lies in the workspace" in backend.probe().detail
    with pytest.raises(ExecutionRefusedError, match="lies in the workspace"):
        run("echo hi", decision=decision("echo hi"), cwd=str(workspace), sandbox=backend)
    with pytest.raises(ExecutionRefusedError, match="may be the repository's own program"):
        backend.argv("echo hi", cwd=str(workspace), login=False)
    assert not marker.exists()


@pytest.mark.parametrize("entry", [".", ""])
def test_relative_path_entries_are_not_searched(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, entry: str
) -> None:
    # `PATH=.:…` or `PATH=:…` found `./bash`, and Popen resolved it again after `chdir`
    marker = tmp_path / "planted-bash-ran"
    _plant_bash(tmp_path, marker)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{entry}{os.pathsep}{_REAL_PATH}")
    backend = PlainBackend()
    assert backend.probe().ok
    assert backend.probe().detail == f"plain {shutil.which('bash', path=_REAL_PATH)}"
    done = run("echo real", decision=decision("echo real"), cwd=str(tmp_path), sandbox=backend)
    assert done.exit_code == 0
    assert b"real" in done.stdout_bytes
    assert not marker.exists()


def test_a_shell_outside_the_workspace_still_runs(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    monkeypatch.setenv("PATH", _REAL_PATH)
    result = make_tool(TablePolicy(), str(workspace)).call({"command": "echo fine"})
    assert result.status is ToolStatus.OK
    assert result.model_text.endswith("fine")


def test_run_without_a_workspace_refuses_a_shell_in_the_working_folder(
    planted: tuple[pathlib.Path, pathlib.Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `executor.run`'s own backend knows no workspace: the working folder stands for it
    # (review CH7), and the system's shell still runs from `/`
    workspace, marker = planted
    monkeypatch.setenv("PATH", f"{workspace / '.venv' / 'bin'}{os.pathsep}{_REAL_PATH}")
    with pytest.raises(ExecutionRefusedError, match="may be the repository's own program"):
        run("echo hi", decision=decision("echo hi"), cwd=str(workspace))
    assert not marker.exists()
    monkeypatch.setenv("PATH", _REAL_PATH)
    done = run("echo root", decision=decision("echo root"), cwd="/")
    assert b"root" in done.stdout_bytes


def test_run_from_the_root_refuses_a_shell_that_is_not_the_system_s(
    planted: tuple[pathlib.Path, pathlib.Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # review CJ7: from `/` every shell lies below the working folder; one that is not in
    # a system folder is refused all the same
    workspace, marker = planted
    monkeypatch.setenv("PATH", f"{workspace / '.venv' / 'bin'}{os.pathsep}{_REAL_PATH}")
    with pytest.raises(ExecutionRefusedError, match="may be the repository's own program"):
        run("echo hi", decision=decision("echo hi"), cwd="/")
    assert not marker.exists()


def test_a_shipped_link_to_a_system_program_is_no_system_shell(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review CK5: `.venv/bin/bash -> /usr/bin/python3` ran the line as Python
    workspace = tmp_path / "ws"
    (workspace / ".venv" / "bin").mkdir(parents=True)
    (workspace / ".venv" / "bin" / "bash").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", f"{workspace / '.venv' / 'bin'}{os.pathsep}{_REAL_PATH}")
    assert "lies in the workspace" in PlainBackend(workspace=str(workspace)).probe().detail
    with pytest.raises(ExecutionRefusedError, match="may be the repository's own program"):
        run("echo hi", decision=decision("echo hi"), cwd=str(workspace))


def test_a_workspace_reached_through_a_link_on_path_is_the_workspace(
    planted: tuple[pathlib.Path, pathlib.Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # review CL8: `cd ~/proj-link && source .venv/bin/activate` puts the link's path on
    # PATH, while the workspace is the real folder
    workspace, marker = planted
    # the shipped `bash` is a link out of the workspace (CK5's `-> /usr/bin/python3`)
    _plant_bash(workspace.parent / "elsewhere", marker)
    (workspace / ".venv" / "bin" / "bash").unlink()
    (workspace / ".venv" / "bin" / "bash").symlink_to(workspace.parent / "elsewhere" / "bash")
    link = workspace.parent / "proj-link"
    link.symlink_to(workspace)
    monkeypatch.setenv("PATH", f"{link / '.venv' / 'bin'}{os.pathsep}{_REAL_PATH}")
    backend = PlainBackend(workspace=str(workspace))
    assert "lies in the workspace" in backend.probe().detail
    with pytest.raises(ExecutionRefusedError, match="lies in the workspace"):
        run("echo hi", decision=decision("echo hi"), cwd=str(workspace), sandbox=backend)
    result = make_tool(TablePolicy(), str(workspace)).call({"command": "echo hi"})
    assert result.status is not ToolStatus.OK
    assert not marker.exists()


def test_run_without_a_workspace_refuses_a_shell_above_the_working_folder(
    planted: tuple[pathlib.Path, pathlib.Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # review CL8 (CI14): run from `WS/docs`, the shell in `WS/.venv/bin` is not below the
    # working folder; with no workspace known, a shell outside the system's folders is
    # refused, and one named by its path still runs
    workspace, marker = planted
    (workspace / "docs").mkdir()
    monkeypatch.setenv("PATH", f"{workspace / '.venv' / 'bin'}{os.pathsep}{_REAL_PATH}")
    with pytest.raises(ExecutionRefusedError, match="no workspace given"):
        run("echo hi", decision=decision("echo hi"), cwd=str(workspace / "docs"))
    assert not marker.exists()
    bash = shutil.which("bash", path=_REAL_PATH)
    assert bash is not None
    done = run("echo named", decision=decision("echo named"), cwd=str(workspace / "docs"),
               sandbox=PlainBackend(shell=bash))
    assert b"named" in done.stdout_bytes


def test_a_relative_shell_path_is_the_one_checked(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review CM10: `shell="bin/bash"` was checked against Python's working folder and run
    # from the command's, where the repository ships `bin/bash`
    workspace = tmp_path / "ws"
    marker = tmp_path / "planted-bash-ran"
    _plant_bash(workspace / "bin", marker)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "bin").mkdir(parents=True)
    real_bash = shutil.which("bash", path=_REAL_PATH)
    assert real_bash is not None
    (elsewhere / "bin" / "bash").symlink_to(real_bash)
    monkeypatch.chdir(elsewhere)
    backend = PlainBackend(shell="bin/bash", workspace=str(workspace))
    done = run("echo checked", decision=decision("echo checked"), cwd=str(workspace),
               sandbox=backend)
    assert b"checked" in done.stdout_bytes
    assert not marker.exists()


def test_a_shell_of_a_nix_profile_runs_without_a_workspace(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review CM11: `~/.nix-profile/bin/bash` is the user's own install, no repository's
    home = tmp_path / "home"
    profile = home / ".nix-profile" / "bin"
    profile.mkdir(parents=True)
    real_bash = shutil.which("bash", path=_REAL_PATH)
    assert real_bash is not None
    (profile / "bash").symlink_to(real_bash)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", f"{profile}{os.pathsep}{_REAL_PATH}")
    done = run("echo nix", decision=decision("echo nix"), cwd=str(tmp_path))
    assert b"nix" in done.stdout_bytes
