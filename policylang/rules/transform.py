"""Lark parse tree -> policy AST; the ONLY module that sees `lark.Tree` and `lark.Token`.

Stage: rules front end. Imports `lark`, `span` and `rules.ast`. `to_ruleset` converts one
parse tree whose positions are relative to `offset` in the file (the parser parses a file
whole, or line by line when it needs to recover from errors).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import TypeAlias

from lark import Token, Tree

from policylang.rules import ast
from policylang.span import Span

_Child: TypeAlias = "Tree[Token] | Token"


def unquote(text: str) -> str:
    """The value of a STRING token (`"a \\" b"` -> `a " b`)."""
    body = text[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    chars = iter(body)
    for ch in chars:
        out.append(next(chars, "\\") if ch == "\\" else ch)
    return "".join(out)


class _Converter:
    """Converts one tree; token positions are shifted by `offset`.

    Trees carry no positions (position propagation would double the parse time), so a
    statement's span is its logical line (`lines`: absolute (start, end) of each line's
    code, sorted) and a clause's span runs from its keyword to its last word.
    """

    def __init__(self, offset: int, text: str, lines: Sequence[tuple[int, int]]) -> None:
        self.offset = offset
        self.text = text
        self.lines = lines
        self.starts = [start for start, _end in lines]

    def span_of(self, node: _Child) -> Span:
        if isinstance(node, Token):
            return token_span(node, offset=self.offset)
        first, last = _first_token(node), _last_token(node)
        if first is None or last is None:
            return Span(self.offset, self.offset)
        start = (first.start_pos or 0) + self.offset
        end = (last.end_pos if last.end_pos is not None else 0) + self.offset
        return Span(start, max(start, end))

    def keyword_span(self, node: Tree[Token]) -> Span:
        """The node's span extended left over the keyword before it (`when -r`)."""
        span = self.span_of(node)
        start = span.start
        while start > 0 and self.text[start - 1] in " \t":
            start -= 1
        while start > 0 and not self.text[start - 1].isspace():
            start -= 1
        return Span(start, span.end)

    def line_span(self, node: Tree[Token]) -> Span:
        """The logical line holding the node (one statement per line), blanks stripped."""
        position = self.span_of(node).start
        index = max(0, bisect.bisect_right(self.starts, position) - 1)
        start, end = self.lines[index]
        code = self.text[start:end]
        lead = len(code) - len(code.lstrip())
        return Span(start + lead, start + len(code.rstrip()))

    def name(self, node: _Child) -> ast.Name:
        token = _token(node)
        quoted = token.type == "STRING"
        value = unquote(str(token)) if quoted else str(token)
        return ast.Name(value=value, quoted=quoted, span=self.span_of(token))

    def names(self, nodes: Sequence[_Child]) -> tuple[ast.Name, ...]:
        """Words of an option/glob list; `a|b` in an unquoted word is split into two names."""
        out: list[ast.Name] = []
        for node in nodes:
            name = self.name(node)
            if name.quoted or "|" not in name.value:
                out.append(name)
                continue
            start = name.span.start
            for part in name.value.split("|"):
                out.append(ast.Name(value=part, span=Span(start, start + len(part))))
                start += len(part) + 1
        return tuple(out)

    def statement(self, tree: Tree[Token]) -> ast.Statement:
        handler = _HANDLERS[str(tree.data)]
        return handler(self, tree, self.line_span(tree))


def _first_token(node: _Child) -> Token | None:
    stack: list[_Child] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            return item
        stack.extend(reversed(item.children))
    return None


def _last_token(node: _Child) -> Token | None:
    stack: list[_Child] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            return item
        stack.extend(item.children)
    return None


def _token(node: _Child) -> Token:
    while isinstance(node, Tree):
        node = node.children[0]
    return node


def _text(node: _Child) -> str:
    return str(_token(node))


def _string(node: _Child) -> str:
    return unquote(_text(node))


def _trees(tree: Tree[Token], data: str) -> list[Tree[Token]]:
    return [c for c in tree.children if isinstance(c, Tree) and c.data == data]


