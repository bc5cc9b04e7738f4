"""Tool test helpers: a hand-written policy and approvals sink (the inputs; the OS is real)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import pytest

from policylang.decision import Decision, Reason, Retention, Verdict
from policylang.executor import JobStore
from policylang.tool import ApprovalRequest, BashTool


@dataclass
class TablePolicy:
    """Decides by the first word; records every evaluation (command, cwd, workspace, env)."""

    table: Mapping[str, Verdict] = field(default_factory=dict)
    locked: frozenset[str] = frozenset()
    calls: list[tuple[str, str | None, str | None, Mapping[str, str] | None]] = field(
        default_factory=list)

    def evaluate(
        self,
        command: str,
        *,
        cwd: str | None = None,
        workspace: str | None = None,
        env: Mapping[str, str] | None = None,
        host_env: Mapping[str, str] | None = None,
    ) -> Decision:
        self.calls.append((command, cwd, workspace, env))
        words = command.split()
        first = words[0] if words else ""
        verdict = self.table.get(first, Verdict.ALLOW)
        reason = Reason(rule_id=f"table.{first}", message=f"`{first}` is {verdict} in the table",
                        verdict=verdict, location="table.policy:1:1", segment=command)
        return Decision(command=command, verdict=verdict,
                        retention=Retention.REQUERY if first in ("ls", "echo") else
                        Retention.DURABLE,
                        concurrency_safe=verdict is Verdict.ALLOW and first in ("ls", "echo"),
                        reasons=(reason,), suggested_rule=" ".join(words[:1]) or None,
                        locked=first in self.locked)


@dataclass
class RecordingSink:
    added: list[tuple[str, bool]] = field(default_factory=list)

    def add(self, rule: str, *, persist: bool) -> None:
        self.added.append((rule, persist))


@dataclass
class ScriptedApprover:
    answer: str
    requests: list[ApprovalRequest] = field(default_factory=list)

    def __call__(self, request: ApprovalRequest) -> str:
        self.requests.append(request)
        return self.answer


@pytest.fixture
def workspace(tmp_path: object) -> str:
    return str(tmp_path)


@pytest.fixture
def jobs() -> Iterator[JobStore]:
    with JobStore(grace_s=0.2, drain_s=0.05) as store:
        yield store


def make_tool(policy: TablePolicy, workspace: str, **kwargs: object) -> BashTool:
    return BashTool(policy, workspace=workspace, **kwargs)  # type: ignore[arg-type]
