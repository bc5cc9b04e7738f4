"""The invariants every policy must satisfy, as checks over an evaluate callable.

This module imports `policylang.decision` and `policylang.testing.cases` only (no
Hypothesis, no engine), so the checks work with any evaluator: the real
`Policy.evaluate`, a stub in a test, or a remote service. Each check takes the
`Subjects` under test and one generated example, and returns a `Violation` or None.
An exception raised by an evaluator is itself a violation (of totality, or of the
property being checked), never an exception out of the check.

| property | example | holds when |
|---|---|---|
| totality | `str` | evaluate returns a Decision for any text, without raising |
| determinism | `str` | two evaluations of the same text give equal decisions |
| fail-closed | `Broken` | a line bash cannot parse is never allowed |
| compound-monotonicity | `Compound` | a compound is at least as strict as each part |
| quoting-invariance | `Respelled` | re-quoting words never changes the verdict |
| option-invariance | `Respelled` | re-spelling options never changes the verdict |
| path-invariance | `Respelled` | `p`, `./p`, `.//p`, `dir/./p` get the same verdict |
| substitution-soundness | `Substituted` | a line is at least as strict as a substitution in it |
| wrapper-transparency | `Wrapped` | `env X`, `bash -c 'X'` … are at least as strict as X |
| deny-monotonicity | `DenyCase` | adding a deny rule never loosens any verdict |
| differential | `str` | evaluate agrees with a reference evaluator |
| retention-soundness | `str` | `requery` only when every segment is read-only and nothing writes |
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from policylang.decision import Decision, Retention, Verdict, visible_line
from policylang.testing import bashcheck
from policylang.testing.cases import Broken, Compound, Respelled, Substituted, Wrapped

Evaluate = Callable[[str], Decision]
"""Anything that answers a command line with a Decision, e.g. `policy.evaluate`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Subjects:
    """What the invariants are checked against.

    `evaluate` is the evaluator under test. `reference` (for `differential`) is an
    independent evaluator of the same policy. `with_rule` (for `deny-monotonicity`)
    returns the evaluator of the same policy with one more rule line added as a later
    layer. `writes` (for `retention-soundness`) tells whether a line can write
    (a writing redirect anywhere); without it only the segment flags are checked.
    """

    evaluate: Evaluate
    reference: Evaluate | None = None
    with_rule: Callable[[str], Evaluate] | None = None
    writes: Callable[[str], bool] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DenyCase:
    """A command and a deny rule line to add to the policy (`deny rm **`)."""

    command: str
    rule: str


LOOSER = "looser"
"""A verdict looser than the property allows: a possible hole in the policy or engine."""
STRICTER = "stricter"
"""A verdict stricter than another spelling or the reference: over-strict, not a hole."""
DEFECT = "defect"
"""Neither: the evaluator raised, was not deterministic, or mislabelled retention."""


def shown(command: str) -> str:
    """A command as every report shows it: on one line, control characters escaped."""
    return f"`{visible_line(command)}`"


@dataclass(frozen=True, slots=True, kw_only=True)
class Violation:
    """A counterexample: the property, the command that shows it, and the decisions.

    `direction` says which way it errs (review AR11): `looser` (a possible hole),
    `stricter` (over-strict: a person is asked where another spelling is allowed) or
    `defect`. `decided_by` says whether the stricter verdict came from the policy's rules
    or only from the engine's built-in checks, which no policy change can lift.
    """

    property: str
    command: str
    message: str
    related: tuple[str, ...] = ()  # other command texts involved (parts, inner, spellings)
    decisions: tuple[Decision, ...] = field(default=(), compare=False)
    direction: str = DEFECT

    def decided_by(self) -> str:
        """`policy` when a rule of the policy gave the stricter verdict, else `engine`."""
        if not self.decisions:
            return "engine"
        strictest = max(self.decisions, key=lambda d: d.verdict.rank)
        deciding = [r for r in strictest.reasons if r.verdict is strictest.verdict]
        return "policy" if any(r.location for r in deciding) else "engine"

    def label(self) -> str:
        if self.direction == LOOSER:
            return "looser: a possible hole"
        if self.direction == STRICTER:
            where = ("a rule of the policy" if self.decided_by() == "policy"
                     else "the engine's built-in checks, not the policy")
            return f"stricter: over-strict, not a hole; the stricter verdict comes from {where}"
        return "a defect of the evaluator"

    def render(self) -> str:
        """The counterexample with the explain trace of every decision involved."""
        lines = [f"property {self.property} violated ({self.label()}): {self.message}",
                 f"  command: {shown(self.command)}"]
        lines += [f"  related: {shown(text)}" for text in self.related]
        for decision in self.decisions:
            lines.append("  --")
            lines += ["  " + ln for ln in decision.explain().splitlines()]
        return "\n".join(lines)


