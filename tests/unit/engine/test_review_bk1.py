"""Review BK1: git reads files of its git directory on its own (`packed-refs`, `shallow`,
`objects/info/alternates`, `info/grafts`, the state of a rebase, a cherry-pick or a
bisect), follows them when they are symbolic links, and prints the lines it cannot parse;
an alternates file that names another repository's object store prints that repository's
history. Each case below was `allow` for `git status` / `git log` before the fix."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.engine import gitconfig
from policylang.engine.gitconfig import GitConfigInspector
from policylang.engine.policy import Policy

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

MARKER = "MARKER-BK1-SECRET"


def _git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(cwd),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=check, capture_output=True, text=True
    )


def _verdict(policy: Policy, command: str, workspace: Path) -> Verdict:
    env = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return policy.evaluate(command, workspace=str(workspace), env=env).verdict


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    key = tmp_path / "home" / ".ssh" / "id_rsa"
    key.parent.mkdir(parents=True)
    key.write_text(f"{MARKER}-1\n{MARKER}-2\n")
    return key


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A workspace that is a repository with two commits."""
    ws = tmp_path / "ws"
    ws.mkdir()
    _git(ws, "init", "-q", "-b", "main")
    (ws / "f").write_text("one\n")
    _git(ws, "add", "f")
    _git(ws, "commit", "-qm", "one")
    (ws / "f").write_text("two\n")
    _git(ws, "commit", "-qam", "two")
    return ws


def _hostile_upstream(tmp_path: Path, secret: Path) -> Path:
    """An upstream that commits an embedded bare repository whose alternates file is a
    link to the key (relative, so it points there once cloned next to `home/`)."""
    up = tmp_path / "up"
    up.mkdir()
    _git(up, "init", "-q", "-b", "main")
    bare = up / "evil.git"
    (bare / "refs" / "heads").mkdir(parents=True)
    (bare / "objects" / "info").mkdir(parents=True)
    (bare / "HEAD").write_text("ref: refs/heads/main\n")
    (bare / "config").write_text("[core]\n\trepositoryformatversion = 0\n\tbare = true\n")
    (bare / "refs" / "heads" / "main").write_text("0" * 40 + "\n")
    target = os.path.relpath(secret, tmp_path / "ws" / "evil.git" / "objects" / "info")
    os.symlink(target, bare / "objects" / "info" / "alternates")
    (up / "README").write_text("hi\n")
    _git(up, "add", ".")
    _git(up, "commit", "-qm", "upstream")
    _git(tmp_path, "clone", "-q", str(up), "ws")
    return tmp_path / "ws"


@pytest.mark.parametrize(
    "command", ["cd evil.git && git log", "git -C evil.git log", "cd evil.git && git status"]
)
def test_a_cloned_bare_repository_with_a_linked_alternates_file_asks(
    default_policy: Policy, tmp_path: Path, secret: Path, command: str
) -> None:
    ws = _hostile_upstream(tmp_path, secret)
    assert os.path.islink(ws / "evil.git" / "objects" / "info" / "alternates")
    leaked = _git(ws / "evil.git", "log", check=False)
    assert MARKER in leaked.stderr  # `error: object directory …/objects/MARKER… does not exist`
    assert _verdict(default_policy, command, ws) is not Verdict.ALLOW
    # the work tree of the clone itself holds nothing git follows
    assert _verdict(default_policy, "git log", ws) is Verdict.ALLOW


_LINKED = [
    "objects/info/alternates",
    "objects/info/http-alternates",
    "packed-refs",
    "shallow",
    "info/grafts",
    "info/exclude",
    "info/attributes",
    "BISECT_START",
    "commondir",
    "rebase-merge/git-rebase-todo",
    "rebase-merge/done",
    "rebase-merge/head-name",
    "rebase-merge/onto",
    "rebase-merge/interactive",
    "rebase-apply/next",
    "sequencer/todo",
]


