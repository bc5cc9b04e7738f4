"""Review IA1 and HZ3, fixed by fixer CI.

IA1: grunt-cli reads its options with nopt, its aliases from grunt-known-options: `-b` is
`--base` (also bundled, `-vb x`, and glued, `-b=x`), `-p` is `--preload`, and `--require`
(liftup) loads a module; `--completion=NAME` prints a file named from grunt-cli's own
folder. All ran under an approved `grunt` or `grunt build` (checked with real grunt-cli
1.5.0 and grunt 1.6.3): they ask (`grunt-other-file`, `grunt-completion-file`).
HZ3: phing, jake and doit had no "other build file" clause (ant and nox do): `phing build
-f /tmp/evil.xml`, `jake build -f /tmp/J`, `doit run -f /tmp/d.py`, `doit run -d ../other`
ran under the offered `phing build`, `jake build`, `doit run` (suspected).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from realrun import NPM_TOOLS, workspace_judge

from policylang import Decision, Verdict, load_policy

Judge = Callable[..., Decision]

_APPROVED = ("grunt", "grunt build", "phing build", "jake build", "doit run", "doit list")


@pytest.fixture
def judge_in_ws(tmp_path: Path) -> Judge:
    """The default policy's decision in a fresh workspace (approvals added in memory)."""
    return workspace_judge(tmp_path)


_GRUNT_ATTACKS = [
    ("grunt build -b ../other", "grunt-other-file"),
    ("grunt -vb ../other", "grunt-other-file"),
    ("grunt -b=../other", "grunt-other-file"),
    ("grunt --bas ../other", "grunt-other-file"),
    ("grunt --b ../other", "grunt-other-file"),
    ("grunt --require=../x.js", "grunt-other-file"),
    ("grunt --require ../x.js build", "grunt-other-file"),
    ("grunt build --require=../x.js", "grunt-other-file"),
    ("grunt -p ../x.js", "grunt-other-file"),
    ("grunt --preload=../x.js build", "grunt-other-file"),
    ("grunt --pre ../x.js", "grunt-other-file"),
    ("grunt --completion=../../../../x", "grunt-completion-file"),
    ("grunt --com=../../../../x", "grunt-completion-file"),
]

_OTHER_FILE_ATTACKS = [
    ("phing build -f /tmp/evil.xml", "phing-other-file"),
    ("phing build -buildfile /tmp/evil.xml", "phing-other-file"),
    ("phing build --buildfile /tmp/evil.xml", "phing-other-file"),
    ("phing -find build", "phing-other-file"),
    ("phing build -logger Evil", "phing-other-file"),
    ("phing build -listener Evil", "phing-other-file"),
    ("phing build -inputhandler Evil", "phing-other-file"),
    ("phing build -propertyfile /tmp/p", "phing-other-file"),
    ("jake build -f /tmp/J", "jake-other-file"),
    ("jake build --jakefile=/tmp/J", "jake-other-file"),
    ("jake build -J /tmp/lib", "jake-other-file"),
    ("jake build --jakelibdir /tmp/lib", "jake-other-file"),
    ("jake build -C ../other", "jake-other-file"),
    ("doit run -f /tmp/d.py", "doit-other-file"),
    ("doit run --file=/tmp/d.py", "doit-other-file"),
    ("doit run -d ../other", "doit-other-file"),
    ("doit run --dir ../other", "doit-other-file"),
    ("doit run -k", "doit-other-file"),
    ("doit list --seek-file", "doit-other-file"),
]


@pytest.mark.parametrize(("command", "rule"), _GRUNT_ATTACKS + _OTHER_FILE_ATTACKS)
def test_other_build_file_asks_under_approval(command: str, rule: str, judge_in_ws: Judge) -> None:
    decision = judge_in_ws(command, _APPROVED)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert rule in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(("command", "rule"), _GRUNT_ATTACKS + _OTHER_FILE_ATTACKS)
def test_ci_denies_them(command: str, rule: str) -> None:
    rules = Path(__file__).parents[3] / "policylang" / "rulesets" / "ci.policy"
    decision = load_policy(rules).evaluate(command, workspace="/tmp/ia-ws", cwd="/tmp/ia-ws")
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert f"ci-{rule}" in {reason.rule_id for reason in decision.reasons}


# (guards: the project's own runs keep their approvals and their offers)
@pytest.mark.parametrize(
    "command",
    ["grunt", "grunt build", "grunt -v build", "grunt --help", "grunt -V", "grunt -f build",
     "grunt -d build", "grunt --no-color build", "phing build", "phing build -verbose",
     "phing build -Dx=y", "phing build -longtargets", "jake build", "jake build -B",
     "jake build -q", "jake build -t", "doit run", "doit run -a", "doit run -n 2", "doit list"],
)  # fmt: skip
def test_project_runs_stay_approved(command: str, judge_in_ws: Judge) -> None:
    assert judge_in_ws(command, _APPROVED).verdict is Verdict.ALLOW, command


@pytest.mark.parametrize(
    ("command", "offer"),
    [("grunt", "grunt $"), ("grunt build", "grunt build"), ("grunt -v build", "grunt -v build $"),
     ("phing build", "phing build"), ("phing build -verbose", "phing build"),
     ("jake build", "jake build"), ("jake build -q", "jake build"), ("doit run", "doit run"),
     ("doit run -n 2", "doit run")],
)  # fmt: skip
def test_ordinary_uses_keep_their_offer(command: str, offer: str, judge_in_ws: Judge) -> None:
    assert judge_in_ws(command).suggested_rule == offer


# -- premise, with real grunt-cli (skipped where it is not installed) --------------------
def _grunt_modules() -> Path | None:
    """A node_modules holding grunt-cli and grunt: $POLICYLANG_GRUNT_MODULES, or the real
    tools' folder."""
    for candidate in (os.environ.get("POLICYLANG_GRUNT_MODULES"), NPM_TOOLS / "node_modules"):
        if (
            candidate
            and (Path(candidate) / "grunt-cli" / "bin" / "grunt").is_file()
            and (Path(candidate) / "grunt").is_dir()
        ):
            return Path(candidate)
    return None


_GRUNT_MODULES = _grunt_modules()


@pytest.mark.skipif(
    _GRUNT_MODULES is None or shutil.which("node") is None, reason="grunt is not installed"
)
@pytest.mark.parametrize(("command", "rule"), _GRUNT_ATTACKS[:-2])
def test_ia1_premise_real_grunt_runs_the_other_code(
    command: str, rule: str, tmp_path: Path
) -> None:
    assert _GRUNT_MODULES is not None
    assert rule == "grunt-other-file"
    workspace, other = tmp_path / "ws", tmp_path / "other"
    for folder, text in ((workspace, "WS"), (other, "EVIL-GRUNTFILE")):
        folder.mkdir()
        (folder / "node_modules").symlink_to(_GRUNT_MODULES)
        (folder / "Gruntfile.js").write_text(
            f"module.exports = function (g) {{ console.log('{text}');"
            " g.registerTask('default', function () {});"
            " g.registerTask('build', function () {}); };\n"
        )
    (tmp_path / "x.js").write_text("console.log('EVIL-REQUIRE');\n")
    grunt = _GRUNT_MODULES / "grunt-cli" / "bin" / "grunt"
    node = shutil.which("node")
    assert node is not None
    words = [word.replace("../x.js", str(tmp_path / "x.js")) for word in command.split()[1:]]
    argv = [node, str(grunt), *words]
    ran = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=60)
    assert "EVIL-" in ran.stdout, ran.stdout + ran.stderr
