"""Review IC (fixer CM): `snap run SNAP.APP ARGS` runs the snap's app, and was offered bare
`snap run`, which then allowed `snap run lxd.lxc launch … security.privileged=true` and
`snap run node /tmp/x.js` (IC3); lxc's option before its verb offered the line exactly where
the line without it is offered nothing (IC5); an empty word where lxc's verb stands offered
bare `lxc` (IC6). snap and lxc are not installed here: their readings follow snapd's
`snap run --help` (go-flags, options stop at the app) and lxc's cobra."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import judge

from policylang import Verdict
from policylang.shell.parse import parse_command


@pytest.mark.parametrize(
    ("line", "inner"),
    [
        ("snap run lxd.lxc list", ["lxd.lxc", "list"]),
        ("snap run node --version", ["node", "--version"]),
        ("/usr/bin/snap run --debug-log -- lxd", ["lxd"]),
        ("snap run --shell node x.js", ["node", "x.js"]),
    ],
)
def test_ic3_snap_run_seen_through(line: str, inner: list[str]) -> None:
    seg = parse_command(line).segments[0]
    assert seg.wrapped is not None, line
    assert [w.value for w in seg.command_words] == inner


@pytest.mark.parametrize(
    "line",
    [
        "snap run lxd.lxc launch img c -c security.privileged=true",
        "snap run lxd.lxc config trust add",
        "snap run node /tmp/x.js",
        "snap run kubectl apply -f x.yaml",
        "snap run lxd.lxc exec c -- bash",
    ],
)
@pytest.mark.parametrize("approval", ["snap run", "snap"])
def test_ic3_snap_run_approval_covers_no_app(tmp_path: Path, line: str, approval: str) -> None:
    assert judge(line, tmp_path, approval).verdict is not Verdict.ALLOW, line


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("snap run lxd.lxc list", "lxd.lxc list"),
        ("snap run node /tmp/x.js", "node /tmp/x.js"),
        ("snap run kubectl apply -f x.yaml", "kubectl apply"),
        ("snap run lxd", "lxd"),
        ("snap run lxd.lxc launch img c -c security.privileged=true", None),
    ],
)
def test_ic3_snap_run_offered_as_its_app(tmp_path: Path, line: str, offered: str | None) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is not Verdict.ALLOW, line
    assert decision.suggested_rule == offered, decision.suggested_rule
    assert judge(line.removeprefix("snap run "), tmp_path).suggested_rule == offered


def test_ic3_snap_run_judged_as_its_app(tmp_path: Path) -> None:
    # `node --version` is allowed: so is the snap's node run with it, and no wider
    assert judge("node --version", tmp_path).verdict is Verdict.ALLOW
    assert judge("snap run node --version", tmp_path).verdict is Verdict.ALLOW
    assert judge("snap run rm -rf /", tmp_path).verdict is Verdict.DENY
    assert judge("snap run sudo ls", tmp_path).verdict is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    [
        "snap run --shell node --version",
        "snap run --gdb node --version",
        "snap run --gdbserver node --version",
        "snap run --experimental-gdbserver=:1 node --version",
        "snap run --strace node --version",
        "snap run --strace='-e trace=all' node --version",
        "snap run --timer='00:00' node --version",
        "snap run --hook=configure node",
        "snap run --command=reload node",
        "snap run -r 3 node --version",
        "snap run --unknown node --version",
        "snap run $APP --version",
        "snap run",
    ],
)
def test_ic3_snap_run_options_that_run_something_else_ask(tmp_path: Path, line: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, (line, decision.explain())
    assert decision.suggested_rule is None, decision.suggested_rule


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("snap list", "snap list"),
        ("snap info core", "snap info"),
        ("snap install x", "snap install"),
        ("snap refresh", "snap refresh"),
    ],
)
def test_ic3_other_snap_verbs_keep_their_verdicts(
    tmp_path: Path, line: str, offered: str
) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, line
    assert decision.suggested_rule == offered
    assert parse_command(line).segments[0].wrapped is None


@pytest.mark.parametrize(
    "line",
    [
        "lxc -q exec c -- bash",
        'lxc "-q" exec c -- bash',
        "lxc --project p exec c -- bash",
        # old lxc's `-d` is `--debug`: this may be `exec c -- ls` or `c -- ls`, and the
        # latter is offered nothing
        "lxc -d exec c -- ls",
    ],
)
def test_ic5_option_first_offered_only_as_the_plain_line(tmp_path: Path, line: str) -> None:
    assert judge("lxc exec c -- bash", tmp_path).suggested_rule is None
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, line
    assert decision.suggested_rule is None, decision.suggested_rule


@pytest.mark.parametrize(
    "line",
    ["lxc '' list", 'lxc "" launch img c', "incus '' list", "lxd.lxc '' list",
     "lxc --project p '' list", "lxc ''"],
)  # fmt: skip
def test_ic6_empty_verb_offered_nothing(tmp_path: Path, line: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, line
    assert decision.suggested_rule is None, decision.suggested_rule


@pytest.mark.parametrize("line", ["lxc", "incus"])
def test_ic6_bare_lxc_offered_exactly(tmp_path: Path, line: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.suggested_rule == f"{line} $", decision.suggested_rule
    for other in ("delete -f c", "exec c -- bash"):
        assert judge(f"{line} {other}", tmp_path, decision.suggested_rule).verdict is Verdict.ASK


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("lxc list", "lxc list"),
        ("lxc --project p launch img c", "lxc --project p launch img c $"),
        ("lxc -q exec c -- ls", "lxc -q exec c -- ls $"),
        ("lxc exec c -- ls", "lxc exec"),
        ("lxc launch img c", "lxc launch"),
    ],
)
def test_ic_guard_lxc_offers_kept(tmp_path: Path, line: str, offered: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, line
    assert decision.suggested_rule == offered, decision.suggested_rule
    assert judge(line, tmp_path, offered).verdict is Verdict.ALLOW, line
