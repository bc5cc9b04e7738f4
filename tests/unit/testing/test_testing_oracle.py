"""The dynamic read-only oracle: a few known commands, run for real inside bubblewrap.

Every command here runs in the oracle's sandbox (read-only scratch workspace and home,
no network, no capabilities) under strace; nothing runs outside it.
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from policylang.decision import Decision, Retention, SegmentDecision, Verdict
from policylang.errors import SandboxUnavailableError
from policylang.testing import bashcheck
from policylang.testing import oracle as oracle_mod
from policylang.testing._probes import PROBES
from policylang.testing._trace import Effect, Event
from policylang.testing.oracle import (
    Labels,
    Oracle,
    by_program,
    check_labels,
    check_policy,
    interleave,
    option_probes,
    sandbox_argv,
)

DEFAULT = Path(__file__).resolve().parents[3] / "policylang" / "rulesets" / "default.policy"


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    with Oracle(timeout_s=5.0) as sandbox:
        yield sandbox


def _toy(command: str) -> Decision:
    """Deliberately wrong labels: `ls`, `cat`, `touch` and `sdiff` lines are read-only,
    however written."""
    words = shlex.split(command)
    read_only = bool(words) and words[0] in {"ls", "cat", "touch", "sdiff"}
    verdict = Verdict.ALLOW if read_only else Verdict.ASK
    retention = Retention.REQUERY if read_only else None
    segment = SegmentDecision(text=command, verdict=verdict, read_only=read_only)
    return Decision(command=command, verdict=verdict, retention=retention,
                    concurrency_safe=read_only, segments=(segment,))


def test_a_read_passes(oracle: Oracle) -> None:
    seen = oracle.observe("cat README")
    assert seen.returncode == 0
    assert not seen.timed_out
    assert not seen.flagged, seen.render()


@pytest.mark.parametrize(
    ("command", "target"),
    [
        ("sort -o out file", "/workspace/out"),
        ("git log --output=x", "/workspace/x"),
        ("echo hi > ~/.ssh/authorized_keys", "/home/oracle/.ssh/authorized_keys"),
    ],
)
def test_a_write_is_flagged_even_when_it_fails(oracle: Oracle, command: str,
                                               target: str) -> None:
    seen = oracle.observe(command)
    assert seen.categories == ("write",), seen.render()
    assert target in {e.target for e in seen.flags}
    assert all("EROFS" in e.result for e in seen.flags)  # the mounts are read-only


@pytest.mark.parametrize("command", ["date -s 2020-01-01", "hostname example"])
def test_a_system_change_is_flagged_and_refused(oracle: Oracle, command: str) -> None:
    seen = oracle.observe(command)
    assert seen.categories == ("system",), seen.render()
    assert all("EPERM" in e.result for e in seen.flags)  # no capabilities in the sandbox


def test_tmp_writes_are_seen_but_not_flagged(oracle: Oracle) -> None:
    seen = oracle.observe("echo hi > /tmp/scratch")
    assert not seen.flagged
    assert [e.effect for e in seen.events] == [Effect.TMP_WRITE]


def test_a_socket_is_flagged_and_the_network_is_unreachable(oracle: Oracle) -> None:
    seen = oracle.observe("exec 3<>/dev/tcp/127.0.0.1/9")
    assert seen.categories == ("network",), seen.render()
    assert seen.returncode != 0


def test_exec_outside_the_read_only_set(oracle: Oracle) -> None:
    labels = Labels(_toy)  # `date` on its own is not read-only for the toy
    oracle.read_only_program = labels.program
    try:
        hidden = oracle.observe('x=dat; "${x}e"')  # runs `date` without naming it
        assigned = oracle.observe("x=/usr/bin/date; $x")  # only an assignment names it
        named = oracle.observe("cat README | xargs date")  # named: the labels judged it
        helper = oracle.observe("echo x | sh -c cat")  # a shell: its effects are traced
    finally:
        oracle.read_only_program = lambda _name: True
    assert hidden.categories == ("exec",), hidden.render()
    assert [e.target for e in hidden.flags] == ["/usr/bin/date"]
    assert assigned.categories == ("exec",), assigned.render()
    assert not named.flagged, named.render()
    assert not helper.flagged, helper.render()


def _date_u_toy(command: str) -> Decision:
    """`_toy`, and `date -u` (with that option only) read-only too."""
    if shlex.split(command) == ["date", "-u"]:
        segment = SegmentDecision(text=command, verdict=Verdict.ALLOW, read_only=True)
        return Decision(command=command, verdict=Verdict.ALLOW, retention=Retention.REQUERY,
                        concurrency_safe=True, segments=(segment,))
    return _toy(command)


def test_a_helper_is_judged_by_the_arguments_it_ran_with(oracle: Oracle) -> None:
    # review DY7: `ag` runs `git config -z --path --get core.excludesfile`, which the
    # default ruleset allows read-only, yet `git` alone is not: judged by name only, every
    # `ag` line was flagged
    labels = Labels(_date_u_toy)
    oracle.read_only_program = labels.program
    oracle.read_only_command = labels.read_only
    try:
        read_only = oracle.observe('x=dat; "${x}e" -u')
        other = oracle.observe('x=dat; "${x}e" +%s')
    finally:
        oracle.read_only_program = lambda _name: True
        oracle.read_only_command = None
    assert not read_only.flagged, read_only.render()
    assert other.categories == ("exec",), other.render()
    assert [e.argv for e in other.flags] == [("date", "+%s")]


def test_a_helper_judged_by_its_arguments_must_be_the_systems_program(oracle: Oracle) -> None:
    # review DZ6: a file of that name elsewhere (`/tmp/t/git`, which the command may have
    # written) is not the program the labels judge; an exec of a descriptor (fexecve, a
    # memfd) has no name to judge
    labels = Labels(_date_u_toy)
    oracle.read_only_program = labels.program
    oracle.read_only_command = labels.read_only
    try:
        events = [
            Event(effect=Effect.EXEC, syscall="execve", target="/usr/bin/date",
                  argv=("date", "-u")),
            Event(effect=Effect.EXEC, syscall="execve", target="/tmp/t/date",
                  argv=("date", "-u")),
            Event(effect=Effect.EXEC, syscall="execveat", target="/memfd:x (deleted)/",
                  argv=("date", "-u")),
            Event(effect=Effect.EXEC, syscall="execveat", target="/", argv=("ls",)),
        ]
        flagged = oracle._flags("true", events)
    finally:
        oracle.read_only_program = lambda _name: True
        oracle.read_only_command = None
    assert [e.target for e in flagged] == ["/tmp/t/date", "/memfd:x (deleted)/", "/"]


def test_a_timeout_kills_the_command(tmp_path: Path) -> None:
    with Oracle(timeout_s=0.5) as short:
        seen = short.observe("sleep 30")
    assert seen.timed_out
    assert seen.returncode is None
    assert seen.seconds < 10


def test_a_wrong_toy_ruleset_is_caught(oracle: Oracle) -> None:
    commands = ["ls", "cat README", "touch x", "ls -l > listing.txt", "rm README"]
    report = check_labels(oracle, Labels(_toy), commands, budget_s=60)
    assert report.candidates == 4  # `rm README` is not labelled read-only: never run
    flagged = {o.command: o.categories for o in report.flagged}
    assert flagged == {"touch x": ("write",), "ls -l > listing.txt": ("write",)}
    assert "write: 2 command(s)" in report.render()


def test_the_default_ruleset_on_known_commands() -> None:
    report = check_policy(DEFAULT, commands=["cat README", "ls -la", "sort -o out file"],
                          budget_s=60, timeout_s=5)
    assert report.candidates == 2  # `sort -o` is not labelled read-only
    assert not report.flagged, report.render()


def test_the_sandbox_is_always_confined(tmp_path: Path) -> None:
    argv = sandbox_argv(bwrap="bwrap", workspace=tmp_path, home=tmp_path, trace_dir=tmp_path,
                        inner=["true"])
    for flag in ("--unshare-all", "--die-with-parent", "--clearenv", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert "--share-net" not in argv
    binds = [argv[i + 1:i + 3] for i, a in enumerate(argv) if a == "--bind"]
    assert binds == [[str(tmp_path), "/.oracle-trace"]]  # the one writable bind
    assert argv[argv.index("--") + 1:] == ["true"]


def test_no_bubblewrap_means_refusal(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    with pytest.raises(SandboxUnavailableError, match="bubblewrap"):
        Oracle(bwrap=str(tmp_path / "no-bwrap"))
    assert not marker.exists()


def test_no_strace_means_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    real_which = shutil.which

    def which(name: str) -> str | None:
        return None if name == "strace" else real_which(name)

    monkeypatch.setattr(shutil, "which", which)
    with pytest.raises(SandboxUnavailableError, match="strace"):
        Oracle()


def test_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    clean = oracle_mod.main([str(DEFAULT), "--command", "cat README", "--command", "rm x"])
    out = capsys.readouterr().out
    assert clean == 0
    assert out.startswith("dynamic oracle: 1 of 1 read-only command(s) run")
    # a deliberately wrong ruleset that labels `hostname NAME` read-only (the shipped one asks)
    wrong = tmp_path / "wrong.policy"
    wrong.write_text('policy "wrong" version "1"\ndefault ask\nreadonly hostname ** id bad\n')
    found = oracle_mod.main([str(wrong), "--command", "hostname example"])
    out = capsys.readouterr().out
    assert found == 1
    assert "system: 1 command(s)" in out
    assert "sethostname" in out


def test_probes_are_valid_bash() -> None:
    assert all(bashcheck.syntax_ok(PROBES))


def test_interleaving_samples_every_group() -> None:
    assert interleave([["a1", "a2", "a3"], ["b1"], []]) == ["a1", "b1", "a2", "a3"]
    ordered = by_program(["find a", "find b", "find c", "ls", "cat x", "ls -l"])
    assert ordered[:3] == ["find a", "ls", "cat x"]
    assert sorted(ordered) == sorted(["find a", "find b", "find c", "ls", "cat x", "ls -l"])


def test_option_probes_find_the_option_that_writes(oracle: Oracle) -> None:
    labels = Labels(_toy)
    probes = option_probes(oracle, labels, ["sdiff file1 file2", "rm file"])
    assert "sdiff file1 file2 --output=./oracle-probe" in probes  # read from `sdiff --help`
    assert not [p for p in probes if not p.startswith("sdiff file1 file2 --")]
    report = check_labels(oracle, labels, probes, budget_s=60)
    flagged = {o.command: o.categories for o in report.flagged}
    assert flagged["sdiff file1 file2 --output=./oracle-probe"] == ("write",)
    assert flagged["sdiff file1 file2 --diff-program=./oracle-probe"] == ("exec",)


def test_a_baseline_of_known_findings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # review AR12: a finding accepted on purpose (the shipped ruleset's `top`) failed every
    # run; a baseline names it, with a reason, and only other findings fail
    wrong = tmp_path / "wrong.policy"
    wrong.write_text('policy "wrong" version "1"\ndefault ask\nreadonly mktemp ** id bad\n')
    known = tmp_path / "known.txt"
    known.write_text("# accepted\nwrite /home/oracle/tmp.*  # a scratch file, harmless\n")
    args = [str(wrong), "--command", "mktemp -p /home/oracle", "--known", str(known)]
    assert oracle_mod.main(args) == 0
    out = capsys.readouterr().out
    assert "0 flagged" in out
    assert "known: 1 command(s) flagged only for known findings" in out
    # a write elsewhere in the same command is not covered: it fails
    args[2] = "mktemp -p /home/oracle; mktemp -p /home/oracle/.ssh"
    assert oracle_mod.main(args) == 1
    assert "write: 1 command(s)" in capsys.readouterr().out


@pytest.mark.parametrize(("text", "problem"), [
    ("write /x\n", "say why"),
    ("scribble /x  # why\n", "EFFECT one of"),
    ("write /x /y  # why\n", "expected `EFFECT PATTERN"),
])
def test_a_bad_baseline_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, problem: str
) -> None:
    known = tmp_path / "known.txt"
    known.write_text(text)
    assert oracle_mod.main([str(DEFAULT), "--command", "ls", "--known", str(known)]) == 2
    err = capsys.readouterr().err
    assert f"{known}:1: " in err
    assert problem in err


def test_the_shipped_baseline_reads() -> None:
    baseline = DEFAULT.parents[2] / "fuzz" / "known-findings.txt"
    findings = oracle_mod.read_known(baseline)
    assert findings
    assert all(f.why for f in findings)
