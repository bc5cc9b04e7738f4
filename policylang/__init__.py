"""policylang: decide whether an LLM agent may run a shell command, and run it safely.

The public façade. Stages live in their own modules (see docs/concepts.md).
"""

from __future__ import annotations

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

__version__ = "0.1.0.dev0"

__all__ = [
    "ApprovalRecord",
    "ApprovalScope",
    "Decision",
    "ExecutionRefusedError",
    "PolicylangError",
    "Reason",
    "Retention",
    "RulesetError",
    "SandboxUnavailableError",
    "SegmentDecision",
    "Verdict",
    "__version__",
    "strictest",
]
