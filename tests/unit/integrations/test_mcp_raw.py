"""`policylang mcp` spoken to in raw JSON-RPC lines, for what the SDK's client cannot send.

The SDK's client refuses to encode a lone surrogate, and never sends a line that is not
JSON; an agent's runtime, or a hostile peer on the pipe, can. Every request must still get
an answer: the SDK's transport drops a line it cannot read, which left the call hanging.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

POLICY = Path(__file__).parent / "data" / "hook.policy"
TIMEOUT_S = 30.0


class RawClient:
    """A JSON-RPC peer writing exact lines to the server's stdin and reading its answers."""

    def __init__(self, workspace: Path) -> None:
        args = [sys.executable, "-m", "policylang.cli.main", "mcp"]
        args += ["--policy", str(POLICY), "--workspace", str(workspace)]
        self.process = subprocess.Popen(
            args,
            cwd=workspace,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.answers: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.answers.put(line)

    def send_line(self, line: str) -> None:
        assert self.process.stdin is not None
        # surrogatepass: the bytes a careless peer's encoder writes for a lone surrogate
        self.process.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        try:
            line = self.answers.get(timeout=TIMEOUT_S)
        except queue.Empty:
            pytest.fail(f"the server did not answer within {TIMEOUT_S} s")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def initialize(self, capabilities: dict[str, Any] | None = None) -> None:
        params = {
            "protocolVersion": "2025-06-18",
            "capabilities": capabilities or {},
            "clientInfo": {"name": "raw", "version": "1"},
        }
        request = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}
        self.send_line(json.dumps(request))
        assert "result" in self.answer()
        self.send_line(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def close(self) -> str:
        assert self.process.stdin is not None
        assert self.process.stderr is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(TIMEOUT_S)
        stderr = self.process.stderr.read().decode("utf-8", "replace")
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()
        return stderr


@pytest.fixture
def client(tmp_path: Path) -> Iterator[RawClient]:
    peer = RawClient(tmp_path)
    peer.initialize()
    yield peer
    peer.close()


def call_line(request_id: object, command_json: str) -> str:
    """A `tools/call` of `bash` whose command is given as raw JSON text (escapes kept)."""
    return (
        f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"method":"tools/call",'
        f'"params":{{"name":"bash","arguments":{{"command":{command_json}}}}}}}'
    )


def list_tools(peer: RawClient, request_id: int) -> None:
    peer.send_line(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}))
    answer = peer.answer()
    assert answer["id"] == request_id
    assert "bash" in {tool["name"] for tool in answer["result"]["tools"]}


def test_an_escaped_lone_surrogate_in_a_call_is_answered_and_nothing_runs(
    client: RawClient, tmp_path: Path
) -> None:
    client.send_line(call_line(7, r'"touch marker; echo \ud800"'))
    answer = client.answer()
    assert answer["id"] == 7
    assert answer["error"]["code"] == -32600
    message = answer["error"]["message"]
    assert "lone surrogate" in message
    assert "nothing was run" in message
    assert not (tmp_path / "marker").exists()
    list_tools(client, 8)  # the server goes on serving


def test_raw_surrogate_bytes_are_judged_as_replacement_characters(
    client: RawClient, tmp_path: Path
) -> None:
    # bytes that are not UTF-8 reach the handler as U+FFFD (the transport decodes with
    # replacement), so the command is judged, and refused, as it would run
    client.send_line(call_line(9, '"touch marker; echo \ud800"'))
    answer = client.answer()
    assert answer["id"] == 9
    result = answer["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["status"] == "refused"
    assert "echo \ufffd\ufffd\ufffd" in result["content"][0]["text"]
    assert not (tmp_path / "marker").exists()


def test_a_line_that_is_not_json_gets_a_parse_error(client: RawClient) -> None:
    client.send_line("this is not json {")
    answer = client.answer()
    assert answer["id"] is None
    assert answer["error"]["code"] == -32700
    list_tools(client, 2)


def test_a_request_off_the_schema_is_answered_with_its_id(client: RawClient) -> None:
    client.send_line('{"jsonrpc":"2.0","id":"abc","method":5}')
    answer = client.answer()
    assert answer == {
        "jsonrpc": "2.0",
        "id": "abc",
        "error": {
            "code": -32600,
            "message": "invalid request: the message does not follow the JSON-RPC 2.0 / "
            "MCP schema; nothing was run",
        },
    }


@pytest.mark.parametrize(
    ("line", "request_id", "why"),
    [
        ('{"id":51}', 51, "neither a request nor a response"),
        ('{"jsonrpc":"2.0","id":"x"}', "x", "neither a request nor a response"),
        ('{"jsonrpc":"2.0"}', None, "the id is not a string or number"),
    ],
)
def test_a_message_with_no_method_result_or_error_is_answered(
    client: RawClient, line: str, request_id: object, why: str
) -> None:
    client.send_line(line)  # neither a request nor a response (review BJ8)
    answer = client.answer()
    assert answer["id"] == request_id
    assert answer["error"]["code"] == -32600
    assert why in answer["error"]["message"]
    list_tools(client, 4)


def test_an_id_holding_a_surrogate_is_echoed_in_valid_unicode(client: RawClient) -> None:
    client.send_line(call_line("call\udc80", '"ls"'))  # json.dumps escapes it: \\udc80
    answer = client.answer()
    assert answer["id"] == "call\ufffd"
    assert answer["error"]["code"] == -32600


def test_unreadable_notifications_are_not_answered(client: RawClient) -> None:
    client.send_line(
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"x":"\\ud800"}}'
    )
    list_tools(client, 3)  # the next answer is the list's: nothing was sent for the notification


