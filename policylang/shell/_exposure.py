"""A lexical safety net under the analyser: substitutions bash may run that it did not see.

tree-sitter-bash has blind spots where bash runs a command substitution: inside `${…}`
operands (`${x#$(cmd)}`, `${x:-`cmd`}`), single quotes that bash does not honour
(`${a['$(cmd)']}`, `$(( '$(cmd)' ))`), here-document bodies whose first line starts with
a blank, and more. Rather than trust every node, the analyser looks at the text for every
place a substitution may start — `$(`, a backquote, `<(`, `>(`, and a line continuation
glued to `$`, `(`, `<` or `>` (bash deletes `\\⏎` before it reads tokens, so `$\\⏎(cmd)`
is `$(cmd)`) — and reports each one it did not record.

The scan honours no quoting at all. An earlier version skipped what it took for literal
text (single quotes, quoted here-document bodies, comments); every way of making it
misjudge where a literal ends — a quote inside `${…}`, a here-document word bash delimits
differently, a comment right after `;`, `$$'…'` — hid a substitution that bash ran
(review C). Without literal regions nothing can hide an opener; the price is that a
literal `'$(x)'` or a quoted here-document body holding `$(` asks, which the corpora show
to be rare (and most such lines write a file and ask anyway).

A word holding an array subscript with a substitution is reported too, however it is
quoted or escaped (`'a[$(cmd)]'`, `"a[\\$(cmd)]"`, `$'a[\\x24(cmd)]'`): bash runs it when
it evaluates the word as a variable name or arithmetic (`test -v`, `printf -v`, `read`,
`unset`, `[[ … -eq … ]]`), wherever the word goes. So is a carriage return, vertical tab
or form feed, where bash keeps a word whole that tree-sitter splits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

__all__ = ["CONTROL_BLANKS", "code_subscript", "may_substitute", "unseen_substitutions"]

# bash splits words at blanks and newlines only; tree-sitter also at these
CONTROL_BLANKS: Final = "\r\v\f"
# where bash may start a substitution, and what it does not split on
# (`${` then a blank, a newline or `|` is bash 5.3's command substitution in the current
# shell, `${ cmd; }` and `${| cmd; }`, where bash 5.2 refuses a bad substitution: review GQ1;
# bash takes out each `\⏎` before it reads, so a run of them may sit anywhere in the
# opener, `${\⏎ cmd;}`, which had been allowed in every GQ1 position: review GX1)
_CONTINUED: Final = r"(?:\\\n)*"
_FUNSUB: Final = rf"\${_CONTINUED}\{{{_CONTINUED}[ \t\n|]"
_OPENER: Final = re.compile(rf"\$\(|`|<\(|>\(|{_FUNSUB}|[$(<>]\\\n|[\r\v\f]")
_SUBSTITUTION: Final = re.compile(rf"\${_CONTINUED}\(|`|{_FUNSUB}")
# `name[ … $( … ]`: an array subscript that runs a substitution when bash evaluates it.
# Tried only where a run of name characters starts, each run read once (possessively): a
# search tried from every letter of a 54 KB run of them, reading to its end each time
# (review DN: 19 s to 70 s a line). It ends where `[A-Za-z_][A-Za-z0-9_]*\[` ends: that
# pattern's first match starts at the run's first letter or `_`, after any digits.
_SUBSCRIPT_NAME: Final = re.compile(r"(?<![A-Za-z0-9_])[0-9]*+[A-Za-z_][A-Za-z0-9_]*+\[")
# the same as written, with quotes and backslashes anywhere (`a[\$\(x\)]`, `"a["'$('x)]`)
_SUBSCRIPT_START: Final = re.compile(
    r"(?<![A-Za-z0-9_])[0-9]*+[A-Za-z_][A-Za-z0-9_]*+[\\'\"]*+\["
)
# (a newline among the quotes and backslashes: `$\⏎(` and `$\⏎{ ` are openers, review GX1)
_OPENER_ESCAPED: Final = re.compile(
    r"\$[\\'\"\n]*\(|\$[\\'\"\n]*\{[\\'\"\n]*[ \t\n|]|`"
    r"|\\x24|\\044|\\u0024|\\U00000024|\\x60|\\140|\\u0060|\\U00000060"
)


def may_substitute(text: str) -> bool:
    """Whether `text` holds anything the scan could report (a cheap first test)."""
    return _OPENER.search(text) is not None


def unseen_substitutions(
    text: str, seen: Mapping[int, int], arithmetic: frozenset[int] = frozenset()
) -> list[tuple[int, str]]:
    """Where bash may start a substitution that the analyser did not record.

    `seen` maps the start of each recorded command or process substitution to its end;
    `arithmetic` holds the starts of recorded `$((…))` expansions (whose `$(` is no
    substitution). Returns (offset, what) pairs, `what` being the opener as written or
    the control character.
    """
    closers = {end - 1 for start, end in seen.items() if text.startswith("`", start)}
    found: list[tuple[int, str]] = []
    for match in _OPENER.finditer(text):
        where = match.start()
        what = match.group()
        if where in seen or where in closers:
            continue
        if what == "$(" and where in arithmetic:
            continue
        found.append((where, what))
    return found


def code_subscript(
    text: str, value: str | None, recorded: Mapping[int, int], *, subscript: bool = False
) -> bool:
    """Whether a word names an array element whose subscript runs a substitution that
    bash does not expand as part of the word (`recorded`: start → end offsets in `text`
    of the substitutions it does expand, such as `a[`x`]` unquoted). With `subscript`,
    the whole word is a subscript (`a['$(x)']=1`)."""
    if value is not None:
        if subscript and _SUBSTITUTION.search(value) is not None:
            return True
        if not subscript and _subscript_then_substitution(value):
            return True
    if subscript:
        return _hidden_opener(text, 0, len(text), recorded)
    # to the end of the word, not the first `]`: bash matches brackets (`a[b[1]+$(x)]`)
    start = _SUBSCRIPT_START.search(text)
    return start is not None and _hidden_opener(text, start.end(), len(text), recorded)


def _subscript_then_substitution(value: str) -> bool:
    """Whether a `NAME[` comes before a `$(` or backquote in `value`, in linear time (a
    lazy `NAME[.*?$(` scanned to the end from every `NAME[`: 26 s for a 98 KB word of
    `a[a[a[…`, review BG6).

    >>> _subscript_then_substitution("a[$(x)]"), _subscript_then_substitution("$(x) a[1]")
    (True, False)
    """
    last = -1
    for opener in _SUBSTITUTION.finditer(value):  # (each start tried once: linear)
        last = opener.start()
    if last < 0:
        return False
    first = _SUBSCRIPT_NAME.search(value, 0, last)
    return first is not None and first.end() <= last


def _hidden_opener(text: str, start: int, stop: int, recorded: Mapping[int, int]) -> bool:
    """Whether an opener in `text[start:stop]` lies outside every recorded substitution
    (those bash expands as part of the word, such as `${a[@]}` inside a backquote)."""
    for opener in _OPENER_ESCAPED.finditer(text, start, stop):
        where = opener.start()
        if not any(first <= where < end for first, end in recorded.items()):
            return True
    return False
