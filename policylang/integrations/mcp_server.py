"""Integrations stage: a stdio MCP server exposing the policy-gated `bash` tool.

Imports the `tool` and `executor` façades and the official `mcp` SDK (an optional extra:
``pip install policylang[mcp]``). Tools:

- `bash`: the tool of docs/executor.md, same schema; every call is evaluated by the policy.
- `job_status`: state and new output of a background job (`background: true`).
- `jobs`: every background job this server holds.
- `cleanup_jobs`: forget finished jobs (and, with `kill_running`, kill running ones).

When the policy says ask, the server asks the person behind the client with an MCP
elicitation if the client declared the capability: a form with one choice, once /
session / always / deny (once / deny when a locked rule decided). On protocol revisions
that carry elicitation in the tool result (2026-07-28 and later) the question goes back
as an input-required result whose `request_state` is bound, by an HMAC under a key this
process made, to the exact command and working directory asked about and to every
argument of the call (`login`, `background` …): an answer is used once, only for the
call it was given for, and within ten minutes. A client without elicitation gets a refusal
with the reasons and the suggested rule, and nothing runs.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types.version import is_version_at_least

from policylang.executor import Cancel, JobStore, UnknownJobError, fit, protected_note
from policylang.tool import ApprovalAnswer, ApprovalRequest, Approver, BashTool, ToolResult

_log = logging.getLogger(__name__)

SERVER_NAME = "policylang"
APPROVAL_KEY = "policylang-approval"
# First revision whose tool calls carry elicitation inside an input-required result.
_INPUT_REQUIRED_VERSION = "2026-07-28"
_MAX_WAIT_S = 30.0

ToolFactory = Callable[[Approver | None], BashTool]


@dataclass(slots=True)
class _Approval:
    """One call's approval state: the answer on offer, and a question still to ask."""

    answer: ApprovalAnswer | None = None
    bound_to: str | None = None
    pending: list[ApprovalRequest] = field(default_factory=list)


_STATE_TTL_S = 600  # how long an approval question may stay unanswered


def _arguments_digest(arguments: dict[str, Any]) -> str:
    """Every argument of a `bash` call, so an approval cannot be moved to another call."""
    text = json.dumps(arguments, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# JSON-RPC 2.0 error codes
_PARSE_ERROR = -32700
_INVALID_REQUEST = -32600
_SURROGATE = re.compile("[\ud800-\udfff]")


async def _answer_unreadable(read: Any, forward: Any, write: Any) -> None:
    """Pass readable messages on to the server; answer unreadable requests with an error.

    The SDK's transport hands a line it cannot read to the server as an exception, and
    the server drops it without a reply, so the client waits forever for an answer. Such
    a line is JSON the SDK's parser refuses (a lone surrogate such as `"\\ud800"` in
    the command: review I), not JSON at all, or JSON that is no JSON-RPC message.
    """
    async with forward:
        async for item in read:
            if not isinstance(item, Exception):
                await forward.send(item)
                continue
            _log.warning("unreadable message from the client: %s", _first_line(item))
            try:
                answer = unreadable_answer(item)
                failed = unreadable_response(item)
            except Exception:  # no message, however built, may end the loop (review AY1)
                _log.exception("cannot read an unreadable message")
                answer = _error(None, _INVALID_REQUEST, "invalid request; nothing was run")
                failed = None
            if answer is not None:
                await write.send(SessionMessage(answer))
            if failed is not None:
                await forward.send(SessionMessage(failed))


def unreadable_answer(error: Exception) -> types.JSONRPCError | None:
    """The error response to a message the transport could not read, or None when no
    answer is due (a notification, or a response of the client's own)."""
    message = _raw_message(error)
    if message is _NOT_JSON:
        return _error(None, _PARSE_ERROR, "parse error: the line is not JSON; nothing was run")
    if message is _UNREADABLE_JSON:
        why = "nested too deeply or a number too long to read; nothing was run"
        return _error(None, _INVALID_REQUEST, f"invalid request: {why}")
    if not isinstance(message, dict):
        return _error(None, _INVALID_REQUEST, "invalid request: not a JSON-RPC 2.0 message")
    if "method" not in message and ("result" in message or "error" in message):
        return None  # a response to one of our requests: a reply to a reply is not due
    request_id = message.get("id")
    if request_id is None and "method" in message:
        return None  # a notification: JSON-RPC forbids answering it
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return _error(None, _INVALID_REQUEST, "invalid request: the id is not a string or number")
    if _has_surrogate(message):
        why = "a string holds a lone surrogate (not valid Unicode); nothing was run"
    elif "method" not in message:
        # `{"id": 51}` is neither a request nor a response; unanswered, a client that sent
        # it by mistake waits forever (review BJ8)
        why = "no method, result or error: neither a request nor a response; nothing was run"
    else:
        why = "the message does not follow the JSON-RPC 2.0 / MCP schema; nothing was run"
    return _error(_ascii_id(request_id), _INVALID_REQUEST, f"invalid request: {why}")


def unreadable_response(error: Exception) -> types.JSONRPCError | None:
    """For an unreadable response of the client's (its answer to our elicitation), the
    error that settles our request in its place, or None when it is not a response.

    Without it, the question would wait forever for an answer that has already come; the
    error makes the approver fail, and a failed approver is a "no".
    """
    message = _raw_message(error)
    if not isinstance(message, dict) or "method" in message:
        return None
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    why = "the client's answer could not be read (invalid JSON-RPC or Unicode)"
    return _error(request_id, _INVALID_REQUEST, why)


_NOT_JSON = object()
_UNREADABLE_JSON = object()


def _raw_message(error: Exception) -> object:
    """The message as Python's own JSON parser reads it (it accepts lone surrogates), from
    the input the SDK's validation error carries; `_NOT_JSON` when it is not JSON."""
    errors = getattr(error, "errors", None)
    inputs = [entry.get("input") for entry in errors()] if callable(errors) else []
    for value in inputs:
        if isinstance(value, dict):
            return value
    for value in inputs:
        if isinstance(value, str | bytes):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                return _NOT_JSON
            except (ValueError, RecursionError):
                # JSON that Python will not hold: nested past the recursion limit (a 1 KB
                # line of brackets ended the server, review AY1), or an integer of more
                # than 4,300 digits (it is JSON, not a parse error: review AY9)
                return _UNREADABLE_JSON
    return _NOT_JSON if not inputs else inputs[0]


def _has_surrogate(value: object) -> bool:
    # a loop, not recursion: the value may be nested past the recursion limit (review AY1)
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item) is not None:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _ascii_id(request_id: int | str) -> int | str:
    """An id the answer can carry: the transport writes strict UTF-8, so an id holding a
    lone surrogate is echoed with it replaced (the client still sees which call failed)."""
    if isinstance(request_id, str) and _has_surrogate(request_id):
        return _SURROGATE.sub("\ufffd", request_id)
    return request_id


