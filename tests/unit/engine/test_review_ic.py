"""Review IC1, IC2 and IC4, fixed by fixer CL.

IC1: grunt-cli reads its options with nopt, which takes `-word` and `---word` for
`--word`, any unique prefix of a long name (`-gru`), `=VALUE` glued, and a one-letter word
that is no alias as the long option it is a unique prefix of (`-g` is `--gruntfile`, `-t`
`--tasks`): `grunt build -gruntfile ../other/Gruntfile.js`, `-tasks ../other`, `-g …`
ran the other Gruntfile under the offered `grunt build` (real grunt-cli 1.5.0). They ask
(`grunt-other-file`): grunt's words are read as nopt reads them.
IC2: jake strips one `--`, then one `-`, and looks the rest up as a long or a short name:
`jake build --f /tmp/x.js`, `---f`, `--f=…`, `---jakefile`, `--J=…`, `-jakelibdir=…` ran
another Jakefile or task library under `jake build` (real jake 10.9.4). They ask.
IC4: the approval's read of the folder a task runner moves to knew only the exact option
words: `grunt build -vb ~`, `grunt build -base ../..`, `doit run -vd ~`, `doit run --di
~`, `snakemake -nd ~` asked where `--base ~` and `-d ~` deny. They deny again.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from realrun import GRUNT_MODULES, JAKE_MODULES, workspace_judge

from policylang import Decision, Verdict, load_policy

Judge = Callable[..., Decision]

_APPROVED = ("grunt", "grunt build", "jake build", "doit run", "snakemake")


@pytest.fixture
def judge_in_ws(tmp_path: Path) -> Judge:
    """The default policy's decision in a fresh workspace (approvals added in memory)."""
    return workspace_judge(tmp_path)


_GRUNT_SPELLINGS = [
    "grunt build -gruntfile ../other/Gruntfile.js",
    "grunt build -gruntfile=../other/Gruntfile.js",
    "grunt build -gru ../other/Gruntfile.js",
    "grunt build ---gruntfile ../other/Gruntfile.js",
    "grunt build -g ../other/Gruntfile.js",
    "grunt build -tasks ../other",
    "grunt build -tasks=../other",
    "grunt build -tas ../other",
    "grunt build -t ../other",
    "grunt -gruntfile ../other/Gruntfile.js",
]
_JAKE_SPELLINGS = [
    "jake build --f ../other/Jakefile",
    "jake build ---f ../other/Jakefile",
    "jake build --f=../other/Jakefile",
    "jake build ---jakefile ../other/Jakefile",
    "jake build -jakefile=../other/Jakefile",
    "jake build --J=../other/lib",
    "jake build -jakelibdir=../other/lib",
    "jake build --C ../other",
    "jake build -directory=../other",
]


@pytest.mark.parametrize(
    ("command", "rule"),
    [(c, "grunt-other-file") for c in _GRUNT_SPELLINGS]
    + [(c, "jake-other-file") for c in _JAKE_SPELLINGS],
)
def test_other_file_spellings_ask_under_approval(
    command: str, rule: str, judge_in_ws: Judge
) -> None:
    decision = judge_in_ws(command, _APPROVED)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert rule in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    ("command", "rule"),
    [(c, "ci-grunt-other-file") for c in _GRUNT_SPELLINGS]
    + [(c, "ci-jake-other-file") for c in _JAKE_SPELLINGS],
)
def test_ci_denies_them(command: str, rule: str) -> None:
    rules = Path(__file__).parents[3] / "policylang" / "rulesets" / "ci.policy"
    decision = load_policy(rules).evaluate(command, workspace="/tmp/ic-ws", cwd="/tmp/ic-ws")
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert rule in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    "command",
    ["grunt build -vb ~", "grunt build -base ~", "grunt build -bas=.", "grunt build ---base ~",
     "grunt build -t ~", "doit run -vd ~", "doit run --di ~",
     "doit run -ad ~", "snakemake -nd ~", "snakemake --dir ~", "jake build --C ~",
     "jake build -directory ~"],
)  # fmt: skip
def test_moved_to_home_denies(command: str, tmp_path: Path, judge_in_ws: Judge) -> None:
    """IC4: every spelling of the folder options reads the home whole, as `--base ~` does."""
    (tmp_path / "home" / ".ssh").mkdir()
    (tmp_path / "home" / ".ssh" / "id_rsa").write_text("key\n")
    command = command.replace("=.", f"={tmp_path / 'home'}")
    decision = judge_in_ws(command, _APPROVED)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "command",
    ["grunt build", "grunt build -v", "grunt build --no-color --stack", "grunt build -f -d",
     "jake build", "jake build -t", "jake build -B", "jake build -q", "doit run",
     "doit run -a", "doit run -n 4", "doit run -v 2", "snakemake -n", "snakemake -j 4"],
)  # fmt: skip
def test_project_runs_stay_approved(command: str, tmp_path: Path, judge_in_ws: Judge) -> None:
    (tmp_path / "home" / ".ssh").mkdir()
    assert judge_in_ws(command, _APPROVED).verdict is Verdict.ALLOW, command


