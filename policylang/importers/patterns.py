"""Importers stage: peers' string patterns made word patterns; imports `common`, `render`.

Peers match command *text* with globs or prefixes; policylang matches words. A glob that
is whole words converts exactly; anything else is approximated in the one safe direction
for its verdict: an allow is narrowed (or dropped), an ask or deny is broadened.
"""

from __future__ import annotations

import re
import shlex

from policylang.decision import Verdict
from policylang.importers.common import (
    ANY,
    ImportedRule,
    Origin,
    Pattern,
    Word,
    with_note,
)
from policylang.importers.render import render_pattern


def split_words(text: str) -> tuple[str, ...] | None:
    """The words of a peer's command text (shell quoting honoured), or None if unsplittable."""
    try:
        return tuple(shlex.split(text, comments=False, posix=True))
    except ValueError:
        return None


_SHELL_SYNTAX = re.compile(r"[;&|<>()`$\n]")


def has_shell_syntax(text: str) -> bool:
    """Operators or expansions: a peer's pattern containing them cannot be a word pattern."""
    return bool(_SHELL_SYNTAX.search(text))


def glob_rule(
    text: str, verdict: Verdict, origin: Origin, *, multiword_star: bool, rank: float = 0.0
) -> tuple[ImportedRule | None, str | None]:
    """`glob_to_pattern` made a rule, with the approximation noted on it."""
    pattern, note = glob_to_pattern(text, verdict, multiword_star=multiword_star)
    if pattern is None:
        return None, note
    broadened = note is not None and note.startswith("broadened")
    rule = ImportedRule(
        verdict=verdict, pattern=pattern, origin=origin, rank=rank, broadened=broadened
    )
    return with_note(rule, note), note


def glob_to_pattern(
    text: str, verdict: Verdict, *, multiword_star: bool
) -> tuple[Pattern | None, str | None]:
    """A word pattern for a peer's glob over the command string.

    `*` in the peer's glob matches any characters (spaces too when `multiword_star`). A
    star that stands alone as the last word, or ends the last word, becomes `**`; a star
    standing alone elsewhere becomes `*` when it matches one word only. Anything else
    cannot be expressed: an allow is narrowed (or dropped: None), an ask or deny is
    broadened to the literal words before it followed by `**`.

    Returns:
        (pattern or None, a note saying how it was approximated, or None if exact).
    """
    words = split_words(text)
    if words is None or has_shell_syntax(text.replace("*", "")):
        return None, "contains shell syntax or unbalanced quotes"
    out: list[Word] = []
    for index, word in enumerate(words):
        last = index == len(words) - 1
        if "*" not in word and "?" not in word:
            out.append(Word((word,)))
            continue
        if word == "*" and last:
            return Pattern(tuple(out), rest=True), None
        if word == "*" and (not multiword_star or verdict is Verdict.ALLOW):
            # One word is all `*` means here, or (for an allow) a safe narrowing of "any words".
            if multiword_star:
                note = "narrowed: `*` matches exactly one word here"
                narrowed, later = (
                    glob_to_pattern(
                        " ".join(shlex.quote(w) if w != "*" else w for w in words[index + 1 :]),
                        verdict,
                        multiword_star=multiword_star,
                    )
                    if index + 1 < len(words)
                    else (Pattern(()), None)
                )
                if narrowed is None:
                    return None, later
                merged = Pattern((*out, ANY, *narrowed.words), rest=narrowed.rest)
                return merged, note if later is None else f"{note}; {later}"
            out.append(ANY)
            continue
        if last and word.endswith("*") and "*" not in word[:-1] and "?" not in word:
            stem = word[:-1]
            return _approximate(out, stem, verdict, f"`{word}` also matches longer words")
        return _approximate(out, None, verdict, f"`{word}` is not a whole-word pattern")
    return Pattern(tuple(out)), None


def _approximate(
    head: list[Word], stem: str | None, verdict: Verdict, why: str
) -> tuple[Pattern | None, str | None]:
    if verdict is Verdict.ALLOW:
        if stem:
            return Pattern((*head, Word((stem,))), rest=True), f"narrowed: {why}"
        if stem == "":
            return Pattern(tuple(head), rest=True), None
        return None, f"cannot narrow: {why}"
    if not head:
        return None, f"cannot broaden without covering every command: {why}"
    broad = Pattern(tuple(head), rest=True)
    note = f"broadened to `{render_pattern(broad)}`: {why}"
    if stem:
        exact = render_pattern(Pattern((*head, Word((stem,))), rest=True))
        note += f"; if only the word `{stem}` was meant, write `{verdict} {exact}` instead"
    return broad, note
