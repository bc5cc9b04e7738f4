"""Review AX: locked asks against approvals, commands that run a string approvals would
cover, policylang's own commands, and decisions kept in the cache past a file change."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict, load_policy
from policylang.engine.approvals import Approvals
from policylang.engine.policy import shipped_ruleset

ORG_EXAMPLE = shipped_ruleset("org-example/org.policy").parent

LOCKED_ORG = """\
policy "org"
default ask
locked ask kubectl ** id org-kube reason "production tooling is reviewed (org policy)"
ask kubectl delete ** id kube-delete reason "deletes cluster objects"
allow kubectl get ** id kube-get reason "reads"
"""


def _approved(*rules: str) -> Approvals:
    approvals = Approvals()
    for rule in rules:
        approvals.add(rule, persist=False)
    return approvals


def test_a_locked_ask_holds_against_an_approval_where_a_more_specific_ask_decides(
    tmp_path: Path,
) -> None:
    """AX1: `ask kubectl delete **` won by specificity, unlocked, so approving
    `kubectl delete` allowed `kubectl delete --all pods` under the org's locked ask."""
    org = tmp_path / "org.policy"
    org.write_text(LOCKED_ORG)
    policy = load_policy(org, approvals=_approved("kubectl delete"), snapshot=False)
    decision = policy.evaluate("kubectl delete --all pods", workspace=str(tmp_path))
    assert decision.verdict is Verdict.ASK
    assert decision.locked
    assert decision.suggested_rule is None
    assert [r.rule_id for r in decision.reasons] == ["org-kube"]  # the lock is named
    # the same file's more specific allow still wins by specificity
    assert policy.evaluate("kubectl get pods", workspace=str(tmp_path)).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("approval", "command"),
    [
        ("aws configure", "aws configure get aws_secret_access_key"),
        ("git submodule foreach", "git submodule foreach 'git fetch'"),
    ],
)
def test_the_org_examples_locked_asks_hold_over_commons_more_specific_asks(
    tmp_path: Path, approval: str, command: str
) -> None:
    """AX1: common.policy is included by the org file (an earlier layer); its more
    specific asks decided unlocked, and an approval lifted the org's locked ask."""
    policy = load_policy(
        ORG_EXAMPLE / "org.policy",
        extra=[ORG_EXAMPLE / "team.policy"],
        approvals=_approved(approval),
        snapshot=False,
    )
    decision = policy.evaluate(command, workspace=str(tmp_path))
    assert decision.verdict is Verdict.ASK
    assert decision.locked
    assert decision.suggested_rule is None
    # (common's `aws configure` is a locked ask of its own since review FL4)
    assert any(r.rule_id.startswith("org-") or r.rule_id == "aws-configure"
               for r in decision.reasons)  # fmt: skip


@pytest.mark.parametrize(
    ("first", "approval", "then"),
    [
        (
            "git submodule foreach 'git status'",
            "git submodule foreach",
            "git submodule foreach 'rm -rf ~'",
        ),
        ("git instaweb", "git instaweb", "git instaweb --httpd='rm -rf ~'"),
        ("sbatch job.sh", "sbatch", "sbatch --wrap 'rm -rf ~'"),
        ("srun hostname", "srun", "srun rm -rf ~"),
        ("vagrant ssh", "vagrant ssh", "vagrant ssh -c 'rm -rf ~'"),
    ],
)
def test_programs_that_run_a_command_string_offer_no_approval_and_an_approval_does_not_cover_them(
    tmp_path: Path, first: str, approval: str, then: str
) -> None:
    """AX2: approving the suggested `git submodule foreach` allowed any string it runs."""
    plain = load_policy(snapshot=False, approvals=Approvals())
    offered = plain.evaluate(first, workspace=str(tmp_path))
    assert offered.verdict is Verdict.ASK
    assert offered.suggested_rule is None
    approved = load_policy(snapshot=False, approvals=_approved(approval))
    assert approved.evaluate(then, workspace=str(tmp_path)).verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "policylang check evil.policy",
        "policylang test evil.policy",
        "policylang eval --policy evil.policy ls",
        "policylang run 'ls'",
        "policylang mcp",
        "python3 -m policylang check evil.policy",
        "python3 -m policylang.cli.main eval ls",
    ],
)
def test_policylangs_own_commands_are_never_approvable(tmp_path: Path, command: str) -> None:
    """AX3: an approved `policylang check` printed any file a workspace policy includes
    (`include "~/.aws/credentials"`) in its diagnostics."""
    offered = load_policy(snapshot=False, approvals=Approvals()).evaluate(
        command, workspace=str(tmp_path)
    )
    assert offered.verdict is Verdict.ASK
    assert offered.suggested_rule is None
    words = command.split()
    approval = " ".join(words[:2] if words[0] == "policylang" else words[:4])
    approved = load_policy(snapshot=False, approvals=_approved(approval))
    assert approved.evaluate(command, workspace=str(tmp_path)).verdict is Verdict.ASK


