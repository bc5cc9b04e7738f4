"""The dataclasses whose `__init__` is written out (see `policylang._frozen`) take and set
exactly the fields `dataclass` would have generated an `__init__` for.

A written-out `__init__` is what makes these classes cheap to build in the compiled
engine; the risk is that a field added later is missing from it (left unset, or without
its default). The signature test reads the source's `__init__`s; the round-trip test
rebuilds real instances (from parsing and deciding real lines) from their fields, in
whichever build the suite runs.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from policylang import _native, load_policy
from policylang._frozen import written_init
from policylang.decision import Decision, Reason, SegmentDecision, Verdict
from policylang.engine.checks import SegmentState
from policylang.engine.paths import Cwd
from policylang.engine.rules import SegmentRules
from policylang.shell.model import (
    CommandLine,
    Expansion,
    Problem,
    Redirect,
    Segment,
    Unwrapped,
    Word,
    WrapperUse,
)
from policylang.shell.options import Option, OptionView
from policylang.span import Span

WRITTEN: tuple[type, ...] = (
    Span,
    Expansion,
    Word,
    Redirect,
    Segment,
    WrapperUse,
    Unwrapped,
    Problem,
    CommandLine,
    Option,
    OptionView,
    Reason,
    SegmentDecision,
    Decision,
    SegmentRules,
    SegmentState,
    Cwd,
)


@pytest.mark.source
@pytest.mark.parametrize("cls", WRITTEN, ids=lambda c: c.__name__)
def test_written_init_takes_every_field_as_dataclass_would(cls: type) -> None:
    assert written_init(cls), f"{cls.__name__} has no written-out __init__"
    parameters = list(inspect.signature(vars(cls)["__init__"]).parameters.values())[1:]
    fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [p.name for p in parameters] == [f.name for f in fields]
    for parameter, field in zip(parameters, fields, strict=True):
        kind = (
            inspect.Parameter.KEYWORD_ONLY
            if field.kw_only
            else inspect.Parameter.POSITIONAL_OR_KEYWORD
        )
        assert parameter.kind is kind, field.name
        if field.default is not dataclasses.MISSING:
            assert parameter.default == field.default, field.name
        elif field.default_factory is not dataclasses.MISSING:
            assert parameter.default is None, field.name  # (then a fresh factory value)
        else:
            assert parameter.default is inspect.Parameter.empty, field.name


@pytest.mark.source
def test_every_written_init_is_listed() -> None:
    # a class of the compiled modules given its own `__init__` belongs in WRITTEN, so
    # that the test above covers it
    written = set()
    for name in _native.MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and value.__module__ == name
                and dataclasses.is_dataclass(value)
                and written_init(value)
            ):
                written.add(value)
    assert written == set(WRITTEN)


def _same_fields(a: Any, b: Any) -> bool:
    """Equal field by field, those left out of `==` (spans) included."""
    fields = dataclasses.fields(type(b))
    return type(a) is type(b) and all(getattr(a, f.name) == getattr(b, f.name) for f in fields)


def test_a_segment_state_pickles_and_copies() -> None:
    state = SegmentState("ls", "ctx", approved=2)
    state.floor(Verdict.ASK, "rule", "why")
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert _same_fields(copied, state)
        assert copied.reasons is not state.reasons


def test_a_factory_default_is_fresh_for_each_instance() -> None:
    first, second = SegmentState("a", ""), SegmentState("b", "")
    assert first.reasons == []
    assert first.floored_reasons == set()
    assert first.reasons is not second.reasons
    assert first.floored_reasons is not second.floored_reasons


def test_span_still_checks_its_bounds() -> None:
    with pytest.raises(ValueError, match=r"invalid span 3\.\.1"):
        Span(3, 1)


def test_frozen_classes_stay_frozen() -> None:
    word = Word(text="ls", value="ls", span=Span(0, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        word.text = "rm"  # type: ignore[misc]


LINES = (
    "git status && ls -la src | grep -v x > /dev/null 2>&1",
    'cat <<EOF | sh\necho "$(id)" `whoami`\nEOF',
    "sudo env A=1 timeout 5 bash -c 'rm -rf ~/x; echo ${HOME:-y}'",
    'for f in *.py; do wc -l "$f"; done; (cd /tmp && tar -xf a.tar)',
    "echo 'unclosed",
)


def _instances(value: Any, seen: set[int]) -> Iterator[Any]:
    """Every dataclass instance reachable from `value`."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for field in dataclasses.fields(value):
            yield from _instances(getattr(value, field.name), seen)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from _instances(item, seen)


def test_real_instances_rebuild_from_their_fields() -> None:
    policy = load_policy()
    found: dict[type, int] = {}
    for line in LINES:
        roots: list[Any] = [policy._view.parse(line), policy.evaluate(line)]
        view = policy._view
        for segment in roots[0].segments:
            if segment.words and segment.words[0].value is not None:
                roots.append(view.segment_rules(segment))
        for instance in _instances(roots, set()):
            cls = type(instance)
            # pickle and copy build them by their constructor (`_frozen.picklable`): a
            # compiled class makes no blank instance to fill, in either build alike
            copies = [pickle.loads(pickle.dumps(instance)), copy.deepcopy(instance)]
            assert all(_same_fields(c, instance) for c in [*copies, copy.copy(instance)])
            if cls not in WRITTEN:
                continue
            given = {f.name: getattr(instance, f.name) for f in dataclasses.fields(cls)}
            rebuilt = cls(**given)
            assert all(getattr(rebuilt, name) == value for name, value in given.items())
            assert dataclasses.replace(instance) == instance
            found[cls] = found.get(cls, 0) + 1
    assert set(found) >= {Span, Word, Segment, CommandLine, Decision, Reason, SegmentRules}
