"""`run`: capture, refusal at the boundary, kill semantics, pipes, environment. Real processes."""

from __future__ import annotations

import os
import pathlib
import shlex
import signal
import subprocess
import sys
import time

import pytest

from policylang.decision import ApprovalRecord, ApprovalScope, Retention, Verdict
from policylang.errors import ExecutionRefusedError
from policylang.executor import ExecResult, PlainBackend, run

from .conftest import PY, decision, kill_pid, live_group_members, running, zombie_children


def _run(command: str, cwd: str, **kwargs: object) -> ExecResult:
    return run(command, decision=decision(command), cwd=cwd, **kwargs)  # type: ignore[arg-type]


def _py(code: str) -> str:
    return f"{shlex.quote(PY)} -c {shlex.quote(code)}"


# -- capture -----------------------------------------------------------------------------


def test_exit_code_streams_and_arrival_order(workdir: str) -> None:
    res = _run("echo out1; echo err1 >&2; sleep 0.05; echo out2; exit 3", workdir)
    assert res.exit_code == 3
    assert res.signal is None
    assert not res.timed_out
    assert res.stdout == "out1\nout2\n"
    assert res.stderr == "err1\n"
    assert res.stdout_seen == 10
    assert res.stderr_seen == 5
    assert not res.stdout_truncated
    assert not res.stderr_truncated
    # err1 was written before the sleep and out2 after it, so arrival order is fixed there
    streams = [stream for stream, _ in res.interleaving]
    assert streams.index(2) < len(streams) - 1
    assert streams[-1] == 1
    assert res.duration_ms >= 50
    assert res.failed


def test_runs_in_cwd_with_stdin_from_dev_null(workdir: str) -> None:
    res = _run("pwd; cat; echo end", workdir, timeout_s=5)
    assert res.stdout == f"{os.path.realpath(workdir)}\nend\n"


def test_invalid_utf8_decodes_with_replacement(workdir: str) -> None:
    res = _run(r"printf 'ok\377\376\n'", workdir)
    assert res.stdout_bytes == b"ok\xff\xfe\n"
    assert res.stdout == "ok\ufffd\ufffd\n"


def test_login_shell_only_when_asked(workdir: str) -> None:
    probe = "shopt -q login_shell && echo login || echo plain"
    assert _run(probe, workdir).stdout == "plain\n"
    assert _run(probe, workdir, login=True).stdout.endswith("login\n")


def test_signal_death_is_reported(workdir: str) -> None:
    res = _run(_py("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"), workdir)
    assert res.exit_code is None
    assert res.signal == signal.SIGSEGV
    assert res.signal_name == "SIGSEGV"


@pytest.mark.parametrize(
    ("declared", "command", "final"),
    [
        (Retention.REQUERY, "true", Retention.REQUERY),
        (Retention.REQUERY, "false", Retention.UNCLASSED),
        (Retention.DURABLE, "false", Retention.DURABLE),
        (None, "false", None),
    ],
)
def test_final_retention(workdir: str, declared: Retention | None, command: str,
                         final: Retention | None) -> None:
    res = run(command, decision=decision(command, retention=declared), cwd=workdir)
    assert res.retention is final


# -- refusal at the boundary: nothing is spawned ------------------------------------------


def _marker_command(tmp: pathlib.Path) -> tuple[str, pathlib.Path]:
    marker = tmp / "ran"
    return f"touch {shlex.quote(str(marker))}", marker


def test_ask_without_approval_is_refused_and_never_runs(tmp_path: pathlib.Path) -> None:
    command, marker = _marker_command(tmp_path)
    with pytest.raises(ExecutionRefusedError, match=r"needs approval.*never ran"):
        run(command, decision=decision(command, Verdict.ASK), cwd=str(tmp_path))
    assert not marker.exists()


def test_ask_with_approval_for_another_command_is_refused(tmp_path: pathlib.Path) -> None:
    command, marker = _marker_command(tmp_path)
    other = ApprovalRecord(command="true", scope=ApprovalScope.ONCE)
    with pytest.raises(ExecutionRefusedError, match="different command"):
        run(command, decision=decision(command, Verdict.ASK), cwd=str(tmp_path), approval=other)
    assert not marker.exists()


def test_ask_with_exact_approval_runs(tmp_path: pathlib.Path) -> None:
    command, marker = _marker_command(tmp_path)
    ok = ApprovalRecord(command=command, scope=ApprovalScope.ONCE)
    res = run(command, decision=decision(command, Verdict.ASK, locked=True), cwd=str(tmp_path),
              approval=ok)
    assert res.exit_code == 0
    assert marker.exists()


