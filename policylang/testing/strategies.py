"""Hypothesis strategies that build bash command lines structurally; needs the `fuzz` extra.

Install with ``pip install 'policylang[fuzz]'`` (this module imports Hypothesis). It
imports `policylang.testing.{quoting,optiontables,seeds,cases}` and nothing from the
engine, so it can drive any evaluator.

Text strategies (each draws a `str` that is valid bash far more often than not; the
test suite measures the rate with `bash -n`):

- `word_values`, `spelled_words(value)`, `expansion_words(kind, position)`
- `redirects`, `heredoc_commands`, `simple_commands`, `command_lines`
- `corpus_commands(seeds)`, `mutated_commands(seeds)`, `any_command_text(seeds)`

Example strategies for the invariants (`policylang.testing.cases`):

- `quoted_words` / `respelled_commands` / `option_respellings` → `Respelled`
- `compounds` → `Compound`, `wrapped_commands` → `Wrapped`,
  `substituted_commands` → `Substituted`, `broken_commands` → `Broken`,
  `corpus_respelled(seeds)` → `Respelled`
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "policylang.testing.strategies needs Hypothesis: pip install 'policylang[fuzz]'"
    ) from exc

from policylang.testing import optiontables, quoting, seeds
from policylang.testing.cases import Broken, Compound, Respelled, Substituted, Wrapped
from policylang.testing.invariants import DenyCase

T = TypeVar("T")

__all__ = [
    "EXPANSION_KINDS",
    "POSITIONS",
    "REDIRECT_OPERATORS",
    "WRAPPERS",
    "any_command_text",
    "broken_commands",
    "command_lines",
    "compounds",
    "corpus_commands",
    "corpus_respelled",
    "deny_cases",
    "draw_sample",
    "expansion_words",
    "heredoc_commands",
    "mutated_commands",
    "option_respellings",
    "path_respellings",
    "quoted_words",
    "redirects",
    "respelled_commands",
    "simple_commands",
    "spelled_words",
    "substituted_commands",
    "word_values",
    "wrapped_commands",
]

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


# --- examples for the invariants ---------------------------------------------------------

_SAFE_PARTS = _READ_ONLY + _EFFECTS  # no state-changing builtins, no interpreters


@st.composite
def compounds(draw: st.DrawFn) -> Compound:
    """Standalone parts joined by a connector or wrapped in a compound construct."""
    parts = draw(st.lists(_simple_piece(names=_SAFE_PARTS, assignments=False),
                          min_size=2, max_size=3))
    kind = draw(st.sampled_from(CONSTRUCTS))
    conns = draw(st.lists(st.sampled_from(CONNECTORS), min_size=len(parts) - 1,
                          max_size=len(parts) - 1))
    piece = _construct(kind, parts, conns)
    used = _used_parts(kind, parts)
    label = kind if kind != "list" else "/".join(conns).replace("\n", "newline").replace(
        "#", "comment")
    return Compound(text=piece.standalone(), parts=tuple(p.standalone() for p in used),
                    construct=label)


def _used_parts(kind: str, parts: Sequence[_Piece]) -> Sequence[_Piece]:
    if kind in ("negation", "time", "background", "arith-for", "coproc", "regex-test",
                "array", "arith-command"):
        return parts[:1]
    if kind in ("if", "while", "until", "test", "arithmetic"):
        return parts[:2]
    return parts


def _python(inner: str) -> str:
    return "python3 -c " + quoting.single_quoted(f"import os; os.system({inner!r})")


def _node(inner: str) -> str:
    code = f"require('child_process').execSync({json.dumps(inner)})"
    return "node -e " + quoting.single_quoted(code)


def _perl(inner: str) -> str:
    escaped = "".join("\\" + c if c in '\\"$@' else c for c in inner)
    return "perl -e " + quoting.single_quoted(f'system("{escaped}")')


def _awk(inner: str) -> str:
    escaped = inner.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return "awk " + quoting.single_quoted(f'BEGIN {{ system("{escaped}") }}')


WRAPPERS: dict[str, str] = {
    "env": "env {}", "env-assign": "env A=1 {}", "env-unset": "env -u HOME {}",
    "timeout": "timeout 5 {}", "timeout-signal": "timeout -s KILL 10s {}",
    "nice": "nice {}", "nice-n": "nice -n 10 {}", "nohup": "nohup {}",
    "command": "command {}", "exec": "exec {}", "time": "time {}", "stdbuf": "stdbuf -oL {}",
    "setsid": "setsid {}", "ionice": "ionice -c3 {}", "sudo": "sudo {}",
    "sudo-user": "sudo -u root {}", "xargs": "xargs {}", "xargs-null": "xargs -0 {}",
    "doas": "doas {}", "taskset": "taskset 1 {}", "flock": "flock /tmp/lock {}",
    "watch": "watch -n 1 {}", "nohup-env": "nohup env {}", "sudo-timeout": "sudo timeout 5 {}",
}
"""Argv wrappers: `{}` is replaced by the inner command's text."""

