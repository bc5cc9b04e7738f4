"""Importers stage: Codex execpolicy `prefix_rule(…)` files; imports `common`.

A Codex rules file is Starlark; each call reads::

    prefix_rule(
        pattern = ["git", ["status", "log"]],   # argv prefix; a list is alternatives
        decision = "allow",                     # allow | prompt | forbidden (default allow)
        justification = "read-only inspection",
        match = ["git status", ["git", "log", "-n", "5"]],
        not_match = ["git push"],
    )

The file is read with Python's `ast` (Starlark's syntax is a subset) and only literal
values are accepted: nothing in it is ever executed. `pattern` becomes a word pattern
followed by `**` (Codex matches an argv prefix), `prompt` becomes `ask`, `forbidden`
`deny`, `justification` the `reason`. Codex lets the strictest matching rule win, so an
allow more specific than a prompt rule is dropped (ours would let it win).

`match` and `not_match` examples become inline expectations (`expect VERDICT "…"`):
the verdict is the strictest rule that matches the example, or the policy's default
(`ask`) when none does, where Codex would fall back to its built-in heuristics.
"""

from __future__ import annotations

import ast
import shlex
from collections.abc import Sequence
from typing import Any

from policylang.decision import Verdict
from policylang.importers.common import (
    Expectation,
    ImportedRule,
    ImportFormatError,
    ImportResult,
    ImportWarning,
    Origin,
    Pattern,
    Severity,
    Word,
    finish,
    strictest_wins,
)
from policylang.importers.patterns import split_words

PEER = "Codex"
_DECISIONS = {"allow": Verdict.ALLOW, "prompt": Verdict.ASK, "forbidden": Verdict.DENY}


def import_rules(text: str, *, filename: str) -> ImportResult:
    """Convert a Codex execpolicy rules file.

    Raises:
        ImportFormatError: the file is not Starlark this reader understands.
    """
    try:
        module = ast.parse(text, filename=filename)
    except SyntaxError as error:
        raise ImportFormatError(
            f"{filename}:{error.lineno}: not a rules file: {error.msg}"
        ) from None
    rules: list[ImportedRule] = []
    warnings: list[ImportWarning] = []
    examples: list[tuple[str, bool, ImportedRule]] = []
    for statement in module.body:
        origin = Origin(file=filename, text=_summary(text, statement), line=statement.lineno)
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
            warnings.append(_warn(Severity.UNCONVERTED, "not a rule call; ignored", origin))
            continue
        if call.func.id != "prefix_rule":
            warnings.append(
                _warn(Severity.NOTE, f"`{call.func.id}(…)` has no policylang equivalent", origin)
            )
            continue
        try:
            args = _arguments(call)
            rule = _rule(args, origin)
        except ValueError as error:
            warnings.append(_warn(Severity.UNCONVERTED, f"not converted: {error}", origin))
            continue
        rules.append(rule)
        for key, positive in (("match", True), ("not_match", False)):
            for example in _examples(args.get(key, [])):
                examples.append((example, positive, rule))
                if rule.pattern.matches(split_words(example) or ()) is not positive:
                    wrong = "does not match" if positive else "matches"
                    message = f"the {key} example `{example}` {wrong} its rule (Codex rejects this)"
                    warnings.append(_warn(Severity.STRICTER, message, origin))
    expectations = tuple(_expectation(cmd, pos, rule, rules) for cmd, pos, rule in examples)
    return finish(
        source_format="codex",
        source_file=filename,
        peer=PEER,
        rules=rules,
        peer_winner=strictest_wins,
        fallback=Verdict.ASK,
        warnings=warnings,
        expectations=expectations,
    )


def _warn(severity: Severity, message: str, origin: Origin | None) -> ImportWarning:
    return ImportWarning(severity=severity, message=message, origin=origin)


def _arguments(call: ast.Call) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if call.args:
        if len(call.args) > 1:
            raise ValueError("more than one positional argument")
        args["pattern"] = _literal(call.args[0])
    for keyword in call.keywords:
        if keyword.arg is None:
            raise ValueError("`**kwargs` is not a literal")
        args[keyword.arg] = _literal(keyword.value)
    return args


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ValueError("an argument is not a literal value") from None


def _rule(args: dict[str, Any], origin: Origin) -> ImportedRule:
    unknown = set(args) - {"pattern", "decision", "justification", "match", "not_match"}
    if unknown:
        raise ValueError(f"unknown argument(s) {', '.join(sorted(unknown))}")
    decision = args.get("decision", "allow")
    verdict = _DECISIONS.get(decision) if isinstance(decision, str) else None
    if verdict is None:
        raise ValueError(f"unknown decision {decision!r}")
    pattern = _pattern(args.get("pattern"))
    justification = args.get("justification")
    reason = justification if isinstance(justification, str) else None
    return ImportedRule(verdict=verdict, pattern=pattern, origin=origin, reason=reason)


def _pattern(value: Any) -> Pattern:
    if not isinstance(value, list) or not value:
        raise ValueError("`pattern` must be a non-empty list")
    words: list[Word] = []
    for token in value:
        alternatives = tuple(token) if isinstance(token, list) else (token,)
        if not alternatives or not all(isinstance(a, str) and a for a in alternatives):
            raise ValueError("pattern tokens must be non-empty strings or lists of them")
        words.append(Word(alternatives))
    return Pattern(tuple(words), rest=True)


def _examples(value: Any) -> list[str]:
    items = value if isinstance(value, list) else []
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, list) and all(isinstance(w, str) for w in item):
            out.append(shlex.join(item))
    return out


def _expectation(
    command: str, positive: bool, rule: ImportedRule, rules: Sequence[ImportedRule]
) -> Expectation:
    words = split_words(command) or ()
    matching = [r for r in rules if r.pattern.matches(words)]
    verdict = max((r.verdict for r in matching), key=lambda v: v.rank, default=Verdict.ASK)
    kind = "match" if positive else "not_match"
    note = f"{kind} example of {rule.origin.file}:{rule.origin.line}"
    if not matching:
        note += " (no rule matches: the default)"
    return Expectation(command=command, verdict=verdict, note=note)


def _summary(text: str, statement: ast.stmt) -> str:
    """The statement on one line, shortened: how a warning or comment cites it."""
    source = ast.get_source_segment(text, statement) or ""
    flat = " ".join(source.split()).replace("( ", "(").replace(", )", ")").replace(",)", ")")
    return flat if len(flat) <= 120 else flat[:119] + "…"
