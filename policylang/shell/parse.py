"""The shell analyser: the only module that imports tree_sitter / tree_sitter_bash.

`parse_command(text)` turns one untrusted command line into the frozen model of
`shell.model`. No tree-sitter object leaves this module. The walk is defensive:

- it never raises on any `str` (NUL, lone surrogates, huge or deeply nested input);
- every ERROR or MISSING node, and every node kind it does not handle, becomes a `Problem`;
- recursion is bounded by the nesting depth limit (lists and pipelines, which tree-sitter
  nests once per operator, are flattened iteratively), so `a && a && …` 10,000 times or
  `$($($(…)))` 500 deep end in a problem, not a `RecursionError`.

Byte offsets from tree-sitter are converted to character offsets in `_Source.char` and
nowhere else.

>>> line = parse_command("FOO=1 sudo rm -rf $'\\\\x7e' && echo $(id)")
>>> [seg.argv for seg in line.segments]
[('sudo', 'rm', '-rf', '~'), ('echo', None)]
>>> [(l.context, s.argv) for l, s in walk(line)][-1]
('inside $() in argument 1 of segment 2', ('id',))
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Final

import tree_sitter
import tree_sitter_bash

from policylang.shell import _build, _exposure, _keywords, _scan
from policylang.shell.model import (
    Assignment,
    CommandLine,
    Connector,
    Expansion,
    ExpansionKind,
    Heredoc,
    Limits,
    Problem,
    Redirect,
    Scope,
    Segment,
    SegmentKind,
    Unwrapped,
    Word,
)
from policylang.shell.plain import plain_line
from policylang.shell.quoting import (
    LocaleDependent,
    bytes_to_text,
    decode_ansi_c,
    pattern_kinds,
    unescape_backquoted,
    unquote_bare,
    unquote_double,
)
from policylang.shell.walk import expansions as segment_expansions
from policylang.shell.walk import nested_lines, walk
from policylang.shell.wrappers import DEFAULT_WRAPPERS, WrapperTable, unwrap
from policylang.span import Span

__all__ = ["HARD_MAX_DEPTH", "analyse", "nested_lines", "parse_command", "walk"]

_log = logging.getLogger(__name__)

_LANGUAGE: Final = tree_sitter.Language(tree_sitter_bash.language())
_LOCAL = threading.local()

#: Nesting deeper than this is a problem whatever `Limits.max_depth` says: it keeps the
#: walk's recursion far below Python's stack limit.
HARD_MAX_DEPTH: Final = 64

Node = tree_sitter.Node


def _parser() -> tree_sitter.Parser:
    parser: tree_sitter.Parser | None = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = tree_sitter.Parser(_LANGUAGE)
        _LOCAL.parser = parser
    return parser


# a quoted part, an escaped character, or (group 1) a character that ends a bash word
_WORD_END: Final = re.compile(r"""'[^']*'|"(?:[^"\\]|\\.)*"|\\.|([|&;<>()\s])""", re.DOTALL)


def _unquoted_metacharacter(raw: str) -> str | None:
    """The first character of `raw` outside quotes that ends a word for bash, if any."""
    at = _word_end(raw)
    return None if at is None else raw[at]


def _word_end(raw: str) -> int | None:
    """Where in `raw` the first character outside quotes that ends a bash word is."""
    for match in _WORD_END.finditer(raw):
        if match.group(1):
            return match.start(1)
    return None


def _tree(data: bytes) -> Node:
    """tree-sitter's tree of `data`, parsed as a terminated line.

    The bytes are made ASCII first (see `_ASCII_ONLY`). WHY the newline: at the end of
    input tree-sitter-bash takes 20-40 times longer on a pipeline of three or more
    commands (`a | b | c`: 47 µs; `a | b | c` and a newline: 4 µs). For bash a final
    newline changes nothing, except after a backslash (a line continuation), so such
    input is parsed as it is. The newline adds no node; the rare
    node that ends on it (an error at the end) is clamped to the text by `_Source.char`.
    """
    if data and data[-1] not in _UNTERMINABLE:
        data += b"\n"
    data = data.translate(_ASCII_ONLY)
    parser = _parser()
    if len(data) <= _UNTIMED_BYTES:
        return parser.parse(data).root_node
    # WHY: tree-sitter's error recovery is quadratic (`ls a(b)a(b)…`, 96 KB: 72 s, review
    # H6); a long line is parsed under the deadline `parse_command` set, through the
    # chunked interface (the only one that honours a progress callback)
    deadline = getattr(_LOCAL, "deadline", None) or time.monotonic() + PARSE_SECONDS

    def past_deadline(*_state: object) -> bool:
        return time.monotonic() > deadline

    try:
        tree = parser.parse(
            lambda offset, _point: data[offset:],
            progress_callback=past_deadline,
        )
    except ValueError as error:  # halted by the callback
        parser.reset()
        raise ParseTimeout from error
    return tree.root_node


class ParseTimeout(Exception):
    """tree-sitter did not finish within `PARSE_SECONDS`."""


#: Lines up to this many bytes are parsed without a deadline (4 KB of errors: 0.2 s).
_UNTIMED_BYTES: Final = 4096
#: The most time tree-sitter may spend on one command line, nested strings included.
PARSE_SECONDS: Final = 1.0


_UNTERMINABLE: Final = frozenset(b"\\\n")
# WHY: tree-sitter-bash's scanner reads out of bounds on some characters beyond the BMP
# after `{` (`{` U+10FFFF crashes the process, intermittently). Bash's metacharacters and
# quotes are all ASCII, so every other byte is a word character to it; tree-sitter gets
# each non-ASCII byte as `x` (same length: offsets hold), and words still take their
# text from the original. Two different non-ASCII here-document words may then look alike
# to tree-sitter, which can only end a body early and show more of the line as commands.
_ASCII_ONLY: Final = bytes(range(128)) + b"x" * 128


class _Source:
    """One parsed text: its encoding and the byte→character offset conversion."""

    __slots__ = ("_chars", "ascii", "backslash", "data", "newline", "size", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.size = len(text)
        self._chars: list[int] | None = None
        self.ascii = len(self.data) == len(text)  # then byte offsets are character offsets
        self.backslash = b"\\" in self.data  # escapes need the slower word grouping
        self.newline = b"\n" in self.data
        if not self.ascii:
            chars: list[int] = []
            for index, ch in enumerate(text):
                code = ord(ch)
                size = 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
                chars.extend([index] * size)
            chars.append(len(text))
            self._chars = chars

    def char(self, byte: int) -> int:
        """The character offset of a byte offset (the one place bytes become characters)."""
        chars = self._chars
        if chars is None:
            return byte if byte <= self.size else self.size
        return chars[min(byte, len(chars) - 1)]

    def span(self, node: Node) -> Span:
        return _build.span(self.char(node.start_byte), self.char(node.end_byte))

    def slice(self, node: Node) -> str:
        return self.text[self.char(node.start_byte) : self.char(node.end_byte)]


class _Shared:
    """State of one `parse_command` call, shared by the root line and every nested line."""

    __slots__ = ("limits", "max_depth", "segments", "segments_reported", "wrappers")

    def __init__(self, limits: Limits, wrappers: WrapperTable) -> None:
        self.limits = limits
        self.wrappers = wrappers
        self.max_depth = min(limits.max_depth, HARD_MAX_DEPTH)
        self.segments = 0
        self.segments_reported = False


class _Line:
    """One command line under construction."""

    __slots__ = ("depth", "groups", "pending", "problems", "where")

    def __init__(self, depth: int, where: str) -> None:
        self.depth = depth
        self.where = where
        self.pending: list[Segment] = []  # connectors are set as the line is walked
        self.problems: list[Problem] = []
        self.groups = 0

    def new_group(self) -> int:
        self.groups += 1
        return self.groups


class _Ctx:
    """Where a statement sits: its line, enclosing scopes, group, inherited redirects, depth."""

    __slots__ = ("depth", "group", "line", "redirects", "scopes")

    def __init__(
        self,
        line: _Line,
        scopes: tuple[Scope, ...],
        group: int,
        redirects: tuple[Redirect, ...],
        depth: int,
    ) -> None:
        self.line = line
        self.scopes = scopes
        self.group = group
        self.redirects = redirects
        self.depth = depth

    def inner(
        self,
        scope: Scope | None = None,
        *,
        group: int | None = None,
        redirects: tuple[Redirect, ...] = (),
    ) -> _Ctx:
        scopes = self.scopes if scope is None else (*self.scopes, scope)
        return _Ctx(
            self.line,
            scopes,
            self.group if group is None else group,
            self.redirects + redirects,
            self.depth + 1,
        )


_CONNECTORS: Final = {
    ";": Connector.SEQ,
    "&&": Connector.AND,
    "||": Connector.OR,
    "|": Connector.PIPE,
    "|&": Connector.PIPE_ALL,
    "&": Connector.BACKGROUND,
    ";;": Connector.SEQ,
    ";&": Connector.SEQ,
    ";;&": Connector.SEQ,
}
_AND_OR: Final = frozenset({Connector.AND, Connector.OR, Connector.PIPE, Connector.PIPE_ALL})
_PIPES: Final = frozenset({Connector.PIPE, Connector.PIPE_ALL})

_WORDLIKE: Final = frozenset(
    {
        "word", "string", "raw_string", "concatenation", "simple_expansion", "expansion",
        "command_substitution", "process_substitution", "arithmetic_expansion",
        "ansi_c_string", "translated_string", "number", "brace_expression", "variable_name",
        "extglob_pattern", "regex", "test_operator", "special_variable_name", "$",
    }
)  # fmt: skip
_REDIRECTS: Final = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_CLOSING: Final = frozenset({"<&-", ">&-"})  # take no word: `2>&- x` passes `x` (review BU7)
_DUPLICATING: Final = frozenset({"<&", ">&"})  # `<& -x` closes and passes `x` (review BU5)
# `{NAME}>file` (also `{a[i]}`): bash assigns the descriptor it opens to NAME (review BU2)
_VARIABLE_REDIRECT: Final = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\[[^\n]*\])?)\}")
_LONE_DASH: Final = re.compile(rb"[ \t]+-[ \t]+")  # (between two words)
_PLAIN_PREFIX: Final = re.compile(r"-[A-Za-z0-9_-]*")  # `-i` that tree-sitter glues to `<<`
# a here-document word whose end line bash and tree-sitter agree on: plain, or wholly
# quoted once (`EOF`, `'EOF'`, `"EOF"`, `\EOF`)
_PLAIN_HEREDOC_WORD: Final = re.compile(
    r"(?:[A-Za-z0-9_.,:+@%=/-]|\\[^\n])+"  # EOF, \EOF, E\|F
    r"|'[^'\n\\]+'"  # 'EOF', 'E|F' (not 'E\F': tree-sitter drops that backslash)
    r'|"[^"\n\\$`]+"'  # "EOF", "E;F"
)
# what a heredoc_redirect may hold besides the command's own words: its parts, redirects,
# and the rest of the line that `_heredoc_continuation` reads (`cat <<E | sh`)
_HEREDOC_PARTS: Final = frozenset(
    {"file_descriptor", "heredoc_start", "heredoc_body", "heredoc_end", "comment"}
    | {"list", "pipeline"}
) | _REDIRECTS
_BARE: Final = frozenset(
    {"word", "number", "variable_name", "extglob_pattern", "regex", "test_operator",
     "special_variable_name", "$", "file_descriptor"}
)  # fmt: skip
_PLAIN_SPECIAL: Final = re.compile(r"[\\*?\[{~(\s$]")
_BLANKS: Final = re.compile(r"[ \t\n]")
_REGEX_MISMATCH: Final = re.compile(rb"[ \t\n;&|<>()]")  # bash ends a word at these
# an unquoted, unescaped operator character: one in a `[ … ]` test ends bash's command
# or starts a redirect there (quoted parts and escapes are skipped, group 1 is the hit)
_BRACKET_OPERATOR: Final = re.compile(rb"""'[^']*'|"(?:[^"\\]|\\.)*"|\\.|([|&;<>()])""", re.DOTALL)
_OPERATOR_CHARACTER: Final = re.compile(rb"[|&;<>()]")
_REGEX_QUOTING: Final = re.compile(rb"[$'\"`\\]")  # what a pattern keeps and a word does not
# what in a `[[ =~ ]]` pattern a word's parse reads differently: quotes, a backquote, a `$`
# that expands (not the `$` ending `^[0-9]+$`; `\.` means the same in both)
_PATTERN_QUOTING: Final = re.compile(rb"['\"`]|\$[0-9A-Za-z_@*#?!$\-{(\[]")
_BARE_BACKTICK: Final = re.compile(r"(?<!\\)(?:\\\\)*`")
_SUBSTITUTION_LABEL: Final = {"$(": "$()", "`": "backticks", "<(": "<()", ">(": ">()"}
_ERROR_EXCERPT = 40


DEFAULT_LIMITS: Final = Limits()


def parse_command(
    text: str, *, limits: Limits = DEFAULT_LIMITS, wrappers: WrapperTable | None = None
) -> CommandLine:
    """Analyse one command line into the shell model; never raises for any `str`.

    Args:
        text: the command line, untrusted.
        limits: length, depth and segment limits; exceeding one is a problem.
        wrappers: the wrapper table used to see through `sudo`, `env`, `bash -c` …
            (default: `DEFAULT_WRAPPERS`).

    Returns:
        The command line. `problems` lists everything the analyser could not see
        (syntax errors, unhandled constructs, limits), nested lines' problems included.
    """
    if "\x00" in text:
        # bash drops NUL bytes from what it reads (stdin, a pty): `cat .e\0nv` reads `.env`
        # there, while the words here keep them (review AI3); the model is bash's reading
        # (spans point into the text without them)
        where = text.index("\x00")
        read = parse_command(text.replace("\x00", ""), limits=limits, wrappers=wrappers)
        problem = Problem(
            code="shell.nul-byte",
            message="the command holds a NUL byte, which bash drops or stops at, depending "
            "on how it reads the command",
            span=Span(min(where, max(len(read.text) - 1, 0)), min(where + 1, len(read.text))),
        )
        return CommandLine(
            text=read.text, segments=read.segments, problems=(*read.problems, problem)
        )
    table = DEFAULT_WRAPPERS if wrappers is None else wrappers
    _LOCAL.deadline = time.monotonic() + PARSE_SECONDS
    try:
        if len(text) <= limits.max_length and not _exposure.may_substitute(text):
            # most lines are a few plain words: the fast path builds the same model (a
            # quoted `'a[$(x)]'` goes to the analyser, whose safety net reports it)
            line = plain_line(text, wrappers=table)
            if line is not None and len(line.segments) <= limits.max_segments:
                return _safety_net(line) if _NET_ON_PLAIN.search(text) else line
        return _parse_text(text, _Shared(limits, table), depth=0, where="", anchor=None)
    except ParseTimeout:
        problem = Problem(
            code="shell.limit-time",
            message=f"the shell analyser gave up after {PARSE_SECONDS:g} s on this command",
            span=Span(0, len(text)),
        )
        return CommandLine(text=text, segments=(), problems=(problem,))
    except Exception:  # INVARIANT: untrusted text never raises; an internal bug fails closed
        _log.exception("shell analyser failed on %r", text[:200])
        problem = Problem(
            code="shell.internal-error",
            message="the shell analyser failed on this command",
            span=Span(0, len(text)),
        )
        return CommandLine(text=text, segments=(), problems=(problem,))
    finally:
        _LOCAL.deadline = None


def analyse(
    text: str, *, limits: Limits = DEFAULT_LIMITS, wrappers: WrapperTable | None = None
) -> CommandLine:
    """`parse_command` without the plain-line fast path: always the tree-sitter analyser.

    For differential tests of `shell.plain` (both must build the same model) and for
    debugging; it raises on an internal error where `parse_command` fails closed.
    """
    shared = _Shared(limits, DEFAULT_WRAPPERS if wrappers is None else wrappers)
    return _parse_text(text, shared, depth=0, where="", anchor=None)


def _parse_text(
    text: str, shared: _Shared, *, depth: int, where: str, anchor: Span | None
) -> CommandLine:
    reparsed = anchor is not None
    if len(text) > shared.limits.max_length:
        problem = Problem(
            code="shell.limit-length",
            message=f"command is {len(text)} characters long, over the limit of "
            f"{shared.limits.max_length}",
            span=Span(0, len(text)),
        )
        return CommandLine(
            text=text, segments=(), problems=(problem,), context=where, depth=depth,
            reparsed=reparsed, anchor=anchor,
        )  # fmt: skip
    if reparsed and not _exposure.may_substitute(text):
        # a `bash -c` string is usually plain too (see `parse_command`)
        plain = plain_line(text, wrappers=shared.wrappers)
        count = shared.segments + len(plain.segments) if plain is not None else 0
        if plain is not None and count <= shared.limits.max_segments:
            shared.segments = count
            return _build.command_line(text, plain.segments, (), where, depth, True, anchor)
    source = _Source(text)
    parsed = source.data
    root = _tree(parsed)
    walker = _Walker(source, shared)
    repairs: list[Problem] = []  # what the repairs found, kept across walks
    if source.backslash and b"\\\\'" in parsed:  # `\\'`, where `$'…'` may run on
        root, parsed = walker.end_ansi_c_strings(root, parsed)
    if 0x23 in parsed:  # `#`
        root, parsed = walker.unhide_comments(root, parsed, repairs)
    if b"<<" in parsed:
        root, parsed = walker.unglue_heredocs(root, parsed, repairs)
    if b"<>" in parsed:
        root, parsed = walker.read_write_redirects(root, parsed, repairs)
    prefixes: dict[int, tuple[str, ...]] = {}
    for _ in range(_MAX_REPAIRS):
        saved = shared.segments, shared.segments_reported
        line = walker.walk(root, _Line(depth, where), repairs, prefixes)
        if not walker.found and not walker.brackets:
            break
        shared.segments, shared.segments_reported = saved
        if walker.brackets:  # `[ a|| rm x ]`: walk again with `[` read as a command name
            parsed = walker.unbracket_tests(parsed)
        if walker.found:
            # `coproc { … }`, `time ! …`: walk again with the prefix keywords blanked out
            root, parsed = walker.blank_prefixes(parsed, prefixes, repairs)
        else:
            root = _tree(parsed)
        if b"<>" in parsed:
            # `[ a = b <> f ]`: a `<>` tree-sitter read as a test operator is a redirect
            # now (review HG1)
            root, parsed = walker.read_write_redirects(root, parsed, repairs)
    else:
        message = (
            f"prefix keywords or `[` tests nested more than {_MAX_REPAIRS} deep are not analysed"
        )
        line.problems.append(
            Problem(code="shell.limit-depth", message=message, span=Span(0, len(text)))
        )
    finished = walker.finish(line, text, reparsed=reparsed, anchor=anchor)
    if not finished.problems and (
        _NET_ON_PLAIN.search(text) or _exposure.may_substitute(text) or _may_misjoin(text)
    ):
        # a line with a problem asks already; the net is for lines that look complete
        return _safety_net(finished)
    return finished


