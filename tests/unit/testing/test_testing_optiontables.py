from __future__ import annotations

from policylang.testing.optiontables import TOOLS_BY_NAME, Invocation, SpellingChoice, respell


def _rm() -> Invocation:
    return Invocation(tool=TOOLS_BY_NAME["rm"], flags=("r", "f"), valued=(), operands=("x",))


def _head() -> Invocation:
    return Invocation(tool=TOOLS_BY_NAME["head"], flags=(), valued=(("n", "5"),),
                      operands=("f",))


def test_canonical_splits_everything() -> None:
    assert _rm().canonical() == ("rm", "-r", "-f", "x")
    assert _head().canonical() == ("head", "-n", "5", "f")


def test_bundled_long_abbreviated_permuted() -> None:
    assert respell(_rm(), SpellingChoice(bundle=True)) == ("rm", "-rf", "x")
    assert respell(_rm(), SpellingChoice(long_flags=frozenset("rf"))) == (
        "rm", "--recursive", "--force", "x")
    assert respell(_rm(), SpellingChoice(long_flags=frozenset("r"), abbreviate=True)) == (
        "rm", "--recur", "-f", "x")
    assert respell(_rm(), SpellingChoice(bundle=True, options_last=True)) == ("rm", "x", "-rf")
    assert respell(_rm(), SpellingChoice(double_dash=True)) == ("rm", "-r", "-f", "--", "x")


def test_order_is_kept_when_bundling_around_long_options() -> None:
    inv = Invocation(tool=TOOLS_BY_NAME["rm"], flags=("v", "r", "f", "d"), valued=(),
                     operands=("x",))
    choice = SpellingChoice(bundle=True, long_flags=frozenset("f"))
    assert respell(inv, choice) == ("rm", "-vr", "--force", "-d", "x")


def test_value_styles() -> None:
    styles = {s: respell(_head(), SpellingChoice(value_style=s))
              for s in ("separate", "joined", "long-separate", "long-equals")}
    assert styles == {
        "separate": ("head", "-n", "5", "f"),
        "joined": ("head", "-n5", "f"),
        "long-separate": ("head", "--lines", "5", "f"),
        "long-equals": ("head", "--lines=5", "f"),
    }


def test_flags_without_long_form_stay_short() -> None:
    inv = Invocation(tool=TOOLS_BY_NAME["ls"], flags=("l",), valued=(), operands=("d",))
    assert respell(inv, SpellingChoice(long_flags=frozenset("l"))) == ("ls", "-l", "d")


def test_non_permuting_tool_keeps_options_first() -> None:
    inv = Invocation(tool=TOOLS_BY_NAME["tar"], flags=("c",), valued=(("f", "a.tar"),),
                     operands=("d",))
    assert TOOLS_BY_NAME["tar"].permutes is False
    assert respell(inv, SpellingChoice(options_last=True))[:2] == ("tar", "-c")
