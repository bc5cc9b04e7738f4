"""Byte-level scanning helpers: escapes, comment starts, dropped text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policylang.shell import _scan


@pytest.mark.parametrize(
    ("text", "offset", "comment"),
    [
        (b"#x", 0, True),
        (b"a #x", 2, True),
        (b"a;#x", 2, True),
        (b"a#x", 1, False),
        (b"a\\ #x", 3, False),  # the blank is escaped: `#` is inside the word ` #x`
        (b"a\\\\ #x", 4, True),  # an escaped backslash, then a real blank
        (b"a \\\n#x", 4, True),  # a line continuation after a blank
        (b"a\\\n#x", 3, False),  # a line continuation inside a word
        (b'""#x', 2, False),
    ],
)
def test_starts_bash_comment(text: bytes, offset: int, comment: bool) -> None:
    assert _scan.starts_bash_comment(text, offset) is comment


def test_escape_runs() -> None:
    data = b"a\\ \\tb \\x"
    assert _scan.escaped_run(data, 1, len(data)) == 5
    assert _scan.escapes_only(data, 1, 5)
    assert not _scan.escapes_only(data, 1, 6)
    assert _scan.escape_words(b" \\  \\x ", 0, 7) == [(1, 3), (4, 6)]
    assert _scan.escape_words(b" \\  >f ", 0, 7) == []
    assert _scan.escaped_prefix(b"a \\ b", 1, 4) == 2


@pytest.mark.parametrize(
    ("gap", "dropped"),
    [
        (b"  ", False),
        (b" \\\n ", False),
        (b" \\  ", False),  # an escaped blank on the same line: words() recovers it
        (b"\n\\ ", True),  # after a newline it is a command of its own
        (b" - ", True),
        (b"\r\n", True),  # bash reads the carriage return as a character
    ],
)
def test_dropped(gap: bytes, dropped: bool) -> None:
    assert _scan.dropped(gap, 0, len(gap)) is dropped


def test_raw_newline_and_escaped() -> None:
    assert _scan.raw_newline(b"a\nb", 0, 3)
    assert not _scan.raw_newline(b"a\\\nb", 0, 4)
    assert _scan.escaped(b"\\x", 1)
    assert not _scan.escaped(b"\\\\x", 2)


@given(st.binary(max_size=8), st.integers(-12, 12), st.integers(-12, 12))
def test_cut_is_python_slicing(data: bytes, start: int, stop: int) -> None:
    # `cut` stands in for `data[start:stop]` where mypyc's bytes slice raises (a start
    # past the stop); in both builds it must give what Python's slice gives
    assert _scan.cut(data, start, stop) == data[start:stop]
