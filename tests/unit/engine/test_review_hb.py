"""Review HB: the npm family's verb rules behind a verb prefix, `--`, and pnpm's hooks file
named by a user `.npmrc`.

HB1: `pnpm recursive why x` was offered `pnpm recursive` (`pnpm m`, `pnpm multi`), which
approved `pnpm recursive publish` (pack, version, config set): the locked rules read the
first operand, `recursive`. HB2: the same for `yarn workspace NAME VERB` and `yarn
workspaces foreach OPTS VERB`. HB3: `npm -- pac`, `npm -- publis`: npm reads the word
after `--` as its verb, abbreviated too. HB4: `pnpmfile[]=hooks.cjs` and
`"pnpmfile"=hooks.cjs` in a user `.npmrc` escaped the relative-pnpmfile check. HB5: a user
`.npmrc` naming the workspace's hooks file by an absolute path was allowed under `pnpm why`.

npm, pnpm 10 and yarn 1 (`scripts/real-tools.sh`, realrun.REAL_BIN) run for real where
present; the engine's verdicts are asserted always.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import REAL_BIN, YARN1, canary_workspace, decide, program_printed

from policylang import Verdict

_NPM = shutil.which("npm")
_PNPM_BIN = str(REAL_BIN)
_PNPM = os.path.join(_PNPM_BIN, "pnpm")
_YARN1 = str(YARN1)
_NODE = shutil.which("node")
needs_npm = pytest.mark.skipif(_NPM is None, reason="npm is not installed")
needs_pnpm = pytest.mark.skipif(not os.access(_PNPM, os.X_OK), reason="pnpm is not installed")
needs_yarn1 = pytest.mark.skipif(
    _NODE is None or not os.path.exists(_YARN1), reason="yarn 1 is not installed"
)
_CANARY = "SECRET=canaryHB\n"


def _workspaces(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A pnpm and yarn workspace of one package `a`, each holding `.env`."""
    return canary_workspace(
        tmp_path, _CANARY,
        {"package.json": '{"name": "root", "version": "1.0.0", "private": true, '
                         '"workspaces": ["a"]}',
         "pnpm-workspace.yaml": "packages:\n  - a\n",
         "a/package.json": '{"name": "a", "version": "1.0.0"}',
         "a/.env": _CANARY},
    )  # fmt: skip


def _run_env(env: dict[str, str], **more: str) -> dict[str, str]:
    path = f"{_PNPM_BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {**env, "PATH": path, **more}


