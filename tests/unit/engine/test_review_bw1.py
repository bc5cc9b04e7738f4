"""Review BW1: `{NAME}>` right after a closing `>&-` / `<&-` still assigns NAME (bash
reads the `-` as a token of its own, so a word starts at the `{`): `: >&-{PATH}>/dev/null;
ls` ran `./12/ls` under an allow. bash runs for real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from realrun import run_real

from policylang import Verdict
from policylang.engine.policy import load_policy
from policylang.shell.parse import parse_command


@pytest.mark.parametrize(
    "line",
    [
        ": >&-{PATH}>/dev/null; ls",
        ": <&-{PATH}</dev/null; ls",
        "true 2>&-{PATH}>/dev/null && ls",
        "echo x >&-{PATH}>/dev/null; ls",
    ],
)
def test_a_variable_redirect_after_a_closing_one_assigns_its_name(
    workspace: Path, line: str
) -> None:
    (first, *_rest) = parse_command(line).segments
    assert [a.name for a in first.assignments] == ["PATH"]
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    verdict = load_policy().evaluate(line, workspace=str(workspace), env=environment).verdict
    assert verdict is not Verdict.ALLOW
    shown = line.rsplit(";", 1)[0].rsplit("&&", 1)[0] + '; echo "PATH=$PATH"'
    # bash assigned PATH a descriptor number
    assert re.fullmatch(r"PATH=[0-9]+", run_real(["bash", "-c", shown], workspace).stdout.strip())


@pytest.mark.parametrize("line", ["echo x{PATH}>/dev/null", "echo \\ {PATH}>f", ": >&- x"])
def test_a_brace_word_glued_to_text_is_an_argument(line: str) -> None:
    assert parse_command(line).segments[0].assignments == ()
