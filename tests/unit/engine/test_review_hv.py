"""Review HV (of CA's change, HT), fixed by fixer CC.

HV2: `options ant long …` made every undeclared single-dash ant option a bundle of short
options: `ant -verbose build` read as `-v -e -r …` and asked as `-e` under `ant`, and `ant
-version` lost its offer. Ant reads each option word whole: all are declared.
HV1: `ant -cp JAR`, `-logger`, `-listener`, `-inputhandler`, `-main` name code ant loads.
HV7: `grunt --base ~` and the like under the program's approval were denied (the home read
whole) before CA's ask rules, which then pre-empted the deny: they are denied again
(fixer CG: only the folder such a runner's option names is read whole; fixer CC's repair,
every operand of a line whose clause asked, denied `uv sync --directory /tmp`, and was
taken out: test_review_cg).
HV3: yarn 1's `run BIN` runs the package's program BIN where no script has that name:
`yarn run nx show projects` was offered `yarn run nx show`; an approved package runner's
line (`yarn run gulp --gulpfile …`, `npx gulp …`) is held to the clauses of its program's
own rules. (Bare `yarn snakemake -s …` too, where its first word is none of yarn's or
pnpm's own commands: `pnpm view lodash` had been held to the editor `view`'s rule, review
HX; closed in review HX4, test_review_hx4.py.)
HV4: `go-task -t FILE`; HV5: snakemake's submit commands, job scripts and profiles; HV6:
cargo-make's `-e`/`--env-file`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from realrun import workspace_judge

from policylang import Decision, Verdict

Judge = Callable[..., Decision]


@pytest.fixture
def judge_in_ws(tmp_path: Path) -> Judge:
    """The default policy's decision in a fresh workspace (approvals added in memory)."""
    return workspace_judge(tmp_path)


@pytest.mark.parametrize(
    "command",
    [
        "ant -verbose build",
        "ant -version",
        "ant -silent build",
        "ant -diagnostics",
        "ant -emacs",
        "ant -nouserlib build",
        "ant -noclasspath",
        "ant -logfile build.log",
        "ant -Dfile=x build",
        "ant -keep-going build",
        "ant -q build",
        "ant compile",
    ],
)
def test_ant_options_read_whole(command: str, judge_in_ws: Judge) -> None:
    assert judge_in_ws(command, ("ant",)).verdict is Verdict.ALLOW


def test_ant_version_keeps_its_offer(judge_in_ws: Judge) -> None:
    assert judge_in_ws("ant -version").suggested_rule == "ant -version $"


@pytest.mark.parametrize(
    ("command", "approval", "rule"),
    [
        ("ant -cp /x/evil.jar", "ant", "ant-other-file"),
        ("ant -logger evil.L build", "ant", "ant-other-file"),
        ("ant -listener evil.L", "ant", "ant-other-file"),
        ("ant -inputhandler evil.L", "ant", "ant-other-file"),
        ("ant -main evil.M", "ant", "ant-other-file"),
        ("ant -f /x/evil.xml", "ant", "ant-other-file"),
        ("ant -file=/x/evil.xml", "ant", "ant-other-file"),
        ("ant -q -buildfile /x/evil.xml", "ant", "ant-other-file"),
        ("go-task -t /x/t.yml build", "go-task", "task-file"),
        ("go-task --taskfile=/x/t.yml build", "go-task", "task-file"),
        ("snakemake --cluster 'sh x'", "snakemake", "snakemake-other-file"),
        ("snakemake --cluster-generic-submit-cmd x", "snakemake", "snakemake-other-file"),
        ("snakemake --jobscript /x/j.sh", "snakemake", "snakemake-other-file"),
        ("snakemake --profile /x/p", "snakemake", "snakemake-other-file"),
        ("snakemake --workflow-profile /x/p", "snakemake", "snakemake-other-file"),
        ("cargo make -e RUSTC_WRAPPER=/x/w build", "cargo make", "cargo-make-other-file-cargo"),
        ("cargo make --env-file /x/e build", "cargo make", "cargo-make-other-file-cargo"),
        ("makers -e RUSTC_WRAPPER=/x/w build", "makers", "cargo-make-other-file"),
        ("makers --env-file=/x/e build", "makers", "cargo-make-other-file"),
        ("yarn run gulp --gulpfile /x/g.js", "yarn run gulp", "gulp-other-file"),
    ],
)
def test_code_named_on_the_line_asks(
    command: str, approval: str, rule: str, judge_in_ws: Judge
) -> None:
    decision = judge_in_ws(command, (approval,))
    assert decision.verdict is Verdict.ASK
    assert rule in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("grunt --base ~", "grunt"),
        ("grunt --tasks ~", "grunt"),
        ("gulp --cwd ~", "gulp"),
        ("snakemake --directory ~", "snakemake"),
        ("makers --cwd ~", "makers"),
    ],
)
def test_home_read_whole_stays_denied(command: str, approval: str, judge_in_ws: Judge) -> None:
    assert judge_in_ws(command, (approval,)).verdict is Verdict.DENY


def test_yarn_run_bin_listing_offered_nothing(judge_in_ws: Judge) -> None:
    decision = judge_in_ws("yarn run nx show projects")
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("gulp build", "gulp"),
        ("grunt test", "grunt"),
        ("snakemake -j4", "snakemake"),
        ("cargo make build", "cargo make"),
        ("makers build", "makers"),
        ("task build", "task"),
        ("go-task build", "go-task"),
        ("yarn run build", "yarn run build"),
        ("yarn run gulp build", "yarn run gulp"),
        ("yarn gulp build", "yarn gulp"),
        ("yarn snakemake all", "yarn snakemake"),
    ],
)
def test_project_runs_stay_approved(command: str, approval: str, judge_in_ws: Judge) -> None:
    assert judge_in_ws(command, (approval,)).verdict is Verdict.ALLOW


def test_pnpm_run_keeps_its_script_offer(judge_in_ws: Judge) -> None:
    assert judge_in_ws("pnpm run nx graph").suggested_rule == "pnpm run nx"
