"""Digits glued to the word before a redirect are the end of that word for bash, not a
descriptor: `cat \\ 2>&1` runs `cat ' 2'` with `>&1` (found by the argv oracle,
tests/properties/test_argv_differential.py). tree-sitter drops the escape and reads a
descriptor, so the line is reported, never read as `cat 2>&1`."""

from __future__ import annotations

import pytest

from policylang.shell.parse import parse_command


@pytest.mark.parametrize("text", ["cat \\ 2>&1", "grep \\ 2>/dev/null", "echo * \\ 2>&-"])
def test_digits_glued_to_a_word_are_reported(text: str) -> None:
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize("text", ["ls 2>&1", "cmd 0<&3", "ls 1>x 2>&1", "(ls)2>x", "ls;2>x"])
def test_descriptors_after_a_break_are_descriptors(text: str) -> None:
    assert parse_command(text).problems == ()
