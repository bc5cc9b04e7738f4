"""Review HY, fixed by fixer CK: yarn's and pnpm's program lines (review HX4) again.

HY1: yarn 1 removes the first `--` of its arguments, anywhere, and hands the rest to the
program: `yarn gulp -- -f /tmp/x.js` runs `gulp -f /tmp/x.js`, which the program's clause
did not see behind the `--` (berry and pnpm keep it), and was even offered `yarn gulp`. A
yarn line is judged both ways (yarn 1 cannot be told from berry), the stricter kept.
HY2: more nested `workspace NAME` scopes than are read left the line unread and unheld:
past the cap nothing is offered and an approval asks. HY3: yarn 1's `yarn workspaces run
build` was offered bare `yarn workspaces` (which approved `workspaces run deploy`): it is
read as `yarn build` in each workspace and offered with its verb. HY4: offers whose
approval would not lift their own line (`yarn vim`, `yarn terraform plan`, `pnpm
recursive info`) are withheld. HY5: berry's `run --require MODULE gulp` read past the
option's value. A real run with yarn 1 proves HY1's premise (skipped where absent).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import NODE as _NODE
from realrun import YARN1 as _YARN1
from realrun import decide, env_beside, program_printed
from realrun import node_tool as _real
from realrun import yarn_env as _run_env

from policylang import Decision, Verdict
from policylang.engine.rules import package_bin_line

_NESTED = "yarn" + " workspace web" * 5 + " gulp"


def _project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A yarn workspace of one package `web` (a `build` script) whose `node_modules/.bin`
    hold a fake `gulp` printing its words."""
    workspace = tmp_path / "ws"
    web = workspace / "packages" / "web"
    web.mkdir(parents=True, exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    (workspace / "package.json").write_text(
        '{"name": "root", "version": "1.0.0", "private": true, "workspaces": ["packages/*"],'
        ' "scripts": {"test": "echo tested"}}'
    )
    (web / "package.json").write_text(
        '{"name": "web", "version": "1.0.0", "scripts": {"build": "echo built"}}'
    )
    for folder in (workspace, web):
        (folder / "node_modules" / ".bin").mkdir(parents=True, exist_ok=True)
        program = folder / "node_modules" / ".bin" / "gulp"
        program.write_text('#!/bin/sh\necho "GULP-RAN $*"\n')
        program.chmod(0o755)
    return workspace, env_beside(tmp_path)


def _judge(tmp_path: Path, line: str, *approvals: str) -> Decision:
    workspace, env = _project(tmp_path)
    return decide(line, workspace, env, *approvals)


# -- HY1's premise: yarn 1 drops the first `--` and hands the rest to the program --------
@pytest.mark.skipif(not _real(_YARN1), reason="yarn 1 is not installed")
@pytest.mark.parametrize(
    ("words", "printed"),
    [
        (["gulp", "--", "-f", "/x/g.js"], "GULP-RAN -f /x/g.js"),
        (["gulp", "build", "--", "--gulpfile", "/x/g.js"], "GULP-RAN build --gulpfile /x/g.js"),
        (["run", "gulp", "--", "-f", "/x/g.js"], "GULP-RAN -f /x/g.js"),
        (["workspace", "web", "gulp", "--", "--require", "/x/e.js"],
         "GULP-RAN --require /x/e.js"),
    ],
)  # fmt: skip
def test_yarn1_drops_the_dashes(tmp_path: Path, words: list[str], printed: str) -> None:
    workspace, env = _project(tmp_path)
    output = program_printed([str(_NODE), str(_YARN1), *words], workspace, _run_env(env))
    assert printed in output


# -- HY1: the program's clauses read the line without the `--` too --------------------
@pytest.mark.parametrize(
    ("command", "approval", "rule"),
    [
        ("yarn gulp -- -f /x/g.js", "yarn gulp", "gulp-other-file"),
        ("yarnpkg gulp -- -f /x/g.js", "yarnpkg gulp", "gulp-other-file"),
        ("yarn gulp build -- --gulpfile /x/g.js", "yarn gulp build", "gulp-other-file"),
        ("yarn run gulp -- -f /x/g.js", "yarn run gulp", "gulp-other-file"),
        ("yarn workspace web gulp -- --require /x/e.js", "yarn workspace web gulp",
         "gulp-other-file"),
        ("yarn snakemake -- --cluster 'sh -c id'", "yarn snakemake", "snakemake-other-file"),
        ("yarn jest -- --config /x/e.js", "yarn jest", "js-other-config"),
        ("yarn webpack -- --config /x/e.js", "yarn webpack", "js-other-config"),
        ("yarn eslint -- -c /x/e.js .", "yarn eslint", "eslint-other-config"),
        ("yarn grunt -- --gruntfile /x/G.js", "yarn grunt", "grunt-other-file"),
        ("yarn workspaces run gulp -- --require /x/e.js", "yarn workspaces run gulp",
         "gulp-other-file"),
    ],
)  # fmt: skip
def test_yarn_dashes_held(tmp_path: Path, command: str, approval: str, rule: str) -> None:
    decision = _judge(tmp_path, command, approval)
    assert decision.verdict is not Verdict.ALLOW
    assert rule in {reason.rule_id for reason in decision.reasons}


def test_yarn_dashes_not_offered(tmp_path: Path) -> None:
    decision = _judge(tmp_path, "yarn gulp -- -f /tmp/x.js")
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize("command", ["yarn gulp --registry http://x --", "yarn gulp -- --cwd /x"])
def test_yarn_dashes_launcher_options(tmp_path: Path, command: str) -> None:
    # (yarn's own options are the words before the first `--`: yarn 1 hands the words
    # after it to the program, `yarn gulp -- --registry http://x` ran `gulp --registry
    # http://x`, review IB3; `--cwd` anywhere still asks)
    decision = _judge(tmp_path, command, "yarn gulp")
    assert decision.verdict is not Verdict.ALLOW
    assert "engine.launcher-file" in {reason.rule_id for reason in decision.reasons}


# -- HY2: more scopes than are read ---------------------------------------------------
def test_nested_scopes_past_the_cap(tmp_path: Path) -> None:
    assert _judge(tmp_path, _NESTED).suggested_rule is None
    decision = _judge(tmp_path, f"{_NESTED} -f /x/g.js", _NESTED)
    assert decision.verdict is not Verdict.ALLOW
    assert "engine.launcher-file" in {reason.rule_id for reason in decision.reasons}


# -- HY3: `yarn workspaces run X` is a line of X --------------------------------------
def test_workspaces_run_offered_with_its_verb(tmp_path: Path) -> None:
    decision = _judge(tmp_path, "yarn workspaces run build")
    assert decision.suggested_rule == "yarn workspaces run build"
    held = _judge(tmp_path, "yarn workspaces run gulp -f /x/g.js", "yarn workspaces run gulp")
    assert held.verdict is not Verdict.ALLOW
    terraform = _judge(tmp_path, "yarn workspaces run terraform apply", "yarn")
    assert terraform.verdict is not Verdict.ALLOW


# -- HY4: offers that would not lift their own line ------------------------------------
@pytest.mark.parametrize(
    "command",
    ["yarn vim", "yarn view", "yarn workspace web vim", "pnpm recursive info",
     "pnpm recursive view", "yarn terraform plan"],
)  # fmt: skip
def test_offers_that_would_not_lift_withheld(tmp_path: Path, command: str) -> None:
    decision = _judge(tmp_path, command)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


# -- HY5: berry's `run --require MODULE` ----------------------------------------------
def test_run_require_value_skipped(tmp_path: Path) -> None:
    line = "yarn run --require x gulp --gulpfile /x/g.js"
    assert package_bin_line(line.split(), explicit=True) == ["gulp", "--gulpfile", "/x/g.js"]
    decision = _judge(tmp_path, line, "yarn run")
    assert "gulp-other-file" in {reason.rule_id for reason in decision.reasons}


# -- guards: ordinary lines keep their verdicts and offers -----------------------------
@pytest.mark.parametrize(
    ("command", "offer"),
    [
        ("yarn gulp build", "yarn gulp"),
        ("yarn test -- --watch", "yarn test"),
        ("yarn jest --watch", None),
        ("pnpm view lodash", "pnpm view"),
        ("yarn info react", "yarn info"),
        ("yarn workspace web build", "yarn workspace web build"),
        ("yarn" + " workspace web" * 4 + " gulp", "yarn" + " workspace web" * 4 + " gulp"),
    ],
)
def test_offers_kept(tmp_path: Path, command: str, offer: str | None) -> None:
    decision = _judge(tmp_path, command)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == offer


@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("yarn gulp build", "yarn gulp"),
        ("yarn test -- --watch", "yarn test"),
        ("yarn build -- --prod", "yarn build"),
        ("pnpm view lodash", "pnpm view"),
        ("yarn info react", "yarn info"),
        ("yarn workspace web build", "yarn workspace web build"),
        ("yarn workspaces run build", "yarn workspaces run build"),
    ],
)
def test_plain_lines_stay_approved(tmp_path: Path, command: str, approval: str) -> None:
    decision = _judge(tmp_path, command, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
