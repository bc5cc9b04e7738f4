"""The hot-path builders make exactly the instances the dataclass constructors make."""

from __future__ import annotations

import dataclasses

import pytest

from policylang import _native
from policylang.shell import _build
from policylang.shell.model import (
    CommandLine,
    Connector,
    Scope,
    Segment,
    SegmentKind,
    Word,
)
from policylang.span import Span


@pytest.mark.parametrize("cls", sorted(_build.TWINS, key=lambda c: c.__name__))
def test_twins_mirror_every_field(cls: type) -> None:
    # (the source's builders: tests/unit/test_native.py runs this file from source too)
    names = tuple(f.name for f in dataclasses.fields(cls))
    if _native.COMPILED:
        assert _build.TWINS[cls] is None  # a compiled class is built by its constructor
    else:
        assert _build.TWINS[cls].__slots__ == names


def test_span() -> None:
    built = _build.span(3, 7)
    assert type(built) is Span
    assert built == Span(3, 7)
    assert hash(built) == hash(Span(3, 7))
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.start = 1  # type: ignore[misc]


def test_word() -> None:
    at = Span(0, 2)
    built = _build.word("rm", "rm", (), at)
    assert type(built) is Word
    assert built == Word(text="rm", value="rm", span=at)
    assert repr(built) == repr(Word(text="rm", value="rm", span=at))


def test_segment_and_connector() -> None:
    at = Span(0, 2)
    word = Word(text="ls", value="ls", span=at)
    built = _build.segment(
        SegmentKind.SIMPLE, (word,), (), (), (Scope.GROUP,), 1, None, "ls", (), None, at
    )
    expected = Segment(
        kind=SegmentKind.SIMPLE, words=(word,), scopes=(Scope.GROUP,), group=1, text="ls", span=at
    )
    assert built == expected
    _build.set_connector(built, Connector.AND)
    assert built.connector is Connector.AND
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.connector = Connector.OR  # type: ignore[misc]


def test_command_line() -> None:
    built = _build.command_line("ls", (), (), "ctx", 2, True, None)
    assert built == CommandLine(text="ls", segments=(), context="ctx", depth=2, reparsed=True)
    assert type(built) is CommandLine