@pytest.mark.parametrize("name", _LINKED)
@pytest.mark.parametrize("command", ["git status", "git log", "git log --oneline -3"])
def test_a_state_file_of_the_git_directory_that_is_a_link_asks(
    default_policy: Policy, repo: Path, secret: Path, name: str, command: str
) -> None:
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW
    path = repo / ".git" / name
    path.parent.mkdir(exist_ok=True)
    path.unlink(missing_ok=True)
    os.symlink(secret, path)
    assert _verdict(default_policy, command, repo) is not Verdict.ALLOW


def test_a_linked_rebase_state_names_the_file(
    default_policy: Policy, repo: Path, secret: Path
) -> None:
    (repo / ".git" / "rebase-merge").mkdir()
    os.symlink(secret, repo / ".git" / "rebase-merge" / "done")
    env = {"HOME": str(repo.parent / "home"), "PATH": "/usr/bin:/bin"}
    decision = default_policy.evaluate("git status", workspace=str(repo), env=env)
    assert decision.verdict is Verdict.ASK
    assert any("rebase-merge/done" in reason.message for reason in decision.reasons)


@pytest.mark.parametrize("name", ["objects", "objects/info", "info", "rebase-merge"])
def test_a_linked_directory_of_state_files_asks(
    default_policy: Policy, repo: Path, tmp_path: Path, name: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(repo / ".git" / "objects", elsewhere)
    path = repo / ".git" / name
    if path.exists():
        shutil.rmtree(path)
    os.symlink(elsewhere, path)
    assert _verdict(default_policy, "git status", repo) is not Verdict.ALLOW


def _private_repository(tmp_path: Path) -> Path:
    priv = tmp_path / "priv"
    priv.mkdir()
    _git(priv, "init", "-q", "-b", "main")
    (priv / "notes").write_text(f"{MARKER}\n")
    _git(priv, "add", "notes")
    _git(priv, "commit", "-qm", "private")
    return priv


@pytest.mark.parametrize(
    "command", ["git log --alternate-refs -p", "git log", "git status", "git -C src log"]
)
def test_alternates_naming_another_repository_ask(
    default_policy: Policy, repo: Path, tmp_path: Path, command: str
) -> None:
    _private_repository(tmp_path)
    (repo / "src").mkdir()
    alternates = repo / ".git" / "objects" / "info" / "alternates"
    alternates.write_text("../../../priv/.git/objects\n")
    assert MARKER in _git(repo, "log", "--alternate-refs", "-p").stdout  # the real leak
    assert _verdict(default_policy, command, repo) is not Verdict.ALLOW


@pytest.mark.parametrize(
    "entry",
    [
        "{priv}/.git/objects",  # absolute
        "../../../priv/.git/objects",  # relative to `objects/`
        "inside/../../../../priv/.git/objects",
        "link",  # a link inside the git directory to the other object store
        '"../../../priv/.git/objects"',  # quoted: not resolved here
    ],
)
def test_alternates_leaving_the_git_directory_are_risks(
    repo: Path, tmp_path: Path, entry: str
) -> None:
    priv = _private_repository(tmp_path)
    objects = repo / ".git" / "objects"
    os.symlink(priv / ".git" / "objects", objects / "link")
    (objects / "info" / "alternates").write_text("# a comment\n\n" + entry.format(priv=priv) + "\n")
    risks, _ = GitConfigInspector().risks_for(str(repo))
    assert [risk.key for risk in risks] == ["objects/info/alternates"]


def test_nested_alternates_are_followed(repo: Path, tmp_path: Path) -> None:
    priv = _private_repository(tmp_path)
    inner = repo / ".git" / "more-objects"
    (inner / "info").mkdir(parents=True)
    (repo / ".git" / "objects" / "info" / "alternates").write_text("../more-objects\n")
    assert GitConfigInspector().risks_for(str(repo)) == ((), True)
    (inner / "info" / "alternates").write_text(f"{priv}/.git/objects\n")
    risks, _ = GitConfigInspector().risks_for(str(repo))
    assert [risk.file for risk in risks] == [str(inner / "info" / "alternates")]


def test_a_commondir_naming_another_repository_asks(default_policy: Policy, tmp_path: Path) -> None:
    _private_repository(tmp_path)
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    (ws / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (ws / ".git" / "commondir").write_text("../../priv/.git\n")
    assert MARKER in _git(ws, "log", "-p").stdout  # git reads the other repository
    assert _verdict(default_policy, "git log", ws) is not Verdict.ALLOW
    assert _verdict(default_policy, "git status", ws) is not Verdict.ALLOW


@pytest.mark.parametrize("command", ["git status", "git log", "git log --oneline -3"])
def test_plain_repositories_stay_allowed(
    default_policy: Policy, repo: Path, tmp_path: Path, command: str
) -> None:
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW
    # a regular packed-refs file, an alternates file naming a store inside the git
    # directory, info/exclude and a hooks folder that is a link (its hooks are inspected)
    _git(repo, "pack-refs", "--all")
    assert (repo / ".git" / "packed-refs").is_file()
    (repo / ".git" / "extra-objects" / "info").mkdir(parents=True)
    (repo / ".git" / "objects" / "info" / "alternates").write_text(
        f"../extra-objects\n{repo}/.git/extra-objects\n"
    )
    (repo / ".githooks").mkdir()
    shutil.rmtree(repo / ".git" / "hooks", ignore_errors=True)
    os.symlink("../.githooks", repo / ".git" / "hooks")
    assert _git(repo, "status").returncode == 0
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW


@pytest.mark.parametrize("command", ["git status", "git log"])
def test_a_linked_worktree_stays_allowed(
    default_policy: Policy, repo: Path, tmp_path: Path, command: str
) -> None:
    _git(repo, "worktree", "add", "-q", str(tmp_path / "wt"))
    wt = tmp_path / "wt"
    assert (wt / ".git").is_file()
    assert _verdict(default_policy, command, wt) is Verdict.ALLOW
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW


@pytest.mark.parametrize("name", ["packed-refs", "objects/info/alternates"])
def test_git_prints_what_a_linked_state_file_holds(repo: Path, secret: Path, name: str) -> None:
    """Documents the leak: git follows the link and prints the lines it cannot parse."""
    path = repo / ".git" / name
    path.unlink(missing_ok=True)
    os.symlink(secret, path)
    result = _git(repo, "log", "--oneline", check=False)
    assert MARKER in result.stdout + result.stderr


def test_a_link_made_after_a_cached_inspection_is_found(
    repo: Path, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # directory listings are kept while the directory is unchanged: a link made later
    # changes the directory's ctime, so the listing is read again
    monkeypatch.setattr(gitconfig, "_SETTLE_NS", -(10**18))  # keep even fresh listings
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo)) == ((), True)
    assert inspector.risks_for(str(repo)) == ((), True)
    time.sleep(0.05)  # beyond the file system's timestamp granularity
    os.symlink(secret, repo / ".git" / "shallow")
    risks, complete = inspector.risks_for(str(repo))
    assert complete
    assert [risk.key for risk in risks] == ["shallow"]


def test_a_fresh_listing_is_not_kept(repo: Path, secret: Path) -> None:
    # a directory changed within the last second may change again within the same
    # timestamp tick: its listing is read on every inspection
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo)) == ((), True)
    os.symlink(secret, repo / ".git" / "shallow")
    assert [risk.key for risk in inspector.risks_for(str(repo))[0]] == ["shallow"]


