"""Fixer AW: the terraform and compose gaps closing-36 left open.

AW1: after `-chdir=DIR` terraform resolves `-state=`, `-state-out=`, `-backup=` and its
operands from DIR: an approved `terraform -chdir=infra output -state=../../home/…`
printed `~/.aws/credentials`; its own state file, a committed link, too. AW2:
`TF_CLI_ARGS` and `TF_CLI_ARGS_<verb>` of the environment add words terraform reads as
if typed (`-state=…`). AW3: a plain `backend "local" {}` keeps its state in the working
folder, and no longer asks. AW4: docker's own options before `compose` (`-c x`,
`--config D`, `-H`, `-l`, `-D`) ran compose past the compose rules and the compose
check: `docker -c default compose config --environment` printed `.env` under an
approval of `docker`. The real terraform 1.11.4, docker 28 and compose v2 show the
premises where installed; the engine's verdicts are checked always.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, git_out, program_printed

from policylang import Verdict

CANARY = "canary-AW-41"
TERRAFORM = shutil.which("terraform")
DOCKER = shutil.which("docker")
needs_terraform = pytest.mark.skipif(TERRAFORM is None, reason="terraform is not installed")
# compose v2, unpacked by review GS (a docker CLI plugin)
COMPOSE = Path("/tmp/review-GS/cv/lib/python3.11/site-packages/compose/docker-compose")
needs_compose = pytest.mark.skipif(
    DOCKER is None or not COMPOSE.is_file(), reason="docker or compose is not installed"
)
# a state file whose output is the canary: what terraform prints of a file it reads
STATE = json.dumps({
    "version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "x",
    "outputs": {"k": {"value": CANARY, "type": "string"}}, "resources": [],
})  # fmt: skip
MAIN = 'output "o" { value = 1 }\n'


def _workspace(tmp_path: Path, files: dict[str, str] | None = None) -> tuple[Path, dict[str, str]]:
    workspace, env = canary_workspace(
        tmp_path, "SECRET=x\n", {"main.tf": MAIN, "infra/main.tf": MAIN, **(files or {})},
        home={".aws/credentials": STATE, ".bashrc": ""},
    )  # fmt: skip
    git_out(workspace, "init", "-q")
    return workspace, env


def _real(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    assert TERRAFORM is not None
    return program_printed([TERRAFORM, *args], cwd, env)


def _not_allowed(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> None:
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _allowed(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> None:
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def _offered(line: str, workspace: Path, env: dict[str, str]) -> None:
    """`line` is offered an approval, which then allows it."""
    decision = decide(line, workspace, env)
    assert decision.suggested_rule is not None, decision.explain()
    _allowed(line, workspace, env, decision.suggested_rule)


@needs_terraform
def test_aw1_a_chdir_relative_state_reads_a_home_secret(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    line = ["-chdir=infra", "output", "-state=../../home/.aws/credentials"]
    assert CANARY in _real(line, workspace, env)  # (the premise: read from infra/)
    _not_allowed("terraform " + " ".join(line), workspace, env, "terraform")


@pytest.mark.parametrize(
    "line",
    [
        "terraform -chdir=infra output -state=../../home/.aws/credentials",
        "terraform -chdir=infra output -state ../../home/.aws/credentials",
        "tofu -chdir=infra output --state=../../home/.aws/credentials",
        "terraform -chdir=infra state pull -state=../../home/.aws/credentials",
        "terraform -chdir=infra state rm -state-out=../../home/.bashrc x",
        "terraform -chdir=infra state rm -backup=../../home/.bashrc x",
        "terraform -chdir=infra state mv -backup-out=../../home/.bashrc a b",
        "terraform -chdir=infra workspace new -state=../../home/.aws/credentials w",
        "terraform -chdir=infra show ../../home/.aws/credentials",
        "terraform -chdir=infra state push ../../home/.aws/credentials",
        "terraform -chdir=infra/ output -state=../../home/.aws/credentials",
        "terraform -chdir=. -chdir=infra output -state=../../home/.aws/credentials",
    ],
)
def test_aw1_chdir_relative_paths_are_judged(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    _not_allowed(line, workspace, env, line.split()[0])


@needs_terraform
def test_aw1_a_committed_state_link_is_judged(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "terraform.tfstate").symlink_to(tmp_path / "home" / ".aws" / "credentials")
    assert CANARY in _real(["output"], workspace, env)  # (the premise: read through it)
    for line in ("terraform output", "terraform state pull", "terraform state list"):
        _not_allowed(line, workspace, env, line)


def test_aw1_state_options_in_the_workspace_keep_their_approvals(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    for line in ("terraform output -state=prod.tfstate",
                 "terraform -chdir=infra output -state=prod.tfstate",
                 "terraform -chdir=infra state rm -backup=old.tfstate x",
                 "terraform -chdir=infra output"):  # fmt: skip
        _allowed(line, workspace, env, "terraform")
    _offered("terraform output", workspace, env)


@needs_terraform
@pytest.mark.parametrize("name", ["TF_CLI_ARGS", "TF_CLI_ARGS_output"])
def test_aw2_cli_args_of_the_environment_read_a_home_secret(tmp_path: Path, name: str) -> None:
    workspace, env = _workspace(tmp_path)
    env = {**env, name: "-state=../home/.aws/credentials"}
    assert CANARY in _real(["output"], workspace, env)  # (the premise: added as typed)
    decision = decide("terraform output", workspace, env, "terraform output")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert name in decision.explain()


@pytest.mark.parametrize(
    ("name", "value"),
    [("TF_CLI_ARGS_state_list", "-state=x"), ("TF_CLI_ARGS_state", "-state=x"),
     ("TF_CLI_ARGS", "-no-color -state=x"), ("TF_CLI_ARGS", "'-no-color'")],
)  # fmt: skip
def test_aw2_cli_args_of_the_verb_ask(tmp_path: Path, name: str, value: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide("terraform state list", workspace, {**env, name: value}, "terraform state")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_aw2_harmless_or_other_verbs_cli_args_keep_the_approval(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    harmless = (("TF_CLI_ARGS", "-no-color"), ("TF_CLI_ARGS", "-input=false -json"),
                ("TF_CLI_ARGS_plan", "-out=x"), ("TF_CLI_ARGS_state_list", "-x"))  # fmt: skip
    for name, value in harmless:
        _allowed("terraform output", workspace, {**env, name: value}, "terraform output")


@pytest.mark.parametrize(
    "line",
    ["TF_CLI_ARGS=-state=x terraform output", "TF_CLI_ARGS_output=-no-color terraform output",
     "env TF_DATA_DIR=x terraform output", "TF_PLUGIN_CACHE_DIR=c terraform output",
     "TF_CLI_CONFIG_FILE=x terraform output"],
)  # fmt: skip
def test_aw2_terraform_variables_on_the_line_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "terraform output")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_aw2_a_protected_data_folder_or_plugin_cache_is_judged(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    secret = str(tmp_path / "home" / ".aws" / "credentials")
    for name in ("TF_DATA_DIR", "TF_PLUGIN_CACHE_DIR"):
        _not_allowed("terraform init", workspace, {**env, name: secret}, "terraform init")
    _allowed("terraform init", workspace, {**env, "TF_DATA_DIR": ".tf"}, "terraform init")


def test_aw2_a_plugin_cache_in_the_workspace_asks_where_providers_run(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"cache/registry/x": "binary"})
    env = {**env, "TF_PLUGIN_CACHE_DIR": "cache"}
    _not_allowed("terraform graph", workspace, env, "terraform graph")
    _allowed("terraform output", workspace, env, "terraform output")


LOCAL = 'terraform {{\n  backend "local" {{{body}}}\n}}\noutput "o" {{ value = 1 }}\n'
BACKEND_LINES = ("terraform init", "terraform output", "terraform state list",
                 "terraform workspace list", "tofu output")  # fmt: skip


@needs_terraform
@pytest.mark.parametrize(
    "body",
    ["", "\n  # the state, here\n", '\n  path = "state/x.tfstate"\n  workspace_dir = "wsd"\n'],
)
def test_aw3_a_local_backend_in_the_workspace_keeps_its_offers(tmp_path: Path, body: str) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": LOCAL.format(body=body)})
    for line in BACKEND_LINES:
        _offered(line, workspace, env)
    assert "Terraform has been successfully initialized" in _real(
        ["init", "-input=false"], workspace, env
    )
    assert (workspace / ".terraform" / "terraform.tfstate").is_file()
    for line in BACKEND_LINES:  # (and with the record `init` wrote)
        _offered(line, workspace, env)
    assert not list((tmp_path / "home").glob("*.tfstate"))


@pytest.mark.parametrize(
    "body",
    ['path = "/tmp/x.tfstate"', 'path = "../x.tfstate"', 'workspace_dir = "${path.module}/w"',
     'path = "~/x"', 'path = "out/x.tfstate"', 'path = "a}b"', "x = 1",
     'workspace_dir = "wsd"\n  path = pathexpand("~/.ssh/x")'],
)  # fmt: skip
def test_aw3_a_local_backend_that_leaves_the_workspace_asks(tmp_path: Path, body: str) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": LOCAL.format(body=f"\n  {body}\n")})
    (workspace / "out").symlink_to(tmp_path / "home")
    for line in BACKEND_LINES:
        decision = decide(line, workspace, env, line)
        assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    "record",
    [{"type": "local", "config": {"path": "/root/x", "workspace_dir": None}},
     {"type": "local", "config": {"path": None, "workspace_dir": None, "x": 1}},
     {"type": "s3", "config": {}}],
)  # fmt: skip
def test_aw3_a_data_folder_record_that_leaves_the_workspace_asks(
    tmp_path: Path, record: dict[str, object]
) -> None:
    state = json.dumps({"version": 3, "backend": record})
    workspace, env = _workspace(
        tmp_path, {"main.tf": LOCAL.format(body=""), ".terraform/terraform.tfstate": state}
    )
    decision = decide("terraform output", workspace, env, "terraform output")
    assert decision.verdict is Verdict.ASK, decision.explain()


def _compose_workspace(tmp_path: Path, compose: str) -> tuple[Path, dict[str, str], Path]:
    """A compose project beside a docker configuration folder whose compose plugin is
    the real compose (not installed as docker's own)."""
    workspace, env = canary_workspace(tmp_path, f"SECRET={CANARY}\n", {"compose.yml": compose})
    config = tmp_path / "docker-config"
    (config / "cli-plugins").mkdir(parents=True)
    (config / "cli-plugins" / "docker-compose").symlink_to(COMPOSE)
    return workspace, {**env, "HOME": str(tmp_path / "home")}, config


FRONT = ["-c default", "--context=default", "-l error", "--log-level=error", "-D", "--debug",
         "-H unix:///nonexistent.sock", "--tls"]  # fmt: skip


@needs_compose
@pytest.mark.parametrize("front", FRONT)
def test_aw4_docker_options_run_compose_and_print_env(tmp_path: Path, front: str) -> None:
    plain = "services:\n  web:\n    image: alpine\n"
    workspace, env, config = _compose_workspace(tmp_path, plain)
    assert DOCKER is not None
    args = [DOCKER, *front.split(), "--config", str(config), "compose", "config", "--environment"]
    assert f"SECRET={CANARY}" in program_printed(args, workspace, env)  # (the premise)
    for verb in ("config --environment", "ps", "up -d"):
        line = f"docker {front} compose {verb}"
        decision = decide(line, workspace, env, "docker")
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.suggested_rule is None, decision.suggested_rule


@pytest.mark.parametrize(
    "line",
    [*(f"docker {front} compose ps" for front in FRONT), "docker --config D compose ps",
     "docker --config=D compose ps", "podman --remote compose ps", "nerdctl -n x compose ps",
     "finch --debug compose logs", "docker -Dc x compose ps"],
)  # fmt: skip
def test_aw4_options_before_compose_ask(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"compose.yml": "services: {}\n"})
    decision = decide(line, workspace, env, line.split()[0])
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.compose-project" in decision.explain()


def test_aw4_docker_lines_without_compose_keep_the_approval(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"compose.yml": "services: {}\n"})
    for line in ("docker compose ps", "docker ps", "docker --version"):
        _allowed(line, workspace, env, "docker")
    # (docker's own options before any verb ask since fixer BD: `docker -c x run
    # --privileged` escaped the `docker run` rules; test_review_gv.py)
    _not_allowed("docker -c x ps", workspace, env, "docker")


def test_aw_the_modules_are_compiled() -> None:
    from policylang import _native

    for name in ("infra", "composefiles", "gocgo", "linterconfig"):
        assert f"policylang.engine.{name}" in _native.MODULES
    assert os.path.isfile(_native.source_path("policylang.engine.infra"))
