from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from policylang.cli import eval_cmd
from policylang.cli.main import main
from policylang.engine.policy import load_policy


def test_eval_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--workspace", "/w", "npm run build"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ask (retention: durable)\n")
    assert "suggested rule: npm run build" in out


def test_eval_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--json", "--workspace", "/w", "sudo ls"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "deny"
    assert data["reasons"][0]["location"].endswith(":1") or data["reasons"][0]["location"]


def test_eval_needs_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval"]) == 2
    assert "give a COMMAND, or --jsonl" in capsys.readouterr().err


def test_eval_bad_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.policy"
    bad.write_text("protectd write ~/.ssh/** deny\n")
    assert main(["eval", "--policy", str(bad), "ls"]) == eval_cmd.EXIT_RULESET_ERROR
    assert "unknown directive" in capsys.readouterr().err
    assert main(["eval", "--policy", str(tmp_path / "missing.policy"), "ls"]) == 1


def test_jsonl_batch_reuses_policy_and_reports_bad_lines() -> None:
    policy = load_policy()
    lines = [
        json.dumps({"command": "git status"}),
        json.dumps({"command": "cat id_rsa", "cwd": "/w/keys", "workspace": "/w"}),
        "not json",
        json.dumps({"cmd": "x"}),
        json.dumps({"command": 3}),
        "",
        json.dumps({"command": "touch x"}),
    ]
    out = io.StringIO()
    count = eval_cmd.batch(policy, io.StringIO("\n".join(lines) + "\n"), out, workspace="/w")
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert count == 3
    # one output row per input row, the blank one included (review BJ4)
    assert len(rows) == len(lines)
    assert [r.get("verdict") for r in rows] == ["allow", "deny", None, None, None, None, "ask"]
    assert rows[5] == {"error": "bad input line: a blank line", "line": ""}
    assert rows[0]["retention"] == "requery"
    assert rows[0]["concurrency_safe"] is True
    assert set(rows[0]) == {
        "command",
        "verdict",
        "retention",
        "concurrency_safe",
        "reasons",
        "suggested_rule",
    }
    assert "bad input line" in rows[2]["error"]
    assert rows[6]["suggested_rule"] == "touch"


def test_a_wrong_typed_folder_or_deep_json_costs_only_its_own_line() -> None:
    # review AO11: one such line ended the whole batch with a traceback
    lines = [
        json.dumps({"command": "ls"}),
        json.dumps({"command": "ls", "cwd": [1]}),
        json.dumps({"command": "ls", "cwd": 5}),
        json.dumps({"command": "ls", "workspace": True}),
        json.dumps({"command": "ls", "cwd": {"a": 1}}),
        json.dumps({"command": "ls", "cwd": "/w\u0000x"}),
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"command": "git status"}),
    ]
    out = io.StringIO()
    count = eval_cmd.batch(load_policy(), io.StringIO("\n".join(lines) + "\n"), out, workspace="/w")
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert count == 2
    assert len(rows) == len(lines)
    assert [r.get("verdict") for r in rows] == ["allow", *[None] * 6, "allow"]
    assert all("bad input line" in r["error"] for r in rows[1:7])


def test_jsonl_subprocess() -> None:
    payload = json.dumps({"command": "ls && sudo id"}) + "\n\r\n \n" + '{"command": "ls"}\n'
    done = subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "eval", "--jsonl"],
        input=payload,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row.get("verdict") for row in rows] == ["deny", None, None, "allow"]
    assert [row.get("line") for row in rows[1:3]] == ["", " "]


def test_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--workspace", "/w", "ls | sudo tee x"]) == 0
    out = capsys.readouterr().out
    assert "verdict: deny" in out
    assert "segment 2" in out