# bash removes each `\⏎` before it reads tokens, tree-sitter only where it expects one:
# text glued to a continuation on both sides is one token for bash, which tree-sitter may
# read apart (`if\⏎env -i` runs `ifenv`, `$GITHUB_TO\⏎KEN` expands GITHUB_TOKEN, `$(\⏎(`
# is arithmetic, `${_@\⏎P}` a prompt expansion: the argv oracle's mutation sweep, review
# CC) or read whole but as another kind of token (`t\⏎ime -v ls` is the `time` keyword)
_RESERVED_WORDS: Final = frozenset(
    {"if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until",
     "for", "in", "select", "function", "time", "coproc", "{", "}", "!", "[[", "]]"}
)  # fmt: skip
_ASSIGNMENT_START: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[.*\])?\+?=", re.DOTALL)
_BLANK_CHARACTERS: Final = " \t\n"


def _glued_continuations(line: CommandLine) -> list[Problem]:
    r"""Each run of line continuations with text right before and after it, unless a
    literal word of the model spans it and bash reads that word as a plain word too (not
    a reserved word or an assignment), or it lies in a here-document body bash does not
    expand. Inside single quotes a `\⏎` is text, and such a word is literal."""
    text = line.text
    runs = [
        (start, end)
        for start, end in _continuation_runs(text)
        if start > 0 and end < len(text) and text[start - 1] not in _BLANK_CHARACTERS
        and (text[end] not in _BLANK_CHARACTERS or _ends_funsub_brace(text, start))
    ]  # fmt: skip
    if not runs:
        return []
    plain, literal_bodies = _plain_spans(line)
    found: list[Problem] = []
    for start, end in runs:
        if any(first < start and end < last for first, last in plain) or any(
            first <= start and end <= last for first, last in literal_bodies
        ):
            continue
        found.append(
            Problem(
                code="shell.syntax-mismatch",
                message="bash joins the text on both sides of this line continuation before "
                "it reads the line, which the analyser read otherwise",
                span=Span(start, end),
            )
        )
    return found


def _ends_funsub_brace(text: str, start: int) -> bool:
    r"""Whether the text before the continuation run at `start` ends in `${`, any `\⏎`
    between the two taken out: with the blank, newline or `|` after the run, bash 5.3
    reads `${ cmd; }`, a command substitution in the current shell (review GX1)."""
    if start < 2 or text[start - 1] != "{":
        return False
    at = start - 2
    while at >= 1 and text[at - 1 : at + 1] == "\\\n":
        at -= 2
    return at >= 0 and text[at] == "$"


def _line_end(text: str, start: int, end: int) -> int:
    r"""The first newline of `text[start:end]` that ends a line for bash: not one a `\`
    continues (a here-document's body starts after the line that holds its `<<`, which
    may be continued: `cat <<'E'; echo "$GITHUB_TO\⏎KEN"⏎x⏎E`), or -1."""
    at = text.find("\n", start, end)
    while at != -1:
        before = at
        while before > start and text[before - 1] == "\\":
            before -= 1
        if (at - before) % 2 == 0:
            return at
        at = text.find("\n", at + 1, end)
    return -1


def _body_expands(heredoc: Heredoc) -> bool:
    return not heredoc.quoted and ("$" in heredoc.body or "`" in heredoc.body)


def _continuation_runs(text: str) -> list[tuple[int, int]]:
    r"""The spans of the runs of `\⏎` in `text` whose backslash is not itself escaped."""
    runs: list[tuple[int, int]] = []
    at = text.find("\\\n")
    while at != -1:
        before = at
        while before > 0 and text[before - 1] == "\\":
            before -= 1
        if (at - before) % 2 == 0:  # (`\\⏎` is a backslash and a newline)
            if runs and runs[-1][1] == at:
                runs[-1] = (runs[-1][0], at + 2)
            else:
                runs.append((at, at + 2))
        at = text.find("\\\n", at + 2)
    return runs


