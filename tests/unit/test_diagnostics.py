from __future__ import annotations

import pytest

from policylang.diagnostics import Diagnostic, Severity, sort_diagnostics
from policylang.errors import RulesetError
from policylang.span import SourceText, Span


def _diag(text: str, needle: str, code: str = "rules.x") -> Diagnostic:
    src = SourceText("p.policy", text)
    start = text.index(needle)
    return Diagnostic(
        code=code,
        message=f"bad `{needle}`",
        source=src,
        span=Span(start, start + len(needle)),
        help="try again",
    )


def test_render_has_location_caret_and_help() -> None:
    d = _diag("allow ls\nprotectd ~/.ssh/**\n", "protectd")
    assert d.render().splitlines() == [
        "p.policy:2:1: error[rules.x]: bad `protectd`",
        "   2 | protectd ~/.ssh/**",
        "     | ^^^^^^^^",
        "   help: try again",
    ]
    assert d.underlined == "protectd"


def test_sorted_by_position() -> None:
    text = "a b c"
    ds = [_diag(text, "c"), _diag(text, "a")]
    assert [d.underlined for d in sort_diagnostics(ds)] == ["a", "c"]


def test_ruleset_error_needs_diagnostics() -> None:
    with pytest.raises(ValueError, match="at least one"):
        RulesetError(())
    err = RulesetError((_diag("x y", "y"),))
    assert "bad `y`" in str(err)
    assert err.diagnostics[0].severity is Severity.ERROR


def test_source_positions_count_characters() -> None:
    src = SourceText("c", "é\nab")
    assert src.position(3).line == 2
    assert src.position(3).column == 2
