"""Review FM, of the session's first fixes.

FM1: xxd reads `-name`, `-len`, `-cols`, `-seek` as taking the next word; the `one-file`
check read them as flags, so a later `-c` took the input file and the output file went
uncounted (`xxd -name -c a.txt out.txt` wrote out.txt under a read-only verdict). FM2:
`git request-pull` hands its words to `git ls-remote` (`--upload-pack=CMD`), and was offered
its own prefix. FM3: bash reads `-l` as an option only before the first pid: `kill -9 PID
-l` kills. FM4: the org example's network lock missed `git remote add -f` and `git
archive --remote`."""

from __future__ import annotations

import importlib.resources
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, judge

from policylang import Verdict, load_policy


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("some text\n")
    return workspace


@pytest.mark.parametrize(
    "line",
    ["xxd -name -c a.txt out.txt", "xxd -len -c a.txt out.txt", "xxd -cols -l a.txt out.txt",
     "xxd --name -c a.txt out.txt", "xxd -seek -c a.txt out.txt", "xxd -namesXYZ -c a.txt out.txt"],
)  # fmt: skip
def test_fm1_a_long_xxd_option_takes_the_next_word(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, capture_output=True, timeout=30,
                   env=canary_environment(workspace))  # fmt: skip
    assert (workspace / "out.txt").exists()  # (xxd wrote its second operand)


@pytest.mark.parametrize("line", ["xxd -l16 a.txt", "xxd -s-4 a.txt", "xxd -c 8 -g 1 a.txt"])
def test_fm1_glued_numbers_stay_reads(tmp_path: Path, line: str) -> None:
    assert judge(line, _workspace(tmp_path)).verdict is Verdict.ALLOW


def test_fm2_request_pull_is_transport_plumbing(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    innocent = judge("git request-pull v1.0 https://example.org/x main", workspace)
    assert innocent.verdict is Verdict.ASK
    assert innocent.suggested_rule is None
    line = "git request-pull -- v1.0 '--upload-pack=sh evil.sh;:'"
    decision = judge(line, workspace, "git request-pull")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "git-transport-plumbing" in decision.explain()


@pytest.mark.parametrize(
    "line", ["kill -9 {pid} -l", "kill -s TERM {pid} -L", "kill -TERM {pid} -l"]
)
def test_fm3_l_after_a_pid_is_a_pid(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    assert judge(line.format(pid=1234), workspace).verdict is Verdict.ASK
    killing = line.format(pid="$p")
    script = f"sleep 30 & p=$!; {killing}; sleep 0.2; kill -0 $p 2>/dev/null || echo dead"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert "dead" in done.stdout  # (bash sent the signal)


def test_fm3_l_first_lists(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    for line in ("kill -l", "kill -l 9", "kill -L", "kill -l -9 1"):
        assert judge(line, workspace).verdict is Verdict.ALLOW, line


def test_fm4_the_org_locks_fetching_remotes(tmp_path: Path) -> None:
    team = Path(str(importlib.resources.files("policylang") / "rulesets" / "org-example"
                    / "team.policy"))  # fmt: skip
    policy = load_policy(team)
    for rule in ("git remote add", "git archive"):
        policy.approvals.add(rule, persist=False)
    env = {"HOME": str(tmp_path)}
    for line in ("git remote add -f evil https://example.org/x",
                 "git archive --remote=ssh://example.org/x HEAD"):  # fmt: skip
        decision = policy.evaluate(line, workspace=str(tmp_path), env=env)
        assert decision.verdict is Verdict.ASK, decision.explain()
    decision = policy.evaluate("git remote add evil https://example.org/x",
                               workspace=str(tmp_path), env=env)  # fmt: skip
    assert decision.verdict is Verdict.ALLOW  # (no network: the approval stands)
