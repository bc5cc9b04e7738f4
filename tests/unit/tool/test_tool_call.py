"""`BashTool.call`: policy verdicts, the approval flow, escalation, backends, background jobs."""

from __future__ import annotations

import json
import os
import pathlib
import shlex
from collections.abc import Mapping
from dataclasses import replace

import pytest

from policylang.decision import ApprovalScope, Decision, Verdict
from policylang.executor import BubblewrapBackend, JobStatus, JobStore, PlainBackend
from policylang.tool import (
    ApprovalAnswer,
    ApprovalMode,
    ApprovalRequest,
    ApprovalSink,
    BashTool,
    ToolOptions,
    ToolStatus,
)

from .conftest import RecordingSink, ScriptedApprover, TablePolicy, make_tool


def _touch(workspace: str, name: str = "ran") -> tuple[str, pathlib.Path]:
    marker = pathlib.Path(workspace) / name
    return f"touch {shlex.quote(str(marker))}", marker


# -- allow ---------------------------------------------------------------------------------


def test_allowed_command_runs_and_returns_both_views(workspace: str) -> None:
    tool = make_tool(TablePolicy(), workspace)
    result = tool.call({"command": "echo a; sleep 0.02; echo b >&2; sleep 0.02; echo c",
                        "description": "Print three lines"})
    assert result.status is ToolStatus.OK
    assert not result.is_error
    assert result.result is not None
    assert result.model_text == f"[exit 0, {result.result.duration_ms}ms]\na\nb\nc"
    assert result.display_text == result.model_text
    assert result.decision is not None
    assert result.decision.verdict is Verdict.ALLOW
    fields = result.to_dict()
    assert fields["exit_code"] == 0
    assert fields["retention"] == "requery"
    json.dumps(fields)


def test_failed_command_is_an_error_result(workspace: str) -> None:
    result = make_tool(TablePolicy(), workspace).call({"command": "exit 3"})
    assert result.status is ToolStatus.FAILED
    assert result.is_error
    assert result.model_text.startswith("[exit 3, ")