def test_deny_is_refused_even_with_an_approval(tmp_path: pathlib.Path) -> None:
    command, marker = _marker_command(tmp_path)
    ok = ApprovalRecord(command=command, scope=ApprovalScope.ALWAYS)
    with pytest.raises(ExecutionRefusedError, match="denies"):
        run(command, decision=decision(command, Verdict.DENY), cwd=str(tmp_path), approval=ok)
    assert not marker.exists()


def test_decision_for_a_different_command_is_refused(tmp_path: pathlib.Path) -> None:
    command, marker = _marker_command(tmp_path)
    with pytest.raises(ExecutionRefusedError, match="decision was made for `true`"):
        run(command, decision=decision("true"), cwd=str(tmp_path))
    assert not marker.exists()


def test_missing_cwd_is_refused(tmp_path: pathlib.Path) -> None:
    with pytest.raises(ExecutionRefusedError, match="does not exist"):
        _run("true", str(tmp_path / "nope"))


def test_refusal_is_a_value_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(ValueError, match="never ran"):
        run("true", decision=decision("true", Verdict.DENY), cwd=str(tmp_path))


@pytest.mark.parametrize(
    "kwargs",
    [{"timeout_s": 0}, {"timeout_s": -1}, {"timeout_s": float("nan")},
     {"max_stream_bytes": -1}, {"grace_s": -0.1}, {"drain_s": -1}],
)
def test_bad_numbers_are_value_errors(tmp_path: pathlib.Path, kwargs: dict[str, float]) -> None:
    command, marker = _marker_command(tmp_path)
    with pytest.raises(ValueError, match="must be"):
        _run(command, str(tmp_path), **kwargs)
    assert not marker.exists()


# -- timeouts and the process group --------------------------------------------------------

GRANDCHILD = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print(child.pid, flush=True)
time.sleep(60)
"""


def test_grandchild_dies_at_the_timeout(workdir: str) -> None:
    start = time.monotonic()
    res = _run(_py(GRANDCHILD) + "; echo never", workdir, timeout_s=0.5)
    elapsed = time.monotonic() - start
    assert res.timed_out
    assert elapsed < 10.0  # the deadline, not the 60 s the grandchild would take
    grandchild = int(res.stdout.split()[0])  # printed before the kill, and kept
    assert not running(grandchild)
    assert live_group_members(res.pid) == []
    assert res.retention is Retention.DURABLE


def test_subshells_and_background_jobs_die_at_the_timeout(workdir: str) -> None:
    res = _run("(sleep 60; echo a) & (sleep 61 &) ; echo $! ; sleep 62", workdir, timeout_s=0.3)
    assert res.timed_out
    assert res.stdout.strip().isdigit()
    assert live_group_members(res.pid) == []


def test_sigterm_ignoring_child_is_escalated_to_sigkill(workdir: str) -> None:
    code = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "print('armed', flush=True); time.sleep(60)")
    start = time.monotonic()
    res = _run(_py(code), workdir, timeout_s=0.4, grace_s=0.3)
    elapsed = time.monotonic() - start
    assert res.timed_out
    assert res.signal == signal.SIGKILL
    assert res.stdout == "armed\n"
    assert 0.4 + 0.3 <= elapsed < 10.0  # waited out the grace period, then KILL
    assert live_group_members(res.pid) == []


def test_term_honouring_group_is_not_held_for_the_grace_period(workdir: str) -> None:
    start = time.monotonic()
    res = _run("sleep 60", workdir, timeout_s=0.3, grace_s=5)
    assert res.timed_out
    assert res.signal == signal.SIGTERM
    assert time.monotonic() - start < 4.0  # well under the 5 s grace period


def test_grandchild_ignoring_term_is_killed_after_the_shell_exits(workdir: str) -> None:
    code = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "print('armed', flush=True); time.sleep(60)")
    command = f"{_py(code)} & sleep 60"
    res = _run(command, workdir, timeout_s=0.5, grace_s=0.3)
    assert res.timed_out
    assert live_group_members(res.pid) == []


@pytest.mark.parametrize("trap", ["", "trap '' TERM; "], ids=["plain", "term-ignoring"])
def test_setsid_descendants_die_at_the_timeout(tmp_path: pathlib.Path, trap: str) -> None:
    pidfile = tmp_path / "stray.pid"
    stray = f"{trap}echo $$ > {shlex.quote(str(pidfile))}; sleep 60"
    command = f"setsid bash -c {shlex.quote(stray)} & sleep 60"
    res = _run(command, str(tmp_path), timeout_s=0.5, grace_s=0.2)
    pid = int(pidfile.read_text())
    try:
        assert res.timed_out
        assert not running(pid)  # out of the group, yet found as a descendant and killed
    finally:
        kill_pid(pid)


class _Interrupted(Exception):
    pass


def test_an_exception_mid_run_kills_and_reaps_the_group(workdir: str) -> None:
    def interrupt(signum: int, frame: object) -> None:
        raise _Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(_Interrupted):
            _run(_py(GRANDCHILD), workdir, timeout_s=30, grace_s=0.2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert zombie_children() == []
    mine = [p for p in os.listdir("/proc") if p.isdigit() and _cmdline(p).endswith("sleep(60)")]
    assert mine == []


def _cmdline(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


# -- pipes ---------------------------------------------------------------------------------


def test_stdout_flood_is_capped_and_drained(workdir: str) -> None:
    res = _run("head -c 200M /dev/zero; echo done >&2", workdir, timeout_s=60)
    assert res.exit_code == 0
    assert res.stdout_seen == 200 * 1024 * 1024
    assert len(res.stdout_bytes) == 1_000_000
    assert res.stdout_truncated
    assert res.stderr == "done\n"


FLOOD_RSS = """
import resource, sys
from policylang.decision import Decision, Verdict, Retention
from policylang.executor import run
command = sys.argv[1]
d = Decision(command=command, verdict=Verdict.ALLOW, retention=None, concurrency_safe=True)
run("true", decision=Decision(command="true", verdict=Verdict.ALLOW, retention=None,
    concurrency_safe=True), cwd="/")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