@pytest.mark.parametrize("entry", ["{ws}/bin", ""])
def test_a_program_made_on_a_workspace_path_entry_after_a_decision_is_seen(
    tmp_path: Path, entry: str
) -> None:
    """AX4: a decision that looked in a workspace PATH entry and found nothing was kept
    in the decision cache, so `whoami` stayed allowed after the agent made `bin/whoami`."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    # (an empty entry first: the working directory before the system's folders; after
    # them, the system's `whoami` would run: review BH14)
    path = f"{entry.format(ws=workspace)}:/usr/bin:/bin" if entry else ":/usr/bin:/bin"
    env = {"HOME": str(tmp_path / "home"), "PATH": path}
    policy = load_policy(snapshot=False, decision_cache=1024)
    assert policy.evaluate("whoami", workspace=str(workspace), env=env).verdict is Verdict.ALLOW
    planted = workspace / "bin" / "whoami" if entry else workspace / "whoami"
    planted.parent.mkdir(exist_ok=True)
    planted.write_text("#!/bin/sh\necho pwned\n")
    planted.chmod(0o755)
    decision = policy.evaluate("whoami", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK
    assert "engine.path-program" in [r.rule_id for r in decision.reasons]


def test_an_ssh_alias_to_this_machine_added_after_a_decision_is_seen(tmp_path: Path) -> None:
    """AX5: the loopback check read ~/.ssh/config without marking the decision as one
    that depends on files, so a cached allow of `ssh box …` outlived `HostName 127.0.0.1`."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=1024, approvals=_approved("ssh"))
    assert policy.evaluate("ssh box uptime", workspace=str(tmp_path), env=env).verdict is (
        Verdict.ALLOW
    )
    (home / ".ssh" / "config").write_text("Host box\n  HostName 127.0.0.1\n")
    decision = policy.evaluate("ssh box uptime", workspace=str(tmp_path), env=env)
    assert decision.verdict is Verdict.ASK
    assert "engine.approved-loopback" in [r.rule_id for r in decision.reasons]


def test_an_approval_revoked_on_disk_no_longer_allows_in_a_running_policy(tmp_path: Path) -> None:
    """AX12: the evaluator reads the approvals file again when it changed, before its
    decision cache is consulted."""
    path = tmp_path / "approvals.toml"
    path.write_text('allow = ["npm install"]\n')
    policy = load_policy(snapshot=False, approvals=path, decision_cache=1024)
    command = "npm install left-pad"
    assert policy.evaluate(command, workspace=str(tmp_path)).verdict is Verdict.ALLOW
    assert Approvals(path).remove("npm install")
    assert policy.evaluate(command, workspace=str(tmp_path)).verdict is Verdict.ASK


def test_the_org_examples_expectations_catch_a_broken_org_rule(tmp_path: Path) -> None:
    """AX6: `expect deny "cat deploy-keys/prod.pem"` passed on common's `*.pem` rule with
    the org's deploy-key rule mistyped; now the file names a key without `.pem` and pins
    the deciding rule with `by`."""
    import shutil

    from policylang.cli.main import main

    rulesets = tmp_path / "rulesets"
    shutil.copytree(ORG_EXAMPLE.parent, rulesets)
    org = rulesets / "org-example" / "org.policy"
    assert main(["test", str(org)]) == 0
    org.write_text(org.read_text().replace("**/deploy-keys/**", "**/deploy-keyz/**"))
    assert main(["test", str(org)]) == 1
