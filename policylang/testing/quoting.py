"""Exact bash quoting helpers for the fuzzing generators; pure Python, imports nothing else.

Every function here turns a literal value into a bash spelling that, after quote removal
in a non-interactive bash (history expansion off, no extglob needed), is exactly that
value — and stays one word. They are exact rather than pretty: the generators use them
to build several spellings of one word, so that "re-quoting never changes the verdict"
can be tested, and a wrong spelling would make that test lie.

    >>> single_quoted("it's")
    "'it'\\\\''s'"
    >>> ansi_c_quoted("a\\nb")
    "$'a\\\\nb'"
    >>> backslash_escaped("a b")
    'a\\\\ b'

Values must not contain NUL (a C string cannot hold it; bash drops it).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

# Characters that keep their literal meaning unquoted anywhere in a word, in any
# position after the first. `=` is excluded because a leading `NAME=` makes the word an
# assignment in command position and triggers tilde expansion after it in arguments; `~`,
# `{`, `}`, `*`, `?`, `[`, `]`, `#`, `!` are expansion, glob or comment characters.
PLAIN_SAFE = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,@%+^"
)

# Characters that need a backslash to be literal outside quotes (bash metacharacters,
# quoting, expansion and glob characters, and word separators).
_NEEDS_BACKSLASH = frozenset(" \t|&;()<>'\"\\$`*?[]{}~#!=\n")

# Inside double quotes, only these keep a special meaning (history expansion is off in a
# non-interactive bash; `!` is still kept out of double quotes below to be safe for
# interactive-style analysers).
_DOUBLE_SPECIAL = frozenset('$`"\\')

_ANSI_C_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
                 "\f": "\\f", "\v": "\\v", "\x1b": "\\E", "\\": "\\\\", "'": "\\'"}


class Style(enum.StrEnum):
    """One way of spelling (part of) a word."""

    PLAIN = "plain"
    SINGLE = "single"
    DOUBLE = "double"
    ANSI_C = "ansi-c"
    ANSI_C_HEX = "ansi-c-hex"  # every character as \xHH / \uHHHH escapes
    ANSI_C_BRACED = "ansi-c-braced"  # every byte as \x{HH} (bash 5: review AZ1)
    BACKSLASH = "backslash"
    BACKSLASH_ALL = "backslash-all"  # every character escaped: `\\r\\m` means `rm`
    LOCALE = "locale"  # `$"…"`: double quotes translated by gettext (no catalog: unchanged)


def _check(value: str) -> None:
    if "\x00" in value:
        raise ValueError("a shell word cannot contain NUL")


def can_spell_plain(value: str) -> bool:
    """Whether `value` can be written with no quoting at all (non-empty, safe characters)."""
    return bool(value) and all(ch in PLAIN_SAFE or (ord(ch) > 127 and ch.isalnum())
                               for ch in value)


def plain(value: str) -> str:
    """The value unquoted; raises ValueError if that would not mean the value."""
    if not can_spell_plain(value):
        raise ValueError(f"{value!r} cannot be spelled without quotes")
    return value


def single_quoted(value: str) -> str:
    """`'…'`, with each `'` written as `'\\''` (close, escaped quote, reopen)."""
    _check(value)
    return "'" + value.replace("'", "'\\''") + "'"


def double_quoted(value: str) -> str:
    """`"…"` with `$`, `` ` ``, `"` and `\\` escaped; `!` goes into single quotes."""
    _check(value)
    parts: list[str] = []
    run: list[str] = []
    for ch in value:
        if ch == "!":
            parts.append('"' + "".join(run) + '"')
            parts.append("'!'")
            run = []
            continue
        run.append("\\" + ch if ch in _DOUBLE_SPECIAL else ch)
    if run or not parts:
        parts.append('"' + "".join(run) + '"')
    return "".join(parts)


def ansi_c_quoted(value: str, *, hex_escapes: bool = False, braced: bool = False) -> str:
    """`$'…'`; control characters as escapes, or every byte escaped if `hex_escapes`
    (as `\\x{HH}` with `braced`)."""
    _check(value)
    out: list[str] = []
    for ch in value:
        code = ord(ch)
        if hex_escapes:
            # the UTF-8 bytes, each as `\\xHH`: bash gives the same bytes in every locale
            # (a `\\u` escape would be the text `\\u00e9` in the C locale)
            form = "\\x{{{:02x}}}" if braced else "\\x{:02x}"
            out.extend(form.format(byte) for byte in ch.encode())
        elif ch in _ANSI_C_NAMED:
            out.append(_ANSI_C_NAMED[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def backslash_escaped(value: str) -> str:
    """Every special character preceded by `\\`; a newline (which a backslash would
    turn into a line continuation) is written as `'<newline>'`; empty is `''`."""
    _check(value)
    if not value:
        return "''"
    out: list[str] = []
    for ch in value:
        if ch == "\n":
            out.append("'\n'")
        elif ch in _NEEDS_BACKSLASH or not (ch in PLAIN_SAFE or ord(ch) > 127):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def locale_quoted(value: str) -> str:
    """`$"…"`: like `double_quoted`, translated through the message catalog at run time.

    Exact only while no catalog translates the text (the usual case: `TEXTDOMAIN` unset).
    """
    return "$" + double_quoted(value) if value and "!" not in value else double_quoted(value)


def backslash_all(value: str) -> str:
    """Every character preceded by `\\` (a newline goes into single quotes instead)."""
    _check(value)
    if not value:
        return "''"
    return "".join("'\n'" if ch == "\n" else "\\" + ch for ch in value)


def spell(value: str, style: Style) -> str:
    """`value` in one `style`; PLAIN raises ValueError for values that need quoting."""
    match style:
        case Style.PLAIN:
            return plain(value)
        case Style.SINGLE:
            return single_quoted(value)
        case Style.DOUBLE:
            return double_quoted(value)
        case Style.ANSI_C:
            return ansi_c_quoted(value)
        case Style.ANSI_C_HEX:
            return ansi_c_quoted(value, hex_escapes=True)
        case Style.ANSI_C_BRACED:
            return ansi_c_quoted(value, hex_escapes=True, braced=True)
        case Style.BACKSLASH:
            return backslash_escaped(value)
        case Style.BACKSLASH_ALL:
            return backslash_all(value)
        case Style.LOCALE:
            return locale_quoted(value)


def concatenated(chunks: Sequence[tuple[str, Style]]) -> str:
    """Adjacent spellings of consecutive chunks, forming one word: `ab'c d'$'\\n'`.

    A PLAIN chunk that cannot be plain falls back to backslash escaping. The first
    chunk of a word must not be an empty PLAIN chunk (nothing to write).
    """
    out: list[str] = []
    for value, style in chunks:
        if style is Style.PLAIN and not can_spell_plain(value):
            style = Style.BACKSLASH
        if style in (Style.BACKSLASH, Style.BACKSLASH_ALL) and not value:
            continue  # `''` would be redundant inside a word
        out.append(spell(value, style))
    return "".join(out) or "''"


def spellings(value: str) -> tuple[str, ...]:
    """Every single-style spelling of `value` (no duplicates), PLAIN first when possible."""
    styles = [s for s in Style if s is not Style.PLAIN or can_spell_plain(value)]
    seen: dict[str, None] = {}
    for style in styles:
        seen.setdefault(spell(value, style))
    return tuple(seen)


def shell_join(values: Sequence[str]) -> str:
    """A command line whose words are exactly `values` (single-quoting where needed)."""
    return " ".join(v if can_spell_plain(v) else single_quoted(v) for v in values)
