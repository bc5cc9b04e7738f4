"""Fast construction of the model's frozen dataclasses on the analyser's hot path.

A frozen dataclass `__init__` sets each field through `object.__setattr__`: for a `Word`
that costs about as much as tree-sitter's whole parse of a short command. `shell.parse`
builds many spans, words and segments per command, so it uses these builders instead.

Each builder fills a *twin*: a plain class with exactly the same `__slots__` as the model
class, whose attributes are set by ordinary stores, and then retypes it to the model class
(`__class__` assignment, which CPython allows between classes of identical slot layout).
The result is an ordinary, frozen instance of the model class. Where the model is
compiled (`policylang._native`) there is no twin, and each builder calls the constructor,
which is then as fast.

INVARIANT: every builder sets every field of its class (tests/unit/shell/test_build.py
checks the twins' slots against the dataclass fields and compares built instances with
constructed ones, so a field added to the model breaks that test, not the analyser).
`set_connector` mutates a segment only before `parse_command` returns the line holding it.
"""

from __future__ import annotations

from typing import Final

from policylang._frozen import twin
from policylang.shell.model import (
    Assignment,
    CommandLine,
    Connector,
    Expansion,
    Problem,
    Redirect,
    Scope,
    Segment,
    SegmentKind,
    Unwrapped,
    Word,
)
from policylang.span import Span

TWINS: Final = {cls: twin(cls) for cls in (Span, Word, Segment, CommandLine)}
_SpanTwin: Final = TWINS[Span]
_WordTwin: Final = TWINS[Word]
_SegmentTwin: Final = TWINS[Segment]
_LineTwin: Final = TWINS[CommandLine]


def span(start: int, end: int) -> Span:
    """`Span(start, end)` for offsets known to be valid (0 <= start <= end)."""
    if _SpanTwin is None:
        return Span(start, end)
    obj = _SpanTwin()
    obj.start = start
    obj.end = end
    obj.__class__ = Span
    result: Span = obj
    return result


def word(text: str, value: str | None, expansions: tuple[Expansion, ...], at: Span) -> Word:
    """`Word(text=…, value=…, expansions=…, span=at)`."""
    if _WordTwin is None:
        return Word(text=text, value=value, expansions=expansions, span=at)
    obj = _WordTwin()
    obj.text = text
    obj.value = value
    obj.expansions = expansions
    obj.span = at
    obj.__class__ = Word
    result: Word = obj
    return result


def command_line(
    text: str,
    segments: tuple[Segment, ...],
    problems: tuple[Problem, ...],
    context: str,
    depth: int,
    reparsed: bool,
    anchor: Span | None,
) -> CommandLine:
    """`CommandLine(…)` with every field given."""
    if _LineTwin is None:
        return CommandLine(
            text=text,
            segments=segments,
            problems=problems,
            context=context,
            depth=depth,
            reparsed=reparsed,
            anchor=anchor,
        )
    obj = _LineTwin()
    obj.text = text
    obj.segments = segments
    obj.problems = problems
    obj.context = context
    obj.depth = depth
    obj.reparsed = reparsed
    obj.anchor = anchor
    obj.__class__ = CommandLine
    result: CommandLine = obj
    return result


def segment(
    kind: SegmentKind,
    words: tuple[Word, ...],
    assignments: tuple[Assignment, ...],
    redirects: tuple[Redirect, ...],
    scopes: tuple[Scope, ...],
    group: int,
    name: str | None,
    text: str,
    declared: tuple[Assignment, ...],
    wrapped: Unwrapped | None,
    at: Span,
) -> Segment:
    """A segment with connector END (see `set_connector`)."""
    if _SegmentTwin is None:
        return Segment(
            kind=kind,
            words=words,
            assignments=assignments,
            redirects=redirects,
            scopes=scopes,
            group=group,
            name=name,
            text=text,
            declared=declared,
            wrapped=wrapped,
            span=at,
        )
    obj = _SegmentTwin()
    obj.kind = kind
    obj.words = words
    obj.assignments = assignments
    obj.redirects = redirects
    obj.connector = Connector.END
    obj.scopes = scopes
    obj.group = group
    obj.name = name
    obj.text = text
    obj.declared = declared
    obj.wrapped = wrapped
    obj.span = at
    obj.__class__ = Segment
    result: Segment = obj
    return result


_SET_CONNECTOR: Final = vars(Segment)["connector"].__set__


def set_connector(obj: Segment, connector: Connector) -> None:
    """Set what follows a segment, before the line holding it is returned."""
    _SET_CONNECTOR(obj, connector)
