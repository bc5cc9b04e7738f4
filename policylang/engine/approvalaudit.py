"""Engine stage: stored approvals judged against the offers the policy makes today.

An approval is stored once and honoured until the user removes it. The offers it came
from are narrowed from time to time (reviews GH4 and GL1: `task` is offered `task $`,
`docker compose config` is no longer offered at all), and an approval stored before that
still covers what the narrowed offer would not. The engine does not drop or rewrite such
an approval: the user granted it, and silently losing it is no better than silently
keeping it. `audit` says which ones are wider, so `policylang check --approvals FILE`
can show them.

Each approval is judged by lines it covers (review GY1): its own words and, for a prefix
approval, its words followed by an operand, or by an option its rules name and an operand
(review BJ2), in an empty workspace and home made for the audit, with no environment and
without approvals. It passes when one of those lines is offered a rule at least as wide
as it: the engine makes that offer today. Its own words being allowed is not enough,
since a prefix approval widens the lines after them.
"""

from __future__ import annotations

import dataclasses
import enum
import errno
import os
import re
import shlex
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from policylang.compiler.tree import ConditionKind
from policylang.decision import Decision, Verdict
from policylang.engine.approvals import ApprovalError, is_exact, rule_words
from policylang.engine.context import EvalContext
from policylang.engine.rules import listing_options
from policylang.shell.model import Word
from policylang.span import Span

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
    # wider: the probe line `offer` was made for (None: the approval's own words);
    # not offered: the lines tried and what each got
    line: str | None = None

    def message(self) -> str:
        return self._message().replace(f"`{self.rule}`", f"`{_visible(self.rule)}`", 1)

    def _message(self) -> str:
        if self.finding is Finding.WIDER:
            offer = f"today's offer `{self.offer}`"
            if self.line is not None:
                offer += f" (for `{self.line}`)"
            return f"approval `{self.rule}` covers more than {offer}"
        if self.finding is Finding.NOT_OFFERED:
            return f"approval `{self.rule}` is offered for none of {self.line}"
        if self.finding is Finding.DENIED:
            return f"approval `{self.rule}`: the policy denies these words ({self.detail})"
        return f"approval `{self.rule}` cannot be read: {self.detail}"


def audit(policy: Policy, rules: Iterable[object]) -> Iterator[ApprovalAudit]:
    """The approvals among `rules` that today's offers would not have made."""
    for rule in rules:
        found = judge(policy, rule)
        if found is not None:
            yield found


PROBE_OPERAND = "x"  # the word a prefix approval's probe line ends in (review GY1)
# an operand no verb is spelled as: a program no table knows is offered its verb with it
# (`declare x` is offered `declare x`), its bare name before any other word (`readonly
# existing_variable` is offered `readonly`): review BJ2
PLAIN_OPERAND = "X_"
_MAX_OPTION_PROBES = 32  # (a program's rules name few options; this bounds the time)


def judge(policy: Policy, rule: object) -> ApprovalAudit | None:
    """What is wrong with one stored approval today, or None when nothing is.

    An approval passes when the engine offers a rule at least as wide as it for a line it
    covers: its own words, or (a prefix approval) its words followed by an operand, or by
    one of the options the policy's rules for those words name (or the listing options of
    an extractor) and an operand: `crontab` is offered for `crontab -l`, `declare` for
    `declare -p x`, `unsquashfs` for `unsquashfs -l x` (review BJ2). The own words being
    allowed proves nothing: a prefix approval's width is in the lines after its words (`git
    remote -v` let `git remote -v set-url …` through, review GY1). The lines are judged
    without approvals, in an empty workspace and home that exist (in a workspace that
    does not, every compiling go line asked with no offer: go's cgo check cannot look
    through it, review BJ2); offers that depend on a workspace's files are not probed, so
    `not-offered` says which lines were tried (review GY2)."""
    if not isinstance(rule, str):  # the engine skips it (review GY3)
        text = _spelled(rule)
        detail = f"an approval rule is a string such as 'npm run build', not {text}"
        return ApprovalAudit(text, Finding.UNREADABLE, None, detail)
    try:
        words = rule_words(rule)
    except ApprovalError as error:
        return ApprovalAudit(rule, Finding.UNREADABLE, None, str(error))
    with tempfile.TemporaryDirectory(prefix="policylang-audit-") as folder:
        workspace = os.path.join(folder, "workspace")
        home = os.path.join(folder, "home")
        os.mkdir(workspace)
        os.mkdir(home)
        ctx = EvalContext.build(workspace=workspace, env={"HOME": home})
        found = _judged(policy, rule, words, ctx)
    if found is None:
        return None
    # the folders are made up: a path in them (`python3 x` is offered `python3
    # <workspace>/x`) is shown by their role
    places = ((ctx.real_workspace or workspace, "<workspace>"), (workspace, "<workspace>"),
              (ctx.real_home or home, "<home>"), (home, "<home>"))  # fmt: skip
    return dataclasses.replace(
        found,
        offer=_placed(found.offer, places),
        detail=_placed(found.detail, places) or "",
        line=_placed(found.line, places),
    )


