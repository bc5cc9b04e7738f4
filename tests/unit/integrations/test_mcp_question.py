"""The approval question the MCP server puts to the person."""

from __future__ import annotations

from policylang.decision import Verdict
from policylang.integrations.mcp_server import _question
from policylang.tool.bash import ApprovalRequest


def _request(*, can_persist: bool) -> ApprovalRequest:
    return ApprovalRequest(
        command="touch x", description=None, reasons=(), suggested_rule="touch",
        workdir="/w", verdict=Verdict.ASK, can_persist=can_persist,
    )


def _choices(request: ApprovalRequest) -> list[str]:
    schema = _question(request).requested_schema
    return list(schema["properties"]["decision"]["enum"])


def test_always_is_offered_only_where_it_is_saved() -> None:
    """Review BJ3: without an approvals file, "always" was offered and silently lasted
    only the session."""
    assert _choices(_request(can_persist=True)) == ["once", "session", "always", "deny"]
    assert _choices(_request(can_persist=False)) == ["once", "session", "deny"]
