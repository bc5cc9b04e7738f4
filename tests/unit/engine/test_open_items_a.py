"""Open items left by earlier sessions (fixer brief A): a loop's deny kept through `eval`
(a literal `eval`'s code is read, so the word `eval` no longer makes the loop's variable
unknowable); the wrappers the analyser sees through (DX6's runners, each with its own
options); `make -j4`'s suggested rule; `python -m policylang` run from the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env`, beside a fake home with `~/.ssh/id_rsa`."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("TOKEN=1\n")
    (workspace / "README").write_text("hi\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("key\n")
    return workspace, env_beside(tmp_path)


# -- 1. a loop's deny through eval, bash -c, sh -c, a subshell, a substitution --------------

_LOOPS = [
    'for f in ~/.ssh/*; do cat "$f"; done',
    'for f in ~/.aws/*; do cat "$f"; done',
    'for f in .env*; do cat "$f"; done',
    'for f in ~/.bashrc .env; do cat "$f"; done',
    'for f in ~/.ssh/id_rsa; do cat "$f"; done',
]
_WRAPS = [
    "{}",
    "eval '{}'",
    "eval -- '{}'",
    "command eval '{}'",
    "builtin eval '{}'",
    "bash -c '{}'",
    "sh -c '{}'",
    "( {} )",
    "echo $( {} )",
    "x=$(eval '{}')",
    "bash -c \"eval '{escaped}'\"",
]


def _wrapped(wrap: str, loop: str) -> str:
    """`loop` written into `wrap` (`{escaped}`: escaped for double quotes)."""
    escaped = loop.replace("$", "\\$").replace('"', '\\"')
    return wrap.replace("{escaped}", escaped).replace("{}", loop)


@pytest.mark.parametrize("wrap", _WRAPS)
@pytest.mark.parametrize("loop", _LOOPS)
def test_a1_a_loops_deny_holds_when_wrapped(tmp_path: Path, loop: str, wrap: str) -> None:
    workspace, env = _workspace(tmp_path)
    line = _wrapped(wrap, loop)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        'eval \'for f in README; do cat "$f"; done\'',
        "eval for f in README\\; do cat '\"$f\"'\\; done",
    ],
)
def test_a1_a_harmless_loop_through_eval_is_allowed(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    [
        # the variable is set again inside the loop, where the eval's code says so
        'for f in README; do eval f\\=.env; cat "$f"; done',
        "eval 'for f in README; do f=.env; cat \"$f\"; done'",
        "eval 'for f in README; do eval f\\=.env; cat \"$f\"; done'",
        "eval 'for f in README; do read f; cat \"$f\"; done'",
        'for f in README; do eval "$x"; cat "$f"; done',
        'trap f\\=.env DEBUG; for f in README; do cat "$f"; done',
        "eval 'trap f\\=.env DEBUG'; for f in README; do cat \"$f\"; done",
        'for f in README; do eval $(printf f=.env); cat "$f"; done',
    ],
)
def test_a1_a_loop_variable_set_again_is_not_trusted(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert "engine.unknown-path" in decision.explain(), decision.explain()


# -- 2. wrappers and runners: a deny of the command they run holds ---------------------------

# the analyser's wrappers (seen through) and the runners read through `RUNNER_WRAPPERS`
# (not seen through: the command is judged for a deny only), each with options that take
# a value before the command
_WRAPPERS = [
    "time -p", "command", "builtin", "exec", "nohup", "nice -n 5", "stdbuf -oL", "setsid -w",
    "chroot /", "sudo -u root", "doas -u root", "timeout -s KILL 5", "env -u X", "ionice -c 3",
    "chrt -o 0", "taskset 1", "flock /tmp/lock", "watch -n 5", "watch -x",
    "setpriv --reuid 1000 --clear-groups", "setpriv --reuid=1000", "strace",
    "strace -f -o /tmp/out -e trace=open -s 99", "strace -E A=1 -u nobody",
    "nsenter -t 1 -m -u", "nsenter -m/proc/1/ns/mnt -S 0", "unshare -r --propagation private",
    "unshare -m -U", "prlimit --nofile=10 -n5 -p 1", "setarch x86_64 -R", "setarch i686",
    "linux32 -R", "linux64", "i386", "x86_64 -v", "systemd-run --user -p A=b --wait",
    "systemd-run -E X=1 -u u", "valgrind", "valgrind --tool=none --log-file=vg.log -q",
    "strace nice -n 5",
]  # fmt: skip


@pytest.mark.parametrize("command", ["cat .env", "rm -rf ~", "cat ~/.ssh/id_rsa"])
@pytest.mark.parametrize("wrapper", _WRAPPERS)
def test_a2_a_wrappers_command_keeps_its_deny(tmp_path: Path, wrapper: str, command: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(command, workspace, env).verdict is Verdict.DENY
    decision = decide(f"{wrapper} {command}", workspace, env)
    assert decision.verdict is Verdict.DENY, (wrapper, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        "script -qc 'cat .env' /dev/null",
        "script out.log -c 'rm -rf ~'",
        "script --command='cat ~/.ssh/id_rsa'",
        "watch rm -rf ~",
        "watch -n 5 cat ~/.ssh/id_rsa",
        "eval rm -rf ~",
        "eval cat ~/.ssh/id_rsa",
        'bash -c "rm -rf $HOME"',
        'sh -c "cat $HOME/.ssh/id_rsa"',
    ],
)
def test_a2_a_string_a_wrapper_runs_keeps_its_deny(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line",
    [
        "strace ls",
        "strace -f ls build",
        "setpriv --reuid=1000 ls",
        "valgrind ls",
        "nsenter -t 1 -m ls",
        "script -qc ls /dev/null",
        "systemd-run --user ls",
        # an option that is not known hides the command: it asks, unread
        # (valgrind's every `-` word is its own, known or not: review EB7, there denied)
        "strace --no-such-option cat .env",
    ],
)
def test_a2_a_runners_use_still_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("command", ["ls build", "make build", "cat README"])
@pytest.mark.parametrize("wrapper", [w for w in _WRAPPERS if "sudo" not in w and "doas" not in w])
def test_a2_a_suggestion_is_never_the_bare_wrapper(
    tmp_path: Path, wrapper: str, command: str
) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "build").mkdir()
    decision = decide(f"{wrapper} {command}", workspace, env)
    name = wrapper.split()[0]
    if decision.suggested_rule is not None:
        assert decision.suggested_rule.split() != [name], decision.suggested_rule


def test_a2_a_runner_approved_still_runs_its_command_judged(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide("strace ls", workspace, env, "strace").verdict is Verdict.ALLOW
    assert decide("strace cat .env", workspace, env, "strace").verdict is Verdict.DENY


# -- 3. make's job limits: an exact suggestion, never bare `make` ----------------------------


@pytest.mark.parametrize(
    ("line", "suggested"),
    [
        ("make", "make $"),
        ("make build", "make build"),
        ("make build -j4", "make build"),
        ("make -j4", "make -j4 $"),
        ("make -j 4", "make -j 4 $"),
        ("make --jobs=4", "make --jobs=4 $"),
        ("make -j", "make -j $"),
        ("make -j4 build", "make -j4 build $"),
        ("make -j 4 build", "make -j 4 build $"),
        ("make --jobs=4 build", "make --jobs=4 build $"),
        ("make -l 2.5 -j8 test", "make -l 2.5 -j8 test $"),
        ("gmake -j4 all", "gmake -j4 all $"),
        # any other option still hides what follows: nothing to offer
        ("make -j4 -f x.mk build", None),
        ("make -j4 -C sub", None),
        ("make -k build", None),
    ],
)
def test_a3_make_job_limits_get_an_exact_suggestion(
    tmp_path: Path, line: str, suggested: str | None
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == suggested


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("make -j4 build", Verdict.ALLOW),
        ("make -j4 build deploy", Verdict.ASK),
        ("make -j4 deploy", Verdict.ASK),
        ("make -j8 build", Verdict.ASK),
        ("make -j4 build -f evil.mk", Verdict.ASK),
    ],
)
def test_a3_the_exact_approval_covers_that_line_only(
    tmp_path: Path, line: str, expected: Verdict
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "make -j4 build $")
    assert decision.verdict is expected, decision.explain()


# -- 4. `python -m policylang` run from the workspace ----------------------------------------


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("python3 -m policylang eval ls", None),
        ("python -m policylang check x.policy", None),
        ("python3 -m policylang eval ls", "python3 -m policylang eval"),
        ("python3 -m policylang --help", "python3 -m policylang"),
        ("python3 -m policylang --help", "python3 -m policylang --help"),
    ],
)
def test_a4_python_m_policylang_from_a_workspace_that_shadows_it_asks(
    tmp_path: Path, line: str, approval: str | None
) -> None:
    # a `policylang/` folder in the working folder is what `python -m` imports first
    workspace, env = _workspace(tmp_path)
    (workspace / "policylang").mkdir()
    (workspace / "policylang" / "__main__.py").write_text("print('workspace code')\n")
    decision = decide(line, workspace, env, *([approval] if approval else []))
    assert decision.verdict is Verdict.ASK, decision.explain()