def _error(request_id: int | str | None, code: int, message: str) -> types.JSONRPCError:
    data = types.ErrorData(code=code, message=message)
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=data)


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def request_digest(request: ApprovalRequest) -> str:
    """What an approval is bound to: the exact command, directory and escalation."""
    text = json.dumps([request.command, request.workdir, request.escalation])
    return hashlib.sha256(text.encode()).hexdigest()


class PolicyShellServer:
    """The MCP server; `run_stdio()` serves one client over stdin/stdout."""

    def __init__(self, make_tool: ToolFactory, jobs: JobStore, *, version: str = "") -> None:
        self._make_tool = make_tool
        self._jobs = jobs
        self._key = os.urandom(32)
        # the request states already answered: an approval is used once (review I1)
        self._spent: set[str] = set()
        # the cancel flags of the `bash` calls in flight, set when the client goes away
        self._in_flight: set[Cancel] = set()
        self.server: Server[Any] = Server(
            SERVER_NAME,
            version=version,
            instructions="Run shell commands through `bash`; a policy decides what may run.",
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )

    async def run_stdio(self) -> None:
        async with stdio_server() as (read, write):
            send, screened = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            async with anyio.create_task_group() as group:
                group.start_soon(self._read_until_closed, read, send, write)
                options = self.server.create_initialization_options()
                await self.server.run(screened, write, options)

    async def _read_until_closed(self, read: Any, send: Any, write: Any) -> None:
        await _answer_unreadable(read, send, write)
        # the client closed its end: no answer can reach it, so the commands still
        # running for it stop now rather than at their timeout (review AY2)
        for cancel in list(self._in_flight):
            cancel.set()

    async def _call_bash(self, tool: BashTool, arguments: dict[str, Any]) -> ToolResult:
        """`tool.call` in a worker thread, stopped when the request is cancelled.

        A cancelled request (`notifications/cancelled`) had left its command running to
        its timeout, up to 600 s, in a worker thread (review AY2): the call now returns at
        once and the command gets TERM, grace and KILL, as at a timeout.
        """
        cancel = Cancel()
        self._in_flight.add(cancel)

        def work() -> ToolResult:
            try:
                return tool.call(arguments, cancel=cancel)
            finally:
                self._in_flight.discard(cancel)
                cancel.close()

        try:
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            cancel.set()  # (a no-op once the thread has closed it)
            raise

    # -- listing --------------------------------------------------------------------

    async def _list_tools(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        tool = self._make_tool(None)
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool.name,
                    description=tool.description,
                    input_schema=tool.schema,
                    annotations=types.ToolAnnotations(destructive_hint=True, open_world_hint=True),
                ),
                _simple_tool(
                    "job_status",
                    "State of a background job and the output it produced since the last "
                    "poll. `wait_s` waits up to that long (max 30) for it to finish first.",
                    {
                        "job_id": {"type": "string", "description": "id from `bash`"},
                        "wait_s": {"type": "number", "minimum": 0, "maximum": _MAX_WAIT_S},
                    },
                    required=["job_id"],
                ),
                _simple_tool("jobs", "Every background job this server holds.", {}),
                _simple_tool(
                    "cleanup_jobs",
                    "Forget finished background jobs; `kill_running` also kills running ones.",
                    {"kill_running": {"type": "boolean"}},
                    read_only=False,
                ),
            ]
        )

    # -- calls ----------------------------------------------------------------------

    async def _call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        arguments = params.arguments or {}
        if params.name == "bash":
            return await self._bash(ctx, params, arguments)
        if params.name == "job_status":
            return await self._job_status(arguments)
        if params.name == "jobs":
            return _text(_jobs_text(self._jobs), is_error=False)
        if params.name == "cleanup_jobs":
            return await self._cleanup(arguments)
        return _text(
            f"unknown tool `{params.name}`; the tools are bash, job_status, jobs, cleanup_jobs",
            is_error=True,
        )

    async def _bash(
        self, ctx: Any, params: types.CallToolRequestParams, arguments: dict[str, Any]
    ) -> types.CallToolResult | types.InputRequiredResult:
        if not _can_elicit(ctx):
            result = await self._call_bash(self._make_tool(None), arguments)
            return _tool_result(result)
        if is_version_at_least(ctx.protocol_version, _INPUT_REQUIRED_VERSION):
            return await self._bash_input_required(params, arguments)
        approver = _BlockingElicitor(ctx)
        result = await self._call_bash(self._make_tool(approver), arguments)
        return _tool_result(result)

    async def _bash_input_required(
        self, params: types.CallToolRequestParams, arguments: dict[str, Any]
    ) -> types.CallToolResult | types.InputRequiredResult:
        state = _Approval()
        response = (params.input_responses or {}).get(APPROVAL_KEY)
        call = _arguments_digest(arguments)
        bound = self._verify(params.request_state, call)
        if isinstance(response, types.ElicitResult) and bound is not None:
            state.answer, state.bound_to = _answer_of(response), bound

        def approver(request: ApprovalRequest) -> ApprovalAnswer:
            digest = request_digest(request)
            if state.answer is not None and hmac.compare_digest(digest, state.bound_to or ""):
                return state.answer
            # INVARIANT: DENY makes the tool return without running anything.
            state.pending.append(request)
            return ApprovalAnswer.DENY

        result = await self._call_bash(self._make_tool(approver), arguments)
        if not state.pending:
            return _tool_result(result)
        request = state.pending[0]
        question = types.ElicitRequest(params=_question(request))
        return types.InputRequiredResult(
            input_requests={APPROVAL_KEY: question}, request_state=self._sign(request, call)
        )

    def _sign(self, request: ApprovalRequest, call: str) -> str:
        """A request state bound to the question (`request_digest`), to every argument of
        the call (`login`, `background`, `timeout_s` …), used once, for `_STATE_TTL_S`."""
        expires = str(int(time.time()) + _STATE_TTL_S)
        body = ".".join((request_digest(request), call, secrets.token_hex(16), expires))
        mac = hmac.new(self._key, body.encode(), hashlib.sha256).hexdigest()
        return f"{body}.{mac}"

    def _verify(self, state: str | None, call: str) -> str | None:
        """The question digest a request state answers, or None: forged, for another call,
        expired, or already used."""
        body, _, mac = (state or "").rpartition(".")
        good = hmac.new(self._key, body.encode(), hashlib.sha256).hexdigest()
        if not body or not hmac.compare_digest(mac, good):
            return None
        digest, bound_call, nonce, expires = [*body.split("."), "", "", "", ""][:4]
        if not hmac.compare_digest(bound_call, call) or not expires.isdigit():
            return None
        if int(expires) < time.time() or nonce in self._spent:
            return None
        self._spent.add(nonce)
        return digest

    async def _job_status(self, arguments: dict[str, Any]) -> types.CallToolResult:
        job_id = arguments.get("job_id")
        wait = arguments.get("wait_s", 0)
        if not isinstance(job_id, str):
            return _text("`job_id` must be the string id `bash` returned", is_error=True)
        if (
            not isinstance(wait, int | float)
            or isinstance(wait, bool)
            # `NaN` reached `Thread.join` (review AQ12); a 400-digit int is compared first,
            # since `isfinite` converts it to a float and raised OverflowError (review AY8)
            or (isinstance(wait, float) and not math.isfinite(wait))
            or wait < 0
        ):
            return _text("`wait_s` must be a number of seconds >= 0", is_error=True)
        try:
            if wait:
                await anyio.to_thread.run_sync(self._jobs.wait, job_id, min(wait, _MAX_WAIT_S))
            poll = self._jobs.poll(job_id)
        except UnknownJobError:
            return _text(f"no job `{job_id}` (call `jobs` to list them)", is_error=True)
        info = poll.info
        lines = [
            f"{info.id}: {info.status} exit_code={info.exit_code} "
            f"duration_ms={info.duration_ms} `{info.command}`"
        ]
        if info.protected_changed:  # what the sandbox could not keep read-only (AQ6)
            lines.append(protected_note(info.protected_changed))
        if poll.dropped_bytes:
            lines.append(f"({poll.dropped_bytes} bytes of output dropped since the last poll)")
        shown = poll.text()
        lines.append(shown if shown else "(no new output)")
        # within the model's budget, like the bash tool's own results: a window of invalid
        # UTF-8 had grown three times as replacement characters (review AQ9)
        return _text(fit("\n".join(lines)), is_error=False)

    async def _cleanup(self, arguments: dict[str, Any]) -> types.CallToolResult:
        kill = arguments.get("kill_running", False)
        if not isinstance(kill, bool):
            return _text("`kill_running` must be true or false", is_error=True)
        # in a worker thread: the grace periods of the kills had stalled every other
        # request, elicitation answers included (review AY6)
        killed = await anyio.to_thread.run_sync(self._jobs.kill_running) if kill else 0
        removed = self._jobs.cleanup()
        return _text(f"removed {removed} finished job(s); killed {killed}", is_error=False)


