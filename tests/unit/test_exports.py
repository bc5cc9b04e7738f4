"""The public façade: every name in `policylang.__all__` resolves, and the set is pinned."""

from __future__ import annotations

import subprocess
import sys

import pytest

import policylang

PUBLIC = {
    "ApprovalRecord", "ApprovalScope", "BashTool", "Decision", "EvalContext", "ExecResult",
    "ExecutionRefusedError", "Policy", "PolicylangError", "Reason", "Retention", "RulesetError",
    "SandboxUnavailableError", "SegmentDecision", "Verdict", "__version__", "load_policy",
    "load_ruleset", "run", "strictest",
}


def test_public_surface_is_pinned() -> None:
    assert set(policylang.__all__) == PUBLIC


def test_every_public_name_resolves() -> None:
    for name in policylang.__all__:
        assert getattr(policylang, name) is not None, name


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        policylang.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_importing_the_executor_does_not_load_the_parsers() -> None:
    code = (
        "import sys, policylang.executor; "
        "print(any(m.startswith(('tree_sitter', 'lark')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
