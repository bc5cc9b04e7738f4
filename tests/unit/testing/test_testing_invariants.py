from __future__ import annotations

from collections.abc import Callable

import pytest
from fuzz_toys import (
    allowed_when_quoted,
    always_ask,
    flaky_evaluate,
    loosened_by_rules,
    naive_evaluate,
    raising_evaluate,
    requery_everything,
    spelling_sensitive,
)

from policylang.decision import Decision, Verdict
from policylang.testing import campaign
from policylang.testing.cases import Broken, Compound, Respelled, Substituted, Wrapped
from policylang.testing.invariants import (
    INVARIANTS,
    LOOSER,
    STRICTER,
    DenyCase,
    Evaluate,
    Subjects,
    check_compound_monotonicity,
    check_deny_monotonicity,
    check_fail_closed,
    check_retention_soundness,
    check_wrapper_transparency,
)

EXAMPLES = 150


def _always_ask_rule(rule: str) -> Evaluate:
    del rule
    return always_ask


def _safe_subjects() -> Subjects:
    return Subjects(evaluate=always_ask, reference=always_ask, with_rule=_always_ask_rule,
                    writes=lambda command: ">" in command)


def _loose(rule: str) -> Evaluate:
    evaluate: Evaluate = loosened_by_rules(rule)  # type: ignore[assignment]
    return evaluate


# Each invariant, with a toy that breaks it. The naive toy is the brief's: it allows
# `bash -c 'rm x'` but denies `rm x`.
BROKEN: dict[str, Subjects] = {
    "totality": Subjects(evaluate=raising_evaluate),
    "determinism": Subjects(evaluate=flaky_evaluate),
    "fail-closed": Subjects(evaluate=naive_evaluate),
    "compound-monotonicity": Subjects(evaluate=naive_evaluate),
    "quoting-invariance": Subjects(evaluate=naive_evaluate),
    "option-invariance": Subjects(evaluate=spelling_sensitive),
    "path-invariance": Subjects(evaluate=spelling_sensitive),
    "substitution-soundness": Subjects(evaluate=naive_evaluate),
    "wrapper-transparency": Subjects(evaluate=naive_evaluate),
    "deny-monotonicity": Subjects(evaluate=always_ask, with_rule=_loose),
    "differential": Subjects(evaluate=naive_evaluate, reference=always_ask),
    "retention-soundness": Subjects(evaluate=requery_everything),
}


def test_every_invariant_has_a_breaking_toy() -> None:
    assert set(BROKEN) == set(INVARIANTS)


@pytest.mark.parametrize("name", list(INVARIANTS))
def test_each_invariant_can_fail(name: str) -> None:
    invariant = INVARIANTS[name]
    report = campaign.run_property(invariant, BROKEN[name], campaign.strategy_for(name),
                                   seed=1, examples=EXAMPLES, shrink=False)
    assert report.violation is not None, f"{name} did not catch its broken toy"
    assert report.violation.property == name
    assert f"property {name} violated" in report.violation.render()


@pytest.mark.parametrize("name", list(INVARIANTS))
def test_each_invariant_holds_for_always_ask(name: str) -> None:
    report = campaign.run_property(INVARIANTS[name], _safe_subjects(),
                                   campaign.strategy_for(name), seed=2, examples=60)
    assert report.violation is None
    assert report.examples == 60


def test_counterexamples_are_shrunk_to_a_minimal_command() -> None:
    report = campaign.run_property(INVARIANTS["wrapper-transparency"],
                                   Subjects(evaluate=naive_evaluate),
                                   campaign.strategy_for("wrapper-transparency"), seed=3,
                                   examples=EXAMPLES)
    assert report.violation is not None
    # the naive toy allows `env X` whatever X is, so the minimal X is a bare command
    assert report.violation.command.count(" ") == 1, report.violation.command
    assert report.violation.command.split()[0] in {"env", "nice", "nohup", "sudo", "xargs"}


def test_wrapper_transparency_catches_bash_c() -> None:
    case = Wrapped(text="bash -c 'rm x'", inner="rm x", wrapper="bash-c")
    violation = check_wrapper_transparency(Subjects(evaluate=naive_evaluate), case)
    assert violation is not None
    assert "the wrapped line is allow but the inner command alone is deny" in violation.message
    rendered = violation.render()
    assert "verdict: deny" in rendered
    assert "verdict: allow" in rendered


def test_fail_closed_and_compound_on_hand_built_cases() -> None:
    naive = Subjects(evaluate=naive_evaluate)
    assert check_fail_closed(naive, Broken(text="ls '", origin="ls", how="quote")) is not None
    assert check_fail_closed(Subjects(evaluate=always_ask),
                             Broken(text="ls '", origin="ls", how="quote")) is None
    compound = Compound(text="ls && rm x", parts=("ls", "rm x"), construct="&&")
    violation = check_compound_monotonicity(naive, compound)
    assert violation is not None
    assert violation.related == ("rm x",)


