"""Shared helpers: a tiny hand-written policy (the policy is the unit's input, not the OS)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from policylang.decision import Decision, Reason, Verdict


@dataclass
class TablePolicy:
    """Decides by the first word of the command; records every call it gets."""

    table: Mapping[str, Verdict]
    default: Verdict = Verdict.ASK
    calls: list[tuple[str, str | None, str | None]] = field(default_factory=list)

    def evaluate(
        self,
        command: str,
        *,
        cwd: str | None = None,
        workspace: str | None = None,
        env: Mapping[str, str] | None = None,
        host_env: Mapping[str, str] | None = None,
    ) -> Decision:
        self.calls.append((command, cwd, workspace))
        first = command.split()[0] if command.split() else ""
        verdict = self.table.get(first, self.default)
        reason = Reason(rule_id=f"rule-{first}", message=f"{first} is {verdict}", verdict=verdict)
        return Decision(
            command=command,
            verdict=verdict,
            retention=None,
            concurrency_safe=False,
            reasons=(reason,),
            suggested_rule=None if verdict is Verdict.ALLOW else f"allow {first}",
        )


@pytest.fixture
def policy() -> TablePolicy:
    return TablePolicy({"ls": Verdict.ALLOW, "npm": Verdict.ASK, "rm": Verdict.DENY})
