"""Review EM: the session's fixes attacked.

EM1: bash's lexer keeps a raw 0x01 or 0x7f behind a CTLESC that its `$'…'` decoder then
reads (`$'\\c<DEL>'` is `01 7f`, the engine had `1f`): such a word is not known now.
EM2: `-oe pipefail -lc` hid the `-l` from the login check (each `o`/`O` of a bundle takes
the next word). EM3: a login shell's start-up file leading into the workspace runs the
repository's code. EM4: home reached through a link from its real place under /tmp undid
the rule that `except /tmp/**` does not reach into home. EM5: a shell's `-` ends its
options as `--` does (`bash - .env` runs `.env`), and `--init-file`/`--rcfile` are read."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict, load_policy
from policylang.shell.parse import parse_command
from policylang.tool import BashTool


def _home_and_workspace(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("CANARY_EM_KEY\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("API_KEY=CANARY_EM_ENV\n")
    return home, workspace


@pytest.mark.parametrize(
    ("name", "line"),
    [(b"\x01\x7f", "grep -r . $'\\c\x7f'"),
     (b"\x01\x01", "cat $'\\c\x01/.ssh/id_rsa'"),
     (b"\\\x01\x01", "cat $'\\\x01/.ssh/id_rsa'")],
)  # fmt: skip
def test_a_raw_ctlesc_byte_after_an_escape_is_not_known(
    tmp_path: Path, name: bytes, line: str
) -> None:
    home, workspace = _home_and_workspace(tmp_path)
    target = "../home/.ssh" if line.startswith("grep") else "../home"
    os.symlink(target, os.fsencode(workspace) + b"/" + name)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    assert "CANARY_EM_KEY" in run_printed(line, workspace, env)
    assert parse_command(line).segments[0].words[-1].value is None
    assert decide(line, workspace, env).verdict is not Verdict.ALLOW


def _planted_id(workspace: Path, marker: Path) -> None:
    tools = workspace / "bin"
    tools.mkdir()
    (tools / "id").write_text(f"#!/bin/sh\ntouch '{marker}'\n/usr/bin/id \"$@\"\n")
    (tools / "id").chmod(0o755)


@pytest.mark.parametrize(
    "line",
    ["bash -oe pipefail -lc 'echo hi'", "bash -ox pipefail -l -c 'echo hi'",
     "bash -oo pipefail errexit -lc 'echo hi'", "sh -oe errexit -lc 'echo hi'"],
)  # fmt: skip
def test_a_login_flag_after_a_bundle_is_seen(tmp_path: Path, line: str) -> None:
    home, workspace = _home_and_workspace(tmp_path)
    marker = tmp_path / "ran-id"
    _planted_id(workspace, marker)
    env = {"HOME": str(home), "PATH": f"{workspace}/bin:/usr/bin:/bin"}
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any("-l` is a script" in r.message for r in decision.reasons)
    if "id -u" in Path("/etc/profile").read_text():  # Debian's profile runs `id` by PATH
        run_printed(line, workspace, env)
        assert marker.exists()


def _dotfiles(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A home whose `.profile` is the workspace's (a dotfiles repository)."""
    home, workspace = _home_and_workspace(tmp_path)
    marker = tmp_path / "ran-profile"
    (workspace / ".profile").write_text(f"touch '{marker}'\n")
    (home / ".profile").symlink_to(workspace / ".profile")
    return home, workspace, marker


@pytest.mark.parametrize("line", ["bash -lc 'echo hi'", "sh -lc 'echo hi'", "bash -l -c ls"])
def test_a_login_shell_s_start_up_file_in_the_workspace_asks(tmp_path: Path, line: str) -> None:
    home, workspace, marker = _dotfiles(tmp_path)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any("start-up file" in r.message for r in decision.reasons)
    run_printed(line, workspace, env)
    assert marker.exists()  # what an allow let run


def test_the_tool_s_login_sees_the_start_up_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, workspace, marker = _dotfiles(tmp_path)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    tool = BashTool(load_policy(), workspace=str(workspace))
    result = tool.call({"command": "echo hi", "login": True})
    assert result.decision is not None
    assert result.decision.verdict is Verdict.ASK
    assert not marker.exists()
    assert decide("bash -c 'echo hi'", workspace, {"HOME": str(home)}).verdict is Verdict.ALLOW


def test_home_through_a_link_keeps_tmp_s_exception_out_of_home(tmp_path: Path) -> None:
    real_home, workspace = _home_and_workspace(tmp_path)
    (workspace / "a.txt").write_text("a\n")
    linked = tmp_path / "home-link"
    linked.symlink_to(real_home)
    env = {"HOME": str(linked), "PATH": f"{linked}/.cargo/bin:/usr/bin:/bin"}
    assert decide("cp a.txt b.txt", workspace, env).suggested_rule == "cp"
    for target in ("~/.cargo/bin/ls", f"{real_home}/.cargo/bin/ls", f"{linked}/.cargo/bin/ls"):
        decision = decide(f"cp a.txt {target}", workspace, env, "cp")
        assert decision.verdict is Verdict.ASK, (target, decision.explain())
    # outside home, /tmp stays excepted under both spellings
    assert decide(f"cp a.txt {tmp_path}/x", workspace, env, "cp").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line", ["bash - .env", "sh - .env", "bash -x - .env", "sh -x - .env",
             "bash --init-file .env -i -c true", "bash --rcfile=.env -i"],
)  # fmt: skip
def test_a_shell_s_script_after_a_dash_is_read(tmp_path: Path, line: str) -> None:
    home, workspace = _home_and_workspace(tmp_path)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_bash_runs_the_script_after_a_dash(tmp_path: Path) -> None:
    home, workspace = _home_and_workspace(tmp_path)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    for shell in ("bash", "sh"):
        done = subprocess.run([shell, "-x", "-", ".env"], cwd=workspace, env=env,
                              capture_output=True, text=True, timeout=60, check=False,
                              stdin=subprocess.DEVNULL)  # fmt: skip
        assert "CANARY_EM_ENV" in done.stdout + done.stderr
