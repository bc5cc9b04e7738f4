"""Fast construction of the decision's frozen dataclasses on the engine's hot path.

Imports `decision` only. The technique is `shell._build`'s: a frozen dataclass `__init__`
sets each field through `object.__setattr__`, which costs more than the rest of the walk
spends on a simple segment; each builder here fills a *twin* (a plain class with the same
`__slots__`) and retypes it to the model class, giving an ordinary frozen instance (or,
where the classes are compiled, calls the constructor, as fast there).

INVARIANT: every builder sets every field of its class (tests/unit/engine/test_objects.py
compares built instances with constructed ones and the twins' slots with the fields, so a
field added to `decision` breaks that test, not the engine).
"""

from __future__ import annotations

from typing import Final

from policylang._frozen import twin
from policylang.decision import Decision, Reason, Retention, SegmentDecision, Verdict

TWINS: Final = {cls: twin(cls) for cls in (Reason, SegmentDecision, Decision)}
_ReasonTwin: Final = TWINS[Reason]
_SegmentTwin: Final = TWINS[SegmentDecision]
_DecisionTwin: Final = TWINS[Decision]


def reason(
    rule_id: str, message: str, verdict: Verdict, location: str | None, segment: str
) -> Reason:
    """`Reason(…)` with every field given."""
    if _ReasonTwin is None:
        return Reason(
            rule_id=rule_id, message=message, verdict=verdict, location=location, segment=segment
        )
    obj = _ReasonTwin()
    obj.rule_id = rule_id
    obj.message = message
    obj.verdict = verdict
    obj.location = location
    obj.segment = segment
    obj.__class__ = Reason
    result: Reason = obj
    return result


def segment_decision(
    text: str, verdict: Verdict, read_only: bool, reasons: tuple[Reason, ...], context: str
) -> SegmentDecision:
    if _SegmentTwin is None:
        return SegmentDecision(
            text=text, verdict=verdict, read_only=read_only, reasons=reasons, context=context
        )
    obj = _SegmentTwin()
    obj.text = text
    obj.verdict = verdict
    obj.read_only = read_only
    obj.reasons = reasons
    obj.context = context
    obj.span = None
    obj.__class__ = SegmentDecision
    result: SegmentDecision = obj
    return result


def decision(
    command: str,
    verdict: Verdict,
    retention: Retention | None,
    reasons: tuple[Reason, ...],
    segments: tuple[SegmentDecision, ...],
    suggested_rule: str | None,
    locked: bool,
) -> Decision:
    """A `Decision`; `concurrency_safe` is derived from the retention, as the engine does."""
    if _DecisionTwin is None:
        return Decision(
            command=command,
            verdict=verdict,
            retention=retention,
            concurrency_safe=retention is Retention.REQUERY,
            reasons=reasons,
            segments=segments,
            suggested_rule=suggested_rule,
            locked=locked,
        )
    obj = _DecisionTwin()
    obj.command = command
    obj.verdict = verdict
    obj.retention = retention
    obj.concurrency_safe = retention is Retention.REQUERY
    obj.reasons = reasons
    obj.segments = segments
    obj.suggested_rule = suggested_rule
    obj.locked = locked
    obj.__class__ = Decision
    result: Decision = obj
    return result
