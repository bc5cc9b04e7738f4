"""Spans and source texts: the leaf of the package; imports nothing from policylang.

A `Span` is a half-open range of *character* offsets (not bytes) into a `SourceText`.
Spans are excluded from equality wherever they are embedded, so structural comparisons
(golden tests, round trips) ignore positions.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    """Half-open character range ``[start, end)``."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"invalid span {self.start}..{self.end}")

    def slice(self, text: str) -> str:
        return text[self.start : self.end]

    def cover(self, other: Span) -> Span:
        """The smallest span containing both."""
        return Span(min(self.start, other.start), max(self.end, other.end))


@dataclass(frozen=True, slots=True)
class Position:
    """A 1-based line and column (columns count characters)."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class SourceText:
    """A named text (a file or a command line) with a line index for positions."""

    name: str
    text: str
    _line_starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        starts = [0]
        starts.extend(i + 1 for i, ch in enumerate(self.text) if ch == "\n")
        object.__setattr__(self, "_line_starts", tuple(starts))

    def position(self, offset: int) -> Position:
        """Line and column of a character offset (clamped into the text)."""
        offset = max(0, min(offset, len(self.text)))
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return Position(index + 1, offset - self._line_starts[index] + 1)

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its newline."""
        start = self._line_starts[line - 1]
        end = self._line_starts[line] - 1 if line < len(self._line_starts) else len(self.text)
        return self.text[start:end]

    def location(self, span: Span) -> str:
        """``name:line:col`` of the span's start."""
        pos = self.position(span.start)
        return f"{self.name}:{pos.line}:{pos.column}"
