"""Review BT, its git findings (BT1, BT4, BT7): each line here had a weaker verdict before
its fix. git runs for real where the effect is shown, with a fake home beside the
workspace."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from realrun import approved, git_ok, run_real

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import Policy, load_policy

FSMONITOR = '[core]\n\tfsmonitor = "touch fsmonitor-ran; false"\n'
CREDENTIAL = '[url "https://u:TOKEN-MARKER@example.com/"]\n\tinsteadOf = ex:\n'


def _decide(
    policy: Policy, command: str, workspace: Path, env: Mapping[str, str] | None = None
) -> Decision:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    environment.update(env or {})
    return policy.evaluate(command, workspace=str(workspace), env=environment)


@pytest.fixture
def shared(workspace: Path) -> Path:
    """A repository that shares settings the usual way (`include.path =
    ../shared.gitconfig`, a file of the work tree), with a payload that sets
    `core.fsmonitor` beside it."""
    (workspace.parent / "home").mkdir()
    git_ok(workspace, "init", "-q", "-b", "main")
    (workspace / "README.md").write_text("hi\n")
    (workspace / "shared.gitconfig").write_text("# shared\n")
    git_ok(workspace, "add", "README.md", "shared.gitconfig")
    git_ok(workspace, "commit", "-qm", "init")
    git_ok(workspace, "config", "include.path", "../shared.gitconfig")
    (workspace / "payload.cfg").write_text(FSMONITOR)
    return workspace


# -- BT1: files git's configuration includes ------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "cp payload.cfg shared.gitconfig && git status",
        "cp payload.cfg shared.gitconfig; git log -1",
        "printf '[alias]\\n\\tx = !id\\n' | tee -a shared.gitconfig",
        "cat payload.cfg > shared.gitconfig",
        "mv payload.cfg shared.gitconfig",
        "cp payload.cfg ./src/../shared.gitconfig",
    ],
)
def test_writes_to_an_included_work_tree_file_are_denied(shared: Path, command: str) -> None:
    """BT1: under an approval of `cp`, `tee` or `mv` the included file was writable, and
    the `git status` after it ran the payload's `core.fsmonitor`."""
    policy = approved("cp", "tee", "mv", "cat", "printf")
    assert _decide(policy, command, shared).verdict is Verdict.DENY


def test_the_payload_the_deny_is_for_runs_for_real(shared: Path) -> None:
    command = "cp payload.cfg shared.gitconfig && git status"
    assert _decide(approved("cp"), command, shared).verdict is Verdict.DENY
    assert run_real(["bash", "-c", command], shared).returncode == 0
    assert (shared / "fsmonitor-ran").exists()


def test_writes_to_other_work_tree_files_stay_approved(shared: Path) -> None:
    policy = approved("cp", "tee")
    for command in ("cp payload.cfg other.cfg", "cp README.md docs.md && git status"):
        assert _decide(policy, command, shared).verdict is Verdict.ALLOW, command


def test_an_include_through_a_link_and_a_whole_folder(shared: Path) -> None:
    """The included file is found by the path the kernel resolves, and a recursive write
    of a folder holding it reaches it."""
    (shared / "conf").mkdir()
    (shared / "conf" / "team.gitconfig").write_text("# team\n")
    (shared / "lnk").symlink_to("conf")
    git_ok(shared, "config", "includeIf.onbranch:main.path", "../lnk/team.gitconfig")
    policy = approved("cp", "rm")
    for command in (
        "cp payload.cfg conf/team.gitconfig",
        "cp payload.cfg lnk/team.gitconfig",
        "rm -rf conf",
        "cp -rT src conf",
    ):
        assert _decide(policy, command, shared).verdict is Verdict.DENY, command


def test_a_file_the_global_configuration_includes(shared: Path) -> None:
    home = shared.parent / "home"
    (home / ".gitconfig").write_text("[include]\n\tpath = ~/work.gitconfig\n")
    policy = approved("cp")
    decision = _decide(policy, "cp payload.cfg ~/work.gitconfig", shared)
    assert decision.verdict is Verdict.DENY
    assert "engine.git-include" in [reason.rule_id for reason in decision.reasons]