def _plain_spans(line: CommandLine) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The spans of the literal words of `line` and of the lines nested in it that share
    its text, that bash reads as plain words (not the re-parsed lines: their spans are
    their own string's; not words holding a substitution: they span the line nested in
    them), and the spans of its here-document bodies that bash does not expand."""
    spans: list[tuple[int, int]] = []
    bodies: list[tuple[int, int]] = []
    stack = [line]
    while stack:
        current = stack.pop()
        for segment in current.segments:
            words = [*segment.words, *(a.value for a in segment.assignments if a.value)]
            for redirect in segment.redirects:
                if redirect.target is not None:
                    words.append(redirect.target)
                heredoc = redirect.heredoc
                if heredoc is not None and not _body_expands(heredoc):
                    first = _line_end(line.text, heredoc.span.start, heredoc.span.end)
                    if first != -1:
                        bodies.append((first, heredoc.span.end))
            spans.extend(
                (word.span.start, word.span.end)
                for word in words
                if word.value is not None
                and not word.expansions
                and word.value not in _RESERVED_WORDS
                and not _ASSIGNMENT_START.match(word.value)
            )
            # an assignment tree-sitter read whole across a continuation (`LC_X[1]\⏎=a`)
            spans.extend(
                (assignment.span.start, assignment.span.end)
                for assignment in segment.assignments
                if assignment.array is None
                and all(
                    part is None or (part.value is not None and not part.expansions)
                    for part in (assignment.value, assignment.subscript)
                )
            )
            for expansion in segment_expansions(segment):
                if expansion.nested is not None and not expansion.nested.reparsed:
                    stack.append(expansion.nested)
    return spans, bodies


_NET_ON_PLAIN: Final = re.compile(r"[\[\n#]|\$\{|=\\")  # `=\`: review AV1


def _safety_net(line: CommandLine) -> CommandLine:
    """Add a problem for each substitution bash may run that the walk did not record, for
    each CR, VT or FF that may split a word bash does not split, and for each word that
    names an array element whose subscript runs a substitution (`'a[$(x)]'`)."""
    unseen: list[tuple[int, str]] = []
    if _exposure.may_substitute(line.text):
        spans, arithmetic, covered = _substitution_spans(line)
        # a control character inside a re-parsed string is still reported here: tree-sitter
        # split this line's words at it, and `eval`'s string is those words joined by
        # blanks (`eval echo a<VT>\;`: bash evals `echo a<VT>;`, the nested line read `a ;`)
        unseen = [
            (where, what)
            for where, what in _exposure.unseen_substitutions(line.text, spans, arithmetic)
            if what in _exposure.CONTROL_BLANKS
            or not any(start <= where < end for start, end in covered)
        ]
    if "[" in line.text:
        unseen.extend(_code_subscripts(line))
    problems = list(line.problems)
    if _may_misjoin(line.text):
        problems.extend(_misjoined_words(line))
    if "\\\n" in line.text:
        problems.extend(_glued_continuations(line))
    if not unseen:
        return _build.command_line(
            line.text, line.segments, tuple(problems), line.context, line.depth,
            line.reparsed, line.anchor,
        ) if len(problems) > len(line.problems) else line  # fmt: skip
    for offset, what in unseen:
        message = (
            f"bash may run a substitution at `{line.text[offset : offset + 20]}` that the "
            "analyser cannot see"
        )
        if what in _exposure.CONTROL_BLANKS:
            message = (
                f"bash keeps {what!r} inside the word here, where the analyser may have "
                "split it"
            )
        elif what == "'[…$(…)]'":
            message = (
                "a quoted array subscript holding a substitution runs it wherever bash "
                "reads the word as a variable name or arithmetic"
            )
        code = "shell.unseen-substitution"
        if what in _exposure.CONTROL_BLANKS:
            code = "shell.control-blank"
        problems.append(
            Problem(
                code=code,
                message=message,
                span=Span(offset, min(offset + len(what), len(line.text))),
            )
        )
    return _build.command_line(
        line.text, line.segments, tuple(problems), line.context, line.depth,
        line.reparsed, line.anchor,
    )  # fmt: skip


# what may make tree-sitter join what bash splits: a newline inside a word (`echo =~ $⏎rm`
# is two commands), a `#` it drops between words, a `}` that ends a `${…}` early for bash
# and an escaped blank after `=`, which tree-sitter drops from the value (review AV1), or
# an escaped character glued to a value (`a=$(ls)\␠b` or `a=$x\;b`: tree-sitter ends the
# value before it)
_MAY_MISJOIN: Final = re.compile(r"\n|#|\$\{|=\\")
_GLUED_ESCAPE: Final = re.compile(r"\S\\.")


def _may_misjoin(text: str) -> bool:
    return bool(_MAY_MISJOIN.search(text)) or ("=" in text and bool(_GLUED_ESCAPE.search(text)))
_ENCLOSED: Final = re.compile(r"(?:\$\(|<\(|>\().*\)|`.*`|\$\{.*\}|\$\[.*\]", re.DOTALL)
_MAY_BREAK: Final = re.compile(r"[\n \t'\"]")
_WORD_GAP: Final = re.compile(r"(?:[ \t]|\\\n)*")


# segments whose words and assignments are read against the text: an assignment with no
# command after it too (`CI=\⏎ reboot` runs `reboot`; tree-sitter read `CI=reboot`)
_WORD_SEGMENTS: Final = frozenset({SegmentKind.SIMPLE, SegmentKind.ASSIGNMENT_ONLY})


def _misjoined_words(line: CommandLine) -> list[Problem]:
    """Where the words of a simple command are not what bash reads: a raw newline outside
    quotes inside a word, text between words that is neither blanks nor a line
    continuation (a dropped `#…`), or a `${…}` that bash closes before its last `}`."""
    found: list[Problem] = []
    text = line.text
    stack = [line]
    while stack:
        current = stack.pop()
        for segment in current.segments:
            if segment.kind in _WORD_SEGMENTS:
                found.extend(_segment_misjoins(text, segment))
            for expansion in segment_expansions(segment):
                if expansion.kind is ExpansionKind.PARAMETER and _closes_early(expansion.text):
                    found.append(
                        Problem(
                            code="shell.word-mismatch",
                            message=f"bash ends `{expansion.text[:30]}` at its first `}}`",
                            span=expansion.span,
                        )
                    )
                nested = expansion.nested
                if nested is not None and not nested.reparsed:
                    stack.append(nested)
    return found


def _joined(text: str, start: int, end: int) -> str:
    r"""`text[start:end]` as bash reads it, its line continuations removed (`CI=\⏎1` is
    `CI=1`)."""
    return text[start:end].replace("\\\n", "")


def _segment_misjoins(text: str, segment: Segment) -> list[Problem]:
    found: list[Problem] = []
    words = [w.span for w in segment.words] + [a.span for a in segment.assignments]
    pieces = sorted(
        words + [r.span for r in segment.redirects if segment.span.start <= r.span.start],
        key=lambda span: span.start,
    )
    for word in segment.words:
        if word.text.startswith("#"):
            found.append(
                Problem(
                    code="shell.comment-mismatch",
                    message="a `#` that starts a word starts a comment for bash",
                    span=word.span,
                )
            )
        if _MAY_BREAK.search(word.text) and _raw_newline(_outside_expansions(word)):
            found.append(
                Problem(
                    code="shell.word-mismatch",
                    message="bash does not read this as one word (a blank or newline outside "
                    "quotes, or a quote left open)",
                    span=word.span,
                )
            )
    for assignment in segment.assignments:
        value = assignment.value
        start = assignment.span.start
        if value is not None and not _joined(text, start, value.span.start).endswith("="):
            # `LC_ALL=\␠␠sudo id`: bash's value is the blank and `sudo` the command;
            # tree-sitter dropped the `\␠` and made `sudo` the value (review AV1)
            found.append(
                Problem(
                    code="shell.dropped-text",
                    message=f"bash reads `{text[assignment.span.start : value.span.start][:30]}`"
                    " as the start of this assignment, which the analyser dropped",
                    span=Span(assignment.span.start, value.span.start),
                )
            )
    found.extend(_glued_to_assignment(text, segment))
    starts = {span.start for span in words}
    for left, right in itertools.pairwise(pieces):
        if left.end == right.start and right.start in starts and left in words:
            # two words or assignments with nothing between them are one word for bash
            # (none of the corpora's lines has such a pair without another problem)
            found.append(
                Problem(
                    code="shell.word-mismatch",
                    message="bash reads these as one word: nothing separates them",
                    span=Span(left.start, right.end),
                )
            )
        if not left.end < right.start <= segment.span.end:
            continue
        if _WORD_GAP.fullmatch(text, left.end, right.start) is None:
            found.append(
                Problem(
                    code="shell.dropped-text",
                    message=f"bash reads `{text[left.end : right.start][:30]}` between "
                    "these words, which the analyser dropped",
                    span=Span(left.end, right.start),
                )
            )
        elif not text[left.end : right.start].replace("\\\n", ""):
            # only line continuations between them: bash reads one word (`LC_ALL=C\⏎echo rm
            # -rf ~` sets `LC_ALL=Cecho` and runs `rm`; tree-sitter ends the value at `\`)
            found.append(
                Problem(
                    code="shell.word-mismatch",
                    message="bash joins these words across the line continuation between them",
                    span=Span(left.start, right.end),
                )
            )
    return found


def _after_pipe(data: bytes, start: int) -> bool:
    """Whether a `|` or `|&` comes before `start`: bash reads `time` there as the program
    (`ls | time -v cat`), the keyword only starting a pipeline."""
    before = data[:start].replace(b"\\\n", b"").rstrip(b" \t\n")
    return before.endswith(b"|&") or (before.endswith(b"|") and not before.endswith(b"||"))


def _time_keyword_command(words: tuple[Word, ...]) -> Word | None:
    """The word bash's `time` keyword runs as the command where the wrapper table (which
    reads GNU time's options) sees an option: the keyword takes a plain `-p`, then `--`,
    so `time -v ls` and `time '-p' ls` run the command `-v` / `-p` (found by the argv
    oracle). `words` start a command with no assignment or redirect before them."""
    if words[0].text != "time":
        return None  # `\\time`, `'time'`: the program, whose options these are
    rest = list(words[1:])
    for option in ("-p", "--"):
        if rest and rest[0].text == option:
            rest.pop(0)
    if rest and rest[0].value is not None and rest[0].value.startswith("-"):
        return rest[0]
    return None


def _glued_to_assignment(text: str, segment: Segment) -> Iterator[Problem]:
    """A word that starts where an assignment ends: bash reads it as more of the value
    (`a=$(ls)\\;rm x` assigns `…;rm` and runs `x`); tree-sitter ends a value that is not
    plain text at an escaped character and starts a word there (the command `;rm`)."""
    starts = {word.span.start for word in segment.words}
    for assignment in segment.assignments:
        if assignment.span.end in starts:
            yield Problem(
                code="shell.word-mismatch",
                message=f"bash reads `{text[assignment.span.end :][:30]}` as more of this "
                "assignment's value",
                span=assignment.span,
            )


def _outside_expansions(word: Word) -> str:
    """The word's text with its recorded expansions blanked to `x` (a `$(ls -la)` or
    `${x:+a b}` keeps its blanks inside for bash)."""
    text = word.text
    if not word.expansions:
        return text
    chars = list(text)
    for expansion in word.expansions:
        if not _ENCLOSED.fullmatch(expansion.text):
            continue  # `$⏎x` is no expansion that may hold a newline
        start = expansion.span.start - word.span.start
        for index in range(max(start, 0), min(expansion.span.end - word.span.start, len(chars))):
            chars[index] = "x"
    return "".join(chars)


def _raw_newline(word: str) -> bool:
    """Whether bash would not read `word` as one word: it holds a newline or a blank
    outside quotes and not after a backslash, or it ends inside a quote."""
    i = 0
    quote = ""
    while i < len(word):
        char = word[i]
        if char == "\\" and quote in ("", '"', "$'"):
            i += 2
            continue
        if quote:
            if char == quote[-1]:
                quote = ""
        elif word.startswith("$'", i):
            quote = "$'"
            i += 1
        elif char in "'\"":
            quote = char
        elif char in "\n \t":
            return True
        i += 1
    return bool(quote)


def _closes_early(expansion: str) -> bool:
    """Whether bash closes `${…}` before its last `}` (it counts only `${` as nesting:
    `${x#{};rm -rf ~ #}` is `${x#{}` and a command)."""
    if not expansion.startswith("${"):
        return False
    depth = 0
    for index in range(len(expansion) - 1):
        if expansion.startswith("${", index):
            depth += 1
        elif expansion[index] == "}":
            depth -= 1
            if depth == 0:
                return True
    return False


def _code_subscripts(line: CommandLine) -> list[tuple[int, str]]:
    """Words whose value (or text) holds `name[…$(…)…]`, however quoted or escaped: bash
    runs the substitution wherever it evaluates the word as a variable name or arithmetic
    (`test -v`, `printf -v`, `read`, `unset`, `[[ … -eq … ]]`), which the model does not
    follow."""
    found: list[tuple[int, str]] = []
    stack = [line]
    while stack:
        current = stack.pop()
        for segment in current.segments:
            words: list[Word] = list(segment.words)
            words.extend(r.target for r in segment.redirects if r.target is not None)
            subscripts: list[Word] = []
            for assignment in (*segment.assignments, *segment.declared):
                words.extend(w for w in (assignment.value,) if w is not None)
                subscripts.extend(w for w in (assignment.subscript,) if w is not None)
            for word in (*words, *subscripts):
                start = word.span.start
                recorded = {e.span.start - start: e.span.end - start for e in word.expansions}
                whole = word in subscripts
                if _exposure.code_subscript(word.text, word.value, recorded, subscript=whole):
                    found.append((word.span.start, "'[…$(…)]'"))
            for expansion in segment_expansions(segment):
                nested = expansion.nested
                if nested is not None and not nested.reparsed:
                    stack.append(nested)
    return found


def _substitution_spans(
    line: CommandLine,
) -> tuple[dict[int, int], frozenset[int], list[tuple[int, int]]]:
    """What the walk recorded in `line` and in the lines nested in it that share its text:
    start → end of every command and process substitution, the starts of arithmetic
    expansions, and the spans of the words re-parsed as lines of their own (a `bash -c`
    string, whose text gets its own safety net when it is parsed)."""
    spans: dict[int, int] = {}
    arithmetic: set[int] = set()
    covered: list[tuple[int, int]] = []
    stack = [line]
    seen = {id(line)}
    while stack:
        current = stack.pop()
        for segment in current.segments:
            nested_lines: list[CommandLine] = []
            for expansion in segment_expansions(segment):
                if expansion.kind in _SUBSTITUTION_KINDS:
                    spans[expansion.span.start] = expansion.span.end
                elif expansion.kind is ExpansionKind.ARITHMETIC:
                    arithmetic.add(expansion.span.start)
                if expansion.nested is not None:
                    nested_lines.append(expansion.nested)
            if segment.wrapped is not None and segment.wrapped.nested is not None:
                nested_lines.append(segment.wrapped.nested)
            for nested in nested_lines:
                if id(nested) in seen:
                    continue
                seen.add(id(nested))
                if nested.reparsed:
                    if nested.anchor is not None:
                        covered.append((nested.anchor.start, nested.anchor.end))
                else:
                    stack.append(nested)
    return spans, frozenset(arithmetic), covered


_SUBSTITUTION_KINDS: Final = frozenset(
    {ExpansionKind.COMMAND_SUBSTITUTION, ExpansionKind.PROCESS_SUBSTITUTION}
)


class _Spill:
    """What a command's redirects give back to it: words bash passes as arguments that
    tree-sitter cut out of a node (`<& --i`) and variables a `{NAME}>file` assigns."""

    __slots__ = ("assignments", "words")

    def __init__(self) -> None:
        self.words: list[Word] = []
        self.assignments: list[Assignment] = []


class _Walker:
    """Walks one tree-sitter tree, building segments into `_Line`s."""

    __slots__ = ("brackets", "found", "prefixes", "shared", "src")

    def __init__(self, src: _Source, shared: _Shared) -> None:
        self.src = src
        self.shared = shared
        self.prefixes: dict[int, tuple[str, ...]] = {}  # where a prefixed command starts
        self.found: list[_keywords.Prefix] = []  # prefix keywords tree-sitter misread
        self.brackets: list[int] = []  # where a `[` test tree-sitter misread starts

    def walk(
        self,
        root: Node,
        line: _Line,
        repairs: list[Problem],
        prefixes: dict[int, tuple[str, ...]],
    ) -> _Line:
        """Walk the whole tree into `line`."""
        line.problems.extend(repairs)
        self.prefixes = dict(prefixes)
        self.found = []
        self.brackets = []
        if root.has_error:
            line.problems.extend(self.syntax_problems(root))
        ctx = _Ctx(line, (), 0, (), line.depth)
        children = root.children
        data = self.src.data
        if children:
            for start, stop in ((0, children[0].start_byte), (children[-1].end_byte, len(data))):
                if start < stop and _scan.dropped(data, start, stop, command_start=start == 0):
                    self.dropped(ctx, start, stop)
        self.body(children, ctx)
        return line

    # ----------------------------------------------------------------- problems
    def problem(self, line: _Line, code: str, message: str, node: Node) -> None:
        line.problems.append(Problem(code=code, message=message, span=self.src.span(node)))

    def excerpt(self, node: Node) -> str:
        text = " ".join(self.src.slice(node).split())
        return text if len(text) <= _ERROR_EXCERPT else text[: _ERROR_EXCERPT - 1] + "…"

    def syntax_problems(self, root: Node) -> list[Problem]:
        """Every ERROR and MISSING node of the tree (iteratively: trees may be deep)."""
        problems: list[Problem] = []
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_missing:
                problems.append(
                    Problem(
                        code="shell.missing-node",
                        message=f"bash expects `{node.type}` here",
                        span=self.src.span(node),
                    )
                )
            elif node.is_error:
                problems.append(
                    Problem(
                        code="shell.syntax-error",
                        message=f"cannot parse `{self.excerpt(node)}`",
                        span=self.trimmed(node),
                    )
                )
            if node.has_error:
                stack.extend(reversed(node.children))
        return problems

    def trimmed(self, node: Node) -> Span:
        """A node's span without the blanks tree-sitter includes in ERROR nodes."""
        span = self.src.span(node)
        text = span.slice(self.src.text)
        stripped = text.strip()
        if not stripped:
            return span
        start = span.start + (len(text) - len(text.lstrip()))
        return Span(start, start + len(stripped))

    def end_ansi_c_strings(self, root: Node, parsed: bytes) -> tuple[Node, bytes]:
        """Re-parse where tree-sitter runs a `$'…'` string past its end.

        tree-sitter reads `\\\\'` inside `$'…'` as a backslash and an escaped quote, so
        `echo $'\\\\'; rm -rf ~; echo \\'` looks like one `echo` to it; bash ends the string
        at the second quote and runs `rm`. Each escaped backslash of such a string is
        replaced by `__` in the bytes given to tree-sitter (same length; words still take
        their text and value from the original) and the text is parsed again.
        Returns the tree and the bytes it was parsed from.
        """
        for _ in range(_MAX_REPAIRS):
            patched = bytearray(parsed)
            for start, end in _ansi_c_strings(root):
                stop = _scan.ansi_c_end(parsed, start)
                if 0 <= stop < end:
                    for index in _scan.escaped_backslashes(parsed, start + 2, stop - 1):
                        patched[index : index + 2] = b"__"
            if patched == parsed:
                break
            parsed = bytes(patched)
            root = _tree(parsed)
        return root, parsed

    def unhide_comments(
        self, root: Node, parsed: bytes, problems: list[Problem]
    ) -> tuple[Node, bytes]:
        """Re-parse where tree-sitter starts a comment at a `#` bash reads as a word.

        `echo \\ #x; rm -rf /` runs `rm` in bash (the `#` does not start a word), but
        tree-sitter drops the escaped blank and makes the rest a comment. Each such `#`
        is replaced by `_` in the bytes given to tree-sitter (same length, so offsets
        hold) and the text is parsed again; words still take their text from the original.
        Returns the tree and the bytes it was parsed from.
        """
        data = parsed
        for _ in range(_MAX_REPAIRS):
            starts = _comment_starts(root)
            fakes = [
                offset
                for offset in starts
                if not _scan.starts_bash_comment(data, offset)
                or _closes_word_part(root, data, offset)
            ]
            if not fakes:
                return root, data
            patched = bytearray(data)
            for offset in fakes:
                patched[offset] = 0x5F  # `_`
                problems.append(
                    Problem(
                        code="shell.comment-mismatch",
                        message="tree-sitter reads a comment here but bash does not: "
                        "`#` does not start a word",
                        span=_build.span(self.src.char(offset), self.src.char(offset) + 1),
                    )
                )
            data = bytes(patched)
            root = _tree(data)
        return root, data

    def unglue_heredocs(
        self, root: Node, parsed: bytes, problems: list[Problem]
    ) -> tuple[Node, bytes]:
        """Re-parse where tree-sitter takes a here-document word glued to an operator.

        In `cat <<EOF|sh` tree-sitter's delimiter is `EOF|sh`, which never ends the body,
        so the body swallows the rest of the line; bash's delimiter is `EOF`, and `|sh`
        runs it. The bytes given to tree-sitter are patched (same length, so offsets
        hold) and the text is parsed again. Where bash's word is plain (`EOF`) and its
        terminating line is found, tree-sitter is shown the same here-document under a
        one-letter word it can end: `<<-E  |sh` and, for the line `EOF`, the line
        `⇥⇥E` (`<<-` strips leading tabs), so the body stays data, with its expansions.
        Otherwise the `<<` and its word are blanked and the body is read as commands
        (stricter than bash); where that does not parse, a body that cannot run anything
        is blanked too, and one that can loses its quotes (`_blank_heredoc`). Each such
        word is also a problem.

        First, a `;` after the word that only blanks or a comment follow on its line
        (`<<EOF;⏎`, `<<'EOF' ;⏎`) is blanked: bash reads the line as without it, and
        tree-sitter cannot read a here-document word before `;` (review DY2).
        """
        data = parsed
        ends = _semicolon_ends(root, data)
        if ends:
            patched = bytearray(data)
            for start, semicolon in ends:
                patched[semicolon] = 0x20
                text = self.src.text[self.src.char(start) : self.src.char(semicolon + 1)]
                problems.append(
                    Problem(
                        code="shell.syntax-mismatch",
                        message=f"tree-sitter does not read `{text}` as bash does: the "
                        "here-document's word ends before `;`, which ends the command",
                        span=_build.span(self.src.char(start), self.src.char(semicolon + 1)),
                    )
                )
            data = bytes(patched)
            root = _tree(data)
        for _ in range(_MAX_REPAIRS):
            glued = [
                (start, word_start, end, word_start + at)
                for start, word_start, end in _heredoc_words(root)
                if (at := _word_end(data[word_start:end].decode("latin-1"))) is not None
            ]
            if not glued:
                return root, data
            patched = bytearray(data)
            blanked: list[tuple[int, int, int]] = []
            for start, word_start, end, stop in glued:
                meta = chr(data[stop])
                if not _reword_heredoc(patched, start, word_start, stop):
                    _blank_heredoc(patched, start, word_start, stop, body=False)
                    blanked.append((start, word_start, stop))
                text = self.src.text[self.src.char(start) : self.src.char(end)]
                problems.append(
                    Problem(
                        code="shell.syntax-mismatch",
                        message=f"tree-sitter reads `{text}` as a here-document; bash ends "
                        f"its word at `{meta}` and reads the rest as more of the command",
                        span=_build.span(self.src.char(start), self.src.char(end)),
                    )
                )
            root = _tree(bytes(patched))
            if blanked and root.has_error:
                # a body read as commands does not parse (a lone `'`): blank the bodies
                # that cannot run anything, which bash feeds to the command as data
                patched = bytearray(data)
                for start, word_start, _end, stop in glued:
                    if (start, word_start, stop) in blanked:
                        _blank_heredoc(patched, start, word_start, stop, body=True)
                    else:
                        _reword_heredoc(patched, start, word_start, stop)
                root = _tree(bytes(patched))
            data = bytes(patched)
        return root, data

    def read_write_redirects(
        self, root: Node, parsed: bytes, problems: list[Problem]
    ) -> tuple[Node, bytes]:
        """Re-parse where tree-sitter rejects bash's read-write redirect `<>`.

        tree-sitter-bash has no `<>` operator: `exec 3<>notes` is the redirect `3<` and a
        stray `>`, `: <>~/.bashrc` a stray `<` and `>~/.bashrc`, so the file bash opens
        for reading and writing (creating it if missing) was read as a file read, or not
        at all (review HA2). Each `<` token directly followed by a `>` token, where bash
        reads the operator (a redirect, or the arguments of a `[` command; not `[[ ]]` or
        arithmetic, where bash rejects it), is replaced by `>|` in the bytes given to
        tree-sitter (same length, so offsets hold), which it reads as a redirect;
        `redirect` gives it back its operator `<>` from the original text, which the
        engine checks as both a read and a write. Each one is also a problem (it asks),
        naming the file: the line was not read by tree-sitter as written.
        Returns the tree and the bytes it was parsed from.
        """
        data = parsed
        patched_at: list[int] = []
        for _ in range(_MAX_REPAIRS):
            marks = _read_write_marks(root, data)
            if not marks:
                break
            patched = bytearray(data)
            for offset in marks:
                patched[offset : offset + 2] = b">|"
            patched_at.extend(marks)
            data = bytes(patched)
            root = _tree(data)
        for offset in sorted(patched_at):
            start, end = offset, offset + 2
            target = "the file after it"
            node = root.descendant_for_byte_range(offset, offset + 2)
            redirect = node.parent if node is not None and node.type == ">|" else None
            if redirect is not None and redirect.type == "file_redirect":
                start = redirect.start_byte
                words = [c for c in redirect.children if c.start_byte >= offset + 2]
                if words and words[0].type in _WORDLIKE:
                    end = words[0].end_byte
                    target = f"`{self.excerpt(words[0])}`"
            span = _build.span(self.src.char(start), self.src.char(end))
            problems.append(
                Problem(
                    code="shell.read-write-redirect",
                    message=f"bash opens {target} for reading and writing (`<>`, created "
                    "if missing); tree-sitter-bash rejects the operator, which the "
                    "analyser reads in its place",
                    span=span,
                )
            )
        return root, data

    def blank_prefixes(
        self, parsed: bytes, prefixes: dict[int, tuple[str, ...]], problems: list[Problem]
    ) -> tuple[Node, bytes]:
        """Blank the prefix keywords the last walk found, and parse again.

        tree-sitter reads `coproc`, `time` and `!` as command names where bash reads
        keywords, so `coproc { rm -rf ~; }` becomes the command `coproc { rm -rf ~` and
        a stray `}`. Each keyword (with `coproc`'s NAME, `time`'s `-p`) is replaced by
        blanks in the bytes given to tree-sitter and in those the walk scans (same length,
        so offsets hold); `prefixes` records where each prefixed command now starts, for
        `statement` to give it its scope. Returns the new tree and its bytes.
        """
        patched = bytearray(parsed)
        source = bytearray(self.src.data)
        for use in self.found:
            start, end = use.blank
            patched[start:end] = source[start:end] = b" " * (end - start)
            # `time coproc ls`: the keywords already blanked before this one apply too
            prefixes[use.body] = (*prefixes.pop(start, ()), use.keyword)
            if use.problem:
                span = _build.span(self.src.char(start), self.src.char(end))
                code = "shell.syntax-mismatch"
                problems.append(Problem(code=code, message=use.problem, span=span))
        self.src.data = bytes(source)
        parsed = bytes(patched)
        return _tree(parsed), parsed

    def unbracket_tests(self, parsed: bytes) -> bytes:
        """`parsed` with the `[` of each test the last walk found replaced by `_`.

        tree-sitter reads `[ … ]` with the `[[ … ]]` grammar, where `|`, `&&`, `>` …
        are test operators; for bash `[` is a command name like any other, so
        `[ a|| rm -rf docs ]` runs `rm` and `[ a > README.md ]` truncates the file
        (review BU9). Under `_` (same length: offsets hold) tree-sitter reads bash's
        commands and redirects; words take their text from the original, so the
        command is still named `[`. (A `==` or `=~` whose pattern swallowed a redirect,
        `[ a == 2>~/.bashrc ]`, is not rewritten: the line asks on the mismatch. Reading
        it as a word dropped the first walk's problems and hid the commands after an
        escaped `#`, `echo == a \\ #x; cat .env ]`: review HJ1.)
        """
        patched = bytearray(parsed)
        for offset in self.brackets:
            patched[offset] = 0x5F  # `_`
        return bytes(patched)

    def mismatch(self, ctx: _Ctx, node: Node, message: str) -> None:
        """Something tree-sitter accepts that bash rejects or reads differently."""
        self.problem(ctx.line, "shell.syntax-mismatch", message, node)

    def keywords(self, ctx: _Ctx, node: Node) -> None:
        """Check the keyword tokens among `node`'s children where bash would read them."""
        for child in node.children:
            if not child.is_named:
                self.keyword(ctx, child)

    def keyword(self, ctx: _Ctx, token: Node) -> None:
        if token.is_missing:
            return  # already a problem
        kind = token.type
        data = self.src.data
        if kind in _keywords.CHECKED_KEYWORDS:
            message = _keywords.misplaced_keyword(token, data)
            if message is not None:
                self.mismatch(ctx, token, message)
        elif kind == "{" and _keywords.glued_brace(token, data):
            self.mismatch(ctx, token, "bash reads `{` glued to the next word as that word")

    def unhandled(self, ctx: _Ctx, node: Node) -> None:
        self.problem(
            ctx.line,
            "shell.unhandled-node",
            f"the analyser does not handle `{node.type}` (`{self.excerpt(node)}`)",
            node,
        )

    def too_deep(self, ctx: _Ctx, node: Node) -> bool:
        if ctx.depth < self.shared.max_depth:
            return False
        self.problem(
            ctx.line,
            "shell.limit-depth",
            f"nesting deeper than {self.shared.max_depth} levels is not analysed",
            node,
        )
        return True

    # ----------------------------------------------------------------- segments
    def add(
        self,
        ctx: _Ctx,
        node: Node,
        kind: SegmentKind,
        *,
        words: tuple[Word, ...] = (),
        assignments: tuple[Assignment, ...] = (),
        redirects: tuple[Redirect, ...] = (),
        name: str | None = None,
        declared: tuple[Assignment, ...] = (),
        wrapped: Unwrapped | None = None,
        end_byte: int | None = None,
    ) -> None:
        shared = self.shared
        shared.segments += 1
        if shared.segments > shared.limits.max_segments:
            if not shared.segments_reported:
                shared.segments_reported = True
                self.problem(
                    ctx.line,
                    "shell.limit-segments",
                    f"more than {shared.limits.max_segments} segments; the rest is not analysed",
                    node,
                )
            return
        src = self.src
        start = node.start_byte
        end = end_byte or node.end_byte
        if not src.ascii:
            start = src.char(start)
            end = src.char(end)
        elif end > src.size:  # a node that ends on the newline `_tree` added
            end = src.size
        if ctx.redirects:
            redirects = (*redirects, *ctx.redirects)
        segment = _build.segment(
            kind, words, assignments, redirects, ctx.scopes, ctx.group, name,
            src.text[start:end], declared, wrapped, _build.span(start, end),
        )  # fmt: skip
        ctx.line.pending.append(segment)

    def finish(
        self, line: _Line, text: str, *, reparsed: bool = False, anchor: Span | None = None
    ) -> CommandLine:
        return _build.command_line(
            text, tuple(line.pending), tuple(line.problems), line.where, line.depth,
            reparsed, anchor,
        )  # fmt: skip

    def where(self, ctx: _Ctx, role: str) -> str:
        """Context of a nested line: "argument 2 of segment 1" (+ the parent's context)."""
        text = f"{role} of segment {len(ctx.line.pending) + 1}"
        return f"{text}, {ctx.line.where}" if ctx.line.where else text

    # ----------------------------------------------------------------- sequences
    def body(self, children: list[Node], ctx: _Ctx) -> None:
        """Statements separated by `;`, `&`, newlines (a program, a group, a loop body …)."""
        if len(children) == 1:
            node = children[0]
            kind = node.type
            if kind in _STATEMENTS and kind != "list" and kind != "pipeline" and node.is_named:
                self.statement(node, ctx)  # the common case: one statement, nothing around it
                return
        items: list[list[object]] = []
        data = self.src.data
        gaps: list[tuple[int, int]] = []
        previous = -1
        after_token = False  # the previous child is an operator or keyword: a command starts
        for child in children:
            start = child.start_byte
            if 0 <= previous < start and _scan.dropped(
                data, previous, start, command_start=after_token
            ):
                gaps.append((previous, start))
            previous = child.end_byte
            after_token = not child.is_named
            if child.is_named:
                kind = child.type
                if kind == "comment":
                    continue
                if items and items[-1][1] is None:
                    items[-1][1] = Connector.NEWLINE
                if kind == "list" or kind == "pipeline":
                    _flatten(child, items, data, gaps)
                else:
                    items.append([child, None])
            elif child.type == ";" and data[child.end_byte : child.end_byte + 1] in (b";", b"&"):
                # `ls;&>x`: bash reads the operator `;&`, tree-sitter `;` and `&>x`
                self.mismatch(ctx, child, "bash reads an operator `;&` or `;;` here")
            elif child.type in _keywords.CASE_TERMINATORS:
                # `ls;; sudo id`: tree-sitter takes `;;` for `;`, bash rejects it outside case
                self.mismatch(ctx, child, f"bash rejects `{child.type}` outside `case`")
                if items:
                    items[-1][1] = Connector.SEQ
            elif items:
                connector = _CONNECTORS.get(child.type)
                if connector is not None:
                    items[-1][1] = connector
        for start, stop in gaps:
            self.dropped(ctx, start, stop)
        if items and items[-1][1] in (Connector.SEQ, Connector.NEWLINE):
            items[-1][1] = None  # `{ a; b; }`: nothing follows b's `;` in its list
        if len(items) == 1 and items[0][1] is None:
            only = items[0][0]
            assert isinstance(only, Node)
            self.statement(only, ctx)  # one statement, nothing to connect
            return
        self.emit(items, ctx)

    def emit(
        self, items: list[list[object]], ctx: _Ctx, own: Callable[[_Ctx], None] | None = None
    ) -> None:
        """Emit flattened items, giving pipeline stages and background lists their groups."""
        pending = ctx.line.pending
        count = len(items)
        start = 0
        while start < count:
            end = start
            while end < count - 1 and items[end][1] in _AND_OR:
                end += 1
            base = ctx
            if items[end][1] is Connector.BACKGROUND:
                base = _Ctx(ctx.line, ctx.scopes, ctx.line.new_group(), ctx.redirects, ctx.depth)
            stage_ctx = base
            for index in range(start, end + 1):
                node, connector = items[index]
                previous = items[index - 1][1] if index > start else None
                piped = connector in _PIPES
                if piped or previous in _PIPES:
                    scopes = (*base.scopes, Scope.PIPELINE) if piped else base.scopes
                    group = ctx.line.new_group()
                    stage_ctx = _Ctx(ctx.line, scopes, group, base.redirects, base.depth)
                else:
                    stage_ctx = base
                before = len(pending)
                if node is None:
                    if own is not None:
                        own(stage_ctx)
                else:
                    assert isinstance(node, Node)
                    self.statement(node, stage_ctx)
                if len(pending) > before and isinstance(connector, Connector):
                    _build.set_connector(pending[-1], connector)
            start = end + 1

    # ----------------------------------------------------------------- statements
    def statement(self, node: Node, ctx: _Ctx) -> None:
        if self.prefixes and node.start_byte in self.prefixes:
            ctx = self.prefixed(self.prefixes.pop(node.start_byte), ctx)
        handler = _STATEMENTS.get(node.type)
        if handler is None:
            if node.is_error:
                self.salvage(node, ctx)
            elif node.type != "comment":
                self.unhandled(ctx, node)
            return
        handler(self, node, ctx)

    def prefixed(self, keywords: tuple[str, ...], ctx: _Ctx) -> _Ctx:
        """The context of a command after prefix keywords (see `blank_prefixes`)."""
        for keyword in keywords:
            if keyword == "coproc":  # runs asynchronously, in a subshell
                ctx = ctx.inner(Scope.COPROC, group=ctx.line.new_group())
            else:
                ctx = ctx.inner(Scope.TIME if keyword == "time" else Scope.NEGATION)
        return ctx

    def salvage(self, node: Node, ctx: _Ctx) -> None:
        """An ERROR node (already a problem): still show the commands inside it."""
        if self.too_deep(ctx, node):
            return
        inner = ctx.inner()
        parts: list[Node] = []
        for child in node.children:
            if child.type in _WORDLIKE and child.is_named:
                parts.append(child)
            elif child.is_named and (child.type in _STATEMENTS or child.is_error):
                self.statement(child, inner)
        if parts:
            words = self.words(parts, inner, "word")
            self.add(ctx, node, SegmentKind.SIMPLE, words=words)

    def command(
        self,
        node: Node,
        ctx: _Ctx,
        redirect_nodes: tuple[Node, ...] = (),
    ) -> None:
        assignments: list[Assignment] = []
        parts: list[Node] = []
        redirects: list[Redirect] = []
        salvage: list[Node] = []
        data = self.src.data
        previous = node.start_byte
        children = node.children
        if children and children[0].type == "command_name":
            name = data[children[0].start_byte : children[0].end_byte]
            if name in _KEYWORD_NAMES:
                if name in _keywords.PREFIX_WORDS:
                    self.prefix(ctx, node)
                else:
                    # `ls; fi`, `ls & }`: bash reads a reserved word here and rejects it
                    message = f"bash reads `{self.src.slice(children[0])}` here as a reserved word"
                    self.mismatch(ctx, children[0], message)
        newline = self.src.newline
        kind = ""
        spill = _Spill()
        for child in children:
            start = child.start_byte
            if start - previous > 1 and _scan.dropped(data, previous, start):
                # `printf x -  $"q"`: no node for `-`, which bash passes (a lone one is
                # taken back: `ls - $"~"`, fuzz finding), anything else is reported
                if not self.lone_dash(previous, start, spill):
                    self.dropped(ctx, previous, start)
            elif (
                newline and kind != "heredoc_redirect" and _scan.raw_newline(data, previous, start)
            ):
                self.newline_mismatch(ctx, previous, start)  # `<<<x # c⏎ y` is one command
            if kind == "herestring_redirect" and (
                start == previous
                or (data[previous] == 0x5C and _scan.escapes_only(data, previous, start))
            ):
                # `cat <<<w\⏎b -i`, `printf <<<w\⇥\$x`: bash joins the here-string's word
                # with what is glued to it; tree-sitter ends it there and makes the rest
                # an argument
                self.mismatch(ctx, child, "bash joins this to the here-string's word")
            previous = child.end_byte
            kind = child.type
            if kind == "command_name":
                parts.extend(child.children)
            elif kind == "regex":
                parts.extend(self.regex_word(child, ctx))
            elif kind in _WORDLIKE:
                parts.append(child)
            elif kind == "variable_assignment":
                assignments.append(self.assignment(child, ctx))
            elif kind in _REDIRECTS:
                self.redirect(child, ctx, redirects, parts, spill)
            elif child.is_error:
                parts.extend(c for c in child.children if c.type in _WORDLIKE)
            elif not child.is_named:
                parts.append(child)  # `test x == y`: tree-sitter makes `==` a token
            elif kind != "comment":
                salvage.append(child)
        previous = node.end_byte
        for child in redirect_nodes:
            if child.start_byte - previous > 1:
                self.before_redirect(ctx, previous, child.start_byte, spill)
            previous = child.end_byte if child.type != "heredoc_redirect" else len(data)
            self.redirect(child, ctx, redirects, parts, spill)
        if redirect_nodes:
            parts.sort(key=lambda n: n.start_byte)
        words = self.words(parts, ctx, "argument")
        if spill.words:
            words = _merged(words, spill.words)
        assignments.extend(spill.assignments)
        if (
            words
            and words[0].text == "time"
            and not assignments
            and words[0].span.start == self.src.char(node.start_byte)
            and not _after_pipe(self.src.data, node.start_byte)
        ):
            keyword_command = _time_keyword_command(words)
            if keyword_command is not None:
                ctx.line.problems.append(
                    Problem(
                        code="shell.syntax-mismatch",
                        message=f"bash's `time` keyword runs `{keyword_command.text[:30]}` "
                        "as the command (it takes only `-p` and `--`)",
                        span=keyword_command.span,
                    )
                )
        wrapped = None
        if self.shared.wrappers.lookup_start(words) is not None:
            wrapped = unwrap(words, self.shared.wrappers, parse=self.reentry(ctx))
            if not (wrapped.chain or wrapped.opaque):
                wrapped = None  # `command -v x`: a wrapper name, but no wrapper use
            elif wrapped.problems:
                ctx.line.problems.extend(self.anchored(wrapped.problems, wrapped.nested))
        kind = SegmentKind.SIMPLE if words else SegmentKind.ASSIGNMENT_ONLY
        end = node.end_byte
        for child in redirect_nodes:
            end = max(end, _redirect_end(child))
        self.add(
            ctx, node, kind, words=words, assignments=tuple(assignments),
            redirects=tuple(redirects), wrapped=wrapped, end_byte=end,
        )  # fmt: skip
        for child in salvage:
            if child.type in _STATEMENTS:
                self.unhandled(ctx, child)
                self.statement(child, ctx.inner())
            else:
                self.unhandled(ctx, child)

    def regex_word(self, node: Node, ctx: _Ctx) -> list[Node]:
        """The nodes of the word bash reads where tree-sitter read a `regex` outside `[[ ]]`.

        After `==` / `=~` (and a later `]]` or `]`) tree-sitter reads the next word as a
        pattern: no expansion, no quote removal. bash reads an ordinary word there, so
        `cat == $'.env' ]]` reads `.env` (review BU4): the word is parsed again.
        """
        data = self.src.data
        start, end = node.start_byte, node.end_byte
        if _REGEX_MISMATCH.search(data, start, end):
            # `echo =~ ;|x`: bash ends the word at the operator
            self.mismatch(ctx, node, "bash reads operators here, not one word")
            return [node]
        if not _REGEX_QUOTING.search(data, start, end):
            return [node]  # globs, braces and tildes of a plain word: `word` sees them
        nodes = _word_nodes(data, start, end)
        if nodes is None:
            message = (
                f"tree-sitter reads `{self.excerpt(node)}` as a pattern; bash reads a word "
                "the analyser cannot rebuild"
            )
            self.mismatch(ctx, node, message)
            return [node]
        return nodes

    def prefix(self, ctx: _Ctx, node: Node) -> None:
        """A command named `coproc`, `time` or `!`: note a keyword tree-sitter misread."""
        use = _keywords.prefix(node, self.src.data)
        if use is None:
            return
        if use.blank[1] > use.blank[0]:
            self.found.append(use)  # `_parse_text` blanks it and walks again
        elif use.problem:
            self.mismatch(ctx, node.children[0], use.problem)

    def anchored(self, problems: tuple[Problem, ...], nested: CommandLine | None) -> list[Problem]:
        """Problems of a re-parsed line, moved onto the anchor span in this line."""
        if nested is None or nested.anchor is None:
            return list(problems)
        anchor = nested.anchor
        return [Problem(code=p.code, message=p.message, span=anchor) for p in problems]

    def reentry(self, ctx: _Ctx) -> Callable[[str, Span, str], CommandLine]:
        def parse(code: str, anchor: Span, context: str) -> CommandLine:
            where = f"{context} of segment {len(ctx.line.pending) + 1}"
            if ctx.line.where:
                where = f"{where}, {ctx.line.where}"
            if ctx.depth + 1 > self.shared.max_depth:
                problem = Problem(
                    code="shell.limit-depth",
                    message=f"nesting deeper than {self.shared.max_depth} levels is not analysed",
                    span=Span(0, len(code)),
                )
                return CommandLine(
                    text=code, segments=(), problems=(problem,), context=where,
                    depth=ctx.depth + 1, reparsed=True, anchor=anchor,
                )  # fmt: skip
            return _parse_text(code, self.shared, depth=ctx.depth + 1, where=where, anchor=anchor)

        return parse

    def redirected(self, node: Node, ctx: _Ctx) -> None:
        """A statement with redirects (and, for heredocs, what tree-sitter hid inside them).

        tree-sitter attaches `a && b > out` and `a | b > out` redirects to the whole list;
        bash attaches them to the last command only, and so do we.
        """
        body: Node | None = None
        redirect_nodes: list[Node] = []
        for child in node.children:
            if child.type in _REDIRECTS:
                redirect_nodes.append(child)
            elif child.is_named and child.type != "comment":
                if body is None and not child.is_error:
                    body = child
                elif not child.is_error:
                    self.unhandled(ctx, child)
        items: list[list[object]] = [[None, None]]
        target = body
        # text tree-sitter drops after an operator (`a &&\␠b >x` runs the command `␠b`):
        # checked here as `body` checks it, the list being under the redirects' node
        gaps: list[tuple[int, int]] = []
        if body is not None and body.type in ("list", "pipeline"):
            items = []
            _flatten(body, items, self.src.data, gaps)
            last = items[-1][0]
            assert isinstance(last, Node)
            target = last
            items[-1][0] = None
        for child in redirect_nodes:
            if child.type == "heredoc_redirect":
                _heredoc_continuation(child, items, self.src.data, gaps)
        for start, stop in gaps:
            self.dropped(ctx, start, stop)
        redirects = tuple(redirect_nodes)
        if len(items) == 1:
            self.redirected_body(node, target, redirects, ctx)
        else:
            self.emit(items, ctx, own=lambda c: self.redirected_body(node, target, redirects, c))

    def redirected_body(
        self, node: Node, body: Node | None, redirect_nodes: tuple[Node, ...], ctx: _Ctx
    ) -> None:
        if body is not None and body.type == "command":
            self.command(body, ctx, redirect_nodes)
            return
        if body is not None and body.type == "negated_command" and not self.too_deep(ctx, body):
            negated = [c for c in body.children if c.is_named and c.type != "comment"]
            if len(negated) == 1:
                self.redirected_body(node, negated[0], redirect_nodes, ctx.inner(Scope.NEGATION))
                return
        if body is not None and body.type in ("declaration_command", "unset_command"):
            self.declaration_before_redirects(body, redirect_nodes, ctx)
        redirects: list[Redirect] = []
        extra: list[Node] = []
        for child in redirect_nodes:
            self.redirect(child, ctx, redirects, extra)
        for part in extra:
            message = "a word after a redirect of a compound command"
            self.problem(ctx.line, "shell.unhandled-node", message, part)
        if body is None:
            self.add(ctx, node, SegmentKind.SIMPLE, redirects=tuple(redirects))
            return
        around = _Ctx(ctx.line, ctx.scopes, ctx.group, ctx.redirects + tuple(redirects), ctx.depth)
        self.statement(body, around)

    def declaration_before_redirects(
        self, body: Node, redirect_nodes: tuple[Node, ...], ctx: _Ctx
    ) -> None:
        """A word of `unset`/`export` glued to a redirect after it: tree-sitter keeps it
        as an argument, where bash reads digits as the descriptor (`unset 0<&-`) and
        `{NAME}` as a variable it assigns a descriptor (`unset {PATH}>/dev/null; ls` ran
        `./11/ls`): both found by the argv oracle."""
        starts = {node.start_byte for node in redirect_nodes}
        for child in body.children:
            if child.end_byte not in starts:
                continue
            text = self.src.slice(child)
            if text.isdigit():
                self.mismatch(ctx, child, "bash reads these digits as a file descriptor")
            elif _starts_word(self.src.data, child.start_byte) and (
                _VARIABLE_REDIRECT.fullmatch(text) is not None
            ):
                message = f"bash assigns `{text[1:-1][:40]}` a file descriptor here"
                self.mismatch(ctx, child, message)

    def bare_redirect(self, node: Node, ctx: _Ctx) -> None:
        """A redirect with no command (`$(< file)`, `> file` truncating a file)."""
        redirects: list[Redirect] = []
        extra: list[Node] = []
        spill = _Spill()
        self.redirect(node, ctx, redirects, extra, spill)
        words = self.words(extra, ctx, "argument")
        if spill.words:
            words = _merged(words, spill.words)
        self.add(ctx, node, SegmentKind.SIMPLE, words=words, redirects=tuple(redirects))

    def declaration(self, node: Node, ctx: _Ctx) -> None:
        parts: list[Node] = []
        declared: list[Assignment] = []
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment":
                declared.append(self.assignment(child, ctx))
                parts.append(child)
            elif kind in _WORDLIKE or not child.is_named:
                parts.append(child)
            elif child.is_error:
                parts.extend(c for c in child.children if c.type in _WORDLIKE)
            else:
                self.unhandled(ctx, child)
        by_start = {a.span.start: a for a in declared}
        words = self.words(parts, ctx, "argument", by_start)
        self.add(ctx, node, SegmentKind.SIMPLE, words=words, declared=tuple(declared))

    def assignments_only(self, node: Node, ctx: _Ctx) -> None:
        assignments: tuple[Assignment, ...]
        if node.type == "variable_assignment":
            assignments = (self.assignment(node, ctx),)
        else:
            assignments = tuple(
                self.assignment(c, ctx) for c in node.children if c.type == "variable_assignment"
            )
        self.add(ctx, node, SegmentKind.ASSIGNMENT_ONLY, assignments=assignments)

    def subshell(self, node: Node, ctx: _Ctx) -> None:
        if not self.too_deep(ctx, node):
            self.body(node.children, ctx.inner(Scope.SUBSHELL, group=ctx.line.new_group()))

    def compound(self, node: Node, ctx: _Ctx) -> None:
        children = node.children
        if children and children[0].type == "((":
            word = self.expression_word(node, children[1:-1], ctx, "arithmetic command")
            self.add(ctx, node, SegmentKind.ARITHMETIC, words=(word,))
        elif not self.too_deep(ctx, node):
            self.keywords(ctx, node)
            self.body(children, ctx.inner(Scope.GROUP))

    def negated(self, node: Node, ctx: _Ctx) -> None:
        if self.too_deep(ctx, node):
            return
        bang = node.children[0] if node.children else None
        data = self.src.data
        if (
            bang is not None
            and bang.type == "!"
            and bang.end_byte < len(data)
            and data[bang.end_byte] not in _scan.METACHARACTERS
        ):
            # bash's `!` is a reserved word only as a token of its own: `!"ec"ho x` runs
            # the command `!echo` (the argv oracle's mutation sweep, seed 3)
            self.mismatch(ctx, bang, "bash reads `!` glued to the next word as part of it")
        self.body(node.children, ctx.inner(Scope.NEGATION))  # `!` is skipped as a token

    def nested_list(self, node: Node, ctx: _Ctx) -> None:
        items: list[list[object]] = []
        _flatten(node, items)
        self.emit(items, ctx)

    def if_statement(self, node: Node, ctx: _Ctx) -> None:
        if self.too_deep(ctx, node):
            return
        self.clauses(node.children, ctx)

    def clauses(self, children: list[Node], ctx: _Ctx) -> None:
        scope = Scope.IF_CONDITION
        current: list[Node] = []
        for child in children:
            kind = child.type
            if kind in ("if", "elif", "then", "else", "fi"):
                if kind != "if":
                    self.keyword(ctx, child)
                if current:
                    self.body(current, ctx.inner(scope))
                current = [child]  # the keyword: `body` checks what follows it for dropped text
                scope = Scope.IF_BODY if kind in ("then", "else") else Scope.IF_CONDITION
            elif kind in ("elif_clause", "else_clause"):
                if current:
                    self.body(current, ctx.inner(scope))
                current = []
                self.clauses(child.children, ctx)
            else:
                current.append(child)
        if current:
            self.body(current, ctx.inner(scope))

    def while_statement(self, node: Node, ctx: _Ctx) -> None:
        if self.too_deep(ctx, node):
            return
        condition: list[Node] = []
        for child in node.children:
            if child.type == "do_group":
                self.keywords(ctx, child)
                self.body(condition, ctx.inner(Scope.WHILE_CONDITION))
                condition = []
                self.body(child.children, ctx.inner(Scope.LOOP_BODY))
            else:
                condition.append(child)  # `while`/`until` too: `body` skips the token
        if condition:
            self.body(condition, ctx.inner(Scope.WHILE_CONDITION))

    def for_statement(self, node: Node, ctx: _Ctx) -> None:
        if self.too_deep(ctx, node):
            return
        scope = Scope.FOR
        name: str | None = None
        values: list[Node] = []
        body: Node | None = None
        in_end: int | None = None
        for child in node.children:
            kind = child.type
            if kind == "select":
                scope = Scope.SELECT
            elif kind == "in":
                in_end = child.end_byte
                continue
            elif kind == "do_group":
                body = child
            elif kind == "variable_name" and name is None:
                name = self.src.slice(child)
            elif child.is_named and kind in _WORDLIKE:
                values.append(child)
            elif child.is_named and kind == "compound_statement":
                body = child
            elif child.is_error:
                continue
            elif child.is_named and kind != "comment":
                self.unhandled(ctx, child)
        if in_end is not None and values:
            self.escaped_lead(ctx, in_end, values[0].start_byte)
        words = self.words(values, ctx, "loop word")
        self.add(ctx, node, SegmentKind.LOOP_HEADER, words=words, name=name)
        if body is not None:
            self.keywords(ctx, body)
            self.body(body.children, ctx.inner(scope))

    def c_for_statement(self, node: Node, ctx: _Ctx) -> None:
        if self.too_deep(ctx, node):
            return
        words: list[Word] = []
        body: Node | None = None
        for child in node.children:
            if child.type in ("do_group", "compound_statement"):
                body = child
            elif child.is_named and child.type != "comment":
                words.append(self.expression_word(child, [child], ctx, "loop header"))
        self.add(ctx, node, SegmentKind.LOOP_HEADER, words=tuple(words))
        if body is not None:
            self.keywords(ctx, body)
            self.body(body.children, ctx.inner(Scope.FOR))

    def case_statement(self, node: Node, ctx: _Ctx) -> None:
        if self.too_deep(ctx, node):
            return
        subject: list[Node] = []
        patterns: list[Node] = []
        bodies: list[list[Node]] = []
        for child in node.children:
            if child.type == "case_item":
                statements: list[Node] = []
                in_body = False
                parts = child.children
                if parts and parts[-1].type in _keywords.CASE_TERMINATORS:
                    terminator = parts[-1]
                    parts = parts[:-1]  # the item's own `;;`, the one place bash allows it
                    last = parts[-1] if parts else None
                    if last is not None and _scan.dropped(
                        self.src.data,
                        last.end_byte,
                        terminator.start_byte,
                        command_start=not last.is_named,
                    ):
                        # `a) :⏎\⇥;;`: bash runs the command `⇥`, which tree-sitter
                        # dropped before the terminator (found by the argv oracle)
                        self.dropped(ctx, last.end_byte, terminator.start_byte)
                for part in parts:
                    if in_body:
                        statements.append(part)
                    elif part.type == ")":
                        in_body = True
                        statements.append(part)  # `body` skips the token
                    elif part.is_named and part.type in _WORDLIKE:
                        patterns.append(part)
                bodies.append(statements)
            elif child.is_named and child.type in _WORDLIKE and not patterns and not bodies:
                subject.append(child)
        if subject and node.children and node.children[0].type == "case":
            self.escaped_lead(ctx, node.children[0].end_byte, subject[0].start_byte)
        words = self.words(subject, ctx, "case word") + self.words(patterns, ctx, "case pattern")
        self.keywords(ctx, node)
        self.add(ctx, node, SegmentKind.CASE_HEADER, words=words)
        inner = ctx.inner(Scope.CASE)
        for statements in bodies:
            self.body(statements, inner)

    def function(self, node: Node, ctx: _Ctx) -> None:
        if self.too_deep(ctx, node):
            return
        name: str | None = None
        body: Node | None = None
        redirect_nodes: list[Node] = []
        for child in node.children:
            if child.type in ("word", "variable_name") and name is None:
                name = self.src.slice(child)
            elif child.type in _REDIRECTS:
                redirect_nodes.append(child)
            elif child.is_named and child.type in _STATEMENTS:
                body = child
        self.add(ctx, node, SegmentKind.FUNCTION_DEF, name=name)
        redirects: list[Redirect] = []
        extra: list[Node] = []
        for child in redirect_nodes:
            self.redirect(child, ctx, redirects, extra)
        for part in extra:
            message = "a word after a redirect of a function definition"
            self.problem(ctx.line, "shell.unhandled-node", message, part)
        if body is None:
            return
        inner = ctx.inner(Scope.FUNCTION_BODY, redirects=tuple(redirects))
        if body.type == "compound_statement":
            self.keywords(ctx, body)
            self.body(body.children, inner)
        else:
            self.statement(body, inner)

    def test_command(self, node: Node, ctx: _Ctx) -> None:
        children = node.children
        single = bool(children) and children[0].type == "["
        if children and children[0].type in ("[", "[[") and _scan.glued(
            self.src.data, children[0].end_byte
        ):
            # `[[= -v x ]]`, `[[\ a ]]`: bash reads one word, the command `[[=`
            self.mismatch(ctx, children[0], "bash reads this bracket and what follows as one word")
        if single and _holds_operator(self.src.data, node.start_byte, node.end_byte):
            self.brackets.append(node.start_byte)  # `unbracket_tests`: bash's commands
            return
        parts: list[Node] = []
        stack = list(reversed(children))
        while stack:
            child = stack.pop()
            kind = child.type
            if kind == "regex":
                parts.extend(self.regex_word(child, ctx) if single else self.pattern(child))
            elif kind in _WORDLIKE and (child.is_named or kind == "$"):
                parts.append(child)
            elif child.is_error:
                parts.extend(c for c in child.children if c.type in _WORDLIKE)
            elif child.is_named:
                stack.extend(reversed(child.children))
            elif single and kind == "~":
                # `[ ~ ]]`: tree-sitter reads an arithmetic `~`; for bash it is a word,
                # and a tilde expansion (argv oracle)
                data = self.src.data
                parts.extend(_word_nodes(data, child.start_byte, child.end_byte) or [child])
            elif single or kind not in ("[[", "]]", "(", ")"):
                parts.append(child)
        words = self.words(parts, ctx, "test word")
        kind = SegmentKind.SIMPLE if single else SegmentKind.TEST
        self.add(ctx, node, kind, words=words)

    def pattern(self, node: Node) -> list[Node]:
        """The nodes of a `[[ x =~ PATTERN ]]` word: parsed again as a word where it may
        quote or expand (`$x"y"`); as one pattern node where that fails (`^(a|$y)$`,
        whose `$y` `bare` still finds)."""
        start, end = node.start_byte, node.end_byte
        if not _PATTERN_QUOTING.search(self.src.data, start, end):
            return [node]
        return _word_nodes(self.src.data, start, end) or [node]

    # ----------------------------------------------------------------- redirects
    def redirect(
        self,
        node: Node,
        ctx: _Ctx,
        redirects: list[Redirect],
        extra: list[Node],
        spill: _Spill | None = None,
    ) -> None:
        """One redirect. Words bash passes to the command go to `extra` (whole nodes) or
        to `spill` (words no node holds on its own), as do the variables it assigns."""
        kind = node.type
        data = self.src.data
        if _scan.cut(data, node.start_byte - 1, node.start_byte) == b"}":
            self.variable_redirect(node, ctx, extra, spill)
        if b"\\\n" in data:
            self.continued_variable_redirect(node, ctx)
        if kind == "heredoc_redirect":
            redirects.append(self.heredoc(node, ctx, extra, spill))
            for child in node.children:
                if child.type in _REDIRECTS:
                    self.redirect(child, ctx, redirects, extra, spill)
            return
        fd: int | None = None
        op = ""
        op_start = op_end = node.start_byte
        targets: list[Node] = []
        for child in node.children:
            if child.type == "file_descriptor":
                fd = self.glued_descriptor(child, extra, ctx)
            elif not child.is_named:
                if not op:
                    op_start = child.start_byte
                op += child.type
                op_end = child.end_byte
            elif child.type in _WORDLIKE:
                targets.append(child)
            elif child.type == "comment":
                # `true <\  #c\⏎rm -rf ~`: tree-sitter looks past the comment (and the
                # `\⏎` that does not continue it) for a target; bash ends the line at the
                # comment's newline and runs `rm` (found by the argv oracle)
                self.mismatch(ctx, child, "bash ends the command at this comment")
        if op == ">|" and data[op_start:op_end] == b"<>":
            op = "<>"  # `read_write_redirects` showed tree-sitter `>|` in its place
        if fd is None and not node.children[0].is_named and not op.startswith("&"):
            # (`&>` and `&>>` take no descriptor: in `sort 2&>x` bash passes `2` to sort)
            fd = self.detached_fd(node, extra, ctx)
        target = None
        if op in _CLOSING:
            # `2>&- -delete`, `2>&-x`: closing takes no word; bash passes it to the command
            if self.src.backslash:
                self.escape_words_after(node, ctx, op_end, targets, spill, glued=False)
            extra.extend(targets)
        elif targets:
            op, target = self.redirect_target(node, op, op_end, targets, ctx, extra, spill)
        redirects.append(Redirect(op=op, fd=fd, target=target, span=self.src.span(node)))

    def redirect_target(
        self,
        node: Node,
        op: str,
        op_end: int,
        targets: list[Node],
        ctx: _Ctx,
        extra: list[Node],
        spill: _Spill | None,
    ) -> tuple[str, Word | None]:
        """The operator and target word of a redirect; the nodes after the target are
        the command's arguments (`extra`)."""
        src = self.src
        data = src.data
        first = targets[0]
        if src.newline and _scan.raw_newline(data, node.start_byte, first.start_byte):
            self.mismatch(ctx, node, "bash rejects a newline before a redirect target")
        if data[first.end_byte : first.end_byte + 1] in (b"<", b">") and (
            data[first.start_byte : first.end_byte].isdigit()
        ):
            # `> 2>&1`: bash reads `2` as the fd of the next redirect, not as a target
            self.mismatch(ctx, first, "bash reads this number as a file descriptor")
        # `< '.'\/\.\e\n\v` is one word: tree-sitter may split it into adjacent nodes
        group = [first]
        end = first.end_byte
        for node_ in targets[1:]:
            start = node_.start_byte
            if start != end and not (data[end] == 0x5C and _scan.escapes_only(data, end, start)):
                break
            group.append(node_)
            end = node_.end_byte
        rest = targets[len(group) :]
        start = first.start_byte
        if src.backslash:
            # `> \ x` writes ` x`; in `>\  x` the target is ` ` and `x` an argument:
            # tree-sitter leaves escaped characters out of its nodes (review BU3)
            start = _scan.escaped_prefix(data, op_end, start)
            runs = _scan.escape_words(data, op_end, start)
            if runs:
                for run_start, run_end in runs[1:]:
                    self.spill_word(self.escape_word(run_start, run_end), ctx, spill)
                extra.extend(targets)
                return op, self.escape_word(*runs[0])
        dash = _scan.past_continuations(data, start)  # `<& \⏎--i` is `<& --i` for bash
        if op in _DUPLICATING and data[dash : dash + 1] == b"-":
            # `<& --i`: bash reads an unquoted `-` here as "close" and the rest of the
            # word as the command's next argument (review BU5)
            if dash != first.start_byte:
                self.mismatch(ctx, first, "bash reads `-` here as closing the descriptor")
            if _scan.cut(data, dash + 1, end).isdigit() and data[end : end + 1] in (b"<", b">"):
                # `<& -0<&-`: digits glued to the next operator are its descriptor
                self.mismatch(ctx, group[0], "bash reads these digits as a file descriptor")
            self.closing_remainder(node, group, ctx, extra, spill, rest)
            extra.extend(rest)
            return op + "-", None
        if src.backslash:
            end = self.escape_words_after(node, ctx, end, rest, spill)
        extra.extend(rest)
        return op, self.word(group, ctx, "redirect target", start_byte=start, end_byte=end)

    def lone_dash(self, start: int, stop: int, spill: _Spill) -> bool:
        """Whether the text between two words no node holds is a lone `-` between blanks,
        which tree-sitter drops before a translated string (`ls - $"~"`): bash passes the
        word `-`, given back to the command here."""
        if _LONE_DASH.fullmatch(self.src.data, start, stop) is None:
            return False
        where = self.src.char(self.src.data.index(b"-", start, stop))
        spill.words.append(_build.word("-", "-", (), _build.span(where, where + 1)))
        return True

    def before_redirect(self, ctx: _Ctx, start: int, stop: int, spill: _Spill) -> None:
        """Text between a command and its redirect, or between two redirects, that no
        node holds: tree-sitter drops a lone `-` before `2>` (`git checkout - 2>x`)."""
        data = self.src.data
        if not _scan.dropped(data, start, stop):
            return  # blanks, or escaped characters `words()` recovers
        if data[start:stop].strip(b" \t") != b"-":
            self.dropped(ctx, start, stop)
            return
        where = self.src.char(data.index(b"-", start, stop))
        self.spill_word(_build.word("-", "-", (), _build.span(where, where + 1)), ctx, spill)

    def glued_descriptor(self, node: Node, extra: list[Node], ctx: _Ctx) -> int | None:
        """`descriptor`, and a problem where the digits end a word instead: in `cat \\
        2>&1` bash reads the word ` 2` and `>&1` (tree-sitter drops the escape), in `git
        log {PATH}$1<<E` the word `{PATH}$1` and a here-document (argv oracle)."""
        if _glued_to_word(self.src.data, node.start_byte):
            self.mismatch(ctx, node, "bash reads these digits as the end of a word")
        return self.descriptor(node, extra)

    def descriptor(self, node: Node, extra: list[Node]) -> int | None:
        """A redirect's descriptor; a word tree-sitter took for one is an argument.

        tree-sitter lexes `-i2` in `sed … -i2>/dev/null` as the descriptor; bash takes
        only digits, so `-i2` is the command's argument (review BU1).
        """
        fd = _int(self.src.slice(node))
        if fd is None:
            extra.append(node)
        return fd

    def closing_remainder(
        self,
        node: Node,
        group: list[Node],
        ctx: _Ctx,
        extra: list[Node],
        spill: _Spill | None,
        rest: list[Node],
    ) -> None:
        """`<& -WORD`: WORD, the text after the `-`, as an argument of the command."""
        nodes = list(group)
        if nodes[0].type == "concatenation":
            nodes[0:1] = nodes[0].children
        first = nodes[0]
        if first.end_byte - first.start_byte == 1 and len(nodes) > 1:
            extra.extend(nodes[1:])  # `<& -'x'`: the nodes after `-` are the word
            return
        end = group[-1].end_byte
        if self.src.backslash:
            end = self.escape_words_after(node, ctx, end, rest, spill)
        remainder = _scan.cut(self.src.data, first.start_byte + 1, end).replace(b"\\\n", b"")
        if first.end_byte - first.start_byte == 1 and not remainder:
            # `<& -` alone, or followed by line continuations only (`cd <& -\⏎; cat
            # .aws/credentials` is a bare `cd` for bash: found by the argv oracle)
            return
        # `<& --i`: the word starts inside tree-sitter's node
        word = self.word(nodes, ctx, "argument", start_byte=first.start_byte + 1, end_byte=end)
        self.spill_word(word, ctx, spill)

    def spill_word(self, word: Word, ctx: _Ctx, spill: _Spill | None) -> None:
        """A word bash passes to the command that no node holds on its own."""
        if spill is not None:
            spill.words.append(word)
            return
        ctx.line.problems.append(
            Problem(
                code="shell.unhandled-node",
                message=f"bash passes `{word.text[:40]}` here as an argument",
                span=word.span,
            )
        )

    def escape_words_after(
        self,
        node: Node,
        ctx: _Ctx,
        end: int,
        rest: list[Node],
        spill: _Spill | None,
        *,
        glued: bool = True,
    ) -> int:
        """Words of escaped characters only after a redirect's target (`cat <x \\ ` reads
        the file ` `), which tree-sitter leaves out of every node (review BU3).

        Returns the end of the target: escapes glued to it (`glued`) belong to it.
        """
        data = self.src.data
        if rest:
            stop = rest[0].start_byte
        else:
            # not into the node after the redirect (`<<<w \;`: `\;` has a node)
            following = node.next_sibling
            stop = _scan.escape_region_end(data, end)
            if following is not None and following.start_byte < stop:
                stop = following.start_byte
        tail = _scan.escaped_run(data, end, stop) if glued else end
        if stop < len(data) and (
            data[stop] not in _scan.METACHARACTERS or data[stop : stop + 2] in (b"<(", b">(")
        ):
            # `\ x` is one word ` x`, and so is `\ >(ls)` (` /dev/fd/63`: argv oracle)
            stop = _scan.escaped_prefix(data, tail, stop)
        for run_start, run_end in _scan.escape_words(data, tail, stop):
            self.spill_word(self.escape_word(run_start, run_end), ctx, spill)
        return tail

    def variable_redirect(
        self, node: Node, ctx: _Ctx, parts: list[Node], spill: _Spill | None
    ) -> None:
        """`echo {PATH}>/dev/null`: bash opens a descriptor and assigns its number to PATH,
        for the rest of the line after a builtin; tree-sitter reads `{PATH}` as an
        argument (review BU2). It becomes an assignment of an unknown value."""
        data = self.src.data
        for index in range(len(parts) - 1, -1, -1):
            part = parts[index]
            if part.end_byte == node.start_byte:
                break
        else:
            return
        start = part.start_byte
        if start and not _starts_word(data, start):
            return  # `x{PATH}>f`, `\ {PATH}>f`: the word does not start at the `{`
        text = self.src.slice(part)
        match = _VARIABLE_REDIRECT.fullmatch(text)
        if match is None:
            return
        name = match.group(1)
        if spill is None or "[" in name:
            self.mismatch(ctx, part, f"bash assigns `{name[:40]}` a file descriptor here")
            return
        del parts[index]
        spill.assignments.append(Assignment(name=name, value=None, span=self.src.span(part)))

    def continued_variable_redirect(self, node: Node, ctx: _Ctx) -> None:
        """`echo {PATH}\\⏎>/dev/null`, `echo {PA\\⏎TH}>/dev/null`: bash removes the line
        continuations before it reads the word, so `{PATH}` still assigns PATH (review
        BX1); tree-sitter splits the word at them. Reported, never read as an argument."""
        text, start = _word_before(self.src.data, node.start_byte)
        if start < node.start_byte and _CONTINUED_VARIABLE.fullmatch(text):
            where = self.src.span(node)
            span = _build.span(self.src.char(start), where.start)
            message = "bash removes the line continuations and assigns a descriptor here"
            ctx.line.problems.append(
                Problem(code="shell.syntax-mismatch", message=message, span=span)
            )

    def detached_fd(self, node: Node, parts: list[Node], ctx: _Ctx) -> int | None:
        """`cmd 0<&3`: tree-sitter reads `0` as an argument; bash reads it as the fd (also
        across line continuations, which bash removes first: `cmd 2\\⏎>x`)."""
        data = self.src.data
        for index, part in enumerate(parts):
            if (
                index
                and part.type in ("number", "word")
                and _scan.past_continuations(data, part.end_byte) == node.start_byte
            ):
                if _glued_to_word(data, part.start_byte):
                    # `cat \ 2>&1`: bash reads the word ` 2` and `>&1`; tree-sitter
                    # drops the escape and makes `2` the descriptor
                    self.mismatch(ctx, part, "bash reads these digits as the end of a word")
                fd = _int(self.src.slice(part))
                if fd is not None:
                    del parts[index]
                return fd
        return None

    def heredoc(self, node: Node, ctx: _Ctx, extra: list[Node], spill: _Spill | None) -> Redirect:
        op = "<<"
        delimiter = ""
        quoted = False
        body = ""
        expansions: list[Expansion] = []
        fd: int | None = None
        word_end: int | None = None  # where the here-document's word ends
        for child in node.children:
            kind = child.type
            if kind == "comment" and word_end is not None:
                between = self.src.text[self.src.char(word_end) : self.src.char(child.start_byte)]
                if "\n" in between:
                    # `cat <<E⏎\⏎#${_@P}⏎E`: tree-sitter reads a body line that starts with
                    # `\⏎` or `\ ` then `#` as a comment before an empty body; for bash it
                    # is body text, expanded (review CA1)
                    self.mismatch(
                        ctx, child, "tree-sitter reads a line of a here-document body as a comment"
                    )
            if kind in ("<<", "<<-"):
                op = kind
                if child.end_byte - child.start_byte != len(kind):
                    self.operator_prefix(child, ctx, spill)
            elif kind == "file_descriptor":
                fd = self.glued_descriptor(child, extra, ctx)
            elif kind == "heredoc_start":
                word_end = child.end_byte
                raw = self.src.slice(child)
                meta = _unquoted_metacharacter(raw)
                if meta is not None:
                    # `cat <<EOF|sh`: bash's delimiter is `EOF`, and `|sh` runs the body
                    self.mismatch(
                        ctx,
                        child,
                        f"tree-sitter reads `{raw}` as the here-document word; bash ends it "
                        f"at `{meta}` and reads the rest as more of the command",
                    )
                if meta is None and _PLAIN_HEREDOC_WORD.fullmatch(raw) is None:
                    # `<<$'E'` ends at `E` for bash and at `$'E'` for tree-sitter; a word
                    # with a newline never ends: what follows is data for one and
                    # commands for the other, whatever it holds
                    self.mismatch(
                        ctx,
                        child,
                        f"bash and tree-sitter may end the here-document `{raw[:40]}` at "
                        "different lines",
                    )
                pieces = unquote_bare(raw)
                quoted = any(q for _, q in pieces) or "'" in raw or '"' in raw
                delimiter = "".join(p for p, _ in pieces).replace("'", "").replace('"', "")
            elif kind not in _HEREDOC_PARTS and kind not in _STATEMENTS and child.is_named:
                # `ls <<E -x $(y)`: bash passes these words to the command; tree-sitter
                # files them under the here-document, where no walk would see them
                self.mismatch(
                    ctx,
                    child,
                    f"bash passes `{self.src.slice(child)[:40]}` to the command as an argument; "
                    "tree-sitter reads it as part of the here-document",
                )
            elif kind == "heredoc_end" and not _ends_heredoc(
                self.src.slice(child), delimiter, op
            ):
                # `cat <<E⏎$⏎E⏎rm x`: tree-sitter read `$⏎E` as `$E` and took the line
                # after for the terminator; bash ends the body at `E` and runs `rm x`
                self.mismatch(ctx, child, "bash ends the here-document at another line")
            elif kind == "heredoc_body":
                body = self.src.slice(child)
                if any(_ends_heredoc(line, delimiter, op) for line in body.split("\n")[:-1]):
                    self.mismatch(ctx, child, "bash ends the here-document at a line in its body")
                if not quoted and "\\\n" in body:
                    # bash joins an unquoted body's continued lines before it looks for
                    # the terminator line; tree-sitter does not
                    self.mismatch(
                        ctx, child, "a line continuation in a here-document body moves its end"
                    )
                if not quoted:
                    for part in child.children:
                        if part.type not in ("heredoc_content",):
                            self.part(part, ctx, "heredoc body", [], expansions)
                    self.unseen_body_expansion(child, body, ctx)
        heredoc = Heredoc(
            delimiter=delimiter, quoted=quoted, body=body, strip_tabs=op == "<<-",
            expansions=tuple(expansions), span=self.src.span(node),
        )  # fmt: skip
        return Redirect(op=op, fd=fd, target=None, heredoc=heredoc, span=self.src.span(node))

    def unseen_body_expansion(self, node: Node, body: str, ctx: _Ctx) -> None:
        """Report an unquoted here-document body's `$` expansion that tree-sitter gave no
        node: it drops the first one of a body that starts with blanks (review BZ2:
        `: <<-E⏎⇥${CDPATH=$HOME}⏎⇥E` assigned CDPATH unseen, `⇥${_@P}` ran a command)."""
        if "$" not in body:
            return
        start = self.src.char(node.start_byte)
        covered = [
            (self.src.char(part.start_byte), self.src.char(part.end_byte))
            for part in node.children
            if part.type != "heredoc_content"
        ]
        for found in _BODY_DOLLAR.finditer(body):
            if found.group(1) is None:
                continue  # an escaped character (`\$` is a `$`)
            at = start + found.start(1)
            if not any(low <= at < high for low, high in covered):
                self.mismatch(
                    ctx,
                    node,
                    f"tree-sitter does not read the expansion at `{body[found.start(1):][:20]}` "
                    "in a here-document body, which bash expands",
                )
                return

    def operator_prefix(self, token: Node, ctx: _Ctx, spill: _Spill | None) -> None:
        """`sed … -i<<E`: tree-sitter's `<<` token holds the word `-i` before it, which
        bash passes to the command (review BU1)."""
        text = self.src.slice(token)
        prefix = text[: -len(token.type)] if text.endswith(token.type) else ""
        if not _PLAIN_PREFIX.fullmatch(prefix):
            message = f"tree-sitter reads `{text[:40]}` as the operator `{token.type}`"
            self.mismatch(ctx, token, message)
            return
        start = self.src.char(token.start_byte)
        span = _build.span(start, start + len(prefix))
        self.spill_word(_build.word(prefix, prefix, (), span), ctx, spill)

    # ----------------------------------------------------------------- words
    def words(
        self,
        parts: list[Node],
        ctx: _Ctx,
        role: str,
        assignments: dict[int, Assignment] | None = None,
    ) -> tuple[Word, ...]:
        """Group adjacent nodes into words (`$"x"` arrives as `$` + string) and build them.

        `assignments` maps the start of an already analysed `NAME=VALUE` operand (of
        `export` …) to its Assignment, so its word reuses the analysis (no second copy of
        the nested lines in its value).
        """
        if not parts:
            return ()
        if assignments:
            return self.declaration_words(parts, ctx, assignments)
        word = self.word
        data = self.src.data
        first, last = parts[0].start_byte, parts[-1].end_byte
        if not (self.src.backslash and _scan.escapes_near(data, first, last)):
            return self.plain_words(parts, ctx, role)
        words: list[Word] = []
        group = [parts[0]]
        group_start = parts[0].start_byte
        end = parts[0].end_byte
        for node in parts[1:]:
            start = node.start_byte
            if start == end or (data[end] == 0x5C and _scan.escapes_only(data, end, start)):
                # one word: adjacent, or split only by escaped characters (`''\\ ''`,
                # `r\\<newline>m`), which tree-sitter wrongly treats as word breaks
                group.append(node)
            else:
                if role == "argument" and _scan.raw_newline(data, end, start):
                    self.newline_mismatch(ctx, end, start)
                tail = _scan.escaped_run(data, end, start)  # `a\\<space><tab>b`: `a ` then `b`
                words.append(word(group, ctx, role, len(words), group_start, tail))
                group = [node]
                group_start = _scan.escaped_prefix(data, tail, start)
                # up to a redirect between the two (`ls \\  >x y` passes ` `: review BU3)
                stop = min(group_start, _scan.escape_region_end(data, tail))
                for run_start, run_end in _scan.escape_words(data, tail, stop):
                    words.append(self.escape_word(run_start, run_end))
            end = node.end_byte
        # escaped characters after the last node: its tail, or words of their own
        # (`printf x \\ ;` passes " "), which tree-sitter leaves out of every node
        stop = _scan.escape_region_end(data, end)
        tail = _scan.escaped_run(data, end, stop)
        words.append(word(group, ctx, role, len(words), group_start, tail))
        for run_start, run_end in _scan.escape_words(data, tail, stop):
            words.append(self.escape_word(run_start, run_end))
        return tuple(words)

    def plain_words(self, parts: list[Node], ctx: _Ctx, role: str) -> tuple[Word, ...]:
        """`words()` when no backslash follows: only adjacency joins nodes into words.

        A word of one bare node with no special character (most words) is built here
        directly, which saves the general `word()` on the analyser's hot path.
        """
        src = self.src
        text = src.text
        check_newlines = role == "argument" and src.newline
        plain = src.ascii  # byte offsets are character offsets
        words: list[Word] = []
        count = len(parts)
        index = 0
        previous = -1
        while index < count:
            node = parts[index]
            start = node.start_byte
            end = node.end_byte
            stop = index + 1
            while stop < count and parts[stop].start_byte == end:
                end = parts[stop].end_byte
                stop += 1
            if check_newlines and previous >= 0 and src.data.find(b"\n", previous, start) != -1:
                self.newline_mismatch(ctx, previous, start)
            previous = end
            if plain and stop == index + 1 and node.type in _BARE:
                value = text[start:end]
                if not _PLAIN_SPECIAL.search(value):
                    words.append(_build.word(value, value, (), _build.span(start, end)))
                    index = stop
                    continue
            words.append(self.word(parts[index:stop], ctx, role, len(words)))
            index = stop
        return tuple(words)

    def declaration_words(
        self, parts: list[Node], ctx: _Ctx, assignments: dict[int, Assignment]
    ) -> tuple[Word, ...]:
        words: list[Word] = []
        plain: list[Node] = []
        for node in parts:
            found = assignments.get(self.src.char(node.start_byte))
            if found is None or node.type != "variable_assignment":
                plain.append(node)
                continue
            words.extend(self.words(plain, ctx, "argument"))
            plain = []
            words.append(_assignment_word(found, self.src.slice(node)))
        words.extend(self.words(plain, ctx, "argument"))
        return tuple(words)

    def escaped_lead(self, ctx: _Ctx, start_byte: int, end_byte: int) -> None:
        """Escaped characters between a keyword (`in`, `case`, an array's `(`) and the first
        word after it, which tree-sitter puts in no node: bash's first word starts with
        them (`for f in \\ y` loops over ` y`, which had been read as `y`: review EN5)."""
        if self.src.backslash and re.search(
            rb"\\[^\n]", self.src.data[start_byte:end_byte]
        ):  # (a line continuation is no text: EP7)
            self.dropped(ctx, start_byte, end_byte)

    def dropped(self, ctx: _Ctx, start_byte: int, end_byte: int) -> None:
        """Text between statements that tree-sitter put in no node (`\\ ` at a line start
        is a command of its own for bash)."""
        src = self.src
        text = src.text[src.char(start_byte) : src.char(end_byte)].strip()
        ctx.line.problems.append(
            Problem(
                code="shell.dropped-text",
                message=f"tree-sitter drops `{text}` here; bash does not",
                span=_build.span(src.char(start_byte), src.char(end_byte)),
            )
        )

    def newline_mismatch(self, ctx: _Ctx, start_byte: int, end_byte: int) -> None:
        """tree-sitter continued a command past a newline that ends it in bash."""
        src = self.src
        ctx.line.problems.append(
            Problem(
                code="shell.newline-mismatch",
                message="tree-sitter continues the command past this newline; bash ends it",
                span=_build.span(src.char(start_byte), src.char(end_byte)),
            )
        )

    def escape_word(self, start_byte: int, end_byte: int) -> Word:
        """A word of escaped characters only (`\\ `), which tree-sitter drops entirely."""
        src = self.src
        start = src.char(start_byte)
        end = src.char(end_byte)
        text = src.text[start:end]
        value = "".join(piece for piece, _ in unquote_bare(text))
        return _build.word(text, value, (), _build.span(start, end))

    def word(
        self,
        nodes: list[Node],
        ctx: _Ctx,
        role: str,
        index: int = -1,
        start_byte: int = -1,
        end_byte: int = -1,
    ) -> Word:
        """Build one word from adjacent nodes; `role`/`index` name it in nested contexts.

        `start_byte` may start the word before its first node, on escaped characters
        tree-sitter left out of every node (`'' \\ b` is the words `` and ` b`).
        """
        src = self.src
        first = nodes[0]
        if start_byte < 0:
            start_byte = first.start_byte
        last_end = nodes[-1].end_byte
        if end_byte < last_end:
            end_byte = last_end
        if src.ascii:
            start = start_byte
            end = end_byte if end_byte <= src.size else src.size
        else:
            start = src.char(start_byte)
            end = src.char(end_byte)
        text = src.text[start:end]
        if (
            len(nodes) == 1
            and start_byte == first.start_byte
            and end_byte == last_end
            and (
                (first.type in _BARE and not _PLAIN_SPECIAL.search(text))
                or (not first.is_named and "$" not in text)  # (`$$` is the PID)
            )
        ):
            # a plain word, or an operator token of `[[ ]]` (`=~`, `==`) used as a word
            return _build.word(text, text, (), _build.span(start, end))
        if index >= 0:
            role = _role(role, index)
        pieces: list[tuple[str, bool]] = []
        expansions: list[Expansion] = []
        if len(nodes) > 1:
            nodes = _open_dollar_ends(nodes)
        self.parts(nodes, start_byte, ctx, role, pieces, expansions, end_byte)
        if expansions:
            return _build.word(text, None, tuple(expansions), _build.span(start, end))
        if any(not quoted and _BLANKS.search(piece) for piece, quoted in pieces):
            # tree-sitter sometimes keeps `]  ]` as one word; bash splits it
            ctx.line.problems.append(
                Problem(
                    code="shell.word-mismatch",
                    message=f"tree-sitter reads `{text}` as one word but bash splits it",
                    span=_build.span(start, end),
                )
            )
            return _build.word(text, None, (), _build.span(start, end))
        kinds = pattern_kinds(pieces)
        if kinds:
            span = _build.span(start, end)
            found = tuple(Expansion(kind=k, text=text, span=span) for k in kinds)
            return _build.word(text, None, found, span)
        if ("$" in text or "`" in text) and _expands(text):
            # the net under `bare`: an expansion the walk missed never passes as literal
            message = f"bash expands part of `{text[:40]}` that the analyser cannot place"
            span = _build.span(start, end)
            ctx.line.problems.append(
                Problem(code="shell.word-mismatch", message=message, span=span)
            )
            return _build.word(text, None, (), span)
        value = bytes_to_text("".join(p for p, _ in pieces))  # `$'\xc3'$'\xa9'` is `é`
        return _build.word(text, value, (), _build.span(start, end))

    def parts(
        self,
        nodes: list[Node],
        position: int,
        ctx: _Ctx,
        role: str,
        pieces: list[tuple[str, bool]],
        expansions: list[Expansion],
        stop: int = -1,
    ) -> None:
        """The pieces of consecutive nodes and of the text between them.

        Unquoted text is split into pieces in one run, gaps included: tree-sitter leaves
        some characters of a word out of every node (`}\\ @{` has no node for `@`,
        `''\\ ''` none for `\\ `) and can split an escape from what it escapes.
        """
        data = self.src.data
        pending = -1  # start of unquoted text not yet split into pieces
        last = len(nodes) - 1
        for index, node in enumerate(nodes):
            start = node.start_byte
            if start < position:
                start = position  # `<& --i`: the word `-i` starts inside the node `--i`
            elif start > position and pending < 0:
                pending = position
            position = max(position, node.end_byte)
            kind = node.type
            if kind == "$" and index < last and _translated(data, node, nodes[index + 1]):
                # `$"…"`, a translated string: drop the `$` (tree-sitter's `$` token may
                # also hold what precedes it, as in `-$"q"`)
                self.bare(start if pending < 0 else pending, node.end_byte - 1, pieces, expansions)
                pending = -1
                continue
            if kind in _BARE or not node.is_named:
                if pending < 0:
                    pending = start
                continue
            if pending >= 0:
                self.bare(pending, start, pieces, expansions)
                pending = -1
            self.part(node, ctx, role, pieces, expansions)
        end = max(position, stop)
        self.bare(position if pending < 0 else pending, end, pieces, expansions)

    def bare(
        self,
        start: int,
        stop: int,
        pieces: list[tuple[str, bool]],
        expansions: list[Expansion] | None = None,
    ) -> None:
        """Unquoted text between two byte offsets, as pieces (backslashes quote).

        A `$NAME` in it is a parameter expansion tree-sitter split into tokens
        (`.en'v'$1` arrives as `$` + `1`, review BU8): it goes to `expansions`.
        """
        if 0 <= start < stop:
            src = self.src
            first = src.char(start)
            text = src.text[first : src.char(stop)]
            pieces.extend(unquote_bare(text))
            if expansions is not None and "$" in text:
                expansions.extend(_bare_parameters(text, first))

    def part(
        self,
        node: Node,
        ctx: _Ctx,
        role: str,
        pieces: list[tuple[str, bool]],
        expansions: list[Expansion],
    ) -> None:
        """Add one node of a word: literal pieces (quoted or not) or expansions."""
        kind = node.type
        src = self.src
        if kind in _BARE or not node.is_named:
            if node.is_missing:
                return
            pieces.extend(unquote_bare(src.slice(node)))
        elif kind == "raw_string":
            text = src.slice(node)
            pieces.append((text[1:-1] if len(text) >= 2 and text.endswith("'") else text[1:], True))
        elif kind == "ansi_c_string":
            text = src.slice(node)
            body = text[2:-1] if len(text) >= 3 and text.endswith("'") else text[2:]
            try:
                pieces.append((decode_ansi_c(body), True))
            except LocaleDependent:  # `$'\u00e9'`: its bytes depend on bash's locale
                expansions.append(
                    Expansion(kind=ExpansionKind.ANSI_C, text=text, span=src.span(node))
                )
        elif kind == "translated_string" and src.data[node.start_byte + 1] != 0x22:  # `"`
            # `$\ "q"`: no translated string for bash, which reads `$`, an escaped blank
            # and "q"; tree-sitter's reading dropped the `$`
            self.parts(node.children, node.start_byte, ctx, role, pieces, expansions, node.end_byte)
        elif kind == "string" or kind == "translated_string":
            self.string(node, ctx, role, pieces, expansions)
        elif kind in _COMPOSITE:
            self.parts(node.children, node.start_byte, ctx, role, pieces, expansions, node.end_byte)
        elif kind == "command_substitution" or kind == "process_substitution":
            expansions.append(self.substitution(node, ctx, role))
        elif kind in _EXPANSIONS:
            self.expansion(node, ctx, role, expansions)
        elif node.is_error:
            pieces.append((src.slice(node), False))
            expansions.append(
                Expansion(kind=ExpansionKind.GLOB, text=src.slice(node), span=src.span(node))
            )
        else:
            self.unhandled(ctx, node)
            expansions.append(
                Expansion(kind=ExpansionKind.GLOB, text=src.slice(node), span=src.span(node))
            )

    def string(
        self,
        node: Node,
        ctx: _Ctx,
        role: str,
        pieces: list[tuple[str, bool]],
        expansions: list[Expansion],
    ) -> None:
        src = self.src
        text = src.text
        start = src.char(node.start_byte)
        end = src.char(node.end_byte)
        position = start + (2 if node.type == "translated_string" else 1)
        stop = end - 1 if end - position >= 1 and text[end - 1] == '"' else end
        for child in node.children:
            if not child.is_named or child.type == "string_content":
                continue
            child_start = src.char(child.start_byte)
            if child_start > position:
                pieces.append((unquote_double(text[position:child_start]), True))
            self.part(child, ctx, role, pieces, expansions)
            position = src.char(child.end_byte)
        if stop > position:
            pieces.append((unquote_double(text[position:stop]), True))

    def expansion(self, node: Node, ctx: _Ctx, role: str, expansions: list[Expansion]) -> None:
        """`$X`, `${X…}`, `$((…))`, `{a,b}`: the expansion plus any nested inside it."""
        src = self.src
        kind = _EXPANSIONS[node.type]
        name = None
        if kind is ExpansionKind.PARAMETER:
            name = _parameter_name(node, src)
        text = src.slice(node)
        span = src.span(node)
        if kind is not ExpansionKind.BRACE:
            span, text = self.dollar_start(span, text, ctx)
        expansions.append(Expansion(kind=kind, text=text, span=span, name=name))
        if node.child_count <= 2:
            return
        if self.too_deep(ctx, node):
            return
        inner = ctx.inner()
        stack = list(reversed(node.children))
        while stack:
            child = stack.pop()
            child_kind = child.type
            if child_kind == "command_substitution" or child_kind == "process_substitution":
                expansions.append(self.substitution(child, inner, role))
            elif child_kind in _EXPANSIONS:
                self.expansion(child, inner, role, expansions)
            elif child.is_named and child.child_count:
                stack.extend(reversed(child.children))

    def dollar_start(self, span: Span, text: str, ctx: _Ctx) -> tuple[Span, str]:
        """A `$` expansion's span and text from its `$`: inside double quotes tree-sitter
        puts the blanks or line continuations before it into the node (review BZ1: the
        text ` ${_@P}` escaped every check of `${…}`). A text that is still not the
        shape of one expansion (`"$ ${x}"` gave `$ $`) is reported: bash reads another."""
        lead = _DOLLAR_LEAD.match(text)
        if lead is not None and lead.end():
            span, text = Span(span.start + lead.end(), span.end), text[lead.end() :]
        if _FUNSUB_START.match(text):
            ctx.line.problems.append(
                Problem(
                    code="shell.word-mismatch",
                    message=f"bash 5.3 runs `{text[:40]}` as commands in the current shell "
                    "(`${` then a blank, a newline or `|`); tree-sitter reads an expansion",
                    span=span,
                )
            )
        elif not _DOLLAR_SHAPE.fullmatch(text):
            ctx.line.problems.append(
                Problem(
                    code="shell.word-mismatch",
                    message=f"tree-sitter reads an expansion `{text[:40]}` that is not one "
                    "bash would read here",
                    span=span,
                )
            )
        return span, text

    def substitution(self, node: Node, ctx: _Ctx, role: str) -> Expansion:
        src = self.src
        children = node.children
        opener = children[0].type if children else ""
        label = _SUBSTITUTION_LABEL.get(opener, "$()")
        kind = (
            ExpansionKind.PROCESS_SUBSTITUTION
            if node.type == "process_substitution"
            else ExpansionKind.COMMAND_SUBSTITUTION
        )
        span = src.span(node)
        text = src.slice(node)
        lead = len(text) - len(text.lstrip())
        if lead:  # `" $(x)"`: tree-sitter's `$(` token takes the blank before it along
            span, text = Span(span.start + lead, span.end), text[lead:]
        if self.too_deep(ctx, node):
            return Expansion(kind=kind, text=text, span=span)
        where = f"inside {label} in {self.where(ctx, role)}"
        inner_start = span.start + len(opener)
        inner_end = span.end - (1 if text.endswith(("`", ")")) and len(text) > len(opener) else 0)
        inner_text = src.text[inner_start:max(inner_start, inner_end)]
        if opener == "`" and _BARE_BACKTICK.search(inner_text):
            # `` `a` `b` ``: tree-sitter reads one substitution where bash sees two
            ctx.line.problems.append(
                Problem(
                    code="shell.backtick-mismatch",
                    message="tree-sitter reads one backtick substitution here; bash ends it "
                    "at the first unescaped backtick",
                    span=span,
                )
            )
        if opener == "`" and "\\" in inner_text:
            # Inside backticks bash removes `\` before `$`, `` ` `` and `\` before parsing,
            # so the body must be re-parsed from the unescaped text (`\`id\`` nests); it
            # drops line continuations even inside `'…'` (review BX7: `` `cat '.en\⏎v'` ``
            # read `.env`), and directly inside double quotes it removes the `\` of `\"`
            # too (review BX3: ``"`cat \".env\"`"`` read `.env`)
            quoted = node.parent is not None and node.parent.type == "string"
            code = unescape_backquoted(inner_text, quoted=quoted)
            nested = _parse_text(code, self.shared, depth=ctx.depth + 1, where=where, anchor=span)
            ctx.line.problems.extend(self.anchored(nested.problems, nested))
            return Expansion(kind=kind, text=text, span=span, nested=nested)
        line = _Line(ctx.depth + 1, where)
        self.body(children, _Ctx(line, (), 0, (), ctx.depth + 1))
        nested = self.finish(line, inner_text, anchor=span)
        ctx.line.problems.extend(nested.problems)
        return Expansion(kind=kind, text=text, span=span, nested=nested)

    def assignment(self, node: Node, ctx: _Ctx) -> Assignment:
        src = self.src
        name = ""
        subscript: Word | None = None
        append = False
        value_parts: list[Node] = []
        array: tuple[Word, ...] | None = None
        seen_op = False
        for child in node.children:
            kind = child.type
            if not seen_op:
                if kind == "variable_name":
                    name = src.slice(child)
                elif kind == "subscript":
                    name, subscript = self.subscript(child, ctx)
                elif kind in ("=", "+="):
                    seen_op = True
                    append = kind == "+="
                    self.split_assignment(node, child, ctx)
            elif kind == "array":
                if _scan.glued(src.data, child.end_byte):
                    # `a=(b)\ rm x`: bash reads on after the `)`, assigns the string
                    # `(b) rm` and runs `x`; tree-sitter ends the word at the `)`
                    message = "bash reads `(…)` glued to what follows as one word, not an array"
                    self.mismatch(ctx, child, message)
                elements = [c for c in child.children if c.is_named and c.type in _WORDLIKE]
                if elements:
                    self.escaped_lead(ctx, child.start_byte + 1, elements[0].start_byte)
                array = self.words(elements, ctx, f"array element of `{name}`")
            elif kind != "comment":
                value_parts.append(child)
        role = f"assignment to `{name}`"
        value: Word | None
        if array is not None:
            value = None
        elif value_parts:
            value = self.word(value_parts, ctx, role)
        else:
            end = src.char(node.end_byte)
            value = Word(text="", value="", span=Span(end, end))
        return Assignment(
            name=name, value=value, append=append, array=array, subscript=subscript,
            span=src.span(node),
        )  # fmt: skip

    def split_assignment(self, node: Node, operator: Node, ctx: _Ctx) -> None:
        """`a[1] =x echo`: tree-sitter reads an assignment across the blank before `=`;
        bash ends the word `a[1]` there and runs it as a command with `=x` and `echo`
        (line continuations vanish: `a[1]\\⏎=x` is an assignment for both)."""
        gap = self.src.data[node.start_byte : operator.start_byte]
        closing = gap.rfind(b"]")
        if closing >= 0 and gap[closing + 1 :].replace(b"\\\n", b""):
            message = "bash ends the word at the blank before `=`: this runs a command"
            self.mismatch(ctx, operator, message)

    def subscript(self, node: Node, ctx: _Ctx) -> tuple[str, Word | None]:
        name = ""
        index: list[Node] = []
        for child in node.children:
            if child.type == "variable_name" and not name:
                name = self.src.slice(child)
            elif child.is_named:
                index.append(child)
        word = self.word(index, ctx, f"subscript of `{name}`") if index else None
        return name, word

    def expression_word(self, node: Node, parts: list[Node], ctx: _Ctx, role: str) -> Word:
        """An arithmetic expression as one word: literal text unless something expands."""
        src = self.src
        if not parts:
            end = src.char(node.end_byte)
            return Word(text="", value="", span=Span(end, end))
        start = src.char(parts[0].start_byte)
        end = src.char(parts[-1].end_byte)
        text = src.text[start:end]
        expansions: list[Expansion] = []
        inner = ctx.inner()
        stack = list(reversed(parts))
        while stack:
            child = stack.pop()
            kind = child.type
            if kind == "command_substitution" or kind == "process_substitution":
                expansions.append(self.substitution(child, inner, role))
            elif kind in _EXPANSIONS:
                self.expansion(child, inner, role, expansions)
            elif child.child_count:
                stack.extend(reversed(child.children))
        value = None if expansions else text
        return Word(text=text, value=value, expansions=tuple(expansions), span=Span(start, end))


