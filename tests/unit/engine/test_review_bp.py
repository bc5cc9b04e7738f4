"""Review BP (of the fixes of 4 December 2026): each line here had a weaker verdict before
its fix. Where the program is on every machine (git, GNU ls/du/cp, bash) the effect is
shown with the real program too."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import printed

from policylang import Verdict
from policylang.engine.policy import Policy, load_policy


def _verdict(policy: Policy, command: str, workspace: Path) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return policy.evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.fixture
def home(workspace: Path) -> Path:
    folder = workspace.parent / "home"
    (folder / ".ssh").mkdir(parents=True)
    (folder / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    (folder / ".netrc").write_text("machine x password NETRC-MARKER\n")
    (folder / ".config" / "gcloud").mkdir(parents=True)
    (folder / ".config" / "gcloud" / "credentials.db").write_text("db\n")
    return folder


@pytest.fixture
def repo(workspace: Path, home: Path) -> Path:
    """A repository that committed a `.env`, then changed only README.md."""
    (workspace / ".env").write_text("TOKEN=ENV-MARKER \n")  # (a trailing blank: BP8)
    (workspace / "README.md").write_text("hi\n")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "one"]):
        printed(["git", *args], workspace, home)
    (workspace / "README.md").write_text("hi\nmore\n")
    printed(["git", "commit", "-qam", "two"], workspace, home)
    return workspace


def test_a_repository_attributes_file_outside_it_is_a_risk(
    default_policy: Policy, workspace: Path, home: Path
) -> None:
    """BP1: git reads `core.attributesFile` as `PATTERN ATTR…` lines and `check-attr -a`
    prints the later words of a matching line: the password in `~/.netrc`."""
    printed(["git", "init", "-q"], workspace, home)
    printed(["git", "config", "core.attributesFile", "~/.netrc"], workspace, home)
    assert _verdict(default_policy, "git check-attr -a machine", workspace) is not Verdict.ALLOW
    assert _verdict(default_policy, "git status", workspace) is not Verdict.ALLOW
    assert "NETRC-MARKER" in printed(["git", "check-attr", "-a", "machine"], workspace, home)


@pytest.mark.parametrize(
    "key", ["core.excludesFile", "mailmap.file", "fsck.skipList", "gpg.ssh.allowedSignersFile"]
)
def test_other_keys_naming_a_file_git_echoes_are_risks(
    default_policy: Policy, workspace: Path, home: Path, key: str
) -> None:
    printed(["git", "init", "-q"], workspace, home)
    printed(["git", "config", key, "~/.netrc"], workspace, home)
    assert _verdict(default_policy, "git log --oneline", workspace) is not Verdict.ALLOW


def test_a_blob_named_by_its_id_is_printed_whole(
    default_policy: Policy, repo: Path, home: Path
) -> None:
    """BP3: `git show -s ID`, `git diff ID README.md` print the blob the id names, and the
    id of a committed `.env` is one allowed `git ls-tree HEAD` away."""
    blob = printed(["git", "rev-parse", "--short", "HEAD:.env"], repo, home).strip()
    for command in (
        f"git show -s {blob}",
        f"git show --stat {blob}",
        f"git show --name-only {blob}^{{}}",
        f"git show -s v1-1-g{blob}",  # `git describe`'s form names the same object
        f"git diff {blob} README.md",
        f"git diff {blob} -- README.md",
    ):
        assert _verdict(default_policy, command, repo) is Verdict.ASK, command
        args = command.split()
        assert "ENV-MARKER" in printed(args, repo, home), command
    # commits named by refs and the paths they limit stay allowed
    for command in ("git show -s HEAD", "git show --stat HEAD~1", "git diff HEAD README.md"):
        assert _verdict(default_policy, command, repo) is Verdict.ALLOW, command


@pytest.mark.parametrize(
    ("command", "real"),
    [
        ("git reflog -G TOKEN=ENV", "git reflog -G TOKEN=NOPE"),  # BP2: the pickaxe
        ("git reflog -S ENV-MARKER", "git reflog -S NOPE"),
        ("git stash list -G x", None),
        ("git log --check", None),  # BP8: prints the lines with whitespace errors
    ],
)
def test_more_git_commands_that_read_tracked_contents(
    default_policy: Policy, repo: Path, home: Path, command: str, real: str | None
) -> None:
    assert _verdict(default_policy, command, repo) is Verdict.ASK
    output = printed(command.split(), repo, home)
    if real is not None:  # one yes/no about the committed `.env` per run
        assert output.strip()
        assert not printed(real.split(), repo, home).strip()
    elif command == "git log --check":
        assert "ENV-MARKER" in output


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("fd -L . sub", Verdict.DENY),  # BP4: through `sub/deep/k` → ~/.ssh
        ("fd --follow . sub", Verdict.DENY),
        ("cd sub && fd -L", Verdict.DENY),
        ("fd . ~/.config", Verdict.DENY),  # lists gcloud's files, as `tree ~/.config`
        ("fd x", Verdict.ALLOW),
        ("fd -e py", Verdict.ALLOW),
        ("fd -L x src", Verdict.ALLOW),
    ],
)
def test_fd_lists_trees_as_tree_does(
    default_policy: Policy, workspace: Path, home: Path, command: str, verdict: Verdict
) -> None:
    (workspace / "sub" / "deep").mkdir(parents=True)
    (workspace / "sub" / "deep" / "k").symlink_to(home / ".ssh")
    assert _verdict(default_policy, command, workspace) is verdict


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("ls -a --rec ~", Verdict.DENY),  # BP5: GNU takes unique prefixes of long options
        ("ls -a --recu ~/.config", Verdict.DENY),
        ("dir -a --rec ~", Verdict.DENY),
        ("vdir --recurs ~", Verdict.DENY),
        ("cd ~ && ls -a --rec", Verdict.DENY),
        ("du --al ~", Verdict.DENY),
        ("chmod --rec 777 ~", Verdict.DENY),
        ("chgrp --rec x ~", Verdict.DENY),
        ("chown --recur x ~", Verdict.DENY),
        ("ls -l --rec src", Verdict.ALLOW),
        ("du --max-depth 1 .", Verdict.ALLOW),
        ("ls --al ~", Verdict.ALLOW),  # `--all` or `--almost-all`: ls refuses it
    ],
)
def test_abbreviated_long_options_are_the_options(
    default_policy: Policy, workspace: Path, home: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, workspace) is verdict


def test_abbreviated_recursive_listing_really_lists(workspace: Path, home: Path) -> None:
    assert "id_rsa" in printed(["ls", "-a", "--rec", str(home)], workspace, home)
    assert "id_rsa" in printed(["du", "--al", str(home)], workspace, home)
    assert "ambiguous" in printed(["ls", "--deref", "-R", "."], workspace, home)


def test_an_approved_cp_does_not_copy_through_links_by_abbreviation(
    workspace: Path, home: Path
) -> None:
    """BP6: `cp --rec -L DIR x` under an approval of `cp` copied `~/.ssh` out through a
    link in DIR, where `cp -rL` is denied."""
    (workspace / "sub" / "deep").mkdir(parents=True)
    (workspace / "sub" / "deep" / "k").symlink_to(home / ".ssh")
    policy = load_policy()
    policy.approvals.add("cp", persist=False)
    for command in ("cp --rec -L sub h2", "cp --arch -L sub h2", "cp -L --rec sub h2"):
        assert _verdict(policy, command, workspace) is Verdict.DENY, command
    assert _verdict(policy, "cp --rec src s2", workspace) is Verdict.ALLOW  # the approval
    printed(["cp", "--rec", "-L", "sub", "h2"], workspace, home)
    assert (workspace / "h2" / "deep" / "k" / "id_rsa").read_text() == "SSH-MARKER\n"


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("rm -rf ~+/.git", Verdict.DENY),  # BP7: `~+` is the working folder
        ("echo x > ~+/.git/config", Verdict.DENY),
        ("cat ~+/.env", Verdict.DENY),
        ("cat $PWD/.env", Verdict.DENY),
        ('cat "${PWD}"/.env', Verdict.DENY),
        ("cd ~ && cat ~+/.ssh/id_rsa", Verdict.DENY),
        ("cp payload/.mcp.json ~+", Verdict.DENY),
        ("cp -t ~+ payload/.mcp.json", Verdict.DENY),
        ("cp payload/.mcp.json $PWD", Verdict.DENY),
        ("mv payload/.mcp.json ~+", Verdict.DENY),
        ("cp payload/.bashrc $HOME", Verdict.DENY),
        ('cp payload/.bashrc "$HOME"/', Verdict.DENY),
        ("cp -t ${HOME} payload/.bashrc", Verdict.DENY),
        ("install payload/.bashrc $HOME", Verdict.DENY),
        # the expansion is still a question where nothing is protected
        ("cat ~+/README.md", Verdict.ASK),
        ("cp a.txt $PWD", Verdict.ASK),
        ("PWD=/tmp; cat ~+/x", Verdict.ASK),
    ],
)
def test_the_working_folder_by_parameter_or_tilde(
    default_policy: Policy, workspace: Path, home: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, workspace) is verdict


def test_tilde_plus_is_the_working_folder_to_bash(workspace: Path, home: Path) -> None:
    (workspace / ".env").write_text("ENV-MARKER\n")
    assert shutil.which("bash") is not None
    assert "ENV-MARKER" in printed(["bash", "-c", "cat ~+/.env"], workspace, home)
