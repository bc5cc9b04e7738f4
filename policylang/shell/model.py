"""The shell model: frozen dataclasses describing one command line; imports only `span`.

`shell.parse` (the only module that touches tree-sitter) builds these. Everything above
(the compiler's lookup, the engine) reads only these types. Spans are character offsets
into the command text and are excluded from equality.

Invariant: a `Word` whose `value` is not None is fully literal after quote removal; a word
with any expansion (other than ANSI-C quoting, which is decoded) has `value is None`.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from policylang.span import Span


class ExpansionKind(enum.StrEnum):
    PARAMETER = "parameter"  # $X ${X} ${X:-…} $1 $@ ${IFS}
    COMMAND_SUBSTITUTION = "command-substitution"  # $(…) `…`
    PROCESS_SUBSTITUTION = "process-substitution"  # <(…) >(…)
    ARITHMETIC = "arithmetic"  # $((…)) $[…]
    BRACE = "brace"  # {a,b} {1..3}
    GLOB = "glob"  # * ? […]
    TILDE = "tilde"  # ~ ~user (leading)
    EXTGLOB = "extglob"  # !(…) @(…) +(…) *(…) ?(…)
    ANSI_C = "ansi-c"  # $'…' whose bytes depend on the locale ($'\u00e9'); others are decoded
    HISTORY = "history"  # !! !n — only where history expansion could apply


@dataclass(frozen=True, slots=True, kw_only=True)
class Expansion:
    """One expansion inside a word, with the nested command line it runs (if any)."""

    kind: ExpansionKind
    text: str
    span: Span = field(compare=False)
    name: str | None = None  # parameter name for PARAMETER (e.g. "IFS", "HOME", "1")
    nested: CommandLine | None = None  # for command / process substitutions


@dataclass(frozen=True, slots=True, kw_only=True)
class Word:
    """A shell word: its raw text, its value after quote removal if fully literal."""

    text: str
    value: str | None
    expansions: tuple[Expansion, ...] = ()
    span: Span = field(compare=False)

    @property
    def is_literal(self) -> bool:
        return self.value is not None

    def has(self, kind: ExpansionKind) -> bool:
        return any(e.kind is kind for e in self.expansions)

    @property
    def may_split(self) -> bool:
        """Whether bash may make several words of this one, or none: a glob, or a word
        `splits_at_blanks` (`-u $HOME/.[bn]*`: review CE3)."""
        if self.value is not None:
            return False
        if any(e.kind in _SPLITTING_KINDS for e in self.expansions):
            return True
        reading = _split_reading(self)
        if reading is None or _splits_at_blanks(reading):
            return True
        return any(ch in reading[0] for ch in "*?[")

    @property
    def splits_at_blanks(self) -> bool:
        """Whether bash may split this word at the blanks of a value: an expansion outside
        double quotes (`-A 0$IFS-r`, `-p $(echo x .env)`: reviews CE1, CE2), or a quoted
        expansion of every element (`"$@"`, `"${a[@]}"`: review CF2). Unlike a glob's
        names, each of which starts as the pattern does, any of its words may start with
        `-` (`x$IFS-f` is `x -f`)."""
        if self.value is not None:
            return False
        reading = _split_reading(self)
        return reading is None or _splits_at_blanks(reading)


@dataclass(frozen=True, slots=True, kw_only=True)
class Assignment:
    """`NAME=value`, `NAME+=value`, `NAME[i]=v`, or `NAME=(a b)` (array: value is None)."""

    name: str
    value: Word | None
    append: bool = False
    array: tuple[Word, ...] | None = None
    subscript: Word | None = None  # `a[$(id)]=1`: the index word (its expansions run)
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Heredoc:
    delimiter: str
    quoted: bool  # a quoted delimiter means the body is literal; unquoted bodies expand
    body: str
    strip_tabs: bool = False  # <<-
    expansions: tuple[Expansion, ...] = ()  # only for unquoted bodies
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Redirect:
    """A redirection. `op` is the operator text (`>`, `>>`, `2>&1` has op `>&`, fd 2)."""

    op: str
    fd: int | None  # explicit fd number before the operator, if any
    target: Word | None  # None for heredocs (see `heredoc`) and closing (`>&-`, `<&-`)
    heredoc: Heredoc | None = None
    span: Span = field(compare=False)

    @property
    def writes(self) -> bool:
        """Whether the redirect can write a file (fd duplication/closing does not)."""
        return self.op in _WRITING_OPS

    @property
    def reads(self) -> bool:
        return self.op in _READING_OPS


_WRITING_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
_READING_OPS = frozenset({"<", "<>"})
# expansions that make several words whatever their quoting (`Word.may_split`)
_SPLITTING_KINDS = frozenset({ExpansionKind.GLOB, ExpansionKind.EXTGLOB, ExpansionKind.BRACE})
# expansions whose value bash splits at blanks outside double quotes (not a glob's names,
# nor a process substitution's one name, `/dev/fd/63`)
_BLANK_SPLITTING = frozenset(
    {ExpansionKind.PARAMETER, ExpansionKind.COMMAND_SUBSTITUTION, ExpansionKind.ARITHMETIC,
     ExpansionKind.HISTORY}
)
# `$@`, `${@:2}`, `${a[@]}`, `${a[@]:1}`, `${!a[@]}`, `${!prefix@}`: one word per element,
# even in double quotes, and none for no element (`${#a[@]}` is a count: one word)
_EVERY_ELEMENT = re.compile(r"\$(?:@|\{(?:@|!?[A-Za-z_][A-Za-z0-9_]*(?:\[@\]|@)))")
# the home, named in many a command, splits only where it holds a blank, and the engine
# reads its paths (`env TZ=:$HOME/x date` stays judged as written); numbers bash sets
# and no line can (a process id, a count, a status; PPID, UID and EUID are read-only,
# BASHPID is not: review CI1) split only at an IFS of digits, which asks
_ONE_WORD = frozenset(
    {"$HOME", "${HOME}", "$$", "${$}", "$#", "${#}", "$?", "${?}", "$!", "${!}", "$PPID",
     "${PPID}", "$UID", "${UID}", "$EUID", "${EUID}"}
)  # fmt: skip
# left to the scan: a tilde is no split, an ANSI-C string is quoted
_SCANNED_KINDS = frozenset({ExpansionKind.TILDE, ExpansionKind.ANSI_C})
# what may follow a `$` inside double quotes to make an expansion of it
_EXPANDS_AFTER_DOLLAR = frozenset("({" + "@*#?$!-_" + "0123456789")


def _split_reading(word: Word) -> tuple[str, list[Expansion], list[Expansion]] | None:
    """How bash splits `word`: its characters outside quotes and expansions, the
    expansions outside double quotes and those inside. None where the scan cannot tell
    (an unterminated quote, an expansion not where the analyser put it, a `$` inside
    double quotes the analyser recorded no expansion for).

    A scan, not a pattern: `$'\''` is one quoted quote, and the text after it is not
    quoted (review CF1: a pattern ended the ANSI-C string at the escaped quote and took
    `$'\''${IFS}-r$'\''` for quoted text). Expansions are skipped by the analyser's own
    spans, so a quote inside `"$(echo "x")"` does not end the outer string."""
    text = word.text
    starts: dict[int, Expansion] = {}
    for expansion in word.expansions:
        offset = expansion.span.start - word.span.start
        if text[offset : offset + len(expansion.text)] != expansion.text:
            return None
        starts.setdefault(offset, expansion)
    bare: list[str] = []
    loose: list[Expansion] = []
    quoted: list[Expansion] = []
    inside = False  # within double quotes
    i, end = 0, len(text)
    while i < end:
        here = starts.get(i)
        if here is not None and here.kind not in _SCANNED_KINDS:
            (quoted if inside else loose).append(here)
            i += max(len(here.text), 1)
            continue
        char = text[i]
        if char == "\\":
            i += 2
        elif char == '"':
            inside = not inside
            i += 1
        elif inside:
            if char == "`" or (char == "$" and i + 1 < end and _dollar_expands(text[i + 1])):
                return None  # an expansion the analyser did not record: not followed
            i += 1
        elif char == "'" or text.startswith("$'", i):
            close = _ansi_c_end(text, i + 2) if char == "$" else text.find("'", i + 1)
            if close < 0:
                return None
            i = close + 1
        elif text.startswith('$"', i):
            inside = True  # `$"…"`: translated, quoted as `"…"` is
            i += 2
        else:
            bare.append(char)
            i += 1
    return None if inside else ("".join(bare), loose, quoted)


def _splits_at_blanks(reading: tuple[str, list[Expansion], list[Expansion]]) -> bool:
    bare, loose, quoted = reading
    # (anywhere in it: `"${u:-${a[@]}}"`, `"${1+"$@"}"` are one word per element too,
    # review CH1)
    if any(_EVERY_ELEMENT.search(e.text) for e in quoted if e.kind is ExpansionKind.PARAMETER):
        return True
    if any(e.kind in _BLANK_SPLITTING and e.text not in _ONE_WORD for e in loose):
        return True
    if "{" in bare and "}" in bare and ("," in bare or ".." in bare):
        return True  # a brace expansion the analyser left in (`{$$,-e}`: review CI11)
    return "`" in bare or "$" in bare


def _dollar_expands(following: str) -> bool:
    return following.isalpha() or following in _EXPANDS_AFTER_DOLLAR


def _ansi_c_end(text: str, start: int) -> int:
    """The index of the quote closing a `$'…'` whose body starts at `start` (-1: none);
    a backslash escapes the character after it, a quote too."""
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == "'":
            return i
        else:
            i += 1
    return -1


class Connector(enum.StrEnum):
    """What follows a segment in its list."""

    SEQ = ";"
    AND = "&&"
    OR = "||"
    PIPE = "|"
    PIPE_ALL = "|&"
    BACKGROUND = "&"
    NEWLINE = "newline"
    END = "end"


class Scope(enum.StrEnum):
    """A construct enclosing a segment (outermost first in `Segment.scopes`)."""

    SUBSHELL = "subshell"
    GROUP = "group"
    IF_CONDITION = "if-condition"
    IF_BODY = "if-body"
    WHILE_CONDITION = "while-condition"
    LOOP_BODY = "loop-body"
    FOR = "for"
    CASE = "case"
    SELECT = "select"
    FUNCTION_BODY = "function-body"
    NEGATION = "negation"  # ! cmd
    TIME = "time"  # the `time` keyword
    PIPELINE = "pipeline"  # a non-final stage runs in a subshell
    COPROC = "coproc"  # `coproc [NAME] COMMAND`: runs asynchronously in a subshell


class SegmentKind(enum.StrEnum):
    SIMPLE = "simple"  # argv with optional assignments/redirects
    ASSIGNMENT_ONLY = "assignment-only"  # `A=1 B=2` with no command
    TEST = "test"  # [[ … ]]
    ARITHMETIC = "arithmetic"  # (( … ))
    FUNCTION_DEF = "function-def"  # `f() { … }` — body segments follow with FUNCTION_BODY
    LOOP_HEADER = "loop-header"  # `for x in WORDS` / `select`: the words expanded
    CASE_HEADER = "case-header"  # `case WORD in`


@dataclass(frozen=True, slots=True, kw_only=True)
class Segment:
    """One unit of execution, flattened out of the structure.

    Compound constructs do not appear as segments of their own: their parts do, with
    the enclosing constructs listed in `scopes` and a `group` id so that state changes
    such as `cd` can be scoped (a `cd` inside a subshell does not affect what follows).
    """

    kind: SegmentKind
    words: tuple[Word, ...] = ()  # argv for SIMPLE; operands for TEST/LOOP_HEADER/CASE
    assignments: tuple[Assignment, ...] = ()
    redirects: tuple[Redirect, ...] = ()  # its own plus those of enclosing compounds
    connector: Connector = Connector.END
    scopes: tuple[Scope, ...] = ()
    group: int = 0  # id of the innermost subshell/pipeline-stage (0 = top level)
    name: str | None = None  # function name for FUNCTION_DEF, loop variable for LOOP_HEADER
    text: str = ""
    declared: tuple[Assignment, ...] = ()  # `export A=1`: the NAME=VALUE operands, parsed
    wrapped: Unwrapped | None = None  # set when argv[0] is a wrapper (sudo, env, bash -c …)
    span: Span = field(compare=False)

    @property
    def argv(self) -> tuple[str | None, ...]:
        return tuple(w.value for w in self.words)

    @property
    def command_words(self) -> tuple[Word, ...]:
        """The words of the command that finally runs: `words` seen through any wrappers."""
        return self.words if self.wrapped is None else self.wrapped.words


@dataclass(frozen=True, slots=True, kw_only=True)
class WrapperUse:
    """One wrapper in a chain (`sudo -u root`): its name and its own words (argv[0] first)."""

    name: str
    kind: str  # "wrapper" or "shell" (see `shell.wrappers.WrapperKind`)
    words: tuple[Word, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Unwrapped:
    """A command seen through its wrappers: `sudo env A=1 timeout 5 rm x` → chain + `rm x`.

    `opaque` means the inner command cannot be known (a non-literal `bash -c` string, a
    script file, commands read from standard input, an unknown wrapper option); `reason`
    says why. `nested` holds the command line of a literal `bash -c STRING` (its spans are
    offsets into its own `text`; its `anchor` is the span of STRING in the outer line).
    """

    chain: tuple[WrapperUse, ...]
    words: tuple[Word, ...]  # the inner command's words; () when there is none
    assignments: tuple[Assignment, ...] = ()  # `env NAME=V` assignments made by the chain
    nested: CommandLine | None = None
    opaque: bool = False
    reason: str = ""
    problems: tuple[Problem, ...] = ()
    # a shell that reads its commands from standard input (`bash`, `sh -s`): opaque, but a
    # literal here-string or here-document, or an `echo` piped in, shows some of them
    reads_stdin: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """Something the analyser could not fully see. The engine fails closed on any."""

    code: str  # stable: shell.syntax-error, shell.missing-node, shell.unhandled-node,
    # shell.limit-depth, shell.limit-segments, shell.limit-length, …
    message: str
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandLine:
    """A parsed command line: its segments in execution order and any problems.

    `context` says where a nested line sits ("inside $() in argument 2 of segment 1").
    Nested lines (substitutions, `bash -c` strings) are reachable from words, redirect
    targets, assignment values and heredocs; `walk()` in `shell.parse` yields them all.
    """

    text: str
    segments: tuple[Segment, ...]
    problems: tuple[Problem, ...] = ()  # root line: every problem, nested ones included
    context: str = ""
    depth: int = 0
    # A nested line re-parsed from a string (`bash -c STRING`, backticks with escapes) has
    # spans into its own `text` (reparsed=True); other nested lines share the root's
    # offsets. `anchor` is the span, in the parent's coordinates, the nested line came from.
    reparsed: bool = False
    anchor: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Analysis limits; exceeding one is a Problem, never a crash or a silent cut."""

    max_length: int = 100_000  # characters of one command line
    max_depth: int = 32  # nesting of substitutions / bash -c / compounds
    max_segments: int = 2_000  # segments across the whole line, nested ones included
