"""Shell stage: the fast path of `parse_command` for *plain* lines, without tree-sitter.

Imports `shell.model`, the wrapper table and the model's fast builders (`shell._build`,
which build frozen instances without the dataclass `__init__`: the same objects, cheaper).

Most command lines an agent writes are a few plain words (`git status`, `ls -la src`,
`make test && make lint`), and for those bash does nothing but split on spaces and list
operators: no quoting, no expansion, no redirect, no keyword. `plain_line` recognises
such a line and builds the same `CommandLine` that the tree-sitter analyser
(`shell.parse.analyse`) builds for it, in a fraction of the time; anything else returns
None, and `parse_command` hands it to the analyser.

A plain line, exactly:

- it is printable ASCII, and outside quotes every character is a letter, a digit, one of
  `_ . / : , @ % + = -`, a tilde or glob character `~ * ? [ ]`, a space, or part of the
  operators `;`, `&&`, `||`, `|` (no tab, newline, `$`, brace, `#`, `!`, lone `&`, `<`,
  `>`, parenthesis or backslash: bash would treat those specially);
- a word with an unquoted tilde or glob is reported with the tilde and glob expansions
  the analyser reports for it (`quoting.pattern_kinds`), and no value;
- a quoted part is `'…'` (anything but `'`) or `"…"` without `$`, backquote or backslash,
  so quote removal is all bash does to it (`-name '*.py'` is the word `-name`, `*.py`);
- each command has at least one word, and its first word has no `=`, `@`, `%`, `:` or `,`
  outside quotes, nor a leading `-` or `+` (no assignment `A=1 cmd`; tree-sitter misreads
  `a@`), and is none of the builtins the analyser reads specially (`export`, `.` …);
- a wrapper of the policy (`sudo`, `env`, `timeout`, `xargs` …) is seen through with the
  analyser's own `unwrap`, as long as what it runs is a plain command: a shell or a code
  string (`bash -c …`, `sudo sh -c …`) or any problem leaves the line to the analyser;
- no word anywhere is a reserved word (`if`, `done`, `time` …), starts with one before a
  quote (`if'x'`), starts with `=` (`x ==`) or is a lone `[` or `]` (tree-sitter reads
  `[ ]` as one word): tree-sitter and bash read those differently;
- it is at most `_MAX_LENGTH` characters and `_MAX_SEGMENTS` commands long.

INVARIANT: for every plain line, `plain_line(text) == analyse(text)`, spans included
(tests/unit/shell/test_plain.py checks it over the shared corpora and generated lines).
Any doubt falls back to the full analyser, never the other way round.

>>> line = plain_line("make test && make lint", wrappers=WrapperTable())
>>> [(s.argv, s.connector.value) for s in line.segments]
[(('make', 'test'), '&&'), (('make', 'lint'), 'end')]
>>> plain_line("echo $HOME", wrappers=WrapperTable()) is None
True
"""

from __future__ import annotations

import re
from typing import Final

from policylang.shell import _build
from policylang.shell.model import (
    CommandLine,
    Connector,
    Expansion,
    Scope,
    Segment,
    SegmentKind,
    Unwrapped,
    Word,
)
from policylang.shell.quoting import pattern_kinds
from policylang.shell.wrappers import WrapperKind, WrapperTable, unwrap

__all__ = ["plain_line"]

_MAX_LENGTH: Final = 1_000
_MAX_SEGMENTS: Final = 16

_PLAIN_CHARS = r"A-Za-z0-9_./:,@%+=~*?\[\]-"  # (the inside of a character class)
_SINGLE = r"'[ -&(-~]*+'"  # printable ASCII but `'`
_DOUBLE = r'"[ !#%-\[\]-_a-~]*+"'  # printable ASCII but `"`, `$`, `\`, backquote
# every token starts with a character of its own (a plain character, `'`, `"`, `&`, `|`,
# `;`, a space), so a line either splits into them in exactly one way or not at all; so
# no match ever gives characters back, and every repetition is possessive (`++`, `*+`):
# a run of plain characters is then one step, not one group iteration per character
_LINE: Final = re.compile(rf"(?:[| ;{_PLAIN_CHARS}]++|{_SINGLE}|{_DOUBLE}|&&)*+")
_TOKEN: Final = re.compile(rf"((?:[{_PLAIN_CHARS}]++|{_SINGLE}|{_DOUBLE})++)|(&&|\|\||[|;])")
_QUOTED_PART: Final = re.compile(r"'([^']*)'|\"([^\"]*)\"|([^'\"]+)")
# tree-sitter misreads `a@`, `1%`, `- x=` … in command position (bash does not): such
# lines, and every assignment-like `A=1`, are left to the analyser, which reports them
_COMMAND_NAME: Final = re.compile(
    rf"(?:[A-Za-z0-9_./]|{_SINGLE}|{_DOUBLE})(?:[A-Za-z0-9_./+-]|{_SINGLE}|{_DOUBLE})*"
)
_QUOTE: Final = re.compile("['\"]")
_PATTERN: Final = re.compile(r"[~*?\[]")  # a word that may be a tilde or glob pattern
_CONNECTORS: Final = {
    "&&": Connector.AND,
    "||": Connector.OR,
    ";": Connector.SEQ,
    "|": Connector.PIPE,
}
_PIPELINE: Final = (Scope.PIPELINE,)

