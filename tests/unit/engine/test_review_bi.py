"""Review BI: yarn's workspace runners, pnpm's fallback command, and the settings that move
pnpm's hooks file and root.

BI1: `yarn workspace a exec CMD`, `yarn workspace a dlx …`, `yarn workspace a node …` and
`yarn workspaces foreach [OPTS] exec|node …` run a command as `yarn exec` does, but the
runner table only knew the verb in first place: a hand-written `yarn` approval (or an old
`yarn workspace`, `yarn workspace a` one) allowed them; `yarnpkg`, yarn's other name, had
no runner verbs and no rules at all (`yarnpkg pack` under `yarnpkg`). pnpm 9 and 10 run a
first word that is none of their commands as a script, or, where no script has that
name, as a program (`pnpm git push origin main`): `pnpm git` and `pnpm node` were offered,
and `pnpm` approved them all. (`yarn run X`, `yarn workspace a run X` run a script or a
dependency's program only: yarn 1 and berry refuse a system program there.)
BI2: pnpm 11's global `config.yaml` naming a hooks file (`pnpmfile:`, `globalPnpmfile:`)
by a relative path or in the workspace was not read where the `.npmrc` forms ask.
BI3: `npm_config_lockfile_dir`, `NPM_CONFIG_WORKSPACE_DIR` (pnpm 11: `pnpm_config_…`) or
`lockfile-dir=` in `~/.npmrc` move pnpm's root into the workspace, where it loads
`.pnpmfile.cjs` under an approved `pnpm why`; `pnpm_config_pnpmfile` was not read.

The real programs run where they are installed (`npm install --prefix /tmp/bi-tools pnpm@9
yarn@1`, `@yarnpkg/cli-dist@4` under `/tmp/bi-tools/berry`, `pnpm@10` under
`/tmp/bi-tools/p10`); the engine's verdicts are asserted everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import BERRY as _BERRY
from realrun import NODE as _NODE
from realrun import PNPMS as _PNPMS
from realrun import YARN1 as _YARN1
from realrun import canary_workspace, decide, program_printed
from realrun import node_tool as _real
from realrun import yarn_env as _run_env

from policylang import Verdict

_CANARY = "SECRET=canaryBI\n"
_HOOKS = "require('fs').writeFileSync(__dirname + '/ran.txt', 'RAN'); module.exports = {}\n"


def _monorepo(tmp_path: Path, **more: str) -> tuple[Path, dict[str, str]]:
    """A yarn and pnpm workspace of one package `a` with a `build` script, and a folder
    `evil` holding a pnpm hooks file (and its own `pnpm-workspace.yaml`)."""
    return canary_workspace(
        tmp_path, _CANARY,
        {"package.json": '{"name": "root", "version": "1.0.0", "private": true, '
                         '"workspaces": ["packages/*"]}',
         "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
         "packages/a/package.json": '{"name": "a", "version": "1.0.0", '
                                    '"scripts": {"build": "echo built"}}',
         "evil/package.json": '{"name": "evil", "version": "1.0.0"}',
         "evil/pnpm-workspace.yaml": "packages: []\n",
         "evil/.pnpmfile.cjs": _HOOKS},
        **more,
    )  # fmt: skip


# -- BI1: yarn's workspace runners ----------------------------------------------------
@pytest.mark.skipif(not (_real(_YARN1) and _real(_BERRY)), reason="yarn is not installed")
@pytest.mark.parametrize(
    "words",
    [("workspace", "a", "exec", "touch"), ("workspace", "a", "node", "-e"),
     ("workspaces", "foreach", "-A", "exec", "touch")],
)  # fmt: skip
def test_bi1_yarn_runs_the_command_after_a_workspace_scope(
    tmp_path: Path, words: tuple[str, ...]
) -> None:
    workspace, env = _monorepo(tmp_path)
    marker = tmp_path / "marker"
    program_printed([str(_NODE), str(_BERRY), "install"], workspace, _run_env(env))
    tail = [f"require('fs').writeFileSync('{marker}', '')"] if words[-1] == "-e" else [str(marker)]
    program_printed([str(_NODE), str(_BERRY), *words, *tail], workspace, _run_env(env))
    assert marker.exists(), words
    if words[0] == "workspace":  # (yarn 1 has `workspace NAME` alone)
        marker.unlink()
        program_printed([str(_NODE), str(_YARN1), *words, *tail], workspace, _run_env(env))
        assert marker.exists(), words


@pytest.mark.skipif(not (_real(_YARN1) and _real(_BERRY)), reason="yarn is not installed")
def test_bi1_yarn_run_refuses_a_program_of_the_system(tmp_path: Path) -> None:
    # (`yarn run X`, `yarn workspace a run X` run a script or a dependency's program: the
    # approval of `yarn run` keeps covering them)
    workspace, env = _monorepo(tmp_path)
    marker = tmp_path / "marker"
    program_printed([str(_NODE), str(_BERRY), "install"], workspace, _run_env(env))
    for yarn in (_BERRY, _YARN1):
        for words in (("workspace", "a", "run", "touch"), ("touch",)):
            program_printed([str(_NODE), str(yarn), *words, str(marker)], workspace,
                            _run_env(env))  # fmt: skip
            assert not marker.exists(), (yarn, words)


_WORKSPACE = ("yarn", "yarn workspace", "yarn workspace a")
_FOREACH = ("yarn", "yarn workspaces", "yarn workspaces foreach")


@pytest.mark.parametrize(
    ("line", "approvals"),
    [
        ("yarn workspace a exec sh -c id", _WORKSPACE),
        ("yarn workspace a exec npm whoami", _WORKSPACE),
        ("yarn workspace a dlx cowsay hi", _WORKSPACE),
        ("yarn workspace a node x.js", _WORKSPACE),
        ("yarn workspace a workspace b exec ls", _WORKSPACE),
        ("yarn workspace a e ls", _WORKSPACE),
        ("yarn workspaces foreach -A exec sh -c id", _FOREACH),
        ("yarn workspaces foreach --all --parallel -j 2 node x.js", _FOREACH),
        ("yarn workspaces foreach --include a -A exec ls", _FOREACH),
    ],
)
def test_bi1_no_yarn_approval_covers_a_workspace_runner(
    tmp_path: Path, line: str, approvals: tuple[str, ...]
) -> None:
    workspace, env = _monorepo(tmp_path)
    (workspace / "x.js").write_text("1\n")
    assert decide(line, workspace, env).suggested_rule is None, line
    for approval in approvals:
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ASK, (line, approval, decision.explain())


@pytest.mark.parametrize(
    ("line", "approvals"),
    [
        ("yarnpkg exec sh -c id", ("yarnpkg", "yarnpkg exec")),
        ("yarnpkg dlx cowsay", ("yarnpkg",)),
        ("yarnpkg node x.js", ("yarnpkg", "yarnpkg node")),
        ("yarnpkg workspace a exec sh -c id", ("yarnpkg", "yarnpkg workspace")),
        ("yarnpkg pack", ("yarnpkg",)),
        ("yarnpkg npm publish", ("yarnpkg",)),
        ("yarnpkg workspace a npm publish", ("yarnpkg", "yarnpkg workspace")),
        ("yarnpkg workspaces foreach -A pack", ("yarnpkg",)),
    ],
)
def test_bi1_yarnpkg_is_judged_as_yarn(
    tmp_path: Path, line: str, approvals: tuple[str, ...]
) -> None:
    workspace, env = _monorepo(tmp_path)
    for approval in approvals:
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, approval)


@pytest.mark.parametrize(
    ("line", "approvals", "offer"),
    [
        ("yarn workspace a build", ("yarn", "yarn workspace", "yarn workspace a build"),
         "yarn workspace a build"),
        ("yarn workspace a run build", ("yarn", "yarn workspace a run build"),
         "yarn workspace a run build"),
        ("yarn workspace a add lodash", ("yarn", "yarn workspace"), "yarn workspace a add"),
        ("yarn workspaces foreach -A run build", ("yarn", "yarn workspaces foreach"), None),
        ("yarn run build", ("yarn", "yarn run build"), "yarn run build"),
        ("pnpm --filter a test", ("pnpm",), None),
        ("pnpm --filter a build", ("pnpm",), None),
        ("pnpm -r build", ("pnpm",), None),
        ("yarnpkg why lodash", ("yarnpkg", "yarnpkg why"), "yarnpkg why"),
    ],
)  # fmt: skip
def test_bi1_everyday_workspace_lines_keep_their_verdicts(
    tmp_path: Path, line: str, approvals: tuple[str, ...], offer: str | None
) -> None:
    workspace, env = _monorepo(tmp_path)
    found = decide(line, workspace, env)
    assert found.verdict is Verdict.ASK
    assert found.suggested_rule == offer, line
    for approval in approvals:
        assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW, (line, approval)


@pytest.mark.parametrize(
    "line",
    ["pnpm --filter a exec sh -c id", "pnpm -F a exec ls", "pnpm -r exec sh -c id",
     "pnpm recursive exec ls", "pnpm -r --filter a dlx cowsay", "yarn exec sh -c id",
     "yarn dlx cowsay", "yarn node x.js"],
)  # fmt: skip
def test_bi1_the_runners_in_first_place_stay_asked(tmp_path: Path, line: str) -> None:
    # (guards: what the table knew before keeps asking under the program's approval)
    workspace, env = _monorepo(tmp_path)
    approval = line.split()[0]
    assert decide(line, workspace, env, approval).verdict is Verdict.ASK, line


# -- BI1: pnpm's fallback command ------------------------------------------------------
@pytest.mark.skipif(not _PNPMS, reason="pnpm is not installed")
@pytest.mark.parametrize("pnpm", _PNPMS)
def test_bi1_pnpm_runs_a_program_no_script_names(tmp_path: Path, pnpm: Path) -> None:
    workspace, env = _monorepo(tmp_path)
    marker = tmp_path / "marker"
    for where in (workspace, workspace / "packages" / "a"):
        program_printed([str(_NODE), str(pnpm), "touch", str(marker)], where, env)
        assert marker.exists(), where
        marker.unlink()
    # (recursive, a command no script names is an error)
    program_printed([str(_NODE), str(pnpm), "--filter", "a", "touch", str(marker)],
                    workspace, env)  # fmt: skip
    assert not marker.exists()


_FALLBACKS = (
    "pnpm git push origin main",
    "pnpm node x.js",
    "pnpm bash x.sh",
    "pnpm curl https://example.invalid/",
    "pnpm vitest",
    "pnpm -w node x.js",
    "pnpm -- node x.js",
    "pnpm t",
)


@pytest.mark.parametrize("line", _FALLBACKS)
def test_bi1_no_pnpm_approval_covers_the_program_it_falls_back_to(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _monorepo(tmp_path)
    (workspace / "x.js").write_text("1\n")
    (workspace / "x.sh").write_text("true\n")
    found = decide(line, workspace, env)
    assert found.suggested_rule is None, line
    words = [w for w in line.split() if not w.startswith("-")]
    for approval in ("pnpm", " ".join(words[:2])):
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, approval)


@pytest.mark.parametrize(
    ("line", "offer", "cwd"),
    [
        ("pnpm build", "pnpm build", "packages/a"),
        ("pnpm tsc", "pnpm tsc", "packages/a"),
        ("pnpm eslint .", "pnpm eslint", ""),
        ("pnpm test", "pnpm test", ""),
        ("pnpm install", "pnpm install", ""),
        ("pnpm why lodash", "pnpm why", ""),
        ("pnpm run build", "pnpm run build", "packages/a"),
    ],
)
def test_bi1_pnpm_scripts_and_project_programs_keep_their_offers(
    tmp_path: Path, line: str, offer: str, cwd: str
) -> None:
    workspace, env = _monorepo(tmp_path)
    for folder in (workspace, workspace / "packages" / "a"):
        (folder / "node_modules" / ".bin").mkdir(parents=True)
    (workspace / "packages" / "a" / "node_modules" / ".bin" / "tsc").write_text("#!/bin/sh\n")
    (workspace / "node_modules" / ".bin" / "eslint").write_text("#!/bin/sh\n")
    where = workspace / cwd
    found = decide(line, workspace, env, cwd=where)
    assert found.suggested_rule == offer, (line, found.explain())
    for approval in ("pnpm", offer):
        assert decide(line, workspace, env, approval, cwd=where).verdict is Verdict.ALLOW


# -- BI2: pnpm 11's `config.yaml` ------------------------------------------------------
def _config_yaml(tmp_path: Path, text: str) -> tuple[Path, dict[str, str]]:
    workspace, env = _monorepo(tmp_path)
    (workspace / "hooks.cjs").write_text(_HOOKS)
    config = tmp_path / "home" / ".config" / "pnpm" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(text.replace("WS", str(workspace)))
    return workspace, env


@pytest.mark.parametrize(
    "text",
    ["pnpmfile: hooks.cjs\n",
     "pnpmfile: WS/hooks.cjs\n",
     "globalPnpmfile: WS/hooks.cjs  # hooks\n",
     "global-pnpmfile: '~/../ws/hooks.cjs'\n",
     "pnpmfile:\n  - /elsewhere/x.cjs\n  - WS/hooks.cjs\n",
     "pnpmfile: [/elsewhere/x.cjs, WS/hooks.cjs]\n",
     "x: &a {pnpmfile: hooks.cjs}\n<<: *a\n",
     '"pnpm\\x66ile": hooks.cjs\n',
     "? pnpmfile\n: hooks.cjs\n"],
)  # fmt: skip
def test_bi2_a_config_yaml_hooks_file_into_the_workspace_asks(tmp_path: Path, text: str) -> None:
    workspace, env = _config_yaml(tmp_path, text)
    where = workspace / "packages" / "a"
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=where).verdict is Verdict.ASK


@pytest.mark.parametrize(
    "text",
    ["pnpmfile: /elsewhere/hooks.cjs\nstoreDir: /tmp/store\n",
     "registry: https://registry.npmjs.org/\nstoreDir: /home/u/pnpmfile-store\n",
     "pnpmfile: null\n"],
)  # fmt: skip
def test_bi2_an_ordinary_config_yaml_stays_approved(tmp_path: Path, text: str) -> None:
    workspace, env = _config_yaml(tmp_path, text)
    where = workspace / "packages" / "a"
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=where).verdict is Verdict.ALLOW


# -- BI3: the settings that move pnpm's root -------------------------------------------
@pytest.mark.skipif(not _PNPMS, reason="pnpm is not installed")
@pytest.mark.parametrize("pnpm", _PNPMS)
@pytest.mark.parametrize(
    ("variable", "npmrc"),
    [("npm_config_lockfile_dir", ""), ("NPM_CONFIG_LOCKFILE_DIR", ""),
     ("NPM_CONFIG_WORKSPACE_DIR", ""), ("npm_config_workspace_dir", ""),
     ("", "lockfile-dir=EVIL\n")],
)  # fmt: skip
def test_bi3_pnpm_loads_the_hooks_file_of_a_moved_root(
    tmp_path: Path, pnpm: Path, variable: str, npmrc: str
) -> None:
    workspace, env = _monorepo(tmp_path)
    evil = workspace / "evil"
    if npmrc:
        (tmp_path / "home" / ".npmrc").write_text(npmrc.replace("EVIL", str(evil)))
    more = {variable: str(evil)} if variable else {}
    program_printed([str(_NODE), str(pnpm), "why", "x"], workspace / "packages" / "a",
                    {**env, **more})  # fmt: skip
    assert (evil / "ran.txt").exists()


@pytest.mark.parametrize(
    ("variable", "value"),
    [("npm_config_lockfile_dir", "EVIL"), ("NPM_CONFIG_LOCKFILE_DIR", "EVIL"),
     ("npm_config_lockfile-dir", "EVIL"), ("NPM_CONFIG_WORKSPACE_DIR", "EVIL"),
     ("npm_config_workspace_dir", "EVIL"), ("pnpm_config_lockfile_dir", "EVIL"),
     ("PNPM_CONFIG_WORKSPACE_DIR", "EVIL"), ("npm_config_lockfile_directory", "EVIL"),
     ("npm_config_dir", "EVIL"), ("npm_config_lockfile_dir", "evil"),
     ("npm_config_lockfile_dir", "../../evil"),
     ("pnpm_config_pnpmfile", "EVIL/.pnpmfile.cjs"),
     ("PNPM_CONFIG_GLOBAL_PNPMFILE", "hooks.cjs")],
)  # fmt: skip
def test_bi3_a_variable_moving_pnpms_root_into_the_workspace_asks(
    tmp_path: Path, variable: str, value: str
) -> None:
    workspace, env = _monorepo(tmp_path)
    env[variable] = value.replace("EVIL", str(workspace / "evil"))
    where = workspace / "packages" / "a"
    decision = decide("pnpm why x", workspace, env, "pnpm why", cwd=where)
    assert decision.verdict is Verdict.ASK, variable


@pytest.mark.parametrize(
    ("name", "line"),
    [(".npmrc", "lockfile-dir=EVIL"), (".npmrc", '"lockfile-dir"=EVIL'),
     (".npmrc", "LOCKFILE_DIR=EVIL"), (".config/pnpm/rc", "lockfile-dir=EVIL"),
     (".npmrc", "lockfile-dir=../evil"), (".config/pnpm/config.yaml", "lockfileDir: EVIL")],
)  # fmt: skip
def test_bi3_a_user_setting_moving_pnpms_root_into_the_workspace_asks(
    tmp_path: Path, name: str, line: str
) -> None:
    workspace, env = _monorepo(tmp_path)
    path = tmp_path / "home" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(line.replace("EVIL", str(workspace / "evil")) + "\n")
    where = workspace / "packages" / "a"
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=where).verdict is Verdict.ASK


@pytest.mark.parametrize("value", ["ROOT", "ROOT/packages/a", "/elsewhere/lock"])
def test_bi3_a_root_outside_the_workspace_or_above_the_folder_stays_approved(
    tmp_path: Path, value: str
) -> None:
    workspace, env = _monorepo(tmp_path)
    env["npm_config_lockfile_dir"] = value.replace("ROOT", str(workspace))
    (tmp_path / "home" / ".npmrc").write_text("save-exact=true\n")
    where = workspace / "packages" / "a"
    assert decide("pnpm why x", workspace, env, "pnpm why", cwd=where).verdict is Verdict.ALLOW
