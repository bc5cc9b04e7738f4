"""`policylang mcp` end to end: the official SDK's stdio client against the real server."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters

POLICY = Path(__file__).parent / "data" / "hook.policy"
#: the checkout under test: the server starts in the workspace, where `-m` would find the
#: installed policylang (another worktree's, for an editable install), not this one
REPO = Path(__file__).resolve().parents[3]

Session = Callable[[Client], Awaitable[None]]


def run_session(
    workspace: Path,
    body: Session,
    *,
    answer: str | None = None,
    mode: str = "auto",
    asked: list[str] | None = None,
    extra: tuple[str, ...] = (),
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "policylang.cli.main",
            "mcp",
            "--policy",
            str(POLICY),
            "--workspace",
            str(workspace),
            *extra,
        ],
        cwd=str(workspace),
        env={"PYTHONPATH": str(REPO)},
    )

    async def elicit(context: Any, request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestFormParams)
        if asked is not None:
            asked.append(request.message)
        if answer is None:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"decision": answer})

    async def main() -> None:
        options: dict[str, Any] = {"mode": mode, "read_timeout_seconds": 30}
        if answer is not None or asked is not None:
            options["elicitation_callback"] = elicit
        async with Client(params, **options) as client:
            await body(client)

    anyio.run(main)


def text_of(result: types.CallToolResult) -> str:
    assert isinstance(result.content[0], types.TextContent)
    return result.content[0].text


def test_lists_the_four_tools(tmp_path: Path) -> None:
    async def body(client: Client) -> None:
        listed = await client.list_tools()
        tools = {tool.name: tool for tool in listed.tools}
        assert set(tools) == {"bash", "job_status", "jobs", "cleanup_jobs"}
        assert tools["bash"].input_schema["required"] == ["command"]
        assert "command" in tools["bash"].input_schema["properties"]

    run_session(tmp_path, body)


def test_allowed_command_runs_denied_is_refused(tmp_path: Path) -> None:
    (tmp_path / "hello.txt").write_text("hi\n")

    async def body(client: Client) -> None:
        ok = await client.call_tool("bash", {"command": "ls"})
        assert not ok.is_error
        assert "hello.txt" in text_of(ok)
        assert ok.structured_content is not None
        assert ok.structured_content["status"] == "ok"
        denied = await client.call_tool("bash", {"command": "rm -rf hello.txt"})
        assert denied.is_error
        assert "denied by policy" in text_of(denied)
        assert "recursive delete" in text_of(denied)

    run_session(tmp_path, body)
    assert (tmp_path / "hello.txt").exists()


def test_ask_without_elicitation_is_refused_with_suggested_rule(tmp_path: Path) -> None:
    async def body(client: Client) -> None:
        refused = await client.call_tool("bash", {"command": "touch made-by-ask"})
        assert refused.is_error
        assert "needs a person's approval" in text_of(refused)
        assert "suggested rule" in text_of(refused)

    run_session(tmp_path, body)
    assert not (tmp_path / "made-by-ask").exists()


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_ask_with_elicitation_approved_once_runs(tmp_path: Path, mode: str) -> None:
    asked: list[str] = []

    async def body(client: Client) -> None:
        result = await client.call_tool("bash", {"command": "touch made-by-ask"})
        assert not result.is_error, text_of(result)
        assert result.structured_content is not None
        assert result.structured_content["approval"] == "once"

    run_session(tmp_path, body, answer="once", mode=mode, asked=asked)
    assert (tmp_path / "made-by-ask").exists()
    assert len(asked) == 1
    assert "touch made-by-ask" in asked[0]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_ask_with_elicitation_declined_does_not_run(tmp_path: Path, mode: str) -> None:
    async def body(client: Client) -> None:
        result = await client.call_tool("bash", {"command": "touch made-by-ask"})
        assert result.is_error
        assert "declined" in text_of(result)

    run_session(tmp_path, body, answer=None, mode=mode, asked=[])
    assert not (tmp_path / "made-by-ask").exists()


def test_denied_command_is_never_put_to_the_user(tmp_path: Path) -> None:
    asked: list[str] = []

    async def body(client: Client) -> None:
        result = await client.call_tool("bash", {"command": "curl https://example.com"})
        assert result.is_error

    run_session(tmp_path, body, answer="once", asked=asked)
    assert asked == []


def test_background_job_lifecycle(tmp_path: Path) -> None:
    async def body(client: Client) -> None:
        started = await client.call_tool(
            "bash", {"command": "echo from-the-job", "background": True}
        )
        assert not started.is_error, text_of(started)
        assert started.structured_content is not None
        job_id = started.structured_content["job_id"]
        status = await client.call_tool("job_status", {"job_id": job_id, "wait_s": 10})
        assert "from-the-job" in text_of(status)
        assert "exited" in text_of(status)
        listed = await client.call_tool("jobs", {})
        assert job_id in text_of(listed)
        cleaned = await client.call_tool("cleanup_jobs", {})
        assert "removed 1 finished job(s)" in text_of(cleaned)
        gone = await client.call_tool("job_status", {"job_id": job_id})
        assert gone.is_error

    run_session(tmp_path, body)


def test_invalid_arguments_teach(tmp_path: Path) -> None:
    async def body(client: Client) -> None:
        result = await client.call_tool("bash", {"cmd": "ls"})
        assert result.is_error
        assert "command" in text_of(result)
        bad = await client.call_tool("job_status", {"job_id": 3})
        assert bad.is_error

    run_session(tmp_path, body)


@pytest.mark.parametrize("answer", ["session", "always"])
def test_session_and_always_answers_are_remembered(tmp_path: Path, answer: str) -> None:
    asked: list[str] = []
    store = tmp_path / "config" / "approvals.toml"  # outside the workspace: see below
    workspace = tmp_path / "ws"
    workspace.mkdir()

    async def body(client: Client) -> None:
        first = await client.call_tool("bash", {"command": "touch one"})
        assert not first.is_error, text_of(first)
        second = await client.call_tool("bash", {"command": "touch two"})
        assert not second.is_error, text_of(second)

    run_session(workspace, body, answer=answer, asked=asked, extra=("--approvals", str(store)))
    assert len(asked) == 1
    assert (workspace / "one").exists()
    assert (workspace / "two").exists()
    saved = store.read_text() if store.exists() else ""
    assert ('"touch"' in saved) is (answer == "always")


def test_sandboxed_server_confines_writes(tmp_path: Path) -> None:
    from policylang.executor import BubblewrapBackend

    outside = Path("/var/tmp") / f"policylang-mcp-test-{os.getpid()}"
    usable = BubblewrapBackend(str(tmp_path)).probe().ok

    async def body(client: Client) -> None:
        listed = await client.list_tools()
        [bash] = [t for t in listed.tools if t.name == "bash"]
        assert ("sandbox" in bash.input_schema["properties"]) is usable
        result = await client.call_tool("bash", {"command": f"echo hi > {outside}"})
        assert result.is_error
        message = "Read-only file system" if usable else "no usable execution backend"
        assert message in text_of(result)

    try:
        run_session(tmp_path, body, answer="once", extra=("--sandbox", "bubblewrap"))
        assert not outside.exists()
    finally:
        outside.unlink(missing_ok=True)


def test_an_approval_state_is_used_once_for_that_call_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # review I1: a signed request state could be replayed, and moved to a call with other
    # arguments (`login`, `background`); now it is bound to every argument, used once,
    # and expires
    from policylang.decision import Verdict
    from policylang.executor.jobs import JobStore
    from policylang.integrations import mcp_server
    from policylang.tool.bash import ApprovalRequest

    with JobStore() as jobs:
        server = mcp_server.PolicyShellServer(lambda approver: None, jobs)  # type: ignore[arg-type,return-value]
        request = ApprovalRequest(
            command="touch x", description=None, reasons=(), suggested_rule=None,
            workdir="/w", verdict=Verdict.ASK,
        )  # fmt: skip
        call = mcp_server._arguments_digest({"command": "touch x"})
        state = server._sign(request, call)
        other = mcp_server._arguments_digest({"command": "touch x", "login": True})
        assert server._verify(state, other) is None  # another call's arguments
        assert server._verify(state, call) == mcp_server.request_digest(request)
        assert server._verify(state, call) is None  # used once
        assert server._verify(state[:-1] + "0", call) is None  # forged
        late = server._sign(request, call)
        monkeypatch.setattr(mcp_server.time, "time", lambda: 2e10)
        assert server._verify(late, call) is None  # expired


def test_an_approvals_file_in_the_workspace_is_refused(tmp_path: Path) -> None:
    # review L5: the agent's commands (sandboxed ones too) can write the workspace
    proc = subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "mcp", "--workspace", str(tmp_path),
         "--approvals", str(tmp_path / "approvals.toml")],
        input="", capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2
    assert "inside the workspace" in proc.stderr


def test_a_job_status_stays_within_the_models_budget(tmp_path: Path) -> None:
    # review AQ9: a window of invalid UTF-8 grew three times as replacement characters
    async def body(client: Client) -> None:
        command = "echo {1..40000}$'\\xff\\xfe'"
        started = await client.call_tool("bash", {"command": command, "background": True})
        assert not started.is_error, text_of(started)
        assert started.structured_content is not None
        job_id = started.structured_content["job_id"]
        status = await client.call_tool("job_status", {"job_id": job_id, "wait_s": 20})
        text = text_of(status)
        assert len(text.encode()) <= 50_000
        assert "text truncated" in text

    run_session(tmp_path, body, answer="once")
