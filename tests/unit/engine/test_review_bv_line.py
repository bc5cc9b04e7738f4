"""Review BV, the findings of a line that changes what it is judged by (BV1, BV2, BV5):
each line here had a weaker verdict, or lacked the reason named, before its fix. The
engine looked at git's configuration, the ignore files and the links as they were before
the line ran; an earlier segment of the same line wrote them. git, bash and (where
installed) rg run for real where the effect is shown, with a fake home beside the
workspace."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest
from realrun import approved, git_ok, run_real

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import Policy, load_policy

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("bash") is None, reason="needs git and bash"
)

SECRET = "ENVMARKER_BV"
AWS = "AWSSECRET_BV"


def _fsmonitor(marker: Path) -> str:
    """A git configuration whose `core.fsmonitor` leaves `marker` behind when git runs it
    (`repositoryformatversion = 0` lets git honour `core.worktree`)."""
    return (
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n"
        f'\tfsmonitor = "touch {marker}; false"\n'
    )


def _decide(
    policy: Policy, command: str, workspace: Path, env: Mapping[str, str] | None = None
) -> Decision:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    environment.update(env or {})
    return policy.evaluate(command, workspace=str(workspace), env=environment)


def _bash(line: str, workspace: Path) -> str:
    done = run_real(["bash", "-c", line], workspace)
    return done.stdout + done.stderr


def _rules(decision: Decision) -> list[str]:
    return [reason.rule_id for reason in decision.reasons]


@pytest.fixture
def repo(workspace: Path) -> Path:
    """A repository whose branch `other` (an attacker's branch or pull request) commits a
    folder git takes for a bare repository, `ebare/` with a `core.fsmonitor`, and a link
    `hl` to the home folder, which holds `.aws/credentials`. `fixture.git` is a bare
    repository of the tree (a test fixture), `payload.cfg` a configuration to plant."""
    home = workspace.parent / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(f"[default]\naws_secret_access_key = {AWS}\n")
    git_ok(workspace, "init", "-q", "-b", "main")
    (workspace / "README.md").write_text("hi\n")
    (workspace / ".gitignore").write_text("build/\nfixture.git/\n")
    git_ok(workspace, "add", "README.md", ".gitignore", "src")
    git_ok(workspace, "commit", "-qm", "init")
    git_ok(workspace, "checkout", "-qb", "other")
    ebare = workspace / "ebare"
    for folder in ("objects", "refs"):
        (ebare / folder).mkdir(parents=True)
        (ebare / folder / ".keep").write_text("")
    (ebare / "HEAD").write_text("ref: refs/heads/main\n")
    (ebare / "config").write_text(_fsmonitor(workspace.parent / "pwned-checkout"))
    (workspace / "hl").symlink_to(home)
    git_ok(workspace, "add", "ebare", "hl")
    git_ok(workspace, "commit", "-qm", "other")
    git_ok(workspace, "checkout", "-q", "main")
    git_ok(workspace, "init", "-q", "--bare", "fixture.git")
    (workspace / "payload.cfg").write_text(_fsmonitor(workspace.parent / "pwned-payload"))
    return workspace


# -- BV1: a git directory outside `.git`, made or changed in the line ------------------

_PLANT = (
    "mkdir -p evil/objects evil/refs && echo 'ref: refs/heads/main' | tee evil/HEAD && "
    "cat payload.cfg | tee evil/config"
)

_PLANTED_REPOSITORIES = [
    ("mkdir;tee", f"{_PLANT} && git -C evil status"),
    ("mkdir;tee", _PLANT.replace("evil", "src") + " && cd src && git status"),
    ("mkdir;tee", f"{_PLANT} && cd evil/refs && git status"),
    ("git init;tee", "git init -q --bare evil && tee evil/config <payload.cfg && git -C evil log"),
    ("git init", "git init -q --bare --template=tpl evil && git -C evil status"),
    ("cp", "cp -r fixture.git evil && cp payload.cfg evil/config && git -C evil status"),
    ("git checkout", "git checkout other -- ebare && git -C ebare status"),
    ("git checkout", "git checkout other && cd ebare && git diff"),
    # a loop runs the git command again after the write
    ("tee", "for i in 1 2; do git -C evil status; cat payload.cfg | tee evil/config; done"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "command"), _PLANTED_REPOSITORIES)
def test_a_repository_the_line_makes_or_changes_is_not_judged_before_it(
    repo: Path, rules: str, command: str
) -> None:
    """BV1: each was allowed under the approvals its own suggestions name."""
    decision = _decide(approved(*rules.split(";")), command, repo)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.git-config" in _rules(decision)


def test_the_planted_repository_runs_its_fsmonitor(repo: Path) -> None:
    """What BV1's questions are for: real git takes the folders for repositories."""
    _bash(f"{_PLANT} && git -C evil status", repo)
    assert (repo.parent / "pwned-payload").exists()
    _bash("git checkout other -- ebare && git -C ebare status", repo)
    assert (repo.parent / "pwned-checkout").exists()


@pytest.mark.parametrize(
    "command",
    [
        "cp payload.cfg fixture.git/config",
        "cat payload.cfg | tee -a fixture.git/config",
        "echo 'exit 0' | tee fixture.git/hooks/post-checkout",
        "echo '/x' | tee fixture.git/objects/info/alternates",
        "cp -rT evil fixture.git",
    ],
)
def test_a_bare_repository_of_the_tree_is_protected_as_dot_git(repo: Path, command: str) -> None:
    """BV1: writes to a git directory not named `.git` were ordinary workspace writes."""
    decision = _decide(approved("cp", "tee"), command, repo)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert "engine.git-directory" in _rules(decision)


def test_writing_head_beside_objects_and_refs_asks_under_approval(repo: Path) -> None:
    """BV1: the line that turns `src` into a repository (every later `git status` there,
    the user's or an editor's, reads its configuration) is no everyday write."""
    policy = approved("mkdir", "tee")
    command = "mkdir -p src/objects src/refs && echo 'ref: refs/heads/main' | tee src/HEAD"
    decision = _decide(policy, command, repo)
    assert decision.verdict is Verdict.ASK
    assert "engine.git-directory" in _rules(decision)
    (repo / "src" / "objects").mkdir()
    (repo / "src" / "refs").mkdir()
    assert _decide(policy, "echo 'ref: refs/heads/main' | tee src/HEAD", repo).verdict is (
        Verdict.ASK
    )
    # a file named HEAD elsewhere is an ordinary file
    assert _decide(policy, "echo x | tee notes/HEAD", repo).verdict is Verdict.ALLOW


# -- BV2: an ignore file written in the line, then a search that skips hidden files ---


_IGNORE_WRITES = [
    ("tee", f"echo '!.env' | tee .ignore && rg -n {SECRET}"),
    ("tee", f"printf '!.env\\n' | tee -a .gitignore && rg -n {SECRET}"),
    ("cp", f"cp payload.ign .rgignore; rg {SECRET}"),
    ("cp", f"cp payload.ign src/.ignore && rg {SECRET} src"),
    ("cp", f"cp -r pl/. src && rg {SECRET} src"),
    ("tee", f"echo '!.env' | tee .ignore && ag {SECRET}"),
    ("git checkout", f"git checkout other -- . && rg {SECRET}"),
    (None, f"for i in 1 2; do rg {SECRET}; echo '!.env' > .rgignore; done"),
]


@pytest.mark.parametrize(("rules", "command"), _IGNORE_WRITES)
def test_a_search_after_an_ignore_file_is_written_keeps_no_hidden_exemption(
    repo: Path, rules: str | None, command: str
) -> None:
    """BV2: rg and ag skip hidden files unless an ignore file says `!.env`; the engine
    read the ignore files before the line wrote them, and allowed the search."""
    (repo / ".env").write_text(f"TOKEN={SECRET}\n")
    (repo / "src" / ".env").write_text(f"TOKEN={SECRET}\n")
    (repo / "payload.ign").write_text("!.env\n")
    policy = approved(rules) if rules else load_policy()
    decision = _decide(policy, command, repo)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.ignore-in-line" in _rules(decision)
    assert decision.suggested_rule is None


def test_the_written_ignore_file_makes_rg_print_the_secret(repo: Path) -> None:
    """What BV2's question is for (needs the real ripgrep)."""
    if shutil.which("rg") is None:
        pytest.skip("ripgrep (rg) is not installed: the engine's verdicts are tested without it")
    (repo / ".env").write_text(f"TOKEN={SECRET}\n")
    assert SECRET not in _bash(f"rg -n {SECRET}", repo)
    assert SECRET in _bash(f"echo '!.env' | tee .ignore >/dev/null && rg -n {SECRET}", repo)


# -- BV5: links a checkout (or an extractor) writes ------------------------------------


_LINK_WRITERS = [
    ("git switch", "git switch other && cat hl/.aws/credentials"),
    ("git checkout", "git checkout other -- hl && cat hl/.aws/credentials"),
    ("git checkout", "git checkout other && grep -r aws_secret hl/.aws"),
    ("git restore", "git restore --source other hl; cat hl/.aws/credentials"),
    ("git merge", "git merge other; cat hl/.aws/credentials"),
    ("git checkout", "git checkout other && cd hl && cat .aws/credentials"),
    ("git switch;rsync", "git switch other && rsync -a src/ hl/"),
    ("patch", "patch -p1 < change.diff && cat hl/.aws/credentials"),
    ("rsync", "rsync -l ../elsewhere/hl . && cat hl/.aws/credentials"),
]


@pytest.mark.parametrize(("rules", "command"), _LINK_WRITERS)
def test_links_a_command_writes_unnamed_are_links_made_in_the_line(
    repo: Path, rules: str, command: str
) -> None:
    """BV5: only `ln` and `cp -s/-l` counted as making links; a branch that commits
    `hl -> /home/u` made `cat hl/.aws/credentials` read home under a git approval."""
    decision = _decide(approved(*rules.split(";")), command, repo)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.link-in-line" in _rules(decision)


@pytest.mark.parametrize(
    "command",
    [
        "tar -xf x.tar && cat hl/.aws/credentials",
        "tar xf x.tar; cat hl/.aws/credentials",
        "unzip x.zip && cat hl/.aws/credentials",
        "cpio -idm < x.cpio && cat hl/.aws/credentials",
        "7z x x.7z && cat hl/.aws/credentials",
    ],
)
def test_an_archive_extractor_makes_links_in_the_line(repo: Path, command: str) -> None:
    """BV5: these asked already, with no suggestion, but approved once the extractor and
    the read after it ran as one line, whose read nothing flagged."""
    decision = _decide(load_policy(), command, repo)
    assert "engine.link-in-line" in _rules(decision), decision.explain()


def test_the_checked_out_link_reads_home(repo: Path) -> None:
    """What BV5's question is for: git checks the link out, `cat` follows it."""
    assert AWS not in _bash("cat hl/.aws/credentials", repo)
    assert AWS in _bash("git switch -q other && cat hl/.aws/credentials", repo)
    assert os.path.islink(repo / "hl")


# -- what stays allowed ----------------------------------------------------------------


_EVERYDAY = [
    ("git add;git commit", "git add -A && git commit -m x"),
    ("npm run build", "npm run build && git status"),
    ("cp", "cp README.md b.md && cat b.md"),
    (None, "git status && git diff"),
    ("git switch", "git switch other && git log --oneline -3"),
    ("git stash;git pull", "git stash && git pull && git stash pop"),
    ("tee", "echo x | tee src/notes.txt && git status && git -C src log -1"),
    ("tee", "echo x | tee notes.txt && rg TODO"),
    ("rm", "rm -rf build && rg TODO"),
    ("git checkout", "git checkout other && echo done"),
    ("git init", "git init -q && git status"),
]


@pytest.mark.parametrize(("rules", "command"), _EVERYDAY)
def test_everyday_lines_with_writes_stay_allowed(
    repo: Path, rules: str | None, command: str
) -> None:
    policy = approved(*rules.split(";")) if rules else load_policy()
    decision = _decide(policy, command, repo)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