# -- review BM8: the files of a linked worktree in `worktrees/NAME/` -------------------------


def _worktree(repo: Path, tmp_path: Path, name: str = "wt") -> Path:
    """A linked worktree `tmp_path/NAME` of `repo`; its git directory is
    `.git/worktrees/NAME`."""
    _git(repo, "worktree", "add", "-q", str(tmp_path / name))
    assert (repo / ".git" / "worktrees" / name / "gitdir").is_file()
    return tmp_path / name


def _link_into(path: Path, target: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    path.unlink(missing_ok=True)
    os.symlink(target, path)


_WORKTREE_COMMANDS = ["git worktree list -v", "git worktree list --porcelain", "git status"]


@pytest.mark.parametrize("name", ["locked", "gitdir", "prunable", "ORIG_HEAD", "index", "logs"])
@pytest.mark.parametrize("command", _WORKTREE_COMMANDS)
def test_a_linked_file_of_a_linked_worktree_asks(
    default_policy: Policy, repo: Path, tmp_path: Path, secret: Path, name: str, command: str
) -> None:
    wt = _worktree(repo, tmp_path)
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW
    _link_into(repo / ".git" / "worktrees" / "wt" / name, secret)
    assert _verdict(default_policy, command, repo) is not Verdict.ALLOW
    assert _verdict(default_policy, command, wt) is not Verdict.ALLOW


@pytest.mark.parametrize("command", _WORKTREE_COMMANDS)
def test_a_linked_worktree_directory_or_its_rebase_state_asks(
    default_policy: Policy, repo: Path, tmp_path: Path, secret: Path, command: str
) -> None:
    _worktree(repo, tmp_path)
    gitdir = repo / ".git" / "worktrees" / "wt"
    (gitdir / "rebase-merge").mkdir()
    os.symlink(secret, gitdir / "rebase-merge" / "head-name")
    assert _verdict(default_policy, command, repo) is not Verdict.ALLOW
    shutil.rmtree(gitdir / "rebase-merge")
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(gitdir, elsewhere)
    _link_into(repo / ".git" / "worktrees" / "w2", elsewhere)
    assert _verdict(default_policy, command, repo) is not Verdict.ALLOW


def test_git_prints_what_a_linked_lock_reason_holds(
    repo: Path, tmp_path: Path, secret: Path
) -> None:
    """Documents the leak: `git worktree list` prints the `locked` and `gitdir` files of
    every linked worktree, following links."""
    _worktree(repo, tmp_path)
    os.symlink(secret, repo / ".git" / "worktrees" / "wt" / "locked")
    listed = _git(repo, "worktree", "list", "--porcelain").stdout
    assert f'locked "{MARKER}-1\\n{MARKER}-2"' in listed  # the whole file, quoted
    assert f"locked: {MARKER}-1" in _git(repo, "worktree", "list", "-v").stdout


def test_a_linked_worktree_reason_is_named(
    default_policy: Policy, repo: Path, tmp_path: Path, secret: Path
) -> None:
    _worktree(repo, tmp_path)
    os.symlink(secret, repo / ".git" / "worktrees" / "wt" / "locked")
    env = {"HOME": str(repo.parent / "home"), "PATH": "/usr/bin:/bin"}
    decision = default_policy.evaluate("git worktree list -v", workspace=str(repo), env=env)
    assert decision.verdict is Verdict.ASK
    assert any("worktrees/wt/locked" in reason.message for reason in decision.reasons)
    risks, complete = GitConfigInspector().risks_for(str(repo))
    assert complete
    assert [(risk.key, risk.kind, risk.detail) for risk in risks] == [
        ("worktrees/wt/locked", "link", str(secret))
    ]


@pytest.mark.parametrize("command", _WORKTREE_COMMANDS)
def test_worktrees_with_symbolic_heads_and_locks_stay_allowed(
    default_policy: Policy, repo: Path, tmp_path: Path, secret: Path, command: str
) -> None:
    # `core.preferSymlinkRefs` makes `worktrees/NAME/HEAD` a link to `refs/heads/NAME`,
    # which git reads as a symbolic ref without following it
    _git(repo, "-c", "core.preferSymlinkRefs=true", "worktree", "add", "-q", str(tmp_path / "wt"))
    head = repo / ".git" / "worktrees" / "wt" / "HEAD"
    assert os.readlink(head) == "refs/heads/wt"
    _git(repo, "worktree", "lock", "--reason", "on a USB disk", str(tmp_path / "wt"))
    _worktree(repo, tmp_path, "wt2")
    assert _git(repo, "worktree", "list", "--porcelain").returncode == 0
    assert _verdict(default_policy, command, repo) is Verdict.ALLOW
    assert _verdict(default_policy, command, tmp_path / "wt") is Verdict.ALLOW
    # a HEAD linked anywhere else is followed by git
    for target in (str(secret), "refs/../../../../../home/.ssh/id_rsa"):
        head.unlink()
        os.symlink(target, head)
        assert _verdict(default_policy, command, repo) is not Verdict.ALLOW


def test_links_in_submodule_git_directories_ask(
    default_policy: Policy, repo: Path, secret: Path
) -> None:
    # a submodule's git directory under `modules/` is inspected like the repository's own,
    # its linked worktrees included
    module = repo / ".git" / "modules" / "sub"
    _git(repo, "init", "-q", "--bare", str(module))
    assert _verdict(default_policy, "git status", repo) is Verdict.ALLOW
    os.symlink(secret, module / "packed-refs")
    assert _verdict(default_policy, "git status", repo) is not Verdict.ALLOW
    (module / "packed-refs").unlink()
    (module / "worktrees" / "w").mkdir(parents=True)
    assert _verdict(default_policy, "git status", repo) is Verdict.ALLOW
    os.symlink(secret, module / "worktrees" / "w" / "locked")
    assert _verdict(default_policy, "git status", repo) is not Verdict.ALLOW


def test_a_link_made_in_a_worktree_directory_after_a_cached_inspection_is_found(
    repo: Path, tmp_path: Path, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gitconfig, "_SETTLE_NS", -(10**18))  # keep even fresh listings
    _worktree(repo, tmp_path)
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo)) == ((), True)
    assert inspector.risks_for(str(repo)) == ((), True)
    time.sleep(0.05)  # beyond the file system's timestamp granularity
    os.symlink(secret, repo / ".git" / "worktrees" / "wt" / "locked")
    assert [risk.key for risk in inspector.risks_for(str(repo))[0]] == ["worktrees/wt/locked"]
    time.sleep(0.05)
    (repo / ".git" / "worktrees" / "wt" / "locked").unlink()
    assert inspector.risks_for(str(repo)) == ((), True)
    time.sleep(0.05)
    (repo / ".git" / "worktrees" / "wt" / "rebase-apply").mkdir()
    assert inspector.risks_for(str(repo)) == ((), True)
    time.sleep(0.05)
    os.symlink(secret, repo / ".git" / "worktrees" / "wt" / "rebase-apply" / "next")
    risks = inspector.risks_for(str(repo))[0]
    assert [risk.key for risk in risks] == ["worktrees/wt/rebase-apply/next"]
    shutil.rmtree(repo / ".git" / "worktrees" / "wt" / "rebase-apply")
    assert inspector.risks_for(str(repo)) == ((), True)
    time.sleep(0.05)
    other = tmp_path / "other"  # a directory moved in whole: only `worktrees/` changes
    other.mkdir()
    os.symlink(secret, other / "gitdir")
    other.rename(repo / ".git" / "worktrees" / "w2")
    assert [risk.key for risk in inspector.risks_for(str(repo))[0]] == ["worktrees/w2/gitdir"]


def test_too_many_worktree_directories_are_incomplete(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gitconfig, "_MAX_WORKTREES", 2)
    for name in ("a", "b"):
        (repo / ".git" / "worktrees" / name).mkdir(parents=True)
    assert GitConfigInspector().risks_for(str(repo)) == ((), True)
    (repo / ".git" / "worktrees" / "c").mkdir()
    assert GitConfigInspector().risks_for(str(repo)) == ((), False)
