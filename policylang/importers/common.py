"""Importers stage: the shared model of an imported rule set; imports only `decision`.

Every importer reads a peer's format into `ImportedRule`s (a verdict, a word pattern, the
origin it came from), then `reconcile` adapts the peer's precedence to ours and
`render_policy` writes a `.policy` file. The direction of every approximation is fixed:
an allow may only be narrowed or dropped, an ask or deny may only be broadened, and each
such change is reported as an `ImportWarning` (and as a comment in the output).

Our precedence (docs/language.md): a deny always wins; otherwise the most specific rule
decides, ties go to the stricter verdict. The peers differ (Claude Code and Codex: the
strictest matching rule wins; OpenCode: the last matching rule wins; Gemini CLI: the
highest priority wins), so `reconcile` looks at every pair of rules that can match the
same command and either proves the meaning is kept, drops a rule the peer never applies,
or changes the output toward stricter with a warning.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from policylang.decision import Verdict


class ImportFormatError(ValueError):
    """The file is not in the format named (not JSON or TOML, or the wrong shape)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Origin:
    """Where a rule came from: file, line (when known) and the text as written there."""

    file: str
    text: str
    line: int | None = None

    def cite(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.text}"


@dataclass(frozen=True, slots=True)
class Word:
    """One pattern word: a set of literal alternatives, or any one word (`alternatives` empty)."""

    alternatives: tuple[str, ...] = ()

    @property
    def is_any(self) -> bool:
        return not self.alternatives

    def matches(self, word: str) -> bool:
        return self.is_any or word in self.alternatives

    def within(self, other: Word) -> bool:
        """Every word this matches, `other` matches too."""
        if other.is_any:
            return True
        return not self.is_any and set(self.alternatives) <= set(other.alternatives)

    def meets(self, other: Word) -> bool:
        """Some word matches both."""
        return self.is_any or other.is_any or bool(set(self.alternatives) & set(other.alternatives))


ANY = Word()


def literal(*words: str) -> tuple[Word, ...]:
    return tuple(Word((w,)) for w in words)


@dataclass(frozen=True, slots=True)
class Pattern:
    """Words matched one for one; `rest` lets any number of further words follow (`**`)."""

    words: tuple[Word, ...]
    rest: bool = False

    def matches(self, words: Sequence[str]) -> bool:
        if len(words) < len(self.words) or (not self.rest and len(words) != len(self.words)):
            return False
        return all(p.matches(w) for p, w in zip(self.words, words, strict=False))

    def within(self, other: Pattern) -> bool:
        """Every command this matches, `other` matches too."""
        if other.rest:
            if len(self.words) < len(other.words):
                return False
        elif self.rest or len(self.words) != len(other.words):
            return False
        return all(a.within(b) for a, b in zip(self.words, other.words, strict=False))

    def meets(self, other: Pattern) -> bool:
        """Some command matches both."""
        short, long = sorted((self, other), key=lambda p: len(p.words))
        if len(short.words) != len(long.words) and not short.rest:
            return False
        return all(a.meets(b) for a, b in zip(short.words, long.words, strict=False))

    def specificity(self) -> tuple[int, int, int, int]:
        """Our specificity (docs/language.md, Precedence), without clauses."""
        leading = 0
        for word in self.words:
            if word.is_any:
                break
            leading += 1
        literals = sum(1 for w in self.words if not w.is_any)
        return (leading, literals, len(self.words), 0 if self.rest else 1)

    @property
    def is_catch_all(self) -> bool:
        return not self.words and self.rest


