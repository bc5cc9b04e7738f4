"""Golden decisions of the default ruleset: tests/golden/commands/*.tsv.

Each table line is `command<TAB>verdict<TAB>retention<TAB>note` (see
policylang.engine.cases). To see every difference at once, run
`.venv/bin/policylang test rulesets/default.policy --cases tests/golden/commands/default.tsv`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang.engine.cases import Case, failures, read_cases
from policylang.engine.policy import EXPECTATION_CONTEXT, Policy, load_policy

TABLES = sorted((Path(__file__).parent / "commands").glob("*.tsv"))
CASES: list[Case] = [case for table in TABLES for case in read_cases(table)]


@pytest.fixture(scope="module")
def policy() -> Policy:
    return load_policy()


def test_table_is_large_enough() -> None:
    assert len(CASES) >= 300


@pytest.mark.parametrize("case", CASES, ids=[c.location.rpartition("/")[2] for c in CASES])
def test_golden(policy: Policy, case: Case) -> None:
    problems = failures(
        [case], lambda c: policy.evaluate_in(c, EXPECTATION_CONTEXT, approvals=False)
    )
    assert not problems, problems[0]