class _EvaluationFailed(Exception):
    """Internal: an evaluator raised or returned something that is not a Decision."""

    def __init__(self, command: str, detail: str) -> None:
        super().__init__(detail)
        self.command = command
        self.detail = detail


def _decide(evaluate: Evaluate, command: str) -> Decision:
    try:
        result: object = evaluate(command)
    except Exception as exc:  # INVARIANT: evaluate must never raise on command text
        detail = "".join(traceback.format_exception_only(exc)).strip()
        raise _EvaluationFailed(command, f"evaluate raised {detail}") from exc
    if not isinstance(result, Decision) or not isinstance(result.verdict, Verdict):
        raise _EvaluationFailed(command, f"evaluate returned {type(result).__name__}, "
                                         "not a Decision")
    return result


def _guarded(name: str, check: Callable[[Subjects, Any], Violation | None]
             ) -> Callable[[Subjects, Any], Violation | None]:
    """`check`, with an evaluator failure turned into a violation of property `name`."""
    def run(subjects: Subjects, example: Any) -> Violation | None:
        try:
            return check(subjects, example)
        except _EvaluationFailed as failed:
            return Violation(property=name, command=failed.command, message=failed.detail)
    return run


def _looser(outer: Decision, inner: Decision) -> bool:
    return outer.verdict.rank < inner.verdict.rank


# --- the checks ---------------------------------------------------------------------------

def check_totality(subjects: Subjects, command: str) -> Violation | None:
    """Evaluate returns a Decision for any text and does not raise."""
    _decide(subjects.evaluate, command)
    return None


def check_determinism(subjects: Subjects, command: str) -> Violation | None:
    """Evaluating the same text twice gives equal decisions (reasons included)."""
    first = _decide(subjects.evaluate, command)
    second = _decide(subjects.evaluate, command)
    if first.to_dict() != second.to_dict():
        return Violation(property="determinism", command=command,
                         message=f"two evaluations differ ({first.verdict} then "
                                 f"{second.verdict})", decisions=(first, second))
    return None


def check_fail_closed(subjects: Subjects, broken: Broken) -> Violation | None:
    """A line that is not valid bash is never ALLOW."""
    decision = _decide(subjects.evaluate, broken.text)
    if decision.verdict is Verdict.ALLOW:
        return Violation(property="fail-closed", command=broken.text,
                         message=f"a line bash cannot parse ({broken.how}) was allowed",
                         related=(broken.origin,), decisions=(decision,), direction=LOOSER)
    return None


def check_compound_monotonicity(subjects: Subjects, compound: Compound) -> Violation | None:
    """The compound line is at least as strict as each part on its own."""
    whole = _decide(subjects.evaluate, compound.text)
    for part in compound.parts:
        alone = _decide(subjects.evaluate, part)
        if _looser(whole, alone):
            return Violation(
                property="compound-monotonicity", command=compound.text,
                message=f"{compound.construct}: the line is {whole.verdict} but its part "
                        f"{shown(part)} alone is {alone.verdict}",
                related=(part,), decisions=(whole, alone), direction=LOOSER)
    return None


def _raw_control_blank(spelling: str) -> bool:
    """Whether `spelling` holds a raw carriage return, vertical tab or form feed."""
    return "\r" in spelling or "\v" in spelling or "\f" in spelling


