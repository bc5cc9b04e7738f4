"""Importers stage: Claude Code `settings.json` permission rules; imports `common`.

Reads ``permissions.allow``, ``permissions.ask`` and ``permissions.deny``. Only `Bash`
rules concern a shell policy:

=========================  ================================  ===========================
Claude Code rule           meaning there                     policy rule
=========================  ================================  ===========================
``Bash`` / ``Bash(*)``     every command                     ``default VERDICT``
``Bash(git status)``       exactly that command              ``VERDICT git status``
``Bash(npm run test:*)``   that prefix, at a word boundary   ``VERDICT npm run test **``
``Bash(git * main)``       ``*`` matches any characters      narrowed (allow) or
                                                             broadened (ask, deny)
=========================  ================================  ===========================

Claude Code applies deny, then ask, then allow, whatever the specificity: an allow rule
more specific than an ask rule never applies there, and `reconcile` drops it (ours would
let the more specific rule win). Rules for other tools are skipped with a note;
``defaultMode`` ``dontAsk`` becomes ``default deny``; ``bypassPermissions`` is not
imported (the policy keeps asking) and is reported.
"""

from __future__ import annotations

import json
import re
from typing import Any

from policylang.decision import Verdict
from policylang.importers.common import (
    CATCH_ALL,
    ImportedRule,
    ImportFormatError,
    ImportResult,
    ImportWarning,
    Origin,
    Pattern,
    Severity,
    duplicate_warnings,
    finish,
    json_with_duplicates,
    literal,
    strictest_wins,
)
from policylang.importers.patterns import glob_rule, has_shell_syntax, split_words

PEER = "Claude Code"
_RULE = re.compile(r"^(?P<tool>[A-Za-z_][\w-]*)(?:\((?P<spec>.*)\))?$", re.DOTALL)
_LISTS = (("allow", Verdict.ALLOW), ("ask", Verdict.ASK), ("deny", Verdict.DENY))


def import_settings(text: str, *, filename: str) -> ImportResult:
    """Convert a Claude Code settings file.

    Raises:
        ImportFormatError: the text is not a JSON object with a `permissions` object.
    """
    try:
        data, duplicates = json_with_duplicates(text)
    except json.JSONDecodeError as error:
        raise ImportFormatError(f"{filename}: not JSON: {error}") from None
    permissions = data.get("permissions") if isinstance(data, dict) else None
    if not isinstance(permissions, dict):
        raise ImportFormatError(f"{filename}: no `permissions` object")
    lines = text.splitlines()
    rules: list[ImportedRule] = []
    warnings: list[ImportWarning] = duplicate_warnings(duplicates, filename)
    skipped = 0
    for key, verdict in _LISTS:
        entries = permissions.get(key, [])
        if not isinstance(entries, list):
            warnings.append(_warn(Severity.UNCONVERTED, f"`permissions.{key}` is not a list"))
            continue
        for entry in entries:
            origin = Origin(file=filename, text=str(entry), line=_line_of(lines, entry))
            rule, warning = _convert(entry, verdict, origin)
            if rule is None and warning is None:
                skipped += 1
            if rule is not None:
                rules.append(rule)
            if warning is not None:
                warnings.append(warning)
    if skipped:
        warnings.append(
            _warn(Severity.NOTE, f"skipped {skipped} rule(s) for tools other than Bash")
        )
    fallback, fallback_warning = _default_mode(permissions.get("defaultMode"))
    if fallback_warning:
        warnings.append(fallback_warning)
    return finish(
        source_format="claude-code",
        source_file=filename,
        peer=PEER,
        rules=rules,
        peer_winner=strictest_wins,
        fallback=fallback,
        warnings=warnings,
    )


def _warn(severity: Severity, message: str, origin: Origin | None = None) -> ImportWarning:
    return ImportWarning(severity=severity, message=message, origin=origin)


def _line_of(lines: list[str], entry: Any) -> int | None:
    needle = json.dumps(entry, ensure_ascii=False)
    for number, line in enumerate(lines, 1):
        if needle in line:
            return number
    return None


def _convert(
    entry: Any, verdict: Verdict, origin: Origin
) -> tuple[ImportedRule | None, ImportWarning | None]:
    if not isinstance(entry, str):
        return None, _warn(Severity.UNCONVERTED, "not a string rule", origin)
    match = _RULE.match(entry.strip())
    if match is None:
        return None, _warn(Severity.UNCONVERTED, "not a `Tool(specifier)` rule", origin)
    if match["tool"] != "Bash":
        return None, None
    spec = match["spec"]
    if spec is not None and not spec.strip() and verdict is Verdict.ALLOW:
        # `Bash` and `Bash(*)` are documented to match every command; `Bash()` is not,
        # and an allow is never guessed (review K8)
        return None, _warn(Severity.STRICTER, "dropped: `Bash()` with an empty specifier "
                           "is not documented to match anything", origin)
    if spec is None or spec.strip() in ("", "*"):
        return ImportedRule(verdict=verdict, pattern=CATCH_ALL, origin=origin), None
    rule, note = _pattern(spec.strip(), verdict, origin)
    if rule is None:
        severity = Severity.UNCONVERTED if verdict is not Verdict.ALLOW else Severity.STRICTER
        return None, _warn(severity, f"not converted: {note}", origin)
    if note is None:
        return rule, None
    return rule, _warn(Severity.STRICTER, note, origin)


def _pattern(spec: str, verdict: Verdict, origin: Origin) -> tuple[ImportedRule | None, str | None]:
    if spec.endswith(":*"):
        prefix = spec[:-2]
        words = split_words(prefix)
        if words is None or not words or has_shell_syntax(prefix) or "*" in prefix:
            return glob_rule(prefix + " *", verdict, origin, multiword_star=True)
        rule = ImportedRule(
            verdict=verdict, pattern=Pattern(literal(*words), rest=True), origin=origin
        )
        return rule, None
    if "*" in spec:
        return glob_rule(spec, verdict, origin, multiword_star=True)
    words = split_words(spec)
    if words is None or not words or has_shell_syntax(spec):
        return None, "contains shell syntax or unbalanced quotes"
    return ImportedRule(verdict=verdict, pattern=Pattern(literal(*words)), origin=origin), None


def _default_mode(mode: Any) -> tuple[Verdict, ImportWarning | None]:
    origin = Origin(file="settings", text=f"defaultMode: {mode}") if mode is not None else None
    if mode == "dontAsk":
        return Verdict.DENY, None
    if mode == "bypassPermissions":
        return Verdict.ASK, _warn(
            Severity.STRICTER,
            "`bypassPermissions` runs every command unasked; not imported: the policy asks",
            origin,
        )
    return Verdict.ASK, None