def _assignment_word(assignment: Assignment, text: str) -> Word:
    """The word `NAME=VALUE` of a declaration operand, built from its analysed assignment."""
    parts = [w for w in (assignment.subscript, assignment.value) if w is not None]
    parts.extend(assignment.array or ())
    expansions = tuple(e for w in parts for e in w.expansions)
    value = None
    if assignment.array is not None and not expansions:
        value = text  # `declare -a a=(1 2)`: literal elements, the word is its text
    elif all(w.is_literal for w in parts):
        index = f"[{assignment.subscript.value}]" if assignment.subscript is not None else ""
        op = "+=" if assignment.append else "="
        value = f"{assignment.name}{index}{op}{assignment.value.value if assignment.value else ''}"
    if value is None and not expansions:
        expansions = (Expansion(kind=ExpansionKind.GLOB, text=text, span=assignment.span),)
    return Word(text=text, value=value, expansions=expansions, span=assignment.span)


_MAX_REPAIRS: Final = 8


def _ansi_c_strings(root: Node) -> list[tuple[int, int]]:
    """Byte ranges of every `$'…'` node (iteratively: trees may be deep)."""
    found: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ansi_c_string":
            found.append((node.start_byte, node.end_byte))
        elif node.child_count:
            stack.extend(node.children)
    return found