@pytest.mark.parametrize(
    ("command", "offer"),
    [("grunt", "grunt $"), ("grunt build", "grunt build"), ("grunt -v build", "grunt -v build $"),
     ("grunt --help", None), ("jake -T", None), ("jake build -t", "jake build"),
     ("jake -B build", "jake -B build $"), ("jake build[debug]", None),
     ("doit run -a", "doit run"), ("doit list", None), ("doit run -n 4", "doit run")],
)  # fmt: skip
def test_ordinary_uses_keep_their_verdict_and_offer(
    command: str, offer: str | None, judge_in_ws: Judge
) -> None:
    decision = judge_in_ws(command)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == offer


# -- premises, with real grunt-cli and jake (skipped where they are not installed) -------
_GRUNT = GRUNT_MODULES
_JAKE = JAKE_MODULES
_NODE = shutil.which("node")


def _project(tmp_path: Path, modules: Path, name: str, text: str) -> Path:
    workspace, other = tmp_path / "ws", tmp_path / "other"
    for folder, mark in ((workspace, "WS"), (other, "EVIL-OTHER")):
        folder.mkdir()
        (folder / "node_modules").symlink_to(modules)
        (folder / name).write_text(text.replace("MARK", mark))
    (other / "lib").mkdir()
    (other / "lib" / "x.js").write_text("console.log('EVIL-LIB');\n")
    return workspace


@pytest.mark.skipif(_GRUNT is None or _NODE is None, reason="grunt is not installed")
@pytest.mark.parametrize("command", _GRUNT_SPELLINGS)
def test_ic1_premise_real_grunt_runs_the_other_gruntfile(command: str, tmp_path: Path) -> None:
    assert _GRUNT is not None
    assert _NODE is not None
    text = (
        "module.exports = function (g) { console.log('MARK');"
        " g.registerTask('default', function () {});"
        " g.registerTask('build', function () {}); };\n"
    )
    workspace = _project(tmp_path, _GRUNT, "Gruntfile.js", text)
    argv = [_NODE, str(_GRUNT / "grunt-cli" / "bin" / "grunt"), *command.split()[1:]]
    ran = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=60)
    assert "EVIL-OTHER" in ran.stdout, ran.stdout + ran.stderr


@pytest.mark.skipif(_JAKE is None or _NODE is None, reason="jake is not installed")
@pytest.mark.parametrize("command", _JAKE_SPELLINGS[:-2])  # (`-C` moves the tasks only)
def test_ic2_premise_real_jake_runs_the_other_jakefile(command: str, tmp_path: Path) -> None:
    assert _JAKE is not None
    assert _NODE is not None
    text = "console.log('MARK'); task('build', function () {});\n"
    workspace = _project(tmp_path, _JAKE, "Jakefile", text)
    argv = [_NODE, str(_JAKE / "jake" / "bin" / "cli.js"), *command.split()[1:]]
    ran = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=60)
    assert "EVIL-" in ran.stdout, ran.stdout + ran.stderr
