"""Review GP1, GP2, GP3, GP7: infrastructure tools that read or run what the workspace
names. GP1: an approved `terraform plan` (or `validate`) evaluates a committed `.tf`'s
`file(pathexpand("~/.aws/credentials"))` and prints it. GP2: a provider binary committed
under `.terraform/providers/` runs under an approved `terraform validate|graph|show`, and
`terraform providers schema` under the approval "terraform providers". GP3: an approved
`kubectl kustomize` prints the `.env` a kustomization's `configMapGenerator` names. GP7:
helm renders chart templates that read any chart file (`.Files.Get`): helm is not
installed here, so only the engine is checked. The real terraform and kubectl show the
premises where installed."""

from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, git_out, program_printed

from policylang import Verdict

CANARY = "canary-GP-aws-31"
ENV_CANARY = "canary-GP-env-32"
TERRAFORM = shutil.which("terraform")
KUBECTL = shutil.which("kubectl")
needs_terraform = pytest.mark.skipif(TERRAFORM is None, reason="terraform is not installed")
needs_kubectl = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed")

READS_CREDENTIALS = 'output "notes" { value = file(pathexpand("~/.aws/credentials")) }\n'
NULL_PROVIDER = """terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "3.2.1" }
  }
}
resource "null_resource" "x" {}
"""
PROVIDER_DIR = ".terraform/providers/registry.terraform.io/hashicorp/null/3.2.1/linux_amd64"
KUSTOMIZATION = "configMapGenerator:\n- name: cfg\n  files:\n  - notes=.env\n"


def _workspace(tmp_path: Path, files: dict[str, str]) -> tuple[Path, dict[str, str]]:
    workspace, env = canary_workspace(
        tmp_path, f"SECRET={ENV_CANARY}\n", files,
        home={".aws/credentials": f"aws_secret_access_key = {CANARY}\n"},
    )  # fmt: skip
    git_out(workspace, "init", "-q")
    return workspace, env


def _dirhash(folder: Path) -> str:
    """terraform's `h1:` hash of a provider folder (the lock file's)."""
    lines = "".join(
        f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.relative_to(folder)}\n"
        for path in sorted(p for p in folder.rglob("*") if p.is_file())
    )
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()


def _provider_workspace(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    """GP2's workspace: a committed `null` provider that copies `.env` to a file."""
    workspace, env = _workspace(tmp_path, {"main.tf": NULL_PROVIDER})
    leaked = tmp_path / "LEAKED"
    binary = workspace / PROVIDER_DIR / "terraform-provider-null_v3.2.1_x5"
    binary.parent.mkdir(parents=True)
    binary.write_text(f'#!/bin/sh\ncat "$PWD/.env" > {leaked}\nexit 1\n')
    binary.chmod(0o755)
    (workspace / ".terraform.lock.hcl").write_text(
        'provider "registry.terraform.io/hashicorp/null" {\n  version     = "3.2.1"\n'
        f'  constraints = "3.2.1"\n  hashes = [\n    "{_dirhash(binary.parent)}",\n  ]\n}}\n'
    )
    return workspace, env, leaked


def _asks_unoffered(line: str, workspace: Path, env: dict[str, str], approval: str) -> None:
    """`line` asks with no approval offered, and asks under `approval` too."""
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None, decision.suggested_rule
    approved = decide(line, workspace, env, approval)
    assert approved.verdict is Verdict.ASK, approved.explain()


@needs_terraform
def test_gp1_terraform_plan_prints_a_file_and_no_approval_covers_it(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": READS_CREDENTIALS})
    assert TERRAFORM is not None
    printed = program_printed([TERRAFORM, "plan", "-no-color"], workspace, env)
    assert CANARY in printed  # (the premise: plan evaluated `file()` and printed it)
    for line in ("terraform plan", "terraform validate", "tofu plan", "terraform apply"):
        _asks_unoffered(line, workspace, env, line)


@needs_terraform
def test_gp2_a_committed_provider_runs_and_no_approval_covers_it(tmp_path: Path) -> None:
    workspace, env, leaked = _provider_workspace(tmp_path)
    assert TERRAFORM is not None
    program_printed([TERRAFORM, "graph"], workspace, env)
    assert ENV_CANARY in leaked.read_text()  # (the premise: the provider ran)
    for line in ("terraform graph", "terraform show", "terraform state show null_resource.x",
                 "terraform -chdir=. graph", "terraform providers schema -json"):  # fmt: skip
        _asks_unoffered(line, workspace, env, line)
    schema = decide("terraform providers schema -json", workspace, env, "terraform providers")
    assert schema.verdict is Verdict.ASK, schema.explain()


def test_gp2_terraform_providers_is_offered_exactly(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": NULL_PROVIDER})
    decision = decide("terraform providers", workspace, env)
    assert decision.suggested_rule == "terraform providers $"
    offered = decide("terraform providers", workspace, env, decision.suggested_rule)
    assert offered.verdict is Verdict.ALLOW, offered.explain()
    for line in ("terraform providers schema -json", "terraform providers mirror /tmp/x"):
        assert decide(line, workspace, env, decision.suggested_rule).verdict is Verdict.ASK


def test_gp2_a_workspace_without_providers_keeps_its_offers(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": NULL_PROVIDER})
    for line in ("terraform graph", "terraform show", "terraform version", "terraform fmt"):
        decision = decide(line, workspace, env)
        assert decision.suggested_rule is not None, decision.explain()
        assert decide(line, workspace, env, decision.suggested_rule).verdict is Verdict.ALLOW


def test_gp2_quiet_verbs_stay_approvable_beside_providers(tmp_path: Path) -> None:
    workspace, env, _leaked = _provider_workspace(tmp_path)
    for line in ("terraform version", "terraform output", "terraform state list"):
        decision = decide(line, workspace, env)
        assert decision.suggested_rule is not None, decision.explain()
        assert decide(line, workspace, env, decision.suggested_rule).verdict is Verdict.ALLOW


def test_gp2_a_cli_configuration_in_the_workspace_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": NULL_PROVIDER, "dev.tfrc": "x\n"})
    env = {**env, "TF_CLI_CONFIG_FILE": str(workspace / "dev.tfrc")}
    decision = decide("terraform graph", workspace, env, "terraform graph")
    assert decision.verdict is Verdict.ASK, decision.explain()


@needs_kubectl
def test_gp3_kubectl_kustomize_prints_env_and_no_approval_covers_it(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"kustomization.yaml": KUSTOMIZATION})
    assert KUBECTL is not None
    printed = program_printed([KUBECTL, "kustomize"], workspace, env)
    assert ENV_CANARY in printed  # (the premise: the generator read `.env`)
    for line in ("kubectl kustomize", "kubectl kustomize .", "kustomize build ."):
        _asks_unoffered(line, workspace, env, line)
    kustomized = (
        ("kubectl apply -k .", "kubectl apply"),
        ("kubectl diff --kustomize=.", "kubectl diff"),
        ("kubectl create --dry-run=client -k . -o yaml", "kubectl create"),
    )
    for line, approval in kustomized:
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK


def test_gp7_helm_rendering_is_not_offered(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"Chart.yaml": "name: x\nversion: 0.1.0\n"})
    for line in ("helm template .", "helm lint", "helm install x .", "helm show values ."):
        _asks_unoffered(line, workspace, env, line)
    listing = decide("helm list", workspace, env)
    assert listing.suggested_rule == "helm list"
