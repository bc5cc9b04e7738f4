"""Review EB, the approved runners: EB3 strace's `-o`/`--output` value that starts with
`!` or `|` runs a command; EB4 valgrind's options that reach the network, run a tool
file by path or expand a log file's name; EB5 valgrind's `.valgrindrc` of the working
folder; EB9 ninja's job limits offered exactly, never bare `ninja`; EB7 the runner's
command judged for a deny where the table had missed it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env` and `README`, beside a fake home with `~/.ssh/id_rsa`."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("TOKEN=1\n")
    (workspace / "README").write_text("hi\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("key\n")
    return workspace, env_beside(tmp_path)


# -- EB3: strace -o '!CMD', --output='|CMD' ---------------------------------------------------

_STRACE_PIPES = [
    "strace -o!touch\\ PWNED ls",
    "strace -o'!touch PWNED' ls",
    "strace -o'|touch PWNED' ls",
    "strace -fo!id ls",
    "strace -fo'!id' ls",
    "strace -ffo'|id' ls",
    "strace -s99 -o!id ls",
    "strace -ff -o!id ls",
    "strace --output='|touch PWNED' ls",
    "strace --output='!id' ls",
    "strace --output '!id' ls",
    "strace -o '!id' ls",
    "strace -o '|id' ls",
    "strace -fo '!id' ls",
    "strace -f -o '!id' -- ls",
    "ltrace -o!id ls",
    "ltrace --output='|id' ls",
]


@pytest.mark.parametrize("line", _STRACE_PIPES)
def test_eb3_an_output_piped_to_a_command_asks_under_approval(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, line.split()[0])
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    "line", ["strace ls", "strace -f ls", "strace -c ls", "strace --output=trace.txt ls",
             "strace -otrace.txt ls", "strace grep '!x' README", "strace -- ls -o"],
)  # fmt: skip
def test_eb3_ordinary_traces_stay_allowed(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "strace")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_eb3_the_real_strace_runs_the_piped_command(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    done = subprocess.run(
        ["strace", "-fo!touch PWNED", "true"], cwd=workspace, capture_output=True, timeout=60,
        check=False,
    )  # fmt: skip
    if b"ptrace" in done.stderr and not (workspace / "PWNED").exists():
        pytest.skip("ptrace is not allowed here")
    assert (workspace / "PWNED").exists()


# -- EB4: valgrind's network, tool and log-file options ---------------------------------------

_VALGRIND_ASKS = [
    "valgrind --log-socket=127.0.0.1:5555 ls",
    "valgrind --xml=yes --xml-socket=127.0.0.1:5555 ls",
    "valgrind --debuginfo-server=1.2.3.4:80 ls",
    "valgrind --tool=../../../x/evil true",
    "valgrind --tool=sub/evil true",
    "valgrind --tool=/tmp/evil true",
    "valgrind --log-file=vg.%p.log ls",
    "valgrind --log-file=%q{HOME}/.bashrc ls",
    "valgrind --xml=yes --xml-file=x%q{HOME}.xml ls",
    "valgrind --tool=massif --massif-out-file=%q{HOME}/.bashrc ls",
    "valgrind --vgdb-prefix=%q{HOME}/x ls",
]


@pytest.mark.parametrize("line", _VALGRIND_ASKS)
def test_eb4_valgrind_options_that_reach_out_ask_under_approval(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    for approval in ("valgrind", "valgrind ls", "valgrind true"):
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ASK, (approval, decision.explain())


def test_eb4_a_tool_path_at_the_workspaces_depth_asks(tmp_path: Path) -> None:
    # valgrind looks for its tool in /usr/libexec/valgrind: enough `..` reach the workspace
    workspace, env = _workspace(tmp_path)
    ups = "../" * 3
    line = f"valgrind --tool={ups}{str(workspace).lstrip('/')}/evil true"
    decision = decide(line, workspace, env, "valgrind")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("valgrind --log-file=.git/hooks/pre-commit ls", Verdict.DENY),
        ("valgrind --xml-file=~/.bashrc ls", Verdict.DENY),
        ("valgrind --suppressions=~/.ssh/id_rsa ls", Verdict.DENY),
        ("valgrind --vgdb-prefix=.git/hooks/x ls", Verdict.DENY),
        ("valgrind ls", Verdict.ALLOW),
        ("valgrind --tool=memcheck ls", Verdict.ALLOW),
        ("valgrind --leak-check=full ls", Verdict.ALLOW),
        ("valgrind --log-file=vg.log ls", Verdict.ALLOW),
        ("valgrind --log-file=vg%%.log ls", Verdict.ALLOW),
    ],
)
def test_eb4_other_valgrind_options_are_judged_as_before(
    tmp_path: Path, line: str, expected: Verdict
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "valgrind")
    assert decision.verdict is expected, decision.explain()


# -- EB5: the working folder's .valgrindrc ----------------------------------------------------


def test_eb5_a_workspace_valgrindrc_asks_under_approval(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide("valgrind ls", workspace, env, "valgrind ls").verdict is Verdict.ALLOW
    (workspace / ".valgrindrc").write_text("--log-socket=127.0.0.1:5556\n")
    for approval in ("valgrind ls", "valgrind"):
        decision = decide("valgrind ls", workspace, env, approval)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert ".valgrindrc" in decision.explain()


def test_eb5_a_home_valgrindrc_that_leads_into_the_workspace_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "rc").write_text("--log-socket=127.0.0.1:5556\n")
    (tmp_path / "home" / ".valgrindrc").symlink_to(workspace / "rc")
    decision = decide("valgrind ls", workspace, env, "valgrind ls")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_eb5_valgrind_opts_asks_under_approval(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    env = env_beside(tmp_path, VALGRIND_OPTS="--log-socket=127.0.0.1:5556")
    decision = decide("valgrind ls", workspace, env, "valgrind ls")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    "line",
    [
        "echo --log-socket=127.0.0.1:1 > .valgrindrc; valgrind ls",
        "echo --log-socket=127.0.0.1:1 | tee .valgrindrc && valgrind ls",
        "cp rc sub/.valgrindrc",
    ],
)
def test_eb5_writing_a_valgrindrc_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    (workspace / "rc").write_text("x\n")
    decision = decide(line, workspace, env, "valgrind ls", "echo", "tee", "cp")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_eb5_the_real_valgrind_reads_the_working_folders_rc(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / ".valgrindrc").write_text(f"--log-file={workspace}/vlog.txt\n")
    subprocess.run(
        ["valgrind", "--tool=none", "true"], cwd=workspace, env=env, capture_output=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert (workspace / "vlog.txt").exists()


# -- EB9: ninja's job limits get the line's exact rule ----------------------------------------


@pytest.mark.parametrize(
    ("line", "suggested"),
    [
        ("ninja", "ninja $"),
        ("ninja all", "ninja all"),
        ("ninja -j4", "ninja -j4 $"),
        ("ninja -j 4", "ninja -j 4 $"),
        ("ninja -j4 all", "ninja -j4 all $"),
        ("ninja -l 2 -j8 all", "ninja -l 2 -j8 all $"),
        ("ninja -k 0", "ninja -k 0 $"),
        ("ninja -k0 -j8 all", "ninja -k0 -j8 all $"),
        ("ninja -t clean", None),
        ("ninja -j4 -t clean", None),
        ("ninja -t browse --port=8000", None),
        ("ninja -C sub", None),
        ("make -j4", "make -j4 $"),
        ("make -k build", None),
    ],
)
def test_eb9_ninja_job_limits_get_an_exact_suggestion(
    tmp_path: Path, line: str, suggested: str | None
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == suggested


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ninja -j4", Verdict.ALLOW),
        ("ninja -j8", Verdict.ASK),
        ("ninja -j4 all", Verdict.ASK),
        ("ninja -t clean", Verdict.ASK),
        ("ninja -j4 -t browse", Verdict.ASK),
    ],
)
def test_eb9_the_exact_approval_covers_that_line_only(
    tmp_path: Path, line: str, expected: Verdict
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "ninja -j4 $")
    assert decision.verdict is expected, decision.explain()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ninja all", Verdict.ALLOW),
        ("ninja all -j4", Verdict.ALLOW),
        ("ninja all test", Verdict.ASK),
        ("ninja all -t clean", Verdict.ASK),
        ("ninja all -t browse", Verdict.ASK),
    ],
)
def test_eb9_a_targets_approval_covers_no_tool(
    tmp_path: Path, line: str, expected: Verdict
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "ninja all")
    assert decision.verdict is expected, decision.explain()


# -- EB7: a runner's command judged for a deny ------------------------------------------------

_RUNNER_DENIES = [
    'strace bash -c "cat $HOME/.ssh/id_rsa"',
    'strace -- bash -c "cat $HOME/.ssh/id_rsa"',
    'strace -f sh -c "cat ~/.ssh/id_rsa $X"',
    'setpriv --nnp bash -c "cat $HOME/.ssh/id_rsa"',
    "strace --summary cat .env",
    "strace --tips cat .env",
    "strace --argv0 x cat .env",
    "strace --quiet=all cat .env",
    "strace --trace-fds=1 cat .env",
    "strace --secontext cat .env",
    "strace --timestamps cat .env",
    "strace --pidns-translation cat .env",
    "strace --always-show-pid cat .env",
    "setpriv --landlock-access fs cat .env",
    "setpriv --seccomp-filter x cat .env",
    "setpriv --ptracer any cat .env",
    "systemd-run --json=short cat .env",
    "systemd-run --expand-environment=no cat .env",
    "systemd-run --shell-prompt-prefix=x cat .env",
    "valgrind --vex-iropt-level=0 cat .env",
    # valgrind takes every word that starts with `-` as its own (a tool's options too):
    # one it does not know stops it, so a deny there costs nothing
    "valgrind --tool=massif --massif-out-file=m.out cat .env",
    "valgrind --weird=1 cat .env",
]


@pytest.mark.parametrize("line", _RUNNER_DENIES)
def test_eb7_a_runners_command_keeps_its_deny(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line", ['strace bash -c "cd $P && ls"', "strace --summary ls", 'strace sh -c "$CMD"']
)
def test_eb7_ordinary_runner_lines_still_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
