"""Tool contract: the policy-gated `bash` tool; imports `decision`, `errors`, `executor`.

See docs/executor.md for the schema, the approval flow and background jobs.
"""

from __future__ import annotations

from policylang.tool.bash import (
    TOOL_DESCRIPTION,
    TOOL_NAME,
    ApprovalAnswer,
    ApprovalMode,
    ApprovalRequest,
    ApprovalSink,
    Approver,
    BashTool,
    PolicyLike,
    ToolOptions,
    ToolResult,
    ToolStatus,
)
from policylang.tool.jobs import JOB_TOOL_DESCRIPTIONS, JOB_TOOL_SCHEMAS, JobTools
from policylang.tool.schema import (
    ALLOWED_KEYS,
    MAX_TIMEOUT_S,
    ArgumentProblems,
    BashArgs,
    SandboxRequest,
    bash_tool_schema,
    parse_arguments,
)

__all__ = [
    "ALLOWED_KEYS",
    "JOB_TOOL_DESCRIPTIONS",
    "JOB_TOOL_SCHEMAS",
    "MAX_TIMEOUT_S",
    "TOOL_DESCRIPTION",
    "TOOL_NAME",
    "ApprovalAnswer",
    "ApprovalMode",
    "ApprovalRequest",
    "ApprovalSink",
    "Approver",
    "ArgumentProblems",
    "BashArgs",
    "BashTool",
    "JobTools",
    "PolicyLike",
    "SandboxRequest",
    "ToolOptions",
    "ToolResult",
    "ToolStatus",
    "bash_tool_schema",
    "parse_arguments",
]