def test_policy_sees_cwd_workspace_and_the_scrubbed_env(workspace: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_API_KEY", "secret")
    os.mkdir(os.path.join(workspace, "sub"))
    policy = TablePolicy()
    tool = make_tool(policy, workspace, options=ToolOptions(env={"MODE": "test"}))
    result = tool.call({"command": "pwd", "workdir": "sub"})
    assert result.model_text.splitlines()[1] == os.path.join(workspace, "sub")
    command, cwd, ws, env = policy.calls[0]
    assert (command, cwd, ws) == ("pwd", os.path.join(workspace, "sub"), workspace)
    assert env is not None
    assert env["MODE"] == "test"
    assert "MY_API_KEY" not in env


def test_absolute_workdir(workspace: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    other = str(tmp_path_factory.mktemp("other"))
    result = make_tool(TablePolicy(), workspace).call({"command": "pwd", "workdir": other})
    assert result.model_text.splitlines()[1] == other


def test_timeout_is_applied_and_clamping_is_noted(workspace: str) -> None:
    tool = make_tool(TablePolicy(), workspace, options=ToolOptions(grace_s=0.1))
    slow = tool.call({"command": "echo started; sleep 30", "timeout_s": 0.3})
    assert slow.status is ToolStatus.FAILED
    assert "killed after 0.3 s" in slow.model_text
    assert slow.model_text.endswith("started")
    clamped = tool.call({"command": "true", "timeout_s": 1e9})
    assert clamped.model_text.endswith("(note: timeout_s was clamped to 600 s)")


def test_long_output_spills_to_the_configured_dir(workspace: str,
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    spill = tmp_path_factory.mktemp("spill")
    tool = make_tool(TablePolicy(), workspace, options=ToolOptions(spill_dir=str(spill)))
    result = tool.call({"command": "seq 1 100000"})
    assert result.spill_path is not None
    assert pathlib.Path(result.spill_path).parent == spill
    assert len(result.display_text.encode()) <= 30_000
    assert result.spill_path in result.model_text


def test_login_shell_on_request(workspace: str) -> None:
    tool = make_tool(TablePolicy(), workspace)
    probe = "shopt -q login_shell && echo login || echo plain"
    assert tool.call({"command": probe}).model_text.endswith("plain")
    assert tool.call({"command": probe, "login": True}).model_text.endswith("login")


def test_nothing_reaches_the_host_stdout(capfd: pytest.CaptureFixture[str], workspace: str) -> None:
    make_tool(TablePolicy(), workspace).call({"command": "echo loud; echo err >&2"})
    out, err = capfd.readouterr()
    assert out == ""
    assert err == ""


# -- deny ----------------------------------------------------------------------------------


def test_deny_refuses_with_reasons_and_never_asks(workspace: str) -> None:
    command, marker = _touch(workspace)
    approver = ScriptedApprover("once")
    tool = make_tool(TablePolicy({"touch": Verdict.DENY}), workspace, approver=approver)
    result = tool.call({"command": command})
    assert result.status is ToolStatus.DENIED
    assert result.is_error
    assert "denied by policy" in result.model_text
    assert "deny: `touch` is deny in the table [table.touch (table.policy:1:1)]" in \
        result.model_text
    assert approver.requests == []
    assert not marker.exists()


class _BrokenPolicy:
    def evaluate(self, command: str, *, cwd: str | None = None, workspace: str | None = None,
                 env: Mapping[str, str] | None = None,
                 host_env: Mapping[str, str] | None = None) -> Decision:
        raise RuntimeError("rules file vanished")


def test_a_policy_that_raises_fails_closed(workspace: str,
                                           caplog: pytest.LogCaptureFixture) -> None:
    command, marker = _touch(workspace)
    result = BashTool(_BrokenPolicy(), workspace=workspace).call({"command": command})
    assert result.status is ToolStatus.DENIED
    assert "tool.policy-error" in result.model_text
    assert "rules file vanished" in result.model_text
    assert not marker.exists()
    assert "policy evaluation failed" in caplog.text


# -- ask and the approval flow ---------------------------------------------------------------


def test_ask_calls_the_approver_with_what_it_needs(workspace: str) -> None:
    command, marker = _touch(workspace)
    approver = ScriptedApprover("once")
    sink = RecordingSink()
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace, approver=approver,
                     approvals=sink)
    result = tool.call({"command": command, "description": "Create the marker file"})
    assert result.status is ToolStatus.OK
    assert marker.exists()
    (request,) = approver.requests
    assert request.command == command
    assert request.description == "Create the marker file"
    assert request.suggested_rule == "touch"
    assert [r.rule_id for r in request.reasons] == ["table.touch"]
    assert request.workdir == workspace
    assert request.decision is not None
    assert request.decision.verdict is Verdict.ASK
    assert not request.escalation
    assert "run `touch" in request.render()
    assert "always allowing would add: touch" in request.render()
    assert sink.added == []
    assert result.approval is not None
    assert result.approval.scope is ApprovalScope.ONCE


@pytest.mark.parametrize(
    ("answer", "added", "scope"),
    [("session", [("touch", False)], ApprovalScope.SESSION),
     (ApprovalAnswer.ALWAYS, [("touch", True)], ApprovalScope.ALWAYS)],
)
def test_session_and_always_approvals_reach_the_sink(
    workspace: str, answer: str, added: list[tuple[str, bool]], scope: ApprovalScope
) -> None:
    command, marker = _touch(workspace)
    sink = RecordingSink()
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace,
                     approver=ScriptedApprover(answer), approvals=sink)
    result = tool.call({"command": command})
    assert marker.exists()
    assert sink.added == added
    assert result.approval is not None
    assert result.approval.scope is scope


def test_the_sink_defaults_to_the_policys_approvals(workspace: str) -> None:
    class PolicyWithApprovals(TablePolicy):
        approvals = RecordingSink()

    policy = PolicyWithApprovals({"touch": Verdict.ASK})
    command, _ = _touch(workspace)
    tool = make_tool(policy, workspace, approver=ScriptedApprover("session"))
    assert isinstance(tool.approvals, ApprovalSink)
    tool.call({"command": command})
    assert PolicyWithApprovals.approvals.added == [("touch", False)]


def test_a_locked_ask_is_granted_once_only(workspace: str) -> None:
    command, marker = _touch(workspace)
    sink = RecordingSink()
    approver = ScriptedApprover("always")
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}, locked=frozenset({"touch"})), workspace,
                     approver=approver, approvals=sink)
    result = tool.call({"command": command})
    assert marker.exists()
    assert approver.requests[0].locked
    assert "always allowing" not in approver.requests[0].render()
    assert sink.added == []
    assert result.approval is not None
    assert result.approval.scope is ApprovalScope.ONCE


