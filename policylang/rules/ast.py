"""The policy AST: frozen dataclasses, one per directive; imports only `span`.

Every node carries a `span` (character offsets into its file) that is excluded from
equality, so a parse -> format -> parse round trip compares structure only. Values are
kept as written (strings); `rules.validate` checks them and the compiler converts them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from policylang.span import SourceText, Span

_NO_SPAN = Span(0, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Name:
    """A word as written, with its own span (for diagnostics that underline it)."""

    value: str
    quoted: bool = field(default=False, compare=False, repr=False)
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


class RuleVerdict(enum.StrEnum):
    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"
    READONLY = "readonly"


class ClauseKind(enum.StrEnum):
    WHEN = "when"
    UNLESS = "unless"
    ONLY = "only"
    OPERAND = "operand"
    FIRST_OPERAND = "first-operand"
    CHECKED_BY = "checked-by"
    REASON = "reason"
    ID = "id"


@dataclass(frozen=True, slots=True, kw_only=True)
class Clause:
    """`when -r|--recursive`: items are the words after the keyword (split on `|`)."""

    kind: ClauseKind
    items: tuple[Name, ...]
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


class WordKind(enum.StrEnum):
    LITERAL = "literal"  # one or more literal alternatives
    GLOB = "glob"  # alternatives of which at least one is a glob (`test:*`, `v[0-9]*`)
    ANY = "any"  # `*`: exactly one word
    REST = "rest"  # `**`: the rest of the words


@dataclass(frozen=True, slots=True, kw_only=True)
class PatternWord:
    """One pattern word: literal alternatives (`status|log`), word globs, `*`, or `**`.

    A quoted word is always one literal alternative (`"*"` is the word `*`). An unquoted
    alternative containing `*`, `?` or `[` is a glob over one word (`test:*`).
    """

    alternatives: tuple[str, ...]
    kind: WordKind = WordKind.LITERAL
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)

    @property
    def is_any(self) -> bool:
        return self.kind is WordKind.ANY

    @property
    def is_rest(self) -> bool:
        return self.kind is WordKind.REST

    @property
    def is_literal(self) -> bool:
        return self.kind is WordKind.LITERAL

    @property
    def is_glob(self) -> bool:
        return self.kind is WordKind.GLOB


GLOB_CHARS = frozenset("*?[")


def is_glob_text(text: str) -> bool:
    """Whether an unquoted alternative is a word glob."""
    return any(c in GLOB_CHARS for c in text)


@dataclass(frozen=True, slots=True, kw_only=True)
class Header:
    name: str
    version: str | None = None
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Default:
    verdict: str
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Include:
    path: str
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)
    path_span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Arity:
    """`arity npm run 3`: words are the prefix, count the last word as written."""

    words: tuple[Name, ...]
    count: Name
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ArityFile:
    path: str
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)
    path_span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    verdict: RuleVerdict
    pattern: tuple[PatternWord, ...]
    clauses: tuple[Clause, ...] = ()
    locked: bool = False
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)

    def clause_items(self, kind: ClauseKind) -> tuple[Name, ...]:
        return tuple(n for c in self.clauses if c.kind is kind for n in c.items)

    @property
    def explicit_id(self) -> Name | None:
        ids = self.clause_items(ClauseKind.ID)
        return ids[-1] if ids else None

    @property
    def reason(self) -> str | None:
        reasons = self.clause_items(ClauseKind.REASON)
        return reasons[-1].value if reasons else None

    @property
    def pattern_span(self) -> Span:
        return self.pattern[0].span.cover(self.pattern[-1].span)


@dataclass(frozen=True, slots=True, kw_only=True)
class Protect:
    access: str
    globs: tuple[Name, ...]
    verdict: str
    reason: str | None = None
    rule_id: Name | None = None
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class OutsideWorkspace:
    access: str
    verdict: str
    exceptions: tuple[Name, ...] = ()
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Expansion:
    kinds: tuple[Name, ...]
    positions: tuple[Name, ...]
    action: str
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionSpecDecl:
    """The option-spec clauses shared by `options` and `wrapper`."""

    value: tuple[Name, ...] = ()
    optional: tuple[Name, ...] = ()
    long: tuple[Name, ...] = ()
    flag: tuple[Name, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    command: Name
    spec: OptionSpecDecl
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Wrapper:
    name: Name
    spec: OptionSpecDecl
    positionals: Name | None = None
    assignments: bool = False
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Shells:
    names: tuple[Name, ...]
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Runners:
    """`runner NAME…`: programs that run their first operand as a command (`strace`), or,
    quoted with their verb, whose verb does (`"poetry run"`)."""

    names: tuple[Name, ...]
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Interpreter:
    names: tuple[Name, ...]
    floor: str
    inline: tuple[Name, ...] = ()
    program_operand: bool = False
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Env:
    """`env free|allow|ask|deny NAME…` (assignments), `env secret NAME…` (variables whose
    value is a secret), or `env default VERDICT` (kind "default", no names)."""

    kind: str
    names: tuple[Name, ...] = ()
    verdict: str | None = None
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class PathArgs:
    """`path-args read|write|copy CMD…`, `option CMD OPT… ACCESS`, `key CMD KEY ACCESS`."""

    form: str  # "operands", "option" or "key"
    commands: tuple[Name, ...]
    role: str = ""  # read/write/copy for operands; the access otherwise
    items: tuple[Name, ...] = ()  # options or the key
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Expect:
    verdict: str
    command: str
    retention: Name | None = None
    rule: Name | None = None  # `by ID`: the rule that must decide (a reason of the verdict)
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


Statement = (
    Header
    | Default
    | Include
    | Arity
    | ArityFile
    | Rule
    | Protect
    | OutsideWorkspace
    | Expansion
    | Options
    | Wrapper
    | Shells
    | Runners
    | Interpreter
    | Env
    | PathArgs
    | Expect
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Comment:
    text: str  # including the leading `#`
    span: Span = field(default=_NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """One parsed file: its statements in source order and its comments."""

    statements: tuple[Statement, ...]
    comments: tuple[Comment, ...] = field(default=(), compare=False)
    source: SourceText = field(compare=False, repr=False)
