"""Review IB, fixed by fixer CN: yarn's program lines after review HY (fixer CK).

IB1: yarn 1's `run --require` is a plain flag: `yarn run --require gulp -f /tmp/x.js`
runs `gulp -f /tmp/x.js`, where berry's reading (HY5) skipped `gulp` as the MODULE and
the approved `yarn run` allowed it. Both readings are judged, the stricter kept.
IB2: yarn 1 loads `--use-yarnrc FILE` from anywhere on its line, past any `--`, before
all else, and runs the `yarn-path` the file names in place of itself: a yarn line with a
word that is (or may be) `--use-yarnrc` asks under any approval and is offered nothing.
IB3: yarn's own option check read the line without its first `--` too, so the script's
options looked like yarn's (`yarn lint -- --fix` asked and lost its offer): that copy is
read for the program's clauses alone. IB4: `yarn workspaces --silent run test x` was
offered bare `yarn workspaces` (which approved `yarn workspaces run deploy`).
Real runs with yarn 1 prove IB1's and IB2's premises (skipped where absent).
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


def _project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A yarn project (a `test` script) whose `node_modules/.bin` holds a fake `gulp`
    printing its words."""
    workspace = tmp_path / "ws"
    (workspace / "node_modules" / ".bin").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    (workspace / "package.json").write_text(
        '{"name": "root", "version": "1.0.0", "private": true, "scripts": {"test": "echo tested"}}'
    )
    program = workspace / "node_modules" / ".bin" / "gulp"
    program.write_text('#!/bin/sh\necho "GULP-RAN $*"\n')
    program.chmod(0o755)
    return workspace, env_beside(tmp_path)


def _judge(tmp_path: Path, line: str, *approvals: str) -> Decision:
    workspace, env = _project(tmp_path)
    return decide(line, workspace, env, *approvals)


# -- IB1's premise: yarn 1's `run --require` takes no value ------------------------------
@pytest.mark.skipif(not _real(_YARN1), reason="yarn 1 is not installed")
def test_yarn1_run_require_is_a_flag(tmp_path: Path) -> None:
    workspace, env = _project(tmp_path)
    args = [str(_NODE), str(_YARN1), "run", "--require", "gulp", "-f", "/x/g.js"]
    assert "GULP-RAN -f /x/g.js" in program_printed(args, workspace, _run_env(env))


# -- IB1: yarn 1's reading of `run --require` is judged too ------------------------------
@pytest.mark.parametrize(
    ("command", "approval", "rule"),
    [
        ("yarn run --require gulp -f /tmp/x.js", "yarn run", "gulp-other-file"),
        ("yarn run --require jest --config /tmp/x.js", "yarn run", "js-other-config"),
        ("yarn run --require snakemake -s /tmp/x", "yarn run", "snakemake-other-file"),
        ("yarn run --require terraform apply", "yarn run", "terraform-evaluates-config"),
        ("yarn run --require gulp -f /tmp/x.js", "yarn", "gulp-other-file"),
        ("yarnpkg run --require gulp -f /tmp/x.js", "yarnpkg run", "gulp-other-file"),
        ("yarn workspace web run --require gulp -f /tmp/x.js", "yarn workspace web",
         "gulp-other-file"),
    ],
)  # fmt: skip
def test_run_require_read_as_yarn1_does(
    tmp_path: Path, command: str, approval: str, rule: str
) -> None:
    decision = _judge(tmp_path, command, approval)
    assert decision.verdict is not Verdict.ALLOW
    assert rule in {r.rule_id for r in decision.reasons}


# -- IB2's premise: yarn 1 loads `--use-yarnrc` past `--` and runs its `yarn-path` -------
@pytest.mark.skipif(not _real(_YARN1), reason="yarn 1 is not installed")
@pytest.mark.parametrize(
    "words",
    [
        ["test", "--use-yarnrc", "RC"],
        ["test", "--", "--use-yarnrc", "RC"],
        ["gulp", "--", "--", "--use-yarnrc", "RC"],
    ],
)
def test_yarn1_reads_use_yarnrc_anywhere(tmp_path: Path, words: list[str]) -> None:
    workspace, env = _project(tmp_path)
    evil = tmp_path / "evil.js"
    evil.write_text('console.log("EVIL-RAN")\n')
    rc = tmp_path / "rc"
    rc.write_text(f'yarn-path "{evil}"\n')
    args = [str(_NODE), str(_YARN1), *(str(rc) if w == "RC" else w for w in words)]
    # (the premise needs yarn's `yarn-path` honoured: no YARN_IGNORE_PATH)
    output = program_printed(args, workspace, _run_env(env, YARN_IGNORE_PATH="0"))
    assert "EVIL-RAN" in output