def test_session_without_a_sink_is_granted_once(workspace: str) -> None:
    command, marker = _touch(workspace)
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace,
                     approver=ScriptedApprover("session"))
    result = tool.call({"command": command})
    assert marker.exists()
    assert result.approval is not None
    assert result.approval.scope is ApprovalScope.ONCE


@pytest.mark.parametrize("answer", ["deny", "maybe"])
def test_declined_or_garbled_answer_does_not_run(workspace: str, answer: str) -> None:
    command, marker = _touch(workspace)
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace,
                     approver=ScriptedApprover(answer))
    result = tool.call({"command": command})
    assert result.status is ToolStatus.DENIED
    assert "the user declined" in result.model_text
    assert not marker.exists()


def test_an_approver_that_raises_is_a_no(workspace: str, caplog: pytest.LogCaptureFixture) -> None:
    def approver(request: ApprovalRequest) -> str:
        raise OSError("tty gone")

    command, marker = _touch(workspace)
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace, approver=approver)
    assert tool.call({"command": command}).status is ToolStatus.DENIED
    assert not marker.exists()
    assert "treating it as deny" in caplog.text


def test_ask_with_nobody_to_ask_is_refused_with_the_suggested_rule(workspace: str) -> None:
    command, marker = _touch(workspace)
    result = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace).call({"command": command})
    assert result.status is ToolStatus.REFUSED
    assert "nobody can approve in this session" in result.model_text
    assert "suggested rule to allow it: touch" in result.model_text
    assert not marker.exists()


def test_approval_mode_never_refuses_even_with_an_approver(workspace: str) -> None:
    command, marker = _touch(workspace)
    approver = ScriptedApprover("once")
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace, approver=approver,
                     approval_mode=ApprovalMode.NEVER)
    assert tool.call({"command": command}).status is ToolStatus.REFUSED
    assert approver.requests == []
    assert not marker.exists()


# -- sandbox escalation ----------------------------------------------------------------------


def _sandboxed_tool(workspace: str, **kwargs: object) -> BashTool:
    return make_tool(TablePolicy(), workspace, backend=BubblewrapBackend(workspace), **kwargs)


def test_escalation_is_refused_unless_the_mode_allows_asking(workspace: str) -> None:
    command, marker = _touch(workspace)
    approver = ScriptedApprover("once")
    tool = _sandboxed_tool(workspace, approver=approver)  # default mode: POLICY
    result = tool.call({"command": command, "sandbox": "escalated",
                        "justification": "it needs the network"})
    assert result.status is ToolStatus.REFUSED
    assert "sandbox escalation is not available in this session" in result.model_text
    assert "instead of retrying with escalation" in result.model_text
    assert approver.requests == []
    assert not marker.exists()


def test_approved_escalation_runs_outside_the_sandbox(workspace: str) -> None:
    outside = pathlib.Path("/var/tmp") / f"policylang-escalated-{os.getpid()}"
    command = f"touch {shlex.quote(str(outside))}"
    approver = ScriptedApprover("once")
    tool = _sandboxed_tool(workspace, approver=approver, approval_mode=ApprovalMode.ON_REQUEST)
    try:
        result = tool.call({"command": command, "sandbox": "escalated",
                            "justification": "writes outside the workspace"})
        assert result.status is ToolStatus.OK
        assert outside.exists()
        assert result.result is not None
        assert not result.result.sandboxed
        (request,) = approver.requests
        assert request.escalation
        assert request.justification == "writes outside the workspace"
        assert "OUTSIDE THE SANDBOX" in request.render()
    finally:
        outside.unlink(missing_ok=True)


def test_declined_escalation_does_not_run(workspace: str) -> None:
    command, marker = _touch(workspace)
    tool = _sandboxed_tool(workspace, approver=ScriptedApprover("deny"),
                           approval_mode=ApprovalMode.ON_REQUEST)
    result = tool.call({"command": command, "sandbox": "escalated", "justification": "why"})
    assert result.status is ToolStatus.DENIED
    assert not marker.exists()


def test_schema_shows_sandbox_keys_only_with_a_sandbox(workspace: str) -> None:
    assert "sandbox" not in make_tool(TablePolicy(), workspace).schema["properties"]
    assert "sandbox" in _sandboxed_tool(workspace).schema["properties"]
    definition = _sandboxed_tool(workspace).definition()
    assert definition["name"] == "bash"
    assert definition["input_schema"]["required"] == ["command"]


