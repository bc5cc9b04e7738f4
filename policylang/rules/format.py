"""AST -> canonical policy text (`policylang fmt`); imports `rules.ast` and `rules.parser`.

One statement per line, single spaces, `a|b` for word lists, quotes only where a word needs
them, clauses in the order written, comments kept (own-line comments stay on their own line,
trailing comments follow two spaces), runs of blank lines collapsed to one. Formatting is
idempotent and `parse(format(parse(text)))` equals `parse(text)`.

>>> print(format_text('allow   git  status|log  unless --output   --ext-diff # inspect\\n'), end="")
allow git status|log unless --output|--ext-diff  # inspect
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextvars import ContextVar

from policylang.rules import ast
from policylang.rules.parser import grammar_text, logical_lines, parse_ruleset

_PLAIN = re.compile(r'[^\s"#\\|]+')
_CONTINUATION = re.compile(r"\\\r?\n")

# Keywords the parser accepts (and therefore reserves) right where a word of each kind stands.
_CLAUSE_KEYWORDS = frozenset(
    {"when", "unless", "only", "operand", "first-operand", "checked-by", "reason", "id"}
)
_RESERVED: dict[str, frozenset[str]] = {
    "pattern": _CLAUSE_KEYWORDS | {"*", "**"},
    "option": _CLAUSE_KEYWORDS,
    "glob": frozenset({"allow", "ask", "deny", "reason", "id"}),
    "kind": frozenset({"in"}),
    "position": frozenset({"allow", "ask", "deny", "inspect"}),
    "spec": frozenset({"value", "optional", "long", "flag", "positionals", "assignments"}),
    "interp": frozenset({"inline", "program-operand", "floor"}),
    "path": frozenset({"read", "write", "read-write"}),
    "plain": frozenset(),
}


# Every keyword of the grammar. The LALR parser merges the states after a word, so a
# keyword may be reserved where `_RESERVED` does not expect it (`path-args read cat read`
# does not parse: review AO10); quoting one never changes what a word means.
_KEYWORDS = frozenset(re.findall(r'"([a-z][a-z-]*)"', grammar_text()))
# set while a statement is written again with every keyword-like word quoted
_QUOTE_KEYWORDS: ContextVar[bool] = ContextVar("quote_keywords", default=False)


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def word(value: str, context: str = "plain") -> str:
    """A single word, quoted when it would not read back as the same single word."""
    reserved = _KEYWORDS if _QUOTE_KEYWORDS.get() else _RESERVED[context]
    if _PLAIN.fullmatch(value) and value not in reserved:
        return value
    return quote(value)


def word_list(names: Iterable[ast.Name], context: str) -> str:
    """Names joined with `|` where they can be; quoted ones separated by spaces."""
    out: list[str] = []
    plain: list[str] = []
    for name in names:
        text = word(name.value, context)
        if text.startswith('"'):
            if plain:
                out.append("|".join(plain))
                plain = []
            out.append(text)
        else:
            plain.append(text)
    if plain:
        out.append("|".join(plain))
    return " ".join(out)


def format_pattern(pattern: Sequence[ast.PatternWord]) -> str:
    parts: list[str] = []
    for pw in pattern:
        if pw.is_any or pw.is_rest:
            parts.append(pw.alternatives[0])
        elif pw.is_glob or len(pw.alternatives) > 1:
            parts.append("|".join(pw.alternatives))
        else:
            value = pw.alternatives[0]
            parts.append(quote(value) if ast.is_glob_text(value) else word(value, "pattern"))
    return " ".join(parts)


def _clause(clause: ast.Clause) -> str:
    kind = clause.kind
    if kind is ast.ClauseKind.REASON:
        return f"reason {quote(clause.items[0].value)}"
    if kind in (ast.ClauseKind.ID, ast.ClauseKind.CHECKED_BY):
        return f"{kind} {clause.items[0].value}"
    return f"{kind} {word_list(clause.items, 'option')}"


def _rule(rule: ast.Rule) -> str:
    head = ("locked " if rule.locked else "") + str(rule.verdict)
    return " ".join([head, format_pattern(rule.pattern), *(_clause(c) for c in rule.clauses)])


def _protect(node: ast.Protect) -> str:
    parts = [
        "protect",
        node.access,
        " ".join(word(g.value, "glob") for g in node.globs),
        node.verdict,
    ]
    if node.rule_id is not None:
        parts.append(f"id {node.rule_id.value}")
    if node.reason is not None:
        parts.append(f"reason {quote(node.reason)}")
    return " ".join(parts)


def _spec(spec: ast.OptionSpecDecl) -> list[str]:
    parts: list[str] = []
    for key, names in (
        ("value", spec.value),
        ("optional", spec.optional),
        ("long", spec.long),
        ("flag", spec.flag),
    ):
        if names:
            parts.append(f"{key} {word_list(names, 'spec')}")
    return parts


def _words(names: Iterable[ast.Name], context: str = "plain") -> str:
    return " ".join(word(n.value, context) for n in names)


def format_statement(node: ast.Statement) -> str:
    """The canonical text of one statement (no newline)."""
    match node:
        case ast.Header():
            version = f" version {quote(node.version)}" if node.version is not None else ""
            return f"policy {quote(node.name)}{version}"
        case ast.Default():
            return f"default {node.verdict}"
        case ast.Include():
            return f"include {quote(node.path)}"
        case ast.ArityFile():
            return f"arity-file {quote(node.path)}"
        case ast.Arity():
            return f"arity {_words(node.words)} {word(node.count.value)}"
        case ast.Rule():
            return _rule(node)
        case ast.Protect():
            return _protect(node)
        case ast.OutsideWorkspace():
            tail = f" except {_words(node.exceptions)}" if node.exceptions else ""
            return f"outside-workspace {node.access} {node.verdict}{tail}"
        case ast.Expansion():
            kinds = word_list(node.kinds, "kind")
            return f"expansion {kinds} in {word_list(node.positions, 'position')} {node.action}"
        case ast.Options():
            return " ".join(["options", word(node.command.value, "spec"), *_spec(node.spec)])
        case ast.Wrapper():
            parts = ["wrapper", word(node.name.value, "spec"), *_spec(node.spec)]
            if node.positionals is not None:
                parts.append(f"positionals {node.positionals.value}")
            if node.assignments:
                parts.append("assignments")
            return " ".join(parts)
        case ast.Shells():
            return f"shell {_words(node.names)}"
        case ast.Runners():
            return f"runner {_words(node.names)}"
        case ast.Interpreter():
            parts = ["interpreter", _words(node.names, "interp")]
            if node.inline:
                parts.append(f"inline {word_list(node.inline, 'interp')}")
            if node.program_operand:
                parts.append("program-operand")
            return " ".join([*parts, "floor", node.floor])
        case ast.Env():
            if node.kind == "default":
                return f"env default {node.verdict}"
            return f"env {node.kind} {_words(node.names)}"
        case ast.PathArgs():
            return _path_args(node)
        case ast.Expect():
            tail = f" retention {node.retention.value}" if node.retention is not None else ""
            tail += f" by {node.rule.value}" if node.rule is not None else ""
            return f"expect {node.verdict} {quote(node.command)}{tail}"
    raise AssertionError(f"unformattable statement {node!r}")  # pragma: no cover


def _path_args(node: ast.PathArgs) -> str:
    if node.form == "operands":
        return f"path-args {node.role} {_words(node.commands)}"
    command = word(node.commands[0].value, "path")
    if node.form == "option":
        commands = _words(node.commands, "path")
        return f"path-args option {commands} {word_list(node.items, 'path')} {node.role}"
    return f"path-args key {command} {word(node.items[0].value, 'path')} {node.role}"


def format_ruleset(ruleset: ast.RuleSet) -> str:
    """Canonical text of a parsed file, comments and single blank lines kept."""
    text = ruleset.source.text
    if text.startswith("\ufeff"):
        # read as a blank, as the parser does (same offsets): dropped before a comment as
        # before a statement (review AO14)
        text = " " + text[1:]
    by_start = {s.span.start: s for s in ruleset.statements}
    out: list[str] = []
    blank = False
    for line in logical_lines(text):
        code = text[line.start : line.end]
        stripped = _CONTINUATION.sub(" ", code).strip()
        if not stripped and line.comment is None:
            blank = bool(out)
            continue
        if blank:
            out.append("")
            blank = False
        statement = next((by_start[i] for i in range(line.start, line.end) if i in by_start), None)
        body = _reads_back(statement) if statement is not None else stripped
        if line.comment is not None:
            body = f"{body}  {line.comment.text}" if body else line.comment.text
        out.append(body)
    return "\n".join(out) + "\n" if out else ""


def _reads_back(statement: ast.Statement) -> str:
    """The statement's text, checked to parse back to the same statement; if it does not
    (a word the parser takes for a keyword there: review AO10), written again with every
    keyword-like word quoted, which always reads back."""
    body = format_statement(statement)
    if _same_statement(body, body):
        return body
    token = _QUOTE_KEYWORDS.set(True)
    try:
        return format_statement(statement)
    finally:
        _QUOTE_KEYWORDS.reset(token)


def _same_statement(text: str, expected: str) -> bool:
    ruleset, diagnostics = parse_ruleset(text + "\n", filename="<fmt>")
    if diagnostics or len(ruleset.statements) != 1:
        return False
    return format_statement(ruleset.statements[0]) == expected


def format_text(text: str, *, filename: str = "<text>") -> str:
    """Format policy text; lines that do not parse are kept as written."""
    ruleset, _diagnostics = parse_ruleset(text, filename=filename)
    return format_ruleset(ruleset)
