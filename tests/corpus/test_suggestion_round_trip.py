"""A suggested rule keeps its promise: approved, it lets the very line it was offered for
through (reviews R and Q made approvals check the words after the prefix; a suggestion
those checks would still stop is not offered).

Over every tldr and nl2bash line the default ruleset asks about with a suggestion.
"""

from __future__ import annotations

import pytest
from test_shell_corpus import CORPORA, corpus  # tests/corpus is not a package

from policylang.decision import Verdict
from policylang.engine.policy import load_policy

pytestmark = pytest.mark.slow

WHERE = {"workspace": "/nonexistent/workspace", "env": {"HOME": "/nonexistent/home"}}


def test_approving_the_suggestion_allows_the_line() -> None:
    commands = corpus()
    assert CORPORA.is_dir()
    policy = load_policy()
    checked, broken = 0, []
    for command in dict.fromkeys(commands):
        decision = policy.evaluate(command, **WHERE)  # type: ignore[arg-type]
        rule = decision.suggested_rule
        if decision.verdict is not Verdict.ASK or rule is None:
            continue
        checked += 1
        policy.approvals.add(rule, persist=False)
        try:
            again = policy.evaluate(command, **WHERE)  # type: ignore[arg-type]
        finally:
            policy.approvals.remove(rule)
        if again.verdict is not Verdict.ALLOW:
            broken.append((rule, command, again.verdict.value))
    assert checked > 20_000  # the corpora ask about most lines, with a suggestion
    assert broken == []
