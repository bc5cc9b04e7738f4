"""Review GQ4: a PATH that is set but empty is the working folder, not "no PATH".

bash (5.2 and 5.3) and execvp read `PATH=""` as one empty entry, the working folder:
`ls` runs the workspace's `./ls`. The engine had taken it for an absent PATH and looked
nothing up, so `ls` and `git status` were allowed. (GQ1-GQ3, bash 5.3's `${ cmd; }` in
patterns and subscripts, are in test_bash53_funsub.py.)
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from policylang import Verdict, load_policy


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    for name in ("ls", "git"):
        program = folder / name
        program.write_text("#!/bin/sh\necho RAN_LOCAL\n")
        program.chmod(0o755)
    return folder


@pytest.mark.parametrize("line", ["ls", "git status"])
def test_an_empty_path_runs_the_workspace_program(line: str, workspace: Path) -> None:
    done = subprocess.run(
        ["/bin/bash", "-c", line], cwd=workspace, env={"PATH": ""},
        capture_output=True, text=True, timeout=10, check=False,
    )
    assert "RAN_LOCAL" in done.stdout
    env = {"HOME": str(workspace.parent), "PATH": ""}
    decision = load_policy().evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert any("a file of the workspace" in r.message for r in decision.reasons)


def test_a_system_path_still_allows(workspace: Path) -> None:
    env = {"HOME": str(workspace.parent), "PATH": "/usr/bin:/bin"}
    decision = load_policy().evaluate("ls", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
