"""Tool contract: companion tools for background jobs; imports `executor`, `tool.bash`.

A host that offers `background: true` also offers these so the model can follow its
jobs. Results use the same `ToolResult` as the `bash` tool; bad arguments get
teaching errors, never exceptions.
"""

from __future__ import annotations

from typing import Any

from policylang.executor import (
    JobInfo,
    JobStatus,
    JobStore,
    UnknownJobError,
    fit,
    for_display,
    protected_note,
)
from policylang.tool.bash import ToolResult, ToolStatus
from policylang.tool.schema import json_type

_JOB_ID = {"type": "string", "minLength": 1,
           "description": "The id returned when the job was started, e.g. \"job-1\"."}

JOB_TOOL_SCHEMAS: dict[str, dict[str, Any]] = {
    "job_status": {"type": "object", "properties": {"job_id": _JOB_ID},
                   "required": ["job_id"], "additionalProperties": False},
    "job_kill": {"type": "object", "properties": {"job_id": _JOB_ID},
                 "required": ["job_id"], "additionalProperties": False},
    "jobs": {"type": "object", "properties": {}, "additionalProperties": False},
    "cleanup_jobs": {"type": "object", "properties": {}, "additionalProperties": False},
}
JOB_TOOL_DESCRIPTIONS: dict[str, str] = {
    "job_status": "Status of a background job plus the output it printed since the last "
    "status call.",
    "job_kill": "Stop a background job (its whole process group) and report its final status.",
    "jobs": "List the background jobs of this session with their status.",
    "cleanup_jobs": "Forget every finished background job.",
}


def describe(info: JobInfo) -> str:
    """`[job-1 exited 0, 812ms] make test` and the like."""
    match info.status:
        case JobStatus.EXITED:
            state = f"exited {info.exit_code}"
        case JobStatus.KILLED:
            state = f"killed by signal {info.signal}"
        case JobStatus.TIMED_OUT:
            state = "timed out and killed"
        case _:
            state = str(info.status)
    line = f"[{info.id} {state}, {info.duration_ms}ms] {info.command}"
    return f"{line}\n{protected_note(info.protected_changed)}" if info.protected_changed else line


def _ok(text: str, *, error: bool = False) -> ToolResult:
    # a job's new output is up to 50 kB of raw bytes, which decoding can triple (review J9)
    status = ToolStatus.FAILED if error else ToolStatus.OK
    return ToolResult(status=status, model_text=fit(text), display_text=for_display(text),
                      is_error=error)


def _invalid(text: str) -> ToolResult:
    return ToolResult(status=ToolStatus.INVALID, model_text=fit(text),
                      display_text=for_display(text), is_error=True)


class JobTools:
    """`job_status`, `job_kill`, `jobs` and `cleanup_jobs` over one host-owned `JobStore`."""

    def __init__(self, store: JobStore) -> None:
        self.store = store

    def call(self, name: str, arguments: object) -> ToolResult:
        """Dispatch by tool name (see `JOB_TOOL_SCHEMAS`)."""
        match name:
            case "job_status":
                return self.status(arguments)
            case "job_kill":
                return self.kill(arguments)
            case "jobs":
                return self.list(arguments)
            case "cleanup_jobs":
                return self.cleanup(arguments)
            case _:
                return _invalid(f"unknown job tool `{name}`; known: {', '.join(JOB_TOOL_SCHEMAS)}")

    def status(self, arguments: object) -> ToolResult:
        job_id = _job_id(arguments)
        if isinstance(job_id, ToolResult):
            return job_id
        try:
            poll = self.store.poll(job_id)
        except UnknownJobError as exc:
            return _invalid(f"{exc.args[0]}; finished jobs are forgotten after cleanup or "
                            "when more than the store keeps have finished")
        lines = [describe(poll.info)]
        if poll.dropped_bytes:
            lines.append(f"({poll.dropped_bytes:,} bytes printed since the last status call "
                         "were dropped; poll more often or redirect the output to a file)")
        shown = poll.text()
        lines.append(shown.rstrip("\n") if shown else "(no new output)")
        info = poll.info
        failed = info.done and not (info.status is JobStatus.EXITED and info.exit_code == 0)
        return _ok("\n".join(lines), error=failed)

    def kill(self, arguments: object) -> ToolResult:
        job_id = _job_id(arguments)
        if isinstance(job_id, ToolResult):
            return job_id
        try:
            info = self.store.kill(job_id)
        except UnknownJobError as exc:
            return _invalid(str(exc.args[0]))
        return _ok(describe(info))

    def list(self, arguments: object = None) -> ToolResult:
        problem = _no_arguments("jobs", arguments)
        if problem is not None:
            return problem
        infos = self.store.jobs()
        return _ok("\n".join(describe(i) for i in infos) if infos else "(no background jobs)")

    def cleanup(self, arguments: object = None) -> ToolResult:
        problem = _no_arguments("cleanup_jobs", arguments)
        if problem is not None:
            return problem
        return _ok(f"forgot {self.store.cleanup()} finished job(s)")


def _job_id(arguments: object) -> str | ToolResult:
    if not isinstance(arguments, dict) or not isinstance(arguments.get("job_id"), str) \
            or not arguments["job_id"]:
        got = (f"got keys: {', '.join(map(str, arguments)) or 'none'}"
               if isinstance(arguments, dict) else f"got {json_type(arguments)}")
        return _invalid(f"expected {{\"job_id\": \"job-1\"}} with the id the bash tool "
                        f"returned ({got})")
    extra = sorted(set(arguments) - {"job_id"})
    if extra:
        return _invalid(f"unknown key(s) {', '.join(map(repr, extra))}; only 'job_id' is taken")
    return str(arguments["job_id"])


def _no_arguments(name: str, arguments: object) -> ToolResult | None:
    if arguments is None or arguments == {}:
        return None
    return _invalid(f"`{name}` takes no arguments; call it with {{}}")
