"""Importers stage: Gemini CLI policy TOML `[[rule]]` entries; imports `common`.

Only rules that concern the shell tool (`toolName = "run_shell_command"`, `"*"`, or a
`commandPrefix` / `commandRegex`, which imply it) are converted:

=====================================  ======================================================
Gemini CLI                             policy
=====================================  ======================================================
``commandPrefix = "git log"``          ``git log **`` (Gemini matches at a word boundary)
``commandRegex = "git (diff|show)"``   ``git diff|show **`` when the regex is literal words
                                       and alternations; otherwise narrowed (allow) or
                                       broadened (ask, deny)
no command condition                   a catch-all: the policy's ``default``
``decision = "ask_user"``              ``ask``
``denyMessage``                        ``reason``
=====================================  ======================================================

The highest `priority` wins there (equal priorities are treated as "either" here, so
the stricter reading is kept). A rule limited by `modes`, `interactive`, `subagent`,
`argsPattern` or `toolAnnotations` applies everywhere in the output: kept if it asks or
denies (stricter, with a warning), dropped if it allows.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
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
    Word,
    finish,
    literal,
    with_note,
)
from policylang.importers.patterns import has_shell_syntax, split_words
from policylang.importers.render import render_pattern

PEER = "Gemini CLI"
SHELL_TOOL = "run_shell_command"
_DECISIONS = {"allow": Verdict.ALLOW, "deny": Verdict.DENY, "ask_user": Verdict.ASK}
_CONDITIONS = ("modes", "interactive", "subagent", "argsPattern", "toolAnnotations", "mcpName")


def highest_priority_wins(a: ImportedRule, b: ImportedRule) -> ImportedRule | None:
    if a.rank == b.rank:
        return None
    return a if a.rank > b.rank else b


def import_policy(text: str, *, filename: str) -> ImportResult:
    """Convert a Gemini CLI policy file.

    Raises:
        ImportFormatError: not TOML, or no `[[rule]]` array.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ImportFormatError(f"{filename}: not TOML: {error}") from None
    entries = data.get("rule")
    if not isinstance(entries, list):
        raise ImportFormatError(f"{filename}: no `[[rule]]` entries")
    headers = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "[[rule]]"]
    rules: list[ImportedRule] = []
    warnings: list[ImportWarning] = [
        ImportWarning(
            severity=Severity.NOTE,
            message=(
                "Gemini CLI asks before commands with redirections unless a rule sets "
                "`allowRedirection`; policylang judges redirection targets with its "
                "protected-path and outside-workspace rules instead"
            ),
        )
    ]
    skipped = 0
    for index, entry in enumerate(entries):
        line = headers[index] if index < len(headers) else None
        if not isinstance(entry, dict):
            continue
        converted = _convert(entry, Origin(file=filename, text=_describe(entry), line=line))
        if converted is None:
            skipped += 1
            continue
        new_rules, new_warnings = converted
        rules.extend(new_rules)
        warnings.extend(new_warnings)
    if skipped:
        warnings.append(
            ImportWarning(
                severity=Severity.NOTE, message=f"skipped {skipped} rule(s) for other tools"
            )
        )
    return finish(
        source_format="gemini",
        source_file=filename,
        peer=PEER,
        rules=rules,
        peer_winner=highest_priority_wins,
        fallback=Verdict.ASK,
        warnings=warnings,
    )


def _describe(entry: Mapping[str, Any]) -> str:
    keys = ("toolName", "commandPrefix", "commandRegex", "decision", "priority")
    return "[[rule]] " + ", ".join(f"{k} = {entry[k]!r}" for k in keys if k in entry)


def _is_shell_rule(entry: Mapping[str, Any]) -> bool:
    if "commandPrefix" in entry or "commandRegex" in entry:
        return True
    tools = entry.get("toolName")
    names = tools if isinstance(tools, list) else [tools]
    return SHELL_TOOL in names or "*" in names


def _convert(
    entry: Mapping[str, Any], origin: Origin
) -> tuple[list[ImportedRule], list[ImportWarning]] | None:
    if not _is_shell_rule(entry):
        return None
    verdict = _DECISIONS.get(entry.get("decision", ""))
    if verdict is None:
        warning = _warn(Severity.UNCONVERTED, f"unknown decision {entry.get('decision')!r}", origin)
        return [], [warning]
    rank = float(entry.get("priority", 0)) if isinstance(entry.get("priority", 0), int) else 0.0
    reason = entry.get("denyMessage") if isinstance(entry.get("denyMessage"), str) else None
    conditions = [key for key in _CONDITIONS if key in entry]
    if conditions and verdict is Verdict.ALLOW:
        message = (
            f"dropped: applies only under {', '.join(conditions)}; policylang has no such condition"
        )
        return [], [_warn(Severity.STRICTER, message, origin)]
    warnings = []
    if conditions:
        message = f"{', '.join(conditions)} ignored: the rule now applies everywhere"
        warnings.append(_warn(Severity.STRICTER, message, origin))
    rules: list[ImportedRule] = []
    for pattern, note in _patterns(entry, verdict):
        if pattern is None:
            severity = Severity.STRICTER if verdict is Verdict.ALLOW else Severity.UNCONVERTED
            warnings.append(_warn(severity, f"not converted: {note}", origin))
            continue
        if note is not None:
            warnings.append(_warn(Severity.STRICTER, note, origin))
        broadened = note is not None and note.startswith("broadened")
        rule = ImportedRule(
            verdict=verdict,
            pattern=pattern,
            origin=origin,
            rank=rank,
            reason=reason,
            broadened=broadened,
        )
        rules.append(with_note(rule, note))
    return rules, warnings