def _placed(text: str | None, places: tuple[tuple[str, str], ...]) -> str | None:
    for path, name in places:
        text = text.replace(path, name) if text is not None else None
    return text


def _judged(
    policy: Policy, rule: str, words: tuple[str, ...], ctx: EvalContext
) -> ApprovalAudit | None:
    """`judge` of a readable rule, its lines judged in `ctx`."""

    def run(line: tuple[str, ...]) -> Decision:
        return policy.evaluate_in(shlex.join(line), ctx, approvals=False)

    exact = is_exact(words)
    literal = words[:-1] if exact else words
    lines = [literal] if exact else [literal, (*literal, PROBE_OPERAND)]
    decisions = [run(line) for line in lines]
    own = decisions[0]
    if own.verdict is Verdict.ALLOW and exact:
        return None  # an exact rule on an allowed line widens nothing
    offers = [
        (shlex.join(line), decision.suggested_rule)
        for line, decision in zip(lines, decisions, strict=True)
        if decision.verdict is Verdict.ASK and decision.suggested_rule is not None
    ]
    if any(within(words, rule_words(offer)) for _, offer in offers):
        return None
    more = [] if exact else _more_lines(policy, literal)
    if any(_covers(run(line), words) for line in more):
        return None  # offered for a longer line it covers: the engine makes this offer
    if own.verdict is Verdict.DENY:
        return ApprovalAudit(rule, Finding.DENIED, None, _reason(own))
    if offers:
        line, offer = offers[0]
        probe = None if line == shlex.join(literal) else line
        return ApprovalAudit(rule, Finding.WIDER, offer, _reason(own), probe)
    tried = ", ".join(
        f"`{shlex.join(line)}` ({_outcome(decision)})"
        for line, decision in zip(lines, decisions, strict=True)
    )
    if more:
        count = len(more)
        tried += f", nor {count} more (another operand, or an option its rules name)"
    return ApprovalAudit(rule, Finding.NOT_OFFERED, None, _reason(own), tried)