_STRING_WRAPPERS: dict[str, Callable[[str], str]] = {
    "bash-c": lambda x: "bash -c " + quoting.single_quoted(x),
    "bash-c-double": lambda x: "bash -c " + quoting.double_quoted(x),
    "sh-c": lambda x: "sh -c " + quoting.single_quoted(x),
    "bash-lc": lambda x: "bash -lc " + quoting.single_quoted(x),
    "eval": lambda x: "eval " + quoting.single_quoted(x),
    "pipe-to-bash": lambda x: "echo " + quoting.single_quoted(x) + " | bash",
    "bash-heredoc": lambda x: "bash <<'EOF'\n" + x + "\nEOF\n",
    "python-os-system": _python, "node-exec-sync": _node, "perl-system": _perl,
    "awk-system": _awk,
    "dash-c": lambda x: "dash -c " + quoting.single_quoted(x),
    "zsh-c": lambda x: "zsh -c " + quoting.single_quoted(x),
    "sudo-sh-c": lambda x: "sudo sh -c " + quoting.single_quoted(x),
    "nohup-bash-c": lambda x: "nohup bash -c " + quoting.single_quoted(x),
    "su-c": lambda x: "su -c " + quoting.single_quoted(x),
    "script-c": lambda x: "script -qc " + quoting.single_quoted(x) + " /dev/null",
    "git-alias": lambda x: "git -c " + quoting.single_quoted("alias.x=!" + x) + " x",
    "find-exec": lambda x: "find . -maxdepth 0 -exec sh -c " + quoting.single_quoted(x)
                           + " \\;",
}


OPAQUE_WRAPPERS = frozenset({"pipe-to-bash", "bash-heredoc", "python-os-system",
                             "node-exec-sync", "perl-system", "awk-system", "script-c",
                             "git-alias", "find-exec"})
"""Wrappers whose inner command is data to the analyser (stdin scripts, interpreter code)."""


@st.composite
def wrapped_commands(draw: st.DrawFn) -> Wrapped:
    """`inner` behind a wrapper: argv wrappers, `bash -c '…'` (exactly re-quoted), eval,
    a script piped or fed by heredoc to a shell, and interpreters calling system()."""
    names = tuple(WRAPPERS) + tuple(_STRING_WRAPPERS)
    wrapper = draw(st.sampled_from(names))
    if wrapper in WRAPPERS:
        # argv wrappers take a plain argv: no assignments, no heredoc, no compound
        inner = draw(_simple_piece(heredocs=False, assignments=False, names=_SAFE_PARTS))
        return Wrapped(text=WRAPPERS[wrapper].format(inner.text), inner=inner.text,
                       wrapper=wrapper)
    inner_text = draw(st.one_of(
        simple_commands(names=_SAFE_PARTS, heredocs=False),
        _line_piece(1, _SAFE_PARTS).filter(lambda p: not p.heredocs).map(_Piece.standalone),
    ))
    if wrapper == "bash-heredoc" and "EOF" in inner_text:
        inner_text = inner_text.replace("EOF", "END")
    return Wrapped(text=_STRING_WRAPPERS[wrapper](inner_text), inner=inner_text,
                   wrapper=wrapper, opaque=wrapper in OPAQUE_WRAPPERS)


