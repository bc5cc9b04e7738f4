"""Executor stage: what a model (or a human UI) reads of a result; imports `executor.runner`.

The model view is stdout and stderr merged in arrival order under a header
`[exit CODE, DURATIONms]`. Past the budget (default 2,000 lines or 50 kB) it keeps
the head and the tail, writes everything captured to a spill file and says where.
The display view is the same text clipped harder (30 kB) and never writes a file.
"""

from __future__ import annotations

import codecs
import logging
import os
import stat
import tempfile
from dataclasses import dataclass

from policylang.decision import visible
from policylang.executor.runner import ExecResult

_log = logging.getLogger(__name__)

MODEL_MAX_LINES = 2000
MODEL_MAX_BYTES = 50_000
DISPLAY_MAX_LINES = 400
DISPLAY_MAX_BYTES = 30_000
SANDBOX_MARKER = "[sandbox: write denied under read-only mode]"
_LINE_ROOM = 256


@dataclass(frozen=True, slots=True, kw_only=True)
class Rendered:
    """One view of a result: the text, whether it is an error result, and any spill file."""

    text: str
    is_error: bool
    spill_path: str | None = None
    omitted_lines: int = 0


def default_spill_dir(*, sandboxed: bool = False) -> str:
    """Where spill files go by default: a subdirectory of the temp dir.

    With `sandboxed`, a directory the sandbox can read: the bubblewrap sandbox replaces
    `/tmp` with a private one, so a spill file there could not be grepped by the model's
    next (sandboxed) command; `/var/tmp` is visible, read-only, inside it.
    """
    base = tempfile.gettempdir()
    if sandboxed and (base == "/tmp" or base.startswith("/tmp/")) and os.path.isdir("/var/tmp"):
        base = "/var/tmp"
    return os.path.join(base, "policylang-output")


def _decoder() -> codecs.IncrementalDecoder:
    return codecs.getincrementaldecoder("utf-8")("replace")


def merged_text(result: ExecResult) -> str:
    """stdout and stderr interleaved in arrival order, each decoded incrementally.

    Where a stream's capture skipped bytes between its head and its tail, a line
    `[... N bytes of stdout not kept ...]` stands in for them.
    """
    decoders = {1: _decoder(), 2: _decoder()}
    sources = {1: result.stdout_bytes, 2: result.stderr_bytes}
    gaps = {1: (result.stdout_gap_at, result.stdout_omitted),
            2: (result.stderr_gap_at, result.stderr_omitted)}
    offsets = {1: 0, 2: 0}
    parts: list[str] = []
    for stream, length in result.interleaving:
        start = offsets[stream]
        gap_at, omitted = gaps[stream]
        if omitted and start == gap_at:
            parts.append(decoders[stream].decode(b"", final=True))
            decoders[stream] = _decoder()  # the tail may start inside a character
            name = "stdout" if stream == 1 else "stderr"
            parts.append(f"\n[... {omitted:,} bytes of {name} not kept ...]\n")
        offsets[stream] = start + length
        parts.append(decoders[stream].decode(sources[stream][start : start + length]))
    parts.extend(decoders[s].decode(b"", final=True) for s in (1, 2))
    return "".join(parts)


def header(result: ExecResult) -> str:
    if result.timed_out:
        return f"[timed out, {result.duration_ms}ms]"
    if result.cancelled:
        return f"[cancelled, {result.duration_ms}ms]"
    if result.exit_code is None:
        return f"[killed by {result.signal_name}, {result.duration_ms}ms]"
    return f"[exit {result.exit_code}, {result.duration_ms}ms]"


def _notes(result: ExecResult) -> list[str]:
    notes: list[str] = []
    if result.timed_out:
        notes.append(f"the command was killed after {result.timeout_s:g} s (timeout); "
                     "what it printed before the kill follows")
    elif result.cancelled:
        notes.append("the command was cancelled and killed; what it printed before follows")
    for name, kept, head, seen in (
        ("stdout", len(result.stdout_bytes), result.stdout_gap_at, result.stdout_seen),
        ("stderr", len(result.stderr_bytes), result.stderr_gap_at, result.stderr_seen),
    ):
        if seen > kept:
            notes.append(f"{name} capture capped: kept the first {head:,} and the last "
                         f"{kept - head:,} of {seen:,} bytes")
    if result.sandbox_write_denied:
        notes.append(SANDBOX_MARKER)
    if result.protected_changed:
        notes.append(protected_note(result.protected_changed))
    return notes


def protected_note(names: tuple[str, ...]) -> str:
    """The note on protected names a sandboxed command changed (`protected_changed`)."""
    return (f"[sandbox: the command created, removed or replaced {', '.join(names)}, which "
            "the agent's host reads and the sandbox could not keep read-only; have a person "
            "review the change]")


@dataclass(frozen=True, slots=True)
class _Clip:
    head: str
    tail: str
    omitted_lines: int
    omitted_bytes: int


