"""Fast construction of the model's frozen dataclasses on the analyser's hot path.

A frozen dataclass `__init__` sets each field through `object.__setattr__`: for a `Word`
that costs about as much as tree-sitter's whole parse of a short command. `shell.parse`
builds many spans, words and segments per command, so it uses these builders instead.

Each builder fills a *twin*: a plain class with exactly the same `__slots__` as the model
class, whose attributes are set by ordinary stores, and then retypes it to the model class
(`__class__` assignment, which CPython allows between classes of identical slot layout).
The result is an ordinary, frozen instance of the model class.

INVARIANT: every builder sets every field of its class (tests/unit/shell/test_build.py
checks the twins' slots against the dataclass fields and compares built instances with
constructed ones, so a field added to the model breaks that test, not the analyser).
`set_connector` mutates a segment only before `parse_command` returns the line holding it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from policylang._frozen import builder, twin
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


#: `Span(start, end)` for offsets known to be valid (0 <= start <= end)
span: Final[Callable[[int, int], Span]] = builder(Span, _SpanTwin)
#: `Word(text=…, value=…, expansions=…, span=…)`, positionally
word: Final[Callable[[str, str | None, tuple[Expansion, ...], Span], Word]] = builder(
    Word, _WordTwin
)
#: `CommandLine(…)`: text, segments, problems, context, depth, reparsed, anchor
command_line: Final[
    Callable[
        [str, tuple[Segment, ...], tuple[Problem, ...], str, int, bool, Span | None],
        CommandLine,
    ]
] = builder(CommandLine, _LineTwin)


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


_SET_CONNECTOR: Final = Segment.__dict__["connector"].__set__


def set_connector(obj: Segment, connector: Connector) -> None:
    """Set what follows a segment, before the line holding it is returned."""
    _SET_CONNECTOR(obj, connector)
