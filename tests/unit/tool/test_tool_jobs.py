"""The companion job tools: status with new output, list, kill, cleanup, teaching errors."""

from __future__ import annotations

import jsonschema
import pytest

from policylang.executor import JobStore
from policylang.tool import JOB_TOOL_DESCRIPTIONS, JOB_TOOL_SCHEMAS, JobTools, ToolStatus

from .conftest import TablePolicy, make_tool


def test_schemas_are_valid_and_described() -> None:
    assert set(JOB_TOOL_SCHEMAS) == set(JOB_TOOL_DESCRIPTIONS)
    for schema in JOB_TOOL_SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_status_reports_new_output_then_nothing_new(workspace: str, jobs: JobStore) -> None:
    bash = make_tool(TablePolicy(), workspace, job_store=jobs)
    tools = JobTools(jobs)
    job = bash.call({"command": "echo hi; echo there >&2", "background": True}).job_id
    assert job is not None
    jobs.wait(job, timeout_s=10)
    first = tools.call("job_status", {"job_id": job})
    assert first.status is ToolStatus.OK
    lines = first.model_text.splitlines()
    assert lines[0].startswith(f"[{job} exited 0, ")
    assert lines[0].endswith("ms] echo hi; echo there >&2")
    assert lines[1:] == ["hi", "there"]
    again = tools.status({"job_id": job})
    assert again.model_text.endswith("(no new output)")


def test_failed_job_status_is_an_error(workspace: str, jobs: JobStore) -> None:
    job = make_tool(TablePolicy(), workspace, job_store=jobs).call(
        {"command": "exit 5", "background": True}).job_id
    assert job is not None
    jobs.wait(job, timeout_s=10)
    result = JobTools(jobs).status({"job_id": job})
    assert result.is_error
    assert "exited 5" in result.model_text


def test_dropped_output_is_reported(workspace: str) -> None:
    with JobStore(poll_cap_bytes=10, drain_s=0.05) as store:
        job = make_tool(TablePolicy(), workspace, job_store=store).call(
            {"command": "seq 1 1000", "background": True}).job_id
        assert job is not None
        store.wait(job, timeout_s=10)
        text = JobTools(store).status({"job_id": job}).model_text
        assert "bytes printed since the last status call were dropped" in text


def test_list_kill_cleanup(workspace: str, jobs: JobStore) -> None:
    bash = make_tool(TablePolicy(), workspace, job_store=jobs)
    tools = JobTools(jobs)
    assert tools.list().model_text == "(no background jobs)"
    slow = bash.call({"command": "sleep 30", "background": True}).job_id
    quick = bash.call({"command": "true", "background": True}).job_id
    assert slow is not None
    assert quick is not None
    jobs.wait(quick, timeout_s=10)
    listing = tools.call("jobs", {}).model_text.splitlines()
    assert listing[0].startswith(f"[{slow} running, ")
    assert listing[1].startswith(f"[{quick} exited 0, ")
    killed = tools.call("job_kill", {"job_id": slow})
    assert killed.model_text.startswith(f"[{slow} cancelled, ")
    assert tools.call("cleanup_jobs", {}).model_text == "forgot 2 finished job(s)"
    assert tools.list({}).model_text == "(no background jobs)"


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("job_status", {}, 'expected {"job_id": "job-1"}'),
        ("job_status", {"id": "job-1"}, "got keys: id"),
        ("job_status", "job-1", "got string"),
        ("job_status", {"job_id": 1}, "expected"),
        ("job_status", {"job_id": "job-1", "x": 1}, "only 'job_id' is taken"),
        ("job_status", {"job_id": "job-9"}, "no job `job-9`"),
        ("job_kill", {"job_id": "job-9"}, "no job `job-9`"),
        ("job_kill", [], "got array"),
        ("jobs", {"all": True}, "`jobs` takes no arguments"),
        ("cleanup_jobs", {"force": True}, "`cleanup_jobs` takes no arguments"),
        ("job_wait", {}, "unknown job tool `job_wait`"),
    ],
)
def test_bad_calls_teach(jobs: JobStore, name: str, arguments: object, expected: str) -> None:
    result = JobTools(jobs).call(name, arguments)
    assert result.status is ToolStatus.INVALID
    assert result.is_error
    assert expected in result.model_text


def test_status_of_invalid_utf8_stays_within_the_budgets(workspace: str, jobs: JobStore) -> None:
    # review J9: 50 kB of raw bytes decoded with replacement became 150 kB of text
    job = make_tool(TablePolicy(), workspace, job_store=jobs).call(
        {"command": "head -c 60000 /dev/zero | tr '\\0' '\\377'", "background": True}).job_id
    assert job is not None
    jobs.wait(job, timeout_s=10)
    result = JobTools(jobs).status({"job_id": job})
    assert len(result.model_text.encode()) <= 50_000
    assert len(result.display_text.encode()) <= 30_000
    assert "text truncated" in result.model_text


def test_job_texts_shown_to_people_are_escaped(workspace: str, jobs: JobStore) -> None:
    command = "printf '\\033[2J'; echo '\x1b[31mred'"
    job = make_tool(TablePolicy(), workspace, job_store=jobs).call(
        {"command": command, "background": True}).job_id
    assert job is not None
    jobs.wait(job, timeout_s=10)
    tools = JobTools(jobs)
    for result in (tools.status({"job_id": job}), tools.list({})):
        assert "\x1b" not in result.display_text
        assert "\\x1b" in result.display_text
    assert "\x1b" in tools.list({}).model_text  # the model sees the command it sent
