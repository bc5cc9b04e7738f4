"""Review DY: DY1 a brace-expanded command inside `( … )`, `{ …; }`, `$(…⏎)` or a loop
body lost its deny (tree-sitter does not parse the braced word there, and the recovery
read the pieces cut at its braces); DY2 after a `<<EOF;` here-document whose body holds a
lone `'`, a quoted newline on a later line cut a command from its operands; DY5 `ls x
$'\\r'` is allowed where the same word with a raw carriage return asks, on purpose, and
the campaign's quoting-invariance no longer calls that pair a hole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import decide, env_beside, run_printed

from policylang import Verdict
from policylang.decision import Decision, Reason
from policylang.engine.policy import load_policy
from policylang.testing.cases import Respelled
from policylang.testing.invariants import INVARIANTS, LOOSER, STRICTER, Evaluate, Subjects

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


@pytest.mark.parametrize("blank", ["\r", "\v", "\f"])
def test_dy5_a_raw_control_blank_asks_and_its_escape_does_not(tmp_path: Path, blank: str) -> None:
    """bash gives `ls x $'\\r'` and `ls x '<CR>'` the same argv. The raw one asks on purpose
    (`shell.control-blank`: tree-sitter splits words there, and a terminal hides it from
    the approver); the escape is read by the analyser itself and shown as written."""
    workspace = _workspace(tmp_path)
    env = env_beside(tmp_path)
    escaped = "$'" + {"\r": "\\r", "\v": "\\v", "\f": "\\f"}[blank] + "'"
    assert decide(f"ls x {escaped}", workspace, env).verdict is Verdict.ALLOW
    raw = decide(f"ls x '{blank}'", workspace, env)
    assert raw.verdict is Verdict.ASK
    assert "shell.control-blank" in [reason.rule_id for reason in raw.reasons]


def _respelled(*spellings: str) -> Respelled:
    return Respelled(values=("ls", "x", "\r"), spellings=spellings)


@pytest.mark.parametrize(
    "spellings", [("ls x '\r'", "ls x $'\\r'"), ("ls x $'\\r'", "ls x '\r'", 'ls x "\r"')]
)
def test_dy5_quoting_invariance_knows_the_intended_ask(spellings: tuple[str, ...]) -> None:
    """The campaign had called `ls x $'\\r'` (allow) against `ls x '<CR>'` (ask) "looser: a
    possible hole", by which spelling came first."""
    subjects = Subjects(evaluate=load_policy().evaluate)
    assert INVARIANTS["quoting-invariance"].check(subjects, _respelled(*spellings)) is None


def _toy(verdicts: dict[str, Verdict], reason: str = "toy") -> Evaluate:
    def evaluate(command: str) -> Decision:
        verdict = verdicts[command]
        reasons = (Reason(rule_id=reason, message="m", verdict=verdict),)
        return Decision(command=command, verdict=verdict, retention=None,
                        concurrency_safe=False, reasons=reasons)  # fmt: skip

    return evaluate


def test_dy5_other_differences_of_a_raw_control_spelling_are_still_reported() -> None:
    loose = _toy({"ls x '\r'": Verdict.ALLOW, "ls x $'\\r'": Verdict.ASK}, "shell.control-blank")
    violation = INVARIANTS["quoting-invariance"].check(
        Subjects(evaluate=loose), _respelled("ls x '\r'", "ls x $'\\r'")
    )
    assert violation is not None
    assert violation.direction == LOOSER
    assert violation.command == "ls x '\r'"  # looser than the spelling without it
    denied = _toy({"ls x '\r'": Verdict.DENY, "ls x $'\\r'": Verdict.ALLOW})
    violation = INVARIANTS["quoting-invariance"].check(
        Subjects(evaluate=denied), _respelled("ls x '\r'", "ls x $'\\r'")
    )
    assert violation is not None
    assert violation.direction == STRICTER
    assert violation.command == "ls x '\r'"