def _clip(text: str, *, max_lines: int, max_bytes: int) -> _Clip | None:
    """Head and tail of `text` within the budget, or None when it already fits."""
    data = text.encode("utf-8", "surrogateescape")
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    if lines <= max_lines and len(data) <= max_bytes:
        return None
    head_end = _nth_newline(data, max_lines // 2, limit=max_bytes // 2)
    tail_start = len(data) - _nth_newline(data[::-1], max_lines - max_lines // 2,
                                          limit=max_bytes - max_bytes // 2, skip_first=True)
    if data[tail_start : tail_start + 1] == b"\n":
        tail_start += 1  # the newline ending the last omitted line belongs to the middle
    tail_start = max(tail_start, head_end)
    middle = data[head_end:tail_start]
    return _Clip(
        head=data[:head_end].decode("utf-8", "ignore"),
        tail=data[tail_start:].decode("utf-8", "ignore"),
        omitted_lines=middle.count(b"\n"),
        omitted_bytes=len(middle),
    )


def _nth_newline(data: bytes, count: int, *, limit: int, skip_first: bool = False) -> int:
    """Offset just past the `count`-th newline of `data`, at most `limit`."""
    pos = 1 if skip_first and data.startswith(b"\n") else 0
    for _ in range(count):
        found = data.find(b"\n", pos, limit)
        if found < 0:
            return limit if limit < len(data) else len(data)
        pos = found + 1
    return min(pos, limit)


def _private_dir(path: str) -> str | None:
    """Why `path` is no place for our output, or None when it is ours alone.

    The default spill directory has a fixed name in a shared temp directory: another user
    who made it first could swap a spill file for text the model then reads (review J8).
    """
    try:
        info = os.lstat(path)
    except OSError as exc:
        return str(exc)
    if not stat.S_ISDIR(info.st_mode):
        return "not a directory (a symbolic link or a file)"
    if info.st_uid != os.geteuid():
        return f"owned by uid {info.st_uid}, not by this user"
    if info.st_mode & 0o077:
        return f"open to other users (mode {stat.S_IMODE(info.st_mode):o})"
    return None


def _spill(text: str, spill_dir: str) -> str | None:
    try:
        os.makedirs(spill_dir, mode=0o700, exist_ok=True)
        unsafe = _private_dir(spill_dir)
        if unsafe is not None:
            _log.warning("not writing spill files under %s: %s", spill_dir, unsafe)
            return None
        fd, path = tempfile.mkstemp(prefix="bash-output-", suffix=".txt", dir=spill_dir)
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(text)
    except OSError as exc:
        _log.warning("could not write spill file under %s: %s", spill_dir, exc)
        return None
    return path


def _render(
    result: ExecResult, *, max_lines: int, max_bytes: int, spill_dir: str | None,
    spill_path: str | None, for_person: bool = False,
) -> Rendered:
    body = merged_text(result)
    if for_person:
        # escaped before the clip, so the escapes count against the budget (review J7:
        # `ESC[2J` in output redrew a UI showing the display view)
        body = visible(body)
    parts = [header(result), *_notes(result)]
    # INVARIANT: the whole text stays within max_bytes: the header, the notes and the
    # truncation line (<= _LINE_ROOM bytes with its path) come out of the budget.
    overhead = sum(len(p.encode()) + 1 for p in parts) + _LINE_ROOM
    overhead += len(spill_path or spill_dir or "")
    clip = _clip(body, max_lines=max(0, max_lines - len(parts) - 1),
                 max_bytes=max(0, max_bytes - overhead))
    if clip is None:
        parts.append(body.rstrip("\n") if body else "(no output)")
    else:
        if spill_path is None and spill_dir is not None:
            spill_path = _spill(body, spill_dir)
        where = (f"full output saved to {spill_path}; use grep or a file read to inspect it"
                 if spill_path else "the full output was not saved")
        parts += [clip.head.rstrip("\n"),
                  f"[output truncated: {clip.omitted_lines:,} lines omitted "
                  f"({clip.omitted_bytes:,} bytes); {where}]",
                  clip.tail.rstrip("\n")]
    return Rendered(text="\n".join(parts), is_error=result.failed, spill_path=spill_path,
                    omitted_lines=0 if clip is None else clip.omitted_lines)


def render_for_model(
    result: ExecResult,
    *,
    max_lines: int = MODEL_MAX_LINES,
    max_bytes: int = MODEL_MAX_BYTES,
    spill_dir: str | None = None,
) -> Rendered:
    """The model's view; spills to `spill_dir` (default: a temp subdirectory) when clipped.

    A non-zero exit, a signal, a timeout or a cancellation makes `is_error` true.
    """
    return _render(result, max_lines=max_lines, max_bytes=max_bytes,
                   spill_dir=spill_dir or default_spill_dir(), spill_path=None)


def render_for_display(
    result: ExecResult,
    *,
    max_lines: int = DISPLAY_MAX_LINES,
    max_bytes: int = DISPLAY_MAX_BYTES,
    spill_path: str | None = None,
) -> Rendered:
    """A shorter view for a human UI (≤ 30 kB by default); never writes a file.

    Terminal controls in the output (ESC, CR, bidirectional overrides …) are escaped.

    Pass the model view's `spill_path` so the display can point at the same file.
    """
    return _render(result, max_lines=max_lines, max_bytes=max_bytes, spill_dir=None,
                   spill_path=spill_path, for_person=True)


def fit(text: str, *, max_lines: int = MODEL_MAX_LINES, max_bytes: int = MODEL_MAX_BYTES) -> str:
    """`text` within a budget: its head and tail around a line saying what was left out.

    For texts that are not a command's result (a job's new output, a refusal quoting a
    long command); nothing is spilled.
    """
    room = max(0, max_bytes - _LINE_ROOM)
    clip = _clip(text, max_lines=max(1, max_lines - 1), max_bytes=room)
    if clip is None:
        return text
    middle = (f"[text truncated: {clip.omitted_lines:,} lines omitted "
              f"({clip.omitted_bytes:,} bytes)]")
    return "\n".join((clip.head.rstrip("\n"), middle, clip.tail.rstrip("\n")))


def for_display(text: str, *, max_bytes: int = DISPLAY_MAX_BYTES) -> str:
    """`text` for a human UI: terminal controls escaped, within the display budget."""
    return fit(visible(text), max_lines=DISPLAY_MAX_LINES, max_bytes=max_bytes)
