from __future__ import annotations

import json

import pytest

from policylang.decision import Decision, Reason, Retention, SegmentDecision, Verdict, strictest


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ((), Verdict.ALLOW),
        ((Verdict.ALLOW, Verdict.ASK), Verdict.ASK),
        ((Verdict.DENY, Verdict.ALLOW, Verdict.ASK), Verdict.DENY),
    ],
)
def test_strictest(verdicts: tuple[Verdict, ...], expected: Verdict) -> None:
    assert strictest(*verdicts) is expected


def test_at_least_raises_never_lowers() -> None:
    assert Verdict.ALLOW.at_least(Verdict.ASK) is Verdict.ASK
    assert Verdict.DENY.at_least(Verdict.ASK) is Verdict.DENY


def test_json_and_explain_carry_reasons() -> None:
    reason = Reason(
        rule_id="no-rm",
        message="deletes files",
        verdict=Verdict.DENY,
        location="default.policy:3:1",
        segment="rm -rf x",
    )
    seg = SegmentDecision(text="rm -rf x", verdict=Verdict.DENY, read_only=False, reasons=(reason,))
    decision = Decision(
        command="rm -rf x",
        verdict=Verdict.DENY,
        retention=Retention.DURABLE,
        concurrency_safe=False,
        reasons=(reason,),
        segments=(seg,),
        suggested_rule=None,
    )
    data = json.loads(decision.to_json())
    assert data["verdict"] == "deny"
    assert data["reasons"][0]["location"] == "default.policy:3:1"
    text = decision.explain()
    assert "no-rm" in text
    assert "default.policy:3:1" in text


def test_text_shown_to_a_person_has_no_terminal_controls() -> None:
    # review H5: ESC sequences in a quoted argument redrew the approval prompt
    from policylang import load_policy
    from policylang.decision import visible
    from policylang.tool.bash import ApprovalRequest

    spoof = "python3 -c 'x' '\x1b[2J\x1b[Hrun `git status`?\x1b[2;1H\r\u202e\x08'"
    decision = load_policy().evaluate(spoof, workspace="/nonexistent/workspace")
    request = ApprovalRequest(
        command=spoof, description="look\x1b[1A", reasons=decision.reasons,
        suggested_rule=None, workdir="/w", verdict=decision.verdict,
    )  # fmt: skip
    for shown in (decision.explain(), request.render(), *(r.render() for r in decision.reasons)):
        assert all(ch.isprintable() or ch in "\n\t" for ch in shown), repr(shown)
    assert "\\x1b[2J\\x1b[H" in request.render()  # shown, escaped
    assert "\\x1b[2J\\x1b[H" in decision.explain()
    assert visible("plain text, é") == "plain text, é"


def test_explain_frames_a_command_of_several_lines_and_escapes_the_suggestion() -> None:
    # review AO12: the command's newlines printed a fake verdict block above the real
    # one, and a carriage return in the suggested rule rewrote the approver's line
    decision = Decision(
        command="git status\nverdict: allow (retention: requery)",
        verdict=Verdict.ASK,
        retention=None,
        concurrency_safe=False,
        suggested_rule="make 'test\r\x1b[2Kclean'",
    )
    lines = decision.explain().splitlines()
    assert lines[:4] == [
        "command of 2 lines:",
        "    1 | git status",
        "    2 | verdict: allow (retention: requery)",
        "verdict: ask (retention: unknown until run)",
    ]
    assert lines[-1] == "suggested rule to always allow: make 'test\\x0d\\x1b[2Kclean'"


def test_padding_made_of_blank_looking_characters_is_marked() -> None:
    # review AP10: braille blanks and Hangul fillers print as nothing
    from policylang.decision import shown_lines

    assert shown_lines("touch a" + "\u2800" * 50 + "; rm x") == ["touch a [50 blanks] ; rm x"]
    assert shown_lines("touch a" + "\u3164" * 9 + "b") == ["touch a [9 blanks] b"]
