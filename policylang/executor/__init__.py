"""The executor: run what the engine approved, safely; imports only `decision` and `errors`.

Public surface: `run` and `ExecResult` (one foreground command), `JobStore` (background
jobs owned by the host), the backends `PlainBackend` and `BubblewrapBackend`, and the
model-facing renderers `render_for_model` / `render_for_display`. See docs/executor.md.
"""

from __future__ import annotations

from policylang._posix import not_dumpable
from policylang.executor.env import looks_secret, scrub_env
from policylang.executor.jobs import JobInfo, JobPoll, JobStatus, JobStore, UnknownJobError
from policylang.executor.output import Cancel
from policylang.executor.process import own_children, terminate_all
from policylang.executor.render import (
    Rendered,
    fit,
    for_display,
    merged_text,
    protected_note,
    render_for_display,
    render_for_model,
)
from policylang.executor.runner import (
    DEFAULT_DRAIN_S,
    DEFAULT_GRACE_S,
    DEFAULT_MAX_STREAM_BYTES,
    DEFAULT_TIMEOUT_S,
    ExecResult,
    authorize,
    run,
)
from policylang.executor.sandbox import (
    Availability,
    Backend,
    BubblewrapBackend,
    PlainBackend,
)

__all__ = [
    "DEFAULT_DRAIN_S",
    "DEFAULT_GRACE_S",
    "DEFAULT_MAX_STREAM_BYTES",
    "DEFAULT_TIMEOUT_S",
    "Availability",
    "Backend",
    "BubblewrapBackend",
    "Cancel",
    "ExecResult",
    "JobInfo",
    "JobPoll",
    "JobStatus",
    "JobStore",
    "PlainBackend",
    "Rendered",
    "UnknownJobError",
    "authorize",
    "fit",
    "for_display",
    "looks_secret",
    "merged_text",
    "not_dumpable",
    "own_children",
    "protected_note",
    "render_for_display",
    "render_for_model",
    "run",
    "scrub_env",
    "terminate_all",
]