def _header(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    strings = [_string(c) for c in tree.children]
    return ast.Header(name=strings[0], version=strings[1] if len(strings) > 1 else None, span=span)


def _default(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    return ast.Default(verdict=_text(tree.children[0]), span=span)


def _include(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    token = tree.children[0]
    return ast.Include(path=_string(token), span=span, path_span=cv.span_of(token))


def _arity_file(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    token = tree.children[0]
    return ast.ArityFile(path=_string(token), span=span, path_span=cv.span_of(token))


def _arity(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    words = tuple(cv.name(c) for c in tree.children)
    return ast.Arity(words=words[:-1], count=words[-1], span=span)


def _pattern_word(cv: _Converter, node: Tree[Token]) -> ast.PatternWord:
    token = node.children[0]
    assert isinstance(token, Token)
    span = token_span(token, offset=cv.offset)
    if token.type == "STRING":
        return ast.PatternWord(alternatives=(unquote(str(token)),), span=span)
    value = str(token)
    wildcard = _WILDCARDS.get(value)
    if wildcard is not None:
        return ast.PatternWord(alternatives=(value,), kind=wildcard, span=span)
    alternatives = tuple(value.split("|"))
    kind = ast.WordKind.GLOB if any(map(ast.is_glob_text, alternatives)) else ast.WordKind.LITERAL
    return ast.PatternWord(alternatives=alternatives, kind=kind, span=span)


_WILDCARDS = {"*": ast.WordKind.ANY, "**": ast.WordKind.REST}
_CLAUSE_KINDS = {
    "when": ast.ClauseKind.WHEN,
    "unless": ast.ClauseKind.UNLESS,
    "only": ast.ClauseKind.ONLY,
    "operand": ast.ClauseKind.OPERAND,
    "first_operand": ast.ClauseKind.FIRST_OPERAND,
    "checked_by": ast.ClauseKind.CHECKED_BY,
    "reason": ast.ClauseKind.REASON,
    "rule_id": ast.ClauseKind.ID,
}
_SINGLE = frozenset({ast.ClauseKind.REASON, ast.ClauseKind.ID, ast.ClauseKind.CHECKED_BY})


def _clause(cv: _Converter, tree: Tree[Token]) -> ast.Clause:
    kind = _CLAUSE_KINDS[str(tree.data)]
    if kind in _SINGLE:
        items: tuple[ast.Name, ...] = (cv.name(tree.children[0]),)
    else:
        items = cv.names(tree.children)
    return ast.Clause(kind=kind, items=items, span=cv.keyword_span(tree))


def _rule(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    locked = False
    verdict = ast.RuleVerdict.ALLOW
    pattern: list[ast.PatternWord] = []
    clauses: list[ast.Clause] = []
    for child in tree.children:
        if isinstance(child, Token):
            locked = True
            continue
        data = str(child.data)
        if data == "pword":
            pattern.append(_pattern_word(cv, child))
        elif data == "rule_verdict":
            verdict = ast.RuleVerdict(str(child.children[0]))
        else:
            clauses.append(_clause(cv, child))
    return ast.Rule(
        verdict=verdict, pattern=tuple(pattern), clauses=tuple(clauses), locked=locked, span=span
    )


def _protect(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    reasons = _trees(tree, "reason")
    ids = _trees(tree, "rule_id")
    return ast.Protect(
        access=_text(_trees(tree, "access")[0]),
        globs=cv.names(_trees(tree, "glob")),  # `a|b` is two globs, as in every list
        verdict=_text(_trees(tree, "verdict")[0]),
        reason=_string(reasons[-1].children[0]) if reasons else None,
        rule_id=cv.name(ids[-1].children[0]) if ids else None,
        span=span,
    )


def _outside(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    return ast.OutsideWorkspace(
        access=_text(_trees(tree, "access")[0]),
        verdict=_text(_trees(tree, "verdict")[0]),
        exceptions=cv.names(_trees(tree, "xglob")),
        span=span,
    )


def _expansion(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    kinds = _trees(tree, "exp_kinds")[0].children
    positions = _trees(tree, "exp_positions")[0].children
    return ast.Expansion(
        kinds=cv.names(kinds),
        positions=cv.names(positions),
        action=_text(_trees(tree, "action")[0]),
        span=span,
    )


def _spec(cv: _Converter, tree: Tree[Token]) -> ast.OptionSpecDecl:
    def collect(data: str) -> tuple[ast.Name, ...]:
        return tuple(n for t in _trees(tree, data) for n in cv.names(t.children))

    return ast.OptionSpecDecl(
        value=collect("value_opts"),
        optional=collect("optional_opts"),
        long=collect("long_opts"),
        flag=collect("flag_opts"),
    )


def _options(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    return ast.Options(command=cv.name(tree.children[0]), spec=_spec(cv, tree), span=span)


def _wrapper(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    positionals = _trees(tree, "positionals")
    return ast.Wrapper(
        name=cv.name(tree.children[0]),
        spec=_spec(cv, tree),
        positionals=cv.name(positionals[-1].children[0]) if positionals else None,
        assignments=bool(_trees(tree, "assignments")),
        span=span,
    )


def _shells(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    return ast.Shells(names=cv.names(_trees(tree, "nword")), span=span)


def _runner(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    return ast.Runners(names=cv.names(_trees(tree, "nword")), span=span)


def _interpreter(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    inline = tuple(n for t in _trees(tree, "inline") for n in cv.names(t.children))
    return ast.Interpreter(
        names=cv.names(_trees(tree, "nword")),
        floor=_text(_trees(tree, "verdict")[0]),
        inline=inline,
        program_operand=bool(_trees(tree, "program_operand")),
        span=span,
    )


def _env(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    kind = _text(_trees(tree, "env_kind")[0])
    return ast.Env(kind=kind, names=cv.names(_trees(tree, "nword")), span=span)


def _env_default(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    return ast.Env(kind="default", verdict=_text(_trees(tree, "verdict")[0]), span=span)


def _path_args_operands(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    role = _text(_trees(tree, "operand_role")[0])
    commands = cv.names(_trees(tree, "nword"))
    return ast.PathArgs(form="operands", commands=commands, role=role, span=span)


def _path_args_option(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    """`path-args option md5sum sha256sum -o|--output write`: the words before the first
    option are the commands, the rest the options."""
    words = cv.names([*_trees(tree, "nword"), *_trees(tree, "iword")])
    split = next((i for i, n in enumerate(words) if n.value.startswith("-")), len(words))
    split = max(split, 1)
    return ast.PathArgs(
        form="option",
        commands=words[:split],
        role=_text(_trees(tree, "access")[0]),
        items=words[split:],
        span=span,
    )


def _path_args_key(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    words = _trees(tree, "nword")
    return ast.PathArgs(
        form="key",
        commands=cv.names(words[:1]),
        role=_text(_trees(tree, "access")[0]),
        items=(cv.name(words[1]),),
        span=span,
    )


def _expect(cv: _Converter, tree: Tree[Token], span: Span) -> ast.Statement:
    strings = [c for c in tree.children if isinstance(c, Token)]
    retention = _trees(tree, "expect_retention")
    rule = _trees(tree, "expect_by")
    return ast.Expect(
        verdict=_text(_trees(tree, "verdict")[0]),
        command=_string(strings[0]),
        retention=cv.name(_token(retention[0])) if retention else None,
        rule=cv.name(_token(rule[0])) if rule else None,
        span=span,
    )


_Handler = Callable[[_Converter, "Tree[Token]", Span], ast.Statement]

_HANDLERS: dict[str, _Handler] = {
    "header": _header,
    "default": _default,
    "include": _include,
    "arity": _arity,
    "arity_file": _arity_file,
    "rule": _rule,
    "protect": _protect,
    "outside": _outside,
    "expansion": _expansion,
    "options": _options,
    "wrapper": _wrapper,
    "shells": _shells,
    "runner": _runner,
    "interpreter": _interpreter,
    "env": _env,
    "env_default": _env_default,
    "path_args_operands": _path_args_operands,
    "path_args_option": _path_args_option,
    "path_args_key": _path_args_key,
    "expect": _expect,
}


def to_statements(
    tree: Tree[Token], *, text: str, lines: Sequence[tuple[int, int]], offset: int = 0
) -> tuple[ast.Statement, ...]:
    """Convert a `start` tree into AST statements.

    Args:
        tree: the parse tree of `text[offset:]` (or of one logical line at `offset`).
        text: the whole file.
        lines: absolute (start, end) of every logical line's code, sorted.
        offset: where the parsed text starts in `text`.
    """
    converter = _Converter(offset, text, lines)
    return tuple(converter.statement(child) for child in tree.children if isinstance(child, Tree))


def token_span(token: Token, *, offset: int = 0) -> Span:
    """The span of a token (used by the parser for error positions)."""
    start = (token.start_pos or 0) + offset
    end = (token.end_pos if token.end_pos is not None else 0) + offset
    return Span(start, max(start, end))