_PLAIN_DELIMITER: Final = re.compile(rb"[A-Za-z0-9_]+")
_REWORDABLE_AFTER: Final = (b"|", b"<", b">", b"&&")
# a `;` that only blanks or a comment follow on its line (not `;;`, a `case` branch's end)
_LINE_END_SEMICOLON: Final = re.compile(rb"[ \t]*;(?=[ \t]*(?:#[^\n]*)?\n)")


def _reword_heredoc(data: bytearray, start: int, word_start: int, stop: int) -> bool:
    """Give the here-document at `start` a one-letter word ending before `stop`, in place.

    `<<EOF;` becomes `<<-E ;` and its terminating line `EOF` becomes `⇥⇥E`: the same
    lengths, the same body, a word tree-sitter ends where bash does. False (nothing
    changed) when the word is not plain or no line after this one terminates it.
    """
    word = bytes(data[word_start:stop])
    dash = data[start + 2 : start + 3] == b"-"  # `<<-` strips leading tabs already
    room = stop - start - 3  # after `<<-`: the letter, then blanks
    if room < 1 or _PLAIN_DELIMITER.fullmatch(word) is None:
        return False
    if not data.startswith(_REWORDABLE_AFTER, stop):
        return False  # tree-sitter cannot end a here-document word before `;`, `&` or `)`
    found = _terminator(data, stop, word, dash)
    if found is None:
        return False
    position, end = found
    data[position:end] = b"\t" * (end - position - 1) + word[:1]
    data[start:stop] = b"<<-" + word[:1] + b" " * (room - 1)
    return True


