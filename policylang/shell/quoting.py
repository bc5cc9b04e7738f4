"""Quote removal and pattern detection for shell words: pure Python, imports only the model.

`shell.parse` splits a word into pieces (unquoted text, quoted text, expansions); the helpers
here decode each piece the way bash does and tell whether the unquoted parts contain
pattern characters (glob, brace, tilde, extglob) that make the word non-literal.

>>> decode_ansi_c(r"\\x72\\x6d")
'rm'
>>> decode_ansi_c(r"\\xc3\\xa9\\101\\cA")
'éA\\x01'
>>> unquote_bare("r\\\\m")
[('r', False), ('m', True)]
"""

from __future__ import annotations

import re
from typing import Final

from policylang.shell.model import ExpansionKind

_SIMPLE_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}

# `\x{H…}`: any number of hex digits, then a `}` if one follows at once, the value cut
# to one byte (bash 5's `ansicstr`; checked against bash: `\x{2eZZ}` is `.ZZ}`):
# `$'\x{2e}env'` is `.env`, which the engine had read as a harmless name (review AZ1)
_ANSI_C = re.compile(
    r"\\(?:([abeEfnrtv\\'\"?])|([0-7]{1,3})|x\{([0-9A-Fa-f]*)\}?|x([0-9A-Fa-f]{1,2})"
    r"|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|c(\\\\|.)|(.))",
    re.DOTALL,
)


def _byte(value: int) -> str:
    """One byte as bash produces it: ASCII as itself, any other byte as the surrogate
    escape Python uses for an undecodable byte of a file name (see `bytes_to_text`)."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def _ansi_c_escape(match: re.Match[str]) -> str:
    simple, octal, braced, hex2, u4, u8, ctrl, other = match.groups()
    if simple is not None:
        return _SIMPLE_ESCAPES[simple]
    if octal is not None:
        return _byte(int(octal, 8) & 0xFF)
    if braced is not None:
        return _byte(int(braced or "0", 16) & 0xFF)  # (no digits: a NUL, ending the word)
    if hex2 is not None:
        return _byte(int(hex2, 16))
    code = u4 if u4 is not None else u8
    if code is not None:
        value = int(code, 16)
        if value >= 0x80:
            # the locale decides: UTF-8 bytes in a UTF-8 locale, the escape itself in C
            raise LocaleDependent(match.group(0))
        return chr(value)
    if ctrl is not None:
        # `\c\\` is one escape, both backslashes its own (review EJ1: read as `\c\`
        # then `\0…`, a NUL cut `$'\c\\0h/.ssh/id_rsa'` short); bash takes the next
        # byte, not character: a character beyond ASCII gives bytes that depend on how
        # the text is encoded (EJ2: `$'\cà'` was read as a NUL, where bash gives
        # `03 a0`), so the word is not known
        if ctrl == "\\\\":
            return "\x1c"
        if not ctrl.isascii():
            raise LocaleDependent(match.group(0))
        return "\x7f" if ctrl == "?" else chr(ord(ctrl.upper()) & 0x1F)
    return "\\" + other


class LocaleDependent(ValueError):
    """A `$'…'` whose bytes depend on the locale bash runs in (`\\u00e9`)."""


def decode_ansi_c(body: str) -> str:
    """Decode the body of `$'…'` as bash does; a NUL ends the string (bash truncates there).

    `\\xHH` and `\\NNN` give raw bytes, whatever the locale: a byte of 0x80 or more is kept
    as a surrogate escape, so the text encodes back to bash's bytes (`$'\\xc3\\xa9'` is a
    name `é` on disk). `\\u`/`\\U` beyond ASCII depend on the locale: `LocaleDependent`.
    """
    if "\\" not in body:
        return body
    if "\x01" in body or "\x7f" in body:
        # bash's lexer keeps these two bytes behind a CTLESC of its own, which its decoder
        # then reads: `$'\c<DEL>'` is `01 7f`, `$'\<SOH>'` is `\ 01 01` (review EM1); a
        # word whose escapes meet them is not known
        raise LocaleDependent(body)
    decoded = _ANSI_C.sub(_ansi_c_escape, body)
    return bytes_to_text(decoded.partition("\x00")[0])


# the surrogates Python gives a byte that is not UTF-8 (written as `chr`: mypyc cannot
# compile a surrogate in a string literal)
_LOW_SURROGATE_BYTE: Final = chr(0xDC80)
_HIGH_SURROGATE_BYTE: Final = chr(0xDCFF)


def bytes_to_text(text: str) -> str:
    """Text whose surrogate-escaped bytes that form UTF-8 are decoded (`\\udcc3\\udca9` is
    `é`): the form Python gives a file name with those bytes."""
    if not any(_LOW_SURROGATE_BYTE <= ch <= _HIGH_SURROGATE_BYTE for ch in text):
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        # a surrogate outside the escapes' range (`'\ud800\udc80'` in the command text,
        # which hypothesis found): no bytes stand behind it, so the text is kept as it is
        return text


_DQ_ESCAPE = re.compile(r"\\([$`\"\\\n])")


def unquote_double(text: str) -> str:
    """Literal text inside double quotes: only `\\$ \\` \\" \\\\ \\newline` are escapes."""
    if "\\" not in text:
        return text
    return _DQ_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


