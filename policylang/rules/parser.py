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
import hashlib
import importlib.resources
import io
import logging
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.common import LexerConf
from lark.lexer import Lexer, LexerState, PatternStr

from policylang.diagnostics import Diagnostic, sort_diagnostics
from policylang.rules import ast
from policylang.rules.transform import to_statements, token_span
from policylang.span import SourceText, Span

_log = logging.getLogger(__name__)

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
        "expect allow\n",
        "expect deny\n",
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
    ): [
        "interpreter python\n",
        "interpreter python inline -c\n",
        "interpreter\n",
        "interpreter python inline floor ask\n",
    ],
    _ErrorKind(
        "rules.expected-env-kind",
        "expected `free`, `allow`, `ask`, `deny` or `default`",
        "e.g. `env free LANG LC_*`",
    ): ["env LANG\n", "env\n"],
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
        "env free\n",
        "env ask\n",
        "outside-workspace write ask except\n",
        "path-args option sort write\n",
    ],
    _ErrorKind(
        "rules.unexpected-string",
        "a quoted string is not allowed here",
        None,
    ): [
        'default "ask"\n',
        'expect allow "a" "b"\n',
        'allow ls reason "x" "y"\n',
        'allow ls when -a reason "x" "y"\n',
    ],
    _ErrorKind(
        "rules.locked-needs-rule",
        "`locked` applies only to command rules",
        "write `locked allow|ask|deny|readonly PATTERN …`",
    ): ["locked protect write x deny\n", "locked env free X\n", "locked default ask\n"],
}


class GluedTokensError(Exception):
    """Two tokens touch (`allowx`, `a"b"`): the lexer would otherwise split them silently."""

    def __init__(self, first: Token, second: Token) -> None:
        super().__init__(f"{first!r} touches {second!r}")
        self.first = first
        self.second = second


# The lexer: the same token language as grammar.lark's terminals, in one regex pass.
_TOKENS = re.compile(
    r"""(?P<STRING>"(?:[^"\\\n]|\\["\\])*")"""
    r"|(?P<WORD>[^\s\"#\\]+)"
    r"|(?P<_NL>[ \t]*\r?\n)"
    r"|(?P<SPACE>[ \t]+)"
    r"|(?P<CONT>\\\r?\n)"
    r"|(?P<COMMENT>\#[^\n]*)"
    r"|(?P<ERROR>.)",
    re.DOTALL,
)


class _PolicyLexer(Lexer):
    """A contextual lexer: a word is a keyword only where the parser can accept that keyword.

    Equivalent to Lark's contextual lexer over grammar.lark, but one `finditer` pass, and it
    refuses touching tokens (`allowx`, `a"b"`) instead of splitting them silently.
    """

    __future_interface__ = 2

    def __init__(self, lexer_conf: LexerConf) -> None:
        self.keywords = {
            t.pattern.value: t.name
            for t in lexer_conf.terminals
            if isinstance(t.pattern, PatternStr)
        }

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        text = lexer_state.text.text
        assert isinstance(text, str)
        states = parser_state.parse_conf.states
        keywords = self.keywords
        line, line_start, previous = 1, 0, None
        for match in _TOKENS.finditer(text):
            kind = match.lastgroup
            start, end = match.span()
            if kind in ("SPACE", "COMMENT", "CONT"):
                if kind == "CONT":
                    line, line_start = line + 1, end
                continue
            value = match.group()
            if kind == "ERROR":
                column = start - line_start + 1
                raise UnexpectedCharacters(  # type: ignore[no-untyped-call]
                    text, start, line, column, state=parser_state
                )
            if kind == "WORD":
                name = keywords.get(value)
                if name is not None and name in states[parser_state.position]:
                    kind = name
            assert kind is not None
            token = Token(kind, value, start, line, start - line_start + 1, line, None, end)
            if kind == "_NL":
                line, line_start = line + 1, end
            elif previous is not None and previous.type != "_NL" and previous.end_pos == start:
                raise GluedTokensError(previous, token)
            lexer_state.last_token = previous = token
            yield token


PARSER_CACHE = "grammar.lark.pickle"


def grammar_text() -> str:
    """The grammar (package data `policylang/rules/grammar.lark`)."""
    return importlib.resources.files("policylang.rules").joinpath("grammar.lark").read_text()


