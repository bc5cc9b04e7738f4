"""The nameref and integer attributes of the declaration builtins (coordinator's finding,
session 28), and review FI10's explanation of `export FOO=$PWD/bin`.

`declare -a list` is offered the approval `declare`. Under it, `declare -n CI=PATH; CI=.`
set PATH (a later `ls` ran the repository's `./ls`), `declare -n CI=GITHUB_TOKEN; echo $CI`
printed the token, and `declare -i CI; read CI` evaluated data as arithmetic, running the
`$(…)` of an array subscript in it. The engine follows neither attribute, so both are a
locked ask that no approval of the builtin lifts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import bash_printed, canary_environment, judge

from policylang.decision import Verdict
from policylang.engine.policy import load_policy, shipped_ruleset

OFFERED = "declare"

NAMEREF_AND_INTEGER_LINES = [
    "declare -n CI=GITHUB_TOKEN; echo $CI",
    "declare -n CI; CI=GITHUB_TOKEN; echo $CI",
    "declare -n CI=PATH; CI=.; ls",
    "declare -n CI=IFS; CI=/; echo a/b",
    "declare -gn CI=BASH_ENV",
    "typeset -n CI=PATH",
    "read v; declare -i CI; CI=$v",
    "read v; declare -ai CI; CI+=$v",
    "read v; declare -i CI; export CI=$v",
    "read v; declare -i CI; : ${CI:=$v}",
    "o=-n; declare $o CI=PATH",
]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def test_the_offer_for_an_array_declaration_is_the_bare_builtin(workspace: Path) -> None:
    decision = judge("declare -a list", workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == OFFERED
    assert judge("declare -a list", workspace, OFFERED).verdict is Verdict.ALLOW


def test_a_nameref_prints_the_secret_it_names_with_real_bash(workspace: Path) -> None:
    assert "ghp_CANARY" in bash_printed("declare -n CI=GITHUB_TOKEN; echo $CI", workspace)


def test_an_integer_variable_runs_the_subscript_of_data_with_real_bash(workspace: Path) -> None:
    canary = workspace / "ran"
    (workspace / "data").write_text(f"a[$(touch {canary})]\n")
    bash_printed("declare -i CI; read CI < data", workspace)
    assert canary.exists()


@pytest.mark.parametrize("line", NAMEREF_AND_INTEGER_LINES)
def test_the_attributes_ask_under_the_offered_approval(line: str, workspace: Path) -> None:
    decision = judge(line, workspace, OFFERED, "typeset")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "declaration-attributes" for r in decision.reasons), decision.explain()


@pytest.mark.parametrize("line", ["declare -n CI=PATH", "typeset -i n=0", "local -i n"])
def test_the_attributes_are_never_offered(line: str, workspace: Path) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None, decision.explain()


@pytest.mark.parametrize("line", ["declare -a list", "declare -l name", "declare +n CI"])
def test_other_attributes_stay_approvable(line: str, workspace: Path) -> None:
    assert judge(line, workspace, OFFERED).verdict is Verdict.ALLOW


def test_ci_denies_the_attributes(workspace: Path) -> None:
    ci = load_policy(shipped_ruleset("ci"), snapshot=False)
    decision = ci.evaluate(
        "declare -n CI=PATH", workspace=str(workspace), env=canary_environment(workspace)
    )
    assert decision.verdict is Verdict.DENY


def _arithmetic_reasons(line: str, workspace: Path) -> list[str]:
    decision = judge(line, workspace)
    return [r.message for r in decision.reasons if "as arithmetic" in r.message]


def test_an_exported_value_is_not_arithmetic(workspace: Path) -> None:
    """Review FI10: `export FOO=$PWD/bin` is an assignment, not `export -i`."""
    assert _arithmetic_reasons("export FOO=$PWD/bin", workspace) == []
    assert _arithmetic_reasons('export PATH="$PWD/node_modules/.bin:$PATH"', workspace) == []


def test_an_operand_that_may_be_an_option_still_counts(workspace: Path) -> None:
    assert _arithmetic_reasons("export $o FOO=$PWD/bin", workspace)
    assert _arithmetic_reasons("local -i n=$PWD", workspace)


@pytest.mark.parametrize(
    "line", ["declare -i", "declare -n", "declare -p -i", "declare -pn CI=PATH"]
)
def test_a_listing_gives_no_attribute(line: str, workspace: Path) -> None:
    """Review GZ1: with no name, or with `-p`, the builtin only lists (real bash sets
    nothing under `-p`), so the lock does not apply."""
    decision = judge(line, workspace)
    assert all(r.rule_id != "declaration-attributes" for r in decision.reasons), decision.explain()


def test_print_sets_nothing_with_real_bash(workspace: Path) -> None:
    assert "P=/usr/bin:/bin" in bash_printed('declare -pn CI=PATH; CI=.; echo "P=$PATH"', workspace)