CATCH_ALL = Pattern((), rest=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Expectation:
    """An example the peer checks; becomes an `expect` line."""

    command: str
    verdict: Verdict
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportedRule:
    verdict: Verdict
    pattern: Pattern
    origin: Origin
    reason: str | None = None
    # The peer's own ordering key where it has one (OpenCode position, Gemini priority).
    rank: float = 0.0
    notes: tuple[str, ...] = ()
    # The pattern covers more than the peer's rule did (an ask or deny made broader).
    broadened: bool = False


class Severity(enum.StrEnum):
    """How far a warning's rule strays from the original.

    NOTE: the meaning is kept (a rule the peer never applies was dropped, say).
    STRICTER: the output asks or denies where the peer would not have.
    UNCONVERTED: a rule could not be expressed; review it by hand.
    """

    NOTE = "note"
    STRICTER = "stricter"
    UNCONVERTED = "unconverted"


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportWarning:
    severity: Severity
    message: str
    origin: Origin | None = None

    def render(self) -> str:
        where = f"{self.origin.cite()}: " if self.origin else ""
        return f"{self.severity}: {where}{self.message}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportResult:
    source_format: str
    source_file: str
    rules: tuple[ImportedRule, ...]
    default: Verdict = Verdict.ASK
    default_origin: Origin | None = None
    warnings: tuple[ImportWarning, ...] = ()
    expectations: tuple[Expectation, ...] = ()
    dropped: tuple[ImportedRule, ...] = field(default=())

    @property
    def faithful(self) -> bool:
        return all(w.severity is Severity.NOTE for w in self.warnings)


# --- reconciling precedence ------------------------------------------------------------

# Given two rules that can match the same command, the one the peer applies there (or None
# when the peer's choice cannot be told, which is treated as "either").
PeerWinner = Callable[[ImportedRule, ImportedRule], ImportedRule | None]


def strictest_wins(a: ImportedRule, b: ImportedRule) -> ImportedRule | None:
    """Claude Code and Codex: the strictest matching rule wins, whatever the order."""
    if a.verdict is b.verdict:
        return a
    return a if a.verdict.rank > b.verdict.rank else b


def our_winner(a: ImportedRule, b: ImportedRule) -> ImportedRule:
    """Which of two rules matching the same command policylang applies (no clauses).

    A catch-all becomes the policy's `default`, which applies only when no rule matches.
    """
    if a.pattern.is_catch_all != b.pattern.is_catch_all:
        return b if a.pattern.is_catch_all else a
    if Verdict.DENY in (a.verdict, b.verdict) and a.verdict is not b.verdict:
        return a if a.verdict is Verdict.DENY else b
    key_a = (a.pattern.specificity(), a.verdict.rank)
    key_b = (b.pattern.specificity(), b.verdict.rank)
    return a if key_a >= key_b else b


def reconcile(
    rules: Sequence[ImportedRule], peer_winner: PeerWinner, peer: str
) -> tuple[tuple[ImportedRule, ...], tuple[ImportedRule, ...], tuple[ImportWarning, ...]]:
    """Adapt the peer's precedence to ours.

    Returns:
        (kept rules, dropped rules, warnings). A rule the peer never applies (it only
        matches commands another rule wins) is dropped with a note. Where ours would
        pick a looser rule than the peer, the looser rule is dropped (stricter); where
        ours would pick a stricter one, a warning says so.
    """
    dropped: dict[int, tuple[Severity, str]] = {}
    stricter: list[ImportWarning] = []
    for i, a in enumerate(rules):
        for j in range(i + 1, len(rules)):
            b = rules[j]
            if i in dropped or j in dropped:
                continue
            if a.verdict is b.verdict or not a.pattern.meets(b.pattern):
                continue
            _compare(rules, i, j, peer_winner, peer, dropped, stricter)
    kept = tuple(r for k, r in enumerate(rules) if k not in dropped)
    gone = tuple(r for k, r in enumerate(rules) if k in dropped)
    notes = [
        ImportWarning(severity=severity, message=why, origin=rules[k].origin)
        for k, (severity, why) in sorted(dropped.items())
    ]
    return kept, gone, (*notes, *stricter)


def _compare(
    rules: Sequence[ImportedRule],
    i: int,
    j: int,
    peer_winner: PeerWinner,
    peer: str,
    dropped: dict[int, tuple[Severity, str]],
    stricter: list[ImportWarning],
) -> None:
    a, b = rules[i], rules[j]
    theirs = peer_winner(a, b)
    ours = our_winner(a, b)
    if theirs is ours and ours.broadened:
        # Both pick the broadened rule, but only where the peer's own (narrower) pattern
        # matches; on the commands only the broadened pattern reaches, the peer applies the
        # other rule. A looser broadened winner would loosen those: drop it (stricter).
        other = b if ours is a else a
        if ours.verdict.rank < other.verdict.rank:
            dropped[i if ours is a else j] = (
                Severity.STRICTER,
                f"dropped: it had to be broadened, and on the commands only the broadened "
                f"pattern matches, {peer} applies `{other.origin.text}` ({other.verdict})",
            )
            return
    if theirs is ours:
        return
    # INVARIANT: "never applies" is concluded only from a winner whose pattern is not
    # broader than the peer's rule: a broadened winner may not cover the loser at all.
    if theirs is not None and not theirs.broadened:
        loser = a if theirs is b else b
        if loser.pattern.within(theirs.pattern):
            index = i if loser is a else j
            dropped[index] = (
                Severity.NOTE,
                f"dropped: never applies in {peer}, where `{theirs.origin.text}` wins on every "
                f"command it matches",
            )
            return
    looser, strict = (a, b) if a.verdict.rank < b.verdict.rank else (b, a)
    if ours is looser:
        index = i if looser is a else j
        dropped[index] = (
            Severity.STRICTER,
            f"dropped: where it and `{strict.origin.text}` both match, {peer} applies "
            f"{'the stricter rule' if theirs is strict else 'either'}, but policylang would "
            f"let this {looser.verdict} rule win (more specific)",
        )
        return
    stricter.append(
        ImportWarning(
            severity=Severity.STRICTER,
            message=(
                f"where this and `{strict.origin.text}` both match, {peer} applies "
                f"{'this' if theirs is looser else 'either'} {looser.verdict} rule; "
                f"policylang applies the {strict.verdict}"
            ),
            origin=looser.origin,
        )
    )


def prune(
    rules: Sequence[ImportedRule],
) -> tuple[tuple[ImportedRule, ...], tuple[ImportedRule, ...], tuple[ImportWarning, ...]]:
    """Drop rules that can never decide in policylang: duplicates, a rule whose pattern a
    deny covers, and the loser of two rules with the same pattern. Our meaning is the same
    without them, and the validator would flag them.
    """
    dropped: dict[int, str] = {}
    for i, rule in enumerate(rules):
        for j, other in enumerate(rules):
            if i == j or j in dropped or not rule.pattern.within(other.pattern):
                continue
            same = rule.pattern == other.pattern
            if same and rule.verdict is other.verdict and j < i:
                dropped[i] = f"dropped: same rule as `{other.origin.text}`"
            elif same and rule.verdict is not other.verdict and our_winner(rule, other) is other:
                dropped[i] = (
                    f"dropped: `{other.origin.text}` has the same pattern here and policylang "
                    f"applies its {other.verdict}"
                )
            elif not same and other.verdict is Verdict.DENY and rule.verdict is not Verdict.DENY:
                dropped[i] = (
                    f"dropped: never decides in policylang, `{other.origin.text}` denies it"
                )
            if i in dropped:
                break
    kept = tuple(r for k, r in enumerate(rules) if k not in dropped)
    gone = tuple(r for k, r in enumerate(rules) if k in dropped)
    notes = tuple(
        ImportWarning(severity=Severity.NOTE, message=why, origin=rules[k].origin)
        for k, why in sorted(dropped.items())
    )
    return kept, gone, notes


def catch_all_default(
    rules: Sequence[ImportedRule], peer_winner: PeerWinner, fallback: Verdict
) -> tuple[tuple[ImportedRule, ...], Verdict, Origin | None]:
    """Turn catch-all rules (`*` for every command) into the policy's `default`.

    Our `default` applies only when no rule matches, which is exactly a catch-all of the
    lowest specificity. Among several catch-alls the peer's winner is taken (the
    strictest if the peer's choice cannot be told).
    """
    catch = [r for r in rules if r.pattern.is_catch_all]
    if not catch:
        return tuple(rules), fallback, None
    best = catch[0]
    for other in catch[1:]:
        winner = peer_winner(best, other)
        best = winner if winner is not None else max(best, other, key=lambda r: r.verdict.rank)
    rest = tuple(r for r in rules if not r.pattern.is_catch_all)
    return rest, best.verdict, best.origin


def finish(
    *,
    source_format: str,
    source_file: str,
    peer: str,
    rules: Sequence[ImportedRule],
    peer_winner: PeerWinner,
    fallback: Verdict,
    fallback_origin: Origin | None = None,
    warnings: Sequence[ImportWarning] = (),
    expectations: Sequence[Expectation] = (),
) -> ImportResult:
    """Reconcile precedence, fold catch-alls into `default`, and assemble the result."""
    rules, expanded = broaden_expansions(rules)
    warnings = (*warnings, *expanded)
    kept, gone, notes = reconcile(rules, peer_winner, peer)
    rest, default, default_origin = catch_all_default(kept, peer_winner, fallback)
    rest, pruned, pruned_notes = prune(rest)
    gone = (*gone, *pruned)
    notes = (*notes, *pruned_notes)
    ordered = tuple(sorted(rest, key=lambda r: (r.origin.line or 0, r.rank)))
    return ImportResult(
        source_format=source_format,
        source_file=source_file,
        rules=ordered,
        default=default,
        default_origin=default_origin or fallback_origin,
        warnings=(*warnings, *notes),
        expectations=tuple(expectations),
        dropped=gone,
    )


# what bash expands in an unquoted word: a tilde at the start or after `=`/`:`, a glob
# (`*`, `?`, a bracket set), a brace list or sequence (`{a,b}`, `{1..3}`)
_EXPANDS = re.compile(r"^~|[=:]~|[*?]|\[[^\]]*\]|\{[^{}]*(?:,|\.\.)[^{}]*\}")


def broaden_expansions(
    rules: Sequence[ImportedRule],
) -> tuple[list[ImportedRule], list[ImportWarning]]:
    """Ask and deny rules cut at the first word a shell would expand, and broadened.

    A peer matches the command's text, so its deny of `rm -rf ~` fires on exactly that
    text. Our engine matches words, and an unquoted `~`, `{a,b}` or `prod-?` in a command
    is an expansion, which never matches a literal word: rendered as a literal, the deny
    never fired (review K2). An allow keeps its literal word: that only narrows it.
    """
    out: list[ImportedRule] = []
    warnings: list[ImportWarning] = []
    for rule in rules:
        index = _first_expanding(rule.pattern)
        if rule.verdict is Verdict.ALLOW or index is None:
            out.append(rule)
            continue
        word = next(a for a in rule.pattern.words[index].alternatives if _EXPANDS.search(a))
        if index == 0:
            # broadened, it would cover every command (a `default deny` that drops every
            # allow, review M10); the engine asks for a command name that is not literal
            why = (f"not converted: the command name `{word}` is a shell expansion in a "
                   "command; policylang asks for every command whose name is not literal, "
                   "but cannot deny it by name")
            warnings.append(ImportWarning(severity=Severity.UNCONVERTED, message=why,
                                          origin=rule.origin))
            continue
        broad = Pattern(rule.pattern.words[:index], rest=True)
        shown = " ".join(["|".join(w.alternatives) or "*" for w in broad.words] + ["**"])
        note = (f"broadened to `{shown}`: `{word}` is a shell expansion in a command (tilde, "
                "glob or brace), which never matches a literal word")
        out.append(replace(with_note(rule, note), pattern=broad, broadened=True))
        warnings.append(ImportWarning(severity=Severity.STRICTER, message=note,
                                      origin=rule.origin))
    return out, warnings


def _first_expanding(pattern: Pattern) -> int | None:
    for index, word in enumerate(pattern.words):
        if any(_EXPANDS.search(alternative) for alternative in word.alternatives):
            return index
    return None


def json_with_duplicates(text: str) -> tuple[Any, list[str]]:
    """`json.loads(text)`, and the keys that appeared twice in one object.

    The last one wins, as in the peers' own `JSON.parse`; but a reviewer reading the file
    sees the first one too (a deny), so each is reported (review K8).

    Raises:
        json.JSONDecodeError: not JSON.
    """
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in items:
            if key in seen:
                duplicates.append(key)
            seen[key] = value
        return seen

    return json.loads(text, object_pairs_hook=pairs), duplicates


def duplicate_warnings(duplicates: Sequence[str], filename: str) -> list[ImportWarning]:
    return [
        ImportWarning(
            severity=Severity.NOTE,
            message=f"{filename}: key `{key}` appears twice in one object; the last one "
            "counts, as in the peer, and the earlier one was ignored",
        )
        for key in dict.fromkeys(duplicates)
    ]


def with_note(rule: ImportedRule, note: str | None) -> ImportedRule:
    return rule if note is None else replace(rule, notes=(*rule.notes, note))


def settle_expectations(result: ImportResult, evaluate: Callable[[str], Verdict]) -> ImportResult:
    """Check the peer's examples against the converted policy (`evaluate` gives our verdict).

    Where ours is stricter than the peer's (policylang also judges expansions, paths and
    redirections the peer did not), the expectation takes our verdict and a `stricter`
    warning says so; the converted policy then passes its own checks. Where ours would be
    looser, the peer's verdict is kept, so the check fails loudly, and the example is
    reported `unconverted`.
    """
    settled: list[Expectation] = []
    warnings = list(result.warnings)
    for expectation in result.expectations:
        ours = evaluate(expectation.command)
        if ours is expectation.verdict:
            settled.append(expectation)
            continue
        stricter = ours.rank > expectation.verdict.rank
        message = (
            f"`{expectation.command}`: the peer says {expectation.verdict}, policylang says "
            f"{ours}" + ("" if stricter else "; review the rules it matches")
        )
        warnings.append(
            ImportWarning(
                severity=Severity.STRICTER if stricter else Severity.UNCONVERTED,
                message=message,
            )
        )
        if stricter:
            note = f"{expectation.note}; the peer says {expectation.verdict}".lstrip("; ")
            settled.append(replace(expectation, verdict=ours, note=note))
        else:
            settled.append(expectation)
    return replace(result, expectations=tuple(settled), warnings=tuple(warnings))