def _asked_on_purpose(decision: Decision, reference: Verdict) -> bool:
    """Whether `decision` is stricter than `reference` only by the engine's ask on a raw
    control blank (`shell.control-blank`): bash keeps it inside the word, tree-sitter
    splits there and a terminal hides it from the approver, so the engine asks where the
    same word spelled `$'\\r'` is allowed, on purpose (review DY5)."""
    return (
        decision.verdict is Verdict.ASK
        and reference is Verdict.ALLOW
        and any(r.rule_id == "shell.control-blank" for r in decision.reasons)
    )


def _check_respelled(name: str, subjects: Subjects, respelled: Respelled) -> Violation | None:
    judged = [(_raw_control_blank(text), _decide(subjects.evaluate, text))
              for text in respelled.spellings]  # fmt: skip
    # the reference is the first spelling without a raw control blank, where there is one
    # (the direction had been read from whichever spelling came first: review DY5)
    clean = {d.verdict for raw, d in judged if not raw}
    if len(clean) == 1:
        reference = next(iter(clean))
        judged = [(raw, d) for raw, d in judged if not (raw and _asked_on_purpose(d, reference))]
    judged.sort(key=lambda pair: pair[0])
    decisions = [d for _raw, d in judged]
    verdicts = {d.verdict for d in decisions}
    if len(verdicts) > 1:
        first = decisions[0]
        other = next(d for d in decisions if d.verdict is not first.verdict)
        direction = LOOSER if _looser(other, first) else STRICTER
        return Violation(
            property=name, command=other.command,
            message=f"the same command ({shown(' '.join(respelled.values))}) re-spelled as "
                    f"{shown(other.command)} gets {other.verdict}, but {first.verdict} as "
                    f"{shown(first.command)}",
            related=(first.command,), decisions=(first, other), direction=direction)
    return None


def check_quoting_invariance(subjects: Subjects, respelled: Respelled) -> Violation | None:
    """Every spelling of the same words gets the same verdict."""
    return _check_respelled("quoting-invariance", subjects, respelled)


def check_option_invariance(subjects: Subjects, respelled: Respelled) -> Violation | None:
    """Every spelling of the same options (`-rf`, `-r -f`, `--recursive --force`) agrees."""
    return _check_respelled("option-invariance", subjects, respelled)


def check_path_invariance(subjects: Subjects, respelled: Respelled) -> Violation | None:
    """Every spelling of the same path (`.env`, `./.env`, `.//.env`) gets the same verdict."""
    return _check_respelled("path-invariance", subjects, respelled)


def check_substitution_soundness(subjects: Subjects, case: Substituted) -> Violation | None:
    """A line is at least as strict as any command it runs in a substitution.

    Only where bash reads `inner` as whole commands (`bashcheck.complete_command`, asked
    of a line about to be reported): `echo "$(ls ) (⏎)"` substitutes `ls `, bash closing
    it at the first `)`, not the syntax error `ls ) (` (closing 28)."""
    whole = _decide(subjects.evaluate, case.text)
    inner = _decide(subjects.evaluate, case.inner)
    if _looser(whole, inner) and bashcheck.complete_command(case.inner) is not False:
        return Violation(
            property="substitution-soundness", command=case.text,
            message=f"{case.position}: the line is {whole.verdict} but the substituted "
                    f"command alone is {inner.verdict}",
            related=(case.inner,), decisions=(whole, inner), direction=LOOSER)
    return None


def check_wrapper_transparency(subjects: Subjects, case: Wrapped) -> Violation | None:
    """A wrapped command (`env`, `timeout 5`, `bash -c '…'` …) is never looser than it.

    For an opaque form (`Wrapped.opaque`) only ALLOW is too loose: an analyser that
    cannot see the inner command fails closed to ASK, which is sound.
    """
    whole = _decide(subjects.evaluate, case.text)
    inner = _decide(subjects.evaluate, case.inner)
    if case.opaque:
        loose = whole.verdict is Verdict.ALLOW and inner.verdict is not Verdict.ALLOW
    else:
        loose = _looser(whole, inner)
    if loose:
        return Violation(
            property="wrapper-transparency", command=case.text,
            message=f"{case.wrapper}: the wrapped line is {whole.verdict} but the inner "
                    f"command alone is {inner.verdict}",
            related=(case.inner,), decisions=(whole, inner), direction=LOOSER)
    return None