def _blank_heredoc(
    data: bytearray, start: int, word_start: int, stop: int, *, body: bool
) -> None:
    """Blank the `<<` and its word, in place; with `body`, also the body and its
    terminating line, when nothing in the body can run (a quoted word, or no `$` or
    backquote in it).

    The body is read as commands first (stricter than bash: `cat <<EOF|sh` runs it); only
    where that does not parse (a lone `'` would hide the rest of the line) is a body that
    cannot expand blanked; one that may expand stays, so its substitutions are judged,
    without its quotes, which bash does not read in a body.
    """
    raw = bytes(data[word_start:stop])
    text = raw.decode("latin-1")
    word = "".join(p for p, _ in unquote_bare(text)).replace("'", "").replace('"', "")
    quoted = any(c in text for c in "'\"\\")
    dash = data[start + 2 : start + 3] == b"-"
    data[start:stop] = b" " * (stop - start)  # `<<EOF` of `<<EOF;`
    if not body:
        return
    found = _terminator(data, stop, word.encode("latin-1"), dash)
    line_end = data.find(b"\n", stop)
    if line_end < 0:
        return
    body_end = found[1] if found is not None else len(data)
    content = bytes(data[line_end + 1 : body_end])
    if quoted or (b"$" not in content and b"`" not in content):
        data[line_end + 1 : body_end] = bytes(b if b == 0x0A else 0x20 for b in content)
    else:
        # bash reads no quote in the body: a lone `'` read as one would pair with a later
        # command's and hide its operands (`cat '⏎' .env` after it: review DY2)
        data[line_end + 1 : body_end] = content.replace(b"'", b" ").replace(b'"', b" ")


