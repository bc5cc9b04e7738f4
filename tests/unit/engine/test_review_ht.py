"""Review HT (of BY's change), fixed by fixer CA.

HT2: listings that load the project's code were still offered under other spellings:
go-task (task's other name), `snakemake -l`, package-runner spellings (`yarn nx show
projects`, `yarn lerna list`, `yarn task --list`, `npm exec -- lerna list`), `cargo-make
make --list-all-steps`, `poe -h`, `mage -v`, `mage -h x`, `waf --help`, rails' verbs that
boot the app (`rails routes`, `rails about` …), `nx graph`.
HT1: a build file or module named on the line (`gulp --gulpfile /tmp/evil.js`, `ant -f
/tmp/evil.xml`, `snakemake -s`, `cargo make --makefile`) ran under the approval of the
project's own run: it asks, as `tox -c` does.
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
        "go-task -l",
        "go-task --list",
        "go-task --list-all",
        "snakemake -l",
        "yarn nx show projects",
        "yarn lerna list",
        "yarn task --list",
        "npm exec -- lerna list",
        "cargo-make make --list-all-steps",
        "poe -h",
        "poe --help",
        "mage -v",
        "mage -h x",
        "waf --help",
        "rails routes",
        "rails about",
        "rails notes",
        "rails stats",
        "rails middleware",
        "rails initializers",
        "nx graph",
    ],
)
def test_project_listings_offered_nothing(command: str, judge_in_ws: Judge) -> None:
    decision = judge_in_ws(command)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    ("command", "offer"),
    [
        ("go-task", "go-task $"),
        ("go-task build", "go-task build"),
        ("task build", "task build"),
        ("snakemake -j4", "snakemake"),
        ("yarn build", "yarn build"),
        ("gulp build", "gulp build"),
        ("gulp --silent", "gulp"),
        ("grunt test", "grunt test"),
        ("ant compile", "ant compile"),
        ("cargo make build", "cargo make"),
        ("rails server", "rails server"),
        ("rails db:migrate", "rails db:migrate"),
        ("just --list", "just --list $"),
        ("mage build", "mage build"),
        ("nx build", "nx build"),
    ],
)
def test_ordinary_uses_keep_their_offer(command: str, offer: str, judge_in_ws: Judge) -> None:
    assert judge_in_ws(command).suggested_rule == offer


_APPROVED = ("gulp", "grunt", "ant", "snakemake", "cargo make", "makers")


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("gulp --gulpfile /tmp/evil.js", "gulp-other-file"),
        ("gulp --gulpfile=/tmp/evil.js", "gulp-other-file"),
        ("gulp --require ./x.js", "gulp-other-file"),
        ("grunt --gruntfile /tmp/x.js", "grunt-other-file"),
        ("ant -f /tmp/evil.xml", "ant-other-file"),
        ("ant -buildfile /tmp/evil.xml", "ant-other-file"),
        ("snakemake -s /tmp/x.smk", "snakemake-other-file"),
        ("cargo make --makefile /tmp/x.toml", "cargo-make-other-file-cargo"),
        ("makers --makefile /tmp/x.toml", "cargo-make-other-file"),
    ],
)
def test_other_build_file_asks_under_approval(command: str, rule: str, judge_in_ws: Judge) -> None:
    decision = judge_in_ws(command, _APPROVED)
    assert decision.verdict is Verdict.ASK
    assert rule in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    "command",
    ["gulp build", "gulp --silent", "grunt test", "ant compile", "cargo make build",
     "snakemake -j4"],
)  # fmt: skip
def test_project_runs_stay_approved(command: str, judge_in_ws: Judge) -> None:
    assert judge_in_ws(command, _APPROVED).verdict is Verdict.ALLOW
