"""Review CG: the end-to-end surfaces, spoken through their real protocols.

CG1 the locale bash reads the line in, CG3 `eval` judging with the process's environment,
CG4 a relative cwd, CG5 a cwd given through a link, CG6 Claude Code's sandbox escape.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from policylang import load_policy
from policylang.engine.context import EvalContext
from policylang.integrations import claude_code

from .test_hook_cli import claude_answer, hook

_GBK_LINE = 'LC_ALL=zh_CN.GBK\necho "中\\"; cat .env; #"'


def _eval(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
          stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "eval", *args],
        input=stdin, capture_output=True, text=True, timeout=120, check=False,
        env=env, cwd=cwd,
    )


# -- CG1 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        _GBK_LINE,
        "export LC_ALL=zh_TW.Big5; ls",
        "env LC_CTYPE=ja_JP.SJIS bash -c ls",
        "read LANG; ls",
        "LC_ALL=$X ls",
    ],
)
def test_a_locale_bash_may_read_otherwise_asks(command: str, tmp_path: Path) -> None:
    decision = load_policy().evaluate(command, workspace=str(tmp_path), env={"HOME": "/none"})
    assert decision.verdict.value == "ask", decision.explain()
    assert any(r.rule_id == "engine.locale-charset" for r in decision.reasons)


@pytest.mark.parametrize("command", ["LC_ALL=C sort README.md", "LANG=C.UTF-8 ls", "LC_ALL= ls"])
def test_c_and_utf8_locales_stay_allowed(command: str, tmp_path: Path) -> None:
    decision = load_policy().evaluate(command, workspace=str(tmp_path), env={"HOME": "/none"})
    assert decision.verdict.value == "allow", decision.explain()


@pytest.mark.parametrize(
    ("env", "asks"),
    [
        ({"LANG": "zh_CN.GBK"}, True),
        ({"LC_ALL": "zh_TW"}, True),
        ({"LC_CTYPE": "ja_JP.SJIS", "LANG": "en_US.UTF-8"}, True),
        # LC_ALL decides now, but the line may empty or unset it (review CH5)
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.GBK"}, True),
        ({"LANG": "en_US"}, False),  # ISO-8859-1: one byte a character
        ({"LANG": "ja_JP.eucJP"}, False),  # EUC trail bytes are never ASCII
    ],
)
def test_the_environment_s_locale(env: dict[str, str], asks: bool, tmp_path: Path) -> None:
    decision = load_policy().evaluate("ls", workspace=str(tmp_path), env={"HOME": "/x", **env})
    assert (decision.verdict.value == "ask") is asks, decision.explain()


def _default_hook(payload: str) -> dict[str, Any]:
    """The hook on the shipped default ruleset, as Claude Code runs it."""
    proc = subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "hook", "claude-code"],
        input=payload.encode(), capture_output=True, timeout=120, check=False,
    )
    return claude_answer(proc)


def test_gbk_line_through_the_claude_code_hook(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SECRET=1\n")
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "cwd": str(tmp_path), "tool_input": {"command": _GBK_LINE}})
    answer = _default_hook(payload)
    assert answer["permissionDecision"] == "ask", answer
    assert "LC_ALL" in answer["permissionDecisionReason"]


# -- CG3, CG4 -------------------------------------------------------------------------------


def test_eval_judges_with_the_process_environment(tmp_path: Path) -> None:
    # the workspace ships `bin/rg`, which PATH finds first: `rg foo` runs the repository's
    (tmp_path / "bin").mkdir()
    fake = tmp_path / "bin" / "rg"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    plain = {**os.environ, "PATH": "/usr/bin:/bin"}
    planted = {**os.environ, "PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin"}
    for env, verdict in ((plain, "allow"), (planted, "ask")):
        single = _eval("--workspace", str(tmp_path), "--json", "rg foo", env=env)
        assert json.loads(single.stdout)["verdict"] == verdict, single.stdout
        batch = _eval("--workspace", str(tmp_path), "--jsonl", env=env,
                      stdin=json.dumps({"command": "rg foo"}) + "\n")
        assert json.loads(batch.stdout)["verdict"] == verdict, batch.stdout


def test_a_relative_cwd_alone_is_joined_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "proj").mkdir()
    monkeypatch.chdir(tmp_path)
    ctx = EvalContext.build(cwd="proj")
    assert (ctx.cwd, ctx.workspace) == (str(tmp_path / "proj"), str(tmp_path / "proj"))
    ctx = EvalContext.build(workspace="proj")
    assert (ctx.cwd, ctx.workspace) == (str(tmp_path / "proj"), str(tmp_path / "proj"))
    # with a workspace, a relative cwd is relative to it (documented)
    ctx = EvalContext.build(cwd="sub", workspace=str(tmp_path / "proj"))
    assert ctx.cwd == str(tmp_path / "proj" / "sub")


def test_eval_with_a_relative_cwd_sees_the_home_above(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "key").write_text("k\n")
    (home / "proj").mkdir()
    env = {**os.environ, "HOME": str(home)}
    done = _eval("--json", "--cwd", "proj", "cat ../.ssh/key", env=env, cwd=home)
    assert json.loads(done.stdout)["verdict"] == "deny", done.stdout


# -- CG5 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["grep -r k", "ls", "rg k", "find", "du -sh", "ls -a"])
def test_a_cwd_given_through_a_link_is_read_where_it_leads(command: str, tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "key").write_text("k\n")
    ws.mkdir()
    (ws / "sshlink").symlink_to(home / ".ssh")
    policy = load_policy()
    through_link = policy.evaluate(command, cwd=str(ws / "sshlink"), workspace=str(ws),
                                   env={"HOME": str(home)})
    assert through_link.verdict.value == "deny", through_link.explain()
    # what grep really reads there
    if command == "grep -r k":
        ran = subprocess.run(["bash", "-c", command], cwd=ws / "sshlink", capture_output=True,
                             text=True, check=False)
        assert "key:k" in ran.stdout


# -- CG6 ------------------------------------------------------------------------------------


def _claude(command: str, **tool_input: Any) -> str:
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/tmp",
                       "tool_input": {"command": command, **tool_input}})


@pytest.mark.parametrize("value", [True, "true", 1])
def test_leaving_claude_code_s_sandbox_is_asked(value: object) -> None:
    answer = claude_answer(hook("claude-code", _claude("ls -la", dangerouslyDisableSandbox=value)))
    assert answer["permissionDecision"] == "ask"
    assert "dangerouslyDisableSandbox" in answer["permissionDecisionReason"]


def test_staying_in_the_sandbox_is_unchanged() -> None:
    for extra in ({}, {"dangerouslyDisableSandbox": False}):
        answer = claude_answer(hook("claude-code", _claude("ls -la", **extra)))
        assert answer["permissionDecision"] == "allow"
    denied = claude_answer(hook("claude-code", _claude("rm -rf /", dangerouslyDisableSandbox=True)))
    assert denied["permissionDecision"] == "deny"


def test_sandbox_escape_in_process(tmp_path: Path) -> None:
    from .conftest import TablePolicy

    result = claude_code.handle(_claude("ls -la", dangerouslyDisableSandbox=True),
                                lambda: TablePolicy(), environ={})
    out = json.loads(result.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "ask"