def _terminator(data: bytearray, stop: int, word: bytes, dash: bool) -> tuple[int, int] | None:
    """The span of the line that ends a here-document whose word ends at `stop`."""
    line_end = data.find(b"\n", stop)
    if line_end < 0:
        return None
    position = line_end + 1
    while position <= len(data):
        end = data.find(b"\n", position)
        end = len(data) if end < 0 else end
        line = bytes(data[position:end])
        if line == word or (dash and line.lstrip(b"\t") == word):
            return position, end
        if end == len(data):
            return None
        position = end + 1
    return None


def _semicolon_ends(root: Node, data: bytes) -> list[tuple[int, int]]:
    """(start of `<<`, where the `;` is) for each here-document whose word bash ends at a
    `;` that only blanks or a comment follow on its line: `<<EOF;⏎` is `<<EOF⏎` to bash."""
    found: list[tuple[int, int]] = []
    for start, word_start, end in _heredoc_words(root):
        at = _word_end(data[word_start:end].decode("latin-1"))
        match = _LINE_END_SEMICOLON.match(data, end if at is None else word_start + at)
        if match is not None:
            found.append((start, match.end() - 1))
    return found


def _read_write_marks(root: Node, data: bytes) -> list[int]:
    """Where a `<` token directly followed by a `>` token is bash's `<>` operator: in a
    redirect or text that did not parse, or among the arguments of a `[` command (`[ a
    <> f ]` opens `f`); not in arithmetic (`(( a <> b ))`) nor `[[ ]]`, where bash
    rejects it (a `<>(` is `<` and a process substitution to tree-sitter, and a syntax
    error to bash: left as it is)."""
    less: list[Node] = []
    greater: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.child_count:
            stack.extend(node.children)
        elif node.type == "<" and not node.is_named and not node.is_missing:
            less.append(node)
        elif node.type == ">" and not node.is_named and not node.is_missing:
            greater.add(node.start_byte)
    marks: list[int] = []
    for node in less:
        start = node.start_byte
        if node.end_byte != start + 1 or start + 1 not in greater:
            continue
        if data[start : start + 2] != b"<>":
            continue
        parent = node.parent
        if parent is None:
            continue
        if parent.type == "binary_expression":
            test = parent.parent
            if test is None or test.type != "test_command" or test.children[0].type != "[":
                continue
        elif parent.type not in ("file_redirect", "ERROR"):
            continue
        marks.append(start)
    return marks


