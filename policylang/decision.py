"""The decision type: what the engine answers and the executor obeys; a leaf module.

Fail-closed rule: `Verdict.ALLOW` is only ever produced when the engine saw every part
of the command line and a rule allowed each segment. A parse problem, an unhandled
construct, a limit, a word that is not literal where it matters, or an internal error
yields at least `Verdict.ASK` with a reason saying what could not be seen.
"""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

from policylang.span import Span


class Verdict(enum.StrEnum):
    """allow < ask < deny in strictness; combine with `strictest`."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"

    @property
    def rank(self) -> int:
        return _RANK[self]

    def at_least(self, floor: Verdict) -> Verdict:
        """This verdict raised to `floor` if it is looser."""
        # identity tests, not ranks: this runs several times per segment
        if floor is self or self is _DENY or floor is _ALLOW:
            return self
        return floor  # floor is ask or deny, and self is looser


_RANK = {Verdict.ALLOW: 0, Verdict.ASK: 1, Verdict.DENY: 2}
_ALLOW: Final = Verdict.ALLOW  # module constants: an enum member lookup costs more
_DENY: Final = Verdict.DENY


def strictest(*verdicts: Verdict) -> Verdict:
    """The strictest verdict; ALLOW for none (an empty line runs nothing)."""
    return max(verdicts, key=_RANK.__getitem__, default=Verdict.ALLOW)


class Retention(enum.StrEnum):
    """How long a result may be kept.

    REQUERY: every segment is read-only, nothing writes; the result can be recomputed.
    DURABLE: the command has effects. UNCLASSED: a read-only compound that failed
    (set by the executor; the engine never produces it).
    """

    REQUERY = "requery"
    DURABLE = "durable"
    UNCLASSED = "unclassed"


def visible(text: str) -> str:
    r"""`text` safe to show a person: every character that is not printable (terminal
    controls such as ESC, CR and backspace, bidirectional overrides, zero-width and other
    format characters, lone surrogates) is written as its escape; newlines and tabs stay.

    A command can carry `\x1b[2J…` in a quoted argument and redraw an approval prompt as
    another command (review H5): what a person approves must be what runs.

    >>> visible("ls\x1b[2J\rrm\u202e x\ty")
    'ls\\x1b[2J\\x0drm\\u202e x\ty'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\n\t" else _escape(ch) for ch in text)


def visible_line(text: str) -> str:
    """`visible(text)` on one line: a newline there could imitate a line of its own (a
    reason, a verdict) in what a person reads."""
    return visible(text).replace("\n", "\\n").replace("\t", " ")


# blanks, and characters that print as nothing or as a blank (braille blank, Hangul
# fillers, wide and narrow spaces: review AP10)
_PADDING = re.compile(
    "[ \t\u00a0\u115f\u1160\u2000-\u200a\u202f\u205f\u2800\u3000\u3164\uffa0]{8,}"
)


def shown_lines(text: str) -> list[str]:
    """`visible(text)` split into its lines, long runs of blanks marked (`[300 blanks]`):
    padding could push `; rm …` past the edge of the reader's window (review AM4)."""
    return [
        _PADDING.sub(lambda run: f" [{len(run.group())} blanks] ", line)
        for line in visible(text).split("\n")
    ]


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Reason:
    """Why a verdict was reached: a rule (with its source location) applied to a segment."""

    rule_id: str
    message: str
    verdict: Verdict
    location: str | None = None  # "file:line:col" of the rule, None for built-in checks
    segment: str = ""  # the text of the segment the rule applied to

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_id": self.rule_id,
            "message": self.message,
            "verdict": str(self.verdict),
            "location": self.location,
            "segment": self.segment,
        }

    def render(self) -> str:
        where = f" ({self.location})" if self.location else ""
        seg = f" on `{visible(self.segment)}`" if self.segment else ""
        return f"{self.verdict}: {visible(self.message)} [{self.rule_id}{where}]{seg}"


@dataclass(frozen=True, slots=True, kw_only=True)
class SegmentDecision:
    """The verdict for one simple command anywhere in the line (nested ones included)."""

    text: str
    verdict: Verdict
    read_only: bool
    reasons: tuple[Reason, ...] = ()
    context: str = ""  # e.g. "inside $() in argument 2 of segment 1"
    span: Span | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "verdict": str(self.verdict),
            "read_only": self.read_only,
            "context": self.context,
            "reasons": [r.to_dict() for r in self.reasons],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """The engine's answer for one command line."""

    command: str
    verdict: Verdict
    retention: Retention | None
    concurrency_safe: bool
    reasons: tuple[Reason, ...] = ()
    segments: tuple[SegmentDecision, ...] = ()
    suggested_rule: str | None = None
    # the ids of `locked` rules that decided; an approval can never loosen these
    locked: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "verdict": str(self.verdict),
            "retention": None if self.retention is None else str(self.retention),
            "concurrency_safe": self.concurrency_safe,
            "reasons": [r.to_dict() for r in self.reasons],
            "segments": [s.to_dict() for s in self.segments],
            "suggested_rule": self.suggested_rule,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def explain(self) -> str:
        """A readable multi-line trace of how the verdict was reached."""
        retention = self.retention or "unknown until run"
        shown = shown_lines(self.command)
        if len(shown) == 1:
            lines = [f"command: {shown[0]}"]
        else:  # numbered, so that no line of the command passes for a line of the trace
            lines = [f"command of {len(shown)} lines:"]
            lines.extend(f"  {number:>3} | {line}" for number, line in enumerate(shown, 1))
        lines.append(f"verdict: {self.verdict} (retention: {retention})")
        for index, seg in enumerate(self.segments, 1):
            ctx = f" [{visible(seg.context)}]" if seg.context else ""
            kind = "read-only" if seg.read_only else "has effects"
            text = visible_line(seg.text)
            lines.append(f"  segment {index}{ctx}: `{text}` -> {seg.verdict} ({kind})")
            lines.extend(f"      {reason.render()}" for reason in seg.reasons)
        line_level = [r for r in self.reasons if not any(r in s.reasons for s in self.segments)]
        if line_level:
            lines.append("  whole line:")
            lines.extend(f"      {reason.render()}" for reason in line_level)
        if self.suggested_rule:
            lines.append(f"suggested rule to always allow: {visible_line(self.suggested_rule)}")
        return "\n".join(lines)


class ApprovalScope(enum.StrEnum):
    ONCE = "once"
    SESSION = "session"
    ALWAYS = "always"


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalRecord:
    """Proof that a human approved this exact command (produced by the approval flow).

    The executor runs a non-allow decision only with a record whose `command` is the
    exact command text being run.
    """

    command: str
    scope: ApprovalScope
    approver: str = "user"
    suggested_rule: str | None = None