def test_the_server_logs_what_it_could_not_read(tmp_path: Path) -> None:
    peer = RawClient(tmp_path)
    peer.initialize()
    peer.send_line("not json")
    peer.answer()
    stderr = peer.close()
    assert "unreadable message from the client" in stderr


def test_an_unreadable_answer_to_a_question_is_a_no(tmp_path: Path) -> None:
    peer = RawClient(tmp_path)
    peer.initialize({"elicitation": {"form": {}}})
    peer.send_line(call_line(4, '"touch marker"'))  # the policy asks
    question = peer.answer()
    assert question["method"] == "elicitation/create"
    # the person "accepts" with an answer the server cannot read: before, the call waited
    # forever for an answer that had already come
    reply = {"action": "accept", "content": {"decision": "once\ud800"}}
    line = json.dumps({"jsonrpc": "2.0", "id": question["id"], "result": reply})
    peer.send_line(line)
    answer = peer.answer()
    assert answer["id"] == 4
    assert answer["result"]["structuredContent"]["status"] == "denied"
    assert not (tmp_path / "marker").exists()
    peer.close()


def _sleepers(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argv[:2] == [b"sleep", marker.encode()]:
                found.append(int(entry.name))
    return found


def _sleep_server(tmp_path: Path) -> RawClient:
    policy = tmp_path / "sleep.policy"
    policy.write_text('policy "s"\ndefault ask\nallow sleep **\nreadonly ls **\n')
    workspace = tmp_path / "ws"
    workspace.mkdir()
    args = [sys.executable, "-m", "policylang.cli.main", "mcp", "--policy", str(policy),
            "--workspace", str(workspace)]
    peer = RawClient.__new__(RawClient)
    peer.process = subprocess.Popen(args, cwd=workspace, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peer.answers = queue.Queue()
    peer._reader = threading.Thread(target=peer._read, daemon=True)
    peer._reader.start()
    peer.initialize()
    return peer


def _wait_for(check: Any, what: str, limit_s: float = TIMEOUT_S) -> None:
    deadline = time.monotonic() + limit_s
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_a_server_stopped_by_a_signal_stops_its_commands(
    tmp_path: Path, stop: signal.Signals
) -> None:
    # review AQ2: a background job and a running foreground command outlived a server
    # stopped with SIGTERM (how clients stop stdio servers), under pid 1, without timeout
    background, foreground = f"31{stop.value}7", f"31{stop.value}8"
    peer = _sleep_server(tmp_path)
    try:
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "bash",
                           "arguments": {"command": f"sleep {background}", "background": True}}}
        peer.send_line(json.dumps(call))
        assert peer.answer()["id"] == 1
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "bash", "arguments": {"command": f"sleep {foreground}"}}}
        peer.send_line(json.dumps(call))
        deadline = time.monotonic() + TIMEOUT_S
        while not (_sleepers(background) and _sleepers(foreground)):
            assert time.monotonic() < deadline, "the commands did not start"
            time.sleep(0.05)
        peer.process.send_signal(stop)
        peer.process.wait(timeout=TIMEOUT_S)
        deadline = time.monotonic() + 10
        while _sleepers(background) or _sleepers(foreground):
            assert time.monotonic() < deadline, "a command outlived the server"
            time.sleep(0.05)
    finally:
        for pid in _sleepers(background) + _sleepers(foreground):
            os.kill(pid, signal.SIGKILL)
        peer.close()