def _more_lines(policy: Policy, literal: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The further lines a prefix approval's words are probed with: an operand that is
    no verb, and each option the policy's rules for them name in a clause (`ask crontab **
    unless -l`: `crontab -l x`) or an extractor lists with (`unsquashfs -l x`), before an
    operand."""
    probe = [Word(text=v, value=v, span=Span(0, 0)) for v in (*literal, PROBE_OPERAND)]
    options: set[str] = set(listing_options(literal[0]))
    for candidate in policy.compiled.tree.candidates(probe):
        for condition in candidate.conditions:
            if condition.kind in _OPTION_CLAUSES:
                options.update(item for item in condition.items if _OPTION.fullmatch(item))
    found = [(*literal, PLAIN_OPERAND)]
    found.extend((*literal, option, PROBE_OPERAND) for option in sorted(options))
    return found[: 1 + _MAX_OPTION_PROBES]


_OPTION_CLAUSES: Final = frozenset({ConditionKind.WHEN, ConditionKind.UNLESS, ConditionKind.ONLY})
_OPTION: Final = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9-]*")  # (not a `--config.*` start)


def _covers(decision: Decision, words: tuple[str, ...]) -> bool:
    """Whether `decision` offers a rule at least as wide as the approval `words`."""
    offer = decision.suggested_rule
    return (
        decision.verdict is Verdict.ASK and offer is not None and within(words, rule_words(offer))
    )


def _outcome(decision: Decision) -> str:
    if decision.verdict is Verdict.ALLOW:
        return "allowed without it"
    return _reason(decision)


def _reason(decision: Decision) -> str:
    return decision.reasons[0].message if decision.reasons else "no reason given"


def _spelled(value: object) -> str:
    """A non-string entry as the file could spell it, for the message."""
    unwrap = getattr(value, "unwrap", None)
    return repr(unwrap() if callable(unwrap) else value)


def _visible(text: str) -> str:
    """`text` with control characters escaped, so a message shows what the file holds."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def within(approval: tuple[str, ...], offer: tuple[str, ...]) -> bool:
    """Whether every line `approval` covers is covered by `offer` too.

    An exact offer (`task $`) covers only itself; a prefix offer (`npm run build`) covers
    an approval that starts with its words, exact or not (`npm run build --prod`)."""
    if is_exact(offer):
        return approval == offer
    literal = approval[:-1] if is_exact(approval) else approval
    return literal[: len(offer)] == offer


@dataclass(frozen=True)
class StoredApprovals:
    """An approvals file as `policylang check` judges it: every entry of `allow` as the
    file holds it (strings or not), where it is spelled, and why none can be read."""

    text: str  # the file's text without its byte-order mark ("" when it is not UTF-8)
    entries: tuple[tuple[object, int, int], ...]  # (value, start, end) in `text`
    problem: str | None = None  # why the engine reads no approval of this file at all
    problem_at: int = 0


def read_stored(path: Path) -> StoredApprovals:
    """Read an approvals file the way the engine does (bounded, never blocking, regular
    files only: review GY5); OSError when it cannot be read at all. A file the engine
    drops whole (not UTF-8, not TOML, a duplicate key, `allow` not a list) is a
    `problem`, which the engine only logs (review GY3)."""
    import tomlkit

    from policylang.engine.approvals import read_text

    try:
        text = read_text(path)
    except OSError as error:
        if error.errno == errno.EILSEQ:  # not UTF-8: the engine drops the whole file
            return StoredApprovals("", (), "the file is not UTF-8")
        raise
    try:
        document = tomlkit.parse(text)
    except tomlkit.exceptions.TOMLKitError as error:
        return StoredApprovals(text, (), f"not TOML: {error}", _offset(text, error))
    allow = document.get("allow", [])
    if not isinstance(allow, list):
        return StoredApprovals(text, (), "`allow` is not a list")
    values = [item.unwrap() if hasattr(item, "unwrap") else item for item in allow]
    spans = _entry_spans(text)
    if spans is None or len(spans) != len(values):
        spans = [(0, 0)] * len(values)  # not found: the file's start
    return StoredApprovals(
        text, tuple((value, *span) for value, span in zip(values, spans, strict=True))
    )


def _offset(text: str, error: Exception) -> int:
    """Where tomlkit's ParseError points (1-based line, 0-based column), else 0."""
    line, column = getattr(error, "line", 0), getattr(error, "col", 0)
    if not isinstance(line, int) or not isinstance(column, int) or line < 1:
        return 0
    starts = [0, *(i + 1 for i, ch in enumerate(text) if ch == "\n")]
    return min(starts[min(line, len(starts)) - 1] + column, len(text))


_PUNCTUATION = "[]{}=,"


def _tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """TOML's tokens with their offsets: strings, punctuation, newlines and bare words
    (keys, numbers, dates); comments and blanks are skipped. The file has already parsed,
    so this needs no error handling of its own."""
    at, size = 0, len(text)
    while at < size:
        char = text[at]
        if char in " \t\r":
            at += 1
        elif char == "#":
            end = text.find("\n", at)
            at = size if end < 0 else end
        elif char == "\n" or char in _PUNCTUATION:
            yield char, at, at + 1
            at += 1
        elif char in "\"'":
            end = _string_end(text, at)
            yield "string", at, end
            at = end
        else:
            end = at
            while end < size and text[end] not in " \t\r\n#\"'" + _PUNCTUATION:
                end += 1
            yield "word", at, end
            at = end


def _string_end(text: str, at: int) -> int:
    """The offset after the TOML string (basic, literal, or multi-line) starting at `at`."""
    quote = text[at]
    delimiter = quote * 3 if text.startswith(quote * 3, at) else quote
    at += len(delimiter)
    while at < len(text):
        if quote == '"' and text[at] == "\\":
            at += 2
        elif text.startswith(delimiter, at):
            end = at + len(delimiter)
            while delimiter != quote and end < len(text) and text[end] == quote:
                end += 1  # up to two quotes may end a multi-line string's content
            return end
        else:
            at += 1
    return len(text)


def _entry_spans(text: str) -> list[tuple[int, int]] | None:
    """Where each entry of the top-level `allow` array is spelled, read by tokens, not by
    searching for the rule's text, which had found a comment (review GY4)."""
    tokens = list(_tokens(text))
    index, statement_start = 0, True
    while index < len(tokens):
        kind = tokens[index][0]
        if kind == "\n":
            statement_start = True
        elif statement_start and kind == "[":
            return None  # a table header: `allow` is no longer at the top level
        elif statement_start and _is_allow_key(text, tokens, index):
            return _array_spans(tokens, index + 3)
        elif statement_start:
            statement_start = False
            index = _value_end(tokens, index)
            continue
        index += 1
    return None


def _is_allow_key(text: str, tokens: list[tuple[str, int, int]], index: int) -> bool:
    if index + 2 >= len(tokens):
        return False
    _, start, end = tokens[index]
    return (
        text[start:end] in ("allow", '"allow"', "'allow'")
        and tokens[index + 1][0] == "="
        and tokens[index + 2][0] == "["
    )


def _value_end(tokens: list[tuple[str, int, int]], index: int) -> int:
    """The index of the newline that ends the key/value statement starting at `index`."""
    depth = 0
    while index < len(tokens):
        kind = tokens[index][0]
        if kind in ("[", "{"):
            depth += 1
        elif kind in ("]", "}"):
            depth -= 1
        elif kind == "\n" and depth <= 0:
            return index
        index += 1
    return index


def _array_spans(tokens: list[tuple[str, int, int]], index: int) -> list[tuple[int, int]]:
    """The spans of the elements of the array whose `[` is just before `index`."""
    spans: list[tuple[int, int]] = []
    depth, current = 0, None
    for kind, start, end in tokens[index:]:
        if kind == "\n":
            continue
        if depth == 0 and kind in (",", "]"):
            if current is not None:
                spans.append(current)
            current = None
            if kind == "]":
                return spans
            continue
        current = (start, end) if current is None else (current[0], end)
        if kind in ("[", "{"):
            depth += 1
        elif kind in ("]", "}"):
            depth -= 1
    return spans