def _build(grammar: str) -> Lark:
    return Lark(grammar, parser="lalr", lexer=_PolicyLexer, maybe_placeholders=False)


def _cache_key(grammar: str) -> bytes:
    """What the shipped parser tables were built from: the grammar and the Lark version."""
    digest = hashlib.sha256(f"{lark.__version__}\n{grammar}".encode()).hexdigest()
    return f"policylang-grammar {digest}\n".encode()


@functools.cache
def _lark() -> Lark:
    """The parser: the tables shipped next to the grammar when they match it, else built.

    Building the LALR tables takes ~0.1 s, a noticeable part of a hook's start-up, so the
    package ships them (`grammar.lark.pickle`, written by `python -m policylang.rules.parser`;
    a test keeps it current). It is package data, trusted like the code beside it.
    """
    files = importlib.resources.files("policylang.rules")
    grammar = grammar_text()
    key = _cache_key(grammar)
    try:
        blob = files.joinpath(PARSER_CACHE).read_bytes()
    except OSError:
        blob = b""
    if blob.startswith(key):
        try:
            return Lark.load(io.BytesIO(blob[len(key) :]))
        except Exception:  # a damaged cache only costs the build below
            _log.warning("ignoring the damaged parser cache %s", PARSER_CACHE, exc_info=True)
    return _build(grammar)


def write_parser_cache(path: Path | None = None) -> Path:
    """Write the parser tables for the current grammar (run after editing grammar.lark).

    A file already built from the current grammar is left alone: the pickle is not
    byte-for-byte reproducible, so rewriting it would only make noise in version control.
    """
    folder = Path(__file__).parent
    grammar = (folder / "grammar.lark").read_text()
    key = _cache_key(grammar)
    target = path or folder / PARSER_CACHE
    if target.exists() and target.read_bytes().startswith(key):
        return target
    buffer = io.BytesIO()
    _build(grammar).save(buffer)
    target.write_bytes(key + buffer.getvalue())
    return target


@functools.cache
def _example_parser() -> Lark:
    return _lark()


@dataclass(frozen=True, slots=True)
class LogicalLine:
    """One directive's text range (continuations joined), and its comment, if any."""

    start: int
    end: int  # exclusive, before the newline and before any comment
    comment: ast.Comment | None


# What matters for splitting lines: strings (a `#` or `\\` inside is not special; an
# unterminated one ends at the newline), comments, continuations and newlines.
_LINE_TOKENS = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"?|#[^\n]*|\\\r?\n|\n')


def logical_lines(text: str) -> Iterator[LogicalLine]:
    """Split a file into logical lines, honouring strings, comments and `\\` continuations."""
    start = 0
    comment: ast.Comment | None = None
    for match in _LINE_TOKENS.finditer(text):
        token = match.group()
        if token == "\n":
            end = match.start()
            yield LogicalLine(start, end if comment is None else comment.span.start, comment)
            start, comment = match.end(), None
        elif token[0] == "#":
            comment = ast.Comment(text=token.rstrip(), span=Span(match.start(), match.end()))
    if start < len(text):
        yield LogicalLine(start, len(text) if comment is None else comment.span.start, comment)


def parse_ruleset(text: str, *, filename: str) -> tuple[ast.RuleSet, tuple[Diagnostic, ...]]:
    """Parse a policy file into a `RuleSet` and its syntax diagnostics (sorted).

    Lines that fail to parse are left out of the rule set; every one gets a diagnostic.
    """
    source = SourceText(filename, text)
    # a byte-order mark reads as a blank: offsets (and so every span) stay the same
    scan = " " + text[1:] if text.startswith("\ufeff") else text
    lines = list(logical_lines(scan))
    comments = tuple(line.comment for line in lines if line.comment is not None)
    try:
        tree = _lark().parse(scan if scan.endswith("\n") else scan + "\n")
    except (UnexpectedInput, GluedTokensError):
        statements, diagnostics = _parse_by_line(source, scan, lines)
    else:
        spans = [(line.start, line.end) for line in lines]
        statements, diagnostics = to_statements(tree, text=scan, lines=spans), ()
    diagnostics = (
        *_named_control_characters(source, scan, diagnostics),
        *_glued_comments(source, scan, comments),
    )
    ruleset = ast.RuleSet(statements=statements, comments=comments, source=source)
    return ruleset, sort_diagnostics(diagnostics)


