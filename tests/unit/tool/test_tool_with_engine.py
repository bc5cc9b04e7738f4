"""The tool against the engine's real `Policy` and approvals store (the shipped default ruleset)."""

from __future__ import annotations

import pathlib

import pytest

from policylang import load_policy
from policylang.tool import ApprovalRequest, ApprovalSink, BashTool, ToolStatus


def test_engine_policy_fits_the_tool_contract(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # INVARIANT: this test sends a destructive command through a real executor with an
    # approver that says "always"; were the engine ever to answer ask, it would run. HOME
    # points at a scratch directory so that even then nothing outside tmp_path is touched.
    home = tmp_path / "home"
    home.mkdir()
    (home / "keep").write_text("x")
    monkeypatch.setenv("HOME", str(home))
    approvals_file = tmp_path / "approvals.toml"
    policy = load_policy(approvals=approvals_file)
    asked: list[ApprovalRequest] = []

    def approver(request: ApprovalRequest) -> str:
        asked.append(request)
        return "always"

    tool = BashTool(policy, workspace=str(tmp_path), approver=approver)
    assert isinstance(tool.approvals, ApprovalSink)  # the policy's own store was picked up

    listed = tool.call({"command": "ls -la"})
    assert listed.status is ToolStatus.OK
    assert asked == []
    assert tool.concurrency_safe({"command": "ls -la"})

    denied = tool.call({"command": "rm -rf ~"})
    assert denied.status is ToolStatus.DENIED
    assert asked == []
    assert (home / "keep").exists()

    marker = tmp_path / "made.txt"
    wrote = tool.call({"command": f"echo hi > {marker}", "description": "Write a file"})
    assert wrote.status is ToolStatus.OK
    assert marker.read_text() == "hi\n"
    (request,) = asked
    assert request.reasons
    if request.suggested_rule:  # an "always" answer is persisted through the approvals file
        assert request.suggested_rule in approvals_file.read_text()
