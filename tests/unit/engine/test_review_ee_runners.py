"""Review EE, runners and interpreters: EE8 an interpreter's script is a file it reads
(`python3 .env` prints the secret line in its syntax error); EE7 a command a verb runner
(`uv run ls`) runs is looked up in the project's environment first; EE9 the files uv's
and pdm's own options read (`--env-file .env`) and the folder `--directory` moves to;
EE6 the lock file a runner writes itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict

_UV = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env` (a line that is shell, Python and Perl text) and `x.py`,
    beside a fake home with `~/.ssh/id_rsa`."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("export KEY=sk-secret\n")
    (workspace / "x.py").write_text("print('hi')\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("key\n")
    return workspace, env_beside(tmp_path)


# -- EE8: an interpreter's script operand is read ---------------------------------------------

_SCRIPT_READS = [
    "python3 .env",
    "python .env",
    "python3.12 .env",
    "python3 -u .env",
    "python3 -W ignore .env",
    "python3 -Wignore -X dev .env",
    "python3 -- .env",
    "python3 ~/.ssh/id_rsa",
    "node .env",
    "node --env-file=.env x.py",
    "node --env-file .env x.py",
    "perl .env",
    "perl -w .env",
    "ruby .env",
    "php .env",
    "php -f .env",
    "bash .env",
    "sh .env",
    "bash -x .env",
    "bash -o pipefail .env",
    "env python3 .env",
    "nice python3 .env",
    "uv run python .env",
    "uv run python3 -u .env",
    "poetry run python .env",
    "uv run bash .env",
    "awk -f .env",
    "gawk -f .env README",
]


@pytest.mark.parametrize("line", _SCRIPT_READS)
def test_ee8_an_interpreters_script_that_is_protected_is_denied(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert decision.suggested_rule is None


@pytest.mark.parametrize("line", ["python3 .env", "uv run python .env", "bash .env"])
def test_ee8_no_approval_reads_the_secret(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    rule = line.replace(".env", str(workspace / ".env"))
    decision = decide(line, workspace, env, rule, line.split()[0])
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["python3 x.py", "python3 x.py .env", "python3 -c 'print(1)' .env", "python3 -m json.tool",
     "python3 - README", "bash -c 'echo hi' .env", "perl -e 1 .env", "node -e 1 .env",
     "python3 -W ignore x.py", "uv run python x.py"],
)  # fmt: skip
def test_ee8_arguments_and_other_scripts_are_not_denied(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.DENY, decision.explain()


def test_ee8_an_approved_script_stays_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide("python3 x.py", workspace, env, f"python3 {workspace / 'x.py'}")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_ee8_the_real_python_prints_the_script_it_cannot_parse(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    done = subprocess.run(
        [sys.executable, ".env"], cwd=workspace, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert "sk-secret" in done.stderr


# -- EE7: the command of `uv run` (poetry, pdm, pipenv, rye) is looked up in the project's
# environment first ----------------------------------------------------------------------------


def _venv_program(workspace: Path, name: str) -> Path:
    """A committed `.venv` whose `bin/NAME` is a script that leaves `PWNED_NAME`."""
    bin_folder = workspace / ".venv" / "bin"
    bin_folder.mkdir(parents=True, exist_ok=True)
    (workspace / ".venv" / "pyvenv.cfg").write_text(f"home = {Path(sys.executable).parent}\n")
    program = bin_folder / name
    program.write_text(f"#!/bin/sh\ntouch PWNED_{name}\n")
    program.chmod(0o755)
    return program


@pytest.mark.parametrize(
    ("line", "rule"),
    [("uv run ls", "uv run ls"), ("uv run ls -a", "uv run ls"), ("uv run cat README", "uv run cat"),
     ("uv run -q ls", "uv run ls"), ("poetry run ls", "poetry run ls"),
     ("pdm run ls", "pdm run ls"), ("pipenv run ls", "pipenv run ls"),
     ("rye run ls", "rye run ls"), ("uv run ls", "uv run")],
)  # fmt: skip
def test_ee7_a_program_of_the_projects_environment_is_not_the_system_one(
    tmp_path: Path, line: str, rule: str
) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "README").write_text("hi\n")
    _venv_program(workspace, line.split()[-1] if "README" not in line else "cat")
    _venv_program(workspace, "ls")
    decision = decide(line, workspace, env, rule)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None or ".venv/bin/" in decision.suggested_rule


def test_ee7_the_suggestion_names_the_environments_program(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    program = _venv_program(workspace, "ls")
    decision = decide("uv run ls", workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == f"uv run {program}"
    approved = decide("uv run ls -a", workspace, env, f"uv run {program}")
    assert approved.verdict is Verdict.ALLOW, approved.explain()


def test_ee7_an_approval_of_the_environments_pytest_by_its_path_holds(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    program = _venv_program(workspace, "pytest")
    assert decide("uv run pytest", workspace, env).suggested_rule == f"uv run {program}"
    rule = f"uv run {program}"
    assert decide("uv run pytest -x", workspace, env, rule).verdict is Verdict.ALLOW
    written = decide("uv run pytest --junitxml=.git/hooks/pre-commit", workspace, env, rule)
    assert written.verdict is Verdict.DENY, written.explain()
    assert decide("uv run pytest -x", workspace, env, "uv run pytest").verdict is Verdict.ASK


def test_ee7_in_a_subfolder_the_projects_environment_above_counts(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    _venv_program(workspace, "ls")
    decision = decide("uv run ls", workspace, env, "uv run ls", cwd=workspace / "x")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_ee7_a_script_the_project_declares_is_the_projects(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\n[project.scripts]\nls = "x:main"\n'
    )
    decision = decide("uv run ls", workspace, env, "uv run ls")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("line", ["uv run ls", "uv run pytest -q", "poetry run ls"])
def test_ee7_without_such_a_program_the_approval_holds(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0"\n')
    _venv_program(workspace, "python")
    rule = " ".join(line.split()[:3])
    decision = decide(line, workspace, env, rule)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_ee7_an_environments_link_to_an_installed_interpreter_is_that_interpreter(
    tmp_path: Path,
) -> None:
    workspace, env = _workspace(tmp_path)
    bin_folder = workspace / ".venv" / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "python").symlink_to(sys.executable)
    rule = f"uv run python {workspace / 'x.py'}"
    decision = decide("uv run python x.py", workspace, env, rule)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.skipif(_UV is None, reason="uv is not installed (a dev dependency: make test)")
def test_ee7_the_real_uv_runs_the_environments_program(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    (workspace / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0"\n')
    venv = workspace / ".venv"
    assert _UV is not None
    subprocess.run([_UV, "venv", "-q", "--offline", "--python", sys.executable, str(venv)],
                   cwd=workspace, check=True, capture_output=True, timeout=120)  # fmt: skip
    _venv_program(workspace, "ls")
    subprocess.run(
        [_UV, "run", "--offline", "-q", "ls"], cwd=workspace, capture_output=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert (workspace / "PWNED_ls").exists()


# -- EE9: the files uv's and pdm's own options read, and the folder they move to -------------

_RUNNER_READS = [
    "uv run --env-file .env ls",
    "uv run --env-file=.env ls",
    "uv --env-file .env run ls",
    "uv -q --env-file=.env run ls",
    "uv run --env-file ~/.ssh/id_rsa ls",
    "uv run --with-requirements .env ls",
    "uv run --config-file .env ls",
    "uv run --directory x --env-file ../.env ls",
    "pdm run --env-file .env ls",
    "pdm run --env-file=.env ls",
    "rye run --pyproject .env ls",
    "uv run --directory ~/.aws cat credentials",
    "uv --directory ~/.aws run cat credentials",
    "poetry -C ~/.aws run cat credentials",
]


@pytest.mark.parametrize("line", _RUNNER_READS)
def test_ee9_a_runners_read_of_a_protected_file_is_denied(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    aws = tmp_path / "home" / ".aws"
    aws.mkdir()
    (aws / "credentials").write_text("aws_secret_access_key=x\n")
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["uv run --env-file dev.cfg ls", "uv run --directory x cat README",
     "uv run --with-requirements req.txt pytest", "poetry -C x run pytest",
     "pdm run --env-file dev.cfg pytest"],
)  # fmt: skip
def test_ee9_ordinary_files_are_not_denied(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "README").write_text("hi\n")
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["uv run --directory=$HOME/.aws cat credentials", "uv run --directory $D cat credentials",
     "poetry run --directory=$HOME/.aws cat credentials"],
)  # fmt: skip
def test_ee9_a_folder_not_known_asks_under_approval(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    rule = " ".join(line.split()[:2]) + " cat"
    decision = decide(line, workspace, env, rule, " ".join(line.split()[:2]))
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.skipif(_UV is None, reason="uv is not installed (a dev dependency: make test)")
def test_ee9_the_real_uv_reads_the_env_file_and_runs_in_the_directory(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    assert _UV is not None
    done = subprocess.run(
        [_UV, "run", "--no-project", "--offline", "-q", "--directory", "x", "--env-file",
         "../.env", "sh", "-c", "echo $KEY; pwd"], cwd=workspace, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert "sk-secret" in done.stdout
    assert done.stdout.rstrip().endswith("/x")


# -- EE6: the lock file and environment `uv run` writes itself --------------------------------


def _locked_project(workspace: Path, target: str) -> None:
    """A project with no dependencies whose `uv.lock` is a committed link to `target`."""
    (workspace / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\nrequires-python = ">=3.8"\ndependencies = []\n'
    )
    (workspace / "uv.lock").symlink_to(target)


@pytest.mark.parametrize(
    ("line", "rule"),
    [("uv run pytest", "uv run pytest"), ("uv run -q pytest -x", "uv run pytest"),
     ("uv run ls", "uv run ls"), ("uv run python x.py", "uv run python {ws}/x.py")],
)  # fmt: skip
def test_ee6_a_lock_file_linked_into_a_protected_place_is_denied(
    tmp_path: Path, line: str, rule: str
) -> None:
    workspace, env = _workspace(tmp_path)
    _locked_project(workspace, "CLAUDE.md")
    decision = decide(line, workspace, env, rule.format(ws=workspace))
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_ee6_from_a_subfolder_the_projects_lock_file_counts(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    _locked_project(workspace, ".git/hooks/pre-commit")
    decision = decide("uv run pytest", workspace, env, "uv run pytest", cwd=workspace / "x")
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_ee6_an_ordinary_lock_file_stays_approved(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0"\n')
    (workspace / "uv.lock").write_text("version = 1\n")
    decision = decide("uv run pytest", workspace, env, "uv run pytest")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.skipif(_UV is None, reason="uv is not installed (a dev dependency: make test)")
def test_ee6_the_real_uv_writes_the_lock_through_the_link(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    _locked_project(workspace, "CLAUDE.md")
    assert _UV is not None
    subprocess.run(
        [_UV, "run", "--offline", "-q", "--python", sys.executable, "true"], cwd=workspace,
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert "version" in (workspace / "CLAUDE.md").read_text()


# -- EE9: uv's options its help hides, pdm's global options before the verb --------------------

_HIDDEN_OPTIONS = [
    "uv run --preview cat .env",
    "uv --native-tls run cat .env",
    "uv run --no-native-tls --no-offline cat .env",
    "uv run --preview-features x cat .env",
    "uv run --python-preference managed cat .env",
    "pdm -v run cat .env",
    "pdm -q run cat .env",
]


@pytest.mark.parametrize("line", _HIDDEN_OPTIONS)
def test_ee9_the_command_after_hidden_or_global_options_keeps_its_deny(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.skipif(_UV is None, reason="uv is not installed (a dev dependency: make test)")
@pytest.mark.parametrize(
    "options", [["--preview"], ["--native-tls"], ["--preview-features", "x"],
                ["--python-preference", "managed"]],
)  # fmt: skip
def test_ee9_the_real_uv_takes_those_options(tmp_path: Path, options: list[str]) -> None:
    workspace, _env = _workspace(tmp_path)
    assert _UV is not None
    done = subprocess.run(
        [_UV, "run", *options, "--no-project", "--offline", "-q", "cat", ".env"],
        cwd=workspace, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "sk-secret" in done.stdout


@pytest.mark.parametrize(
    ("name", "target", "line"),
    [
        ("ls", "/usr/bin/bash", "uv run ls -c 'touch PWNED'"),
        ("ls", "/bin/sh", "poetry run ls -c 'touch PWNED'"),
        ("mypy", sys.executable, "uv run mypy ."),
    ],
)
def test_ei1_a_link_to_another_program_is_the_projects(
    tmp_path: Path, name: str, target: str, line: str
) -> None:
    """Review EI1: a committed `.venv/bin/ls -> /usr/bin/bash` was taken for the system
    `ls`, so the approval of `uv run ls` let `uv run ls -c CODE` run bash."""
    workspace, env = _workspace(tmp_path)
    bin_folder = workspace / ".venv" / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / name).symlink_to(target)
    rule = " ".join(line.split()[:3])
    decision = decide(line, workspace, env, rule)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_ei1_a_versioned_interpreter_link_is_still_that_interpreter(tmp_path: Path) -> None:
    """`.venv/bin/python3 -> /usr/bin/python3.11` is python: the approval holds."""
    workspace, env = _workspace(tmp_path)
    bin_folder = workspace / ".venv" / "bin"
    bin_folder.mkdir(parents=True)
    versioned = tmp_path / "opt" / "python3.11"
    versioned.parent.mkdir()
    versioned.symlink_to(sys.executable)
    (bin_folder / "python3").symlink_to(sys.executable)
    rule = f"uv run python3 {workspace / 'x.py'}"
    decision = decide("uv run python3 x.py", workspace, env, rule)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("program", ["tclsh", "ipython", "m4", "raku", "julia", "expect"])
def test_ei6_no_approval_covers_a_protected_file_among_the_approved_words(
    tmp_path: Path, program: str
) -> None:
    """Review EI6: `tclsh .env` was offered as `tclsh /ws/.env`, and that approval let
    it print the secret (a program no table knows reads its operand): the approved words
    themselves are checked against the protect rules."""
    workspace, env = _workspace(tmp_path)
    (workspace / ".env").write_text("KEY=1\n")
    line = f"{program} .env"
    plain = decide(line, workspace, env)
    assert plain.verdict is not Verdict.ALLOW
    for rule in (plain.suggested_rule, line, f"{program} {workspace / '.env'}", program):
        if rule is None:
            continue
        decision = decide(line, workspace, env, rule)
        assert decision.verdict is not Verdict.ALLOW, (rule, decision.explain())


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("pyproject.toml", '[tool.pdm.scripts]\nls = "cat .env"\n', "pdm run ls"),
        ("Pipfile", '[scripts]\nls = "cat .env"\n', "pipenv run ls"),
        (".pdm-python", "/ws/tools/bin/python\n", "pdm run ls"),
        (".venv", "tools\n", "pipenv run ls"),
    ],
)
def test_ei3_ei4_a_script_or_environment_named_elsewhere_is_the_projects(
    tmp_path: Path, name: str, text: str, line: str
) -> None:
    """Review EI3, EI4: `[tool.pdm.scripts]`, a Pipfile's `[scripts]`, pdm's
    `.pdm-python` and pipenv's `.venv` file make `X run ls` run the project's command or
    program: the approval of `X run ls` does not cover it."""
    workspace, env = _workspace(tmp_path)
    (workspace / name).write_text(text)
    rule = " ".join(line.split()[:3])
    decision = decide(line, workspace, env, rule)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
