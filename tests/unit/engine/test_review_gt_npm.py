"""Review GT1, GT2: `npm diff` packs the project and the folders its `--diff` specs name,
and prints every file it packs.

GT1: the spec `x@.evil` is a folder to npm (npm-package-arg reads a spec starting with `.`
as a file spec): npm packs it, running its `prepare`, which the GO2 check took for a
registry version. GT2: the project itself is packed whatever its `prepare`: `.env` is
printed, and a bundled dependency's committed link (`node_modules/evil -> ~/.ssh`) prints
the files it leads to. `npm diff` is now a locked ask in every spelling, offered nothing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_NPM = shutil.which("npm")
needs_npm = pytest.mark.skipif(_NPM is None, reason="npm is not installed")
_PACKAGE = (
    '{"name": "app", "version": "1.0.0", "dependencies": {"evil": "*"},'
    ' "bundleDependencies": ["evil"]}'
)
_EVIL = '{"name": "x", "version": "9.9.9", "scripts": {"prepare": "echo RAN > ../ran.txt"}}'


def _bundled_link(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A project with `.env`, a dot-folder `.evil` whose `prepare` writes `ran.txt`, and a
    bundled dependency `node_modules/evil` linked to the fake home's `.ssh`."""
    workspace, env = canary_workspace(
        tmp_path, "SECRET=canaryGT\n",
        {"package.json": _PACKAGE, ".evil/package.json": _EVIL},
        home={".ssh/id_rsa": "SSHCANARY\n"},
    )  # fmt: skip
    (workspace / "node_modules").mkdir()
    (workspace / "node_modules" / "evil").symlink_to(tmp_path / "home" / ".ssh")
    return workspace, env


@needs_npm
def test_gt_npm_diff_prints_the_packed_secrets(tmp_path: Path) -> None:
    workspace, env = _bundled_link(tmp_path)
    run = [str(_NPM), "diff", "--diff=x@.evil", "--diff=x@.", "--offline"]
    printed = program_printed(run, workspace, {**env, "PATH": os.environ.get("PATH", "")})
    assert "canaryGT" in printed  # (`.env`, packed with the project)
    assert "SSHCANARY" in printed  # (through the bundled link)
    assert (workspace / "ran.txt").exists()  # (`.evil`'s `prepare` ran)
    for line in ("npm diff --diff=x@.evil --diff=x@.", "npm diff"):
        decision = decide(line, workspace, env, "npm diff")
        assert decision.verdict is Verdict.ASK, line
        assert decision.suggested_rule is None, line


@pytest.mark.parametrize(
    "line",
    [
        "npm diff",
        "npm diff --diff=lodash@1 --diff=lodash@2",
        "npm diff --diff=x@.evil --diff=x@.",
        "npm diff --diff=lodash@.evil",
        "npm diff --diff=x@..",
        "npm -w x diff",
        "npm --json diff",
        "npm --diff=lodash@1 diff",
        "npm dif --diff-name-only",
        "npm -- diff",
    ],
)
def test_gt_npm_diff_is_never_approved(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "SECRET=canaryGT\n", {"package.json": _PACKAGE})
    assert decide(line, workspace, env).suggested_rule is None
    for approval in ("npm diff", "npm", "npm dif", "npm pack", "npm ls"):
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, approval