def test_a_wait_that_is_not_a_number_is_a_tool_error(client: RawClient) -> None:
    # review AQ12: `NaN` (which the SDK's parser accepts) reached `Thread.join`
    client.send_line('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":'
                     '"job_status","arguments":{"job_id":"job-1","wait_s":NaN}}}')
    answer = client.answer()
    assert answer["id"] == 9
    assert answer["result"]["isError"] is True
    assert "wait_s" in answer["result"]["content"][0]["text"]


def test_a_wait_too_long_for_a_float_is_a_tool_error(client: RawClient) -> None:
    # review AY8: `math.isfinite(10**400)` raised OverflowError (code 0, a traceback)
    client.send_line('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":'
                     f'"job_status","arguments":{{"job_id":"job-1","wait_s":{"9" * 400}}}}}}}')
    answer = client.answer()
    assert answer["id"] == 10
    assert answer["result"]["isError"] is True
    assert "no job" in answer["result"]["content"][0]["text"]  # the wait was clamped


@pytest.mark.parametrize("depth", [500, 5000])
def test_a_line_nested_past_the_recursion_limit_is_answered_and_the_server_lives(
    client: RawClient, depth: int
) -> None:
    # review AY1: `json.loads` (and a recursive search for surrogates) raised
    # RecursionError, which ended the server
    client.send_line(call_line(1, "[" * depth + "]" * depth))
    answer = client.answer()
    assert answer["id"] in (1, None)  # with its id where the SDK's parser got that far
    assert answer["error"]["code"] == -32600
    client.send_line("[" * depth + "]" * depth)
    assert client.answer()["error"]["code"] == -32600
    list_tools(client, 2)


def test_an_id_too_long_for_python_is_an_invalid_request_not_a_parse_error(
    client: RawClient,
) -> None:
    # review AY9: JSON with a 5,000-digit id was called "not JSON"
    client.send_line(call_line(0, '"ls"').replace('"id":0', '"id":' + "1" * 5000))
    answer = client.answer()
    assert answer["error"]["code"] == -32600
    assert "too long" in answer["error"]["message"]
    list_tools(client, 3)


@pytest.mark.parametrize("how", ["cancelled", "disconnect"])
def test_a_cancelled_or_abandoned_call_stops_its_command(tmp_path: Path, how: str) -> None:
    # review AY2: after `notifications/cancelled`, or the client closing its end, the
    # command ran on to its timeout (up to 600 s) and held a worker thread
    marker = "3177" if how == "cancelled" else "3178"
    peer = _sleep_server(tmp_path)
    try:
        call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"name": "bash",
                           "arguments": {"command": f"sleep {marker}", "timeout_s": 600}}}
        peer.send_line(json.dumps(call))
        _wait_for(lambda: _sleepers(marker), "the command did not start")
        if how == "cancelled":
            peer.send_line(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                       "params": {"requestId": 7, "reason": "user"}}))
            _wait_for(lambda: not _sleepers(marker), "the cancelled command ran on", 10)
            list_tools(peer, 8)  # the server serves on; nothing answers the cancelled call
        else:
            assert peer.process.stdin is not None
            peer.process.stdin.close()
            peer.process.wait(timeout=10)  # it had waited for the command to finish
            assert not _sleepers(marker)
    finally:
        for pid in _sleepers(marker):
            os.kill(pid, signal.SIGKILL)
        if how == "cancelled":
            peer.close()
        else:
            peer.process.stdout.close()  # type: ignore[union-attr]
            peer.process.stderr.close()  # type: ignore[union-attr]


def test_the_server_process_is_not_dumpable() -> None:
    """Review CQ (design note): a command the server runs reached the server's stdin
    through `/proc/$PPID/fd/0` and could write the client's answer to a question. A
    process that is not dumpable keeps its `/proc/PID/fd` from other processes of its
    user; the flag is read back with PR_GET_DUMPABLE in a real child process, and a
    command that child runs is dumpable again (reset at exec)."""
    import subprocess
    import sys

    code = (
        "import ctypes, subprocess\n"
        "from policylang.cli.mcp_cmd import not_dumpable\n"
        "libc = ctypes.CDLL(None)\n"
        "print(libc.prctl(3, 0, 0, 0, 0), not_dumpable(), libc.prctl(3, 0, 0, 0, 0))\n"
        "print(subprocess.run(['python3', '-c', 'import ctypes; "
        "print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))'], capture_output=True, "
        "text=True).stdout.strip())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    assert done.stdout.split("\n")[:2] == ["1 True 0", "1"]