# -- unusable backends -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "backend",
    [PlainBackend(shell="/nonexistent/bash"), "missing-bwrap"],
    ids=["no-shell", "no-bwrap"],
)
@pytest.mark.parametrize("background", [False, True])
def test_no_usable_backend_refuses_synchronously(workspace: str, jobs: JobStore,
                                                 backend: object, background: bool) -> None:
    if backend == "missing-bwrap":
        backend = BubblewrapBackend(workspace, bwrap="/nonexistent/bwrap")
    command, marker = _touch(workspace)
    policy = TablePolicy()
    tool = make_tool(policy, workspace, backend=backend, job_store=jobs)
    result = tool.call({"command": command, "background": background})
    assert result.status is ToolStatus.REFUSED
    assert "no usable execution backend" in result.model_text
    assert "never ran" in result.model_text
    assert jobs.jobs() == ()
    assert policy.calls == []
    assert not marker.exists()
    assert tool.schema["required"] == ["command"]  # the schema stays available


def test_sandboxed_tool_marks_denied_writes(workspace: str) -> None:
    target = pathlib.Path("/var/tmp") / f"policylang-tool-denied-{os.getpid()}"
    command = f"echo x > {shlex.quote(str(target))}"
    tool = _sandboxed_tool(workspace)
    result = tool.call({"command": command})
    if not BubblewrapBackend(workspace).probe().ok:
        assert result.status is ToolStatus.REFUSED
        assert "never ran" in result.model_text
    else:
        assert result.status is ToolStatus.FAILED
        assert "[sandbox: write denied under read-only mode]" in result.model_text
    assert not target.exists()


# -- background jobs -------------------------------------------------------------------------


def test_background_call_returns_a_job_id_at_once(workspace: str, jobs: JobStore) -> None:
    tool = make_tool(TablePolicy(), workspace, job_store=jobs)
    result = tool.call({"command": "echo hello; sleep 0.2; echo bye", "background": True})
    assert result.status is ToolStatus.STARTED
    assert not result.is_error
    assert result.job_id == "job-1"
    assert "job-1" in result.model_text
    info = jobs.wait("job-1", timeout_s=10)
    assert info.status is JobStatus.EXITED
    assert jobs.poll("job-1").output == "hello\nbye\n"


def test_background_jobs_have_no_timeout_unless_given(workspace: str, jobs: JobStore) -> None:
    tool = make_tool(TablePolicy(), workspace, job_store=jobs)
    free = tool.call({"command": "sleep 30", "background": True}).job_id
    bounded_call = tool.call({"command": "sleep 30", "background": True, "timeout_s": 0.2})
    assert "killed after 0.2 s" in bounded_call.model_text
    bounded = bounded_call.job_id
    assert bounded is not None
    assert free is not None
    assert jobs.wait(bounded, timeout_s=10).status is JobStatus.TIMED_OUT
    assert jobs.poll(free).info.status is JobStatus.RUNNING


def test_background_ask_is_approved_before_starting(workspace: str, jobs: JobStore) -> None:
    command, marker = _touch(workspace)
    approver = ScriptedApprover("deny")
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace, job_store=jobs,
                     approver=approver)
    result = tool.call({"command": command, "background": True})
    assert result.status is ToolStatus.DENIED
    assert jobs.jobs() == ()
    assert not marker.exists()


# -- concurrency -----------------------------------------------------------------------------


def test_concurrency_safe(workspace: str) -> None:
    tool = make_tool(TablePolicy({"rm": Verdict.ASK}), workspace)
    assert tool.concurrency_safe({"command": "ls -la"})
    assert not tool.concurrency_safe({"command": "touch x"})  # allowed but has effects
    assert not tool.concurrency_safe({"command": "rm x"})  # ask
    assert not tool.concurrency_safe({"command": "ls", "background": True})
    assert not tool.concurrency_safe({"cmd": "ls"})
    assert not tool.concurrency_safe({"command": "ls", "workdir": "missing"})


