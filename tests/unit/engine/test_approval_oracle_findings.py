"""What the approval-width oracle (`fuzz/oracle.py --approvals`) found in the shipped
default ruleset: an approval the engine suggests for one use that allowed another, which
runs a shell command, a workspace program or changes the system. Each line is judged
under the approval the engine itself suggests for the asked line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import judge, scan_judge

from policylang import Verdict


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


@pytest.mark.parametrize(
    ("asked", "wider"),
    [("nvcc src.cu -o exe", "nvcc -ccbin ./probe src.cu"),
     ("nvcc src.cu -o exe", "nvcc --compiler-bindir=./probe src.cu"),
     ("nvcc src.cu -o exe", "nvcc src.cu --run"),
     ("nvcc src.cu -o exe", "nvcc a.cu --forward-unknown-to-host-compiler -B./hd"),
     ("chage -l user", "chage -d 0 root"), ("ldconfig -p", "ldconfig"),
     ("ldconfig -p", "ldconfig -f -p"), ("ldconfig -p", "ldconfig -fp"),
     ("sysctl -a", "sysctl -w kernel.x=1"), ("sysctl -a", "sysctl kernel.x=1"),
     ("sysctl -a", "sysctl -qf x.conf"), ("tmux ls", "tmux ls \\; set -g default-command x"),
     ("patch --dry-run -p1 -i x.patch", "patch -p1 -B --help -i x.patch")],
)  # fmt: skip
def test_the_suggested_approval_does_not_cover_the_wider_use(
    workspace: Path, asked: str, wider: str
) -> None:
    # (under a ruleset that lets compilers be approved: the shipped ones ask for every
    # compile, nvcc's included, review DT)
    suggested = scan_judge(asked, workspace).suggested_rule
    assert suggested is not None, f"`{asked}` is offered no approval any more"
    decision = scan_judge(wider, workspace, str(suggested))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert scan_judge(asked, workspace, str(suggested)).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("approval", "wider"),
    [("tmux", "tmux -c './probe'"), ("tmux", "tmux -c 'echo x >> ~/.bashrc'"),
     ("tmux", "tmux -f evil.conf ls"), ("tmux", "tmux saveb .git/hooks/pre-commit"),
     ("tmux", "tmux set-option -g after-new-window 'run-shell x'"),
     ("tmux set-option", "tmux set-option -g after-new-window 'run-shell x'"),
     ("gpgconf", "gpgconf --apply-profile x"), ("gpgconf", "gpgconf --kill all")],
)
def test_an_approval_of_the_bare_program_does_not_cover_them(
    workspace: Path, approval: str, wider: str
) -> None:
    # (no such approval is offered any more: `tmux` and `gpgconf` alone get none)
    decision = judge(wider, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line", ["tmux", "npm", "git", "make", "npm run", "gpgconf --list-dirs",
             "tmux set-option -g mouse on"]
)
def test_a_prefix_short_of_its_verb_is_not_offered(workspace: Path, line: str) -> None:
    # only the exact line is (`tmux $`, since 5 December 2026), which approves no verb
    rule = judge(line, workspace).suggested_rule
    assert rule is None or rule == f"{line} $", rule
    if rule is not None:
        for verb in ("saveb /tmp/x", "install x", "push --force", "deploy", "build"):
            assert judge(f"{line} {verb}", workspace, rule).verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line", ["passwd", "usermod -aG docker me", "modprobe evil", "insmod ./x.ko", "visudo"]
)
def test_account_and_kernel_changes_are_never_approvable(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None


# the oracle's second run: every runnable suggestion tried once more
@pytest.mark.parametrize(
    ("asked", "wider"),
    [("git cherry-pick abc", "git cherry-pick -s y/z abc"),
     ("git cherry-pick abc", "git cherry-pick --strategy=y/z abc"),
     ("git hash-object x", "echo .env | git hash-object -w --stdin-paths"),
     ("git update-index --refresh", "echo .env | git update-index --add --stdin"),
     ("npm version", "npm version patch"),
     ("openssl rand -hex 8", "openssl rand -engine ./x.so 8"),
     ("gcloud compute ssh vm", "gcloud compute ssh vm --ssh-flag=-oProxyCommand=./x"),
     ("docker run alpine ls", "docker run -e GITHUB_TOKEN alpine printenv"),
     ("mvn package", "mvn -q help:evaluate -Dexpression=env.GITHUB_TOKEN")],
)  # fmt: skip
def test_second_run_wider_uses(workspace: Path, asked: str, wider: str) -> None:
    suggested = judge(asked, workspace).suggested_rule
    assert suggested is not None, f"`{asked}` is offered no approval any more"
    decision = judge(wider, workspace, str(suggested))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["git merge-index ./probe -a", "git for-each-repo --config=x -- status",
     "git daemon --access-hook=./probe", "systemctl enable --now ./x.service",
     "kubectl kustomize --enable-helm --helm-command=./probe"],
)
def test_second_run_never_offered(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert decision.suggested_rule is None


def test_a_push_to_a_folder_named_like_a_remote_runs_its_hooks(tmp_path: Path) -> None:
    # `git push bare.git HEAD:main`: a name no remote has is a path to git, and the
    # repository there runs its `pre-receive` hook (the oracle's second run)
    home = tmp_path / "home"
    home.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "GIT_AUTHOR_NAME": "a",
           "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    # (a remote on the network: where an approval of `git push` is offered at all)
    for args in (["init", "-q"], ["init", "-q", "--bare", "bare.git"],
                 ["commit", "-q", "--allow-empty", "-m", "x"],
                 ["remote", "add", "origin", "https://example.invalid/r.git"]):
        subprocess.run(["git", *args], cwd=workspace, env=env, check=True)
    hook = workspace / "bare.git" / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\ntouch '{tmp_path / 'hook-ran'}'\n")
    hook.chmod(0o755)
    line = "git push -q bare.git HEAD:main"
    suggested = judge("git push", workspace).suggested_rule
    assert suggested is not None
    decision = judge(line, workspace, str(suggested))
    assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, check=True)
    assert (tmp_path / "hook-ran").exists()
    assert judge("git push -q origin HEAD", workspace, str(suggested)).verdict is Verdict.ALLOW
