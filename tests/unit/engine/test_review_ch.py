"""Review CH (of reviews CF's and CG's fixes): an array nested in a quoted `${u:-…}`
splits too (CH1); an ANSI-C escape spelling a file option (CH2); a glob source copied
into a protected folder lands under the names it matches (CH3); a locale the line empties
or unsets (CH5); links a tarball workspace holds (CH6); a glob in ps's option value
(CH8); a workspace given through a link keeps its approvals (CH9); numbers bash sets are
one word (CH10). Real runs with bash where the effect can be shown."""

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
    (workspace / "cfg").mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / ".vscode").mkdir()
    (workspace / "README.md").write_text("readme\n")
    return workspace


@pytest.mark.parametrize(
    ("line", "effect"),
    [
        ('read -a a <<< "X bash -s"; echo "echo PWNED >> ~/.bashrc" | '
         'env -u "${u:-${a[@]}}" cat', "PWNED"),
        ('[[ "x -r . $HOME/.ssh" =~ (x)\\ (-r)\\ (\\.)\\ (.*) ]] && '
         'grep -ve "${u-${BASH_REMATCH[@]:1}}" README.md', "SSH-MARKER"),
        ('[[ "x -o $HOME/.bashrc" =~ (x)\\ (-o)\\ (.*) ]] && '
         'sort -t "${u-${BASH_REMATCH[@]:1}}" README.md', "readme"),
        ('[[ "args ex" =~ (args)\\ (ex) ]] && ps -o "${u-${BASH_REMATCH[@]:1}}"', "ghp_CANARY"),
    ],
)  # fmt: skip
def test_ch1_an_array_nested_in_a_quoted_default_splits(
    workspace: Path, line: str, effect: str
) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    printed = bash_printed(line, workspace)
    assert effect in printed + (workspace.parent / "home" / ".bashrc").read_text()


@pytest.mark.parametrize(
    "line",
    ["pgrep $'\\x2dF'$HOME/.netrc", "pgrep $'\\x2d-pidfile='$HOME/.netrc",
     "pgrep -$'\\x46'$HOME/.netrc"],
)  # fmt: skip
def test_ch2_an_escape_spelling_a_file_option_asks(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("cp", "cp cfg/* .vscode/"),
        ("cp", "cp -t .vscode cfg/*"),
        ("cp", "cp -r -t .vscode cfg/."),
        ("ln", "ln cfg/* .vscode/"),
        ("install", "install -t .vscode cfg/*"),
    ],
)
def test_ch3_a_glob_source_lands_under_the_names_it_matches(
    workspace: Path, approval: str, line: str
) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, check=True)
    assert "PWNED" in (workspace / ".vscode" / "tasks.json").read_text()


@pytest.mark.parametrize("line", ["cp cfg/*.json docs/", "cp -r cfg/. docs", "cp cfg/* ."])
def test_ch3_glob_copies_elsewhere_stay_allowed(workspace: Path, line: str) -> None:
    (workspace / "docs").mkdir()
    decision = judge(line, workspace, "cp")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["LC_ALL=\necho hi", "env -u LC_ALL bash -c 'echo hi'", "LC_ALL= bash -c 'echo hi'"],
)
def test_ch5_a_gbk_locale_under_an_override_asks(workspace: Path, line: str) -> None:
    env = canary_environment(workspace, LC_ALL="C.UTF-8", LANG="zh_CN.GBK")
    decision = load_policy().evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.locale-charset" for r in decision.reasons)


def test_ch6_a_link_in_a_workspace_git_does_not_know(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "cfg").mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / ".vscode").symlink_to("tgt")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    decision = approved("cp").evaluate("cp -r cfg tgt", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["cp", "-r", "cfg", "tgt"], cwd=workspace, check=True)
    assert (workspace / ".vscode" / "tasks.json").exists()
    other = approved("cp").evaluate("cp -r cfg other", workspace=str(workspace), env=env)
    assert other.verdict is Verdict.ALLOW, other.explain()


def test_ch8_a_glob_in_ps_s_option_value(workspace: Path) -> None:
    (workspace / "args").write_text("")
    (workspace / "axe").write_text("")
    line = "ps -o a*"
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert "ghp_CANARY" in bash_printed(line, workspace)


def test_ch9_a_workspace_given_through_a_link_keeps_its_approvals(workspace: Path) -> None:
    linked = workspace.parent / "wsl"
    linked.symlink_to(workspace)
    env = canary_environment(workspace)
    decision = approved("cp").evaluate("cp README.md n3.md", workspace=str(linked), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("line", ["ps -o pid= -p $PPID", "ps -p $$", "ps -u $UID"])
def test_ch10_numbers_bash_sets_are_one_word(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("line", ["7z x -y h.zip", "7z e h.7z", "7za x h.7z", "7zz x -oout h.7z"])
def test_ch4_extraction_is_never_approvable(workspace: Path, line: str) -> None:
    # the archive's names are its own (`.git/hooks/pre-commit`, `.claude/settings.json`):
    # offered nothing, and an approval of `7z x` made before does not hold either
    env = canary_environment(workspace)
    decision = load_policy().evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None
    prefix = " ".join(line.split()[:2])
    after = approved(prefix).evaluate(line, workspace=str(workspace), env=env)
    assert after.verdict is Verdict.ASK, after.explain()
