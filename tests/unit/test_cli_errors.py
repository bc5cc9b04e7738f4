"""Bad input to the command line gets one clear line and the documented exit status
(review AR13): program name, the file, the subcommand's own usage; every bad table row."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from policylang.cli.main import main

TINY = 'policy "t" version "1"\ndefault ask\n'


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err


def test_eval_names_a_policy_it_cannot_read(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    missing = tmp_path / "nope.policy"
    assert main(["eval", "--policy", str(missing), "ls"]) == 1
    err = _err(capsys)
    assert err == f"policylang: cannot read {missing}: No such file or directory\n"


def test_eval_names_the_layer_that_is_not_utf8(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """review FK7: the first layer was named for a later one that is not UTF-8."""
    first = tmp_path / "first.policy"
    first.write_text(TINY)
    broken = tmp_path / "broken.policy"
    broken.write_bytes(b"\xff allow ls\n")
    assert main(["eval", "--policy", str(first), "--policy", str(broken), "ls"]) == 1
    err = _err(capsys)
    assert str(broken) in err
    assert str(first) not in err


def test_test_names_a_policy_it_cannot_read(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    missing = tmp_path / "nope.policy"
    assert main(["test", str(missing)]) == 1
    assert f"{missing}: cannot read: No such file or directory" in _err(capsys)


def test_a_missing_case_table_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    policy = tmp_path / "t.policy"
    policy.write_text(TINY)
    assert main(["test", str(policy), "--cases", str(tmp_path / "nope.tsv")]) == 2
    assert "policylang test: cannot read case table" in _err(capsys)


def test_every_bad_case_row_is_reported(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    policy = tmp_path / "t.policy"
    policy.write_text(TINY)
    table = tmp_path / "cases.tsv"
    table.write_text("command\tverdict\nls\tdenny\nls\nls\task\tforever\nls\task\n")
    assert main(["test", str(policy), "--cases", str(table)]) == 2
    err = _err(capsys).splitlines()
    assert err == [
        f"{table}:2: unknown verdict 'denny'",
        f"{table}:3: expected `command<TAB>verdict`, got 'ls'",
        f"{table}:4: unknown retention 'forever'",
    ]


@pytest.mark.parametrize("name", ["eval", "explain", "check", "test", "run", "fuzz"])
def test_an_unknown_option_shows_the_subcommands_usage(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    with pytest.raises(SystemExit) as exc:
        main([name, "--bogus", "x"])
    assert exc.value.code == 2
    err = _err(capsys)
    assert err.startswith(f"usage: policylang {name} ")
    assert f"policylang {name}: error: unrecognized arguments: --bogus" in err


def test_eval_wants_a_command_or_jsonl_not_both(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--jsonl", "ls"]) == 2
    assert "give COMMAND or --jsonl, not both" in _err(capsys)
    assert main(["eval"]) == 2
    assert "give a COMMAND, or --jsonl" in _err(capsys)


def test_bad_jsonl_lines_say_what_is_wrong(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"cmd": "ls"}\n[1, 2]\n{"command": 3}\n'))
    assert main(["eval", "--jsonl", "--jobs", "1"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["error"] for row in rows] == [
        "bad input line: no string `command`",
        "bad input line: a line must be a JSON object",
        "bad input line: no string `command`",
    ]


def test_a_missing_approvals_file_is_named(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    assert main(["eval", "--approvals", str(tmp_path / "nope.toml"), "ls"]) == 0
    err = _err(capsys)
    assert "warning: approvals file" in err
    assert "does not exist; no approval is honoured" in err


def test_out_of_range_numbers_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--cache", "-1", "ls"]) == 2
    assert "--cache must be 0" in _err(capsys)
    for timeout in ("9999", "0", "nan", "soon"):
        with pytest.raises(SystemExit) as exc:
            main(["run", "--timeout", timeout, "--", "true"])
        assert exc.value.code == 2
        assert "--timeout" in _err(capsys)


def test_parse_lists_each_problem_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "echo 'x"]) == 1
    out = capsys.readouterr().out
    assert out.count("shell.syntax-error") == 1


def test_a_binary_or_odd_case_table_is_reported_not_raised(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """review AX7: a table that is not UTF-8 ended in a traceback; a bare `\\r` split a
    row in two. (An empty command is a case: the empty line.)"""
    policy = tmp_path / "t.policy"
    policy.write_text(TINY)
    binary = tmp_path / "binary.tsv"
    binary.write_bytes(b"ls\tallow\n\xff\xfe\x00junk\n")
    assert main(["test", str(policy), "--cases", str(binary)]) == 2
    err = _err(capsys)
    assert "cannot read case table" in err
    assert "not UTF-8" in err
    assert "Traceback" not in err
    table = tmp_path / "cases.tsv"
    table.write_text("ls\rx\tdenny\r\n\tallow\n", newline="")
    assert main(["test", str(policy), "--cases", str(table)]) == 2
    assert _err(capsys).splitlines() == [f"{table}:1: unknown verdict 'denny'"]
