"""Text -> policy AST, with every syntax error as a `Diagnostic`; the rules front end.

Imports `lark`, `span`, `diagnostics`, `rules.ast`, `rules.transform`. The grammar is the
package data file `grammar.lark`. A file is parsed whole (fast path); when that fails it is
parsed again one logical line at a time so that every broken line gets its own diagnostic.
Lark's parse errors are turned into human messages with `UnexpectedInput.match_examples`
over the table `ERROR_EXAMPLES` below.
"""

from __future__ import annotations

import difflib
import functools
import importlib.resources
from collections.abc import Iterator
from dataclasses import dataclass

from lark import Lark, Token, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from policylang.diagnostics import Diagnostic, sort_diagnostics
from policylang.rules import ast
from policylang.rules.transform import to_statements, token_span
from policylang.span import SourceText, Span

DIRECTIVES: tuple[str, ...] = (
    "policy", "default", "include", "arity", "arity-file", "allow", "ask", "deny", "readonly",
    "locked", "protect", "outside-workspace", "expansion", "options", "wrapper", "shell",
    "interpreter", "env", "path-args", "expect",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _ErrorKind:
    code: str
    message: str
    help: str | None = None
    whole_line: bool = False  # underline the statement rather than the offending token


# Each row: the message for a class of parse errors, and malformed samples that produce it.
# `match_examples` matches a failing parse to the sample failing in the same parser state.
ERROR_EXAMPLES: dict[_ErrorKind, list[str]] = {
    _ErrorKind(
        "rules.missing-pattern", "a rule needs a command pattern", "e.g. `allow git status`", True
    ): ["allow\n", "locked deny\n", "readonly\n", "ask\n"],
    _ErrorKind(
        "rules.empty-clause",
        "this clause needs at least one word",
        "e.g. `unless -i|--in-place`",
        True,
    ): [
        "allow git when\n",
        "allow git unless\n",
        "allow git only\n",
        "allow git operand\n",
        "deny rm ** when -r unless\n",
    ],
    _ErrorKind(
        "rules.expected-string",
        "expected a quoted string",
        'write it in double quotes, e.g. `reason "network access"`',
    ): [
        "allow git reason network\n",
        "policy default\n",
        'policy "x" version 1\n',
        "include base.policy\n",
        "arity-file arity.toml\n",
        "expect allow git status\n",
        "allow git reason\n",
        "protect write ~/.ssh deny reason x\n",
    ],
    _ErrorKind(
        "rules.expected-name", "expected a name", "e.g. `id git-inspect` or `checked-by sed-script`"
    ): ["allow git id\n", "allow sed checked-by\n", 'allow git id "x"\n'],
    _ErrorKind(
        "rules.expected-verdict",
        "expected a verdict: `allow`, `ask` or `deny`",
        None,
    ): [
        "default\n",
        "default maybe\n",
        "expect\n",
        "expect maybe\n",
        'expect "git status"\n',
        "protect write ~/.ssh/**\n",
        "outside-workspace write\n",
        "outside-workspace write maybe\n",
        "interpreter python floor\n",
        "interpreter python floor maybe\n",
        "env default\n",
        "env default maybe\n",
    ],
    _ErrorKind(
        "rules.expected-access",
        "expected `read`, `write` or `read-write`",
        "e.g. `protect write ~/.ssh/** deny`",
    ): [
        "protect ~/.ssh/** deny\n",
        "protect\n",
        "outside-workspace\n",
        "outside-workspace deny\n",
        "path-args option sort -o\n",
        "path-args key dd of\n",
    ],
    _ErrorKind(
        "rules.expected-action",
        "expected `allow`, `ask`, `deny` or `inspect`",
        "e.g. `expansion parameter in command-name deny`",
    ): ["expansion parameter in argument\n", "expansion parameter in\n"],
    _ErrorKind(
        "rules.expected-in",
        "expected `in POSITION` after the expansion kinds",
        "e.g. `expansion parameter in command-name deny`",
    ): ["expansion parameter deny\n", "expansion\n", "expansion parameter\n"],
    _ErrorKind(
        "rules.missing-floor",
        "an interpreter needs `floor VERDICT`",
        "e.g. `interpreter python inline -c floor ask`",
        True,
    ): ["interpreter python\n", "interpreter python inline -c\n", "interpreter\n"],
    _ErrorKind(
        "rules.expected-env-kind",
        "expected `free`, `allow`, `ask`, `deny` or `default`",
        "e.g. `env free LANG LC_*`",
    ): ["env LANG\n", "env\n", "env free\n"],
    _ErrorKind(
        "rules.expected-role",
        "expected `read`, `write`, `copy`, `option` or `key`",
        "e.g. `path-args write tee`",
    ): ["path-args tee\n", "path-args\n"],
    _ErrorKind(
        "rules.expected-words",
        "this directive needs more words",
        None,
        True,
    ): [
        "arity\n",
        "shell\n",
        "options\n",
        "options sed\n",
        "wrapper\n",
        "wrapper timeout positionals\n",
        "options sed value\n",
        "protect write\n",
        "path-args write\n",
        "include\n",
        "policy\n",
        "arity-file\n",
    ],
    _ErrorKind(
        "rules.unexpected-string",
        "a quoted string is not allowed here",
        None,
    ): ['default "ask"\n', 'expect allow "a" "b"\n'],
}


class GluedTokensError(Exception):
    """Two tokens touch (`allowx`, `a"b"`): the lexer would otherwise split them silently."""

    def __init__(self, first: Token, second: Token) -> None:
        super().__init__(f"{first!r} touches {second!r}")
        self.first = first
        self.second = second


class _GlueCheck:
    """Lark post-lexer: refuse adjacent tokens, so keywords need a word boundary."""

    always_accept: tuple[str, ...] = ()

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        previous: Token | None = None
        for token in stream:
            if (
                previous is not None
                and token.type != "_NL"
                and previous.type != "_NL"
                and token.start_pos == previous.end_pos
            ):
                raise GluedTokensError(previous, token)
            yield token
            previous = token


@functools.cache
def _lark() -> Lark:
    grammar = importlib.resources.files("policylang.rules").joinpath("grammar.lark").read_text()
    return Lark(
        grammar,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
        postlex=_GlueCheck(),
    )


@functools.cache
def _example_parser() -> Lark:
    return _lark()


@dataclass(frozen=True, slots=True)
class LogicalLine:
    """One directive's text range (continuations joined), and its comment, if any."""

    start: int
    end: int  # exclusive, before the newline and before any comment
    comment: ast.Comment | None


def logical_lines(text: str) -> Iterator[LogicalLine]:
    """Split a file into logical lines, honouring strings, comments and `\\` continuations."""
    i, n, start = 0, len(text), 0
    in_string = False
    comment: ast.Comment | None = None
    code_end: int | None = None
    while i < n:
        ch = text[i]
        if in_string:
            if ch == "\\" and i + 1 < n and text[i + 1] != "\n":
                i += 2
                continue
            if ch in '"\n':
                in_string = False
                if ch == "\n":
                    continue
        elif ch == '"':
            in_string = True
        elif ch == "#":
            code_end = i
            j = text.find("\n", i)
            j = n if j < 0 else j
            comment = ast.Comment(text=text[i:j].rstrip(), span=Span(i, j))
            i = j
            continue
        elif ch == "\\" and text[i + 1 : i + 2] in ("\n", "\r"):
            if text[i + 1 : i + 3] == "\r\n":
                i += 3
                continue
            if text[i + 1] == "\n":
                i += 2
                continue
            i += 1
        elif ch == "\n":
            yield LogicalLine(start, i if code_end is None else code_end, comment)
            start, comment, code_end = i + 1, None, None
        i += 1
    if start < n:
        yield LogicalLine(start, n if code_end is None else code_end, comment)


def parse_ruleset(text: str, *, filename: str) -> tuple[ast.RuleSet, tuple[Diagnostic, ...]]:
    """Parse a policy file into a `RuleSet` and its syntax diagnostics (sorted).

    Lines that fail to parse are left out of the rule set; every one gets a diagnostic.
    """
    source = SourceText(filename, text)
    lines = list(logical_lines(text))
    comments = tuple(line.comment for line in lines if line.comment is not None)
    try:
        tree = _lark().parse(text if text.endswith("\n") else text + "\n")
    except (UnexpectedInput, GluedTokensError):
        statements, diagnostics = _parse_by_line(source, lines)
    else:
        statements, diagnostics = to_statements(tree), ()
    ruleset = ast.RuleSet(statements=statements, comments=comments, source=source)
    return ruleset, sort_diagnostics(diagnostics)


def _parse_by_line(
    source: SourceText, lines: list[LogicalLine]
) -> tuple[tuple[ast.Statement, ...], tuple[Diagnostic, ...]]:
    statements: list[ast.Statement] = []
    diagnostics: list[Diagnostic] = []
    for line in lines:
        chunk = source.text[line.start : line.end]
        if not chunk.strip():
            continue
        try:
            tree = _lark().parse(chunk + "\n")
        except GluedTokensError as error:
            diagnostics.append(_diagnose_glued(error, source, line, chunk))
        except UnexpectedInput as error:
            diagnostics.append(_diagnose(error, source, line, chunk))
        else:
            statements.extend(to_statements(tree, offset=line.start))
    return tuple(statements), tuple(diagnostics)


def _first_word_end(chunk: str, stripped: int) -> int:
    end = stripped
    while end < len(chunk) and not chunk[end].isspace():
        end += 1
    return end


def _diagnose_glued(
    error: GluedTokensError, source: SourceText, line: LogicalLine, chunk: str
) -> Diagnostic:
    stripped = len(chunk) - len(chunk.lstrip())
    if (error.second.start_pos or 0) < _first_word_end(chunk, stripped):
        return _unknown_directive(source, line, chunk, stripped)
    first = token_span(error.first, offset=line.start)
    span = first.cover(token_span(error.second, offset=line.start))
    return Diagnostic(
        code="rules.missing-space",
        message=f"missing space between `{error.first}` and `{error.second}`",
        source=source,
        span=span,
        help="separate words with a space; quote the whole word to keep it together",
    )


def _diagnose(
    error: UnexpectedInput, source: SourceText, line: LogicalLine, chunk: str
) -> Diagnostic:
    stripped = len(chunk) - len(chunk.lstrip())
    line_span = Span(line.start + stripped, line.start + len(chunk.rstrip()))
    offset = _error_offset(error)
    if offset < _first_word_end(chunk, stripped):
        return _unknown_directive(source, line, chunk, stripped)
    if isinstance(error, UnexpectedCharacters) and chunk[offset : offset + 1] == '"':
        end = chunk.find("\n", offset)
        return Diagnostic(
            code="rules.unterminated-string",
            message="unterminated string",
            source=source,
            span=Span(line.start + offset, line.start + (len(chunk) if end < 0 else end)),
            help='close it with `"` on the same line',
        )
    kind = _classify(error)
    span = line_span if kind.whole_line else _error_span(error, line, chunk, line_span)
    found = source.text[span.start : span.end]
    message = kind.message
    if kind.code == "rules.syntax-error":
        message = f"unexpected `{found}`" if found.strip() else "unexpected end of line"
    return Diagnostic(code=kind.code, message=message, source=source, span=span, help=kind.help)


def _error_offset(error: UnexpectedInput) -> int:
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        return 1 << 30
    position: int | None = error.pos_in_stream
    return position if position is not None else 0


def _error_span(error: UnexpectedInput, line: LogicalLine, chunk: str, line_span: Span) -> Span:
    if isinstance(error, UnexpectedToken) and error.token.type not in ("_NL", "$END"):
        return token_span(error.token, offset=line.start)
    if isinstance(error, UnexpectedCharacters):
        start = _error_offset(error)
        end = start
        while end < len(chunk) and not chunk[end].isspace():
            end += 1
        return Span(line.start + start, line.start + max(end, start + 1))
    return line_span


_GENERIC = _ErrorKind("rules.syntax-error", "syntax error", None)


def _classify(error: UnexpectedInput) -> _ErrorKind:
    try:
        label = error.match_examples(_example_parser().parse, ERROR_EXAMPLES, use_accepts=False)
    except UnexpectedInput:  # pragma: no cover - match_examples only raises on bad tables
        label = None
    return label if isinstance(label, _ErrorKind) else _GENERIC


def _unknown_directive(
    source: SourceText, line: LogicalLine, chunk: str, stripped: int
) -> Diagnostic:
    word = chunk[stripped:].split(None, 1)[0] if chunk[stripped:].split() else chunk
    span = Span(line.start + stripped, line.start + stripped + len(word))
    close = difflib.get_close_matches(word.strip('"'), DIRECTIVES, n=1, cutoff=0.6)
    return Diagnostic(
        code="rules.unknown-directive",
        message=f"unknown directive `{word}`",
        source=source,
        span=span,
        help=f"did you mean `{close[0]}`?" if close else "see docs/language.md for the directives",
    )


def is_keyword_token(token: Token) -> bool:
    """Whether a token is a keyword (used by the formatter to decide on quoting)."""
    return token.type not in ("WORD", "STRING")
