"""Engine stage: stored approvals judged against the offers the policy makes today.

An approval is stored once and honoured until the user removes it. The offers it came
from are narrowed from time to time (reviews GH4 and GL1: `task` is offered `task $`,
`docker compose config` is no longer offered at all), and an approval stored before that
still covers what the narrowed offer would not. The engine does not drop or rewrite such
an approval: the user granted it, and silently losing it is no better than silently
keeping it. `audit` says which ones are wider, so `policylang check --approvals FILE`
can show them.

Each approval's words are judged as a command line of their own, in the context the
inline expectations use (no workspace files, no environment), and without approvals.
"""

from __future__ import annotations

import enum
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from policylang.decision import Verdict
from policylang.engine.approvals import ApprovalError, is_exact, rule_words

if TYPE_CHECKING:
    from policylang.engine.policy import Policy


class Finding(enum.Enum):
    WIDER = "wider-than-offer"  # today's offer is narrower than the approval
    NOT_OFFERED = "not-offered"  # today no approval is offered for these words
    DENIED = "denied"  # the policy denies the words themselves: no approval lifts a deny
    UNREADABLE = "unreadable"  # the entry is no approval rule at all


@dataclass(frozen=True)
class ApprovalAudit:
    """One stored approval that today's policy would not offer as it stands."""

    rule: str
    finding: Finding
    offer: str | None  # what the policy offers for the same words today, if anything
    detail: str  # the first reason of the decision, or the rule's error

    def message(self) -> str:
        if self.finding is Finding.WIDER:
            return f"approval `{self.rule}` covers more than today's offer `{self.offer}`"
        if self.finding is Finding.NOT_OFFERED:
            return f"approval `{self.rule}` is no longer offered: {self.detail}"
        if self.finding is Finding.DENIED:
            return f"approval `{self.rule}`: the policy denies these words ({self.detail})"
        return f"approval `{self.rule}` cannot be read: {self.detail}"


def audit(policy: Policy, rules: Iterable[str]) -> Iterator[ApprovalAudit]:
    """The approvals among `rules` that today's offers would not have made."""
    from policylang.engine.policy import EXPECTATION_CONTEXT

    for rule in rules:
        try:
            words = rule_words(rule)
        except (ApprovalError, TypeError) as error:
            yield ApprovalAudit(rule, Finding.UNREADABLE, None, str(error))
            continue
        literal = words[:-1] if is_exact(words) else words
        decision = policy.evaluate_in(shlex.join(literal), EXPECTATION_CONTEXT, approvals=False)
        if decision.verdict is Verdict.ALLOW:
            continue  # allowed anyway: the approval widens nothing on these words
        detail = decision.reasons[0].message if decision.reasons else "no reason given"
        if decision.verdict is Verdict.DENY:
            yield ApprovalAudit(rule, Finding.DENIED, None, detail)
            continue
        offer = decision.suggested_rule
        if offer is None:
            yield ApprovalAudit(rule, Finding.NOT_OFFERED, None, detail)
        elif not within(words, rule_words(offer)):
            yield ApprovalAudit(rule, Finding.WIDER, offer, detail)


def within(approval: tuple[str, ...], offer: tuple[str, ...]) -> bool:
    """Whether every line `approval` covers is covered by `offer` too.

    An exact offer (`task $`) covers only itself; a prefix offer (`npm run build`) covers
    an approval that starts with its words, exact or not (`npm run build --prod`)."""
    if is_exact(offer):
        return approval == offer
    literal = approval[:-1] if is_exact(approval) else approval
    return literal[: len(offer)] == offer
