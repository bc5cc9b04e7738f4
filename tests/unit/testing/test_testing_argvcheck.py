"""The argv oracle runs lines in a real bash inside bubblewrap and logs what they run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from policylang.testing import argvcheck
from policylang.testing.argvcheck import (
    differential,
    executed,
    executed_argvs,
    soup_lines,
    uncovered,
    unexpected_files,
)

pytestmark = pytest.mark.skipif(
    shutil.which("bwrap") is None or shutil.which("bash") is None,
    reason="needs bubblewrap and bash (scripts/system-deps.sh installs them)",
)


def test_each_command_bash_runs_is_logged_on_both_sides_of_and_or() -> None:
    ran = executed_argvs(["echo hi $((1+2))", "true && ls -l || cat x", "exit 3"])
    assert ran[0] == (("echo", "hi", "3"), ("echo", "hi", "3"))
    # first with every command succeeding, then failing
    assert ran[1] == (("true",), ("ls", "-l"), ("true",), ("cat", "x"))
    assert ran[2] == ()


def test_a_run_that_does_not_end_has_no_argvs() -> None:
    assert executed_argvs(["while :; do :; done", "echo after"]) == (None, (("echo", "after"),) * 2)


def test_commands_inside_substitutions_and_unknown_names_are_logged() -> None:
    (ran,) = executed_argvs(["echo $(date -u) `pwd`; frobnicate --x"])
    assert ran is not None
    assert ("date", "-u") in ran
    assert ("pwd",) in ran
    assert ("frobnicate", "--x") in ran


def test_the_lines_cannot_write_outside_their_sandbox(tmp_path: Path) -> None:
    target = tmp_path / "written"
    (ran,) = executed_argvs([f"echo x > {target}; echo y >> /etc/policylang-argvcheck"])
    assert ran is not None
    assert not target.exists()
    assert not Path("/etc/policylang-argvcheck").exists()


def test_uncovered_lists_what_the_model_does_not_hold() -> None:
    assert uncovered("echo $x b", [("echo", "1", "2", "b"), ("echo", "b")]) == []
    assert uncovered("echo a", [("echo", "a"), ("rm", "-rf", "/")]) == [("rm", "-rf", "/")]
    # wrapped commands and nested lines are part of the model
    line = "timeout 5 ls a $(date)"
    assert uncovered(line, [("date",), ("ls", "a", "d1", "d2"), ("timeout", "5", "ls", "a")]) == []
    assert uncovered(line, [("date",), ("ls", "x")]) == [("ls", "x")]


def test_without_bubblewrap_nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(argvcheck.shutil, "which", lambda _name: None)
    with pytest.raises(argvcheck.SandboxUnavailableError, match="bubblewrap"):
        executed_argvs(["echo hi"])


def test_soup_lines_are_reproducible() -> None:
    assert soup_lines(7, 50) == soup_lines(7, 50)
    assert soup_lines(7, 50) != soup_lines(8, 50)
    assert all(line.strip() for line in soup_lines(7, 50))


def test_the_files_a_line_makes_in_its_folder_are_listed() -> None:
    runs = executed(["echo x > a; echo y >> ./b 2>c", "echo hi >/dev/null", "cat \\ 2>d"])
    assert [None if run is None else sorted(run.files) for run in runs] == [
        ["a", "b", "c"],
        [],
        ["d"],
    ]


def test_a_file_no_redirect_of_the_model_names_is_unexpected() -> None:
    assert unexpected_files("echo x > a; echo y >> ./b", ["a", "b"]) == []
    assert unexpected_files("echo x > a", ["a", "x"]) == ["x"]
    assert unexpected_files("echo x > $v", ["anything"]) == []  # a target not known


def test_a_line_writing_a_file_the_model_misses_is_a_finding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an analyser that lost the redirect (the model of `echo x` for `echo x > a`): bash
    # made `a`, which the model does not name
    from policylang.decision import Decision, Verdict
    from policylang.shell.parse import parse_command

    def allow(line: str) -> Decision:
        return Decision(command=line, verdict=Verdict.ALLOW, retention=None, concurrency_safe=True)

    assert differential(allow, ["echo x > a"]) == []
    monkeypatch.setattr(argvcheck, "parse_command", lambda text: parse_command("echo x"))
    assert differential(allow, ["echo x > a"]) == [("echo x > a", [(">", "a")])]


def test_differential_runs_its_lines_in_batches_and_keeps_their_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a sweep's tens of thousands of lines go to the sandbox in batches, each with its own
    # time limit; the findings still belong to their own lines
    from policylang.decision import Decision, Verdict

    calls: list[int] = []
    real = argvcheck.executed

    def counted(lines: list[str], **kwargs: float) -> tuple[argvcheck.Run | None, ...]:
        calls.append(len(lines))
        return real(lines)

    def allow(line: str) -> Decision:
        return Decision(command=line, verdict=Verdict.ALLOW, retention=None, concurrency_safe=True)

    monkeypatch.setattr(argvcheck, "_BATCH", 2)
    monkeypatch.setattr(argvcheck, "executed", counted)
    lines = ["echo a", "LC_ALL=C\\\necho rm x", "ls", "echo b", "x=1\\\necho touch y"]
    found = differential(allow, lines)
    assert calls == [2, 2, 1]
    assert [line for line, _missing in found] == [lines[1], lines[4]]
    assert set(found[0][1]) == {("rm", "x")}


def test_an_array_operand_of_a_shadowed_declaration_is_logged_as_its_name() -> None:
    # bash reads `NAME=(…)` after `export` as an array assignment even when `export` is
    # the prelude's logging function, which then receives only `NAME`
    (ran,) = executed_argvs(["export LC_X=(a b) y"])
    assert ran == (("export", "LC_X", "y"),) * 2
    assert uncovered("export LC_X=(a b) y", ran) == []
    assert uncovered("export LC_X=(a b) y", [("export", "LC_Y", "y")]) == [("export", "LC_Y", "y")]


def test_mutated_lines_put_one_character_into_a_base_line() -> None:
    from policylang.testing.argvcheck import _INSERTS, _MUTATION_BASES, mutated_lines

    lines = mutated_lines(3, 200)
    assert lines == mutated_lines(3, 200)
    assert lines != mutated_lines(4, 200)
    assert len(set(lines)) == 200
    for line in lines:
        assert any(
            line in (base[:at] + insert + base[at:], base[:at] + insert + base[at + 1 :])
            for base in _MUTATION_BASES
            for insert in _INSERTS
            for at in range(len(base) + 1)
        ), line
    # every insertion and replacement at every position, when asked for more than there are
    everything = mutated_lines(3, 10**9)
    assert "cat <<E\nx $(date)\nE\n\\\n" in everything
    assert "#cat <<E\nx $(date)\nE\n" in everything
    assert 'LC_X=$(ls)\\\necho "$LC_X"' in everything  # the blank replaced
    assert "#at <<E\nx $(date)\nE\n" in everything
    assert "cat <<E\nx $(date)\nE\n" not in everything  # a character replaced by itself


def test_mutated_lines_also_start_from_the_soup_lines_a_policy_allows() -> None:
    from policylang.decision import Decision, Verdict
    from policylang.testing.argvcheck import mutated_lines

    soup = soup_lines(5, 3000)

    def allow_first(line: str) -> Decision:
        verdict = Verdict.ALLOW if line == soup[0] else Verdict.DENY
        return Decision(command=line, verdict=verdict, retention=None, concurrency_safe=True)

    lines = mutated_lines(5, 10**9, allow_first)
    assert ";" + soup[0] in lines
    assert len(lines) > len(mutated_lines(5, 10**9))


def test_an_argument_holding_the_logs_separators_is_compared_by_name() -> None:
    # `$'\c='` is the byte 0x1d the log writes for a newline, `$'\c>'` its record end: the
    # words of such a command cannot be read back, so only its name is compared
    lines = ["test $'\\c=[' -- 2", "test $'\\c>['", "echo ok"]
    ran = executed_argvs(lines)
    assert set(ran[0] or ()) == {("test", "<separator-bytes>")}
    assert set(ran[2] or ()) == {("echo", "ok")}
    for line, argvs in zip(lines, ran, strict=True):
        assert argvs is not None
        assert uncovered(line, argvs) == [], line
    assert uncovered("echo x", [("test", "<separator-bytes>")]) == [("test", "<separator-bytes>")]
