"""Open items J: the runners that had only asked. `uv run`, `poetry run`, `pdm run`,
`pipenv run`, `hatch run` and `rye run` (each by its own options), `perf stat`, `perf
record`, `perf trace` and `ltrace` run a command that is judged on its own, for a deny
only (the line still asks: a runner may install packages, trace or measure); the files
`perf -o`, `ltrace -o` and `strace -o` write are judged as written, `strace -ff -o FILE`'s
`FILE.<pid>` and `perf record`'s `FILE.old` too, and valgrind's `%p` file names."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env` and `.git/hooks`, beside a fake home with `.ssh`."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("TOKEN=1\n")
    (workspace / ".git" / "hooks").mkdir(parents=True)
    (tmp_path / "home" / ".ssh").mkdir(parents=True, exist_ok=True)
    return workspace, env_beside(tmp_path)


# -- the command a project runner runs ----------------------------------------------------

_RUNNER_DENIES = [
    "uv run rm -rf ~",
    "uv run cat ~/.ssh/id_rsa",
    "uv run --with x -- rm -rf ~",
    "uv run --with x rm -rf ~",
    "uv run -w x --no-project -q cat .env",
    "uv run --python 3.12 --env-file x.env cat .env",
    "uv run --isolated --directory . cat .env",
    "poetry run cat .env",
    "poetry run -q cat .env",
    "poetry run -C . -- cat .env",
    "pdm run cat .env",
    "pdm run --env-file x.env -s cat .env",
    "pipenv run cat .env",
    "pipenv run --system cat .env",
    "hatch run cat .env",
    "hatch run test:cat .env",
    "rye run cat .env",
    "rye run --pyproject p.toml -q cat .env",
    "/usr/bin/uv run rm -rf ~",
    "uv run strace -f rm -rf ~",
]


@pytest.mark.parametrize("line", _RUNNER_DENIES)
def test_a_project_runners_command_keeps_its_deny(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any(r.rule_id == "engine.runner-command" for r in decision.reasons)


_RUNNER_ASKS = [
    "uv run pytest",
    "uv run python -m pytest",
    "uv run script.py",
    "uv run --with rich -- python x.py",
    "poetry run pytest -x",
    "pdm run test",
    "hatch run test:pytest",
    "rye run lint",
    "pipenv run python manage.py",
    "npm run build",
    # an option not known: the command's start cannot be told (the line asks)
    "uv run --bogus cat .env",
]


@pytest.mark.parametrize("line", _RUNNER_ASKS)
def test_a_project_runner_still_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.ASK, line


# (uv is a dev dependency: installed beside this interpreter, not always on PATH)
_UV = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))


@pytest.mark.skipif(_UV is None, reason="uv is not installed (a dev dependency: make test)")
def test_the_real_uv_run_runs_a_plain_command(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    assert _UV is not None
    subprocess.run(
        [_UV, "run", "--no-project", "--offline", "-q", "touch", "PWNED"], cwd=workspace,
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert (workspace / "PWNED").exists()


# -- perf and ltrace ------------------------------------------------------------------------

_TRACER_DENIES = [
    "perf stat rm -rf ~",
    "perf stat -e cycles -r 3 rm -rf ~",
    "perf stat -x, -- cat .env",
    "perf record rm -rf ~",
    "perf record -g -F 99 cat .env",
    "perf record --call-graph dwarf -o perf.data cat .env",
    "perf trace cat ~/.ssh/id_rsa",
    "perf trace -s -- cat .env",
    "ltrace rm -rf ~",
    "ltrace -f -e malloc cat .env",
    "ltrace -S -s 200 -o trace.txt cat .env",
    "ltrace --library=libc.so.6 cat .env",
    # the files they write
    "perf record -o ~/.bashrc ls",
    "perf record -o.git/hooks/pre-commit ls",
    "perf record --output=.git/hooks/pre-commit ls",
    "perf stat -o ~/.bashrc ls",
    "perf trace -o ~/.bashrc ls",
    "ltrace -o ~/.bashrc ls",
    "ltrace -o.git/hooks/pre-commit ls",
    "ltrace --output=.git/hooks/pre-commit ls",
    "ltrace -fo ~/.bashrc ls",
    # perf stat's --pre and --post run shell code
    "perf stat --pre 'rm -rf ~' ls",
    "perf stat --post='cat .env' ls",
]


@pytest.mark.parametrize("line", _TRACER_DENIES)
def test_perf_and_ltrace_keep_the_deny_of_what_they_run_and_write(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line", ["perf stat ls", "perf record -g ls", "perf trace ls", "ltrace ls", "perf top",
             "ltrace -o trace.txt ls", "perf record -o out.data ls"],
)  # fmt: skip
def test_perf_and_ltrace_still_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    "line",
    ["ltrace -o ~/.bashrc ls", "ltrace -p 1", "ltrace -p1", "ltrace -fp1", "ltrace -unobody ls",
     "ltrace -u nobody ls", "ltrace --output=x -p1", "ltrace -F x.conf ls",
     "ltrace --conf=.env ls", "ltrace -F.env ls", "ltrace --bogus ls", "ltrace --de ls"],
)  # fmt: skip
def test_an_approved_ltrace_reads_its_own_options(tmp_path: Path, line: str) -> None:
    # (they had been read with strace's table: only an `-o` pipe asked)
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env, "ltrace").verdict is not Verdict.ALLOW, line


@pytest.mark.parametrize(
    "line", ["ltrace ls", "ltrace -f -S ls", "ltrace -otrace.txt ls", "ltrace -s200 -emalloc ls",
             "ltrace --output=trace.txt -tt ls", "ltrace --out=trace.txt ls"],
)  # fmt: skip
def test_an_approved_ltrace_still_traces(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "ltrace")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.skipif(shutil.which("ltrace") is None, reason="ltrace is not installed")
def test_the_real_ltrace_writes_its_output_file_and_runs_its_command(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    out = tmp_path / "outside.txt"
    subprocess.run(["ltrace", "-o", str(out), "touch", "PWNED"], cwd=workspace,
                   capture_output=True, timeout=60, check=False)  # fmt: skip
    assert (workspace / "PWNED").exists()
    assert out.exists()


# -- strace -ff -o FILE writes FILE.<pid>; valgrind's %p -----------------------------------

_SEPARATE_DENIES = [
    "strace -ff -o ~/.ssh/authorized_keys ls",
    "strace -ff -o .git/hooks/pre-commit ls",
    "strace -ff -o ~/.bashrc ls",
    "strace -o ~/.bashrc ls",
    "strace --output-separately --output=.git/hooks/pre-commit ls",
    "valgrind --log-file=.git/hooks/pre-commit.%p ls",
    "valgrind --log-file=.git/hooks/x%p ls",
]


@pytest.mark.parametrize("approval", [None, "strace", "valgrind"])
@pytest.mark.parametrize("line", _SEPARATE_DENIES)
def test_files_beside_the_named_one_are_judged_as_written(
    tmp_path: Path, line: str, approval: str | None
) -> None:
    workspace, env = _workspace(tmp_path)
    approvals = (approval,) if approval is not None else ()
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_the_real_strace_ff_writes_pid_siblings(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    done = subprocess.run(["strace", "-ff", "-o", "trace", "true"], cwd=workspace,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    if b"Operation not permitted" in done.stderr:
        pytest.skip("ptrace is not allowed here")
    names = [p.name for p in workspace.iterdir() if p.name.startswith("trace")]
    assert names
    assert all(n.startswith("trace.") and n[6:].isdigit() for n in names), names


@pytest.mark.parametrize("approval", [None, "strace"])
@pytest.mark.parametrize(
    "line",
    ["strace -o '|rm -rf ~' ls", "strace -fo'!cat .env' ls", "strace --output='|cat .env' ls"],
)
def test_the_command_strace_pipes_its_output_to_keeps_its_deny(
    tmp_path: Path, line: str, approval: str | None
) -> None:
    workspace, env = _workspace(tmp_path)
    approvals = (approval,) if approval is not None else ()
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["uv -q run cat .env", "uv --offline --directory . run rm -rf ~",
     "poetry -C . run cat .env", "poetry -q --no-ansi run -- cat .env"],
)  # fmt: skip
def test_global_options_before_the_verb_are_read(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize("line", ["uv -q pip install x", "uv --bogus run cat .env", "uv -q"])
def test_other_verbs_and_unknown_global_options_still_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.ASK, line


@pytest.mark.skipif(shutil.which("perf") is None, reason="perf is not installed")
def test_the_real_perf_record_moves_its_old_file_beside_and_stat_writes_its_o(
    tmp_path: Path,
) -> None:
    workspace, _env = _workspace(tmp_path)
    for argv in (["record", "-q", "-o", "out.data", "true"],) * 2 + (
        ["stat", "-o", "st.txt", "true"],
    ):
        subprocess.run(["perf", *argv], cwd=workspace, capture_output=True, timeout=60,
                       check=False)  # fmt: skip
    if not (workspace / "out.data").exists():
        pytest.skip("perf cannot record here (perf_event_paranoid)")
    assert (workspace / "out.data.old").exists()
    assert (workspace / "st.txt").exists()
