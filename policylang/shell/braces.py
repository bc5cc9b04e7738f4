"""Shell stage: bash's brace expansion of one unquoted word of plain characters.

`{rm,-rf,/}` is the command `rm -rf /` to bash, and `cat {README,.env}` reads `.env`:
brace expansion happens before anything else looks at the words. The analyser reports
such words as expansions (no literal value); the engine reads the words bash would make
of them with `expand_braces`, as a line of their own, so that a deny among them holds.

Only words of plain characters are expanded (letters, digits, `_ . / : @ % + = - ~ * ? [ ]`
and the braces and commas themselves): no quote, backslash or `$` can change what bash
does with a brace there. Anything else, or any doubt (nested or unbalanced braces, a
sequence reaching characters outside that set, more than `MAX_WORDS` results), gives
None, and the word stays the question it was. tests/unit/shell/test_braces.py checks
the results against the machine's bash.

>>> expand_braces("{rm,-rf,/}")
['rm', '-rf', '/']
>>> expand_braces("src/{a,b}.py")
['src/a.py', 'src/b.py']
>>> expand_braces("x{1..3}")
['x1', 'x2', 'x3']
>>> expand_braces("{a}") is None  # a literal brace: bash's rules there are not read
True
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["MAX_WORDS", "expand_braces"]

MAX_WORDS: Final = 256
_PLAIN: Final = re.compile(r"[A-Za-z0-9_./:,@%+=~*?\[\]{}-]*")
_RESULT: Final = re.compile(r"[A-Za-z0-9_./:,@%+=~*?\[\]{}-]*")
_NUMBER: Final = re.compile(r"[-+]?[0-9]+")
_LETTER: Final = re.compile(r"[A-Za-z]")


class _Doubt(Exception):
    """The expansion is not certain (or too large): the caller gets None."""


def expand_braces(word: str) -> list[str] | None:
    """The words bash makes of the unquoted `word` by brace expansion, or None when it has
    no brace expression, holds a character outside the plain set, or is in doubt.

    Empty results are dropped, as bash drops the null words an unquoted expansion makes
    (`x{a,}` is `xa x`; `{,}` is no word at all).
    """
    if "{" not in word or _PLAIN.fullmatch(word) is None:
        return None
    try:
        words = _expand(word)
    except _Doubt:
        return None
    if words == [word]:
        return None
    return [w for w in words if w]


def _expand(text: str) -> list[str]:
    """The cartesian product of the word's brace expressions, left to right.

    Only the simple forms are read: braces never nested, each `{` closed by the next
    `}`, and each pair a list with a comma or a sequence. bash's rules for the rest
    (`{a{b,c}}` is `{ab} {ac}`, but `{1{a..c}..x}` stays as written) are not needed to
    read what agents write, and any of them is a doubt.
    """
    results = [""]
    rest = text
    while rest:
        opening = rest.find("{")
        literal = rest if opening < 0 else rest[:opening]
        if "}" in literal:
            raise _Doubt  # a `}` with no `{`
        results = [done + literal for done in results]
        if opening < 0:
            break
        closing = rest.find("}", opening)
        if closing < 0 or "{" in rest[opening + 1 : closing]:
            raise _Doubt  # unclosed or nested
        body = rest[opening + 1 : closing]
        parts = _alternatives(body)
        if parts is None:
            parts = _sequence(body)
        if parts is None:
            raise _Doubt  # `{a}`, `{}`: literal to bash, but then so may be the rest
        results = [done + part for done in results for part in parts]
        if len(results) > MAX_WORDS:
            raise _Doubt
        rest = rest[closing + 1 :]
    return results


def _alternatives(body: str) -> list[str] | None:
    """`a,b,c` split at its commas (the body holds no brace); None when it has none."""
    return body.split(",") if "," in body else None


def _sequence(body: str) -> list[str] | None:
    """`X..Y[..STEP]` of two integers or two letters; None when `body` is no sequence."""
    pieces = body.split("..")
    if len(pieces) not in (2, 3):
        return None
    first, last = pieces[0], pieces[1]
    step_text = pieces[2] if len(pieces) == 3 else "1"
    if _NUMBER.fullmatch(step_text) is None:
        return None
    if not _fits_intmax(step_text):
        raise _Doubt  # bash keeps the word as written (review EN2)
    step = abs(int(step_text)) or 1
    if _NUMBER.fullmatch(first) and _NUMBER.fullmatch(last):
        return _numbers(first, last, step)
    if _LETTER.fullmatch(first) and _LETTER.fullmatch(last):
        low, high = ord(first), ord(last)
        direction = 1 if high >= low else -1
        letters = [chr(c) for c in range(low, high + direction, step * direction)]
        if any(_RESULT.fullmatch(letter) is None or letter == "," for letter in letters):
            raise _Doubt  # `{Z..a}` passes through `\`, backquote and `^`
        return letters
    return None


def _numbers(first: str, last: str, step: int) -> list[str]:
    if not (_fits_intmax(first) and _fits_intmax(last)):
        raise _Doubt  # bash keeps the word as written (review EN2)
    low, high = int(first), int(last)
    direction = 1 if high >= low else -1
    count = abs(high - low) // step + 1
    if count > MAX_WORDS:
        raise _Doubt
    width = 0
    if _padded(first) or _padded(last):
        if low < 0 or high < 0:
            raise _Doubt  # bash pads negative numbers in its own way: not needed here
        # the bounds' whole lengths, a sign included (`{00..+03}` is `000 … 003`: EN1)
        width = max(len(first), len(last))
    return [str(n).zfill(width) for n in range(low, high + direction, step * direction)]


def _fits_intmax(number: str) -> bool:
    """Whether bash reads `number` as a number (`strtoimax` without overflow): a bound or
    step beyond 64 bits makes the braces no sequence, and the word stays as written."""
    return -(2**63) < int(number) < 2**63


def _padded(number: str) -> bool:
    """bash's `expand_seqterm`: a bound pads only when its text starts with `0` or `-0`
    (`{+01..1}` is `1`, where the sign had been stripped first and `01` made: EN1)."""
    return (len(number) > 1 and number.startswith("0")) or (
        len(number) > 2 and number.startswith("-0")
    )