_SUBSTITUTION_HOSTS: dict[str, str] = {
    "argument": "echo $({})", "argument-quoted": 'ls "$({})"', "argument-nested":
    "echo $(echo $({}))", "command-name": "$({}) x", "assignment-value": "Y=$({}) true",
    "assignment-only": "Y=$({})", "export": "export Y=$({})",
    "redirect-target": "echo x > $({})", "process-substitution": "diff <({}) file.txt",
    "process-substitution-out": "echo x > >({})", "input-process": "cat < <({})",
    "double-quoted": 'echo "a $({}) b"', "test": "[[ -n $({}) ]]",
    "test-single": '[ -n "$({})" ]', "for-list": "for i in $({}); do echo $i; done",
    "case-subject": "case $({}) in *) true;; esac", "arithmetic": "echo $(( $({}) + 1 ))",
    "parameter-default": "echo ${{Y:-$({})}}", "option-value": "ls --color=$({})",
    "heredoc-body": "cat <<EOF\n$({})\nEOF\n",
}


@st.composite
def substituted_commands(draw: st.DrawFn) -> Substituted:
    """`inner` as a command or process substitution, backticks or heredoc expansion,
    in every position (argument, command name, assignment, redirect target, …)."""
    inner = draw(_simple_piece(heredocs=False, assignments=False, names=_SAFE_PARTS)).text
    position = draw(st.sampled_from((*_SUBSTITUTION_HOSTS, "backtick")))
    if position == "backtick":
        text = "echo `" + inner.replace("\\", "\\\\").replace("`", "\\`") + "`"
    else:
        text = _SUBSTITUTION_HOSTS[position].format(inner)
    return Substituted(text=text, inner=inner, position=position)


@st.composite
def respelled_commands(draw: st.DrawFn, *, redirect: bool = True) -> Respelled:
    """One argv (and maybe a redirect) written with different quoting per word.

    `values` is the argv only; with `redirect`, some spellings also carry `> TARGET`
    with the target spelled differently too.
    """
    name = draw(st.sampled_from(COMMAND_NAMES))
    values = tuple(name.split()) + tuple(draw(st.lists(word_values(min_size=1), max_size=3)))
    target = draw(st.none() | st.sampled_from(_INTERESTING_VALUES[:12])) if redirect else None
    variants: dict[str, None] = {}
    for _ in range(draw(st.integers(2, 4))):
        words = [draw(spelled_words(v)) for v in values]
        if target is not None:
            words.append("> " + draw(spelled_words(target)))
        variants.setdefault(" ".join(words))
    plain = quoting.shell_join(values) + ("" if target is None
                                          else " > " + quoting.single_quoted(target))
    return Respelled(values=values, spellings=(plain, *variants), how="quoting")


@st.composite
def _invocation(draw: st.DrawFn) -> optiontables.Invocation:
    tool = draw(st.sampled_from(optiontables.TOOLS))
    flags = draw(st.lists(st.sampled_from(sorted(tool.flags)), unique=True, max_size=3))
    valued_letters = draw(st.lists(st.sampled_from(sorted(tool.valued) or ["-"]),
                                   unique=True, max_size=2)) if tool.valued else []
    value_words = st.sampled_from(("5", "out.txt", "x", "GET", "1,2", "p"))
    valued = tuple((letter, draw(value_words)) for letter in valued_letters)
    operands = tuple(draw(st.lists(st.sampled_from(("x", "dir", "file.txt", "/tmp/out")),
                                   min_size=1, max_size=2)))
    return optiontables.Invocation(tool=tool, flags=tuple(flags), valued=valued,
                                   operands=operands)


@st.composite
def _spelling_choice(draw: st.DrawFn, inv: optiontables.Invocation
                     ) -> optiontables.SpellingChoice:
    return optiontables.SpellingChoice(
        bundle=draw(_BOOL),
        long_flags=frozenset(draw(st.sets(st.sampled_from(inv.flags))) if inv.flags else ()),
        abbreviate=draw(_BOOL),
        value_style=draw(st.sampled_from(("separate", "joined", "long-separate",
                                          "long-equals"))),
        options_last=draw(_BOOL),
        double_dash=draw(_BOOL),
    )


