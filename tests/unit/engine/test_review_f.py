"""Review F (fourth round): each case was run with the real program and leaked a secret,
ran a payload or pushed; here the engine must not allow it. Real files, real git."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from policylang.decision import Verdict
from policylang.engine.policy import Policy, load_policy, shipped_ruleset


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace with a `.env`, a `sub` folder and a link `-aws` to the home's `.aws`."""
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIASECRET\n")
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    (ws / "sub" / "a.txt").write_text("a\n")
    (ws / ".env").write_text("API_KEY=ENVSECRET\n")
    (ws / "-aws").symlink_to(home / ".aws")
    return ws, home


def _verdict(policy: Policy, world: tuple[Path, Path], command: str, **env: str) -> Verdict:
    ws, home = world
    return policy.evaluate(command, workspace=ws, env={"HOME": str(home), **env}).verdict


@pytest.mark.parametrize(
    "command",
    [
        # F1: `cd` behind `command --`, `command -p`, `builtin --` and the `time` keyword
        "command -- cd ~/.aws; cat credentials",
        "command -p cd ~/.aws; cat credentials",
        "builtin -- cd ~/.aws; cat credentials",
        "time cd ~/.aws; cat credentials",
        "time -p pushd ~/.aws; cat credentials",
        # F2: after `--` a word starting with `-` is the directory
        "cd -- -aws; cat credentials",
        "cd -L -- -aws && cat credentials",
        # F10: `--recursive` abbreviated, and the directory of `--to-file`
        "diff -N --recurs sub .",
        "diff --to-file=. -rN sub",
        # F4 and F5: files read through options
        "rg --debug -f ~/.aws/credentials README.md",
        "rg --debug --file=.env README.md",
        "apropos -C .env ls",
        "whatis --config-file=.env ls",
    ],
)
def test_denied(default_policy: Policy, world: tuple[Path, Path], command: str) -> None:
    assert _verdict(default_policy, world, command) is Verdict.DENY


def test_cdpath_of_the_environment_makes_a_relative_cd_unknown(
    default_policy: Policy, world: tuple[Path, Path]
) -> None:
    # F3: bash looks `.aws` up in CDPATH first
    _, home = world
    command = "cd .aws && cat credentials"
    assert _verdict(default_policy, world, command) is Verdict.ALLOW  # no such folder here
    assert _verdict(default_policy, world, command, CDPATH=str(home)) is not Verdict.ALLOW
    assert _verdict(default_policy, world, "cd ./sub && cat a.txt", CDPATH=str(home)) is (
        Verdict.ALLOW
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the real git")
@pytest.mark.parametrize(
    "command",
    [
        # F9: `git diff --no-index` compares directories recursively, and so does a
        # `git diff` with a path outside the working tree
        "git diff --no-index sub .",
        "git diff --no-index -- sub ~",
        "git diff sub ~/.aws",
        "git diff ~/.aws sub",
    ],
)
def test_git_diff_of_directories(
    default_policy: Policy, world: tuple[Path, Path], command: str
) -> None:
    ws, _ = world
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    assert _verdict(default_policy, world, command) is Verdict.DENY


def test_git_diff_of_two_files_in_the_repository_stays_allowed(
    default_policy: Policy, world: tuple[Path, Path]
) -> None:
    ws, _ = world
    (ws / "sub" / "b.txt").write_text("b\n")
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    assert _verdict(default_policy, world, "git diff --no-index sub/a.txt sub/b.txt") is (
        Verdict.ALLOW
    )


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        # F6: git's own options are seen through, so the rules for the subcommand hold
        ("git -c a.b=c push --force origin main", Verdict.DENY),
        ("git -c core.fsmonitor='touch x' status", Verdict.ASK),
        ("git -c alias.x='!touch x' x", Verdict.ASK),
        ("git -c include.path=../x status", Verdict.ASK),
        ("git --git-dir=../other/.git --work-tree=. status", Verdict.ASK),
        ("git -c color.ui=always log --oneline", Verdict.ALLOW),
    ],
)
def test_git_global_options(
    default_policy: Policy, world: tuple[Path, Path], command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, world, command) is verdict


@pytest.mark.parametrize(
    ("seed", "after"),
    [
        # F6: nothing to approve behind a risky git option
        ("git -c core.pager=cat log", "git -c core.fsmonitor='touch x' status"),
        # F7: an ask carved out of a read-only rule offers no bare prefix
        ("strings @x", "strings @~/.aws/credentials"),
        ("tree -o x", "tree -o .git/hooks/post-checkout"),
        ("man -P cat ls", "man -P 'touch x' ls"),
        ("less +!x README.md", "less '+!touch x' README.md"),
    ],
)
def test_no_suggestion_opens_more_than_the_command(
    world: tuple[Path, Path], seed: str, after: str
) -> None:
    policy = load_policy()
    ws, home = world
    env = {"HOME": str(home)}
    suggested = policy.evaluate(seed, workspace=ws, env=env).suggested_rule
    assert suggested is None
    for rule in ("git -c", "strings", "tree", "man", "less"):
        policy.approvals.add(rule, persist=False)
    assert policy.evaluate(after, workspace=ws, env=env).verdict is not Verdict.ALLOW


def test_source_suggests_the_script_not_every_script(world: tuple[Path, Path]) -> None:
    ws, home = world
    decision = load_policy().evaluate("source x.sh", workspace=ws, env={"HOME": str(home)})
    assert decision.suggested_rule == f"source {ws}/x.sh"  # where it is (review AF6)


def test_a_team_allow_does_not_lift_the_org_locked_push_behind_git_options(
    tmp_path: Path, world: tuple[Path, Path]
) -> None:
    # F8: the org's `locked ask git push **` holds for `git -c k=v push` and `--git-dir`
    org = shipped_ruleset().parent / "org-example" / "org.policy"
    team = tmp_path / "team.policy"
    team.write_text(f'policy "t" version "1"\ninclude "{org}"\ndefault ask\nallow git **\n')
    policy = load_policy(team, snapshot=False)
    for command in (
        "git push origin main",
        "git -c a.b=c push origin main",
        "git --git-dir=.git push origin HEAD",
        "git --work-tree=. push",
    ):
        assert _verdict(policy, world, command) is Verdict.ASK, command
