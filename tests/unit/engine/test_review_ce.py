"""Review CE (of this session's later fixes): a word bash may make several words of (an
unquoted expansion, split at the blanks of its value, or a glob) where one word goes.
`grep -A 0$IFS-r$IFS.$IFS$HOME/.ssh f` printed the key and `sort -k 1$IFS-o$IFS$HOME/.bashrc
f` wrote `~/.bashrc` (CE2); `env -u /usr/bin/t[ae][ce] cat ~/.bashrc` ran `tee` (CE1);
`grep -ve $HOME/.[bn]* f` printed `~/.netrc` (CE3). Also `pgrep --pidf=$HOME/.netrc` (CE4),
`7z x -SPF` (CE5), `ln -L -P` (CE6), `link -- LINK NAME` (CE7). Real runs with bash."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import approved

from policylang import Verdict, load_policy


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    (home / ".netrc").write_text("machine x password NETRC-MARKER\n")
    (home / ".bashrc").write_text("# rc\n")
    (home / ".a").write_text("first\n")
    workspace = tmp_path / "ws"
    (workspace / "cfg").mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"tasks": ["CFG-MARKER"]}\n')
    (workspace / "cfg2").mkdir()
    (workspace / "cfg2" / ".vscode").symlink_to("cfg")
    (workspace / "README.md").write_text("readme\n")
    return workspace


def _environment(workspace: Path) -> dict[str, str]:
    return {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}


def _bash(line: str, workspace: Path) -> str:
    done = subprocess.run(
        ["bash", "-c", line], cwd=workspace, env=_environment(workspace),
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("line", "effect"),
    [
        ("grep -A 0$IFS-r$IFS.$IFS$HOME/.ssh README.md", "SSH-MARKER"),
        ("grep -A $(echo 0 -r . $HOME/.ssh) README.md", "SSH-MARKER"),
        ("grep -ve $HOME/.[bn]* README.md", "NETRC-MARKER"),
        ("grep -e ${HOME}/.[bn]* -v README.md", "NETRC-MARKER"),
        ("sort -k 1$IFS-o$IFS$HOME/.bashrc README.md", "readme"),
        ("echo x | env -u /usr/bin/t[ae][ce] cat $HOME/.bashrc", "x"),
        ("echo ~/.ssh/id_rsa | nice -n $(echo 5 xargs) cat", "SSH-MARKER"),
        ("echo ~/.ssh/id_rsa | env LC_X=$(echo a xargs) cat", "SSH-MARKER"),
    ],
)
def test_a_word_bash_splits_where_one_word_goes_asks(
    workspace: Path, line: str, effect: str
) -> None:
    decision = load_policy().evaluate(line, workspace=str(workspace), env=_environment(workspace))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    printed = _bash(line, workspace)
    assert effect in printed + (workspace.parent / "home" / ".bashrc").read_text()


@pytest.mark.parametrize(
    "line",
    ["grep -A \"$N\" README.md", "grep -e \"$HOME/x\" README.md", "head -n 5 README.md",
     "timeout 5 ls", "env -u HOME ls", "nice -n 5 ls", "env LC_X=\"$(date)\" ls",
     "pgrep -f python"],
)  # fmt: skip
def test_words_bash_keeps_whole_stay_allowed(workspace: Path, line: str) -> None:
    decision = load_policy().evaluate(line, workspace=str(workspace), env=_environment(workspace))
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("", "pgrep x --pidf=$HOME/.netrc"),
        ("", "pgrep -LF$HOME/.netrc x"),
        ("7z x", "7z x -SPF -y x.7z"),
        ("7z x", "7z x -Spf2 x.7z"),
        ("ln", "ln -L -P cfg2/.vscode ."),
        ("link", "link -- cfg2/.vscode .vscode"),
    ],
)
def test_ce4_to_ce7(workspace: Path, approval: str, line: str) -> None:
    policy = approved(approval) if approval else approved()
    decision = policy.evaluate(line, workspace=str(workspace), env=_environment(workspace))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line", "verdict"),
    [
        ("mv", "mv cfg5/.vscode cfg6/tgt .", Verdict.DENY),
        ("mv", "mv cfg5/.vscode .", Verdict.DENY),  # (the first of two steps)
        ("ln", "ln cfg5/.vscode .", Verdict.DENY),
        ("mv", "mv sub/lnk .", Verdict.ALLOW),  # a link to nothing, landing nowhere protected
        ("cp", "cp -P sub/lnk x", Verdict.ALLOW),
    ],
)
def test_ce8_a_link_to_nothing_yet_writes_below_where_it_lands(
    workspace: Path, approval: str, line: str, verdict: Verdict
) -> None:
    # `.vscode -> tgt` moved to the root with `tgt` (holding a tasks.json), or before it
    (workspace / "cfg5").mkdir()
    (workspace / "cfg5" / ".vscode").symlink_to("tgt")
    (workspace / "cfg6" / "tgt").mkdir(parents=True)
    (workspace / "cfg6" / "tgt" / "tasks.json").write_text('{"tasks": ["TGT-MARKER"]}\n')
    (workspace / "sub").mkdir()
    (workspace / "sub" / "lnk").symlink_to("nowhere")
    decision = approved(approval).evaluate(
        line, workspace=str(workspace), env=_environment(workspace)
    )
    assert decision.verdict is verdict, decision.explain()
    if line == "mv cfg5/.vscode cfg6/tgt .":
        _bash(line, workspace)
        assert "TGT-MARKER" in (workspace / ".vscode" / "tasks.json").read_text()