def _heredoc_words(root: Node) -> list[tuple[int, int, int]]:
    """(start of `<<`, start and end of the word) for every here-document redirect."""
    found: list[tuple[int, int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "heredoc_start":  # in a heredoc_redirect, or loose in an ERROR
            operator = node.prev_sibling
            if operator is not None and operator.type in ("<<", "<<-"):
                found.append((operator.start_byte, node.start_byte, node.end_byte))
        elif node.child_count:
            stack.extend(node.children)
    return found


def _comment_starts(root: Node) -> list[int]:
    """Byte offsets of every comment node (iteratively: trees may be deep)."""
    found: list[int] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            found.append(node.start_byte)
        elif node.child_count:
            stack.extend(node.children)
    return found


def _ends_heredoc(line: str, delimiter: str, op: str) -> bool:
    """Whether bash ends a here-document with the word `delimiter` at `line` (`<<-`
    strips leading tabs first)."""
    if op == "<<-":
        line = line.lstrip("\t")
    return line.removesuffix("\n") == delimiter


# nodes whose closing `)` is inside a word: bash reads the word on after it, so a `#`
# there is text (`a=(b)#; rm x` assigns the string `(b)#` and runs `rm`; `$(ls)\⏎#x`)
_WORD_PARENTHESES: Final = frozenset(
    {"array", "command_substitution", "process_substitution", "arithmetic_expansion"}
)


def _closes_word_part(root: Node, data: bytes, offset: int) -> bool:
    """Whether the `#` at `offset` follows (line continuations aside) a `)` that closes a
    part of a word rather than a command (`(ls)#x` is a comment after a subshell)."""
    before = _scan.preceding(data, offset)
    if before < 0 or data[before] != 0x29:  # `)`
        return False
    node: Node | None = root.descendant_for_byte_range(before, before + 1)
    while node is not None and node.end_byte == before + 1:
        if node.type in _WORD_PARENTHESES:
            return True
        node = node.parent
    return False


def _translated(data: bytes, mark: Node, following: Node) -> bool:
    """Whether `$` + the following node is a translated string `$"…"`."""
    if following.start_byte != mark.end_byte or _scan.escaped(data, mark.end_byte - 1):
        return False
    if following.type == "concatenation":
        children = following.children
        return bool(children) and children[0].type == "string"
    return following.type == "string"


def _holds_operator(data: bytes, start: int, end: int) -> bool:
    """Whether `data[start:end]` holds an unquoted, unescaped operator character."""
    if _OPERATOR_CHARACTER.search(data, start, end) is None:
        return False  # (most tests: `[ -f x ]`)
    return any(match.group(1) for match in _BRACKET_OPERATOR.finditer(data, start, end))


def _word_nodes(data: bytes, start: int, end: int) -> list[Node] | None:
    """tree-sitter's nodes of `data[start:end]` read as an argument word, at the same
    offsets (the text is parsed alone, after a command name and blanks); None unless
    they are adjacent word nodes covering exactly that text."""
    if start < 2:
        return None
    root = _tree(b":" + b" " * (start - 1) + data[start:end])
    if root.has_error or root.named_child_count != 1:
        return None
    command = root.named_children[0]
    nodes = command.children[1:]
    if command.type != "command" or not nodes:
        return None
    position = start
    for node in nodes:
        if node.start_byte != position or node.type not in _WORDLIKE or node.type == "regex":
            return None
        position = node.end_byte
    return nodes if position == end else None


def _open_dollar_ends(nodes: list[Node]) -> list[Node]:
    """`nodes` with each concatenation that ends in a bare `$` token opened into its parts.

    tree-sitter ends `.en'v'$` (or `{}$`, a pair of empty strings and `$`) as a
    concatenation and puts the `1` (`T/`, `HOME/x`) after it in a node of its own;
    opened, the `$` and that text form one unquoted run, in which `bare` finds the
    parameter bash expands (review BU8).
    """
    opened: list[Node] = []
    for node in nodes[:-1]:
        if node.type == "concatenation" and node.child_count and node.children[-1].type == "$":
            opened.extend(node.children)
        else:
            opened.append(node)
    opened.append(nodes[-1])
    return opened


# an unquoted, unescaped `$` and the parameter bash expands there: `$1` (one digit),
# `$@` … `$$`, `$NAME`, `${…}` (up to its first `}`: enough to name what it expands)
_BARE_PARAMETER: Final = re.compile(
    r"(?<!\\)(?:\\\\)*(?P<expansion>\$(?:(?P<name>[0-9@*#?!$-]|[A-Za-z_][A-Za-z0-9_]*)"
    r"|\{[#!]?(?P<braced>[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?!$-])?[^}]*\}?))"
)
# bash's quoting of a word, for `_expands`: outside double quotes an escape, a `$'…'`
# or `'…'` string, a `"` or `$"` that opens double quotes; inside them an escape or the
# closing `"`; in either (group 1) a `$` bash expands (`$(`, `$[` included) or a backquote
_EXPANDS_OUTSIDE: Final = re.compile(
    r"""\\.|\$'(?:[^'\\]|\\.)*'?|'[^']*'?|\$?"|(\$[0-9A-Za-z_@*#?!$\-{(\[]|`)""", re.DOTALL
)
_EXPANDS_INSIDE: Final = re.compile(r"""\\.|"|(\$[0-9A-Za-z_@*#?!$\-{(\[]|`)""", re.DOTALL)


def _bare_parameters(text: str, offset: int) -> list[Expansion]:
    """The parameter expansions in unquoted `text` that starts at character `offset`."""
    found: list[Expansion] = []
    for match in _BARE_PARAMETER.finditer(text):
        start, end = match.span("expansion")
        name = match.group("name") or match.group("braced")
        span = _build.span(offset + start, offset + end)
        found.append(
            Expansion(kind=ExpansionKind.PARAMETER, text=text[start:end], span=span, name=name)
        )
    return found


def _expands(text: str) -> bool:
    """Whether bash expands something in the word spelt `text` (a `$` or a backquote
    outside single quotes and escapes): read from the text, not from tree-sitter's nodes,
    which split `$$'q'` into `$` and `$'q'` (bash: the PID, then `q`)."""
    inside = False
    position = 0
    while True:
        match = (_EXPANDS_INSIDE if inside else _EXPANDS_OUTSIDE).search(text, position)
        if match is None:
            return False
        if match.group(1):
            return True
        if match.group().endswith('"'):
            inside = not inside
        position = match.end()


def _redirect_end(node: Node) -> int:
    """Where a redirect ends on its line (a heredoc's body lies on later lines)."""
    if node.type != "heredoc_redirect":
        return node.end_byte
    for child in node.children:
        if child.type == "heredoc_start":
            return child.end_byte
    return node.start_byte


def _merged(words: tuple[Word, ...], more: list[Word]) -> tuple[Word, ...]:
    """The command's words with those its redirects gave back, in the order of the text."""
    return tuple(sorted((*words, *more), key=lambda word: word.span.start))


def _role(role: str, index: int) -> str:
    if role == "argument":
        return "the command name" if index == 0 else f"argument {index}"
    return role if index == 0 else f"{role} {index + 1}"


# what may come right before a redirect's descriptor: bash reads digits glued to other
# text as the end of that word
_WORD_BREAKS: Final = frozenset({b"", b" ", b"\t", b"\n", b";", b"|", b"&", b"(", b")", b"<", b">"})


# (a `-` before it: the closing `>&-` bash reads as a token of its own, review BW1)
_CONTINUED_VARIABLE: Final = re.compile("-?" + _VARIABLE_REDIRECT.pattern)


def _word_before(data: bytes, end: int) -> tuple[str, int]:
    """The word that ends at `end` (a redirect operator) when it holds a line continuation,
    with the continuations removed, and where it starts; `("", end)` when none does."""
    index = end
    continued = False
    while index > 0:
        if index >= 2 and data[index - 2 : index] == b"\\\n" and not _scan.escaped(data, index - 2):
            index -= 2
            continued = True
        elif data[index - 1 : index] in b" \t\n;|&()<>" and not _scan.escaped(data, index - 1):
            break
        else:
            index -= 1
    if not continued:
        return "", end
    return data[index:end].replace(b"\\\n", b"").decode("utf-8", "replace"), index


def _starts_word(data: bytes, start: int) -> bool:
    """Whether bash starts a word at `start`: after an unescaped blank or metacharacter,
    or after the `-` of a closing `>&-` / `<&-`, which bash reads as a token of its own
    (`: >&-{PATH}>/dev/null` assigns PATH: review BW1). Line continuations before it are
    removed first, as bash removes them (`echo a \\⏎{PATH}>/dev/null` assigns PATH)."""
    while start >= 2 and data[start - 2 : start] == b"\\\n" and not _scan.escaped(data, start - 2):
        start -= 2
    if start == 0:
        return True
    before = _scan.cut(data, start - 1, start)
    if before in b" \t\n;|&()<>" and not _scan.escaped(data, start - 1):
        return True
    return before == b"-" and _scan.cut(data, start - 3, start - 1) in (b">&", b"<&")


def _glued_to_word(data: bytes, start: int) -> bool:
    """Whether the text at `start` continues a word: the byte before it is no break, or
    is one a backslash escapes (`\\ 2`)."""
    if _scan.cut(data, start - 1, start) not in _WORD_BREAKS:
        return True
    slashes = 0
    while start - 2 - slashes >= 0 and data[start - 2 - slashes] == 0x5C:
        slashes += 1
    return slashes % 2 == 1


def _int(text: str) -> int | None:
    """Digits as bash's lexer reads a descriptor: a number that fits a C `int` (review
    BX5: `cat 2147483648>x` passes the word `2147483648` to cat); None otherwise."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 10 and int(digits) <= 2**31 - 1 else None


def _parameter_name(node: Node, src: _Source) -> str | None:
    for child in node.children:
        kind = child.type
        if kind == "variable_name" or kind == "special_variable_name":
            return src.slice(child)
        if kind == "subscript":
            for part in child.children:
                if part.type == "variable_name":
                    return src.slice(part)
    return None


def _flatten(
    node: Node,
    items: list[list[object]],
    data: bytes | None = None,
    gaps: list[tuple[int, int]] | None = None,
) -> None:
    """Append the statements of nested `list`/`pipeline` nodes with their operators.

    tree-sitter nests one node per operator (and groups `a | b | c && d` wrongly as
    `a | (b | c && d)`); flattening iteratively both survives 10,000 operators and lets
    `emit` rebuild bash's precedence from the flat operator sequence.
    """
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind == "list" or kind == "pipeline":
            children = current.children
            stack.extend(reversed(children))
            if data is not None and gaps is not None:
                for left, right in itertools.pairwise(children):
                    if left.end_byte < right.start_byte and _scan.dropped(
                        data, left.end_byte, right.start_byte, command_start=not left.is_named
                    ):
                        gaps.append((left.end_byte, right.start_byte))
        elif not current.is_named:
            connector = _CONNECTORS.get(kind)
            if connector is not None and items:
                items[-1][1] = connector
        elif kind != "comment":
            if items and items[-1][1] is None:
                items[-1][1] = Connector.NEWLINE
            items.append([current, None])


def _heredoc_continuation(
    node: Node, items: list[list[object]], data: bytes, gaps: list[tuple[int, int]]
) -> None:
    """`cat <<EOF | sh` / `cat <<EOF && x`: tree-sitter puts what follows inside the heredoc.

    Text it drops from there on (`cat <<E &&\\␠ls` runs the command `␠ls`) goes to `gaps`.
    """
    previous: Node | None = None  # from the first operator on: the rest of the line
    for child in node.children:
        kind = child.type
        if kind in ("heredoc_body", "heredoc_end"):
            return
        if (
            previous is not None
            and previous.end_byte < child.start_byte
            and _scan.dropped(
                data, previous.end_byte, child.start_byte, command_start=not previous.is_named
            )
        ):
            gaps.append((previous.end_byte, child.start_byte))
        if previous is not None:
            previous = child
        if not child.is_named:
            connector = _CONNECTORS.get(kind)
            if connector is not None:
                items[-1][1] = connector
                previous = child
        elif kind in _REDIRECTS:
            continue  # `cat <<EOF >out x`: the command's own redirect (`redirect` reads it)
        elif kind in _STATEMENTS or kind in ("list", "pipeline"):
            _flatten(child, items, data, gaps)


# command names that are keywords for bash (`command` checks them)
_KEYWORD_NAMES: Final = _keywords.PREFIX_WORDS | {
    w.encode() for w in _keywords.RESERVED_COMMAND_WORDS
}

_COMPOSITE: Final = frozenset({"concatenation", "variable_assignment", "subscript", "array"})

# in an unquoted here-document body: an escaped character, or a `$` bash expands to more
# than a positional or special parameter (`$1`, `$@`, `$$` run and assign nothing, and
# tree-sitter gives `$5` in a body no node)
_BODY_DOLLAR: Final = re.compile(r"\\.|(\$)(?=[{(\[A-Za-z_])", re.DOTALL)
# blanks and line continuations tree-sitter may put before a `$` in double quotes
_DOLLAR_LEAD: Final = re.compile(r"(?:[ \t\n]|\\\n)*")
# one parameter or arithmetic expansion, as bash reads it from its `$` (the inner syntax
# is the children's to check)
# bash 5.3's command substitution in the current shell, `${ cmd; }` and `${| cmd; }`: a
# `${` followed by a blank, a newline or `|` runs commands there, where bash 5.2 refuses
# it as a bad substitution and tree-sitter reads a parameter expansion (`${⏎touch x⏎}`
# was allowed as the `echo` of a parameter); bash takes out `\⏎` before it reads, so runs of
# them may sit between the three (`${\⏎ cmd;}`, review GX1)
_FUNSUB_START: Final = re.compile(r"\$(?:\\\n)*\{(?:\\\n)*[ \t\n|]")
_DOLLAR_SHAPE: Final = re.compile(
    r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]|\{.*\}|\(\(.*\)\)|\[.*\])", re.DOTALL
)
_EXPANSIONS: Final = {
    "simple_expansion": ExpansionKind.PARAMETER,
    "expansion": ExpansionKind.PARAMETER,
    "arithmetic_expansion": ExpansionKind.ARITHMETIC,
    "brace_expression": ExpansionKind.BRACE,
}

_STATEMENTS: Final[dict[str, Callable[[_Walker, Node, _Ctx], None]]] = {
    "command": _Walker.command,
    "redirected_statement": _Walker.redirected,
    "declaration_command": _Walker.declaration,
    "unset_command": _Walker.declaration,
    "variable_assignment": _Walker.assignments_only,
    "variable_assignments": _Walker.assignments_only,
    "subshell": _Walker.subshell,
    "compound_statement": _Walker.compound,
    "if_statement": _Walker.if_statement,
    "while_statement": _Walker.while_statement,
    "for_statement": _Walker.for_statement,
    "c_style_for_statement": _Walker.c_for_statement,
    "case_statement": _Walker.case_statement,
    "function_definition": _Walker.function,
    "test_command": _Walker.test_command,
    "negated_command": _Walker.negated,
    "list": _Walker.nested_list,
    "pipeline": _Walker.nested_list,
    "file_redirect": _Walker.bare_redirect,
    "herestring_redirect": _Walker.bare_redirect,
    "heredoc_redirect": _Walker.bare_redirect,
}
