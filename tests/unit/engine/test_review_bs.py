"""Review BS (of review BP's fixes): each line here had a weaker verdict before its fix.
git, du, cp and gzip run for real where the effect is shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import printed

from policylang import Verdict
from policylang.engine.policy import Policy, load_policy


def _verdict(policy: Policy, command: str, workspace: Path, cwd: Path | None = None) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return policy.evaluate(
        command, cwd=str(cwd or workspace), workspace=str(workspace), env=environment
    ).verdict


@pytest.fixture
def home(workspace: Path) -> Path:
    folder = workspace.parent / "home"
    (folder / ".ssh").mkdir(parents=True)
    (folder / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    (folder / ".netrc").write_text("machine h login u password p\n")
    (workspace / "sub" / "deep").mkdir(parents=True)
    (workspace / "sub" / "deep" / "k").symlink_to(folder / ".ssh")
    return folder


@pytest.fixture
def repo(workspace: Path, home: Path) -> Path:
    """A repository whose first commit `init` added a `.env`; the second changed it."""
    (workspace / ".env").write_text("TOKEN=ENV-MARKER\n")
    (workspace / "README.md").write_text("hi\n")
    for args in (["init", "-q"], ["add", ".env", "README.md"], ["commit", "-qm", "init"]):
        printed(["git", *args], workspace)
    (workspace / ".env").write_text("TOKEN=ENV-MARKER\nTOKEN2=ENV-MARKER-2\n")
    printed(["git", "commit", "-qam", "two"], workspace)
    return workspace


@pytest.mark.parametrize(
    "command",
    [
        "git show -s --indexed-objects",  # BS1: the index's blobs, `.env` among them
        "git show --stat --indexed-objects",
        "git show :/init",  # BS2: a commit by its message, with its patch
        "git show 'HEAD@{23:59}'",  # a commit by time
        "git show HEAD:README.md --all",  # the colon operand beside every ref
        "git diff :/init",  # BS3: a revision, not a pathspec, for git
        "git diff -R :/init",
    ],
)
def test_git_commands_that_print_the_committed_env(
    default_policy: Policy, repo: Path, command: str
) -> None:
    assert _verdict(default_policy, command, repo) is Verdict.ASK
    args = [a.strip("'") for a in command.split()]
    if "@{" not in command:  # (the reflog by time depends on the clock)
        assert "ENV-MARKER" in printed(args, repo)


def test_git_show_of_a_path_and_plain_diffs_stay_allowed(
    default_policy: Policy, repo: Path
) -> None:
    for command in ("git show HEAD:README.md", "git show -s HEAD", "git diff README.md"):
        assert _verdict(default_policy, command, repo) is Verdict.ALLOW, command


def test_du_time_takes_no_operand(default_policy: Policy, workspace: Path, home: Path) -> None:
    """BS4: `--time` takes a value only when attached: `du -a --time ~/.ssh` lists it."""
    assert _verdict(default_policy, "du -a --time ~/.ssh", workspace) is Verdict.DENY
    assert _verdict(default_policy, "du --time -a ~", workspace) is Verdict.DENY
    assert "id_rsa" in printed(["du", "-a", "--time", str(home / ".ssh")], workspace)


def test_copies_that_keep_their_folders(workspace: Path) -> None:
    """BS5: `cp --parents .vscode/tasks.json ..` from a subfolder writes the workspace's
    `.vscode/tasks.json`, which `cp x ../.vscode/tasks.json` is denied for."""
    payload = workspace / "payload"
    (payload / ".vscode").mkdir(parents=True)
    (payload / ".vscode" / "tasks.json").write_text("{}\n")
    policy = load_policy()
    policy.approvals.add("cp", persist=False)
    policy.approvals.add("rsync", persist=False)
    for command in (
        "cp --parents .vscode/tasks.json ..",
        "cp --par .vscode/tasks.json ..",
        "cp --parents -t .. .cursor/mcp.json",
        "rsync --relative .vscode/tasks.json ..",
        "rsync -R x/./.vscode/tasks.json ..",
    ):
        assert _verdict(policy, command, workspace, payload) is Verdict.DENY, command
    assert _verdict(policy, "cp --parents src/a.txt ..", workspace, payload) is Verdict.ALLOW
    printed(["cp", "--parents", ".vscode/tasks.json", ".."], payload)
    assert (workspace / ".vscode" / "tasks.json").exists()


def test_tar_maps_by_abbreviation(default_policy: Policy, workspace: Path, home: Path) -> None:
    """BS6: `--owner-ma=FILE` is `--owner-map=FILE`, which tar reads while listing."""
    for option in ("--owner-ma", "--group-ma"):
        command = f"tar -tf x.tar {option}={home}/.netrc"
        assert _verdict(default_policy, command, workspace) is Verdict.DENY, command


def test_every_option_a_path_table_names_is_known_to_its_command(default_policy: Policy) -> None:
    """An option the path tables name must be in its command's option table, or its
    abbreviations escape the path check (BS6)."""
    compiled = default_policy.compiled
    exempt = {  # options that programs do not have, listed defensively; shuf always asks
        ("base64", "--output"), ("md5sum", "--output"), ("sha256sum", "--output"),
        ("shuf", "--random-source"),
    }  # fmt: skip
    unknown = []
    for name in sorted(compiled.path_args.commands):
        roles = compiled.path_args.roles(name)
        if roles is None:
            continue
        spec = compiled.tree.option_spec(name)
        wrapper = compiled.wrappers.get(name)
        known = spec.known | (wrapper.options.known if wrapper is not None else frozenset())
        unknown.extend(
            (name, option)
            for option in roles.options
            if option.startswith("--") and option not in known and (name, option) not in exempt
        )
    assert unknown == []


@pytest.mark.parametrize(
    "command",
    [
        "echo ~/.ssh/*",  # BS7: the names in a protected folder, as `ls ~/.ssh`
        "printf '%s\\n' ~/.ssh/*",
        "basename ~/.ssh/*",
        "echo sub/*/*/*",  # through the link `sub/deep/k`
    ],
)
def test_globs_in_any_argument_list_their_folders(
    default_policy: Policy, workspace: Path, home: Path, command: str
) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.DENY


def test_globs_of_plain_folders_stay_allowed(default_policy: Policy, workspace: Path) -> None:
    (workspace / "server.key").write_text("k\n")  # named, not read, by `echo *`
    for command in ("echo *", "echo src/*.py", "printf '%s\\n' *"):
        assert _verdict(default_policy, command, workspace) is Verdict.ALLOW, command


@pytest.mark.parametrize(
    "command",
    [
        "gzip -rf sub",  # BS9: with -f, gzip follows the link into ~/.ssh
        "gzip --rec -f sub",
        "gzip --rec .",  # `--rec` is `-r`: compresses `.git/config`, `.env` …
        "chown -RL nobody sub",  # BS10: -L follows the links below
        "chgrp -R -L nobody sub",
    ],
)
def test_approved_recursive_writers_that_follow_links(
    workspace: Path, home: Path, command: str
) -> None:
    policy = load_policy()
    for program in ("gzip", "chown", "chgrp"):
        policy.approvals.add(program, persist=False)
    assert _verdict(policy, command, workspace) is Verdict.DENY


def test_recursive_writers_without_link_following_stay_approved(
    workspace: Path, home: Path
) -> None:
    policy = load_policy()
    for program in ("gzip", "chown"):
        policy.approvals.add(program, persist=False)
    for command in ("gzip -r sub", "chown -R nobody sub", "gzip -rf src"):
        assert _verdict(policy, command, workspace) is Verdict.ALLOW, command


def test_gzip_forced_follows_links_for_real(workspace: Path, home: Path) -> None:
    printed(["gzip", "-rf", "sub"], workspace)
    assert (home / ".ssh" / "id_rsa.gz").exists()
