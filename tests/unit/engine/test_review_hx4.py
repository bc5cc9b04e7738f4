"""Review HX4, fixed by fixer CE: an approved package runner's line is held to the clauses
of its program's own rules (`package_bin_line`, review HV3) only where it named the program
by a verb (`yarn exec gulp`, `npx gulp`). yarn (1 and berry) and pnpm run a first word that
is none of their own commands as the script of that name or, where there is none, the
program of `node_modules/.bin`: `yarn gulp --gulpfile /tmp/x.js` under `yarn gulp`, `yarn
snakemake -s /tmp/x` under `yarn snakemake`, and `yarn workspace web gulp --gulpfile …`
under the offered `yarn workspace web gulp` ran the other file's code, approved. Also
berry's `workspaces foreach … run gulp` and pnpm's `--filter X exec gulp`. `pnpm view
lodash` and `yarn info react` stay lines of the manager's own commands (review HX).
Real runs with yarn 1 and pnpm 9 and 10 (skipped where they are not installed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import NODE as _NODE
from realrun import PNPMS as _PNPMS
from realrun import YARN1 as _YARN1
from realrun import decide, env_beside, program_printed
from realrun import node_tool as _real
from realrun import yarn_env as _run_env

from policylang import Decision, Verdict
from policylang.engine.rules import package_bin_line


def _project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A yarn and pnpm workspace of one package `web` (a `build` script) whose
    `node_modules/.bin` hold a fake `gulp` and `snakemake` printing their words."""
    workspace = tmp_path / "ws"
    web = workspace / "packages" / "web"
    web.mkdir(parents=True)
    (tmp_path / "home").mkdir()
    (workspace / "package.json").write_text(
        '{"name": "root", "version": "1.0.0", "private": true, "workspaces": ["packages/*"]}'
    )
    (workspace / "pnpm-workspace.yaml").write_text("packages:\n  - packages/*\n")
    (web / "package.json").write_text(
        '{"name": "web", "version": "1.0.0", "scripts": {"build": "echo built"}}'
    )
    for folder in (workspace, web):
        (folder / "node_modules" / ".bin").mkdir(parents=True)
        for name in ("gulp", "snakemake"):
            program = folder / "node_modules" / ".bin" / name
            program.write_text(f'#!/bin/sh\necho "{name.upper()}-RAN $*"\n')
            program.chmod(0o755)
    return workspace, env_beside(tmp_path)


def _judge(tmp_path: Path, line: str, *approvals: str) -> Decision:
    workspace, env = _project(tmp_path)
    return decide(line, workspace, env, *approvals)


# -- the premise: yarn 1 and pnpm run the bin for a first word none of their commands --
@pytest.mark.skipif(not _real(_YARN1), reason="yarn is not installed")
@pytest.mark.parametrize(
    ("words", "printed"),
    [
        (["gulp", "--gulpfile", "/x/g.js"], "GULP-RAN --gulpfile /x/g.js"),
        (["snakemake", "-s", "/x/s"], "SNAKEMAKE-RAN -s /x/s"),
        (["workspace", "web", "gulp", "--gulpfile", "/x/g.js"], "GULP-RAN --gulpfile /x/g.js"),
    ],
)
def test_yarn_runs_the_bin_of_its_first_word(
    tmp_path: Path, words: list[str], printed: str
) -> None:
    workspace, env = _project(tmp_path)
    output = program_printed([str(_NODE), str(_YARN1), *words], workspace, _run_env(env))
    assert printed in output


@pytest.mark.skipif(not _PNPMS, reason="pnpm is not installed")
@pytest.mark.parametrize("pnpm", _PNPMS)
def test_pnpm_runs_the_bin_of_its_first_word(tmp_path: Path, pnpm: Path) -> None:
    workspace, env = _project(tmp_path)
    for words in (["gulp"], ["--filter", "web", "exec", "gulp"]):
        line = [str(_NODE), str(pnpm), *words, "--gulpfile", "/x/g.js"]
        assert "GULP-RAN --gulpfile /x/g.js" in program_printed(line, workspace, env)