class _BlockingElicitor:
    """An approver for a worker thread: asks over the session and waits for the answer."""

    def __init__(self, ctx: Any) -> None:
        self._ctx = ctx

    def __call__(self, request: ApprovalRequest) -> ApprovalAnswer:
        result = anyio.from_thread.run(self._ask, request)
        return _answer_of(result)

    async def _ask(self, request: ApprovalRequest) -> types.ElicitResult:
        params = _question(request)
        result: types.ElicitResult = await self._ctx.session.elicit_form(
            params.message, params.requested_schema, related_request_id=self._ctx.request_id
        )
        return result


def _can_elicit(ctx: Any) -> bool:
    capabilities = ctx.session.client_capabilities
    elicitation = None if capabilities is None else capabilities.elicitation
    # A bare `elicitation: {}` predates modes and means forms; url-only does not.
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def _question(request: ApprovalRequest) -> types.ElicitRequestFormParams:
    choices = (
        ["once", "deny"]
        if request.locked or not request.suggested_rule
        else ["once", "session", "always", "deny"]
        if request.can_persist
        else ["once", "session", "deny"]  # no approvals file: nothing to save (BJ3)
    )
    schema = {
        "type": "object",
        "properties": {
            "decision": {
                "type": "string",
                "title": "Run this command?",
                "enum": choices,
                "description": "once: run it now; session: allow the suggested rule until the "
                "server stops; always: also save it; deny: do not run it",
            }
        },
        "required": ["decision"],
    }
    return types.ElicitRequestFormParams(message=request.render(), requested_schema=schema)


