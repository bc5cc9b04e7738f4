"""Text that did not parse: its pieces are read within one small budget per line.

Review AR10 made a deny inside such text hold; review AS1 found that text built to fail
the parser at every level made that reading combinatorial (a 289-character line cost
75,804 segments and 2 s, 2.8 KB a minute). Review AS2's cuts inside quotes are kept on purpose.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from policylang.decision import Decision

HOSTILE = [
    "echo $(((" + "; a $(b" * 40,
    "echo $((( " + "$(" * 49_000,  # review AT1
    "echo $(((" + "; a $(b" * 3_000,
    "echo " + "$((" * 2_000,
    "echo " + "$(" * 10_000,
    "echo $(((" + "; x `y" * 500,
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: f"{t[:12]}…{len(t)}")
def test_recovery_work_is_bounded(decide: Callable[[str], Decision], text: str) -> None:
    decision = decide(text)
    assert decision.verdict == "ask"
    # the line's own segments plus what 32 KB of recovered text can hold
    assert len(decision.segments) < 10_000


def test_a_cut_recovery_says_so(decide: Callable[[str], Decision]) -> None:
    decision = decide("echo " + "$(" * 10_000)
    limit = [r for r in decision.reasons if r.rule_id == "engine.recovery-limit"]
    assert len(limit) == 1
    assert "not seen" in limit[0].message
    assert decision.verdict == "ask"


def test_a_deny_in_recovered_text_still_holds(decide: Callable[[str], Decision]) -> None:
    assert decide("echo $((( i = $(sudo id) ))\n)").verdict == "deny"
    assert decide("ls < `x`; ls .env").verdict == "deny"


def test_a_deny_among_many_failing_pieces_holds(decide: Callable[[str], Decision]) -> None:
    # short pieces are read first, so the padding cannot spend the budget before them
    padding = "; a $(b" * 200
    assert decide("echo $(((" + padding + "; sudo id").verdict == "deny"


def test_quoted_operators_err_the_strict_way(decide: Callable[[str], Decision]) -> None:
    # the pieces are cut without regard to quotes (AS2, kept on purpose): where the
    # parser and bash may disagree, a deny found in a quoted piece holds
    decision = decide('echo $((( x = $(printf "%s" "a; sudo id; b" | wc -c) ))\n)')
    assert decision.verdict == "deny"


def test_trivial_pieces_do_not_spend_the_budget_before_the_enclosing_body(
    decide: Callable[[str], Decision],
) -> None:
    # review AT2: sixteen `$(aN)` took the budget; the body holding `sudo id` went unread
    padding = "".join(f"$(a{i}); " for i in range(16))
    assert decide(f"echo $((( i = $({padding}sudo id) ))\n)").verdict == "deny"


@pytest.mark.parametrize("inner", ["x=')' sudo id", "cat ')' .env", "rm -rf ')' ~"])
def test_a_quoted_parenthesis_does_not_hide_a_denied_command(
    decide: Callable[[str], Decision], inner: str
) -> None:
    # review AT3
    assert decide(f"echo $((( i = $({inner}) ))\n)").verdict == "deny"


@pytest.mark.parametrize("inner", ["sudo id", "cat .env", "rm -rf ~"])
@pytest.mark.parametrize("padding", ["blanks", "long-word"])
def test_padding_does_not_put_a_command_beyond_the_budget(
    decide: Callable[[str], Decision], inner: str, padding: str
) -> None:
    # review AU1: 17 KB of blanks made the piece longer than the whole budget
    blanks = " " * 17_000 + inner
    body = blanks if padding == "blanks" else inner + " ${x:-" + "A" * 40_000 + "}"
    assert decide(f"echo $((( i = $({body}) ))\n)").verdict == "deny"


@pytest.mark.parametrize("inner", ["sudo id", "cat .env"])
def test_a_long_word_before_the_command_in_one_piece(
    decide: Callable[[str], Decision], inner: str
) -> None:
    # review AV2: with pieces read up to 4,096 characters, 5,000 of padding hid the command
    assert decide("echo $((( i = $(X=" + "a" * 5_000 + f" {inner}) ))\n)").verdict == "deny"
