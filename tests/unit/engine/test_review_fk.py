"""Review FK: the rulesets other than the default one, and layers.

FK1: `git send-pack` and `git fetch-pack` (push's and fetch's plumbing) were offered their
prefix for `--help`; once approved, `--receive-pack=CMD`, `--upload-pack=CMD` ran programs
and `--force`, `:main` force-pushed and deleted past the `git push` checks. FK3: the org
example's team layer read `npm view|outdated|ls` as reads, which send the token a committed
`.npmrc` names to the registry it names. FK4: `git remote update` fetched under the org's
locked network rules once approved."""

from __future__ import annotations

import importlib.resources
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, judge

from policylang import Verdict, load_policy

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]


def _repository(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README").write_text("hi\n")
    for args in (["init", "-q", "-b", "main", "."], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run([*_GIT, *args], cwd=workspace, check=True, capture_output=True)
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "bare.git")], check=True,
                   capture_output=True)  # fmt: skip
    return workspace


@pytest.mark.parametrize("program", ["send-pack", "fetch-pack", "http-push", "upload-pack"])
def test_fk1_transport_plumbing_is_offered_no_approval(tmp_path: Path, program: str) -> None:
    workspace = _repository(tmp_path)
    decision = judge(f"git {program} --help", workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    "line",
    ["git send-pack --receive-pack='touch pwned' ../bare.git main",
     "git send-pack --exec='touch pwned' ../bare.git main",
     "git fetch-pack --upload-pack='touch pwned' ../bare.git main",
     "git send-pack --force ../bare.git main", "git send-pack ../bare.git :main"],
)  # fmt: skip
def test_fk1_plumbing_asks_under_its_approval(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    decision = judge(line, workspace, "git send-pack", "git fetch-pack")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert "git-transport-plumbing" in decision.explain()
    if "pwned" in line:
        subprocess.run(["bash", "-c", line], cwd=workspace, capture_output=True, timeout=60,
                       env=canary_environment(workspace))  # fmt: skip
        assert (workspace / "pwned").exists()  # (git ran the program the option names)


def _org_example(name: str) -> Path:
    return Path(str(importlib.resources.files("policylang") / "rulesets" / "org-example" / name))


def test_fk3_the_team_layer_does_not_read_npm_registry_commands(tmp_path: Path) -> None:
    policy = load_policy(_org_example("team.policy"))
    for line in ("npm view lodash", "npm outdated", "npm ls --depth 0"):
        decision = policy.evaluate(line, workspace=str(tmp_path), env={"HOME": str(tmp_path)})
        assert decision.verdict is Verdict.ASK, (line, decision.explain())


@pytest.mark.parametrize(
    "line", ["git remote update", "git remote update --prune", "git remote -v show origin"]
)
def test_fk4_the_org_locks_remote_fetches(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    policy = load_policy(_org_example("team.policy"))
    policy.approvals.add("git remote update", persist=False)
    policy.approvals.add("git remote", persist=False)
    decision = policy.evaluate(line, workspace=str(workspace),
                               env=canary_environment(workspace))  # fmt: skip
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "org-git-remote" in decision.explain()
