"""Fixes AV (closing-36 §4), the npm family's gaps the last session named (not the
earlier review AV of the executor).

AV1: npm, pnpm, yarn and bun take their own options before the verb (`npm --json explore
x -- sh`, `npm --loglevel silent audit fix`): the `npm VERB **` rules did not match, and a
hand-written `npm` approval lifted the general package rule. Each verb rule has a
`first-operand` twin, and npm's abbreviations are read after an option too. AV2: `npm
pack` and `npm publish` (pnpm's, yarn's, bun's) put `.env` in the tarball under their own
approvals: locked asks, offered nothing. AV3: pnpm's `dedupe` and `prune` install again,
running the project's install scripts, as npm's do (review GO3). AV4: pnpm resolves a
relative `npm_config_pnpmfile` (or a user `.npmrc`'s `pnpmfile=`) against the workspace
root, not the working folder.

npm runs for real where it is installed, pnpm 10 where `scripts/real-tools.sh` put it;
the engine's verdicts are asserted always.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import REAL_BIN, canary_workspace, decide, program_printed

from policylang import Verdict

_NPM = shutil.which("npm")
_PNPM_BIN = str(REAL_BIN)
_PNPM = os.path.join(_PNPM_BIN, "pnpm")
needs_npm = pytest.mark.skipif(_NPM is None, reason="npm is not installed")
needs_pnpm = pytest.mark.skipif(not os.access(_PNPM, os.X_OK), reason="pnpm is not installed")
_PACKAGE = '{"name": "app", "version": "1.0.0"}'


def _workspace(tmp_path: Path, package: str = _PACKAGE) -> tuple[Path, dict[str, str]]:
    return canary_workspace(tmp_path, "SECRET=canaryAV\n", {"package.json": package})


def _run_env(env: dict[str, str], **more: str) -> dict[str, str]:
    path = f"{_PNPM_BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {**env, "PATH": path, **more}


# AV1: a verb after npm's own options, each under a hand-written `npm` approval
@pytest.mark.parametrize(
    "line",
    [
        "npm --json explore x -- sh",
        "npm --json explor x -- sh",
        "npm --json audit fix",
        "npm --loglevel silent audit fix",
        "npm --loglevel=silent audi fix",
        "npm --json install -g lodash",
        "npm --json instal --global lodash",
        "npm --json uninstall -g lodash",
        "npm --json config set script-shell ./x",
        "npm --json confi set script-shell ./x",
        "npm --json set script-shell ./x",
        "npm --json version patch",
        "npm --json versio patch",
        "pnpm --silent install -g x",
        "pnpm --silent config set x y",
        "pnpm --silent version patch",
        "yarn --silent version",
        "yarn --silent set version ./x.cjs",
        "bun --silent pm trust x",
        "bun --silent build ./a.ts",
        "bun --silent repl",
    ],
)
def test_av1_a_verb_after_an_option_is_judged_as_the_verb(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    program = line.split()[0]
    for approval in (program, f"{program} **"):
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, approval)


@needs_npm
def test_av1_npm_reads_its_verb_after_an_option(tmp_path: Path) -> None:
    # (npm takes `explor` after `--json` as `explore`: the verb is not where the rule looked)
    workspace, env = _workspace(tmp_path)
    printed = program_printed([str(_NPM), "--json", "explor", "--help"], workspace, _run_env(env))
    assert "Browse an installed package" in printed
    printed = program_printed(
        [str(_NPM), "--loglevel", "silent", "audi", "--help"], workspace, _run_env(env)
    )
    assert "Run a security audit" in printed


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("npm --json install lodash", "npm"),
        ("npm --json ls", "npm"),
        ("npm version", "npm"),
        ("npm run build", "npm"),
        ("npm install x", "npm install"),
        ("pnpm --silent install lodash", "pnpm"),
    ],
)
def test_av1_everyday_lines_stay_approved(tmp_path: Path, line: str, approval: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW, line


# AV2: packing puts `.env` in the tarball
@needs_npm
def test_av2_npm_pack_puts_dotenv_in_the_tarball(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    done = subprocess.run(
        [str(_NPM), "pack", "--dry-run", "--json", "--offline"],
        cwd=workspace, env=_run_env(env), capture_output=True, text=True, check=True,
    )  # fmt: skip
    listed = [entry["path"] for entry in json.loads(done.stdout)[0]["files"]]
    assert ".env" in listed


@needs_pnpm
def test_av2_pnpm_pack_puts_dotenv_in_the_tarball(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    program_printed([_PNPM, "pack"], workspace, _run_env(env))
    listed = subprocess.run(
        ["tar", "-tzf", str(workspace / "app-1.0.0.tgz")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "package/.env" in listed.split()


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("npm pack", "npm pack"),
        ("npm pack --dry-run", "npm pack"),
        ("npm pac", "npm"),
        ("npm publish", "npm publish"),
        ("npm pu", "npm"),
        ("npm --json pack", "npm"),
        ("npm -w a publish", "npm"),
        ("pnpm pack", "pnpm pack"),
        ("pnpm publish", "pnpm publish"),
        ("pnpm -r publish", "pnpm"),
        ("yarn pack", "yarn pack"),
        ("yarn publish", "yarn publish"),
        ("yarn npm publish", "yarn npm publish"),
        ("bun publish", "bun publish"),
        ("bun pm pack", "bun pm"),
    ],
)
def test_av2_packing_is_a_locked_ask(tmp_path: Path, line: str, approval: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env, approval).verdict is Verdict.ASK, line
    assert decide(line, workspace, env).suggested_rule is None, line


# AV3: pnpm's dedupe and prune run the project's install scripts
_POSTINSTALL = (
    '{"name": "app", "version": "1.0.0", "scripts": {"postinstall": "echo RAN >> ran.txt"}}'
)


@needs_pnpm
@pytest.mark.parametrize("verb", [["dedupe", "--offline"], ["prune"]])
def test_av3_pnpm_dedupe_and_prune_run_install_scripts(tmp_path: Path, verb: list[str]) -> None:
    workspace, env = _workspace(tmp_path, _POSTINSTALL)
    program_printed([_PNPM, *verb], workspace, _run_env(env))
    assert (workspace / "ran.txt").exists()


@pytest.mark.parametrize("line", ["pnpm dedupe", "pnpm prune", "yarn dedupe"])
def test_av3_dedupe_and_prune_count_as_running_the_project(line: str) -> None:
    from policylang.engine import launchers

    words: list[str | None] = list(line.split()[1:])
    assert launchers.covers_code(line.split()[0], words, set)


# AV4: a relative hooks file is the workspace root's
def _pnpm_workspace(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    hooks = (
        "require('fs').writeFileSync(__dirname + '/ran.txt', 'RAN');"
        "module.exports = {hooks: {}}\n"
    )
    workspace, env = canary_workspace(
        tmp_path, "SECRET=canaryAV\n",
        {"package.json": '{"name": "root", "version": "1.0.0"}',
         "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
         "packages/a/package.json": '{"name": "a", "version": "1.0.0"}',
         "hooks.cjs": hooks},
    )  # fmt: skip
    return workspace, env, workspace / "packages" / "a"


@needs_pnpm
def test_av4_pnpm_finds_a_relative_hooks_file_from_the_root(tmp_path: Path) -> None:
    workspace, env, package = _pnpm_workspace(tmp_path)
    program_printed(
        [_PNPM, "why", "x"], package, _run_env(env, npm_config_pnpmfile="hooks.cjs")
    )
    assert (workspace / "ran.txt").exists()  # (the root's `hooks.cjs`, not `packages/a`'s)
    (workspace / "ran.txt").unlink()
    npmrc = tmp_path / "home" / ".npmrc"
    npmrc.write_text("pnpmfile=hooks.cjs\n")
    program_printed([_PNPM, "why", "x"], package, _run_env(env))
    assert (workspace / "ran.txt").exists()  # (a user `.npmrc` outside, read the same way)


@pytest.mark.parametrize("value", ["hooks.cjs", "./hooks.cjs", "../../hooks.cjs"])
def test_av4_a_relative_hooks_file_asks(tmp_path: Path, value: str) -> None:
    workspace, env, package = _pnpm_workspace(tmp_path)
    moved = {**env, "npm_config_pnpmfile": value}
    assert decide("pnpm why x", workspace, moved, "pnpm why", cwd=package).verdict is Verdict.ASK
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=package).verdict is Verdict.ALLOW


def test_av4_a_user_npmrc_naming_a_relative_hooks_file_asks(tmp_path: Path) -> None:
    workspace, env, package = _pnpm_workspace(tmp_path)
    (tmp_path / "home" / ".npmrc").write_text("pnpmfile=hooks.cjs\n")
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=package).verdict is Verdict.ASK
    (tmp_path / "home" / ".npmrc").write_text(f"pnpmfile={tmp_path}/elsewhere.cjs\n")
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=package).verdict is Verdict.ALLOW
