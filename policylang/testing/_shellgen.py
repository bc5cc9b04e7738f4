"""Structural generators of bash text: words, expansions, commands, compound lines.

Internal to `policylang.testing.strategies` (the public façade); needs Hypothesis.
Imports `policylang.testing.quoting` and `optiontables` only.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from policylang.testing import optiontables, quoting
from policylang.testing.cases import Respelled

# --- words ------------------------------------------------------------------------------

# Strategies are built once and reused: building one inside a draw costs validation time
# on every draw (generation speed bounds how many examples a campaign runs).
_BOOL = st.booleans()
_ONE_IN = {n: st.integers(0, n - 1) for n in (3, 5, 6, 8, 10)}
_cached = functools.lru_cache(maxsize=4096)

# \x1e and \x1f are kept out: bashcheck uses them as record separators.
_PLAIN_CHARS = "abcxyzABC019-_./:,@%+^"
_SPECIAL_CHARS = " '\"\\$`*?[]{}~#!=|&;()<>\t\n"
_EXOTIC_CHARS = "éü€漢\u00a0\x01\x1b\x7f\r"

_ALPHABET = st.one_of(
    st.sampled_from(_PLAIN_CHARS), st.sampled_from(_SPECIAL_CHARS),
    st.sampled_from(_EXOTIC_CHARS),
)

# Values that name things policies care about, as literal values (spelled later).
_INTERESTING_VALUES = (
    "x", "file.txt", "src/main.py", "/etc/passwd", "/", ".", "..", "/tmp/out", ".env",
    ".git/config", "/dev/null", "a b.txt", "-rf", "--force", "HEAD", "origin", "main",
    "/home/user/.ssh/id_rsa", "-", "*.log", "$HOME", "~", "it's", "\n",
)


@_cached
def word_values(*, min_size: int = 0, max_size: int = 10) -> st.SearchStrategy[str]:
    """Literal word values: ordinary, shell-special and non-ASCII characters (no NUL)."""
    return st.one_of(
        st.sampled_from(_INTERESTING_VALUES),
        st.text(alphabet=_ALPHABET, min_size=min_size, max_size=max_size),
    )


_STYLES = tuple(quoting.Style)
_STYLE = st.sampled_from(_STYLES)


@_cached
@st.composite
def _concatenation(draw: st.DrawFn, value: str) -> str:
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(value) - 1)), max_size=3)))
    bounds = [0, *[c for c in cuts if c < len(value)], len(value)]
    chunks = [(value[a:b], draw(_STYLE)) for a, b in itertools.pairwise(bounds)]
    return quoting.concatenated(chunks)


@_cached
def spelled_words(value: str) -> st.SearchStrategy[str]:
    """One spelling of `value` as a single bash word: one style, or a concatenation."""
    return st.one_of(st.sampled_from(quoting.spellings(value)), _concatenation(value))


@st.composite
def quoted_words(draw: st.DrawFn, values: st.SearchStrategy[str] | None = None
                 ) -> Respelled:
    """A value with at least two different spellings of it (all must mean the value)."""
    value = draw(values if values is not None else word_values())
    spellings = dict.fromkeys(quoting.spellings(value))
    spellings.update(dict.fromkeys(draw(st.lists(_concatenation(value), max_size=2))))
    return Respelled(values=(value,), spellings=tuple(spellings), how="quoting")


# --- expansions ---------------------------------------------------------------------------

EXPANSION_KINDS: tuple[str, ...] = (
    "parameter", "command-substitution", "backtick", "process-substitution", "arithmetic",
    "brace", "glob", "tilde", "extglob", "ansi-c", "history",
)

POSITIONS: tuple[str, ...] = (
    "command-name", "argument", "option-value", "assignment-value", "redirect-target",
    "double-quoted", "heredoc-body",
)

_PARAMETER = ("$X", "${X}", "$1", '"$@"', "$HOME", "${IFS}", "$?", "$$", "${X:-d}",
              "${#X}", "${X%.txt}", "${X/a/b}", "${!X}", "${X:?}", "$PATH", "${X[0]}")
_ARITHMETIC = ("$((1 + 2))", "$((X * 3))", "$[1+1]", "$((RANDOM % 2))")
_BRACE = ("{a,b}", "{1..3}", "file.{txt,md}", "{x..z}", "{rm,-rf,x}")
_GLOB = ("*", "*.txt", "file?", "[ab]*", "**/*.py", "/etc/pass*")
_TILDE = ("~", "~/x", "~root", "~+", "~/.ssh/id_rsa")
_EXTGLOB = ("!(x)", "@(a|b)", "+(a)", "*(b)", "?(c)")
_ANSI_C = ("$'\\x72\\x6d'", "$'a\\nb'", "$'\\u00e9'", "$'\\'x'")
_HISTORY = ("!!", "!$", "!-1")


@_cached
def _inner_texts(depth: int) -> st.SearchStrategy[str]:
    """Standalone command texts to nest (no heredocs: they go into backticks too)."""
    return simple_commands(heredocs=False, expansions=depth > 0, depth=depth)


@_cached
@st.composite
def expansion_words(draw: st.DrawFn, kind: str | None = None, position: str = "argument",
                    depth: int = 1) -> str:
    """A word holding one expansion of `kind` (any kind if None), usable at `position`."""
    kinds = EXPANSION_KINDS
    if position in ("command-name", "double-quoted", "option-value", "assignment-value"):
        kinds = tuple(k for k in kinds if k not in ("extglob", "process-substitution"))
    if position == "double-quoted":
        kinds = ("parameter", "command-substitution", "arithmetic")
    kind = kind if kind is not None else draw(st.sampled_from(kinds))
    match kind:
        case "parameter":
            return draw(st.sampled_from(_PARAMETER))
        case "command-substitution":
            return "$(" + draw(_inner_texts(depth - 1)) + ")"
        case "backtick":
            inner = draw(_inner_texts(depth - 1))
            return "`" + inner.replace("\\", "\\\\").replace("`", "\\`") + "`"
        case "process-substitution":
            return draw(st.sampled_from("<>")) + "(" + draw(_inner_texts(depth - 1)) + ")"
        case "arithmetic":
            return draw(st.sampled_from(_ARITHMETIC))
        case "brace":
            return draw(st.sampled_from(_BRACE))
        case "glob":
            return draw(st.sampled_from(_GLOB))
        case "tilde":
            return draw(st.sampled_from(_TILDE))
        case "extglob":
            return draw(st.sampled_from(_EXTGLOB))
        case "ansi-c":
            return draw(st.sampled_from(_ANSI_C))
        case "history":
            return draw(st.sampled_from(_HISTORY))
    raise ValueError(f"unknown expansion kind `{kind}`")


# --- simple commands ----------------------------------------------------------------------
# Convention: a rare branch is drawn as the LARGEST integer of its range, so that
# Hypothesis, which shrinks integers towards 0, shrinks counterexamples to plain commands.

_READ_ONLY = ("ls", "cat", "head", "tail", "grep", "wc", "echo", "printf", "pwd", "true",
              "stat", "sort", "uniq", "cut", "du", "df", "which", "date", "whoami", "id",
              "git status", "git log", "git diff", "find .", "file", "diff", "tree")
_EFFECTS = ("rm", "mv", "cp", "touch", "mkdir", "chmod", "tee", "ln -s", "sed -i",
            "git push", "git commit -m msg", "git checkout", "npm install", "pip install",
            "curl", "wget", "make", "kill", "dd", "truncate -s 0", "shred")
_INTERPRETERS = ("python3 -c", "node -e", "perl -e", "ruby -e", "awk", "bash -c", "sh -c",
                 "eval", "source", ".")
_BUILTINS = ("cd", "export X=1", "unset X", "set -e", "alias ls=rm", "exec", "trap", "umask")

COMMAND_NAMES: tuple[str, ...] = _READ_ONLY + _EFFECTS + _INTERPRETERS
"""Command prefixes the generators draw from (state-changing builtins kept apart)."""


@_cached
@st.composite
def _argument(draw: st.DrawFn, expansions: bool, depth: int) -> str:
    choice = draw(st.integers(0, 9 if expansions else 6))
    if choice <= 3:
        return draw(spelled_words(draw(word_values(min_size=1))))
    if choice <= 6:
        tool = draw(st.sampled_from(optiontables.TOOLS))
        flag = draw(st.sampled_from(sorted(tool.flags)))
        return f"-{flag}"
    return draw(expansion_words(position="argument", depth=depth))


REDIRECT_OPERATORS: tuple[str, ...] = (
    "<", ">", ">>", ">|", "<>", "&>", "&>>", ">&", "<&", "<<<", "<<", "<<-",
)


@_cached
@st.composite
def redirects(draw: st.DrawFn, *, expansions: bool = True, depth: int = 1) -> str:
    """One redirect (no heredoc: see `heredoc_commands`), any operator, maybe an fd."""
    op = draw(st.sampled_from(REDIRECT_OPERATORS[:-2]))
    fd = ""
    if op in ("<", ">", ">>", ">|", "<>"):
        fd = draw(st.sampled_from(("", "", "0", "1", "2", "3", "{fd}")))
    if op == ">&":  # duplicate or close an output fd: 2>&1, >&2, 1>&-
        fd = draw(st.sampled_from(("", "1", "2")))
        return fd + op + draw(st.sampled_from(("1", "2", "-")))
    if op == "<&":
        fd = draw(st.sampled_from(("", "0", "3")))
        return fd + op + draw(st.sampled_from(("0", "3", "-")))
    if expansions and draw(_ONE_IN[5]) == 4:
        target = draw(expansion_words(position="redirect-target", depth=depth))
    else:
        target = draw(spelled_words(draw(st.sampled_from(_TARGETS))))
    return f"{fd}{op} {target}"


@dataclass(frozen=True, slots=True)
class _Piece:
    """Rendered text plus here-document bodies still waiting for the next newline."""

    text: str
    heredocs: tuple[str, ...] = ()

    def standalone(self) -> str:
        """The text with its pending bodies flushed (ends in a newline if there were any)."""
        if not self.heredocs:
            return self.text
        return self.text + "\n" + "\n".join(self.heredocs) + "\n"

    def then(self, sep: str) -> str:
        """The text, `sep`, and pending bodies: what goes before the next command."""
        if not self.heredocs:
            return f"{self.text}{sep} "
        return f"{self.text}{sep}\n" + "\n".join(self.heredocs) + "\n"


_DELIMITERS = ("EOF", "END", "__X__")


@_cached
@st.composite
def _heredoc(draw: st.DrawFn, depth: int) -> tuple[str, str]:
    """(redirect text, pending body ending in the delimiter line)."""
    delimiter = draw(st.sampled_from(_DELIMITERS))
    quoted = draw(_BOOL)
    strip = draw(_BOOL)
    spelled = draw(st.sampled_from((f"'{delimiter}'", f'"{delimiter}"', f"\\{delimiter}"))
                   ) if quoted else delimiter
    line_text = st.text(alphabet=st.sampled_from("abc xyz'\"(){};|&<>*?#=!-/."),
                        max_size=20)
    lines = draw(st.lists(line_text, max_size=3))
    if quoted:
        lines += draw(st.lists(st.sampled_from(("$HOME", "$(rm -rf ~)", "`id`")), max_size=1))
    else:
        lines += draw(st.lists(expansion_words(position="heredoc-body", depth=depth,
                                               kind=draw(st.sampled_from(
                                                   ("parameter", "command-substitution",
                                                    "arithmetic")))), max_size=2))
    lines = [ln for ln in lines if ln.strip() != delimiter]
    tab = "\t" if strip else ""
    body = "".join(f"{tab}{ln}\n" for ln in lines) + f"{tab}{delimiter}"
    return ("<<-" if strip else "<<") + spelled, body


# Names whose assignment changes what later commands do (environment poisoning) or nothing.
_ASSIGNED_NAMES = ("X", "X", "PATH", "LD_PRELOAD", "IFS", "PAGER", "GIT_DIR", "BASH_ENV",
                   "HOME", "PROMPT_COMMAND")
_TARGETS = (*_INTERESTING_VALUES[:16], "/dev/tcp/127.0.0.1/80", "/dev/stderr", ".bashrc",
            ".git/hooks/pre-commit", "/proc/self/mem")


@_cached
@st.composite
def _simple_piece(draw: st.DrawFn, *, heredocs: bool = True, expansions: bool = True,
                  depth: int = 1, names: Sequence[str] = COMMAND_NAMES,
                  assignments: bool = True) -> _Piece:
    words: list[str] = []
    if assignments and draw(_ONE_IN[6]) == 5:
        value = draw(expansion_words(position="assignment-value", depth=depth)) \
            if expansions and draw(_BOOL) else draw(spelled_words(draw(word_values())))
        words.append(f"{draw(st.sampled_from(_ASSIGNED_NAMES))}={value}")
    if expansions and draw(_ONE_IN[10]) == 9:
        words.append(draw(expansion_words(position="command-name", depth=depth)))
    else:
        words.append(draw(st.sampled_from(names)))
    words += draw(st.lists(_argument(expansions, depth), max_size=3))
    words += draw(st.lists(redirects(expansions=expansions, depth=depth), max_size=2))
    pending: tuple[str, ...] = ()
    if heredocs and draw(_ONE_IN[8]) == 7:
        if draw(_BOOL):
            redirect, body = draw(_heredoc(depth))
            words.append(redirect)
            pending = (body,)
        else:
            words.append("<<< " + draw(spelled_words(draw(word_values()))))
    # a rare line continuation between two words
    glue = " \\\n  " if len(words) > 1 and draw(_ONE_IN[10]) == 9 else " "
    return _Piece(glue.join(words), pending)


@_cached
def simple_commands(*, heredocs: bool = True, expansions: bool = True, depth: int = 1,
                    names: Sequence[str] = COMMAND_NAMES) -> st.SearchStrategy[str]:
    """One simple command: maybe an assignment, a name, arguments, redirects, a heredoc."""
    return _simple_piece(heredocs=heredocs, expansions=expansions, depth=depth,
                         names=names).map(_Piece.standalone)


def heredoc_commands() -> st.SearchStrategy[str]:
    """`cat`/`bash`/`python3` fed by a here-document, quoted or not, `<<` or `<<-`."""
    @st.composite
    def build(draw: st.DrawFn) -> str:
        name = draw(st.sampled_from(("cat", "bash", "sh", "python3", "tee out.txt", "mysql")))
        redirect, body = draw(_heredoc(1))
        return _Piece(f"{name} {redirect}", (body,)).standalone()
    return build()


# --- structure ----------------------------------------------------------------------------

CONNECTORS: tuple[str, ...] = (";", "&&", "||", "|", "|&", "&", "\n", "#")
"""List connectors; `#` stands for a newline preceded by a comment full of syntax."""
CONSTRUCTS: tuple[str, ...] = (
    "list", "subshell", "group", "if", "if-else", "while", "until", "for", "arith-for",
    "case", "function", "negation", "time", "background", "redirected-group", "test",
    "arithmetic", "coproc", "regex-test", "array", "local", "arith-command",
)


def _join(pieces: Sequence[_Piece], connectors: Sequence[str]) -> _Piece:
    # `A | ! B` and `A | time B` are syntax errors: such a stage goes into a group
    pieces = [pieces[0], *(
        _Piece("{ " + _term(p) + "}") if conn in ("|", "|&")
        and p.text.startswith(("! ", "time ")) else p
        for p, conn in zip(pieces[1:], connectors, strict=True))]
    text = ""
    for piece, conn in zip(pieces[:-1], connectors, strict=True):
        if conn == "\n":
            text += piece.text + "\n" + "".join(h + "\n" for h in piece.heredocs)
        elif conn == "#":  # a newline with a comment before it: `A # it's ) done`
            text += piece.text + " # it's ) `done` $(x\n" + "".join(
                h + "\n" for h in piece.heredocs)
        else:
            text += piece.then(" " + conn if conn != ";" else ";")
    last = pieces[-1]
    return _Piece(text + last.text, last.heredocs)


def _term(piece: _Piece) -> str:
    """The piece as a list terminated for a compound body: `A; ` or `A;\\nbody\\nEOF\\n`."""
    return piece.then(";")


def _construct(kind: str, parts: Sequence[_Piece], conns: Sequence[str]) -> _Piece:
    a = parts[0]
    b = parts[1] if len(parts) > 1 else parts[0]
    match kind:
        case "list":
            return _join(parts, conns)
        case "subshell":
            inner = _join(parts, conns)
            return _Piece("( " + inner.standalone() + (" )" if not inner.heredocs else ")"))
        case "group":
            return _Piece("{ " + _term(_join(parts, conns)) + "}")
        case "redirected-group":
            return _Piece("{ " + _term(_join(parts, conns)) + "} 2>/dev/null")
        case "if":
            return _Piece("if " + _term(a) + "then " + _term(b) + "fi")
        case "if-else":
            c = parts[2] if len(parts) > 2 else a
            return _Piece("if " + _term(a) + "then " + _term(b) + "else " + _term(c) + "fi")
        case "while" | "until":
            return _Piece(f"{kind} " + _term(a) + "do " + _term(b) + "done")
        case "for":
            return _Piece("for i in 1 2; do " + _term(_join(parts, conns)) + "done")
        case "arith-for":
            return _Piece("for ((i = 0; i < 2; i++)); do " + _term(a) + "done")
        case "case":
            return _Piece("case x in x) " + _term(_join(parts, conns)) + ";; esac")
        case "function":
            return _Piece("f() { " + _term(_join(parts, conns)) + "}; f")
        case "negation":
            return _Piece("! " + a.text, a.heredocs)
        case "time":
            return _Piece("time " + a.text, a.heredocs)
        case "background":
            return _Piece(a.text + " & wait", a.heredocs)  # `A &;` would be a syntax error
        case "test":
            return _Piece("[[ -n $(" + a.standalone() + ") ]] && " + b.text, b.heredocs)
        case "arithmetic":
            return _Piece("(( $(" + a.standalone() + ") > 0 )) || " + b.text, b.heredocs)
        case "coproc":
            return _Piece("coproc { " + _term(a) + "}")
        case "regex-test":
            return _Piece("[[ x =~ ^(a|b)+$ ]] && " + a.text, a.heredocs)
        case "array":
            return _Piece("arr=(x 'y z' $(true)); " + a.text, a.heredocs)
        case "local":
            return _Piece("f() { local Y=1; " + _term(_join(parts, conns)) + "}; f")
        case "arith-command":
            return _Piece("(( i = 1 + 2 )); " + a.text, a.heredocs)
    raise ValueError(f"unknown construct `{kind}`")


@_cached
@st.composite
def _line_piece(draw: st.DrawFn, depth: int, names: Sequence[str]) -> _Piece:
    if depth <= 0 or draw(_ONE_IN[3]) == 0:  # shrinks to simple
        return draw(_simple_piece(depth=1, names=names))
    kind = draw(st.sampled_from(CONSTRUCTS))
    parts = draw(st.lists(_line_piece(depth - 1, names), min_size=1, max_size=3))
    conns = draw(st.lists(st.sampled_from(CONNECTORS), min_size=len(parts) - 1,
                          max_size=len(parts) - 1))
    return _construct(kind, parts, conns)


@_cached
def command_lines(*, max_depth: int = 2, names: Sequence[str] = COMMAND_NAMES
                  ) -> st.SearchStrategy[str]:
    """Whole command lines: lists, pipelines, subshells, groups, loops, conditionals,
    functions, `!`, `time`, `&`, `[[ ]]`, `(( ))`, nested up to `max_depth`."""
    return _line_piece(max_depth, names).map(_Piece.standalone)