def test_reading_an_included_work_tree_file_with_a_credential_asks(shared: Path) -> None:
    """BT1: reads of work tree files skipped the look for a credential (a shared config's
    `url.<token>.insteadOf`), though git reads the file as its configuration."""
    (shared / "creds.cfg").write_text(CREDENTIAL)
    git_ok(shared, "config", "--add", "include.path", "../creds.cfg")
    policy = load_policy()
    for command in ("cat creds.cfg", "head -1 creds.cfg", "grep -r insteadOf ."):
        decision = _decide(policy, command, shared)
        assert decision.verdict is Verdict.ASK, command
        assert "engine.git-credentials" in [reason.rule_id for reason in decision.reasons]
    shown = run_real(["git", "config", "--get-regexp", "^url"], shared).stdout
    assert "TOKEN-MARKER" in shown  # git takes it as its configuration


def test_a_git_command_that_rewrites_the_work_tree_before_another(shared: Path) -> None:
    """The engine reads the included file before the line runs: `git checkout other`
    may bring another version of it, which the `git status` after it reads."""
    git_ok(shared, "checkout", "-qb", "other")
    (shared / "shared.gitconfig").write_text(FSMONITOR.replace("fsmonitor-ran", "../ran"))
    git_ok(shared, "commit", "-qam", "evil settings")
    git_ok(shared, "checkout", "-q", "main")
    policy = approved("git checkout", "git stash")
    for command in ("git checkout other && git status", "git stash pop; git log -1"):
        decision = _decide(policy, command, shared)
        assert decision.verdict is Verdict.ASK, command
    assert _decide(policy, "git checkout main -- shared.gitconfig", shared).verdict is (
        Verdict.DENY
    )
    # as before: nothing reads the configuration after the rewrite
    for command in ("git status && git checkout other", "git checkout other"):
        assert _decide(policy, command, shared).verdict is Verdict.ALLOW, command
    run_real(["bash", "-c", "git checkout -q other && git status"], shared)
    assert (shared.parent / "ran").exists()


def test_without_work_tree_includes_a_checkout_before_status_stays_approved(
    workspace: Path,
) -> None:
    git_ok(workspace, "init", "-q", "-b", "main")
    policy = approved("git checkout")
    decision = _decide(policy, "git checkout -b x && git status", workspace)
    assert decision.verdict is Verdict.ALLOW


# -- BT4: aliases as git reads them --------------------------------------------------


@pytest.fixture
def pushed(workspace: Path) -> Path:
    """A clone whose `origin` (a bare repository beside it) holds two commits, while the
    clone was reset to the first: only a forced push rewinds `origin`."""
    (workspace.parent / "home").mkdir()
    remote = workspace.parent / "remote.git"
    git_ok(workspace.parent, "init", "-q", "--bare", "-b", "main", str(remote))
    git_ok(workspace, "init", "-q", "-b", "main")
    git_ok(workspace, "remote", "add", "origin", str(remote))
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "one")
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "two")
    git_ok(workspace, "push", "-q", "origin", "main")
    git_ok(workspace, "reset", "-q", "--hard", "HEAD~1")
    return workspace


def _remote_head(workspace: Path) -> str:
    remote = workspace.parent / "remote.git"
    return run_real(["git", "log", "-1", "--format=%s", "main"], remote).stdout.strip()


def test_an_alias_in_a_subsection(pushed: Path) -> None:
    """BT4a: `[alias "foo"] bar = push` is the alias of `git foo.bar`."""
    git_ok(pushed, "config", "alias.Foo.bar", "push")  # writes `[alias "Foo"] bar = push`
    policy = approved("git foo.bar")
    for command in ("git foo.bar --force origin main", "git FOO.Bar origin :main"):
        assert _decide(policy, command, pushed).verdict is Verdict.DENY, command
    git_ok(pushed, "foo.bar", "-q", "--force", "origin", "HEAD:main")
    assert _remote_head(pushed) == "one"  # the alias force-pushed


