"""The parser: every directive parses to the expected AST; every error-table row is live."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang.rules import ast, parser
from policylang.rules.parser import ERROR_EXAMPLES, logical_lines, parse_ruleset

from .helpers import assert_diag, syntax_of


def parse_one(text: str) -> ast.Statement:
    ruleset, diagnostics = parse_ruleset(text, filename="t.policy")
    assert diagnostics == ()
    assert len(ruleset.statements) == 1
    return ruleset.statements[0]


def n(*values: str) -> tuple[ast.Name, ...]:
    return tuple(ast.Name(value=v) for v in values)


def lit(*alternatives: str) -> ast.PatternWord:
    return ast.PatternWord(alternatives=alternatives)


ANY = ast.PatternWord(alternatives=("*",), kind=ast.WordKind.ANY)
REST = ast.PatternWord(alternatives=("**",), kind=ast.WordKind.REST)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('policy "p" version "1.0"', ast.Header(name="p", version="1.0")),
        ('policy "p"', ast.Header(name="p")),
        ("default deny", ast.Default(verdict="deny")),
        ('include "base.policy"', ast.Include(path="base.policy")),
        ("arity npm run 3", ast.Arity(words=n("npm", "run"), count=ast.Name(value="3"))),
        ('arity-file "a.toml"', ast.ArityFile(path="a.toml")),
        (
            'protect read-write ~/.ssh/** **/.env deny reason "keys" id keys',
            ast.Protect(
                access="read-write",
                globs=n("~/.ssh/**", "**/.env"),
                verdict="deny",
                reason="keys",
                rule_id=ast.Name(value="keys"),
            ),
        ),
        (
            "outside-workspace write ask except /dev/null /tmp/**",
            ast.OutsideWorkspace(
                access="write", verdict="ask", exceptions=n("/dev/null", "/tmp/**")
            ),
        ),
        (
            "expansion parameter|glob in command-name argument deny",
            ast.Expansion(
                kinds=n("parameter", "glob"), positions=n("command-name", "argument"), action="deny"
            ),
        ),
        (
            "options sed value -e|--expression optional -i long -x flag -n",
            ast.Options(
                command=ast.Name(value="sed"),
                spec=ast.OptionSpecDecl(
                    value=n("-e", "--expression"), optional=n("-i"), long=n("-x"), flag=n("-n")
                ),
            ),
        ),
        (
            "wrapper timeout value -s positionals 1 assignments",
            ast.Wrapper(
                name=ast.Name(value="timeout"),
                spec=ast.OptionSpecDecl(value=n("-s")),
                positionals=ast.Name(value="1"),
                assignments=True,
            ),
        ),
        ("shell bash fish", ast.Shells(names=n("bash", "fish"))),
        (
            'runner acme-trace "acme exec"',
            ast.Runners(
                names=(ast.Name(value="acme-trace"), ast.Name(value="acme exec", quoted=True))
            ),
        ),
        (
            "interpreter python3 inline -c floor deny",
            ast.Interpreter(names=n("python3"), inline=n("-c"), floor="deny"),
        ),
        (
            "interpreter awk program-operand floor ask",
            ast.Interpreter(names=n("awk"), program_operand=True, floor="ask"),
        ),
        ("env free LANG LC_*", ast.Env(kind="free", names=n("LANG", "LC_*"))),
        ("env default deny", ast.Env(kind="default", verdict="deny")),
        ("env secret *TOKEN* AWS_*", ast.Env(kind="secret", names=n("*TOKEN*", "AWS_*"))),
        (
            "path-args copy cp mv",
            ast.PathArgs(form="operands", commands=n("cp", "mv"), role="copy"),
        ),
        (
            "path-args move mv",
            ast.PathArgs(form="operands", commands=n("mv"), role="move"),
        ),
        (
            "path-args option sort -o|--output write",
            ast.PathArgs(
                form="option", commands=n("sort"), role="write", items=n("-o", "--output")
            ),
        ),
        (
            "path-args key dd of write",
            ast.PathArgs(form="key", commands=n("dd"), role="write", items=n("of")),
        ),
        (
            'expect ask "npm install" retention durable',
            ast.Expect(verdict="ask", command="npm install", retention=ast.Name(value="durable")),
        ),
    ],
)
def test_directive_parses(text: str, expected: ast.Statement) -> None:
    assert parse_one(text + "\n") == expected


def test_rule_with_every_clause() -> None:
    rule = parse_one(
        'locked readonly git status|log * ** when -a unless -b|--cc only -a -b operand "x y" '
        'checked-by git-config-keys id g reason "why"\n'
    )
    assert isinstance(rule, ast.Rule)
    assert rule.locked
    assert rule.verdict is ast.RuleVerdict.READONLY
    assert rule.pattern == (lit("git"), lit("status", "log"), ANY, REST)
    kinds = [c.kind for c in rule.clauses]
    assert kinds == [
        ast.ClauseKind.WHEN,
        ast.ClauseKind.UNLESS,
        ast.ClauseKind.ONLY,
        ast.ClauseKind.OPERAND,
        ast.ClauseKind.CHECKED_BY,
        ast.ClauseKind.ID,
        ast.ClauseKind.REASON,
    ]
    assert rule.clause_items(ast.ClauseKind.UNLESS) == n("-b", "--cc")
    assert rule.clause_items(ast.ClauseKind.OPERAND) == n("x y")
    assert rule.reason == "why"
    assert rule.explicit_id == ast.Name(value="g")


def test_keywords_are_reserved_only_where_they_can_appear() -> None:
    rule = parse_one("allow kubectl version deny read write value in floor\n")
    assert isinstance(rule, ast.Rule)
    assert [w.alternatives[0] for w in rule.pattern][1:] == [
        "version", "deny", "read", "write", "value", "in", "floor",
    ]  # fmt: skip


def test_quoted_words_are_literal() -> None:
    rule = parse_one('allow echo "*" "a|b" "when" "say \\"hi\\""\n')
    assert isinstance(rule, ast.Rule)
    assert rule.pattern[1:] == (lit("*"), lit("a|b"), lit("when"), lit('say "hi"'))


def test_spans_point_at_the_source() -> None:
    text = "# c\n\nallow   git status|log  unless --output\n"
    ruleset, _ = parse_ruleset(text, filename="t.policy")
    rule = ruleset.statements[0]
    assert isinstance(rule, ast.Rule)
    assert rule.span.slice(text) == "allow   git status|log  unless --output"
    assert rule.pattern[1].span.slice(text) == "status|log"
    assert rule.clauses[0].items[0].span.slice(text) == "--output"
    assert [c.text for c in ruleset.comments] == ["# c"]


def test_line_continuation_and_comments() -> None:
    text = 'allow git \\\n  status # trailing\n# own line\nask "a # not a comment"\n'
    ruleset, diagnostics = parse_ruleset(text, filename="t.policy")
    assert diagnostics == ()
    assert len(ruleset.statements) == 2
    assert [c.text for c in ruleset.comments] == ["# trailing", "# own line"]
    lines = list(logical_lines(text))
    assert [text[line.start : line.end].strip() for line in lines] == [
        "allow git \\\n  status",
        "",
        'ask "a # not a comment"',
    ]


def test_file_without_final_newline_and_empty_file() -> None:
    assert parse_one("default allow") == ast.Default(verdict="allow")
    ruleset, diagnostics = parse_ruleset("", filename="t.policy")
    assert ruleset.statements == ()
    assert diagnostics == ()


def test_every_broken_line_gets_a_diagnostic_and_good_lines_survive() -> None:
    text = "allow git status\nalow git log\ndefault maybe\nask curl **\n"
    ruleset, diagnostics = parse_ruleset(text, filename="t.policy")
    assert len(ruleset.statements) == 2
    assert [d.code for d in diagnostics] == ["rules.unknown-directive", "rules.expected-verdict"]
    assert_diag(
        diagnostics, code="rules.unknown-directive", underlined="alow", help="did you mean `allow`?"
    )


def test_glued_keyword_is_an_unknown_directive_not_a_split() -> None:
    assert_diag(syntax_of("allowx git\n"), code="rules.unknown-directive", underlined="allowx")
    assert_diag(syntax_of('allow git"x"\n'), code="rules.missing-space", underlined='git"x"')


def test_a_hash_glued_to_a_word_is_an_error_not_a_comment() -> None:
    # review AO8: `deny curl https://x/#a **` had compiled to the exact `curl https://x/`
    diagnostics = syntax_of("deny curl https://evil.example/#x **\nallow ls a#b\n")
    assert [d.code for d in diagnostics] == ["rules.missing-space"] * 2
    assert_diag(diagnostics, code="rules.missing-space", underlined="#")
    assert syntax_of('allow ls "a#b" # a comment\n# another\n\t# indented\n') == ()


@pytest.mark.parametrize(
    ("kind", "sample"),
    [(kind, sample) for kind, samples in ERROR_EXAMPLES.items() for sample in samples],
    ids=lambda value: getattr(value, "code", repr(value)),
)
def test_error_table_row(kind: object, sample: str) -> None:
    diagnostics = syntax_of(sample)
    assert len(diagnostics) == 1
    assert diagnostics[0].code == getattr(kind, "code", None), diagnostics[0].render()


def test_shipped_parser_tables_match_the_grammar(tmp_path: Path) -> None:
    """Run `python -m policylang.rules.parser` after editing grammar.lark."""
    folder = Path(parser.__file__).parent
    grammar = (folder / "grammar.lark").read_text()
    shipped = (folder / parser.PARSER_CACHE).read_bytes()
    assert shipped.startswith(parser._cache_key(grammar)), "stale grammar.lark.pickle"
    fresh = parser._build(grammar)
    loaded = parser._lark()
    assert isinstance(loaded.parser.lexer, parser._PolicyLexer)
    text = (folder.parents[1] / "docs" / "examples" / "language-example.policy").read_text()
    assert loaded.parse(text) == fresh.parse(text)
    written = parser.write_parser_cache(tmp_path / "tables.pickle")
    assert written.read_bytes().startswith(parser._cache_key(grammar))


def test_a_damaged_parser_cache_falls_back_to_building(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(parser, "PARSER_CACHE", "grammar.lark")  # not a pickle at all
    monkeypatch.setattr(parser, "_cache_key", lambda grammar: b"")
    parser._lark.cache_clear()
    try:
        built = parser._lark()
        assert "ignoring the damaged parser cache" in caplog.text
        assert built.parse("allow ls\n") is not None
    finally:
        parser._lark.cache_clear()


def test_byte_order_mark_is_ignored_and_spans_stay_put() -> None:
    text = "\ufeffallow ls\nalow x\n"
    ruleset, diagnostics = parse_ruleset(text, filename="t.policy")
    assert ruleset.statements == (ast.Rule(verdict=ast.RuleVerdict.ALLOW, pattern=(lit("ls"),)),)
    assert_diag(diagnostics, code="rules.unknown-directive", underlined="alow")
    whole, _ = parse_ruleset("\ufeffallow ls\n", filename="t.policy")
    assert whole.statements[0].span.slice("\ufeffallow ls\n") == "allow ls"


def test_path_args_option_lists_commands_then_options() -> None:
    statement = parse_one("path-args option md5sum sha256sum|base64 -o|--output write\n")
    assert statement == ast.PathArgs(
        form="option",
        commands=n("md5sum", "sha256sum", "base64"),
        role="write",
        items=n("-o", "--output"),
    )


def test_a_syntax_error_on_a_keyword_says_how_to_quote_it() -> None:
    # review AO13: `rules.syntax-error` had no help line
    assert_diag(
        syntax_of("path-args read cat read\n"),
        code="rules.syntax-error",
        underlined="read",
        help='to use `read` as a word, write it in double quotes: "read"',
    )



def test_a_control_character_that_breaks_a_line_is_named_where_it_stands() -> None:
    """review AX11: it was "unexpected end of line", with the caret on nothing."""
    _, diagnostics = parse_ruleset('policy "t"\nallow ls\x0b **\n', filename="x.policy")
    assert [(d.code, d.location) for d in diagnostics] == [
        ("rules.control-character", "x.policy:2:9")
    ]
    assert "U+000B" in diagnostics[0].message