# -- IB2: a word that is or may be `--use-yarnrc` asks, anywhere, and gets no offer -----
@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("yarn test --use-yarnrc /tmp/rc", "yarn test"),
        ("yarn test -- --use-yarnrc /tmp/rc", "yarn test"),
        ("yarn gulp -- -- --use-yarnrc /tmp/rc", "yarn gulp"),
        ("yarn build -- -- --use-yarnrc /tmp/rc", "yarn build"),
        ("yarnpkg build -- -- --use-yarnrc /tmp/rc", "yarnpkg build"),
        ("yarn test -- --use-yarn* /tmp/rc", "yarn test"),
        ("yarn test -- --use-yarn[r]c /tmp/rc", "yarn test"),
        ("yarn test -- --use-yarn{rc,x} /tmp/rc", "yarn test"),
        ('yarn test -- "$X" /tmp/rc', "yarn test"),
    ],
)
def test_use_yarnrc_anywhere_asks(tmp_path: Path, command: str, approval: str) -> None:
    decision = _judge(tmp_path, command, approval)
    assert decision.verdict is Verdict.ASK
    assert any("--use-yarnrc" in r.message for r in decision.reasons)
    assert _judge(tmp_path, command).suggested_rule is None


# -- IB3: the script's options after `--` are not yarn's (guards against false asks) ---
@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("yarn lint -- --fix", "yarn lint"),
        ("yarn build -- --mode production", "yarn build"),
        ("yarn jest -- --coverage", "yarn jest"),
        ("yarn tsc -- --noEmit", "yarn tsc"),
        ("yarn prettier -- --write .", "yarn prettier"),
        ("yarn eslint -- --fix .", "yarn eslint"),
        ("yarn workspaces run test -- --watch", "yarn workspaces run test"),
        ("yarn test -- --watch", "yarn test"),
    ],
)
def test_script_options_after_dashes_keep_verdict(
    tmp_path: Path, command: str, approval: str
) -> None:
    assert _judge(tmp_path, command, approval).verdict is Verdict.ALLOW
    assert _judge(tmp_path, command).suggested_rule == approval


def test_program_clause_after_dashes_still_asks(tmp_path: Path) -> None:
    decision = _judge(tmp_path, "yarn gulp -- -f /tmp/x.js", "yarn gulp")
    assert decision.verdict is Verdict.ASK
    assert "gulp-other-file" in {r.rule_id for r in decision.reasons}


@pytest.mark.parametrize(
    ("command", "offer"), [("pnpm view lodash", "pnpm view"), ("yarn info react", "yarn info")]
)
def test_guards_keep_offers(tmp_path: Path, command: str, offer: str) -> None:
    assert _judge(tmp_path, command).suggested_rule == offer


# -- IB4: yarn's options between `workspaces` and `run` ---------------------------------
def test_workspaces_options_before_run_not_offered_bare(tmp_path: Path) -> None:
    offer = _judge(tmp_path, "yarn workspaces --silent run test x").suggested_rule
    assert offer not in ("yarn workspaces", "yarn workspaces --silent")
    assert offer is None or "run test" in offer
    assert _judge(tmp_path, "yarn workspaces --bogus run test x").suggested_rule is None


# -- IB3's premise: yarn 1 reads its own options before the first `--` only ------------
@pytest.mark.skipif(not _real(_YARN1), reason="yarn 1 is not installed")
def test_yarn1_options_after_dashes_are_the_programs(tmp_path: Path) -> None:
    workspace, env = _project(tmp_path)
    args = [str(_NODE), str(_YARN1), "gulp", "--", "--cwd", "/nonexistent", "--fix"]
    assert "GULP-RAN --cwd /nonexistent --fix" in program_printed(args, workspace, _run_env(env))
