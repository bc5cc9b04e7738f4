from __future__ import annotations

from pathlib import Path

import pytest

from policylang.testing import bashcheck

pytestmark = pytest.mark.skipif(not bashcheck.bash_available(), reason="needs bash on PATH")


def test_syntax_ok_in_one_batch() -> None:
    texts = ["ls -l", "echo 'unclosed", "ls !(x)", "if true; then :; fi", "done", ""]
    assert bashcheck.syntax_ok(texts) == (True, False, True, True, False, True)
    assert bashcheck.syntax_ok([]) == ()


def test_printf_words_reports_the_argv_bash_builds() -> None:
    texts = ["'a b' c", "$'\\u00e9'", "\\r\\m", "'unclosed", '"$(echo x)"', "\"\\$HOME\""]
    assert bashcheck.printf_words(texts) == (
        ("a b", "c"), ("é",), ("rm",), None, ("x",), ("$HOME",))
    assert bashcheck.printf_words([]) == ()


def test_printf_samples_cannot_write_files(tmp_path: Path) -> None:
    target = tmp_path / "written"
    assert bashcheck.printf_words([f"x > {target}"]) == (None,)
    assert not target.exists()