res = run(command, decision=d, cwd="/", timeout_s=60)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(res.stdout_seen, len(res.stdout_bytes), after - before)
"""


def test_stdout_flood_memory_is_bounded() -> None:
    out = subprocess.run([PY, "-c", FLOOD_RSS, "head -c 200M /dev/zero"], capture_output=True,
                         text=True, check=True, timeout=120).stdout.split()
    seen, kept, growth_kib = map(int, out)
    assert seen == 200 * 1024 * 1024
    assert kept == 1_000_000
    assert growth_kib < 32 * 1024  # peak RSS growth under 32 MiB for 200 MiB of output


def test_stderr_flood_does_not_deadlock_while_stdout_is_quiet(workdir: str) -> None:
    res = _run("head -c 20M /dev/urandom >&2; echo finished", workdir, timeout_s=30,
               max_stream_bytes=4096)
    assert not res.timed_out
    assert res.stdout == "finished\n"
    assert res.stderr_seen == 20 * 1024 * 1024
    assert len(res.stderr_bytes) == 4096


def test_capped_stream_keeps_its_head_and_its_tail(workdir: str) -> None:
    res = _run("seq 1 300000", workdir, max_stream_bytes=100_000)
    assert len(res.stdout_bytes) == 100_000
    assert res.stdout_gap_at == 75_000
    assert res.stdout_bytes.startswith(b"1\n2\n3\n")
    assert res.stdout_bytes.endswith(b"\n299999\n300000\n")
    assert res.stdout_omitted == res.stdout_seen - 100_000
    assert res.stdout_seen == len("".join(f"{i}\n" for i in range(1, 300001)))


def test_zero_cap_keeps_nothing_but_counts_everything(workdir: str) -> None:
    res = _run("seq 1 1000", workdir, max_stream_bytes=0)
    assert res.stdout_bytes == b""
    assert res.stdout_seen == len("".join(f"{i}\n" for i in range(1, 1001)))


def test_detached_helper_does_not_hang_the_call(tmp_path: pathlib.Path) -> None:
    pidfile = tmp_path / "helper.pid"
    command = (f"setsid sh -c 'echo $$ > {shlex.quote(str(pidfile))}; exec sleep 60' & "
               "sleep 0.1; echo started")
    start = time.monotonic()
    res = _run(command, str(tmp_path), timeout_s=30, drain_s=0.2)
    try:
        assert time.monotonic() - start < 10.0  # not the 30 s timeout or the helper's 60 s
        assert res.exit_code == 0
        assert not res.timed_out
        assert res.stdout == "started\n"
        helper = int(pidfile.read_text())
        assert running(helper)  # left alone: it finished normally
    finally:
        kill_pid(int(pidfile.read_text()))


def test_background_child_holding_the_pipes_does_not_hang_the_call(workdir: str) -> None:
    start = time.monotonic()
    res = _run("nohup sleep 60 & echo started", workdir, timeout_s=30, drain_s=0.2)
    try:
        assert time.monotonic() - start < 10.0  # not the 30 s timeout or the helper's 60 s
        assert res.stdout == "started\n"
        assert live_group_members(res.pid) != []  # the helper is still there, untouched
    finally:
        os.killpg(res.pid, signal.SIGKILL)


# -- environment -----------------------------------------------------------------------------


def test_secrets_are_invisible_to_printenv(monkeypatch: pytest.MonkeyPatch, workdir: str) -> None:
    secrets = {"OPENAI_API_KEY": "sk-live-1", "GITHUB_TOKEN": "ghp-2", "DB_PASSWORD": "pw-3",
               "AWS_SECRET_ACCESS_KEY": "aws-4", "GOOGLE_APPLICATION_CREDENTIALS": "gc-5",
               "HTTP_AUTHORIZATION": "auth-6"}
    for name, value in secrets.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("UNLISTED_SETTING", "not-allowlisted")
    monkeypatch.setenv("LC_TIME", "C")
    res = _run("printenv", workdir, env={"MODE": "ci", "SERVICE_TOKEN": "added-7"})
    env = dict(line.split("=", 1) for line in res.stdout.splitlines())
    for value in [*secrets.values(), "added-7", "not-allowlisted"]:
        assert value not in res.stdout
    assert env["MODE"] == "ci"
    assert env["LC_TIME"] == "C"
    assert env["PATH"] == os.environ["PATH"]
    assert env["PWD"] == workdir
    assert env["GIT_OPTIONAL_LOCKS"] == "0"
    assert env["LESSHISTFILE"] == "-"  # review BL3: no ~/.lesshst from a pager


def test_git_status_takes_no_index_lock(workdir: str) -> None:
    """A read-only `git status` must not write `.git/index` (it refreshes it by default)."""
    subprocess.run(["git", "init", "-q", workdir], check=True)
    (pathlib.Path(workdir) / "f").write_text("x\n")
    subprocess.run(["git", "-C", workdir, "add", "f"], check=True)
    index = pathlib.Path(workdir) / ".git" / "index"
    os.utime(index, (1_000_000_000, 1_000_000_000))
    (pathlib.Path(workdir) / "f").touch()  # a stat change that would trigger a refresh
    res = _run("git status --short", workdir)
    assert res.exit_code == 0
    assert index.stat().st_mtime == 1_000_000_000


def test_a_secret_passes_only_when_forced_by_name(monkeypatch: pytest.MonkeyPatch,
                                                  workdir: str) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-2")
    res = _run("printenv GITHUB_TOKEN SERVICE_TOKEN", workdir,
               env={"SERVICE_TOKEN": "added-7"}, force_env=("GITHUB_TOKEN", "SERVICE_TOKEN"))
    assert res.stdout == "ghp-2\nadded-7\n"


# -- hygiene -----------------------------------------------------------------------------------


def test_no_zombies_after_a_hundred_runs(workdir: str) -> None:
    for i in range(100):
        command = ["true", "false", "echo x >&2", "sleep 0.01 & echo y"][i % 4]
        _run(command, workdir, drain_s=0.05)
    _run("sleep 5", workdir, timeout_s=0.05)
    assert zombie_children() == []


def test_nothing_is_printed_to_the_host_stdout(capfd: pytest.CaptureFixture[str],
                                               workdir: str) -> None:
    _run("echo loud; echo louder >&2", workdir)
    captured = capfd.readouterr()
    assert captured.out == ""
    assert captured.err == ""


def test_module_imports_only_decision_and_errors() -> None:
    import ast

    root = pathlib.Path(__file__).resolve().parents[3] / "policylang" / "executor"
    # (`policylang._posix`: the `prctl` calls, a leaf that the hooks use without the
    # executor: review DU2)
    allowed = {"policylang.decision", "policylang.errors", "policylang._posix"}
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module
            elif isinstance(node, ast.Import):
                mod = node.names[0].name
            else:
                continue
            if mod.startswith("policylang") and not mod.startswith("policylang.executor"):
                assert mod in allowed, f"{path.name} imports {mod}"
    assert sys.modules["policylang.executor"] is not None


def test_a_login_shell_drops_the_secrets_its_profile_exports(
    workdir: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review AQ3: `~/.profile` re-exported API keys into a command whose environment had
    # been scrubbed, and the policy had judged it without them
    home = tmp_path / "home"
    home.mkdir()
    (home / ".profile").write_text(
        "export GITHUB_TOKEN=ghp_fake\nexport AWS_SECRET_ACCESS_KEY=x\nexport KEEP_KEY=kept\n"
        "export MYVAR=ok\n"
    )
    monkeypatch.setenv("HOME", str(home))
    probe = 'printenv | sort; echo "args:$#:${__c-none}"; shopt -q login_shell && echo login'
    out = _run(probe, workdir, login=True, force_env=("KEEP_KEY",)).stdout
    assert "GITHUB_TOKEN" not in out
    assert "AWS_SECRET_ACCESS_KEY" not in out
    assert "KEEP_KEY=kept" in out  # a name the caller forced through stays
    assert "MYVAR=ok" in out
    assert "args:0:none" in out  # no positional parameter or helper left behind
    assert out.endswith("login\n")


def _login_home(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, profile: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".profile").write_text(profile)
    monkeypatch.setenv("HOME", str(home))


def test_a_login_shell_drops_unexported_and_split_names_too(
    workdir: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review AS6: the command runs in the profile's shell, so a variable set without
    # `export` was readable; `IFS=_` split `GITHUB_TOKEN` into two names; DB_PASS and
    # DATABASE_URL were not secret-looking; a forced lower-case name was dropped
    _login_home(tmp_path, monkeypatch,
                "GITHUB_TOKEN=ghp_unexported\nexport NPM_TOKEN=npm_x; IFS=_\n"
                "export DB_PASS=hunter2\nexport DATABASE_URL=postgres://u:pw@h/db\n"
                "export my_token=forced\nexport MYVAR=ok\n")
    probe = 'echo "unexported=${GITHUB_TOKEN-gone}"; printenv | sort'
    out = _run(probe, workdir, login=True, force_env=("my_token",)).stdout
    assert "unexported=gone" in out
    for leaked in ("npm_x", "hunter2", "pw@h", "ghp_"):
        assert leaked not in out
    assert "my_token=forced" in out
    assert "MYVAR=ok" in out


def test_a_login_shell_drops_bash_env_and_ignores_shadowing_functions(
    workdir: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review AT10: `BASH_ENV` made every child bash read the secrets again; a profile
    # function named `read` or `unset` turned the scrub off
    _login_home(tmp_path, monkeypatch,
                "export BASH_ENV=$HOME/.bashrc\nread() { return 1; }\nunset() { :; }\n"
                "export MYSQL_PWD=pw1 CI_JOB_JWT=jwt1 GH_TOKEN=tok1\n")
    (tmp_path / "home" / ".bashrc").write_text("export OPENAI_API_KEY=sk-from-bashrc\n")
    probe = ('echo "parent=${GH_TOKEN-}${MYSQL_PWD-}${CI_JOB_JWT-}"; '
             'bash -c \'echo "child=${OPENAI_API_KEY-}"\'')
    out = _run(probe, workdir, login=True).stdout
    assert "parent=\n" in out
    assert "child=\n" in out


def test_a_read_only_secret_refuses_the_login_run(
    workdir: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _login_home(tmp_path, monkeypatch, "declare -rx OPENAI_API_KEY=sk-readonly\n")
    res = _run('echo "ran:$OPENAI_API_KEY"', workdir, login=True)
    assert res.exit_code == 126
    assert "sk-readonly" not in res.stdout
    assert "ran:" not in res.stdout
    assert "OPENAI_API_KEY read-only" in res.stderr


def test_a_login_shell_that_is_not_bash_refuses(
    workdir: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _login_home(tmp_path, monkeypatch, "export GITHUB_TOKEN=ghp_x\n")
    # dash is in every Debian (essential); none of the scrub works there
    command = "echo ran; printenv GITHUB_TOKEN"
    res = run(command, decision=decision(command), cwd=workdir, login=True,
              sandbox=PlainBackend(shell="dash"))
    assert res.exit_code == 126
    assert res.stdout == ""
    assert "only under bash" in res.stderr


@pytest.mark.parametrize(("name", "secret"), [
    ("MYSQL_PWD", True), ("CI_JOB_JWT", True), ("AZURE_STORAGE_CONNECTION_STRING", True),
    ("DB_PASS", True), ("DATABASE_URL", True), ("SENTRY_DSN", True),
    # review AU9: `PRIVATE` had dropped GOPRIVATE, which go needs to build
    ("GOPRIVATE", False), ("PWD", False), ("OLDPWD", False), ("PATH", False),
])
def test_secret_looking_names(name: str, secret: bool) -> None:
    from policylang.executor import looks_secret

    assert looks_secret(name) is secret