@st.composite
def option_respellings(draw: st.DrawFn) -> Respelled:
    """One tool call with its options spelled differently (bundled, split, long, `=`,
    abbreviated, moved after the operands, `--`): GNU tools read them all the same."""
    inv = draw(_invocation())
    choices = draw(st.lists(_spelling_choice(inv), min_size=1, max_size=3))
    argvs = optiontables.respellings(inv, choices)
    return Respelled(values=inv.canonical(), spellings=tuple(" ".join(a) for a in argvs),
                     how="options")


_PATHS = (".env", ".env.local", ".git/config", ".git/hooks/pre-commit", "src/main.py",
          "file.txt", ".ssh/id_rsa", "docs/a b.md")
_PATH_USES = ("cat {}", "rm {}", "ls -l {}", "echo x > {}", "cp {} /tmp/copy", "tee {}",
              "head -n 1 {}", "chmod 600 {}", "sed -i s/a/b/ {}", "cat < {}")


def _path_forms(path: str) -> tuple[str, ...]:
    """Lexically equivalent spellings of a relative path (no `..`: it depends on the tree)."""
    head, _, tail = path.rpartition("/")
    forms = [path, "./" + path, ".//" + path, "././" + path]
    if head:
        forms += [f"{head}/./{tail}", f"{head}//{tail}"]
    return tuple(forms)


@st.composite
def path_respellings(draw: st.DrawFn) -> Respelled:
    """One command on one path, the path spelled `p`, `./p`, `.//p`, `dir/./p`, … (and
    quoted): the same file, so the same verdict."""
    path = draw(st.sampled_from(_PATHS))
    use = draw(st.sampled_from(_PATH_USES))
    forms = draw(st.lists(st.sampled_from(_path_forms(path)[1:]), min_size=1, max_size=3,
                          unique=True))
    spellings = [use.format(quoting.shell_join([path]))]
    spellings += [use.format(draw(spelled_words(form))) for form in forms]
    return Respelled(values=(use.format(path),), spellings=tuple(dict.fromkeys(spellings)),
                     how="paths")


_BREAKERS: tuple[tuple[str, str], ...] = (
    ("unclosed-single-quote", "{} '"), ("unclosed-double-quote", '{} "'),
    ("unclosed-substitution", "{} $("), ("unclosed-backtick", "{} `"),
    ("unclosed-parameter", "{} ${"), ("stray-paren", "{} )"), ("leading-paren", ") {}"),
    ("trailing-pipe", "{} |"), ("trailing-and", "{} &&"), ("leading-pipe", "| {}"),
    ("missing-fi", "if {}; then true"), ("missing-done", "while {}; do true"),
    ("stray-done", "{}; done"), ("stray-case-end", "{} ;;"), ("open-paren", "{} ("),
    ("leading-then", "then {}"),
)


@st.composite
def broken_commands(draw: st.DrawFn, origins: st.SearchStrategy[str] | None = None
                    ) -> Broken:
    """A command line damaged so that bash rejects it (unclosed quote, stray `)`, …)."""
    origin = draw(origins if origins is not None else command_lines(max_depth=1))
    how, template = draw(st.sampled_from(_BREAKERS))
    # a heredoc-bearing line ends in a newline, so appended damage lands on a line of
    # its own, after the body: still outside any quote or heredoc
    return Broken(text=template.replace("{}", origin, 1), origin=origin, how=how)


# --- corpus-seeded ------------------------------------------------------------------------

def corpus_commands(seed_texts: Sequence[str]) -> st.SearchStrategy[str]:
    """Seed commands as they are (raises ValueError for an empty seed list)."""
    if not seed_texts:
        raise ValueError("no seed commands: pass a non-empty sequence (see seeds.load_seeds)")
    return st.sampled_from(tuple(seed_texts))


_MUTATIONS = ("splice", "subshell", "group", "wrap", "bash-c", "substitute", "requote",
              "redirect", "insert-token", "delete", "replace-char", "crossover")


def mutated_commands(seed_texts: Sequence[str]) -> st.SearchStrategy[str]:
    """A seed command mutated once or twice: structurally (splice with another seed,
    wrap, nest as a substitution, re-quote, add a redirect) or textually (insert a
    syntax token, delete, replace a character, crossover). Some results are invalid
    bash on purpose: they exercise the fail-closed paths."""
    pick = corpus_commands(seed_texts)

    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(pick)
        for _ in range(draw(st.integers(1, 2))):
            text = _mutate(draw, text, pick)
        return text

    return build()