def test_sandboxed_spill_file_can_be_read_from_inside_the_sandbox(workspace: str) -> None:
    tool = _sandboxed_tool(workspace)
    first = tool.call({"command": "seq 1 100000"})
    if not BubblewrapBackend(workspace).probe().ok:
        assert first.status is ToolStatus.REFUSED
        return
    assert first.spill_path is not None
    assert not first.spill_path.startswith("/tmp/")  # /tmp is private inside the sandbox
    try:
        again = tool.call({"command": f"grep -c . {shlex.quote(first.spill_path)}"})
        assert again.model_text.splitlines()[-1] == "100000"
    finally:
        os.unlink(first.spill_path)


def test_concurrency_safe_calls_can_run_in_parallel(workspace: str) -> None:
    # One tool, many threads: each call gets its own process, pipes and result.
    from concurrent.futures import ThreadPoolExecutor

    tool = make_tool(TablePolicy(), workspace)
    calls = [{"command": f"echo {i}; sleep 0.2; echo done {i}"} for i in range(8)]
    assert all(tool.concurrency_safe(c) for c in calls)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(tool.call, calls))
    for i, result in enumerate(results):
        assert result.status is ToolStatus.OK
        assert result.model_text.splitlines()[1:] == [str(i), f"done {i}"]


def test_texts_shown_to_people_escape_terminal_controls(workspace: str) -> None:
    # review J3/J7: the suggested rule is made of the command's words, and refusals quote
    # the command: `ESC[2J ESC[H` there cleared the approver's screen
    evil = "make '\x1b[2J\x1b[Hrun \"make test\"?'"
    approver = ScriptedApprover("deny")
    policy = TablePolicy({"make": Verdict.ASK, "rm": Verdict.DENY})
    tool = make_tool(policy, workspace, approver=approver)
    declined = tool.call({"command": evil})
    (request,) = approver.requests
    request = replace(request, suggested_rule=evil)
    rendered = request.render()
    assert "\x1b" not in rendered
    assert "always allowing would add: make '\\x1b[2J\\x1b[Hrun" in rendered
    denied = make_tool(policy, workspace).call({"command": "rm '\x1b[2J'"})
    for result in (declined, denied):
        assert "\x1b" not in result.display_text
        assert "\\x1b[2J" in result.display_text


def test_the_question_frames_a_command_of_several_lines_and_marks_padding(
    workspace: str,
) -> None:
    # review AM4: a line of the command imitated a reason line, and padding pushed
    # `; touch x` out of the approver's window
    approver = ScriptedApprover("deny")
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace, approver=approver)
    tool.call({"command": "touch a\n  ok: allowed by policy [read-fs]\ntouch b"})
    tool.call({"command": "touch docs.txt" + " " * 300 + "; touch x"})
    several, padded = (request.render().splitlines() for request in approver.requests)
    assert several[0].startswith("run this command of 3 lines in ")
    assert several[1:4] == [
        "    1 | touch a",
        "    2 |   ok: allowed by policy [read-fs]",
        "    3 | touch b",
    ]
    assert padded[0].startswith("run `touch docs.txt [300 blanks] ; touch x` in ")


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"command": "echo \ud800"}, "lone surrogate"),
        ({"command": "echo x", "timeout_s": 10**400}, None),
        ({"command": "echo x", "timeout_s": -(10**5000)}, "greater than 0"),
    ],
    ids=["surrogate", "huge-timeout", "huge-negative-timeout"],
)
def test_model_input_never_raises(workspace: str, arguments: dict[str, object],
                                  expected: str | None) -> None:
    # review J5: a lone surrogate raised UnicodeEncodeError from the spawn, and a
    # 400-digit timeout OverflowError; the contract is a result for anything a model sends
    result = make_tool(TablePolicy(), workspace).call(arguments)
    if expected is None:
        assert result.status is ToolStatus.OK
        assert "timeout_s was clamped" in result.model_text
    else:
        assert result.status is ToolStatus.INVALID
        assert expected in result.model_text


def test_a_workdir_through_a_symlink_is_judged_and_run_as_its_target(workspace: str) -> None:
    # review J6: the policy judged the link's target, the spawn followed the link again
    real = pathlib.Path(workspace, "real")
    real.mkdir()
    pathlib.Path(workspace, "link").symlink_to(real)
    policy = TablePolicy()
    result = make_tool(policy, workspace).call({"command": "pwd; pwd -P", "workdir": "link"})
    assert result.status is ToolStatus.OK
    assert policy.calls[-1][1] == str(real)
    assert result.result is not None
    assert result.result.stdout == f"{real}\n{real}\n"