# -- the finding: the approved runner's line is held to its program's clauses ----------
@pytest.mark.parametrize(
    ("command", "approval", "rule"),
    [
        ("yarn gulp --gulpfile /x/g.js", "yarn gulp", "gulp-other-file"),
        ("yarnpkg gulp --gulpfile /x/g.js", "yarnpkg gulp", "gulp-other-file"),
        ("yarn snakemake -s /x/s", "yarn snakemake", "snakemake-other-file"),
        ("yarn --silent snakemake -s /x/s", "yarn --silent snakemake", "snakemake-other-file"),
        ("yarn workspace web gulp --gulpfile /x/g.js", "yarn workspace web gulp",
         "gulp-other-file"),
        ("yarn workspace web run gulp --gulpfile /x/g.js", "yarn workspace web run gulp",
         "gulp-other-file"),
        ("yarn workspaces foreach -A run gulp --gulpfile /x/g.js",
         "yarn workspaces foreach -A run gulp", "gulp-other-file"),
        ("yarn workspaces foreach --include web gulp --gulpfile /x/g.js",
         "yarn workspaces foreach --include web gulp", "gulp-other-file"),
        ("pnpm gulp --gulpfile /x/g.js", "pnpm gulp", "gulp-other-file"),
        ("pnpm --filter web exec gulp --gulpfile /x/g.js", "pnpm --filter web exec gulp",
         "gulp-other-file"),
        ("pnpm recursive exec gulp --gulpfile /x/g.js", "pnpm recursive exec gulp",
         "gulp-other-file"),
    ],
)  # fmt: skip
def test_runner_line_held_to_its_program(
    tmp_path: Path, command: str, approval: str, rule: str
) -> None:
    decision = _judge(tmp_path, command, approval)
    assert decision.verdict is not Verdict.ALLOW
    assert rule in {reason.rule_id for reason in decision.reasons}


# -- guards: the manager's own commands, scripts and plain runs keep their verdicts ------
@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("pnpm view lodash", "pnpm view"),
        ("yarn info react", "yarn info"),
        ("yarn workspace web build", "yarn workspace web build"),
        ("yarn gulp", "yarn gulp"),
        ("yarn gulp build", "yarn gulp"),
        ("yarn workspace web gulp build", "yarn workspace web gulp"),
        ("yarn snakemake all", "yarn snakemake"),
    ],
)
def test_plain_lines_stay_approved(tmp_path: Path, command: str, approval: str) -> None:
    decision = _judge(tmp_path, command, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("command", "offer"),
    [
        ("pnpm view lodash", "pnpm view"),
        ("yarn info react", "yarn info"),
        ("yarn workspace web build", "yarn workspace web build"),
        ("yarn workspace web gulp", "yarn workspace web gulp"),
        ("yarn gulp", "yarn gulp"),
        ("yarn snakemake", "yarn snakemake"),
    ],
)
def test_offers_kept(tmp_path: Path, command: str, offer: str) -> None:
    decision = _judge(tmp_path, command)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == offer


def test_pnpm_view_is_not_the_editor(tmp_path: Path) -> None:
    # (`view` is pnpm's first word, a command it hands to npm: no editor's clause)
    decision = _judge(tmp_path, "pnpm view lodash --json", "pnpm view")
    assert decision.verdict is Verdict.ALLOW


@pytest.mark.parametrize("command", ["npx gulp", "npx gulp build"])
def test_plain_npx_not_held(tmp_path: Path, command: str) -> None:
    decision = _judge(tmp_path, command, "npx gulp")
    assert "gulp-other-file" not in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    ("line", "program"),
    [
        ("yarn gulp a", "gulp a"),
        ("yarn --cwd d gulp a", "gulp a"),
        ("yarn workspace web gulp a", "gulp a"),
        ("yarn workspace web exec gulp a", "gulp a"),
        ("yarn workspaces foreach -j 2 --include w run gulp a", "gulp a"),
        ("pnpm gulp a", "gulp a"),
        ("pnpm -C d exec gulp a", "gulp a"),
        ("pnpm --filter=web gulp a", "gulp a"),
        ("pnpm -s view x", "view x"),  # (after an option: the program, review HH2)
        ("npx --yes gulp a", "gulp a"),
        ("pnpm view lodash", None),
        ("yarn info react", None),
        ("yarn workspace web info react", None),
        ("pnpm -C d gulp a", None),  # (pnpm may read `d` as the command)
        ("pnpm --loglevel x gulp", None),  # (an option it may read a value of)
        ("yarn workspace --silent web gulp", None),
        ("yarn -- gulp", None),
    ],
)
def test_package_bin_line_readings(line: str, program: str | None) -> None:
    found = package_bin_line(line.split(), explicit=True)
    assert (" ".join(found) if found is not None else None) == program
