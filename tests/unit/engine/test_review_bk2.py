"""Review BK2: GNU sed does not end a regex at a delimiter inside a bracket expression, so
`s/[/]/;/e` is the regex `[/]`, the replacement `;` and the flag `e`, which runs the
pattern space with sh. The sed-script check ended the regex at the first `/` and passed
the `/e` left over as an unterminated address: each line below was allowed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.engine.policy import Policy


def _gnu_sed() -> bool:
    if shutil.which("sed") is None or shutil.which("sh") is None:
        return False
    shown = subprocess.run(["sed", "--version"], capture_output=True, text=True, check=False)
    return "GNU sed" in shown.stdout


needs_gnu_sed = pytest.mark.skipif(not _gnu_sed(), reason="needs GNU sed and sh")


@pytest.mark.parametrize(
    "command",
    [
        "echo 'touch pwned/' | sed 's/[/]/;/e'",
        "echo a/b | sed 's/[/]/;/w pwned_w.txt'",
        "sed 's/[/]/;/w out' README.md",
        "sed 's/[^/]/;/w out' README.md",
        "sed 's/[]/]/;/w out' README.md",
        "sed 's/[[:alpha:]/]/;/w out' README.md",
        "sed 's/[/]/}/w out' README.md",
        "sed 's/[/]/}/e' README.md",
        "sed 's/[^/]/;/e' README.md",
        "sed 's/[/]/;/gw out' README.md",
        "sed -n 's/[/]/;/pe' README.md",
        "sed -e p -e 's/[/]/;/e' README.md",
        "sed 's|[|]|;|e' README.md",
        # what the check cannot read to its end is not allowed either
        "sed -n '/abc' README.md",
        "sed -n '/[/' README.md",
        "sed -n '\\' README.md",
        "sed 's/a/b/x' README.md",
    ],
)
def test_sed_regex_brackets_do_not_hide_commands(
    default_policy: Policy, tmp_path: Path, command: str
) -> None:
    verdict = default_policy.evaluate(command, workspace=str(tmp_path)).verdict
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "sed -n '1,5p' f",
        "sed -n '/[a-z]/p' f",
        "sed -n 's/[/]/x/p' f",
        "sed -n '/^#/!p' f",
        "sed 's/a\\/b/c/' f",
        "sed 's/[[:space:]]*$//' f",
        "sed 's/[]]/x/g' f",
        "sed 's/a/[/' f",
        "sed 'y/[]/()/' f",
        "sed -n '/[/]/,/end/p' f",  # asked before: the check read `]` as a command
        "sed 's/x/y/ # note' f",  # asked before: the `e` of the comment was a flag
    ],
)
def test_everyday_sed_scripts_stay_allowed(
    default_policy: Policy, tmp_path: Path, command: str
) -> None:
    assert default_policy.evaluate(command, workspace=str(tmp_path)).verdict is Verdict.ALLOW


@needs_gnu_sed
@pytest.mark.parametrize(
    ("script", "stdin", "made"),
    [
        ("s/[/]/;/e", "touch pwned/\n", "pwned"),  # sh runs `touch pwned;`
        ("s/[/]/;/w pwned_w.txt", "a/b\n", "pwned_w.txt"),
    ],
)
def test_gnu_sed_reads_a_bracket_expression_whole(
    tmp_path: Path, script: str, stdin: str, made: str
) -> None:
    subprocess.run(
        ["sed", script], input=stdin, text=True, cwd=tmp_path, capture_output=True, timeout=20
    )
    assert (tmp_path / made).exists()
