"""Quoting helpers: ANSI-C decoding, double-quote escapes, pattern detection."""

from __future__ import annotations

import pytest

from policylang.shell.model import ExpansionKind as K
from policylang.shell.quoting import (
    LocaleDependent,
    decode_ansi_c,
    pattern_kinds,
    unquote_bare,
    unquote_double,
)


@pytest.mark.parametrize(
    ("body", "value"),
    [
        ("\\x72\\x6d", "rm"),
        ("\\162\\155", "rm"),
        ("\\xc3\\xa9", "é"),  # bytes, as bash passes them
        ("\\303\\251", "é"),
        ("\\xc3", "\udcc3"),  # a byte that is no UTF-8: a surrogate escape
        ("\\u0041", "A"),
        ("\\a\\b\\e\\E\\f\\n\\r\\t\\v", "\a\b\x1b\x1b\f\n\r\t\v"),
        ("\\\\\\'\\\"\\?", "\\'\"?"),
        ("\\ca\\cZ\\c?", "\x01\x1a\x7f"),
        ("\\q", "\\q"),
        ("\\x", "\\x"),
        ("a\\0b", "a"),
        ("plain", "plain"),
    ],
)
def test_decode_ansi_c(body: str, value: str) -> None:
    assert decode_ansi_c(body) == value


@pytest.mark.parametrize("body", ["\\u00e9", "\\U0001F600", "\\UFFFFFFFF", "a\\u0080"])
def test_unicode_escapes_beyond_ascii_depend_on_the_locale(body: str) -> None:
    with pytest.raises(LocaleDependent):
        decode_ansi_c(body)


def test_unquote_double() -> None:
    assert unquote_double('a\\$b\\`c\\"d\\\\e\\\nf\\g') == 'a$b`c"d\\ef\\g'


def test_unquote_bare() -> None:
    assert unquote_bare("a\\ b") == [("a", False), (" ", True), ("b", False)]
    assert unquote_bare("a\\\nb") == [("a", False), ("b", False)]
    assert unquote_bare("a\\") == [("a", False), ("\\", True)]


@pytest.mark.parametrize(
    ("pieces", "kinds"),
    [
        ([("a*", False)], [K.GLOB]),
        ([("a", False), ("*", True)], []),
        ([("[ab]", False)], [K.GLOB]),
        ([("[", False)], []),
        ([("{a,b}", False)], [K.BRACE]),
        ([("{", False), ("a,b", True), ("}", False)], []),  # a quoted comma: `{"a,b"}` stays
        ([("{}", False)], []),
        ([("{x}{a,b}", False)], [K.BRACE]),
        ([("~/x", False)], [K.TILDE]),
        ([("x=~", False)], [K.TILDE]),
        ([("~", True)], []),
        ([("!(a)", False)], [K.EXTGLOB]),
        ([("@(a|b)", False)], [K.EXTGLOB]),
    ],
)
def test_pattern_kinds(pieces: list[tuple[str, bool]], kinds: list[K]) -> None:
    assert pattern_kinds(pieces) == kinds


BRACED_HEX = ["\\x{2e}env", "\\x{12e}env", "\\x{2e", "\\x{2eZZ}env", "\\x{}abc", "\\x{61",
              "\\x{0041}B", "\\x{ffffffff41}x", "a\\x{2f}b", "\\x{7A}\\x41", "\\x{g}"]


@pytest.mark.parametrize("body", BRACED_HEX)
def test_braced_hex_escapes_decode_as_bash_decodes_them(body: str) -> None:
    """review AZ1: `$'\\x{2e}env'` is `.env` to bash; the engine read `\\x{2e}env`, and
    `cat $'\\x{2e}env'` was allowed. Compared with the bash on this machine."""
    import subprocess

    shown = subprocess.run(
        ["bash", "-c", f"printf '%s' $'{body}'"], capture_output=True, check=True
    ).stdout
    assert decode_ansi_c(body).encode("utf-8", "surrogateescape") == shown


@pytest.mark.parametrize(
    ("text", "quoted", "body"),
    [
        ("cat \\\".env\\\"", True, 'cat ".env"'),  # inside "…": `\"` loses its backslash
        ("cat \\\".env\\\"", False, 'cat \\".env\\"'),
        ("cat '.en\\\nv' \\$x \\\\", False, "cat '.env' $x \\"),
        ("echo \\`id\\`", True, "echo `id`"),
    ],
)
def test_a_backquoted_body_is_unescaped_as_bash_reads_it(
    text: str, quoted: bool, body: str
) -> None:
    from policylang.shell.quoting import unescape_backquoted

    assert unescape_backquoted(text, quoted=quoted) == body