def _tar_lists(tarball: Path) -> list[str]:
    done = subprocess.run(
        ["tar", "-tzf", str(tarball)], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


# HB1 and HB2: the verb after pnpm's `recursive` and yarn's workspace prefixes
@needs_pnpm
def test_hb1_pnpm_recursive_pack_puts_dotenv_in_the_tarball(tmp_path: Path) -> None:
    workspace, env = _workspaces(tmp_path)
    program_printed([_PNPM, "recursive", "pack"], workspace, _run_env(env))
    assert "package/.env" in _tar_lists(workspace / "a-1.0.0.tgz")


@needs_yarn1
def test_hb2_yarn_workspace_pack_puts_dotenv_in_the_tarball(tmp_path: Path) -> None:
    workspace, env = _workspaces(tmp_path)
    program_printed([str(_NODE), _YARN1, "workspace", "a", "pack"], workspace, _run_env(env))
    assert "package/.env" in _tar_lists(workspace / "a" / "a-v1.0.0.tgz")


@pytest.mark.parametrize(
    ("line", "approvals"),
    [
        ("pnpm recursive publish", ("pnpm recursive", "pnpm recursive publish", "pnpm")),
        ("pnpm recursive pack", ("pnpm recursive",)),
        ("pnpm recursive version patch", ("pnpm recursive",)),
        ("pnpm recursive config set x y", ("pnpm recursive",)),
        ("pnpm recursive set x y", ("pnpm recursive",)),
        ("pnpm recursive add -g x", ("pnpm recursive", "pnpm recursive add")),
        ("pnpm m publish", ("pnpm m",)),
        ("pnpm multi pack", ("pnpm multi",)),
        ("pnpm --silent recursive publish", ("pnpm",)),
        # (`pnpm recursive exec` is a runner, as `pnpm exec` is: its approval is not one
        # of the command it runs)
        ("pnpm recursive exec npm publish", ("pnpm", "pnpm recursive")),
        ("pnpm m exec npm pack", ("pnpm", "pnpm m")),
        ("yarn workspace a publish --new-version 1.0.2 --non-interactive", ("yarn workspace",)),
        ("yarn workspace a npm publish", ("yarn workspace", "yarn workspace a npm")),
        ("yarn workspace a pack", ("yarn workspace",)),
        ("yarn workspace a version --new-version 2.0.0", ("yarn workspace",)),
        ("yarn workspace a config set registry http://evil", ("yarn workspace",)),
        ("yarn workspace a set version ./x.cjs", ("yarn workspace",)),
        ("yarn workspaces foreach --all npm publish", ("yarn workspaces",)),
        ("yarn workspaces foreach -A npm publish", ("yarn workspaces",)),
        ("yarn workspaces foreach pack", ("yarn workspaces", "yarn workspaces foreach")),
    ],
)
def test_hb1_hb2_the_verb_after_the_prefix_is_judged(
    tmp_path: Path, line: str, approvals: tuple[str, ...]
) -> None:
    workspace, env = _workspaces(tmp_path)
    for approval in approvals:
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, approval)


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("pnpm recursive why x", "pnpm recursive why"),
        ("pnpm m why x", "pnpm m why"),
        ("pnpm multi ls", "pnpm multi ls"),
        ("pnpm recursive run build", "pnpm recursive run build"),
        ("yarn workspace a why x", "yarn workspace a why"),
        ("yarn workspace a info", "yarn workspace a info"),
        ("yarn workspace a run build", "yarn workspace a run build"),
        ("yarn workspaces foreach run build", "yarn workspaces foreach run build"),
    ],
)
def test_hb1_hb2_offered_with_the_verb(tmp_path: Path, line: str, offer: str) -> None:
    workspace, env = _workspaces(tmp_path)
    found = decide(line, workspace, env)
    assert found.suggested_rule == offer, line
    assert decide(line, workspace, env, offer).verdict is Verdict.ALLOW, line


@pytest.mark.parametrize(
    "line",
    ["pnpm recursive publish", "pnpm m pack", "yarn workspace a publish",
     "yarn workspace a npm publish", "yarn workspaces foreach npm publish"],
)  # fmt: skip
def test_hb1_hb2_packing_behind_a_prefix_is_offered_nothing(tmp_path: Path, line: str) -> None:
    workspace, env = _workspaces(tmp_path)
    found = decide(line, workspace, env)
    assert found.verdict is Verdict.ASK
    assert found.suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("pnpm recursive why x", "pnpm recursive"),
        ("pnpm recursive install", "pnpm recursive"),
        ("yarn workspace a why x", "yarn workspace"),
        ("yarn workspace a add lodash", "yarn workspace"),
        ("yarn workspace a run build", "yarn workspace"),
    ],
)
def test_hb1_hb2_everyday_lines_stay_approved(tmp_path: Path, line: str, approval: str) -> None:
    workspace, env = _workspaces(tmp_path)
    assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW, line


def test_hb2_an_approved_read_only_workspace_verb_judges_the_launchers(tmp_path: Path) -> None:
    # (`yarn workspace a why` is no approval of running the project's code: a `yarnPath`
    # of the repository's asks under it, as under `yarn why`)
    workspace, env = _workspaces(tmp_path)
    (workspace / ".yarnrc.yml").write_text("yarnPath: ./evil.cjs\n")
    approval = "yarn workspace a why"
    assert decide("yarn workspace a why x", workspace, env, approval).verdict is Verdict.ASK


# HB3: npm reads the word after `--` as its verb
@needs_npm
def test_hb3_npm_reads_its_verb_after_the_double_dash(tmp_path: Path) -> None:
    workspace, env = canary_workspace(
        tmp_path, _CANARY, {"package.json": '{"name": "app", "version": "1.0.0"}'}
    )
    program_printed([str(_NPM), "--", "pac"], workspace, _run_env(env))
    assert "package/.env" in _tar_lists(workspace / "app-1.0.0.tgz")


