"""Review AK, two gaps of the npm-family launcher check (review GK6).

AK1: pnpm 9 and 10 read their settings from `pnpm-workspace.yaml` too (`registry`,
`httpsProxy`, `strictSsl`, `scriptShell`, `configDependencies` …): a committed one sent an
approved `pnpm why` where the repository chose; beyond its packages, catalogs and the
harmless `.npmrc` keys, such a file asks. AK2: a home in the workspace (a dotfiles
repository), or `npm_config_userconfig` naming a file there, made the user's `~/.npmrc`
the repository's: it is judged as the project's `.npmrc`.

npm runs for real where installed (the token reaches the registry `~/.npmrc` names);
pnpm is not installed on the review machine, so its lines are the engine's verdicts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_TOKEN = "ghp_canaryAKtoken123"


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "package.json").write_text('{"name": "x", "version": "1.0.0"}\n')
    return workspace


def _env(home: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", "GITHUB_TOKEN": _TOKEN, **more}


def _npm_view(workspace: Path, env: dict[str, str]) -> None:
    subprocess.run(
        ["npm", "view", "lodash", "--fetch-retries=0"], cwd=workspace, env=env,
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip


# -- AK1 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "packages:\n  - 'packages/*'\nregistry: http://127.0.0.1:9/\n",
        "httpsProxy: http://127.0.0.1:9/\n",
        "strictSsl: false\n",
        "scriptShell: ./evil.sh\n",
        "configDependencies:\n  x: 1.0.0+sha512-aa\n",
        "packages: &a\n  - x\n",
        "catalog:\n  foo: https://127.0.0.1:9/foo.tgz\n",
        "  registry: http://127.0.0.1:9/\n",
        "packages:\n- a\n\u2028registry: http://127.0.0.1:9/\n",
        "packages:\n  - a\n" + "#" * 300_000 + "\n",
    ],
)
def test_ak1_pnpm_workspace_settings_ask(tmp_path: Path, text: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "pnpm-workspace.yaml").write_text(text)
    env = _env(tmp_path / "home")
    for line, approval in (("pnpm why lodash", "pnpm why"), ("pnpm view lodash", "pnpm view")):
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, line
    # a workspace file of a folder above the working one, in the workspace
    (workspace / "sub").mkdir()
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=workspace / "sub").verdict is (
        Verdict.ASK
    )
    # an install runs the project's code anyway; npm reads no such file
    assert decide("pnpm install", workspace, env, "pnpm install").verdict is Verdict.ALLOW
    assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ALLOW


def test_ak1_everyday_pnpm_workspace_is_allowed(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "pnpm-workspace.yaml").write_text(
        "# the workspace\npackages:\n  - 'packages/*'\n  - apps/*\n  - '!**/test/**'\n\n"
        "catalog:\n  chalk: ^4.1.2\n  '@types/node': 20.x\ncatalogs:\n  react18:\n"
        "    react: ^18.2.0  # pinned\n    react-dom: ^18.2.0\n"
        "onlyBuiltDependencies:\n- esbuild\nshamefullyHoist: true\nnodeLinker: hoisted\n"
        "registry: https://registry.npmjs.org/\n"
    )
    env = _env(tmp_path / "home")
    assert decide("pnpm why lodash", workspace, env, "pnpm why").verdict is Verdict.ALLOW


# -- AK2 ---------------------------------------------------------------------------------
def test_ak2_home_npmrc_in_the_workspace_asks(
    tmp_path: Path, registry: tuple[str, list[str]]
) -> None:
    host, seen = registry
    workspace = _workspace(tmp_path)
    home = workspace / "dotfiles"
    home.mkdir()
    (home / ".npmrc").write_text(
        f"registry=http://{host}/\n//{host}/:_authToken=${{GITHUB_TOKEN}}\n"
    )
    env = _env(home)
    if shutil.which("npm"):  # the token reaches the registry of the home's `.npmrc`
        _npm_view(workspace, env)
        assert f"Bearer {_TOKEN}" in seen
    for line, approval in (
        ("npm view lodash", "npm view"), ("npm ls", "npm ls"), ("pnpm why x", "pnpm why"),
        ("yarn info lodash", "yarn info"),
    ):  # fmt: skip
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, line
    # the same file in a home outside the workspace is the user's own
    outside = tmp_path / "home"
    (outside / ".npmrc").write_text((home / ".npmrc").read_text())
    assert decide("npm view lodash", workspace, _env(outside), "npm view").verdict is (
        Verdict.ALLOW
    )


@pytest.mark.parametrize("name", ["NPM_CONFIG_USERCONFIG", "npm_config_userconfig"])
def test_ak2_userconfig_into_the_workspace_asks(
    tmp_path: Path, registry: tuple[str, list[str]], name: str
) -> None:
    host, seen = registry
    workspace = _workspace(tmp_path)
    (workspace / "conf").mkdir()
    (workspace / "conf" / "npmrc").write_text(
        f"registry=http://{host}/\n//{host}/:_authToken=${{GITHUB_TOKEN}}\n"
    )
    for value in (str(workspace / "conf" / "npmrc"), "conf/npmrc"):
        env = _env(tmp_path / "home", **{name: value})
        if shutil.which("npm"):
            seen.clear()
            _npm_view(workspace, env)
            assert f"Bearer {_TOKEN}" in seen, value
        assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ASK
    # a harmless user file in the workspace stays approved
    (workspace / "conf" / "npmrc").write_text("fund=false\naudit=false\n")
    env = _env(tmp_path / "home", **{name: str(workspace / "conf" / "npmrc")})
    assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ALLOW