def _answer_of(result: types.ElicitResult) -> ApprovalAnswer:
    if result.action != "accept" or not result.content:
        return ApprovalAnswer.DENY
    choice = result.content.get("decision")
    try:
        return ApprovalAnswer(choice) if isinstance(choice, str) else ApprovalAnswer.DENY
    except ValueError:
        return ApprovalAnswer.DENY


def _simple_tool(
    name: str,
    description: str,
    properties: dict[str, Any],
    *,
    required: list[str] | None = None,
    read_only: bool = True,
) -> types.Tool:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return types.Tool(
        name=name,
        description=description,
        input_schema=schema,
        annotations=types.ToolAnnotations(read_only_hint=read_only),
    )


def _text(text: str, *, is_error: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=is_error)


def _tool_result(result: ToolResult) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=result.model_text)],
        structured_content=result.to_dict(),
        is_error=result.is_error,
    )


def _jobs_text(jobs: JobStore) -> str:
    held = jobs.jobs()
    if not held:
        return "no background jobs"
    lines: list[str] = []
    for j in held:
        lines.append(
            f"{j.id}: {j.status} exit_code={j.exit_code} duration_ms={j.duration_ms} "
            f"`{j.command}`"
        )
        if j.protected_changed:
            lines.append(protected_note(j.protected_changed))
    return "\n".join(lines)
