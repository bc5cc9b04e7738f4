"""Importers stage: the `.policy` text of an import; imports `common`.

Each rule is preceded by a comment citing its origin, every warning is repeated as a
comment at the end, and words are quoted wherever the policy language needs it.
"""

from __future__ import annotations

import re

from policylang.importers.common import ImportedRule, ImportResult, Pattern

_KEYWORDS = frozenset(
    {"when", "unless", "only", "operand", "checked-by", "id", "reason", "locked"}
    | {"allow", "ask", "deny", "readonly"}
)
_PLAIN = re.compile(r"[A-Za-z0-9_./:@%+=,~^-]+")


def quote_word(word: str) -> str:
    """A literal word as the policy language spells it (quoted when it must be)."""
    if _PLAIN.fullmatch(word) and word not in _KEYWORDS and not word.startswith("~"):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def one_line(text: str) -> str:
    """`text` with every line break (`\\n`, `\\r`, `\\v`, `\\f`, U+2028 … as `str.splitlines`
    knows them) turned into a space: imported text must never start a line of its own."""
    return " ".join(text.splitlines()) if text else text


def quote_string(text: str) -> str:
    return '"' + one_line(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_pattern(pattern: Pattern) -> str:
    parts = [
        "*" if w.is_any else "|".join(quote_word(a) for a in w.alternatives) for w in pattern.words
    ]
    if pattern.rest:
        parts.append("**")
    return " ".join(parts)


def render_rule(rule: ImportedRule) -> str:
    text = f"{rule.verdict} {render_pattern(rule.pattern)}"
    if rule.reason:
        text += f" reason {quote_string(rule.reason)}"
    return text


def _comment(text: str) -> str:
    return "# " + one_line(text)


def render_policy(result: ImportResult, *, name: str | None = None) -> str:
    """The `.policy` text for an import, with each rule's origin and every warning as comments."""
    lines = [
        _comment(f"Imported by `policylang import --from {result.source_format}`"
                 f" from {result.source_file}."),
        "# Review the warnings below; every changed or dropped rule is listed.",
        f"policy {quote_string(name or 'imported-' + result.source_format)}",
        "",
    ]
    if result.default_origin is not None:
        lines.append(_comment(f"from {result.default_origin.cite()}"))
    lines.append(f"default {result.default}")
    for rule in result.rules:
        lines.append("")
        lines.append(_comment(f"from {rule.origin.cite()}"))
        lines.extend(_comment(note) for note in rule.notes)
        lines.append(render_rule(rule))
    if result.expectations:
        lines.append("")
        for expectation in result.expectations:
            if expectation.note:
                lines.append(_comment(expectation.note))
            lines.append(f"expect {expectation.verdict} {quote_string(expectation.command)}")
    if result.warnings:
        lines.append("")
        lines.append(_comment(f"{len(result.warnings)} warning(s):"))
        lines.extend(_comment(w.render()) for w in result.warnings)
    return "\n".join(lines) + "\n"
