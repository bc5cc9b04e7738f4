"""Importers stage: OpenCode `permission.bash` pattern maps; imports `common`.

OpenCode's config (``opencode.json`` or ``opencode.jsonc``) maps glob patterns over the
command text to ``allow``, ``ask`` or ``deny``::

    "permission": {"bash": {"*": "ask", "git status*": "allow", "git push *": "deny"}}

`*` matches any characters (spaces too), `?` one character, a trailing `` *`` also
matches nothing; ``"bash": "ask"`` is a single catch-all. The **last** matching entry
wins. Ours does not depend on order (deny wins, then the most specific rule), so
`reconcile` compares every overlapping pair: an entry that a later one always overrides
is dropped (same meaning), and where ours would pick a different verdict than the last
match the output is made stricter and a warning names both entries.
"""

from __future__ import annotations

import json
from typing import Any

from policylang.decision import Verdict
from policylang.importers.common import (
    CATCH_ALL,
    ImportedRule,
    ImportFormatError,
    ImportResult,
    ImportWarning,
    Origin,
    Severity,
    duplicate_warnings,
    finish,
    json_with_duplicates,
)
from policylang.importers.patterns import glob_rule

PEER = "OpenCode"
_VERDICTS = {"allow": Verdict.ALLOW, "ask": Verdict.ASK, "deny": Verdict.DENY}


def last_match_wins(a: ImportedRule, b: ImportedRule) -> ImportedRule | None:
    """OpenCode: the entry written later wins."""
    return a if a.rank > b.rank else b


def import_config(text: str, *, filename: str) -> ImportResult:
    """Convert an OpenCode config file.

    Raises:
        ImportFormatError: not JSON(C), or no `permission` object.
    """
    try:
        data, duplicates = json_with_duplicates(strip_jsonc(text))
    except json.JSONDecodeError as error:
        raise ImportFormatError(f"{filename}: not JSON: {error}") from None
    permission = data.get("permission") if isinstance(data, dict) else None
    if not isinstance(permission, dict):
        raise ImportFormatError(f"{filename}: no `permission` object")
    warnings: list[ImportWarning] = duplicate_warnings(duplicates, filename)
    if isinstance(data.get("agent"), dict) and any(
        isinstance(a, dict) and "permission" in a for a in data["agent"].values()
    ):
        warnings.append(
            ImportWarning(
                severity=Severity.NOTE,
                message="per-agent `permission` overrides are not imported (only the top level)",
            )
        )
    bash = permission.get("bash")
    lines = text.splitlines()
    rules: list[ImportedRule] = []
    if isinstance(bash, str):
        origin = Origin(file=filename, text=f'"bash": "{bash}"', line=_line_of(lines, "bash"))
        rules.extend(_rule("*", bash, 0, origin, warnings))
    elif isinstance(bash, dict):
        for rank, (glob, action) in enumerate(bash.items()):
            origin = Origin(file=filename, text=f'"{glob}": "{action}"', line=_line_of(lines, glob))
            rules.extend(_rule(glob, action, rank, origin, warnings))
    elif bash is not None:
        raise ImportFormatError(f"{filename}: `permission.bash` is neither a string nor a map")
    return finish(
        source_format="opencode",
        source_file=filename,
        peer=PEER,
        rules=rules,
        peer_winner=last_match_wins,
        fallback=Verdict.ASK,
        warnings=warnings,
    )


def _rule(
    glob: str, action: Any, rank: int, origin: Origin, warnings: list[ImportWarning]
) -> list[ImportedRule]:
    verdict = _VERDICTS.get(action) if isinstance(action, str) else None
    if verdict is None:
        warnings.append(
            ImportWarning(severity=Severity.UNCONVERTED, message="unknown action", origin=origin)
        )
        return []
    if glob.strip() == "*":
        return [ImportedRule(verdict=verdict, pattern=CATCH_ALL, origin=origin, rank=rank)]
    rule, note = glob_rule(glob, verdict, origin, multiword_star=True, rank=rank)
    if rule is None:
        severity = Severity.STRICTER if verdict is Verdict.ALLOW else Severity.UNCONVERTED
        warnings.append(
            ImportWarning(severity=severity, message=f"not converted: {note}", origin=origin)
        )
        return []
    if note is not None:
        warnings.append(ImportWarning(severity=Severity.STRICTER, message=note, origin=origin))
    return [rule]


def _line_of(lines: list[str], key: str) -> int | None:
    needle = json.dumps(key, ensure_ascii=False) + ":"
    loose = json.dumps(key, ensure_ascii=False)
    for number, line in enumerate(lines, 1):
        if needle in line.replace('" :', '":') or loose in line:
            return number
    return None


def strip_jsonc(text: str) -> str:
    """JSON with `//` and `/* */` comments and trailing commas made plain JSON.

    >>> strip_jsonc('{"a": "x//y", // note\\n "b": [1, 2,], /* c */}')
    '{"a": "x//y", \\n "b": [1, 2], }'
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
        else:
            out.append(char)
            i += 1
    return _drop_trailing_commas("".join(out))


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def _drop_trailing_commas(text: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
            continue
        if char == ",":
            j = i + 1
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            if j < len(text) and text[j] in "]}":
                i += 1
                continue
        out.append(char)
        i += 1
    return "".join(out)
