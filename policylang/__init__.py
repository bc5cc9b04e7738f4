"""policylang: decide whether an LLM agent may run a shell command, and run it safely.

The public façade. Stages live in their own modules (see docs/concepts.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# first: chooses between the compiled engine and its source before either is imported
from policylang import _native as _native
from policylang.decision import (
    ApprovalRecord,
    ApprovalScope,
    Decision,
    Reason,
    Retention,
    SegmentDecision,
    Verdict,
    strictest,
)
from policylang.errors import (
    ExecutionRefusedError,
    PolicylangError,
    RulesetError,
    SandboxUnavailableError,
)

if TYPE_CHECKING:
    from policylang.engine.context import EvalContext
    from policylang.engine.policy import Policy, load_policy
    from policylang.executor import ExecResult, run
    from policylang.rules.load import load_ruleset
    from policylang.tool import BashTool

__version__ = "0.1.0.dev0"

# The engine (tree-sitter, lark) loads on first use, so `import policylang.executor` stays light.
_LAZY = {
    "EvalContext": "policylang.engine.context",
    "Policy": "policylang.engine.policy",
    "load_policy": "policylang.engine.policy",
    "load_ruleset": "policylang.rules.load",
    "run": "policylang.executor",
    "ExecResult": "policylang.executor",
    "BashTool": "policylang.tool",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'policylang' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "ApprovalRecord",
    "ApprovalScope",
    "BashTool",
    "Decision",
    "EvalContext",
    "ExecResult",
    "ExecutionRefusedError",
    "Policy",
    "PolicylangError",
    "Reason",
    "Retention",
    "RulesetError",
    "SandboxUnavailableError",
    "SegmentDecision",
    "Verdict",
    "__version__",
    "load_policy",
    "load_ruleset",
    "run",
    "strictest",
]
