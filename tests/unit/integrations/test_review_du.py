"""Review DU: the Claude Code hook in modes that do not prompt, and `--ask-as deny`;
`policylang run` and the hooks are not dumpable. Real processes, real protocols."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import pytest

from .test_hook_cli import POLICY, claude_answer, hook


def _payload(command: str, mode: object = "default") -> str:
    body: dict[str, object] = {
        "session_id": "0b6d8c52", "cwd": "/tmp", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_01",
    }
    if mode is not None:
        body["permission_mode"] = mode
    return json.dumps(body)


@pytest.mark.parametrize("mode", ["auto", "bypassPermissions", "dontAsk", "someNewMode", 7])
def test_du6_an_ask_is_denied_where_claude_code_would_not_prompt(mode: object) -> None:
    # Claude Code runs a hook's `ask` without a prompt in these modes: the ask must hold
    out = claude_answer(hook("claude-code", _payload("npm install left-pad", mode)))
    assert out["permissionDecision"] == "deny"
    reason = out["permissionDecisionReason"]
    assert "npm install" in reason
    assert "permission mode" in reason


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", None])
def test_du6_an_ask_stays_an_ask_where_claude_code_prompts(mode: object) -> None:
    out = claude_answer(hook("claude-code", _payload("npm install left-pad", mode)))
    assert out["permissionDecision"] == "ask"


@pytest.mark.parametrize(("command", "verdict"), [("ls -la", "allow"), ("rm -rf build", "deny")])
def test_du6_allow_and_deny_are_unchanged_in_auto_mode(command: str, verdict: str) -> None:
    out = claude_answer(hook("claude-code", _payload(command, "auto")))
    assert out["permissionDecision"] == verdict


def test_du6_ask_as_deny_is_honoured_for_claude_code() -> None:
    # it was accepted and silently ignored
    proc = hook("claude-code", _payload("npm install left-pad"), "--ask-as", "deny")
    out = claude_answer(proc)
    assert out["permissionDecision"] == "deny"
    assert "--ask-as deny" in out["permissionDecisionReason"]
    allowed = claude_answer(hook("claude-code", _payload("ls -la"), "--ask-as", "deny"))
    assert allowed["permissionDecision"] == "allow"


# -- DU2 / DU7: `policylang run` as a real process ------------------------------------------

REPO = Path(__file__).resolve().parents[3]


def _as_a_plain_user() -> tuple[list[str], dict[str, str]] | None:
    """How to start `policylang run` so that `PR_SET_DUMPABLE` counts: as this user when
    it is not root (root reads any `/proc/PID/environ`), else as `nobody` through
    `setpriv`, with the system's Python and this checkout's packages; None if neither."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    if os.geteuid() != 0:
        env["PYTHONPATH"] = str(REPO)
        return [sys.executable], env
    setpriv = shutil.which("setpriv")
    python = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    if setpriv is None or not os.access(python, os.X_OK):
        return None
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), sysconfig.get_paths()["purelib"]])
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", python], env


def test_du2_the_command_cannot_read_policylang_runs_environment() -> None:
    # its own environment is scrubbed; `policylang run`'s, which holds the secret, had
    # been read through `/proc/$PPID/environ`
    how = _as_a_plain_user()
    if how is None:
        pytest.skip("no way to run as a user without CAP_SYS_PTRACE here")
    prefix, env = how
    folder = Path(tempfile.mkdtemp(prefix="policylang-du2-", dir="/var/tmp"))
    try:
        folder.chmod(0o777)
        (folder / "home").mkdir(mode=0o777)
        (folder / "home").chmod(0o777)
        env.update(MY_SECRET_API_KEY="sk-live-123", HOME=str(folder / "home"))
        command = "tr '\\0' '\\n' < /proc/$PPID/environ | grep -c MY_SECRET_API_KEY; echo done"
        proc = subprocess.run(
            [*prefix, "-m", "policylang.cli.main", "run", "--policy", str(POLICY),
             "--workspace", str(folder), "--yes", "--", command],
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
            check=False, env=env, cwd=str(folder),
        )
        assert "done" in proc.stdout, proc.stderr
        assert proc.stdout.splitlines()[0] == "0", (proc.stdout, proc.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)




def test_du7_policylang_run_kills_a_clone_parent_child_at_the_deadline(tmp_path: Path) -> None:
    # the child of `clone(CLONE_PARENT)` is `policylang run`'s own; after `setsid` it had
    # survived the timeout, and `policylang run` itself
    shutil.copy(Path(__file__).resolve().parents[2] / "fixtures" / "clone_parent.py",
                tmp_path / "clone.py")
    pidfile = tmp_path / "pid"
    command = f"exec {shlex.quote(sys.executable)} clone.py {shlex.quote(str(pidfile))}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "run", "--policy", str(POLICY),
         "--workspace", str(tmp_path), "--yes", "--timeout", "2", "--", command],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, check=False,
        env=env,
    )
    assert "timed out" in proc.stderr, proc.stderr
    pid = int(pidfile.read_text())
    try:
        time.sleep(0.3)
        assert not os.path.exists(f"/proc/{pid}") or _state(pid) in ("Z", "X"), _state(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    return raw[raw.rfind(b")") + 2 :].split()[0].decode()


def test_du2_the_hook_is_not_dumpable_while_it_waits_for_its_payload() -> None:
    # it holds the agent's environment; `/proc/PID/*` of a process that is not dumpable
    # belongs to root, whoever runs it
    how = _as_a_plain_user()
    if how is None or os.geteuid() != 0:
        pytest.skip("the owner of /proc/PID/environ tells only when the hook runs as another user")
    prefix, env = how
    proc = subprocess.Popen(
        [*prefix, "-m", "policylang.cli.main", "hook", "claude-code", "--policy", str(POLICY)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        cwd="/",
    )
    try:
        owners: list[int] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            owners.append(os.stat(f"/proc/{proc.pid}/environ").st_uid)
            if owners[-1] == 0 and 65534 in owners:
                break
            time.sleep(0.005)
        # (root's while `setpriv` changes users, the user's after `execve`, then root's)
        assert 65534 in owners
        assert owners[-1] == 0
        out, err = proc.communicate(_payload("ls -la").encode(), timeout=60)
        assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "allow", err
    finally:
        proc.kill()
        proc.wait()
