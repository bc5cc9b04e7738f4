"""Review FQ, of the FO fixes.

FQ1, FQ2: ssh-keygen's getopt reads `-fl` as `-f l` (and makes a key), and `-l -f
~/.ssh/known_hosts` prints its hosts: no ssh-keygen is a read. FQ3, FQ4, FQ6: the rpm, gpg
and dpkg families (`rpmquery --eval '%(sh x)'`, `gpgsm --agent-program`, `gpg-agent
--daemon CMD`, `dpkg-architecture -c CMD`, `dpkg-buildpackage -b`) are locked like rpm, gpg
and dpkg. FQ5: OpenSSL 3 loads an engine from a key or certificate argument written
`org.openssl.engine:/ABS/x.so:k`. FQ8: password managers and secret stores. FQ10: the org
example's `scalar run fetch`."""

from __future__ import annotations

import importlib.resources
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, judge, pushable_repository

from policylang import Verdict, load_policy


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


def test_fq1_ssh_keygen_fl_makes_a_key(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    for line in ("ssh-keygen -fl", "ssh-keygen -l -f key.pub", "ssh-keygen -lf key.pub"):
        decision = judge(line, workspace, "ssh-keygen")
        assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run(["bash", "-c", "ssh-keygen -q -N '' -fl"], cwd=workspace, timeout=60,
                   capture_output=True, env=canary_environment(workspace))  # fmt: skip
    assert (workspace / "l").exists()  # (the premise: `-fl` is `-f l`, a new key)


@pytest.mark.parametrize(
    ("approval", "line"),
    [("rpmquery", "rpmquery -a --eval '%(sh evil.sh)'"), ("rpmspec", "rpmspec -q x.spec"),
     ("gpgsm", "gpgsm --agent-program ./evil.sh --learn-card"),
     ("gpg-agent", "gpg-agent --daemon sh evil.sh"),
     ("dpkg-architecture", "dpkg-architecture -c sh evil.sh"),
     ("openssl dgst", "openssl dgst -sign org.openssl.engine:/ws/evil.so:k README"),
     ("openssl s_client", "openssl s_client -cert=org.openssl.engine:/ws/evil.so:k"),
     ("op", "op read op://vault/item/password"), ("bw", "bw get password github"),
     ("sops", "sops -d secrets.yaml"), ("secret-tool", "secret-tool lookup service x")],
)  # fmt: skip
def test_no_approval_covers_these(tmp_path: Path, approval: str, line: str) -> None:
    decision = judge(line, _workspace(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_fq10_the_org_locks_scalar(tmp_path: Path) -> None:
    team = Path(str(importlib.resources.files("policylang") / "rulesets" / "org-example"
                    / "team.policy"))  # fmt: skip
    policy = load_policy(team)
    policy.approvals.add("scalar run", persist=False)
    decision = policy.evaluate("scalar run fetch", workspace=str(tmp_path),
                               env={"HOME": str(tmp_path)})  # fmt: skip
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("branch", ["release-2024", "bugfix/ABC-1234", "main", "feature/x"])
def test_fq9_branches_with_digits_stay_approved(tmp_path: Path, branch: str) -> None:
    workspace = _workspace(tmp_path)
    pushable_repository(workspace, *({branch} - {"main"}))
    decision = judge(f"git push origin {branch}", workspace, "git push")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# review FR, of the FQ fixes (each line under the approval of the program's innocent form)
FR_LINES = [
    ("gpg-wks-client", "gpg-wks-client --gpg ./evil.sh --create FPR a@b.example"),
    ("gpgsplit", "gpgsplit x.gpg"),
    ("op", "op --account x read op://vault/item/password"),
    ("op", "op -- read op://vault/item/password"),
    ("doppler", "doppler --token x secrets download"),
    ("infisical", "infisical --domain x secrets get A"),
    ("aws-vault", "aws-vault --debug export prod"),
    ("sops", "sops secrets.yaml"),
]


@pytest.mark.parametrize(("approval", "line"), FR_LINES)
def test_fr4_fr5_families_and_global_options_stay_locked(
    tmp_path: Path, approval: str, line: str
) -> None:
    decision = judge(line, _workspace(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gpgcompose", "gpgcompose --public-key FPR --user-id 'x <e@x>' --signature --issuer FPR"),
     ("keepassxc-cli", "keepassxc-cli show db.kdbx github"), ("bws", "bws secret list"),
     ("kwallet-query", "kwallet-query -r github kdewallet"), ("ejson", "ejson decrypt x.ejson")],
)  # fmt: skip
def test_fs3_fs4_more_key_and_secret_tools_are_locked(
    tmp_path: Path, approval: str, line: str
) -> None:
    decision = judge(line, _workspace(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    "program", ["gopass-summon-provider", "kwalletcli", "lssecret", "prs", "enpass-cli",
                "secrethub", "conjur"],
)  # fmt: skip
def test_ft4_more_secret_stores_are_locked(tmp_path: Path, program: str) -> None:
    decision = judge(f"{program} show github", _workspace(tmp_path), program)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("dpkg", "dpkg --build pk -l"), ("dpkg", "dpkg -I x.deb"), ("dpkg", "dpkg -l"),
     ("dpkg", "dpkg --admindir=adm -L foo"), ("dpkg", "dpkg --root=r -L foo"),
     ("dpkg-deb", "dpkg-deb -I x.deb postinst"), ("dpkg-deb", "dpkg-deb --info x.deb")],
)  # fmt: skip
def test_fu1_fu3_dpkg_is_locked(tmp_path: Path, approval: str, line: str) -> None:
    """Review FU (real dpkg, in a scratch root): a query option elsewhere on the line is an
    action's operand (`dpkg --build pk -l` wrote through a link named `-l`), `--admindir`
    read a workspace database whose `info/foo.list` linked to a key, and `-I` printed a
    crafted archive's control files through links. Every dpkg is a locked ask now, and
    `dpkg-deb -I|-e|--ctrl-tarfile` with it."""
    decision = judge(line, _workspace(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None
