"""Stored approvals judged against what the default ruleset offers today."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from policylang import load_policy
from policylang.cli.main import main
from policylang.engine.approvalaudit import Finding, audit, within
from policylang.engine.approvals import rule_words


@pytest.fixture(scope="module")
def findings() -> dict[str, tuple[Finding, str | None]]:
    rules = [
        "task",  # offered `task $` since review GH4
        "task $",
        "docker compose config",  # a locked ask since review GH1: no offer
        "rm -rf /",
        "npm run build",
        "npm run build --prod",
        "make $",
        "git log",  # allowed without it: a prefix approval only widens (review GY1)
        "git log $",  # an exact rule on an allowed line widens nothing
        "npm ls",  # offered exactly these words
        "git remote",  # offered `git remote x` for `git remote x` (review GY1)
        "git remote -v",  # allowed, and `git remote -v x` gets no offer (review GY1)
        "python3",  # an interpreter is never offered by its bare name
    ]
    return {a.rule: (a.finding, a.offer) for a in audit(load_policy(), rules)}


def test_an_approval_wider_than_todays_offer_is_found(
    findings: dict[str, tuple[Finding, str | None]],
) -> None:
    assert findings["task"] == (Finding.WIDER, "task $")
    assert findings["docker compose config"][0] is Finding.NOT_OFFERED
    assert findings["python3"][0] in (Finding.WIDER, Finding.NOT_OFFERED)
    assert findings["rm -rf /"][0] is Finding.DENIED
    assert findings["git log"][0] is Finding.NOT_OFFERED
    assert findings["git remote"] == (Finding.WIDER, "git remote x")
    assert findings["git remote -v"][0] is Finding.NOT_OFFERED


def test_approvals_within_todays_offer_or_allowed_anyway_pass(
    findings: dict[str, tuple[Finding, str | None]],
) -> None:
    passing = ("task $", "npm run build", "npm run build --prod", "make $", "git log $", "npm ls")
    for rule in passing:
        assert rule not in findings


@pytest.mark.parametrize(
    ("approval", "offer", "inside"),
    [
        ("task", "task $", False),
        ("task $", "task $", True),
        ("task x $", "task $", False),
        ("npm run build --prod", "npm run build", True),
        ("npm run build --prod $", "npm run build", True),
        ("npm run", "npm run build", False),
        ("npm", "npm run build", False),
    ],
)
def test_within(approval: str, offer: str, inside: bool) -> None:
    assert within(rule_words(approval), rule_words(offer)) is inside


def test_check_shows_them_at_their_entries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    approvals = tmp_path / "approvals.toml"
    approvals.write_text('# mine\nallow = [\n  "git log",\n  "task",\n]\n')
    # `git log` is now reported too (review GY1)
    shipped = Path(__file__).parents[3] / "policylang" / "rulesets" / "default.policy"
    assert main(["check", str(shipped), "--approvals", str(approvals)]) == 0
    out = capsys.readouterr().out
    assert f"{approvals}:4:3: warning[approvals.wider-than-offer]" in out
    assert "approval `task` covers more than today's offer `task $`" in out
    assert "`git log` is offered for none of `git log` (allowed without it)" in out
    assert main(["check", "--strict", str(shipped), "--approvals", str(approvals)]) == 1
    capsys.readouterr()
    assert main(["check", str(shipped), "--approvals", str(tmp_path / "missing.toml")]) == 1
    assert "cannot read" in capsys.readouterr().out


ROOT = Path(__file__).parents[3]
SHIPPED = ROOT / "policylang" / "rulesets" / "default.policy"


def _check(approvals: Path, *, strict: bool = True) -> subprocess.CompletedProcess[str]:
    """The real CLI, as a user runs it (a FIFO must not hang it: review GY5)."""
    flags = ["--strict"] if strict else []
    return subprocess.run(
        [sys.executable, "-m", "policylang", "check", "--no-expect", *flags, str(SHIPPED),
         "--approvals", str(approvals)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_an_allowed_prefix_approval_is_judged_by_the_lines_after_it(tmp_path: Path) -> None:
    # review GY1: `git remote -v` let `git remote -v set-url origin …` through
    approvals = tmp_path / "approvals.toml"
    approvals.write_text('allow = [\n  "git remote -v",\n  "git remote",\n  "npm ls",\n]\n')
    result = _check(approvals)
    assert result.returncode == 1, result.stdout
    assert (
        f"{approvals}:2:3: warning[approvals.not-offered]: approval `git remote -v` is"
        " offered for none of `git remote -v` (allowed without it), `git remote -v x`"
    ) in result.stdout
    assert (
        f"{approvals}:3:3: warning[approvals.wider-than-offer]: approval `git remote`"
        " covers more than today's offer `git remote x` (for `git remote x`)"
    ) in result.stdout
    assert "npm ls" not in result.stdout


def test_not_offered_names_the_lines_it_tried(tmp_path: Path) -> None:
    # review GY2: the audit says what it tried, and no longer tells the user to remove an
    # approval the engine "no longer offers" (`go build` and `unsquashfs`, which the
    # engine offers, now pass: tests/unit/engine/test_review_bj.py)
    approvals = tmp_path / "approvals.toml"
    approvals.write_text('allow = ["unzip"]\n')
    out = _check(approvals).stdout
    assert "approval `unzip` is offered for none of `unzip` (" in out
    assert "`unzip x` (" in out
    assert "more (another operand, or an option its rules name)" in out
    assert "unless a longer line you still run is offered exactly these words" in out
    assert "no longer offered" not in out


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        ('allow = [ "task"\n', "1:1", "not TOML"),
        ('allow = ["task"]\nallow = ["git"]\n', "2:1", 'Key "allow" already exists'),
        ('allow = "task"\n', "1:1", "`allow` is not a list"),
        ('[allow]\nx = "task"\n', "1:1", "`allow` is not a list"),
        (b'allow = ["task", "\xff"]\n', "1:1", "the file is not UTF-8"),
    ],
)
def test_a_file_the_engine_cannot_read_is_a_warning(
    tmp_path: Path, text: str | bytes, where: str, problem: str
) -> None:
    # review GY3: these were a log line and "ok", rc 0 even with --strict
    approvals = tmp_path / "approvals.toml"
    if isinstance(text, bytes):
        approvals.write_bytes(text)
    else:
        approvals.write_text(text)
    result = _check(approvals)
    assert result.returncode == 1, result.stdout
    assert f"{approvals}:{where}: warning[approvals.unreadable]: the engine reads no" in (
        result.stdout
    )
    assert problem in result.stdout
    assert _check(approvals, strict=False).returncode == 0


def test_entries_that_are_no_rule_are_warnings_at_their_lines(tmp_path: Path) -> None:
    # review GY3: non-strings were skipped without a word, unsplittable ones only logged
    approvals = tmp_path / "approvals.toml"
    approvals.write_text(
        'allow = [\n  "npm ls",\n  42,\n  "a\'b",\n  "x\\u0000y",\n  ["git"],\n'
        '  {k = "docker"},\n]\n'
    )
    out = _check(approvals).stdout
    for line, rule in [(3, "42"), (4, "a'b"), (5, "x\\u0000y"), (6, "['git']")]:
        assert f"{approvals}:{line}:3: warning[approvals.unreadable]: approval `{rule}`" in out
    assert f"{approvals}:7:3: warning[approvals.unreadable]" in out
    assert "\0" not in out


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('# "task" is legacy\nallow = ["git log $", "task"]\n', "2:23"),
        ('allow = ["t\\u0061sk"]\n', "1:10"),
        ("allow = ['''task''']\n", "1:10"),
        ('\ufeffallow = ["task"]\r\n', "1:10"),
        ('x = "[task"  # ]\nallow = [ # "task"\n  "npm ls", "task",\n]\n', "3:13"),
        ('allow = [\n  "task $",\n  "task",\n  "task",\n]\n', "4:3"),
    ],
)
def test_a_warning_is_at_the_entrys_own_spelling(tmp_path: Path, text: str, where: str) -> None:
    # review GY4: a text search for `"task"` had found the comment, or nothing (1:1)
    approvals = tmp_path / "approvals.toml"
    approvals.write_bytes(text.encode())
    out = _check(approvals).stdout
    assert f"{approvals}:{where}: warning[approvals.wider-than-offer]: approval `task`" in out


@pytest.mark.parametrize("kind", ["fifo", "device", "large"])
def test_a_file_that_is_not_a_small_regular_file_cannot_be_read(
    tmp_path: Path, kind: str
) -> None:
    # review GY5: a FIFO hung check for ever, /dev/zero ended in a MemoryError
    approvals = tmp_path / "approvals.toml"
    if kind == "fifo":
        os.mkfifo(approvals)
    elif kind == "device":
        approvals = Path("/dev/zero")
    else:
        approvals.write_text("allow = []\n" + "#" * (2 << 20) + "\n")
    result = _check(approvals, strict=False)
    assert result.returncode == 1
    assert f"{approvals}: cannot read: " in result.stdout
    assert "Traceback" not in result.stderr