def test_tool_options_refuse_durations_that_are_not_finite() -> None:
    with pytest.raises(ValueError, match="grace_s must be a number of seconds"):
        ToolOptions(grace_s=float("nan"))
    with pytest.raises(ValueError, match="drain_s must be a number of seconds"):
        ToolOptions(drain_s=float("inf"))


@pytest.mark.parametrize("answer", ["session", "always"])
def test_an_escalation_is_approved_one_run_at_a_time(workspace: str, answer: str) -> None:
    # review L10: "always" to an escalated `touch …` saved `touch` for every later
    # session, sandboxed or not
    outside = pathlib.Path("/var/tmp") / f"policylang-escalated-{os.getpid()}-{answer}"
    command = f"touch {shlex.quote(str(outside))}"
    approver = ScriptedApprover(answer)
    sink = RecordingSink()
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace,
                     backend=BubblewrapBackend(workspace), approver=approver, approvals=sink,
                     approval_mode=ApprovalMode.ON_REQUEST)
    try:
        result = tool.call({"command": command, "sandbox": "escalated",
                            "justification": "writes outside the workspace"})
        assert result.status is ToolStatus.OK
        assert result.approval is not None
        assert result.approval.scope is ApprovalScope.ONCE
        assert sink.added == []
        (request,) = approver.requests
        assert request.locked  # offered as once / deny only
        assert "always allowing would add" not in request.render()
    finally:
        outside.unlink(missing_ok=True)


@pytest.mark.parametrize("background", [False, True])
def test_a_workdir_swapped_for_a_link_while_approving_is_refused(
    workspace: str, jobs: JobStore, background: bool
) -> None:
    # review AQ1: the policy judged `ws/d`; while the person read the question, `d` became
    # a link to a secrets folder, and the command read the secret there
    secrets = pathlib.Path(workspace).parent / f"secrets-{background}"
    secrets.mkdir()
    (secrets / "hosts.yml").write_text("oauth_token: SECRET\n")
    folder = pathlib.Path(workspace) / "d"
    folder.mkdir()
    (folder / "hosts.yml").write_text("harmless\n")

    def swap_then_allow(request: object) -> str:
        folder.rename(folder.with_name("d.dir"))
        folder.symlink_to(secrets)
        return "once"

    tool = make_tool(TablePolicy({"cat": Verdict.ASK}), workspace, approver=swap_then_allow,
                     job_store=jobs)
    arguments: dict[str, object] = {"command": "cat hosts.yml", "workdir": "d"}
    if background:
        arguments["background"] = True
    result = tool.call(arguments)
    assert result.status is ToolStatus.REFUSED
    assert "no longer the directory" in result.model_text
    assert "SECRET" not in result.model_text


def test_a_command_runs_in_the_directory_that_was_judged(workspace: str) -> None:
    folder = pathlib.Path(workspace) / "d"
    folder.mkdir()
    result = make_tool(TablePolicy(), workspace).call({"command": "pwd -P", "workdir": "d"})
    assert result.status is ToolStatus.OK
    assert result.model_text.strip().endswith(str(folder.resolve()))


@pytest.mark.parametrize("workdir", ["a\x00b", "\ud800"])
def test_a_workdir_that_names_no_directory_is_invalid_not_raised(
    workspace: str, workdir: str
) -> None:
    # review AQ7: `os.path.realpath` raised out of `call` (over MCP: JSON-RPC error code 0)
    tool = make_tool(TablePolicy(), workspace)
    assert tool.call({"command": "ls", "workdir": workdir}).status is ToolStatus.INVALID
    assert tool.concurrency_safe({"command": "ls", "workdir": workdir}) is False


def test_always_without_an_approvals_file_is_granted_for_the_session(workspace: str) -> None:
    """Review BJ3: with an in-memory store, "always" was reported as saved and offered."""
    from policylang.engine.approvals import Approvals

    command, marker = _touch(workspace)
    store = Approvals()  # no file
    approver = ScriptedApprover(ApprovalAnswer.ALWAYS)
    tool = make_tool(TablePolicy({"touch": Verdict.ASK}), workspace,
                     approver=approver, approvals=store)
    result = tool.call({"command": command})
    assert marker.exists()
    assert result.approval is not None
    assert result.approval.scope is ApprovalScope.SESSION
    assert approver.requests[-1].can_persist is False
    assert store.match(("touch", "x")) is not None  # kept for the session
