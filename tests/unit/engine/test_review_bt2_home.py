"""Review BT2, the `$HOME` spelling: `echo $HOME/.ssh/*` prints the names in `~/.ssh` as
`echo ~/.ssh/*` does (the analyser records the parameter, not the glob after it). bash
runs for real."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import run_real

from policylang import Verdict
from policylang.engine.policy import load_policy


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_work").write_text("key\n")
    (home / "project").mkdir()
    (home / "project" / "notes.txt").write_text("n\n")
    return home


def _verdict(command: str, home: Path) -> Verdict:
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    workspace = str(home / "project")
    return load_policy().evaluate(command, workspace=workspace, env=environment).verdict


@pytest.mark.parametrize(
    "command",
    [
        "echo $HOME/.ssh/*",
        'echo "$HOME"/.ssh/*',
        "echo ${HOME}/.ssh/*",
        "printf '%s\\n' $HOME/.s[s]h/*",
        "for f in $HOME/.ssh/*; do echo $f; done",
    ],
)
def test_a_glob_after_home_lists_a_protected_folder(home: Path, command: str) -> None:
    assert _verdict(command, home) is Verdict.DENY
    printed = run_real(["bash", "-c", command], home / "project", home).stdout
    assert "id_work" in printed  # what the deny is for


@pytest.mark.parametrize(
    "command", ['echo "$HOME/.ssh/*"', "echo $HOME/project/*", "ls $HOME/project/*.txt"]
)
def test_quoted_or_unprotected_globs_after_home_are_not_denied(home: Path, command: str) -> None:
    assert _verdict(command, home) is not Verdict.DENY
    assert "id_work" not in run_real(["bash", "-c", command], home / "project", home).stdout
