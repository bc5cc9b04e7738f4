"""Review IE3-IE5 (older holes of grunt, gulp and jake lines), repaired by fixer CO.

IE3: grunt-cli (liftup, flagged-respawn with v8flags' list, which holds node's own flags)
restarts node with any node flag found anywhere on its line, past `--` too: `grunt build
--import=/tmp/x.mjs` ran the module under the approval `grunt build` (real grunt-cli
1.5.0); gulp-cli (Liftoff, v8flags) reads its line the same way. IE4: jake reads its
options past a `--` (`jake build -- -f /tmp/x.js` ran the file, real jake 10.9.4). IE5:
jake copies a `NAME=VALUE` operand into process.env, which the tasks' programs inherit
(`jake build "NODE_OPTIONS=--require /tmp/x.js"` ran it); rake does the same (`rake build
RUBYOPT=-r/tmp/x.rb`, real rake). Each asks now under any approval, with the reason
`engine.task-runner-line`; ordinary lines keep their verdicts and offers.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import GRUNT_MODULES, JAKE_MODULES, decide, env_beside

from policylang import Verdict


def _ws(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    return workspace


_HOLES = [
    ("grunt build", "grunt build --import=/tmp/x.mjs"),
    ("grunt build", "grunt build -- --import=/tmp/x.mjs"),
    ("grunt build", "grunt build --inspect=0.0.0.0:9229"),
    ("grunt build", "grunt build -r /tmp/x.js"),
    ("grunt build", 'grunt build "$FLAG"'),
    ("gulp build", "gulp build --import=/tmp/x.mjs"),
    ("gulp build", "gulp build -- --inspect-brk=0.0.0.0:9229"),
    ("yarn grunt build", "yarn grunt build --import=/tmp/x.mjs"),
    ("jake build", "jake build -- -f /tmp/x.js"),
    ("jake build", "jake build -- --jakefile /tmp/x.js"),
    ("jake build", "jake build -- -C /tmp/o"),
    ("jake build", "jake build 'NODE_OPTIONS=--require /tmp/x.js'"),
    ("jake build", "jake build PATH=/tmp/evil:/usr/bin"),
    ("jake build", "jake build LD_PRELOAD=/tmp/x.so"),
    ("yarn jake build", "yarn jake build PATH=/tmp/evil:/usr/bin"),
    ("rake build", "rake build PATH=/tmp/evil:/usr/bin"),
    ("rake build", "rake build RUBYOPT=-r/tmp/x.rb"),
]


@pytest.mark.parametrize(("approval", "line"), _HOLES)
def test_runner_line_handing_on_asks(tmp_path: Path, approval: str, line: str) -> None:
    workspace = _ws(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.task-runner-line" in {r.rule_id for r in decision.reasons}, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("grunt build", "grunt build"),
        ("grunt build", "grunt build --force"),
        ("grunt build", "grunt build -v"),
        ("grunt build", "grunt build -vf"),
        ("grunt build", "grunt build --no-color --stack"),
        ("gulp build", "gulp build"),
        ("gulp build", "gulp build --silent"),
        ("gulp", "gulp -T"),
        ("gulp", "gulp --tasks-simple"),
        ("yarn grunt build", "yarn grunt build"),
        ("jake build", "jake build"),
        ("jake build", "jake build -q"),
        ("jake build", "jake build MODE=prod"),
        ("rake build", "rake build"),
        ("rake build", "rake build MODE=prod"),
    ],
)
def test_ordinary_runner_lines_allowed(tmp_path: Path, approval: str, line: str) -> None:
    workspace = _ws(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path), approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("grunt build", "grunt build"),
        ("grunt --force", "grunt"),
        ("gulp build", "gulp build"),
        ("jake build", "jake build"),
        ("rake build", "rake build"),
    ],
)
def test_ordinary_runner_lines_keep_their_offer(tmp_path: Path, line: str, offer: str) -> None:
    workspace = _ws(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == offer


# -- premises, with the real programs (skipped where they are not installed) -------------
_GRUNT = GRUNT_MODULES
_JAKE = JAKE_MODULES
_NODE = shutil.which("node")
_RAKE = shutil.which("rake")


def _project(tmp_path: Path, modules: Path | None, name: str, text: str) -> Path:
    workspace = tmp_path / "real"
    workspace.mkdir()
    if modules is not None:
        (workspace / "node_modules").symlink_to(modules)
    (workspace / name).write_text(text)
    return workspace


@pytest.mark.skipif(_GRUNT is None or _NODE is None, reason="grunt is not installed")
@pytest.mark.parametrize("extra", [["--import=MOD"], ["--", "--import=MOD"]])
def test_ie3_premise_real_grunt_restarts_node_with_a_node_flag(
    extra: list[str], tmp_path: Path
) -> None:
    assert _GRUNT is not None
    assert _NODE is not None
    module = tmp_path / "x.mjs"
    module.write_text("console.log('EVIL-IMPORT');\n")
    text = "module.exports = function (g) { g.registerTask('build', function () {}); };\n"
    workspace = _project(tmp_path, _GRUNT, "Gruntfile.js", text)
    words = [w.replace("MOD", str(module)) for w in extra]
    argv = [_NODE, str(_GRUNT / "grunt-cli" / "bin" / "grunt"), "build", *words]
    ran = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=60)
    assert "EVIL-IMPORT" in ran.stdout, ran.stdout + ran.stderr


@pytest.mark.skipif(_JAKE is None or _NODE is None, reason="jake is not installed")
@pytest.mark.parametrize("extra", [["--", "-f", "FILE"], ["NODE_OPTIONS=--require FILE"]])
def test_ie4_ie5_premise_real_jake(extra: list[str], tmp_path: Path) -> None:
    assert _JAKE is not None
    assert _NODE is not None
    evil = tmp_path / "x.js"
    evil.write_text("console.log('EVIL-FILE');\n")
    text = (
        "task('build', function () { require('child_process')"
        ".execFileSync(process.execPath, ['-e', '1'], {stdio: 'inherit'}); });\n"
    )
    workspace = _project(tmp_path, _JAKE, "Jakefile", text)
    words = [w.replace("FILE", str(evil)) for w in extra]
    argv = [_NODE, str(_JAKE / "jake" / "bin" / "cli.js"), "build", *words]
    ran = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=60)
    assert "EVIL-FILE" in ran.stdout, ran.stdout + ran.stderr


@pytest.mark.skipif(_RAKE is None, reason="rake is not installed")
def test_ie5_premise_real_rake_hands_rubyopt_on(tmp_path: Path) -> None:
    assert _RAKE is not None
    evil = tmp_path / "x.rb"
    evil.write_text("puts 'EVIL-RUBY'\n")
    workspace = _project(tmp_path, None, "Rakefile", "task :build do\n  sh 'ruby -e 1'\nend\n")
    argv = [_RAKE, "build", f"RUBYOPT=-r{evil}"]
    ran = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=60)
    assert "EVIL-RUBY" in ran.stdout, ran.stdout + ran.stderr
