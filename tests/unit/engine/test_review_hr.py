"""Review HR (of BW's change), fixed by fixer BY.

HR2: the words after `vagrant ssh [NAME] --` are ssh's arguments: its options, then the
command; `vagrant ssh default -- -t 'rm -rf ~'` asked where `vagrant ssh default -- rm -rf
~` is denied. They are read as `ssh HOST ARGS` reads them (`rules.ssh_options_end`).
HR3: `-c` anywhere before `--` (`vagrant ssh default web -c 'rm -rf ~'`), in a cluster
(`-pc`) or abbreviated (`--comm`) is the command too.
HR7: vagrant evaluates the Vagrantfile (Ruby in the workspace) for every command: every
vagrant line is a locked ask, offered nothing, and no approval covers it.
HR4-HR6: listings that load the project's code were still offered: bare `mage`/`poe`
(bare `gulp` the whole program), `cap -T`, `thor -T`, `phing -l`, `doit -f dodo.py list`,
`task --list` (go-task runs the Taskfile's `sh:` variables), `tox -l`, `rails --tasks`,
`hatch env show`, `lein help`, `robo list`, `nx show projects`, `lerna list`, `cargo make
--list-all-steps`, `poetry about`.
HR1: `vagrant docker-exec NAME -- CMD` and `vagrant docker-run NAME -- CMD` run CMD in the
container that mounts the project: CMD is judged for a deny.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import canary_workspace, decide

from policylang import Verdict

_PROJECT = {
    "Vagrantfile": "Vagrant.configure('2') {}\n",
    "Taskfile.yml": (
        "version: '3'\nvars:\n  X:\n    sh: touch task-ran\ntasks:\n  a: {cmds: [echo]}\n"
    ),
    "magefile.go": "//go:build mage\npackage main\n",
    "dodo.py": "def task_a():\n    return {'actions': ['echo']}\n",
}


@pytest.mark.parametrize(
    "line",
    [
        "vagrant ssh default -- -t 'rm -rf ~'",
        "vagrant ssh default -- -tt rm -rf ~",
        "vagrant ssh -- -l root 'rm -rf ~'",
        "vagrant ssh -- -F /dev/null 'rm -rf ~'",
        "vagrant ssh default web -c 'rm -rf ~'",
        "vagrant docker-exec default -- sh -c 'rm -rf ~'",
        "vagrant docker-exec -- rm -rf ~",
        "vagrant docker-run web -- rm -rf ~",
    ],
)
def test_hr1_hr2_hr3_vagrant_commands_are_judged(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    assert decide(line, workspace, env).verdict is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    [
        "vagrant ssh -- -o LogLevel=quiet 'cat ~/.ssh/id_rsa'",
        "vagrant ssh -pc 'rm -rf ~'",
        "vagrant ssh --comm 'rm -rf ~'",
    ],
)
def test_hr3_kin_stay_denied(tmp_path: Path, line: str) -> None:
    # (denied before, by other paths: kept so)
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    assert decide(line, workspace, env).verdict is Verdict.DENY


def test_hr1_docker_exec_approval_does_not_cover_its_command(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    line = "vagrant docker-exec default -- sh -c 'rm -rf ~'"
    assert decide(line, workspace, env, "vagrant docker-exec").verdict is Verdict.DENY


def test_hr2_premise_real_ssh_reads_options_after_the_host() -> None:
    ssh = shutil.which("ssh")
    if ssh is None:
        pytest.skip("ssh not installed (premise only)")
    done = subprocess.run(
        [ssh, "-G", "-F", "/dev/null", "somehost", "-l", "hr-user"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert "user hr-user" in done.stdout.splitlines()


@pytest.mark.parametrize(
    "line",
    [
        "vagrant ssh -- -o ProxyCommand='touch /tmp/x' x",
        "vagrant ssh -- -L 8080:localhost:80",
        "vagrant ssh default -- -t ls",
        "vagrant ssh -c 'make test'",
        "vagrant ssh",
        "vagrant docker-exec default -- ls",
    ],
)
def test_hr2_guard_vagrant_runner_lines_ask(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("vagrant status", "vagrant status"),
        ("vagrant ssh-config", "vagrant ssh-config"),
        ("vagrant box list", "vagrant box"),
        ("vagrant version", "vagrant version"),
        ("vagrant global-status", "vagrant global-status"),
        ("vagrant port", "vagrant"),
        ("vagrant --version", "vagrant --version $"),
        ("vagrant --help", "vagrant --help $"),
    ],
)
def test_hr7_vagrant_loads_the_vagrantfile_no_offer_no_approval(
    tmp_path: Path, line: str, approval: str
) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None
    assert decide(line, workspace, env, approval).verdict is Verdict.ASK


@pytest.mark.parametrize(
    "line",
    [
        "mage",
        "poe",
        "cap -T",
        "thor -T",
        "thor list",
        "phing -l",
        "doit -f dodo.py list",
        "doit -d . list",
        "task --list",
        "task -l",
        "task --list-all",
        "task -a",
        "tox -l",
        "tox list",
        "tox -a",
        "tox config",
        "tox --listenvs",
        "rails --tasks",
        "hatch env show",
        "lein help",
        "lein tasks",
        "robo list",
        "nx show projects",
        "lerna list",
        "cargo make --list-all-steps",
        "makers --list-all-steps",
        "poetry about",
    ],
)
def test_hr4_hr5_hr6_listings_are_offered_nothing(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    ("line", "offer"),
    [("gulp", "gulp $"), ("ant", "ant $"), ("phing", "phing $"), ("tox", "tox $")],
)
def test_hr4_bare_task_runner_is_offered_exactly(tmp_path: Path, line: str, offer: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    assert decide(line, workspace, env).suggested_rule == offer


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("rake build", "rake build"),
        ("mvn test", "mvn test"),
        ("cargo help", "cargo help"),
        ("just --list", "just --list $"),
        ("npm run", "npm run $"),
        ("rake", "rake $"),
        ("task build", "task build"),
        ("doit run", "doit run"),
        ("lein test", "lein test"),
        ("nx build app", "nx build"),
        ("lerna run build", "lerna run"),
        ("hatch env create", "hatch env"),
        ("poetry add x", "poetry add"),
        ("cargo make build", "cargo make"),
    ],
)
def test_hr_guard_offers_kept(tmp_path: Path, line: str, offer: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hr-canary", _PROJECT)
    assert decide(line, workspace, env).suggested_rule == offer


def test_hr5_premise_real_task_runs_sh_variables_to_list(tmp_path: Path) -> None:
    task = shutil.which("task")
    version = "" if task is None else subprocess.run(
        [task, "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    if task is None or "Task version" not in version:
        pytest.skip("go-task not installed (premise only)")
    workspace, _ = canary_workspace(tmp_path, None, _PROJECT)
    subprocess.run([task, "--list"], cwd=workspace, capture_output=True, timeout=60, check=False)
    assert (workspace / "task-ran").exists()