def _mutate(draw: st.DrawFn, text: str, pick: st.SearchStrategy[str]) -> str:
    position = st.integers(0, max(0, len(text)))
    match draw(st.sampled_from(_MUTATIONS)):
        case "splice":
            return seeds.splice(text, draw(pick), draw(st.sampled_from(CONNECTORS)))
        case "subshell":
            return f"( {text} )"
        case "group":
            return "{ " + text + "; }"
        case "wrap":
            return draw(st.sampled_from(tuple(WRAPPERS.values()))).format(text)
        case "bash-c":
            return "bash -c " + quoting.single_quoted(text)
        case "substitute":
            return f"{text} $({draw(pick)})"
        case "requote":
            words = seeds.simple_words(text)
            styles = draw(st.lists(st.sampled_from(_STYLES), min_size=1, max_size=4))
            return seeds.requote(words, styles) if words else text
        case "redirect":
            return f"{text} {draw(redirects(expansions=False))}"
        case "insert-token":
            return seeds.insert_token(text, draw(position), draw(st.sampled_from(
                seeds.SYNTAX_TOKENS)))
        case "delete":
            return seeds.delete_span(text, draw(position), draw(st.integers(1, 5)))
        case "replace-char":
            return seeds.replace_char(text, draw(position), draw(_ALPHABET))
        case _:
            other = draw(pick)
            return seeds.crossover(text, other, draw(position),
                                   draw(st.integers(0, max(0, len(other)))))


def corpus_respelled(seed_texts: Sequence[str]) -> st.SearchStrategy[Respelled]:
    """A simple seed command (plain words and quotes only) re-quoted several ways."""
    simple = tuple(s for s in seed_texts if seeds.simple_words(s))
    if not simple:
        raise ValueError("no seed command is simple enough to re-quote")

    @st.composite
    def build(draw: st.DrawFn) -> Respelled:
        text = draw(st.sampled_from(simple))
        words = seeds.simple_words(text) or ()
        variants = dict.fromkeys([text])
        for _ in range(draw(st.integers(1, 3))):
            styles = draw(st.lists(st.sampled_from(_STYLES), min_size=1, max_size=4))
            variants.setdefault(seeds.requote(words, styles))
        return Respelled(values=words, spellings=tuple(variants), how="quoting")

    return build()


def any_command_text(seed_texts: Sequence[str] = ()) -> st.SearchStrategy[str]:
    """Everything: structural lines, broken lines, arbitrary text, seeds and mutants."""
    options: list[st.SearchStrategy[str]] = [
        command_lines(), broken_commands().map(lambda b: b.text),
        wrapped_commands().map(lambda w: w.text), substituted_commands().map(lambda s: s.text),
        st.text(max_size=40),
    ]
    if seed_texts:
        options += [corpus_commands(seed_texts), mutated_commands(seed_texts)]
    return st.one_of(options)


def draw_sample(strategy: st.SearchStrategy[T], count: int, *, seed: int = 0) -> list[T]:
    """`count` examples of `strategy`, the same ones for the same `seed` (no shrinking).

    For measuring generators (validity rates, exactness) outside a test: Hypothesis's
    own `example()` is random and warns when used this way.
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed

    out: list[T] = []

    @fixed_seed(seed)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: T) -> None:
        out.append(example)

    collect()
    return out


_DENY_PREFIXES = tuple(dict.fromkeys(n.split()[0] for n in COMMAND_NAMES if n[0].isalpha()))


@st.composite
def deny_cases(draw: st.DrawFn, seed_texts: Sequence[str] = ()) -> DenyCase:
    """A command line and a `deny PREFIX **` rule line to add to the policy."""
    prefix = draw(st.sampled_from(_DENY_PREFIXES))
    rule = draw(st.sampled_from((f"deny {prefix} **", f"deny {prefix}")))
    lines = [command_lines(), compounds().map(lambda c: c.text),
             wrapped_commands().map(lambda w: w.text)]
    if seed_texts:
        lines.append(corpus_commands(seed_texts))
    return DenyCase(command=draw(st.one_of(lines)), rule=rule)
