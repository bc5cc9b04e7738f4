"""Reading policy files: bounded, regular, UTF-8, and recorded with a digest of their text.

Stage: the loader's file access (`rules.load` and the engine's policy snapshots use it).
Kept apart from the loader so that checking a snapshot does not import the rules
language (Lark) only to read a file.
"""

from __future__ import annotations

import hashlib
import stat
from dataclasses import dataclass
from pathlib import Path

MAX_FILE_CHARS = 4 * 1024 * 1024  # a policy or arity file larger than this is refused


def read_policy_file(path: Path) -> str:
    """Read a regular UTF-8 file of bounded size (no devices, FIFOs or endless files).

    Raises:
        OSError: when the file cannot be read, is not a regular file, is too large or
            is not UTF-8.
    """
    if not stat.S_ISREG(path.stat().st_mode):  # stat raises FileNotFoundError
        raise OSError(f"not a regular file: {path}")
    # newline="": the file means what the grammar reads, where only `\n` ends a line. With
    # universal newlines a bare `\r` ended a comment too, and a comment quoting imported
    # text could carry a live rule (review K1)
    with path.open(encoding="utf-8", errors="strict", newline="") as handle:
        try:
            text = handle.read(MAX_FILE_CHARS + 1)
        except UnicodeDecodeError as error:
            where = _byte_position(path, error.start)
            raise OSError(f"not UTF-8: {path}{where}: {error.reason}") from error
    if len(text) > MAX_FILE_CHARS:
        raise OSError(f"larger than {MAX_FILE_CHARS} characters: {path}")
    return text


def _byte_position(path: Path, offset: int) -> str:
    """`:LINE:COLUMN` of the byte at `offset` of the file (within its first MiB), so an
    editor can go to the bad byte (review AX10); empty when it cannot be told.

    The decoder reports `offset` within the chunk it decoded, which starts at the file's
    beginning for any file shorter than its buffer (8 KiB); beyond that the position is
    the chunk's, so it is only given for short files."""
    try:
        with path.open("rb") as handle:
            data = handle.read(8192)
    except OSError:
        return ""
    if offset >= len(data) or len(data) == 8192:
        return ""
    before = data[:offset]
    line = before.count(b"\n") + 1
    column = len(before) - (before.rfind(b"\n") + 1) + 1
    return f":{line}:{column} (byte 0x{data[offset]:02x})"


@dataclass(frozen=True, slots=True)
class SourceInput:
    """One file the loader read: where from, which file that was, and a digest of its text.

    A compiled policy is a function of its inputs (and of the code), which is what lets a
    snapshot of it be reused while every input still reads the same.
    """

    path: str  # absolute, as read (through any symbolic link)
    resolved: str  # the file it resolved to (includes are deduplicated on this)
    sha256: str  # of the UTF-8 text


def digest_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


__all__ = ["MAX_FILE_CHARS", "SourceInput", "digest_text", "read_policy_file"]
