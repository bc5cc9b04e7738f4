"""The CI fuzzing campaign: every invariant against every shipped ruleset, fixed seed.

A bounded, reproducible run of what `policylang fuzz` does (a few thousand examples in
all): one test per (ruleset, invariant), so each failure names its property and prints
its shrunk counterexample with the explain trace and the options that reproduce it. The
longer on-demand campaign is `make fuzz`. Seeds come from the golden tables, and from
`../shared/corpora` when it is there (without it the structural generators still run).

`differential` needs an independent full evaluator, which the project does not have; the
compiled tree is checked against a naive matcher in `test_rules_props.py` instead.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from policylang.testing import seeds
from policylang.testing.campaign import policy_subjects, run_property, strategy_for
from policylang.testing.invariants import INVARIANTS, Subjects

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "policylang" / "rulesets"
SEED = 20260
#: Examples per invariant: the default ruleset gets the most, as users start from it.
EXAMPLES = {"default.policy": 150, "ci.policy": 60, "readonly.policy": 60,
            "org-example/team.policy": 40}
CHECKED = tuple(name for name in INVARIANTS if name != "differential")


@cache
def _subjects(ruleset: str) -> Subjects:
    return policy_subjects(RULESETS / ruleset)


@cache
def _seed_texts() -> tuple[str, ...]:
    return seeds.load_seeds(golden_dir=ROOT / "tests" / "golden")


@pytest.mark.parametrize("name", CHECKED)
@pytest.mark.parametrize("ruleset", tuple(EXAMPLES))
def test_invariant_holds(ruleset: str, name: str) -> None:
    report = run_property(INVARIANTS[name], _subjects(ruleset),
                          strategy_for(name, _seed_texts()), seed=SEED,
                          examples=EXAMPLES[ruleset])
    assert report.skipped is None, report.skipped
    assert report.violation is None, f"{ruleset}\n{report.render()}"
    assert report.examples == EXAMPLES[ruleset]


def test_every_shipped_ruleset_is_covered() -> None:
    shipped = {str(p.relative_to(RULESETS)) for p in RULESETS.rglob("*.policy")}
    # base layers, checked through the policies that include them
    assert shipped - set(EXAMPLES) <= {"common.policy", "org-example/org.policy"}
