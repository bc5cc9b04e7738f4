"""Review Q5: Gemini CLI cuts Windows shell wrappers on every platform, bash runs the rest."""

from __future__ import annotations

import pytest

from policylang.integrations.gemini_cli import commands_run


@pytest.mark.parametrize(
    ("command", "runs"),
    [
        ("cmd.exe /c cat .env", "cat .env"),
        ("CMD.EXE /C cat .env", "cat .env"),
        ("powershell -Command cat .env", "cat .env"),
        ("PowerShell.exe -NoProfile -Command cat .env", "cat .env"),
        ('pwsh -Command "cat .env"', "cat .env"),
    ],
)
def test_windows_wrappers_are_cut_as_gemini_cuts_them(command: str, runs: str) -> None:
    assert commands_run(command) == (command, runs)