@pytest.mark.parametrize(
    "line",
    ["npm -- pac", "npm -- pa", "npm -- publis", "npm -- pu",
     "npm -- confi set script-shell ./x", "npm -- con set script-shell ./x",
     "npm -- audi fix", "npm --json -- audi fix", "npm -- versio patch",
     "npm -- verison patch", "npm --loglevel silent -- pac"],
)  # fmt: skip
def test_hb3_a_verb_after_the_double_dash_is_judged(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, _CANARY)
    for approval in ("npm", "npm **"):
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, approval)


def test_hb3_everyday_double_dash_lines_stay_approved(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, _CANARY)
    assert decide("npm run test -- --watch", workspace, env, "npm run test").verdict is (
        Verdict.ALLOW
    )
    assert decide("npm -- ls", workspace, env, "npm").verdict is Verdict.ALLOW


# HB4 and HB5: pnpm's hooks file named by a user `.npmrc`
def _pnpm_workspace(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    hooks = (
        "require('fs').writeFileSync(__dirname + '/ran.txt', 'RAN');"
        "module.exports = {hooks: {}}\n"
    )
    workspace, env = canary_workspace(
        tmp_path, _CANARY,
        {"package.json": '{"name": "root", "version": "1.0.0"}',
         "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
         "packages/a/package.json": '{"name": "a", "version": "1.0.0"}',
         "hooks.cjs": hooks},
    )  # fmt: skip
    return workspace, env, workspace / "packages" / "a"


def _npmrc_lines(tmp_path: Path) -> list[str]:
    workspace = tmp_path / "ws"
    return [
        "pnpmfile[]=hooks.cjs",
        '"pnpmfile"=hooks.cjs',
        f"pnpmfile={workspace}/hooks.cjs",
        f"global-pnpmfile={workspace}/hooks.cjs",
        "pnpmfile=~/../ws/hooks.cjs",
        f"pnpmfile={workspace}/hooks",
        f'pnpmfile="{workspace}/hooks.cjs"',
        f"pnpmfile[]={workspace}/hooks.cjs",
    ]


@needs_pnpm
@pytest.mark.parametrize("index", range(5))
def test_hb4_hb5_pnpm_runs_the_hooks_file_a_user_npmrc_names(tmp_path: Path, index: int) -> None:
    workspace, env, package = _pnpm_workspace(tmp_path)
    (tmp_path / "home" / ".npmrc").write_text(_npmrc_lines(tmp_path)[index] + "\n")
    program_printed([_PNPM, "why", "x"], package, _run_env(env))
    assert (workspace / "ran.txt").exists()


@pytest.mark.parametrize("index", range(8))
def test_hb4_hb5_a_user_npmrc_naming_the_workspace_hooks_file_asks(
    tmp_path: Path, index: int
) -> None:
    workspace, env, package = _pnpm_workspace(tmp_path)
    (tmp_path / "home" / ".npmrc").write_text(_npmrc_lines(tmp_path)[index] + "\n")
    found = decide("pnpm why x", workspace, env, "pnpm why", cwd=package)
    assert found.verdict is Verdict.ASK, _npmrc_lines(tmp_path)[index]


def test_hb5_pnpm_rc_naming_the_workspace_hooks_file_asks(tmp_path: Path) -> None:
    workspace, env, package = _pnpm_workspace(tmp_path)
    rc = tmp_path / "home" / ".config" / "pnpm" / "rc"
    rc.parent.mkdir(parents=True)
    rc.write_text(f"pnpmfile={workspace}/hooks.cjs\n")
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=package).verdict is Verdict.ASK


def test_hb5_a_hooks_file_outside_the_workspace_stays_approved(tmp_path: Path) -> None:
    workspace, env, package = _pnpm_workspace(tmp_path)
    (tmp_path / "elsewhere.cjs").write_text("module.exports = {}\n")
    (tmp_path / "home" / ".npmrc").write_text(
        f"pnpmfile[]={tmp_path}/elsewhere.cjs\n; pnpmfile=hooks.cjs\n"
    )
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=package).verdict is Verdict.ALLOW