def check_deny_monotonicity(subjects: Subjects, case: DenyCase) -> Violation | None:
    """Adding a deny rule never makes a verdict looser."""
    if subjects.with_rule is None:
        raise ValueError("deny-monotonicity needs Subjects.with_rule")
    before = _decide(subjects.evaluate, case.command)
    after = _decide(subjects.with_rule(case.rule), case.command)
    if _looser(after, before):
        return Violation(
            property="deny-monotonicity", command=case.command,
            message=f"adding `{case.rule}` turned {before.verdict} into {after.verdict}",
            related=(case.rule,), decisions=(before, after), direction=LOOSER)
    return None


def check_differential(subjects: Subjects, command: str) -> Violation | None:
    """The evaluator agrees with the reference evaluator on the verdict."""
    if subjects.reference is None:
        raise ValueError("differential needs Subjects.reference")
    ours = _decide(subjects.evaluate, command)
    theirs = _decide(subjects.reference, command)
    if ours.verdict is not theirs.verdict:
        return Violation(property="differential", command=command,
                         message=f"evaluate says {ours.verdict}, the reference says "
                                 f"{theirs.verdict}", decisions=(ours, theirs),
                         direction=LOOSER if _looser(ours, theirs) else STRICTER)
    return None


def check_retention_soundness(subjects: Subjects, command: str) -> Violation | None:
    """`requery` retention only when every segment is read-only and nothing writes.

    Writing is judged by `Subjects.writes` (a writing redirect anywhere) when given.
    """
    decision = _decide(subjects.evaluate, command)
    if decision.retention is not Retention.REQUERY:
        return None
    effects = [s.text for s in decision.segments if not s.read_only]
    if effects:
        return Violation(property="retention-soundness", command=command,
                         message=f"retention requery but segment {shown(effects[0])} has effects",
                         decisions=(decision,))
    if subjects.writes is not None and subjects.writes(command):
        return Violation(property="retention-soundness", command=command,
                         message="retention requery but the line writes (a redirect)",
                         decisions=(decision,))
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Invariant:
    """A named property: its check and the subjects it needs beyond `evaluate`."""

    name: str
    summary: str
    check: Callable[[Subjects, Any], Violation | None]
    needs: frozenset[str] = frozenset()  # "reference", "with_rule"

    def missing(self, subjects: Subjects) -> tuple[str, ...]:
        """The subjects this invariant needs that `subjects` does not provide."""
        return tuple(sorted(n for n in self.needs if getattr(subjects, n) is None))


def _invariant(name: str, check: Callable[[Subjects, Any], Violation | None],
               needs: frozenset[str] = frozenset()) -> Invariant:
    summary = (check.__doc__ or "").strip().splitlines()[0]
    return Invariant(name=name, summary=summary, check=_guarded(name, check), needs=needs)


INVARIANTS: Mapping[str, Invariant] = {
    inv.name: inv for inv in (
        _invariant("totality", check_totality),
        _invariant("determinism", check_determinism),
        _invariant("fail-closed", check_fail_closed),
        _invariant("compound-monotonicity", check_compound_monotonicity),
        _invariant("quoting-invariance", check_quoting_invariance),
        _invariant("option-invariance", check_option_invariance),
        _invariant("path-invariance", check_path_invariance),
        _invariant("substitution-soundness", check_substitution_soundness),
        _invariant("wrapper-transparency", check_wrapper_transparency),
        _invariant("deny-monotonicity", check_deny_monotonicity, frozenset({"with_rule"})),
        _invariant("differential", check_differential, frozenset({"reference"})),
        _invariant("retention-soundness", check_retention_soundness),
    )
}
"""Every invariant by name, in the order a campaign runs them."""
