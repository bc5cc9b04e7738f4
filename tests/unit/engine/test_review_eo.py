"""Review EO: the working folder as bash has it.

EO1: `pushd +1` rotates the directory stack, entering a folder an earlier line of the same
shell pushed (`pushd -n ~/.aws`); it had been read as a folder named `+1`. EO2: bash's
`cd ..` starts from the `PWD` it inherits where that names the working folder by another
path (a project reached through a link); the engine had started from the real path. EO3:
a cwd given through a link to the workspace is inside it (approvals hold there)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from realrun import decide

from policylang import Verdict


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("CANARY_EO_AWS\n")
    return home


def test_a_rotation_of_the_directory_stack_makes_the_folder_unknown(tmp_path: Path) -> None:
    home = _home(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    first, second = "pushd -n ~/.aws >/dev/null", "pushd +1 >/dev/null && cat credentials"
    # one shell, two lines: what a runtime that keeps its shell does
    done = subprocess.run(
        ["bash", "--norc"], input=f"{first}\n{second}\n", cwd=workspace, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "CANARY_EO_AWS" in done.stdout
    assert decide(first, workspace, env).verdict is Verdict.ALLOW  # it does not move
    decision = decide(second, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert decide("pushd -- +2 && cat credentials", workspace, env).verdict is not Verdict.ALLOW


def _linked_project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A project whose real folder is elsewhere, reached from home through a link."""
    home = _home(tmp_path)
    real = tmp_path / "mnt" / "repo"
    real.mkdir(parents=True)
    (home / "src").mkdir()
    linked = home / "src" / "repo"
    linked.symlink_to(real)
    return home, real, linked


def test_cd_up_starts_from_the_inherited_logical_folder(tmp_path: Path) -> None:
    home, real, linked = _linked_project(tmp_path)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "PWD": str(linked)}
    for line in ("cd ../.. && cat .aws/credentials", "cd ../../.aws && cat credentials",
                 "cd .. && cd .. && tail .aws/credentials"):  # fmt: skip
        done = subprocess.run(["bash", "-c", line], cwd=real, env=env, capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert "CANARY_EO_AWS" in done.stdout, line
        decision = decide(line, real, env, cwd=real)
        assert decision.verdict is Verdict.DENY, (line, decision.explain())


def test_a_pwd_of_another_folder_is_not_taken(tmp_path: Path) -> None:
    home, real, _linked = _linked_project(tmp_path)
    (real / "a.txt").write_text("a\n")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "PWD": str(home / ".aws")}
    assert decide("cat a.txt", real, env, cwd=real).verdict is Verdict.ALLOW
    assert decide("cat ../../home/x.txt", real, env, cwd=real).verdict is Verdict.ALLOW


def test_a_cwd_through_a_link_to_the_workspace_is_inside_it(tmp_path: Path) -> None:
    home, real, linked = _linked_project(tmp_path)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    assert decide("pytest -q", real, env, cwd=real).suggested_rule == "pytest"
    decision = decide("pytest -q", real, env, "pytest", cwd=linked)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    assert not any(r.rule_id == "engine.approved-elsewhere" for r in decision.reasons)
