"""Review HE: the last ring review of the session.

HE1: once `nerdctl run` (or `finch run`) was approved, as the engine offers for `nerdctl run
alpine`, no host-side check ran: mounts of `~/.ssh` or `/`, `--privileged` and
`--env-file .env` were allowed, since the mount reader and the container rules named docker
and podman only. nerdctl and finch take docker's command line. (Neither is installed here,
so this is judged on the engine alone; docker's mounts are shown in earlier reviews.)
HE2 (suspected): rsync 3.3 and older write through the destination's links to folders with
`-K`. HE3 (suspected): `docker build --ssh` hands the user's SSH agent to the Dockerfile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide

from policylang.decision import Verdict


@pytest.fixture
def setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _offer(line: str, workspace: Path, env: dict[str, str]) -> str:
    decision = decide(line, workspace, env)
    assert decision.suggested_rule is not None, decision.explain()
    return decision.suggested_rule


@pytest.mark.parametrize("engine", ["docker", "podman", "nerdctl", "finch"])
@pytest.mark.parametrize(
    ("words", "verdict"),
    [
        ("run -v ~/.ssh:/k alpine", Verdict.DENY),
        ("run --mount type=bind,src=/,dst=/h alpine", Verdict.DENY),
        ("run --env-file .env alpine", Verdict.DENY),
        ("run --privileged alpine", Verdict.ASK),
        ("container run --privileged alpine", Verdict.ASK),
        ("run -e GITHUB_TOKEN alpine", Verdict.ASK),
    ],
)
def test_he1_every_container_engine_is_judged_on_the_host(
    setting: tuple[Path, dict[str, str]], engine: str, words: str, verdict: Verdict
) -> None:
    workspace, env = setting
    (workspace / ".env").write_text("SECRET=1\n")
    approval = _offer(f"{engine} run alpine", workspace, env)
    decision = decide(f"{engine} {words}", workspace, env, approval)
    assert decision.verdict is verdict, decision.explain()


@pytest.mark.parametrize("engine", ["nerdctl", "finch"])
def test_he1_a_plain_run_keeps_its_approval(
    setting: tuple[Path, dict[str, str]], engine: str
) -> None:
    workspace, env = setting
    approval = _offer(f"{engine} run alpine", workspace, env)
    assert decide(f"{engine} run alpine echo hi", workspace, env, approval).verdict is (
        Verdict.ALLOW
    )


@pytest.mark.parametrize("line", ["rsync -rK pl/ out/", "rsync -aK pl/ out/",
                                  "rsync --keep-dirlinks -r pl/ out/"])  # fmt: skip
def test_he2_keep_dirlinks_is_a_locked_ask(setting: tuple[Path, dict[str, str]], line: str) -> None:
    workspace, env = setting
    approval = _offer("rsync a b", workspace, env)
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "rsync-keep-dirlinks" for r in decision.reasons)
    assert decide("rsync -a pl/ out/", workspace, env, approval).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line", ["docker build --ssh default .", "docker buildx build --ssh default .",
             "nerdctl build --ssh default ."],
)  # fmt: skip
def test_he3_build_with_the_ssh_agent_is_a_locked_ask(
    setting: tuple[Path, dict[str, str]], line: str
) -> None:
    workspace, env = setting
    engine = line.split()[0]
    decision = decide(line, workspace, env, engine, f"{engine} build", f"{engine} buildx")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "container-build-ssh" for r in decision.reasons)
    assert decision.suggested_rule is None
