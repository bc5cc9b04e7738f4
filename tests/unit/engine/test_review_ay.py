"""Review AY (policy side): other agents' configuration and what tools run outside the
agent's checks are protected paths of the shipped rulesets."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict, load_policy
from policylang.engine.approvals import Approvals


@pytest.mark.parametrize(
    ("target", "verdict"),
    [
        ("opencode.json", Verdict.DENY),
        (".windsurf/mcp.json", Verdict.DENY),
        (".kiro/hooks/x.json", Verdict.DENY),
        ("CLAUDE.local.md", Verdict.DENY),
        ("pkg/CLAUDE.local.md", Verdict.DENY),
        (".husky/pre-commit", Verdict.ASK),
        ("lefthook.yaml", Verdict.ASK),
        (".devcontainer/devcontainer.json", Verdict.ASK),
        (".config/mise.toml", Verdict.ASK),
    ],
)
def test_configuration_other_tools_run_is_protected_even_under_an_approval(
    tmp_path: Path, target: str, verdict: Verdict
) -> None:
    approvals = Approvals()
    approvals.add("cp", persist=False)
    policy = load_policy(snapshot=False, approvals=approvals)
    assert policy.evaluate(f"echo x > {target}", workspace=str(tmp_path)).verdict is verdict
    # an approved writer does not reach them either
    assert policy.evaluate(f"cp x {target}", workspace=str(tmp_path)).verdict is verdict
