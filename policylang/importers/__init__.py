"""Importers stage: convert peers' permission rules into a `.policy` file.

`import_file(fmt, path)` reads one file in a peer's format and returns an
`ImportResult`; `render_policy(result)` writes the policy text with every rule's origin
and every warning as comments. Nothing here is ever approximated toward allow.
"""

from __future__ import annotations

from pathlib import Path

from policylang.importers.common import (
    ImportFormatError,
    ImportResult,
    ImportWarning,
    Severity,
)
from policylang.importers.render import render_policy
from policylang.rules.files import read_policy_file

FORMATS: tuple[str, ...] = ("claude-code", "opencode", "gemini", "codex")


def import_text(fmt: str, text: str, *, filename: str) -> ImportResult:
    """Convert `text`, written in the peer format `fmt` (one of `FORMATS`).

    Raises:
        ImportFormatError: the text is not in that format.
        ValueError: `fmt` is not a known format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format `{fmt}` (known: {', '.join(FORMATS)})")
    try:
        return _convert(fmt, text, filename)
    except (RecursionError, MemoryError) as error:
        # deeply nested JSON or TOML, or a Codex file of a 100,000-term expression
        raise ImportFormatError(
            f"{filename}: too deeply nested or too large to read ({type(error).__name__})"
        ) from None


def _convert(fmt: str, text: str, filename: str) -> ImportResult:
    if fmt == "claude-code":
        from policylang.importers.claude_code import import_settings

        return import_settings(text, filename=filename)
    if fmt == "opencode":
        from policylang.importers.opencode import import_config

        return import_config(text, filename=filename)
    if fmt == "gemini":
        from policylang.importers.gemini import import_policy

        return import_policy(text, filename=filename)
    if fmt == "codex":
        from policylang.importers.codex import import_rules

        return import_rules(text, filename=filename)
    raise ValueError(f"unknown format `{fmt}` (known: {', '.join(FORMATS)})")


def import_file(fmt: str, path: str | Path) -> ImportResult:
    """Convert the file at `path`; see `import_text`.

    Raises:
        OSError: not a regular file (a FIFO or `/dev/zero` would never end), larger than
            4 MiB, or not UTF-8.
        ImportFormatError: see `import_text`.
    """
    source = Path(path)
    return import_text(fmt, read_policy_file(source), filename=source.name)


__all__ = [
    "FORMATS",
    "ImportFormatError",
    "ImportResult",
    "ImportWarning",
    "Severity",
    "import_file",
    "import_text",
    "render_policy",
]