def _warn(severity: Severity, message: str, origin: Origin | None) -> ImportWarning:
    return ImportWarning(severity=severity, message=message, origin=origin)


_Converted = tuple[Pattern | None, str | None]


def _patterns(entry: Mapping[str, Any], verdict: Verdict) -> list[_Converted]:
    prefix = entry.get("commandPrefix")
    if prefix is not None:
        prefixes = prefix if isinstance(prefix, list) else [prefix]
        return [_from_prefix(p) for p in prefixes]
    regex = entry.get("commandRegex")
    if isinstance(regex, str):
        return [_from_regex(regex, verdict)]
    return [(CATCH_ALL, None)]


def _from_prefix(prefix: Any) -> _Converted:
    if not isinstance(prefix, str):
        return None, "commandPrefix is not a string"
    words = split_words(prefix)
    if not words or has_shell_syntax(prefix):
        return None, "commandPrefix contains shell syntax or unbalanced quotes"
    return Pattern(literal(*words), rest=True), None


# The regular-expression subset read exactly: literal characters (escapes allowed),
# `(a|b)` / `(?:a|b)` groups of literal alternatives standing as whole words, single
# spaces or `\s+` between words, and at the end `$`, `\b`, `\s`, `.*` or nothing.
_TOKEN = re.compile(
    r"\(\?:(?P<ncg>[^()]*)\)|\((?P<grp>[^()?][^()]*)\)|(?P<sp>\\s\+?| \+?)|(?P<esc>\\.)"
    r"|(?P<tail>\.\*|\.\+|\$)|(?P<ch>[^\\()\[\]{}.*+?^$|])|(?P<other>.)"
)
_ESCAPED_LITERAL = set("-.()[]{}*+?^$|/\\\"' ")


def _from_regex(regex: str, verdict: Verdict) -> _Converted:
    if verdict is Verdict.ALLOW and regex.endswith("$") and not regex.endswith("\\$"):
        # Gemini CLI tests the regex against the JSON of the tool's arguments, whose text
        # never ends where the command does: such an allow never applies there (review K7)
        return None, (
            f"`{regex}` never matches in Gemini CLI: it is tested against the JSON of the "
            "tool's arguments, so `$` is never at the command's end"
        )
    words, boundary, rest = _regex_words(regex)
    if words is None or not words:
        return _regex_fallback(regex, verdict)
    pattern = Pattern(tuple(words), rest=rest)
    if boundary or not rest:
        return pattern, None
    if verdict is Verdict.ALLOW:
        return pattern, "narrowed: the regex also matches longer last words"
    *head, _ = words
    if not head:
        return None, "cannot broaden without covering every command"
    broad = Pattern(tuple(head), rest=True)
    return broad, f"broadened to `{render_pattern(broad)}`: the regex also matches longer words"


def _regex_words(regex: str) -> tuple[list[Word] | None, bool, bool]:
    """(words, ends at a word boundary, further text allowed) or (None, …) if not readable."""
    words: list[Word] = []
    current = ""
    group: tuple[str, ...] | None = None
    boundary, rest = False, True
    pos = 0
    for match in _TOKEN.finditer(regex):
        pos = match.end()
        kind = match.lastgroup
        text = match.group(kind) if kind else ""
        if kind in ("ncg", "grp"):
            alternatives = tuple(text.split("|"))
            if (
                current
                or group is not None
                or not all(re.fullmatch(r"[\w./:=@%+,-]+", a) for a in alternatives)
            ):
                return None, False, True
            group = alternatives
        elif kind == "esc" and text in (r"\b",) and pos == len(regex):
            boundary = True
        elif kind == "esc" and text[1] in _ESCAPED_LITERAL and text[1] != " ":
            current += text[1]
        elif kind == "sp" or (kind == "esc" and text == "\\ "):
            if group is None and not current:
                return None, False, True
            words.append(Word(group) if group is not None else Word((current,)))
            current, group = "", None
            if pos == len(regex):
                boundary = True
        elif kind == "tail" and pos == len(regex):
            if text == "$":
                rest = False
                boundary = True
            elif text == ".+":
                return None, False, True
        elif kind == "ch" and group is None:
            current += text
        else:
            return None, False, True
    if group is not None:
        words.append(Word(group))
    elif current:
        words.append(Word((current,)))
    return words, boundary, rest


def _regex_fallback(regex: str, verdict: Verdict) -> _Converted:
    if verdict is Verdict.ALLOW:
        return None, f"cannot narrow the regex `{regex}` to word patterns"
    head = re.match(r"((?:[\w./:=@%+,-]+ )+)", regex)
    if head is None:
        return None, f"the regex `{regex}` has no literal leading word to broaden from"
    words = head.group(1).split()
    return (
        Pattern(literal(*words), rest=True),
        f"broadened the regex `{regex}` to its literal leading words",
    )
