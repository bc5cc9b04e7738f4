"""Review BW: help and task listings that load the project's code; `vagrant ssh`.

BW1: `mix help`, `rebar3 help`, `vagrant help`, `poetry help`, `bazel help` were offered as
prefixes (`mix help` approved every `mix help TASK`), and a task listing was offered
exactly (`rake -T $`, `invoke --list $`, `mage -l $`, `gulp --tasks $`, `cake --help $`,
`mvn help:describe`), or as the bare program (`nox -l` → `nox`, `ant -p` → `ant`): each
answer loads the project's code (real rake runs the `Rakefile` for `-T`; real mvn loads
`.mvn/jvm.config`'s java agent for any goal). They are offered nothing; `cargo help`,
`go help`, `npm help`, `just --list`, bare `npm run` keep their offers.
BW2: `vagrant ssh -c CMD` (and `-- CMD`) runs CMD in the machine whose synced folder is
the workspace: its command is judged for a deny, as `multipass exec` and `limactl shell`
commands are; `vagrant ssh --help` was offered `vagrant ssh`, which approved `vagrant ssh
-c CMD`: the rule is locked, with a `first-operand` twin (`vagrant --debug ssh`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import canary_workspace, decide

from policylang import Verdict

_PROJECT = {
    "Rakefile": "File.write('rake-ran', 'x')\ntask :a do end\n",
    "mix.exs": "defmodule X.MixProject do end\n",
    "pom.xml": "<project/>\n",
    "tasks.py": "import os\n",
    "Vagrantfile": "Vagrant.configure('2') {}\n",
}


@pytest.mark.parametrize(
    "line",
    [
        "mix help",
        "mix help compile",
        "rebar3 help",
        "rebar3 help compile",
        "rebar3 --help",
        "vagrant help",
        "vagrant help up",
        "poetry help",
        "poetry help add",
        "bazel help",
        "bazel help build",
        "rake -T",
        "rake --tasks",
        "invoke -l",
        "invoke --list",
        "inv -l",
        "mage -l",
        "gulp --tasks",
        "gulp --tasks-simple",
        "gulp --help",
        "cake --help",
        "jake -T",
        "fab --list",
        "nox -l",
        "nox --list",
        "ant -p",
        "doit list",
        "mvn help:describe -Dplugin=help",
        "mvn help:effective-pom",
        "./mvnw help:describe",
    ],
)
def test_bw1_project_listings_are_offered_nothing(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=bw-canary", _PROJECT)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    "line",
    ["rake -f Rakefile -T", "python3 -m invoke --list", "poetry run invoke -l", "fab -l"],
)
def test_bw1_guard_kin_stay_offered_nothing(tmp_path: Path, line: str) -> None:
    # (offered nothing before, by other paths: kept so)
    workspace, env = canary_workspace(tmp_path, "TOKEN=bw-canary", _PROJECT)
    assert decide(line, workspace, env).suggested_rule is None


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("cargo help", "cargo help"),
        ("cargo help build", "cargo help"),
        ("go help", "go help"),
        ("go help build", "go help"),
        ("npm help", "npm help"),
        ("npm run", "npm run $"),
        ("just --list", "just --list $"),
        ("mage -h", "mage -h $"),
        ("rake build", "rake build"),
        ("mix compile", "mix compile"),
        ("mvn test", "mvn test"),
        ("invoke build", "invoke build"),
    ],
)
def test_bw1_guard_offers_kept(tmp_path: Path, line: str, offer: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=bw-canary", _PROJECT)
    decision = decide(line, workspace, env)
    assert decision.suggested_rule == offer


def test_bw1_premise_real_rake_runs_the_rakefile_to_list(tmp_path: Path) -> None:
    rake = shutil.which("rake")
    if rake is None:
        pytest.skip("rake not installed (premise only)")
    workspace, _ = canary_workspace(tmp_path, None, _PROJECT)
    subprocess.run([rake, "-T"], cwd=workspace, capture_output=True, timeout=60, check=False)
    assert (workspace / "rake-ran").exists()


@pytest.mark.parametrize(
    "line",
    [
        "vagrant ssh -c 'rm -rf ~'",
        "vagrant ssh --command='rm -rf ~'",
        "vagrant ssh default -c 'rm -rf ~'",
        "vagrant ssh default --command 'rm -rf ~'",
        "vagrant ssh -p -c 'cat ~/.ssh/id_rsa'",
        "vagrant ssh -- rm -rf ~",
        "vagrant ssh default -- 'rm -rf ~'",
        "vagrant --debug ssh -c 'rm -rf ~'",
    ],
)
def test_bw2_vagrant_ssh_command_is_judged(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=bw-canary", _PROJECT)
    assert decide(line, workspace, env).verdict is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    [
        "vagrant ssh",
        "vagrant ssh default",
        "vagrant ssh -c 'ls /vagrant'",
        "vagrant ssh default -c 'make test'",
        "vagrant ssh -- -L 8080:localhost:80",
        "vagrant --debug ssh",
    ],
)
def test_bw2_guard_vagrant_ssh_asks_and_is_offered_nothing(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=bw-canary", _PROJECT)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


def test_bw2_vagrant_ssh_help_is_locked(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=bw-canary", _PROJECT)
    decision = decide("vagrant ssh --help", workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None
    # an approval of `vagrant ssh` (what `vagrant ssh --help` was offered) covers no command
    decision = decide("vagrant ssh -c 'make test'", workspace, env, "vagrant ssh")
    assert decision.verdict is Verdict.ASK
    decision = decide("vagrant --debug ssh -c 'make test'", workspace, env, "vagrant")
    assert decision.verdict is Verdict.ASK
