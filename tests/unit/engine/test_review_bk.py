"""Reviews of the session of 4 December 2026, second half: BI5 (names listed in protected
folders) and the findings of reviews BK and BL. Each line here had a weaker verdict before
its fix."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from policylang import Retention, Verdict
from policylang.engine.policy import Policy, load_policy


def _verdict(policy: Policy, command: str, workspace: Path, **env: str) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin", **env}
    return policy.evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.fixture
def secrets_home(workspace: Path) -> Path:
    home = workspace.parent / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    (home / ".config" / "gcloud").mkdir(parents=True)
    (home / ".config" / "gcloud" / "credentials.db").write_text("db\n")
    return home


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        # listers that print the names in a protected folder, as `ls ~/.ssh` (denied)
        ("rg --files ~/.ssh", Verdict.DENY),
        ("rg --files ~", Verdict.DENY),
        ("rg --type-list ~/.ssh", Verdict.DENY),
        ("ag -g x ~/.ssh", Verdict.DENY),
        ("ag --filename-pattern=x ~/.ssh", Verdict.DENY),
        ("tree ~/.config", Verdict.DENY),  # tree lists `gcloud`'s files without `-a`
        ("tree -L 3 ~/.config", Verdict.DENY),
        # the same in the workspace stay allowed
        ("rg --files", Verdict.ALLOW),
        ("rg --files src", Verdict.ALLOW),
        ("ag -g x src", Verdict.ALLOW),
        ("tree", Verdict.ALLOW),
        ("tree src", Verdict.ALLOW),
        # the pattern operand is still a pattern without them
        ("rg -l ssh src", Verdict.ALLOW),
    ],
)
def test_listings_of_protected_folders_are_denied(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    (workspace / "src").mkdir(exist_ok=True)
    assert _verdict(default_policy, command, workspace) is verdict


@pytest.mark.parametrize(
    "command",
    [
        "{rm,-rf,/}",  # BG15: tree-sitter reads a group where bash reads one word
        "{sudo,id}",
        " {cat,~/.ssh/id_rsa}",
        "cat {a.txt,.env}",
        "cat .e{n,}v",
        "head -1 {a.txt,.env}",
        "ls {src,~/.ssh}",
        "grep x {src,~/.aws}",
        "x=1 {cat,.env}",
        "{rm,-rf,/};",  # review BM1: an operator after the braced command word
        "{cat,.env} | head",
        "{rm,-rf,/} && true",
        "ls; {sudo,id}",
    ],
)
def test_brace_expansion_is_read_as_bash_writes_it(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str
) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.DENY


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("echo {a,b}", Verdict.ALLOW),
        ("echo {1..3}", Verdict.ALLOW),
        ("cat src/{a,b}.py", Verdict.ASK),  # a braced path still asks (a glob to the check)
        ("{ls,-la}", Verdict.ASK),
        ("cat {a{b,c}}", Verdict.ASK),  # braces bash reads by rules not followed: no change
    ],
)
def test_harmless_brace_expansions_keep_their_verdict(
    default_policy: Policy, workspace: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, workspace) is verdict


def test_bash_reads_the_file_the_braces_name(workspace: Path) -> None:
    (workspace / ".env").write_text("TOKEN=marker-7\n")
    done = subprocess.run(
        ["bash", "-c", "cat {a.txt,.env}"], cwd=workspace, capture_output=True, text=True
    )
    assert "marker-7" in done.stdout


@pytest.mark.parametrize(
    "command",
    [
        'bash +e <<< "rm -rf /"',  # BG9: `+e` was read as a script named `+e`
        'bash +x -e <<< "rm -rf /"',
        'bash +o errexit <<< "rm -rf /"',
        'echo "sudo id" | sh +x',
        'bash +e -c "rm -rf /"',
        'bash --no-such-option <<< "cat ~/.ssh/id_rsa"',  # unknown words: stdin still read
    ],
)
def test_shell_options_spelt_with_plus_are_options(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.DENY


def test_bash_runs_its_stdin_after_plus_options(workspace: Path) -> None:
    subprocess.run(
        ["bash", "-c", "bash +e +o errexit <<< 'touch P'"], cwd=workspace, timeout=20, check=True
    )
    assert (workspace / "P").exists()


@pytest.mark.parametrize(
    "command",
    [
        "cd && echo 'touch PWN' < .bashrc >> /dev/stdin",  # BK7
        "echo x < ~/.bashrc > /dev/stdin",
        "cd && echo evil 2<.bashrc >>/dev/stderr",
        "cd && echo evil 1<.bashrc >>/dev/stdout",
        "cd && echo evil 3<.bashrc >>/dev/fd/3",
        "echo evil < .git/hooks/pre-commit > /dev/fd/0",
        "cd && { echo evil >> /dev/stdin; } < .bashrc",
        "cd && for i in 1; do echo evil >>/dev/stdin; done < .bashrc",
        "cd && if true; then echo evil >>/dev/fd/0; fi < .bashrc",
        "echo x >&3 >> /dev/stdout",
        # review BM3: the name spelt with quotes dodged a check of the line's text
        "printf 'x' 3<.git/config 1<&3 >> /dev''/stdout",
        "echo x 3<~/.bashrc 1<&3 >> /de''v/stdout",
        "echo x >> /dev/stdout >&3",  # either order
        "exec 1<&3; echo x >> /dev/stdout",  # either segment
        "echo evil 3<~/.bashrc | tee -a /dev/stdout 1<&3",  # a program opening the name
    ],
)
def test_writes_through_a_reopened_descriptor_are_not_allowed(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    decision = default_policy.evaluate(
        command, workspace=str(workspace), env={"HOME": str(workspace.parent / "home")}
    )
    assert decision.verdict is not Verdict.ALLOW
    assert decision.retention is not Retention.REQUERY


@pytest.mark.parametrize(
    "command",
    [
        "ls 2>&1",
        "echo err >&2",
        "echo hi > /dev/stderr",
        "ls > /dev/null 2>&1",
        "ls >&-",
        "echo text >&3",  # a descriptor of the caller's, with no reopening by name
        "find . -name x >& /dev/null",  # `>& FILE` writes FILE
        "(ls | sed s/^/x/) 3>&1 1>&2 2>&3",  # the swap idiom
    ],
)
def test_everyday_descriptor_redirects_stay_allowed(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.ALLOW


def test_bash_writes_the_file_a_descriptor_holds(workspace: Path) -> None:
    target = workspace / "rc"
    target.write_text("original\n")
    subprocess.run(
        ["bash", "-c", "echo appended < rc >> /dev/stdin"], cwd=workspace, timeout=20, check=True
    )
    assert target.read_text() == "original\nappended\n"


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("diff -N ~ empty", Verdict.DENY),  # BK6: every top-level file of home, printed whole
        ("diff -N empty ~", Verdict.DENY),
        ("diff ~ .netrc", Verdict.DENY),  # reads ~/.netrc
        ("sdiff ~ .netrc", Verdict.DENY),
        ("diff -N . empty", Verdict.DENY),  # the workspace's .env
        ("diff --unidirectional-new-file empty ~", Verdict.DENY),
        ("diff a.txt b.txt", Verdict.ALLOW),
        ("diff {a,b}.txt", Verdict.ASK),  # braces: the folder is not read whole for them
        ("diff -u src empty", Verdict.ALLOW),
    ],
)
def test_diff_of_folders_reads_their_files(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    (secrets_home / ".netrc").write_text("machine x password p\n")
    (workspace / ".env").write_text("TOKEN=1\n")
    (workspace / ".netrc").write_text("other\n")
    (workspace / "empty").mkdir()
    for name in ("a.txt", "b.txt"):
        (workspace / name).write_text(name)
    assert _verdict(default_policy, command, workspace) is verdict


def test_diff_prints_the_files_of_a_folder_without_r(workspace: Path) -> None:
    (workspace / "d").mkdir()
    (workspace / "d" / ".env").write_text("TOKEN=marker-9\n")
    (workspace / "empty").mkdir()
    done = subprocess.run(
        ["diff", "-N", "d", "empty"], cwd=workspace, capture_output=True, text=True, timeout=20
    )
    assert "marker-9" in done.stdout


def _git(workspace: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=a@b", "-c", "user.name=n", *args],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout


@pytest.fixture
def tracked_env(workspace: Path) -> Path:
    """A repository that committed a `.env`, then changed only README.md."""
    _git(workspace, "init", "-q")
    (workspace / ".env").write_text("TOKEN=marker-11\n")
    (workspace / "README.md").write_text("hi\n")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "one")
    (workspace / "README.md").write_text("hi\nmore\n")
    _git(workspace, "commit", "-qam", "two")
    return workspace


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("git log -p --full-diff -- README.md", Verdict.ASK),  # BK8
        ("git show --full-diff HEAD~1 -- README.md", Verdict.ASK),
        ("git log --full-diff -p README.md", Verdict.ASK),
        ("git log -p -- :/", Verdict.ASK),  # BK9: magic pathspecs
        ("git show HEAD~1 -- :/", Verdict.ASK),
        ("git log -p -- :^x", Verdict.ASK),
        ("git log -p -- :!x", Verdict.ASK),
        ("git log -p -- ::", Verdict.ASK),
        ("git log -p -- '*.env'", Verdict.ASK),
        ("cd src && git log -p -- :/", Verdict.ASK),
        ("git log -p -- '.en\\v'", Verdict.ASK),  # BM4: a backslash is a pattern escape
        ("git show HEAD -- '.\\env'", Verdict.ASK),
        ("git diff HEAD~0 -- '.e\\nv'", Verdict.ASK),
        ("git log -p -- README.md", Verdict.ALLOW),
        ("git log -p -- src", Verdict.ALLOW),
    ],
)
def test_git_pathspecs_that_widen_print_the_tracked_secret(
    default_policy: Policy, tracked_env: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, tracked_env) is verdict


@pytest.mark.parametrize(
    "args",
    [
        ("log", "-p", "--full-diff", "--", "README.md"),
        ("log", "-p", "--", ":/"),
        ("log", "-p", "--", ":^x"),
        ("log", "-p", "--", ".en\\v"),
    ],
)
def test_git_prints_the_tracked_secret(tracked_env: Path, args: tuple[str, ...]) -> None:
    assert "marker-11" in _git(tracked_env, *args)


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("rm -rf $HOME", Verdict.DENY),  # BK5: `rm -rf ~` is denied
        ('rm -rf "$HOME"', Verdict.DENY),
        ("rm -rf ${HOME}/", Verdict.DENY),
        ("rm -rf $HOME/.ssh", Verdict.DENY),
        ('cat "$HOME/.ssh/id_rsa"', Verdict.DENY),
        ("cat $HOME/notes.txt", Verdict.ASK),  # still a question: HOME may be changed
        ("rm -rf $HOME/$X", Verdict.ASK),
        ("rm -rf $HOME''", Verdict.DENY),  # BM5: other spellings
        ("rm -rf ''$HOME", Verdict.DENY),
        ("rm -rf ${HOME%/}", Verdict.DENY),
        ("sed -i s/a/b/ $HOME/.bashrc", Verdict.DENY),
    ],
)
def test_the_home_parameter_is_checked_as_the_home_folder(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, workspace) is verdict


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("find ~/.ssh -delete", Verdict.DENY),  # BK4: `rm -rf ~/.ssh` is denied
        ("find -L ~/.ssh -delete", Verdict.DENY),
        ("find ~/.ssh -type f -exec shred {} +", Verdict.DENY),
        ("find .git -delete", Verdict.DENY),
        ("find ~/.ssh -exec cat {} +", Verdict.DENY),  # reads the start point
        ("find /etc -name '*.conf' -exec grep x {} +", Verdict.ASK),  # a read: not a write
        ("find . -name '*.pyc' -delete", Verdict.ASK),  # selects what it deletes: a question
        ("find ~ -delete", Verdict.ASK),
        ("find . -name '*.py'", Verdict.ALLOW),
    ],
)
def test_find_acting_on_a_protected_start_point(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    (workspace / ".git").mkdir()
    assert _verdict(default_policy, command, workspace) is verdict


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("cp payload/.mcp.json .", Verdict.DENY),  # BK3: writes ./.mcp.json
        ("cp payload/settings.json .vscode/", Verdict.DENY),
        ("cp payload/settings.json .vscode", Verdict.DENY),
        ("mv payload/.mcp.json .", Verdict.DENY),
        ("cp -t . payload/.mcp.json", Verdict.DENY),
        ("cp payload/.bashrc ~", Verdict.DENY),
        ("cp payload/.bashrc ~/", Verdict.DENY),
        ("install payload/.bashrc ~", Verdict.DENY),
        ("cp -t ~ payload/.bashrc", Verdict.DENY),
        ("cp payload/notes.txt src/", Verdict.ASK),
        ("cp payload/notes.txt notes2.txt", Verdict.ASK),
    ],
)
def test_copies_into_a_folder_write_the_joined_name(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    payload = workspace / "payload"
    payload.mkdir()
    for name in (".mcp.json", "settings.json", ".bashrc", "notes.txt"):
        (payload / name).write_text("{}\n")
    (workspace / ".vscode").mkdir()
    assert _verdict(default_policy, command, workspace) is verdict


def test_an_approval_of_cp_does_not_plant_agent_configuration(
    workspace: Path, secrets_home: Path
) -> None:
    from policylang import load_policy

    policy = load_policy()
    policy.approvals.add("cp", persist=False)
    assert _verdict(policy, "cp a.txt b.txt", workspace) is Verdict.ALLOW  # the approval holds
    (workspace / "payload").mkdir()
    (workspace / "payload" / ".mcp.json").write_text("{}\n")
    assert _verdict(policy, "cp payload/.mcp.json .", workspace) is Verdict.DENY


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("TZ=~/.ssh/id_rsa date", Verdict.DENY),  # BK11: date opens the file TZ names
        ("TZ=:{home}/.ssh/id_rsa date", Verdict.DENY),
        ("env TZ={home}/.ssh/id_rsa date", Verdict.DENY),
        ("TZ=:~/.ssh/id_rsa date", Verdict.DENY),  # BM9
        ("env TZ=:~/.ssh/id_rsa date", Verdict.DENY),
        ("TZ=$HOME/.ssh/id_rsa date", Verdict.DENY),
        ("env TZ=:$HOME/.ssh/id_rsa date", Verdict.DENY),
        ("TZ=$ZONE date", Verdict.ASK),  # a file or a zone: not seen, so a question
        ("TZ=UTC date", Verdict.ALLOW),
        ("TZ=Europe/Paris date", Verdict.ALLOW),
    ],
)
def test_a_time_zone_file_is_read(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    line = command.format(home=secrets_home)
    assert _verdict(default_policy, line, workspace) is verdict


@pytest.mark.parametrize("command", ["nohup ls", "nohup git status", "nohup ls > /dev/null"])
def test_nohup_may_write_nohup_out(default_policy: Policy, workspace: Path, command: str) -> None:
    # BK10: on a terminal nohup appends the output to ./nohup.out
    decision = default_policy.evaluate(command, workspace=str(workspace))
    assert decision.verdict is Verdict.ASK
    assert any(reason.rule_id == "engine.nohup-output" for reason in decision.reasons)


def test_nohup_writes_nohup_out_on_a_terminal(workspace: Path) -> None:
    script = shutil.which("script")
    if script is None:
        pytest.skip("util-linux `script` (a terminal for nohup) is not on this machine")
    subprocess.run(
        [script, "-qc", "nohup echo hi", "/dev/null"],
        cwd=workspace,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=20,
    )
    assert "hi" in (workspace / "nohup.out").read_text()


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("cd && du -a", Verdict.DENY),  # BL1: as `du -a ~`
        ("cd && tree -a", Verdict.DENY),
        ("pushd ~ && ls -laR", Verdict.DENY),
        ("cd && ls -R", Verdict.DENY),
        ("cd && ls", Verdict.ALLOW),
        ("ls -R", Verdict.ALLOW),  # the workspace
        ("cd src && ls -R", Verdict.ALLOW),
        ("find {home}/.aws -type f", Verdict.DENY),  # BL2: find's start points are read
        ("find ../home/.ssh -printf '%p'", Verdict.DENY),
        ("cd ~/.ssh && find", Verdict.DENY),
        ("find .", Verdict.ALLOW),
        ("find / -name x", Verdict.ALLOW),  # not the whole tree: the expression selects
    ],
)
def test_listings_of_the_working_folder_and_find_start_points(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    (secrets_home / ".aws").mkdir()
    (secrets_home / ".aws" / "credentials").write_text("key\n")
    line = command.format(home=secrets_home)
    assert _verdict(default_policy, line, workspace) is verdict


# ----------------------------------------------------------------- review BN (of BM's fixes)


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("git status -v", Verdict.ASK),  # BN1: prints the staged diff
        ("git status -vv", Verdict.ASK),
        ("git stash show -p", Verdict.ASK),
        ("git stash list -p", Verdict.ASK),
        ("git reflog -p", Verdict.ASK),
        ("git status --verb", Verdict.ASK),  # BO1: a prefix of `--verbose`
        ("git status --v -s", Verdict.ASK),
        ("git log -G 'TOKEN=m' --oneline", Verdict.ASK),  # BO2: an oracle on contents
        ("git log -S TOKEN --oneline", Verdict.ASK),
        ("git log -G x --oneline -- src", Verdict.ALLOW),
        ("git status", Verdict.ALLOW),
        ("git stash list", Verdict.ALLOW),
        ("git reflog", Verdict.ALLOW),
        ("git -C src log -p -- ..", Verdict.ASK),  # BN5: `-C` paths from the segment's folder
        ("git -C src show HEAD -- ..", Verdict.ASK),
        ("git -C src grep TOKEN -- ../.env", Verdict.DENY),
        ("git -C src grep -h TOKEN -- ..", Verdict.DENY),
        ("git -C src grep TOKEN -- :/", Verdict.ASK),
        ("git -C src log -p -- x.py", Verdict.ALLOW),
    ],
)
def test_more_git_commands_that_print_tracked_files(
    default_policy: Policy, tracked_env: Path, command: str, verdict: Verdict
) -> None:
    (tracked_env / "src" / "x.py").write_text("x\n")
    assert _verdict(default_policy, command, tracked_env) is verdict


def test_git_dash_c_finds_the_repository_from_the_segment_folder(workspace: Path) -> None:
    """BN5: `cd sub && git -C .. status` looked for the repository above the workspace and
    missed its `core.fsmonitor`, which git runs."""
    _git(workspace, "init", "-q")
    _git(workspace, "config", "core.fsmonitor", "touch FSMON")
    (workspace / "sub").mkdir()
    policy_verdict = _verdict(load_policy(), "cd sub && git -C .. status", workspace)
    assert policy_verdict is not Verdict.ALLOW
    subprocess.run(["git", "-C", "..", "status"], cwd=workspace / "sub", capture_output=True)
    assert (workspace / "FSMON").exists()


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("dir ~/.ssh", Verdict.DENY),  # BN3: as `ls ~/.ssh`
        ("cd ~ && dir -R", Verdict.DENY),
        ("vdir ~/.ssh", Verdict.DENY),  # BO3: vdir is `ls -l -b`, as `dir -l`
        ("vdir -R ~", Verdict.DENY),
        ("cd ~/.ssh && vdir", Verdict.DENY),
        ("vdir ~", Verdict.ALLOW),
        ("vdir -la src", Verdict.ALLOW),
        ('rm -rf "${HOME:?}/"', Verdict.DENY),  # BN4
        ("cat ${HOME:?}/.ssh/id_rsa", Verdict.DENY),
        ("cat ${HOME:-}/.ssh/id_rsa", Verdict.DENY),
        ("rm -rf ${HOME%%/}", Verdict.DENY),
    ],
)
def test_dir_and_more_home_spellings(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    assert _verdict(default_policy, command, workspace) is verdict


def test_a_line_of_many_descriptor_swaps_asks(default_policy: Policy, workspace: Path) -> None:
    """BN6: each `>&3` after a write to /dev/stdout floored every earlier one again (the
    time is measured by benchmarks, not here): the verdict is the same."""
    line = "echo y >> /dev/stdout; " + "echo x >&3; " * 2000
    decision = default_policy.evaluate(line, workspace=str(workspace))
    assert decision.verdict is Verdict.ASK
    swaps = [r for r in decision.reasons if r.rule_id == "engine.descriptor-swap"]
    assert swaps  # one reason per distinct message, however many segments


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("ls -RL", Verdict.DENY),  # BM10: the listing follows `lnk` into ~/.ssh
        ("ls -RL .", Verdict.DENY),
        ("find -L .", Verdict.DENY),
        ("find . -follow", Verdict.DENY),
        ("du -aL .", Verdict.DENY),
        ("tree -l", Verdict.DENY),
        ("rg --files -L", Verdict.DENY),
        ("ls -R", Verdict.ALLOW),  # without following, `lnk` is a name
        ("find .", Verdict.ALLOW),
        ("ls -RL src", Verdict.ALLOW),
    ],
)
def test_listings_that_follow_links_meet_where_they_point(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    (workspace / "lnk").symlink_to(secrets_home / ".ssh")
    assert _verdict(default_policy, command, workspace) is verdict


def test_ls_follows_a_link_into_the_folder(workspace: Path, secrets_home: Path) -> None:
    (workspace / "lnk").symlink_to(secrets_home / ".ssh")
    done = subprocess.run(["ls", "-RL"], cwd=workspace, capture_output=True, text=True)
    assert "id_rsa" in done.stdout


def test_link_following_listings_follow_links_in_linked_folders(
    default_policy: Policy, workspace: Path, secrets_home: Path, tmp_path: Path
) -> None:
    """A link to a harmless folder holding a link into ~/.ssh (and one back: a cycle)."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "inner").symlink_to(secrets_home / ".ssh")
    (other / "back").symlink_to(workspace)
    (workspace / "lnk").symlink_to(other)
    assert _verdict(default_policy, "ls -RL", workspace) is Verdict.DENY
    assert _verdict(default_policy, "ls -R", workspace) is Verdict.ALLOW
