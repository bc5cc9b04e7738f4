"""Stored approvals judged against what the default ruleset offers today."""

from __future__ import annotations

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
        "git log",
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


def test_approvals_within_todays_offer_or_allowed_anyway_pass(
    findings: dict[str, tuple[Finding, str | None]],
) -> None:
    for rule in ("task $", "npm run build", "npm run build --prod", "make $", "git log"):
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
    shipped = Path(__file__).parents[3] / "policylang" / "rulesets" / "default.policy"
    assert main(["check", str(shipped), "--approvals", str(approvals)]) == 0
    out = capsys.readouterr().out
    assert f"{approvals}:4:3: warning[approvals.wider-than-offer]" in out
    assert "approval `task` covers more than today's offer `task $`" in out
    assert "git log" not in out
    assert main(["check", "--strict", str(shipped), "--approvals", str(approvals)]) == 1
    capsys.readouterr()
    assert main(["check", str(shipped), "--approvals", str(tmp_path / "missing.toml")]) == 1
    assert "cannot read" in capsys.readouterr().out
