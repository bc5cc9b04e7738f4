"""Review EV: wrappers read as the real programs read them.

EV1: a wrapper named by a path (`./nice ls`) is a program of that place, not the system's
wrapper whose command was judged. EV2: bash reads `-norc`, `-verbose` as long options
(`bash -norc errexit -c …` runs the script `errexit`). EV3: GNU env takes any word with a
`=` as a setting (`env 1=2 find …` runs `find`; `1=2 find` had been offered for approval,
and then covered `find … -exec`). EV4: `flock 9 CMD` opens a file named `9`. EV5: GNU
`nice - CMD` runs a program named `-`."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    home.mkdir()
    workspace = tmp_path / "ws"
    (workspace / "bin").mkdir(parents=True)
    (workspace / ".env").write_text("CANARY_EV_ENV\n")
    (workspace / "README.md").write_text("hi\n")
    for name in ("nice", "bin/timeout", "bash", "errexit", "bin/-"):
        program = workspace / name
        program.write_text("#!/bin/sh\ncat .env\n")
        program.chmod(0o755)
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    "line", ["./nice ls", "bin/timeout 5 ls", "./bash -c ls",
             "bash -norc errexit -c 'echo hi'", "bash -verbose errexit -c 'echo hi'"],
)  # fmt: skip
def test_what_bash_runs_is_what_is_judged(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_EV_ENV" in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_a_system_wrapper_by_its_path_is_the_system_s(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    for line in ("/usr/bin/nice ls", "/usr/bin/env ls", "/bin/bash -c ls", "bash -norc -c ls",
                 "/usr/local/bin/env ls"):  # fmt: skip
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, line
    # a folder named like one, but not the system's (`/local/bin` is no such folder)
    for line in ("/local/bin/nice ls", "/usr/lib/bin/env ls", "/opt/bin/nice ls"):
        assert decide(line, workspace, env).verdict is Verdict.ASK, line


def test_env_takes_any_word_with_an_equals_sign(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    line = "env 1=2 find . -name '*.md' -delete"
    run_printed(line, workspace, env)
    assert not (workspace / "README.md").exists()  # env ran find, which deleted it
    decision = decide("env 1=2 find . -name '*.md'", workspace, env)
    assert decision.suggested_rule is None or "=" not in decision.suggested_rule
    approved = decide("env 1=2 find . -name x -exec sh {} ;", workspace, env, "1=2 find")
    assert approved.verdict is not Verdict.ALLOW


def test_flock_with_a_command_opens_a_file_named_by_the_number(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    outside = tmp_path / "elsewhere"
    (workspace / "9").symlink_to(outside)
    run_printed("flock 9 echo hi", workspace, env)
    assert outside.exists()  # made through the link, outside the workspace
    outside.unlink()
    assert decide("flock 9 echo hi", workspace, env).verdict is not Verdict.ALLOW


def test_nice_runs_a_program_named_dash(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    env["PATH"] = f"{workspace}/bin:/usr/bin:/bin"
    assert "CANARY_EV_ENV" in run_printed("nice - echo hi", workspace, env)
    assert decide("nice - echo hi", workspace, env).verdict is not Verdict.ALLOW