def test_an_exception_is_a_violation_of_the_property_being_checked() -> None:
    check = INVARIANTS["substitution-soundness"].check
    case = Substituted(text="echo $(ls)", inner="ls", position="argument")
    violation = check(Subjects(evaluate=raising_evaluate), case)
    assert violation is not None
    assert violation.property == "substitution-soundness"
    assert "evaluate raised RuntimeError: cannot handle parentheses" in violation.message


def test_a_non_decision_result_is_a_totality_violation() -> None:
    bad: Callable[[str], Decision] = lambda command: "allow"  # type: ignore[assignment,return-value]  # noqa: E731
    violation = INVARIANTS["totality"].check(Subjects(evaluate=bad), "ls")
    assert violation is not None
    assert "returned str, not a Decision" in violation.message


def test_quoting_invariance_names_both_spellings() -> None:
    respelled = Respelled(values=("rm", "x"), spellings=("rm x", "$'rm' x"))
    violation = INVARIANTS["quoting-invariance"].check(Subjects(evaluate=naive_evaluate),
                                                       respelled)
    assert violation is not None
    assert violation.command == "$'rm' x"
    assert violation.related == ("rm x",)


def test_a_respelling_that_asks_is_over_strict_not_a_hole() -> None:
    # review AR11: every difference had read like a hole
    respelled = Respelled(values=("ls", "x"), spellings=("ls x", "ls 'x'"))
    violation = INVARIANTS["quoting-invariance"].check(Subjects(evaluate=spelling_sensitive),
                                                       respelled)
    assert violation is not None
    assert violation.direction == STRICTER
    assert violation.decided_by() == "engine"  # the toy's reasons name no rule location
    head = violation.render().splitlines()[0]
    assert "stricter: over-strict, not a hole" in head
    assert "the engine's built-in checks" in head


def test_a_respelling_that_allows_is_a_possible_hole() -> None:
    respelled = Respelled(values=("ls", "x"), spellings=("ls x", "ls 'x'"))
    violation = INVARIANTS["quoting-invariance"].check(Subjects(evaluate=allowed_when_quoted),
                                                       respelled)
    assert violation is not None
    assert violation.direction == LOOSER
    assert "looser: a possible hole" in violation.render()


def test_commands_are_shown_one_way_with_control_characters_escaped() -> None:
    respelled = Respelled(values=("ls", "x\r"), spellings=("ls x\r", "ls 'x\r'"))
    violation = INVARIANTS["quoting-invariance"].check(Subjects(evaluate=spelling_sensitive),
                                                       respelled)
    assert violation is not None
    text = violation.render()
    assert "`ls 'x\\x0d'`" in text  # the same spelling in the message and the command
    assert "\r" not in text.split("  --")[0]
    assert "\"ls" not in text  # no Python repr


def test_a_policy_rule_behind_the_stricter_verdict_is_named() -> None:
    from policylang import load_policy

    respelled = Respelled(values=("sudo", "id"), spellings=("echo sudo id", "sudo id"))
    violation = INVARIANTS["quoting-invariance"].check(
        Subjects(evaluate=load_policy().evaluate), respelled)
    assert violation is not None
    assert violation.decided_by() == "policy"
    assert "a rule of the policy" in violation.render().splitlines()[0]


def test_retention_uses_the_writes_oracle() -> None:
    def allow_requery(command: str) -> Decision:
        return naive_evaluate("ls")
    subjects = Subjects(evaluate=allow_requery, writes=lambda c: ">" in c)
    assert check_retention_soundness(subjects, "ls > out") is not None
    assert check_retention_soundness(subjects, "ls") is None


def test_missing_subjects_are_reported_not_run() -> None:
    report = campaign.run_property(INVARIANTS["differential"], Subjects(evaluate=always_ask),
                                   campaign.strategy_for("differential"), examples=5)
    assert report.skipped == "needs reference"
    assert "skipped (needs reference)" in report.render()
    with pytest.raises(ValueError, match=r"needs Subjects\.with_rule"):
        check_deny_monotonicity(Subjects(evaluate=always_ask), DenyCase(command="ls", rule="r"))


def test_deny_case_with_loosening_rules() -> None:
    check = INVARIANTS["deny-monotonicity"].check
    violation = check(Subjects(evaluate=always_ask, with_rule=_loose),
                      DenyCase(command="ls", rule="deny rm **"))
    assert violation is not None
    assert violation.message == "adding `deny rm **` turned ask into allow"
    assert Verdict.ALLOW in {d.verdict for d in violation.decisions}