# bash's reserved words (and tree-sitter's extra keywords): never in a plain line
_RESERVED: Final = frozenset(
    {"if", "then", "elif", "else", "fi", "case", "esac", "for", "select", "while", "until",
     "do", "done", "in", "function", "time", "coproc", "!", "{", "}", "[[", "]]"}
)  # fmt: skip
# what no unquoted word of a plain line may be: a reserved word, or a lone `[` or `]`
_RESERVED_OR_BRACKET: Final = _RESERVED | {"[", "]"}
# builtins whose words the analyser reads specially, or that change what follows
_SPECIAL: Final = frozenset(
    {".", "source", "eval", "exec", "command", "builtin", "let", "alias", "unalias", "trap",
     "hash", "enable", "set", "shopt", "read", "mapfile", "readarray", "getopts", "printf",
     "test", "[", "declare", "typeset", "local", "export", "readonly", "unset"}
)  # fmt: skip


def plain_line(text: str, *, wrappers: WrapperTable) -> CommandLine | None:
    """The shell model of `text` if it is a plain line (see the module docstring), else None.

    Args:
        text: the command line, untrusted.
        wrappers: the policy's wrapper table (a line run through a wrapper is not plain).

    Returns:
        The `CommandLine` that `parse_command(text)` returns, or None.
    """
    if len(text) > _MAX_LENGTH or not text.isascii() or _LINE.fullmatch(text) is None:
        return None  # a character no token takes, or an unclosed quote
    commands: list[tuple[list[Word], Connector]] = []
    words: list[Word] = []
    quoted = "'" in text or '"' in text
    patterned = _PATTERN.search(text) is not None  # else no word needs `_PATTERN` either
    span = _build.span
    word = _build.word
    for match in _TOKEN.finditer(text):  # the line is all tokens and spaces (checked above)
        raw, operator = match.groups()
        if raw is not None:  # a word
            value: str | None = raw
            if quoted and ("'" in raw or '"' in raw):
                value = _unquote(raw)
                if _QUOTE.split(raw, 1)[0] in _RESERVED:
                    return None  # `if'x'`: tree-sitter reads the keyword
                if value in _RESERVED or raw[0] == "=":
                    return None  # (a quoted word is no lone bracket)
            elif raw in _RESERVED_OR_BRACKET or raw[0] == "=":
                return None  # `fi`, `x ==`; tree-sitter joins `[ ]` into one word
            start, end = match.span()
            at = span(start, end)
            if patterned and _PATTERN.search(raw) is not None:
                kinds = pattern_kinds(_pieces(raw))
                if kinds:
                    found = tuple(Expansion(kind=kind, text=raw, span=at) for kind in kinds)
                    words.append(word(raw, None, found, at))
                    continue
            words.append(word(raw, value, (), at))
        else:  # an operator
            if not words or len(commands) >= _MAX_SEGMENTS:
                return None  # `; ls`, `ls ;; x`, `&& x`
            commands.append((words, _CONNECTORS[operator]))
            words = []
    if words:
        commands.append((words, Connector.END))
    elif not commands or commands[-1][1] is not Connector.SEQ:
        return None  # empty, or a dangling `&&`, `||`, `|` (bash reads on)
    else:
        commands[-1] = (commands[-1][0], Connector.END)  # `ls;`: the `;` ends the list
    segments: list[Segment] = []
    group = 0  # pipeline stages are groups of their own, numbered along the line
    piped = False
    for argv, connector in commands:
        first = argv[0]
        name = first.value
        if name is None or name in _SPECIAL or not _COMMAND_NAME.fullmatch(first.text):
            return None
        wrapped: Unwrapped | None = None
        spec = wrappers.lookup_start(argv)
        if spec is not None and spec.kind is not WrapperKind.WRAPPER:
            return None  # a shell (`bash -c …`): its string is the analyser's to parse
        if spec is not None:
            wrapped = _unwrapped(argv, wrappers)
            if wrapped is None:
                return None
        stage = piped or connector is Connector.PIPE
        if stage:
            group += 1
        segments.append(_segment(text, argv, connector, group if stage else 0, wrapped))
        piped = connector is Connector.PIPE
    return _build.command_line(text, tuple(segments), (), "", 0, False, None)


def _pieces(raw: str) -> list[tuple[str, bool]]:
    """The (text, quoted) pieces of a word of plain characters and simple quoted parts."""
    return [(m.group(m.lastindex or 3), m.lastindex != 3) for m in _QUOTED_PART.finditer(raw)]


def _unquote(raw: str) -> str:
    """Quote removal for a word of plain characters and simple quoted parts."""
    return "".join(a or b or c for a, b, c in _QUOTED_PART.findall(raw))


def _unwrapped(argv: list[Word], wrappers: WrapperTable) -> Unwrapped | None:
    """What `sudo`, `env`, `timeout` … run, when no shell string needs the analyser.

    The analyser gives `unwrap` a callback that parses `bash -c` strings; without one such
    strings come back opaque, and then (or on any problem) the line is left to the
    analyser. A wrapper name used without a wrapper use (`command -v x`) wraps nothing.
    """
    wrapped = unwrap(argv, wrappers)
    if wrapped.opaque or wrapped.problems or wrapped.nested is not None:
        return None
    if any(use.kind != WrapperKind.WRAPPER.value for use in wrapped.chain):
        return None
    if not wrapped.words or wrapped.words[0].value in _SPECIAL:
        return None
    return wrapped if wrapped.chain else None


def _segment(
    text: str, words: list[Word], connector: Connector, group: int, wrapped: Unwrapped | None
) -> Segment:
    """A simple command of plain words."""
    start, end = words[0].span.start, words[-1].span.end
    segment = _build.segment(
        SegmentKind.SIMPLE,
        tuple(words),
        (),
        (),
        _PIPELINE if connector is Connector.PIPE else (),
        group,
        None,
        text[start:end],
        (),
        wrapped,
        _build.span(start, end),
    )
    _build.set_connector(segment, connector)
    return segment
