"""Review HH: yarn's and pnpm's words read as yarn and pnpm read them.

HH1: yarn 1 reads options, and yarn 1 and berry `--`, between `workspace` and its NAME (`yarn
workspace -- a exec CMD`, `yarn workspace --silent a exec CMD`), where the runner table
and the verb rules took the option for the NAME: `yarn workspace -- a` was offered, and it,
`yarn` and `yarn workspace` approved `yarn workspace -- a exec mka`.
HH2: pnpm 9 and 10 run, for a command none of theirs, the program named by the first word
after the leading options (no option takes a value there: `pnpm --loglevel mkb x` runs
`mkb`), and hand npm's commands (`find`, `view`, `info` …) to npm only as the first word:
`pnpm -s find` runs find. The engine skipped the value and judged the word after it.
HH3: pnpm 11's second names `pn` and `pnx` were unknown programs (`pn exec` offered).
HH4: yarn 1's `global add` installs into yarn's global folder (running the package's
install scripts, linking its bins), as `-g` installs do, and `policies set-version` names
a downloaded release in `.yarnrc`: `yarn` and `yarn global` approved them.

The real programs run where they are installed (`/tmp/bi-tools`, as in review BI: yarn 1
and pnpm 9 there, berry under `berry/`, pnpm 10 under `p10/`); the engine's verdicts are
asserted everywhere.
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

from policylang import Verdict, load_policy

_CANARY = "SECRET=canaryHH\n"


def _monorepo(tmp_path: Path, **more: str) -> tuple[Path, dict[str, str]]:
    """A yarn and pnpm workspace of one package `a` with a `build` script."""
    return canary_workspace(
        tmp_path, _CANARY,
        {"package.json": '{"name": "root", "version": "1.0.0", "private": true, '
                         '"workspaces": ["packages/*"], "scripts": {"build": "echo built"}}',
         "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
         "packages/a/package.json": '{"name": "a", "version": "1.0.0", '
                                    '"scripts": {"build": "echo built"}}'},
        **more,
    )  # fmt: skip


def _fake_programs(tmp_path: Path, marker: Path, *names: str) -> str:
    """A folder of programs `names`, each touching `marker`: the PATH a line runs with."""
    folder = tmp_path / "fakebin"
    folder.mkdir(exist_ok=True)
    for name in names:
        program = folder / name
        program.write_text(f"#!/bin/sh\n: > '{marker}'\n")
        program.chmod(0o755)
    return f"{folder}:/usr/bin:/bin"


# -- HH1: yarn's options before the workspace's NAME --------------------------------------
@pytest.mark.skipif(not (_real(_YARN1) and _real(_BERRY)), reason="yarn is not installed")
@pytest.mark.parametrize("between", [("--",), ("--silent",), ("-s",), ("--json",)])
def test_hh1_yarn_reads_options_before_the_workspace_name(
    tmp_path: Path, between: tuple[str, ...]
) -> None:
    # (yarn 1 reads its options anywhere; berry refuses one there, and reads `--`)
    workspace, env = _monorepo(tmp_path)
    marker = tmp_path / "marker"
    program_printed([str(_NODE), str(_BERRY), "install"], workspace, _run_env(env))
    for yarn in (_YARN1, _BERRY) if between == ("--",) else (_YARN1,):
        words = [str(_NODE), str(yarn), "workspace", *between, "a", "exec", "touch", str(marker)]
        program_printed(words, workspace, _run_env(env))
        assert marker.exists(), (yarn, between)
        marker.unlink()


_HH1_LINES = (
    "yarn workspace -- a exec mka",
    "yarn workspace -- a node -e 1",
    "yarn workspace -- a dlx cowsay",
    "yarn workspace --silent a exec mka",
    "yarn workspace -s a exec mka",
    "yarn workspace --json a exec mka",
    "yarn workspace --cwd d a exec mka",
    "yarn workspace -s -- a exec sh -c id",
    "yarnpkg workspace -- a exec mka",
    # (the verb rules read the verb after the NAME too: `yarn-version-bump`, `package-packs`)
    "yarn workspace -s a npm publish",
    "yarn workspace -- a pack",
    "yarn workspace --json a version --patch",
)


@pytest.mark.parametrize("line", _HH1_LINES)
def test_hh1_no_yarn_approval_covers_a_runner_after_options(tmp_path: Path, line: str) -> None:
    workspace, env = _monorepo(tmp_path)
    program = line.split()[0]
    assert decide(line, workspace, env).suggested_rule is None, line
    scope = " ".join(line.split()[:3])  # (`yarn workspace --`, the offer it got)
    for approval in (program, f"{program} workspace", scope):
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ASK, (line, approval, decision.explain())


def test_hh1_many_options_before_the_name_are_read_at_once(tmp_path: Path) -> None:
    # (each reading of an option's value is tried once: no time nor stack grows past it)
    workspace, env = _monorepo(tmp_path)
    options = " ".join(f"-x{n}" for n in range(3000))
    line = f"yarn workspace {options} a exec mka"
    assert decide(line, workspace, env, "yarn").verdict is Verdict.ASK


@pytest.mark.parametrize(
    "line", ["yarn workspace --silent a build", "yarn workspace -s a build",
             "yarn workspace --json a build", "yarn workspace -- a build"],
)  # fmt: skip
def test_hh1_no_offer_names_an_option_before_the_workspace_name(tmp_path: Path, line: str) -> None:
    workspace, env = _monorepo(tmp_path)
    assert decide(line, workspace, env).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "approvals", "offer"),
    [
        ("yarn workspace a build", ("yarn", "yarn workspace", "yarn workspace a build"),
         "yarn workspace a build"),
        ("yarn workspace a workspace b build", ("yarn",), "yarn workspace a workspace b build"),
        ("yarn workspace --silent a build", ("yarn", "yarn workspace"), None),
        ("yarn workspaces foreach -A run build", ("yarn",), None),
    ],
)  # fmt: skip
def test_hh1_everyday_workspace_lines_keep_their_verdicts(
    tmp_path: Path, line: str, approvals: tuple[str, ...], offer: str | None
) -> None:
    # (guards: scripts of a workspace stay approved and offered as before)
    workspace, env = _monorepo(tmp_path)
    assert decide(line, workspace, env).suggested_rule == offer, line
    for approval in approvals:
        assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW, (line, approval)


# -- HH2: pnpm's fallback program ---------------------------------------------------------
@pytest.mark.skipif(not _PNPMS, reason="pnpm is not installed")
@pytest.mark.parametrize("pnpm", _PNPMS)
@pytest.mark.parametrize(
    "words",
    [("--loglevel", "mkb", "mka"), ("--depth", "mkb", "build"), ("--reporter", "mkb", "x"),
     ("-s", "view"), ("--silent", "find"), ("--loglevel", "info", "-s", "find")],
)  # fmt: skip
def test_hh2_pnpm_runs_the_first_word_after_its_options(
    tmp_path: Path, pnpm: Path, words: tuple[str, ...]
) -> None:
    marker = tmp_path / "marker"
    path = _fake_programs(tmp_path, marker, "mkb", "view", "find", "info")
    workspace, env = _monorepo(tmp_path, path=path)
    program_printed([str(_NODE), str(pnpm), *words], workspace, env)
    assert marker.exists(), words


@pytest.mark.skipif(not _PNPMS, reason="pnpm is not installed")
@pytest.mark.parametrize("pnpm", _PNPMS)
def test_hh2_pnpm_reads_a_log_level_as_its_value(tmp_path: Path, pnpm: Path) -> None:
    # (the premise of the guard: `--loglevel warn install` installs, runs no `warn`)
    marker = tmp_path / "marker"
    path = _fake_programs(tmp_path, marker, "warn")
    workspace, env = _monorepo(tmp_path, path=path)
    program_printed([str(_NODE), str(pnpm), "--loglevel", "warn", "install", "--offline"],
                    workspace, env)  # fmt: skip
    assert not marker.exists()


_HH2_LINES = (
    "pnpm --loglevel node view",
    "pnpm --loglevel sh info",
    "pnpm --reporter node find",
    "pnpm --depth node tsc",
    "pnpm --loglevel python3 docs",
    "pnpm --loglevel npx info",
    "echo x | pnpm --loglevel tee info /tmp/outside-file",
    "pnpm --loglevel mkb build",
    "pnpm -s find",
    "pnpm --silent view",
    "pnpm -s edit",
    "pnpm --loglevel warn -s xmas",
    "pnpm -C packages/a node x.js",
    "pnpm --loglevel warn mkb",
    "pnpm --loglevel info -s find",
    "pnpm --loglevel warn -- mkb",
)


@pytest.mark.parametrize("line", _HH2_LINES)
def test_hh2_no_pnpm_approval_covers_the_first_word_after_its_options(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _monorepo(tmp_path)
    (workspace / "package.json").write_text(
        '{"name": "root", "private": true, "scripts": {"build": "x", "docs": "x", "tsc": "x"}}'
    )
    decision = decide(line, workspace, env, "pnpm")
    assert decision.verdict is Verdict.ASK, (line, decision.explain())


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("pnpm build", "pnpm build"),
        ("pnpm -s build", None),
        ("pnpm --loglevel warn build", None),
        ("pnpm --loglevel info -s build", None),
        ("pnpm --loglevel warn install", None),
        ("pnpm --reporter append-only why x", None),
        ("pnpm --loglevel=warn build", None),
        ("pnpm tsc", "pnpm tsc"),
        ("pnpm --depth tsc x", None),
        ("pnpm view lodash", "pnpm view"),
        ("pnpm -s why lodash", None),
        ("pnpm install", "pnpm install"),
    ],
)  # fmt: skip
def test_hh2_scripts_commands_and_project_programs_stay_approved(
    tmp_path: Path, line: str, offer: str | None
) -> None:
    # (guards: a script, a command of pnpm's, a program of `node_modules/.bin`)
    workspace, env = _monorepo(tmp_path)
    (workspace / "node_modules" / ".bin").mkdir(parents=True)
    (workspace / "node_modules" / ".bin" / "tsc").write_text("#!/bin/sh\n")
    assert decide(line, workspace, env).suggested_rule == offer, line
    decision = decide(line, workspace, env, "pnpm")
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())


# -- HH3: pnpm 11's `pn` and `pnx` --------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "approvals"),
    [
        ("pn exec sh -c 'cat .e*'", ("pn", "pn exec")),
        ("pn dlx cowsay", ("pn", "pn dlx")),
        ("pn recursive exec sh -c id", ("pn", "pn recursive")),
        ("pn node x.js", ("pn",)),
        ("pn -s find", ("pn",)),
        ("pnx cowsay", ("pnx", "pnx cowsay")),
        ("pn pack", ("pn",)),
        ("pn add -g evil", ("pn", "pn add")),
    ],
)
def test_hh3_pn_and_pnx_are_judged_as_pnpm_and_pnpx(
    tmp_path: Path, line: str, approvals: tuple[str, ...]
) -> None:
    workspace, env = _monorepo(tmp_path)
    assert decide(line, workspace, env).suggested_rule is None, line
    for approval in approvals:
        decision = decide(line, workspace, env, approval)
        # (`pn exec sh -c 'cat .e*'` is denied since review BR1: the runner's command
        # reads `.env`)
        assert decision.verdict is not Verdict.ALLOW, (line, approval, decision.explain())


@pytest.mark.parametrize(("line", "offer"), [("pn build", "pn build"), ("pn why x", "pn why")])
def test_hh3_pn_scripts_stay_approved(tmp_path: Path, line: str, offer: str) -> None:
    # (guard)
    workspace, env = _monorepo(tmp_path)
    assert decide(line, workspace, env).suggested_rule == offer
    assert decide(line, workspace, env, "pn").verdict is Verdict.ALLOW, line


@pytest.mark.parametrize("ruleset", ["ci", "readonly"])
@pytest.mark.parametrize("line", ["pn exec ls", "pnx cowsay", "pn install"])
def test_hh3_ci_and_readonly_deny_pn_as_pnpm(ruleset: str, line: str) -> None:
    # (guard: both deny the programs they do not name)
    rules = Path(__file__).parents[3] / "policylang" / "rulesets" / f"{ruleset}.policy"
    decision = load_policy(rules).evaluate(line, workspace="/tmp/hh-ws", cwd="/tmp/hh-ws")
    assert decision.verdict is Verdict.DENY, (ruleset, line)


# -- HH4: yarn's global folder ------------------------------------------------------------
@pytest.mark.skipif(not _real(_YARN1), reason="yarn is not installed")
def test_hh4_yarn_global_add_runs_the_install_scripts(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    workspace, env = _monorepo(
        tmp_path,
        path=_fake_programs(tmp_path, tmp_path / "git-ran", "git"),
    )
    package = workspace / "gpkg"
    package.mkdir()
    (package / "package.json").write_text(
        f'{{"name": "gpkg", "version": "1.0.0", "scripts": {{"postinstall": "touch {marker}"}}}}'
    )
    env = {**env, "PATH": f"{Path(str(_NODE)).parent}:{env['PATH']}"}
    program_printed([str(_NODE), str(_YARN1), "global", "add", f"file:{package}", "--offline",
                     "--global-folder", str(tmp_path / "gfolder"),
                     "--prefix", str(tmp_path / "gprefix")], workspace, env)  # fmt: skip
    assert marker.exists()


@pytest.mark.parametrize(
    ("line", "approvals"),
    [
        ("yarn global add file:./gpkg", ("yarn", "yarn global")),
        ("yarn global add cowsay", ("yarn", "yarn global")),
        ("yarn global upgrade", ("yarn", "yarn global")),
        ("yarn global remove cowsay", ("yarn", "yarn global")),
        ("yarn --offline global add file:./gpkg", ("yarn",)),
        ("yarnpkg global add cowsay", ("yarnpkg", "yarnpkg global")),
        ("yarn policies set-version 1.22.22", ("yarn", "yarn policies")),
        ("yarn --offline policies set-version 1.22.22", ("yarn",)),
    ],
)
def test_hh4_no_yarn_approval_covers_its_global_installs(
    tmp_path: Path, line: str, approvals: tuple[str, ...]
) -> None:
    workspace, env = _monorepo(tmp_path)
    for approval in approvals:
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ASK, (line, approval, decision.explain())


@pytest.mark.parametrize(
    ("line", "offer"),
    [("yarn global bin", "yarn global"), ("yarn global list", "yarn global list")],
)
def test_hh4_yarn_global_bin_stays_offered(tmp_path: Path, line: str, offer: str) -> None:
    # (guard)
    workspace, env = _monorepo(tmp_path)
    found = decide(line, workspace, env)
    assert found.verdict is Verdict.ASK
    assert found.suggested_rule == offer
    for approval in ("yarn", offer):
        assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW, (line, approval)


# -- HH5: lima's `kubenerdctl.lima` -------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    ["kubenerdctl.lima run --privileged alpine", "kubenerdctl.lima run -v /:/h alpine",
     "kubenerdctl.lima exec -it c sh"],
)  # fmt: skip
def test_hh5_kubenerdctl_lima_is_nerdctl(tmp_path: Path, line: str) -> None:
    # (lima's script runs `lima sudo CONTAINERD_NAMESPACE=k8s.io nerdctl ARGS`)
    workspace, env = _monorepo(tmp_path)
    # (offered what `nerdctl.lima` is offered for the same words: `run --privileged`
    # nothing, `exec` the verb, as `docker exec` is)
    twin = line.replace("kubenerdctl.lima", "nerdctl.lima")
    offered = decide(twin, workspace, env).suggested_rule
    assert decide(line, workspace, env).suggested_rule == offered, line
    decision = decide(line, workspace, env, "kubenerdctl.lima")
    assert decision.verdict in (Verdict.ASK, Verdict.DENY), (line, decision.explain())
    assert decide("kubenerdctl.lima ps", workspace, env).suggested_rule == "nerdctl ps"
