"""The settings snippets in docs/integrations.md are valid and install what they claim."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

DOC = Path(__file__).parents[3] / "docs" / "integrations.md"


def json_blocks() -> list[dict[str, Any]]:
    text = DOC.read_text(encoding="utf-8")
    return [json.loads(body) for body in re.findall(r"```json\n(.*?)```", text, re.DOTALL)]


def test_claude_code_snippet_installs_the_hook_on_bash() -> None:
    [entry] = [b for b in json_blocks() if "PreToolUse" in b.get("hooks", {})]
    [matcher] = entry["hooks"]["PreToolUse"]
    assert matcher["matcher"] == "Bash"
    [hook] = matcher["hooks"]
    assert hook["type"] == "command"
    program, *args = shlex.split(hook["command"])
    # an absolute path: a bare name missing from the agent's PATH exits 127, which the
    # agents read as "go ahead" (review N4)
    assert program.startswith("/")
    assert program.endswith("/policylang")
    assert args == ["hook", "claude-code"]


def test_gemini_cli_snippet_installs_the_hook_on_the_shell_tool() -> None:
    [entry] = [b for b in json_blocks() if "BeforeTool" in b.get("hooks", {})]
    [matcher] = entry["hooks"]["BeforeTool"]
    assert matcher["matcher"] == "run_shell_command"
    program, *args = shlex.split(matcher["hooks"][0]["command"])
    assert program.startswith("/")
    assert program.endswith("/policylang")
    assert args == ["hook", "gemini-cli"]


def test_mcp_snippet_starts_the_server() -> None:
    [entry] = [b for b in json_blocks() if "mcpServers" in b]
    server = entry["mcpServers"]["shell"]
    assert server["command"] == "policylang"
    assert server["args"][0] == "mcp"