# control characters (not tab or newline), a `\r` that ends no line, line and paragraph
# separators, and bidirectional overrides: what a terminal or an editor may show as
# nothing, a line break, or text in another order
INVISIBLE = re.compile(
    "[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]"
    "|\\r(?!\\n)"
)
def _named_control_characters(
    source: SourceText, scan: str, diagnostics: Sequence[Diagnostic]
) -> Iterator[Diagnostic]:
    """The parser's diagnostics, where a syntax error stands on a control character
    named as one: it said "unexpected end of line", with the caret on nothing (AX11)."""
    for diagnostic in diagnostics:
        start = diagnostic.span.start
        if (
            diagnostic.code == "rules.syntax-error"
            and start < len(scan)
            and INVISIBLE.match(scan, start) is not None
        ):
            yield Diagnostic(
                code="rules.control-character",
                message=f"a control or invisible character ({codepoint(scan[start])}) "
                "where a word or a space should be",
                source=source,
                span=Span(start, start + 1),
                help="remove it; words are separated by spaces or tabs, lines by `\\n`",
            )
        else:
            yield diagnostic


def codepoint(char: str) -> str:
    """`U+000B` for a character."""
    return f"U+{ord(char):04X}"


def _glued_comments(
    source: SourceText, scan: str, comments: tuple[ast.Comment, ...]
) -> Iterator[Diagnostic]:
    """A `#` right after a word starts a comment, silently: `deny curl https://x/#a **`
    would read as the exact `curl https://x/`, its `**` gone (review AO8). bash starts
    no comment inside a word, so an author would not expect one: an error."""
    for comment in comments:
        start = comment.span.start
        if start > 0 and not scan[start - 1].isspace():
            yield Diagnostic(
                code="rules.missing-space",
                message="`#` right after a word starts a comment: the rest of the line "
                "would be ignored",
                source=source,
                span=Span(start, start + 1),
                help='quote the word to keep the `#` in it (`"a#b"`), or put a space '
                "before a comment",
            )


def _parse_by_line(
    source: SourceText, scan: str, lines: list[LogicalLine]
) -> tuple[tuple[ast.Statement, ...], tuple[Diagnostic, ...]]:
    statements: list[ast.Statement] = []
    diagnostics: list[Diagnostic] = []
    for line in lines:
        chunk = scan[line.start : line.end]
        if not chunk.strip():
            continue
        try:
            tree = _lark().parse(chunk + "\n")
        except GluedTokensError as error:
            diagnostics.append(_diagnose_glued(error, source, line, chunk))
        except UnexpectedInput as error:
            diagnostics.append(_diagnose(error, source, line, chunk))
        else:
            spans = [(line.start, line.end)]
            statements.extend(to_statements(tree, text=scan, lines=spans, offset=line.start))
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
        closed = _ANY_STRING.match(chunk, offset)
        if closed is not None:
            return Diagnostic(
                code="rules.invalid-escape",
                message="invalid escape in string",
                source=source,
                span=Span(line.start + offset, line.start + closed.end()),
                help='only `\\"` and `\\\\` are escapes; write a backslash as `\\\\`',
            )
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
    help = _keyword_suggestion(error) or kind.help
    if kind.code == "rules.syntax-error":
        message = f"unexpected `{found}`" if found.strip() else "unexpected end of line"
        if help is None and found.strip():
            # the common case: a word spelled like a keyword where the parser takes it for
            # one (`path-args read cat read`, review AO13)
            help = f'to use `{found}` as a word, write it in double quotes: "{found}"'
        elif help is None:
            help = "the directive is incomplete; see docs/language.md for its form"
    return Diagnostic(code=kind.code, message=message, source=source, span=span, help=help)


def _keyword_suggestion(error: UnexpectedInput) -> str | None:
    """`did you mean `write`?` when a word is close to a keyword the parser expected here."""
    if not isinstance(error, UnexpectedToken) or error.token.type != "WORD":
        return None
    keywords = {
        t.name: t.pattern.value for t in _lark().terminals if isinstance(t.pattern, PatternStr)
    }
    expected = sorted(keywords[name] for name in error.expected if name in keywords)
    close = difflib.get_close_matches(str(error.token), expected, n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


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


_ANY_STRING = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"')
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


if __name__ == "__main__":
    # through the package module, so the pickled lexer class is found by its real name
    from policylang.rules import parser as _parser

    print(_parser.write_parser_cache())
