"""Review N: the Gemini hook judges what Gemini runs, and no hook answer can hang.

Real `policylang hook` processes, real-shaped payloads, the shipped default ruleset and a
real repository with a fake secret.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from policylang.cli import hook_cmd
from policylang.integrations._common import HookResult
from policylang.integrations.gemini_cli import commands_run


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / ".env").write_text("API_KEY=FAKE-SECRET-123\n")
    (ws / "server.key").write_text("FAKE PRIVATE KEY\n")
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    return ws


def run_hook(agent: str, payload: dict[str, Any], ws: Path,
             *extra: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(ws), "GEMINI_PROJECT_DIR": str(ws)}
    return subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "hook", agent, *extra],
        input=json.dumps(payload).encode(), capture_output=True, timeout=60, check=False,
        env=env, cwd=ws,
    )


def gemini(command: str, ws: Path, **tool_input: str) -> dict[str, Any]:
    payload = {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
               "cwd": str(ws), "tool_input": {"command": command, **tool_input}}
    proc = run_hook("gemini-cli", payload, ws)
    assert proc.returncode == 0, proc.stderr
    body: dict[str, Any] = json.loads(proc.stdout)
    return body


@pytest.mark.parametrize(
    "command",
    [
        "bash -c 'echo ok' x '; cat .env'",
        'bash -c "ls" "; cat .env"',
        "/bin/bash -c 'true' x '; cat .env'",
        "sh -c 'git status' _ '; cat .env'",
        "BASH -c 'ls' _ '; cat .env'",
        "FOO=1 bash -e -o pipefail -lc 'ls' _ ';cat .env'",
        "cmd.exe /c cat .env",  # review Q5: Windows wrappers are cut on Linux too
        "pwsh -NoProfile -Command cat .env",
    ],
)
def test_gemini_judges_the_text_it_runs_after_cutting_the_wrapper(repo: Path,
                                                                   command: str) -> None:
    # N1: Gemini cuts `bash -c ` and the first and last quote, paired or not, so the
    # inert `$0`/`$1` arguments become code: `echo ok' x '; cat .env` prints the secret
    assert commands_run(command)[-1].endswith("cat .env")
    body = gemini(command, repo)
    assert body["decision"] == "deny"
    assert ".env" in body["reason"]


@pytest.mark.parametrize("command", ["bash -c 'ls src'", 'sh -c "git status"', "ls -la"])
def test_a_plain_wrapper_is_still_allowed(repo: Path, command: str) -> None:
    assert gemini(command, repo) == {"decision": "allow"}


@pytest.mark.parametrize(
    "arguments",
    [{"directory": "/tmp"}, {"dir_path": "", "directory": "/tmp"}, {"dir_path": "/tmp"}],
)
def test_a_model_written_directory_cannot_move_the_judgement(repo: Path,
                                                             arguments: dict[str, str]) -> None:
    # N3: current releases ignore `directory` and read an empty `dir_path` as the root
    body = gemini("cat server.key", repo, **arguments)
    assert body["decision"] == "deny"
    assert "server.key" in body["reason"]


def test_the_working_directory_still_counts(repo: Path) -> None:
    (repo / "src" / "main.py").write_text("print(1)\n")
    assert gemini("cat main.py", repo, dir_path="src") == {"decision": "allow"}


@pytest.mark.parametrize("name", ["HEAD", "commondir"])
def test_a_fifo_in_the_repository_cannot_hang_the_hook(repo: Path, name: str) -> None:
    # N2: `.git/HEAD` or `.git/commondir` as a FIFO blocked the hook forever, and the
    # agents let a call through once their hook timeout passes
    fifo = repo / ".git" / name
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(repo),
               "tool_input": {"command": "cat .env; false && git status"}}
    started = time.monotonic()
    proc = run_hook("claude-code", payload, repo)
    assert time.monotonic() - started < 50  # answered, not killed by the timeout
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"


def _hang(pid_file: Path) -> HookResult:
    pid_file.write_text(str(os.getpid()))
    time.sleep(120)
    return HookResult(stdout='{"decision": "allow"}')


def test_a_check_that_does_not_answer_in_time_blocks_and_is_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    result = hook_cmd.isolated(lambda: _hang(pid_file), deadline_s=1.0)
    assert result.exit_code == hook_cmd.EXIT_BLOCKED
    assert result.stdout == ""
    assert "no answer within 1 s" in result.stderr
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(int(pid_file.read_text()), 0)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_a_deadline_must_be_a_positive_number(tmp_path: Path, value: str) -> None:
    proc = run_hook("claude-code", {}, tmp_path, "--deadline", value)
    assert proc.returncode == 2
    assert b"--deadline" in proc.stderr


def test_a_payload_that_never_ends_is_refused_at_the_deadline(tmp_path: Path) -> None:
    # review AM3: stdin was read to its end before the deadline started, so a writer that
    # kept it open held the hook until the agent's own timeout let the call through
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(tmp_path),
               "tool_input": {"command": "ls"}}
    command = [sys.executable, "-m", "policylang.cli.main", "hook", "claude-code",
               "--deadline", "3"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, cwd=tmp_path) as hook:
        assert hook.stdin is not None
        assert hook.stdout is not None
        assert hook.stderr is not None
        hook.stdin.write(json.dumps(payload).encode())
        hook.stdin.flush()  # and left open
        try:
            returncode = hook.wait(timeout=40)
        finally:
            hook.kill()
        stdout, stderr = hook.stdout.read(), hook.stderr.read()
    assert returncode == hook_cmd.EXIT_BLOCKED
    assert stdout == b""
    assert b"did not end before the deadline" in stderr
