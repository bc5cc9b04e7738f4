"""Review GW1: `terraform init -from-module=../mod` copies a configuration into the
working folder, then sets up the backend it declares. The backend scan (review GU2)
looked at the folder before the copy (empty), so under an approval of `terraform init`
`cd env && terraform init -from-module=../mod` set up `../mod`'s `backend "kubernetes"`,
which sent the user's kubeconfig token to the attacker's host. `-from-module`, in any
spelling, now asks with no approval offered.

The real terraform (where installed) shows the backend copied in and set up; the
engine's verdicts are asserted always.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, git_out, program_printed

from policylang import Verdict

TERRAFORM = shutil.which("terraform")


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with an empty `env/` and a module `mod/` whose backend keeps its state
    outside the workspace (a `kubernetes` one, in the review, sent credentials)."""
    outside = tmp_path / "elsewhere" / "stolen.tfstate"
    module = f'terraform {{\n  backend "local" {{\n    path = "{outside}"\n  }}\n}}\n'
    workspace, env = canary_workspace(
        tmp_path, None, {"README.md": "x\n", "mod/main.tf": module}
    )
    (workspace / "env").mkdir()  # (empty: terraform copies only into an empty folder)
    git_out(workspace, "init", "-q")
    return workspace, env


@pytest.mark.skipif(TERRAFORM is None, reason="terraform is not installed")
def test_gw1_premise_from_module_sets_up_the_copied_backend(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    assert TERRAFORM is not None
    printed = program_printed(
        [TERRAFORM, "init", "-from-module=../mod", "-no-color", "-input=false"],
        workspace / "env", env,
    )  # fmt: skip
    record = workspace / "env" / ".terraform" / "terraform.tfstate"
    assert record.is_file(), printed
    backend = json.loads(record.read_text())["backend"]
    assert backend["type"] == "local"
    assert backend["config"]["path"] == str(tmp_path / "elsewhere" / "stolen.tfstate")


@pytest.mark.parametrize(
    "line",
    ["cd env && terraform init -from-module=../mod",
     "cd env && terraform init -from-module ../mod",
     "cd env && terraform init --from-module=../mod",
     "cd env && terraform init --from-module ../mod",
     "cd env && terraform init -input=false -from-module=git::https://example.com/m.git",
     "cd env && tofu init -from-module=../mod", "terraform -chdir=env init -from-module=../mod"],
)  # fmt: skip
def test_gw1_from_module_asks_unoffered(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    program = "tofu" if "tofu" in line else "terraform"
    decision = decide(line, workspace, env, f"{program} init")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "from-module" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


def test_gw1_plain_init_keeps_its_offer(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    for line in ("terraform init", "cd env && terraform init"):
        decision = decide(line, workspace, env, "terraform init")
        assert decision.verdict is Verdict.ALLOW, decision.explain()