_BACKQUOTE_ESCAPE = re.compile(r"\\([$`\\\n])")


def unescape_backquoted(text: str, *, quoted: bool) -> str:
    r"""The body of a `` `...` `` substitution as bash parses it: `\$`, `` \` ``, `\\` lose
    their backslash and `\<newline>` is removed, left to right; directly inside double
    quotes `\"` loses its backslash too, as `unquote_double` reads it (reviews BX3, BX7)."""
    if quoted:
        return unquote_double(text)
    return _BACKQUOTE_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


def unquote_bare(text: str) -> list[tuple[str, bool]]:
    """Split unquoted text into (piece, quoted) pieces; a backslash quotes the next char.

    A backslash-newline is a line continuation and vanishes; a trailing lone backslash
    stays literal.
    """
    pieces: list[tuple[str, bool]] = []
    start = 0
    index = text.find("\\")
    while index != -1:
        if index > start:
            pieces.append((text[start:index], False))
        if index + 1 >= len(text):
            pieces.append(("\\", True))
            return pieces
        escaped = text[index + 1]
        if escaped != "\n":
            pieces.append((escaped, True))
        start = index + 2
        index = text.find("\\", start)
    if start < len(text):
        pieces.append((text[start:], False))
    return pieces


_EXTGLOB = re.compile(r"[?*+@!]\(")


_BRACE_SCANS: Final = 16  # `{` a word may open before it is taken to expand unseen


def _brace_expands(unquoted: str) -> bool:
    """Whether some unquoted `{` opens a brace expansion, as bash's `brace_gobbler` finds
    its end: the first `}` at its own level after a `,` (or `..`). A `}` before the first
    comma does not close it (review BX8: `cat {x},.env}` reads `x}` and `.env`)."""
    if "{" not in unquoted or "}" not in unquoted or ("," not in unquoted and ".." not in unquoted):
        return False
    opens = [i for i, c in enumerate(unquoted) if c == "{"]
    if len(opens) > _BRACE_SCANS:
        return True  # (generous: never read as literal what may expand)
    for start in opens:
        level = commas = 0
        for index in range(start + 1, len(unquoted)):
            char = unquoted[index]
            if char == "{":
                level += 1
            elif char == "}":
                if level == 0 and commas:
                    return True
                level = max(level - 1, 0)
            elif level == 0 and (char == "," or unquoted.startswith("..", index)):
                commas += 1
    return False


def pattern_kinds(pieces: list[tuple[str, bool]]) -> list[ExpansionKind]:
    """The pattern expansions bash would apply to a word made of these pieces.

    Only unquoted characters are special. The check is deliberately generous: when in
    doubt the word is reported as a pattern (non-literal), never the other way round.
    """
    unquoted_only = "".join(p if not q else "\x01" * len(p) for p, q in pieces)
    value = "".join(p for p, _ in pieces)
    kinds: list[ExpansionKind] = []
    if _EXTGLOB.search(unquoted_only):
        kinds.append(ExpansionKind.EXTGLOB)
    star = "*" in unquoted_only or "?" in unquoted_only
    bracket = unquoted_only.find("[")
    if star or (bracket != -1 and "]" in value[bracket + 1 :]):
        kinds.append(ExpansionKind.GLOB)
    if _brace_expands(unquoted_only):
        kinds.append(ExpansionKind.BRACE)
    if unquoted_only.startswith("~") or "=~" in unquoted_only or ":~" in unquoted_only:
        kinds.append(ExpansionKind.TILDE)
    return kinds
