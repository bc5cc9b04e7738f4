"""Found by the argv oracle's compound vocabulary: a word of `unset`/`export` glued to a
redirect after it is read by bash as part of the redirect. `unset {PATH}>/dev/null; ls`
assigns PATH a descriptor number (so `ls` runs `./11/ls`: review BU2's class) and was
allowed; `unset 0<&-` closes standard input. bash runs for real."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from realrun import run_real

from policylang import Verdict
from policylang.engine.policy import load_policy


def _verdict(line: str, workspace: Path) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return load_policy().evaluate(line, workspace=str(workspace), env=environment).verdict


def _path_after(line: str, workspace: Path) -> str:
    """What PATH holds in a real bash after the line's first part (before its last `;`)."""
    shown = line.rsplit(";", 1)[0] + '; echo "PATH=$PATH"'
    return run_real(["bash", "-c", shown], workspace).stdout.splitlines()[-1]


@pytest.mark.parametrize(
    "line", ["unset {PATH}>/dev/null; ls", "unset\t{PATH}</dev/null; ls", "unset x {PATH}>&2; ls"]
)
def test_a_variable_redirect_of_unset_assigns_its_name_and_asks(
    workspace: Path, line: str
) -> None:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    decision = load_policy().evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is not Verdict.ALLOW
    assert any("assigns `PATH` a file descriptor" in r.message for r in decision.reasons)
    assert re.fullmatch(r"PATH=[0-9]+", _path_after(line, workspace))


@pytest.mark.parametrize("line", ["unset x{PATH}>/dev/null; ls", "unset {x} >/dev/null; ls"])
def test_a_brace_word_that_is_no_variable_redirect_stays_allowed(
    workspace: Path, line: str
) -> None:
    verdict = _verdict(line, workspace)
    assert verdict is Verdict.ALLOW
    assert _path_after(line, workspace) == "PATH=" + os.environ.get("PATH", "/usr/bin:/bin")


@pytest.mark.parametrize(
    "line",
    [
        "echo a \\\n{PATH}>/dev/null; ls",
        ": \\\n\\\n{PATH}>/dev/null; ls",
        "unset \\\n{PATH}</dev/null",
    ],
)
def test_a_variable_redirect_after_a_line_continuation_assigns_its_name(
    workspace: Path, line: str
) -> None:
    # found by the argv oracle: bash removes `\⏎` before it splits words, so `{PATH}`
    # starts a word after the blank before the backslash
    verdict = _verdict(line, workspace)
    assert verdict is not Verdict.ALLOW
    assert re.fullmatch(r"PATH=[0-9]+", _path_after(line, workspace))


def test_a_brace_word_glued_across_a_line_continuation_is_an_argument(workspace: Path) -> None:
    line = "echo a\\\n{PATH}>/dev/null; ls"  # bash reads the one word `a{PATH}`
    verdict = _verdict(line, workspace)
    assert verdict is Verdict.ALLOW
    assert _path_after(line, workspace) == "PATH=" + os.environ.get("PATH", "/usr/bin:/bin")
