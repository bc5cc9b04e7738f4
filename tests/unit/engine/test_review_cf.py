"""Review CF (of the last session's split checks): words bash splits that the checks took
for one. `$'\\''` ended an ANSI-C string early for the split check and hid what followed
(CF1); `"$@"` and `"${a[@]}"` are several words, or none, in double quotes too (CF2); a
split value of a program with no operand role (`date -f`, `pgrep -F`) or of one whose
exception looks at operands (`ps … e`) was judged nowhere (CF3, CF4); pgrep's file
options spelt with quotes (CF5); `gcp --parents` (CF6). And, found beside them: a program
by another name (`go1.22.1`, `pip3.11`, `gmake`) was offered as its bare name, which
approved every verb. Real runs with bash where the effect can be shown."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import approved, bash_printed, canary_environment, judge

from policylang import Verdict, load_policy


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    (home / ".netrc").write_text("machine x password NETRC-MARKER\n")
    (home / ".bashrc").write_text("# rc\n")
    workspace = tmp_path / "ws"
    (workspace / "sub" / ".vscode").mkdir(parents=True)
    (workspace / "sub" / ".vscode" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / "README.md").write_text("readme\n")
    return workspace


@pytest.mark.parametrize(
    ("line", "effect"),
    [
        # CF1: `$'\''` is one quoted quote; what follows it is not quoted
        ("grep -ve x$'\\''$(echo \" -r . $HOME/.ssh \")$'\\'' README.md", "SSH-MARKER"),
        ("sort -t $'\\''${IFS}-o${IFS}$HOME/.bashrc${IFS}-t$'\\'' README.md", "readme"),
        ("echo ~/.ssh/id_rsa | env -u x$'\\''${IFS}xargs${IFS}-E${IFS}$'\\'' cat", "SSH-MARKER"),
        # CF2: every element of an array, in double quotes too
        ("env -u \"$@\" true", "ghp_CANARY"),
        ("read -a a <<< \"x -r . $HOME/.ssh\"; grep -ve \"${a[@]}\" README.md", "SSH-MARKER"),
        ("[[ \"x -o $HOME/.bashrc\" =~ (x)\\ (-o)\\ (.*) ]] && "
         "sort -t \"${BASH_REMATCH[@]:1}\" README.md", "readme"),
        ("echo ~/.ssh/id_rsa | env -u \"${nope[@]}\" cat xargs cat", "SSH-MARKER"),
        # CF3: a split value of a program with no operand role
        ("date --rfc-3339 date${IFS}-f${IFS}$HOME/.netrc", "NETRC-MARKER"),
        # CF4: a split value hands ps its `e`
        ("ps -o args${IFS}ex", "ghp_CANARY"),
    ],
)  # fmt: skip
def test_a_word_bash_splits_asks(workspace: Path, line: str, effect: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    printed = bash_printed(line, workspace)
    assert effect in printed + (workspace.parent / "home" / ".bashrc").read_text()


@pytest.mark.parametrize(
    "line",
    [
        # CF5: the file is opened and read (strace shows it), nothing printed
        "pgrep --pidfi\"le=$HOME/.netrc\"",
        "pgrep -\"LF$HOME/.netrc\"",
        "pgrep \"--pidf=$HOME/.netrc\"",
        "pgrep $'-'-pidfile=$HOME/.netrc",
        "pgrep -u 0$IFS-F$IFS$HOME/.netrc",
        "pgrep x$IFS-F$IFS$HOME/.netrc",
        "bash -o $OPT -c ls",
        "date x${IFS}-f${IFS}$HOME/.netrc",
    ],
)  # fmt: skip
def test_split_and_quoted_file_options_ask(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    [
        "echo \"$*\"", "echo \"${#a[@]}\"", "grep -e \"$(echo \"a b\")\" README.md",
        "cat <(ls)", "printf '%s\\n' $'\\x41'\"$Y\"", "pgrep -f python",
        "echo \"$@\"", "date +%s", "ps -o args", "env LC_ALL=C ls",
    ],
)  # fmt: skip
def test_words_bash_keeps_whole_stay_as_they_were(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_cf6_gcp_keeps_parents(workspace: Path) -> None:
    # from `sub`, `gcp --parents .vscode/tasks.json ..` writes the workspace's own
    decision = approved("gcp").evaluate(
        "gcp --parents .vscode/tasks.json ..", cwd=str(workspace / "sub"),
        workspace=str(workspace), env=canary_environment(workspace),
    )  # fmt: skip
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    ("line", "offered", "wider"),
    [
        ("gmake build", "gmake build", "gmake deploy"),
        ("go1.22.1 build ./...", "go1.22.1 build", "go1.22.1 generate ./..."),
        ("pip3.11 install requests", "pip3.11 install", "pip3.11 download x"),
    ],
)
def test_a_renamed_program_is_offered_with_its_verb(
    workspace: Path, line: str, offered: str, wider: str
) -> None:
    env = canary_environment(workspace)
    decision = load_policy().evaluate(line, workspace=str(workspace), env=env)
    assert decision.suggested_rule == offered
    # approved as offered, another verb still asks
    after = approved(offered).evaluate(wider, workspace=str(workspace), env=env)
    assert after.verdict is not Verdict.ALLOW, after.explain()


@pytest.fixture
def shipped_link(tmp_path: Path) -> Path:
    """A repository that commits `.vscode -> tgt` (dangling) and a `tgt` to move in."""
    workspace = tmp_path / "ws"
    (workspace / "cfg").mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"tasks": ["CFG-MARKER"]}\n')
    (workspace / "cfg6" / "tgt").mkdir(parents=True)
    (workspace / "cfg6" / "tgt" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / ".vscode").symlink_to("tgt")
    git = ["git", "-C", str(workspace), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "ship"], check=True)
    (tmp_path / "home").mkdir()
    return workspace


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("mv", "mv cfg6/tgt ."),
        ("cp", "cp -r cfg tgt"),
        ("ln", "ln -s cfg tgt"),
        ("touch", "mkdir -p tgt && touch tgt/tasks.json"),
    ],
)
def test_cf7_a_write_through_a_shipped_protected_link_is_denied(
    shipped_link: Path, approval: str, line: str
) -> None:
    env = {"HOME": str(shipped_link.parent / "home"), "PATH": "/usr/bin:/bin"}
    policy = approved(approval, "mkdir") if approval == "touch" else approved(approval)
    decision = policy.evaluate(line, workspace=str(shipped_link), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    # what it does: `.vscode/tasks.json` becomes a live file
    subprocess.run(["bash", "-c", line], cwd=shipped_link, env=env, check=True)
    assert (shipped_link / ".vscode" / "tasks.json").exists()


def test_cf7_writes_elsewhere_stay_allowed(shipped_link: Path) -> None:
    env = {"HOME": str(shipped_link.parent / "home"), "PATH": "/usr/bin:/bin"}
    for approval, line in (("cp", "cp -r cfg other"), ("mv", "mv cfg6 x"), ("mkdir", "mkdir b")):
        decision = approved(approval).evaluate(line, workspace=str(shipped_link), env=env)
        assert decision.verdict is Verdict.ALLOW, decision.explain()
