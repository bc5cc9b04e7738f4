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


def test_printf_samples_cannot_run_programs(tmp_path: Path) -> None:
    """Corpus text smuggles operators and substitutions; none may reach a program.

    A sample like `x; rm -rf ~` runs as root in CI: only builtins may execute.
    """
    canaries = [tmp_path / f"c{i}" for i in range(5)]
    smuggled = [
        f"x; touch {canaries[0]}",
        f"\"$(touch {canaries[1]})\"",
        f"x && command -p touch {canaries[2]}",
        f"x | mkdir {canaries[3]}",
        f"`mkdir {canaries[4]}`",
    ]
    bashcheck.printf_words(smuggled)
    assert [c.exists() for c in canaries] == [False] * 5
    # kill is disabled: a sample cannot signal other processes (pid 0 = its own group)
    assert bashcheck.printf_words(["x; kill -0 0 && printf ok"]) == (None,)
