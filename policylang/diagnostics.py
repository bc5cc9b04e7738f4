"""Diagnostics that carry their span and render themselves; imports only `span`.

A rendered diagnostic looks like::

    rulesets/default.policy:12:1: error[rules.unknown-directive]: unknown directive `protectd`
       12 | protectd ~/.ssh/**
          | ^^^^^^^^
       help: did you mean `protected`?
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from policylang.span import SourceText, Span


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic:
    """One problem found in a source text.

    `code` is stable and kebab-case (``rules.unknown-directive``); `message` is one
    lowercase line with user text in backticks and no final period; `help` is advice.
    """

    code: str
    message: str
    source: SourceText = field(compare=False, repr=False)
    span: Span = field(compare=False)
    severity: Severity = Severity.ERROR
    help: str | None = None

    @property
    def location(self) -> str:
        return self.source.location(self.span)

    @property
    def underlined(self) -> str:
        """The text the caret line points at (what tests assert on)."""
        return self.span.slice(self.source.text)

    def render(self) -> str:
        head = f"{self.location}: {self.severity}[{self.code}]: {self.message}"
        return "\n".join([head, *_excerpt(self.source, self.span), *self._help_lines()])

    def _help_lines(self) -> list[str]:
        return [f"   help: {self.help}"] if self.help else []

    def __str__(self) -> str:
        return self.render()


def _excerpt(source: SourceText, span: Span) -> list[str]:
    """The first line of the span with a caret underline (multi-line spans stop at eol)."""
    start = source.position(span.start)
    line = source.line_text(start.line)
    end_col = start.column + max(1, min(span.end - span.start, len(line) - start.column + 1))
    gutter = " " * len(str(start.line))
    carets = " " * (start.column - 1) + "^" * max(1, end_col - start.column)
    return [f"   {start.line} | {line}", f"   {gutter} | {carets}"]


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """Sort by file, then position, then code: the order users read them in."""
    return tuple(
        sorted(diagnostics, key=lambda d: (d.source.name, d.span.start, d.span.end, d.code))
    )


def render_all(diagnostics: Iterable[Diagnostic]) -> str:
    return "\n".join(d.render() for d in diagnostics)