def test_test_command_passes_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.policy"
    policy.write_text('policy "p"\nreadonly ls **\nexpect allow "ls"\n')
    good = tmp_path / "good.tsv"
    good.write_text("command\tverdict\tretention\nls -la\tallow\trequery\nrm x\task\t*\n")
    assert main(["test", str(policy), "--cases", str(good)]) == 0
    assert "3 passed, 0 failed" in capsys.readouterr().out
    bad = tmp_path / "bad.tsv"
    bad.write_text("ls\tdeny\n")
    assert main(["test", str(policy), "--cases", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.tsv:1: `ls`: expected deny, got allow/requery" in out
    malformed = tmp_path / "malformed.tsv"
    malformed.write_text("ls\tmaybe\n")
    # a malformed table is a usage error (AR13)
    assert main(["test", str(policy), "--cases", str(malformed)]) == 2
    assert "unknown verdict" in capsys.readouterr().err


def test_test_command_reports_failing_expectation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = tmp_path / "p.policy"
    policy.write_text('policy "p"\nreadonly ls **\nexpect deny "ls"\n')
    assert main(["test", str(policy)]) == 1
    out = capsys.readouterr().out
    assert "rules.expectation-failed" in out
    assert "0 passed, 1 failed" in out


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "$ git status && git log --oneline -5\n  allow (retention: requery)" in out
    assert "$ $'\\x72\\x6d' -rf ~/.ssh\n  deny" in out


def test_explain_quotes_rule_source_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--workspace", "/w", "sudo rm -rf /"]) == 0
    out = capsys.readouterr().out
    assert "| deny sudo|doas|su|pkexec|run0|dzdo|gksu|gksudo|kdesu|kdesudo|please|sudo-rs **" in out
    assert "recursively, reaching protected" in out


def _crash(lines: list[str]) -> list[str]:
    os._exit(3)  # a worker that dies mid-batch (killed, out of memory)


_BATCH = [json.dumps({"command": c}) for c in ("ls", "rm -rf ~", "npm install", "x=1")] * 100


def _batch_output(jobs: int) -> tuple[int, str]:
    out = io.StringIO()
    count = eval_cmd.batch(
        load_policy(), io.StringIO("\n".join(_BATCH) + "\n"), out, workspace="/w", jobs=jobs
    )
    return count, out.getvalue()


@pytest.fixture
def quiet_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rm -rf ~` looks inside the home directory: a fixed one keeps the answers of two
    runs comparable while other processes change the real home."""
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.mark.usefixtures("quiet_home")
def test_jsonl_workers_answer_like_one_process() -> None:
    assert len(_BATCH) >= eval_cmd._PARALLEL_MIN
    serial = _batch_output(1)
    assert serial[0] == len(_BATCH)
    assert _batch_output(2) == serial
    verdicts = [json.loads(line)["verdict"] for line in serial[1].splitlines()[:4]]
    assert verdicts == ["allow", "deny", "ask", "ask"]


@pytest.mark.usefixtures("quiet_home")
def test_jsonl_a_dead_worker_loses_no_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serial = _batch_output(1)
    monkeypatch.setattr(eval_cmd, "_worker_answer", _crash)
    assert _batch_output(2) == serial
    assert "a batch worker failed" in capsys.readouterr().err


def test_jsonl_answers_each_line_before_the_input_ends() -> None:
    # an agent runtime keeps the process and sends one line at a time
    process = subprocess.Popen(
        [sys.executable, "-m", "policylang.cli.main", "eval", "--jsonl", "--workspace", "/w"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        for command, verdict in (("ls", "allow"), ("rm -rf /", "deny"), ("npm install", "ask")):
            process.stdin.write(json.dumps({"command": command}) + "\n")
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["verdict"] == verdict
    finally:
        process.stdin.close()
        process.stdout.close()
        assert process.wait(timeout=30) == 0


def test_jsonl_rejects_negative_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--jsonl", "--jobs", "-1"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_jsonl_answers_a_command_with_a_lone_surrogate() -> None:
    out = io.StringIO()
    lines = ['{"command": "ls \\ud800"}', '{"command": "echo \u00e9"}']
    eval_cmd.batch(load_policy(), io.StringIO("\n".join(lines) + "\n"), out, workspace="/w")
    rows = out.getvalue().splitlines()
    assert len(rows) == 2
    rows[0].encode("utf-8")  # writable: the surrogate is escaped, not passed through
    assert json.loads(rows[0])["command"] == "ls \ud800"
    assert json.loads(rows[1])["command"] == "echo \u00e9"


def test_explain_quotes_a_continued_rule_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # review AO13: only `| ask git \` was shown, without the clauses and the reason
    policy = tmp_path / "cont.policy"
    policy.write_text('policy "c"\ndefault allow\nask git \\\n  push ** \\\n  reason "pushes"\n')
    assert main(["explain", "--policy", str(policy), "git push"]) == 0
    assert '| ask git push ** reason "pushes"' in capsys.readouterr().out


def test_eval_warns_when_the_stack_would_not_load_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # review AR6: a team tried its layer with `eval`, which answered, and every hook call
    # then asked because the org's expectations failed against the stack
    org = tmp_path / "org.policy"
    org.write_text('policy "o"\nask make **\nexpect ask "make test"\n')
    team = tmp_path / "team.policy"
    team.write_text("allow make test **\n")
    assert main(["eval", "--policy", str(org), "--policy", str(team), "make test"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("allow")
    assert "will not load this policy" in captured.err
    assert "org.policy:3:1" in captured.err
