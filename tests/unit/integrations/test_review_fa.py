"""Review FA1: Gemini CLI runs `command.trim()` (JavaScript's white space, U+00A0 and
U+3000 among it), but its hook judged the command as sent: `cat .env\\u00a0` is one word
`.env\\xa0` for bash, which no protect rule names, so the hook allowed a line that ran as
`cat .env`. Both hooks now judge the trimmed text too (whether Claude Code trims is not
known here; judging both costs only a stricter answer)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

_TRAILERS = ["\u00a0", "\u3000", "\ufeff", "\u2028"]


def _hook(agent: str, payload: dict[str, object], home: Path) -> dict[str, object]:
    env = {**os.environ, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    env.pop("CLAUDE_PROJECT_DIR", None)
    env.pop("GEMINI_PROJECT_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "hook", agent],
        input=json.dumps(payload).encode(),
        capture_output=True,
        timeout=120,
        check=True,
        env=env,
    )
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("TOKEN=CANARY_FA1\n")
    (workspace / ".git").mkdir()  # a project root for the hooks' workspace guess
    home = tmp_path / "home"
    home.mkdir()
    return workspace, home


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("trailer", _TRAILERS)
def test_what_javascript_trims_is_what_runs(tmp_path: Path, trailer: str) -> None:
    workspace, _home = _workspace(tmp_path)
    command = f"cat .env{trailer}"
    trimmed = subprocess.run(
        ["node", "-e", "process.stdout.write(JSON.parse(process.argv[1]).trim())",
         json.dumps(command)],
        capture_output=True, check=True, timeout=60, text=True,
    ).stdout  # fmt: skip
    assert trimmed == "cat .env"
    ran = subprocess.run(["bash", "-c", trimmed], cwd=workspace, capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert "CANARY_FA1" in ran.stdout  # what Gemini CLI runs prints the secret
    untrimmed = subprocess.run(["bash", "-c", command], cwd=workspace, capture_output=True,
                               text=True, timeout=60)  # fmt: skip
    assert "CANARY_FA1" not in untrimmed.stdout  # bash alone reads another name


@pytest.mark.parametrize("trailer", _TRAILERS)
def test_the_gemini_hook_judges_the_trimmed_command(tmp_path: Path, trailer: str) -> None:
    workspace, home = _workspace(tmp_path)
    payload = {
        "session_id": "s",
        "cwd": str(workspace),
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": f"cat .env{trailer}"},
    }
    assert _hook("gemini-cli", payload, home)["decision"] == "deny"
    payload["tool_input"] = {"command": f"cat README{trailer}"}
    assert _hook("gemini-cli", payload, home)["decision"] == "allow"  # no false deny


@pytest.mark.parametrize("trailer", _TRAILERS)
def test_the_claude_code_hook_judges_the_trimmed_command(tmp_path: Path, trailer: str) -> None:
    workspace, home = _workspace(tmp_path)
    payload = {
        "session_id": "s",
        "cwd": str(workspace),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": f"cat .env{trailer}"},
    }
    output = _hook("claude-code", payload, home)["hookSpecificOutput"]
    assert isinstance(output, dict)
    assert output["permissionDecision"] == "deny"
