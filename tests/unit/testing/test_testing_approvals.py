"""The approval-width oracle: approve a suggestion, run what it newly allows for real.

Every command here runs in the oracle's sandbox (read-only scratch workspace and home with
canary secrets and protected files, no network, no capabilities) under strace.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from policylang.engine.policy import load_policy
from policylang.errors import SandboxUnavailableError
from policylang.testing import _approvals
from policylang.testing import oracle as oracle_mod
from policylang.testing._optionprobe import valued_short_options
from policylang.testing.oracle import Oracle, check_approvals

DEFAULT = Path(__file__).resolve().parents[3] / "policylang" / "rulesets" / "default.policy"

#: A deliberately loose toy policy: everything asks, and the engine suggests one-word
#: approvals (`sed`, `tar`) that let a script or an option do what the approver never saw.
TOY = """\
policy "toy" version "1"
default ask
protect write .git/** ~/.bashrc ~/.ssh/** CLAUDE.md .claude/** deny
protect read **/.env* ~/.netrc ~/.ssh/** deny
"""


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    path = tmp_path / "toy.policy"
    path.write_text(TOY, encoding="utf-8")
    return path


def _flagged(report: oracle_mod.ApprovalReport) -> dict[str, set[str]]:
    return {run.observation.command: {str(e.effect) for e in run.observation.flags}
            for run in report.flagged}


def test_a_wide_approval_is_caught_by_real_runs(toy: Path) -> None:
    # (a) approving `sed` (what the engine suggests for `sed -n p file` here) lets a
    # script write the pre-commit hook and read `.env`: the engine never sees inside it
    lines = ["sed -n p file", "sed -n 'w .git/hooks/pre-commit' file", "sed -n 'r .env' README"]
    report = check_approvals(toy, commands=lines, option_probing=False, budget_s=60,
                             timeout_s=5)
    assert report.suggestions == report.runnable == report.tried == 1
    assert {run.approval for run in report.runs} == {"sed"}
    assert {run.observation.command for run in report.runs} == set(lines)
    assert {run.origin for run in report.runs} == {"sed -n p file"}  # what was asked
    flagged = _flagged(report)
    assert flagged == {lines[1]: {"write"}, lines[2]: {"secret"}}, report.render()
    hook = next(r for r in report.flagged if r.observation.command == lines[1])
    assert [e.target for e in hook.observation.flags] == ["/workspace/.git/hooks/pre-commit"]
    assert "EROFS" in hook.observation.flags[0].result  # attempted: the mounts are read-only
    text = report.render()
    assert "protected-write: 1 command(s) under 1 approval(s)" in text
    assert "secret: 1 command(s) under 1 approval(s)" in text
    assert "reproduce: python fuzz/oracle.py" in text
    assert "approval `sed` (asked for 'sed -n p file') allows" in text


def test_what_the_asked_command_did_is_no_finding(toy: Path) -> None:
    # the approver saw `sed -n 'r .env' README` itself (the toy asks for it): its own
    # read is what the approval means; the hook write of another line is not
    lines = ["sed -n 'r .env' README", "sed -n 'w .git/hooks/pre-commit' file"]
    report = check_approvals(toy, commands=lines, option_probing=False, budget_s=60,
                             timeout_s=5)
    assert {run.origin for run in report.runs} == {lines[0]}
    assert _flagged(report) == {lines[1]: {"write"}}, report.render()


def test_option_probes_find_an_option_that_runs_workspace_code(toy: Path) -> None:
    # (a) the probes come from `tar --help`: `--to-command=./oracle-probe` runs a program
    # the agent could have written, under an approval of `tar`
    report = check_approvals(toy, commands=["tar -xf archive.tar"], budget_s=120,
                             timeout_s=5)
    assert {run.approval for run in report.runs} == {"tar"}
    flagged = _flagged(report)
    assert flagged.get("tar -xf archive.tar --to-command=./oracle-probe") == {"exec"}, \
        report.render()
    assert "workspace-exec:" in report.render()
    # extracting writes `README` in the workspace: an approved writer's ordinary write
    extract = next(r for r in report.runs if r.observation.command == "tar -xf archive.tar")
    assert any(e.target == "/workspace/README" for e in extract.observation.events)
    assert not extract.observation.flags


def test_a_narrow_approval_is_not_flagged(toy: Path) -> None:
    # (b) the same program, approved as far as the reading command names it: the probes
    # that read a secret or write a hook are denied or only list, so nothing is flagged
    report = check_approvals(toy, approve=["sed -n p"],
                             commands=["sed -n p file", "sed -n p .env", "sed -n p README"],
                             budget_s=120, timeout_s=5)
    commands = {run.observation.command for run in report.runs}
    assert {"sed -n p file", "sed -n p README"} <= commands
    assert "sed -n p .env" not in commands  # a protected read: denied, never run
    assert len(report.runs) > 10  # the probes ran too
    assert not report.flagged, report.render()


def test_the_command_line_and_its_reproduce_line(capsys: pytest.CaptureFixture[str],
                                                  toy: Path) -> None:
    args = [str(toy), "--approvals", "--approve", "sed", "--no-option-probes",
            "--command", "sed -n 'w CLAUDE.md' file"]
    assert oracle_mod.main(args) == 1
    out = capsys.readouterr().out
    assert out.startswith("approval oracle: 1 suggested approval(s)")
    assert "write: openat(/workspace/CLAUDE.md)" in out
    line = next(x for x in out.splitlines() if "reproduce:" in x).split("reproduce: ")[1]
    again = shlex.split(line)
    assert again[:2] == ["python", "fuzz/oracle.py"]
    assert oracle_mod.main(again[2:]) == 1
    assert "protected-write: 1 command(s)" in capsys.readouterr().out
    # a known finding does not fail the run
    known = toy.parent / "known.txt"
    known.write_text("write /workspace/CLAUDE.md  # this toy team lets sed write it\n")
    assert oracle_mod.main([*args, "--known", str(known)]) == 0
    assert "known: 1 command(s)" in capsys.readouterr().out


def test_a_suggestion_that_names_a_workspace_path(toy: Path) -> None:
    # the engine resolves a script's path on the host; it runs as /workspace/… inside
    with Oracle() as sandbox:
        host = sandbox.to_host("python3 /workspace/x.py && cat /home/oracle/.profile")
        assert host == (f"python3 {sandbox.workspace}/x.py && cat "
                        f"{sandbox.home}/.profile")
        assert sandbox.to_sandbox(host) == "python3 /workspace/x.py && cat /home/oracle/.profile"
        assert sandbox.to_host("/workspaces/x") == "/workspaces/x"


# --- setup errors ---------------------------------------------------------------------------

def test_no_bubblewrap_means_refusal(monkeypatch: pytest.MonkeyPatch, toy: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    real = Oracle.__init__

    def without_bwrap(self: Oracle, **kwargs: object) -> None:
        real(self, **{**kwargs, "bwrap": str(toy.parent / "no-bwrap")})  # type: ignore[arg-type]

    monkeypatch.setattr(Oracle, "__init__", without_bwrap)
    with pytest.raises(SandboxUnavailableError, match="bubblewrap"):
        check_approvals(toy, approve=["sed"], commands=["sed -n p file"])
    assert oracle_mod.main([str(toy), "--approvals", "--approve", "sed"]) == 2
    assert "bubblewrap" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "problem"), [
    (["--approvals", "--approve", "sed 'x"], "cannot split approval rule"),
    (["--approve", "sed"], "--approve needs --approvals"),
])
def test_bad_arguments_are_setup_errors(capsys: pytest.CaptureFixture[str], toy: Path,
                                        args: list[str], problem: str) -> None:
    assert oracle_mod.main([str(toy), *args, "--command", "sed -n p file"]) == 2
    assert problem in capsys.readouterr().err


def test_a_policy_that_does_not_load(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    broken = tmp_path / "broken.policy"
    broken.write_text('policy "broken"\nallow\n')
    assert oracle_mod.main([str(broken), "--approvals", "--command", "ls"]) == 2
    assert "approval oracle: error:" in capsys.readouterr().err


def test_a_bad_baseline_is_refused(capsys: pytest.CaptureFixture[str], toy: Path) -> None:
    known = toy.parent / "known.txt"
    known.write_text("write /x\n")
    assert oracle_mod.main([str(toy), "--approvals", "--known", str(known)]) == 2
    assert "say why" in capsys.readouterr().err


# --- the data -------------------------------------------------------------------------------

def test_the_default_ruleset_protects_every_planted_target() -> None:
    policy = load_policy(DEFAULT)
    with Oracle(approvals=True) as sandbox:
        assert len(sandbox.protected) == 8
        for path in sandbox.protected:
            host = sandbox.host_path(path)
            assert host.is_file()
            decision = policy.evaluate(f"touch {host}", cwd=sandbox.workspace,
                                       workspace=sandbox.workspace,
                                       env={"HOME": str(sandbox.home)})
            assert decision.verdict.value == "deny", path


def test_probe_lines() -> None:
    lines = _approvals.option_lines("tar -tf x", ["to-command", "file"], ["I"])
    assert lines[:3] == ["tar -tf x --to-command=.git/hooks/pre-commit",
                         "tar -tf x --file=$HOME/.bashrc", "tar -tf x -I .env"]
    assert len(lines) == 3 * len(_approvals.OPTION_VALUES)
    assert "cp file .git/hooks/pre-commit" in _approvals.operand_lines("cp")
    assert _approvals.help_targets(("git", "log")) == ("git log -h",)
    assert _approvals.help_targets(("npm", "run", "build")) == ("npm --help", "npm run --help")
    assert _approvals.matching(("git", "commit"), ["git commit -m x", "git log",
                                                   "ls | xargs git commit"]) == [
        "git commit -m x", "ls | xargs git commit"]


def test_short_valued_options() -> None:
    text = ("  -o, --output=FILE   write to FILE\n  -e script, --expression=script\n"
            "  -c cmd : program passed in as string\n  -v  verbose\n  -t <dir>   target\n"
            "  -h, --help\n")
    assert valued_short_options(text) == ("o", "e", "c", "t")


def test_probe_lines_of_an_example_with_braces() -> None:
    # a corpus example holds `{}` (`find . -exec cat {} ;`): it is text, not a template
    example = "find . -exec cat {} ;"
    assert _approvals.option_lines(example, ["files0-from"], [])[0] == (
        f"{example} --files0-from=.git/hooks/pre-commit")
    assert f"{example} -c ./oracle-probe" in _approvals.operand_lines(example)
