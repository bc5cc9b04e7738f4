"""Review DY: DY1 a brace-expanded command inside `( … )`, `{ …; }`, `$(…⏎)` or a loop
body lost its deny (tree-sitter does not parse the braced word there, and the recovery
read the pieces cut at its braces); DY2 after a `<<EOF;` here-document whose body holds a
lone `'`, a quoted newline on a later line cut a command from its operands."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import decide, env_beside, run_printed

from policylang import Verdict

_NEEDS_BASH = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _workspace(tmp_path: Path) -> Path:
    """A workspace with a `.env` beside a fake home with `~/.ssh/id_rsa`."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("TOKEN=xyz\n")
    (workspace / "README.md").write_text("hi\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "id_rsa").write_text("KEY\n")
    return workspace


@pytest.mark.parametrize(
    "line",
    ["( {cat,.env} )", "({cat,.env})", "( {rm,-rf,~} )", "( {rm,-rf,/} )", "( {rm,-rf,/}\n)",
     "{ {rm,-rf,~}; }", "{ {cat,.env}; }", "echo $({rm,-rf,/}\n)", "echo $({rm,-rf,~}\n)",
     "x=$({cat,.env}\n)", "ls `{cat,.env}\n`", 'echo "$({cat,.env}\n)"', "cat <({cat,.env}\n)",
     "for i in 1; do {cat,.env}\ndone", "case x in x) {cat,.env};; esac",
     "ls | ( {cat,.env} )", "( ls; {cat,.env} )", "{cat,.env} >/dev/null",
     "{cat,.env}>/dev/null", "{cat,.env} 2>&1", 'bash -c "( {cat,.env} )"',
     "{cat,.env}; echo {a{b,c}}", '{cat,.env}; echo "{a,b}"', "( {cat,README.md,.env} )",
     "( {cat,x}\n{cat,.env} )"],
)  # fmt: skip
def test_dy1_a_braced_command_keeps_its_deny_wherever_it_sits(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    ("line", "verdict"),
    [("( echo {a,b} )", Verdict.ALLOW), ("( {echo,hi} )", Verdict.ASK),
     ("( {cat,README.md} )", Verdict.ASK), ("echo '( {rm,-rf,x} )'", Verdict.ALLOW)],
)  # fmt: skip
def test_dy1_other_braced_lines_keep_their_verdict(
    tmp_path: Path, line: str, verdict: Verdict
) -> None:
    workspace = _workspace(tmp_path)
    assert decide(line, workspace, env_beside(tmp_path)).verdict is verdict


@_NEEDS_BASH
def test_dy1_bash_runs_the_braced_command_in_a_subshell(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    env = env_beside(tmp_path)
    assert "TOKEN=xyz" in run_printed("( {cat,.env} )", workspace, env)
    assert "TOKEN=xyz" in run_printed("echo $({cat,.env}\n)", workspace, env)


_HEREDOC = "ls <<EOF;\n'\n$X\nEOF\n"


@pytest.mark.parametrize(
    "line",
    [_HEREDOC + "cat '\n' .env", _HEREDOC + "rm -rf '\n' ~/.ssh", _HEREDOC + "rm -rf '\n' ~",
     _HEREDOC + "rm -rf '\n' /", _HEREDOC + "diff '\n' /",
     "ls <<'EOF';\n;'\nEOF\ncat $'\\x{78}' .env",
     "ls <<'EOF';\n;'\nEOF\nls < $'\\x{78}' < .env", "ls <<EOF ;\n'\n$X\nEOF\ncat '\n' .env",
     "ls <<EOF; true\n'\n$X\nEOF\ncat '\n' .env", "ls <<EOF ; true\n'\n$X\nEOF\ncat '\n' .env",
     "ls <<EOF&\n'\n$X\nEOF\ncat '\n' .env", "ls <<EOF;\n\"\n$X\nEOF\ncat \"\n\" .env",
     "ls <<EOF; true\n\"\n$X\nEOF\ncat \"\n\" .env", "cat <<EOF;\n$(rm -rf ~)\nEOF",
     "cat <<EOF;\n'$(rm -rf ~)'\nEOF", "cat <<EOF; true\n'$(cat .env)'\nEOF"],
)  # fmt: skip
def test_dy2_a_here_document_body_does_not_cut_a_later_command(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.DENY, decision.explain()


@_NEEDS_BASH
def test_dy2_bash_runs_the_later_command_with_its_operands(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    env = env_beside(tmp_path)
    assert "TOKEN=xyz" in run_printed(_HEREDOC + "cat '\n' .env", workspace, env)
    assert "TOKEN=xyz" in run_printed(_HEREDOC.replace(";", "; true") + "cat '\n' .env",
                                      workspace, env)  # fmt: skip
