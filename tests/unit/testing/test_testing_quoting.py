from __future__ import annotations

import pytest

from policylang.testing import quoting
from policylang.testing.quoting import Style


@pytest.mark.parametrize(
    ("value", "style", "expected"),
    [
        ("abc", Style.PLAIN, "abc"),
        ("it's", Style.SINGLE, "'it'\\''s'"),
        ('a"$`\\b', Style.DOUBLE, '"a\\"\\$\\`\\\\b"'),
        ("hi!", Style.DOUBLE, '"hi"\'!\''),
        ("a\nb", Style.ANSI_C, "$'a\\nb'"),
        ("\x01'", Style.ANSI_C, "$'\\x01\\''"),
        ("ré", Style.ANSI_C_HEX, "$'\\x72\\xc3\\xa9'"),
        ("a b;c", Style.BACKSLASH, "a\\ b\\;c"),
        ("a\nb", Style.BACKSLASH, "a'\n'b"),
        ("", Style.BACKSLASH, "''"),
        ("rm", Style.BACKSLASH_ALL, "\\r\\m"),
        ("", Style.SINGLE, "''"),
    ],
)
def test_spell(value: str, style: Style, expected: str) -> None:
    assert quoting.spell(value, style) == expected


@pytest.mark.parametrize("value", ["", "a b", "~", "a=b", "*", "#x", "{a,b}", "!x", "$X"])
def test_plain_refuses_values_that_need_quoting(value: str) -> None:
    assert not quoting.can_spell_plain(value)
    with pytest.raises(ValueError, match="cannot be spelled without quotes"):
        quoting.plain(value)


def test_plain_accepts_non_ascii_letters() -> None:
    assert quoting.plain("héllo-1.txt") == "héllo-1.txt"


def test_nul_is_refused() -> None:
    with pytest.raises(ValueError, match="NUL"):
        quoting.single_quoted("a\x00b")


def test_spellings_are_distinct_and_start_plain_when_possible() -> None:
    spellings = quoting.spellings("ls")
    assert spellings[0] == "ls"
    assert len(set(spellings)) == len(spellings) >= 5
    assert "ls" not in quoting.spellings("a b")


def test_concatenated_joins_chunks_and_falls_back_from_plain() -> None:
    chunks = [("a", Style.PLAIN), (" b", Style.PLAIN), ("'", Style.DOUBLE), ("", Style.BACKSLASH)]
    assert quoting.concatenated(chunks) == "a\\ b\"'\""
    assert quoting.concatenated([]) == "''"


def test_shell_join_quotes_only_when_needed() -> None:
    assert quoting.shell_join(["echo", "a b", "x"]) == "echo 'a b' x"


def test_locale_quoting_falls_back_for_history_characters() -> None:
    assert quoting.spell("a b$", Style.LOCALE) == '$"a b\\$"'
    assert quoting.spell("x!", Style.LOCALE) == "\"x\"'!'"
    assert quoting.spell("", Style.LOCALE) == '""'
