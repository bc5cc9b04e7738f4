"""The engine's fast builders make the same frozen objects as the dataclass constructors."""

from __future__ import annotations

import dataclasses

import pytest

from policylang import _native
from policylang.decision import Decision, Reason, Retention, SegmentDecision, Verdict
from policylang.engine import _objects


def test_twins_mirror_every_field() -> None:
    # (the source's builders: tests/unit/test_native.py runs this file from source too)
    for cls, twin in _objects.TWINS.items():
        if _native.COMPILED:
            assert twin is None  # a compiled class is built by its constructor
        else:
            assert twin.__slots__ == tuple(f.name for f in dataclasses.fields(cls))


def test_built_objects_equal_constructed_ones() -> None:
    reason = _objects.reason("r", "m", Verdict.ASK, "f:1:1", "ls")
    assert type(reason) is Reason
    assert reason == Reason(
        rule_id="r", message="m", verdict=Verdict.ASK, location="f:1:1", segment="ls"
    )
    assert hash(reason) == hash(
        Reason(rule_id="r", message="m", verdict=Verdict.ASK, location="f:1:1", segment="ls")
    )
    segment = _objects.segment_decision("ls", Verdict.ASK, False, (reason,), "ctx")
    assert segment == SegmentDecision(
        text="ls", verdict=Verdict.ASK, read_only=False, reasons=(reason,), context="ctx"
    )
    assert segment.span is None
    for retention in (Retention.REQUERY, Retention.DURABLE, None):
        built = _objects.decision("ls", Verdict.ASK, retention, (reason,), (segment,), "ls", True)
        assert built == Decision(
            command="ls",
            verdict=Verdict.ASK,
            retention=retention,
            concurrency_safe=retention is Retention.REQUERY,
            reasons=(reason,),
            segments=(segment,),
            suggested_rule="ls",
            locked=True,
        )
        assert built.to_dict()["concurrency_safe"] is (retention is Retention.REQUERY)


def test_built_objects_stay_frozen() -> None:
    reason = _objects.reason("r", "m", Verdict.ALLOW, None, "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        reason.message = "x"  # type: ignore[misc]