def test_an_alias_body_is_split_as_git_splits_it(pushed: Path) -> None:
    """BT4b: a `#` in the alias made the words typed after it a shell comment, so
    `git pr --force origin main` was read as `git push --repo`."""
    git_ok(pushed, "config", "alias.pr", "push --repo #")
    policy = approved("git push", "git pr")
    assert _decide(policy, "git pr --force origin main", pushed).verdict is Verdict.DENY
    git_ok(pushed, "pr", "-q", "--force", "origin", "HEAD:main")
    assert _remote_head(pushed) == "one"  # the line's repository won over `--repo #`


def test_a_backslash_in_double_quotes_escapes_any_character(pushed: Path) -> None:
    """BT4b: git takes `"--forc\\e"` as `--force` (bash keeps that backslash), so the
    approved `git up` force-pushed."""
    git_ok(pushed, "config", "alias.up", 'push "--forc\\e"')
    policy = approved("git up", "git push")
    assert _decide(policy, "git up origin main", pushed).verdict is Verdict.DENY
    git_ok(pushed, "up", "-q", "origin", "HEAD:main")
    assert _remote_head(pushed) == "one"


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        ("push ';' --force", Verdict.DENY),  # quoted: one word `;`, then `--force`
        ('push "--for"ce', Verdict.DENY),  # quotes join parts of one word
        ("push \\--force", Verdict.DENY),
        ("push origin +main #", Verdict.DENY),
        ("push 'unclosed", Verdict.ASK),  # git refuses it; not read here
    ],
)
def test_alias_bodies_with_quotes_as_before(pushed: Path, body: str, verdict: Verdict) -> None:
    git_ok(pushed, "config", "alias.up", body)
    policy = approved("git up")
    assert _decide(policy, "git up origin main", pushed).verdict is verdict


def test_split_alias_matches_git() -> None:
    from policylang.engine.gitconfig import split_alias

    assert split_alias("push --repo #") == ["push", "--repo", "#"]
    words = ["a", "b c", 'd"e', "f g", ";|$x~*"]
    assert split_alias('a  \'b c\'\t"d\\"e" f\\ g ;|$x~*') == words
    assert split_alias("a 'b\\c'") == ["a", "b\\c"]  # no escapes inside single quotes
    assert split_alias("a ") == ["a", ""]  # as git: a blank at the end makes a word
    assert split_alias('a "b') is None
    assert split_alias("a b\\") is None


# -- BT7: configuration from git's environment ---------------------------------------

COUNTED = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "alias.gg", "GIT_CONFIG_VALUE_0": "push"}


@pytest.mark.parametrize(
    "env",
    [
        COUNTED,
        {"GIT_CONFIG_PARAMETERS": "'alias.gg'='push'"},
        {"GIT_CONFIG_PARAMETERS": "'core.pager=less' 'Alias.GG=push'"},  # the older form
    ],
)
def test_aliases_from_the_environment(pushed: Path, env: dict[str, str]) -> None:
    """BT7: the aliases the environment gives git were not read."""
    policy = approved("git gg")
    assert _decide(policy, "git gg --force origin main", pushed, env).verdict is Verdict.DENY


def test_unreadable_environment_configuration_asks(pushed: Path) -> None:
    policy = approved("git gg")
    for env in ({"GIT_CONFIG_COUNT": "2", **COUNTED}, {"GIT_CONFIG_PARAMETERS": "'a.b"}):
        decision = _decide(policy, "git gg origin main", pushed, env)
        assert decision.verdict is Verdict.ASK, env


def test_an_environment_alias_force_pushes_for_real(pushed: Path) -> None:
    policy = approved("git gg")
    command = "git gg -q --force origin HEAD:main"
    assert _decide(policy, command, pushed, COUNTED).verdict is Verdict.DENY
    given = [f"{key}={value}" for key, value in COUNTED.items()]
    run_real(["env", *given, "git", "gg", "-q", "--force", "origin", "HEAD:main"], pushed)
    assert _remote_head(pushed) == "one"
