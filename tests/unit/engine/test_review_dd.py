"""Review DD: the engine in the environment an agent's runtime passes (its own: PATH,
LESSOPEN, PYTHONPATH, LD_LIBRARY_PATH, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL), where a
common setting makes an allowed program run a file of the workspace.

DD1 `less` runs LESSOPEN's lesspipe, which runs programs by PATH; DD2 a PYTHONPATH that
reaches the workspace; DD3 man-db's formatting pipeline by PATH; DD4 LD_LIBRARY_PATH;
DD5 git's global configuration and less's lesskey file in the workspace; DD6 lesspipe's
`~/.config/lessfilter`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace

from policylang import Verdict, load_policy

_PLANT = "#!/bin/sh\ntouch {marker}\nexec /usr/bin/{name} \"$@\"\n"


def _plant(folder: Path, name: str, marker: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    program.write_text(_PLANT.format(marker=marker, name=name))
    program.chmod(0o755)


def _run(line: str, workspace: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line], cwd=workspace, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip


def _verdict(line: str, workspace: Path, env: dict[str, str]) -> Verdict:
    decision = load_policy().evaluate(line, workspace=str(workspace), env=env)
    return decision.verdict


@pytest.mark.parametrize("entries", ["{ws}/bin:/usr/bin:/bin", ":/usr/bin:/bin"])
def test_dd1_less_runs_lesspipe_which_runs_programs_by_path(tmp_path: Path, entries: str) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    _plant(workspace / ("bin" if "{ws}" in entries else "."), "tr", marker)
    (workspace / "x.txt").write_text("hello\n")
    env = {"HOME": str(tmp_path / "home"), "PATH": entries.format(ws=workspace),
           "LESSOPEN": "| /usr/bin/lesspipe %s"}  # fmt: skip
    _run("less x.txt | cat", workspace, env)
    assert marker.exists()  # the real less ran lesspipe, which ran the workspace's `tr`
    for line in ("less x.txt", "less x.txt | cat", "/usr/bin/less x.txt", "zless x.txt"):
        assert _verdict(line, workspace, env) is Verdict.ASK, line
    # the same environment without LESSOPEN, or a LESSOPEN of the system's, holds
    plain = {**env, "PATH": "/usr/bin:/bin"}
    assert _verdict("less x.txt", workspace, plain) is Verdict.ALLOW
    assert _verdict("less x.txt", workspace, {k: v for k, v in env.items() if k != "LESSOPEN"}) \
        is Verdict.ALLOW  # fmt: skip


@pytest.mark.parametrize(
    "lessopen", ["| ./pre %s", "|| {ws}/pre %s", "|pre %s", "| pre %s; id", "-|$(pre) %s"]
)
def test_dd1_a_lessopen_program_of_the_workspace(tmp_path: Path, lessopen: str) -> None:
    workspace = copy_workspace(tmp_path)
    _plant(workspace, "pre", tmp_path / "PWNED")
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{workspace}:/usr/bin:/bin",
           "LESSOPEN": lessopen.format(ws=workspace)}  # fmt: skip
    assert _verdict("less x.txt", workspace, env) is Verdict.ASK


def test_dd3_man_runs_its_formatting_pipeline_by_path(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    col = workspace / "col"
    col.write_text("#!/bin/sh\necho PLANTED-COL-RAN >&2\nexec /usr/bin/col \"$@\"\n")
    col.chmod(0o755)
    env = {"HOME": str(tmp_path / "home"), "PATH": ":/usr/bin:/bin", "MANPAGER": "cat"}
    page = tmp_path / "man" / "man1" / "probe.1"  # (a page of its own: images drop theirs)
    page.parent.mkdir(parents=True)
    page.write_text(".TH PROBE 1\n.SH NAME\nprobe \\- a page\n")
    done = _run(f"MANPATH={tmp_path}/man man probe | head -3", workspace, env)
    assert "PLANTED-COL-RAN" in done.stderr, done  # the real man-db ran the workspace's `col`
    for line in ("man ls", "man ls | head -3", "git help log", "info ls", "git log --help"):
        assert _verdict(line, workspace, env) is Verdict.ASK, line
    assert _verdict("man ls", workspace, {**env, "PATH": "/usr/bin:/bin"}) is Verdict.ALLOW


def test_dd6_lessfilter_is_a_start_up_file(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    policy = load_policy()
    for rule in ("cp", "tee"):
        policy.approvals.add(rule, persist=False)
    for line in ("cp x.txt ~/.config/lessfilter", "echo x | tee ~/.config/lessfilter"):
        decision = policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.DENY, decision.explain()


def test_the_environment_of_this_process_is_judged_without_error(tmp_path: Path) -> None:
    # a smoke check of the real setting: whatever this machine's environment holds
    workspace = copy_workspace(tmp_path)
    decision = load_policy().evaluate("ls", workspace=str(workspace), env=dict(os.environ))
    assert decision.verdict in (Verdict.ALLOW, Verdict.ASK)
