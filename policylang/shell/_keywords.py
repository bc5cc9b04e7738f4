"""Reserved words where tree-sitter and bash disagree: pure Python over parse-tree nodes.

`shell.parse` (the only module that imports tree_sitter) passes its nodes in; this module
only reads their `type`, offsets and neighbours through the `TreeNode` protocol. Each check
finds a spelling tree-sitter-bash accepts although bash rejects it (or reads differently),
so the analyser can report it instead of failing open (`ls;; sudo id`, `ls; fi`,
`{ls;}`, `if a; then b; else fi`, `case x in x) ls esac`):

- a reserved word bash recognises in command position, which tree-sitter takes for a
  command name (`fi`, `done`, `}` …): `reserved_command`;
- a closing or continuing keyword (`}`, `fi`, `done`, `esac`, `then` …) right after a word
  of a simple command, where bash reads it as one more word: `misplaced_keyword`;
- an empty body (`{ }`, `then fi`, `do done`): `misplaced_keyword` too;
- a `{` glued to the following word (`{ls;}` is the word `{ls` for bash): `glued_brace`;
- a case terminator (`;;`, `;&`, `;;&`) outside `case`: `CASE_TERMINATORS`;
- a prefix keyword (`coproc`, `time`, `!`) read as a command name, which hides the
  command after it (`coproc { rm -rf ~; }`, `time ! ls`, `! ! ls`): `prefix` says what
  to blank out so that tree-sitter, parsing again, sees that command.

Offsets are byte offsets into the UTF-8 text, like the nodes'.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from policylang.shell import _scan

__all__ = [
    "CASE_TERMINATORS",
    "CHECKED_KEYWORDS",
    "PREFIX_WORDS",
    "RESERVED_COMMAND_WORDS",
    "Prefix",
    "TreeNode",
    "glued_brace",
    "misplaced_keyword",
    "prefix",
    "reserved_command",
]


class TreeNode(Protocol):
    """The part of a tree-sitter node these checks read."""

    @property
    def type(self) -> str: ...
    @property
    def is_named(self) -> bool: ...
    @property
    def start_byte(self) -> int: ...
    @property
    def end_byte(self) -> int: ...
    @property
    def child_count(self) -> int: ...
    @property
    def children(self) -> Sequence[TreeNode]: ...
    @property
    def parent(self) -> TreeNode | None: ...
    @property
    def prev_sibling(self) -> TreeNode | None: ...


#: Reserved words that cannot start a simple command: bash reads them as keywords in
#: command position (unquoted, before any assignment or redirection) and then rejects the
#: line or parses it differently. `!`, `time` and `coproc` are valid there and not listed.
RESERVED_COMMAND_WORDS: Final = frozenset(
    {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while",
     "until", "do", "done", "in", "function", "{", "}", "[[", "]]"}
)  # fmt: skip

#: Keyword tokens whose position `misplaced_keyword` checks.
CHECKED_KEYWORDS: Final = frozenset({"then", "else", "elif", "fi", "do", "done", "esac", "}"})

CASE_TERMINATORS: Final = frozenset({";;", ";&", ";;&"})

# A keyword right after one of these opens an empty body, which bash rejects.
_OPENERS: Final = frozenset({"{", "then", "else", "do", "if", "elif", "while", "until"})
# Nodes whose last word leaves bash expecting more words, not a keyword.
_SIMPLE: Final = frozenset(
    {"command", "declaration_command", "unset_command", "variable_assignment",
     "variable_assignments", "file_redirect", "heredoc_redirect", "herestring_redirect"}
)  # fmt: skip
# Nodes after which bash accepts a reserved word (compound commands and lists).
_COMPOUND: Final = frozenset(
    {"program", "subshell", "compound_statement", "if_statement", "elif_clause",
     "else_clause", "while_statement", "for_statement", "c_style_for_statement",
     "do_group", "case_statement", "case_item", "function_definition", "negated_command",
     "list", "pipeline", "redirected_statement"}
)  # fmt: skip


def reserved_command(first_word: bytes) -> bool:
    """Whether a command's first word, as written, is a reserved word bash reads as such."""
    return first_word.decode("ascii", "replace") in RESERVED_COMMAND_WORDS


def glued_brace(open_brace: TreeNode, data: bytes) -> bool:
    """Whether a group's `{` is glued to what follows (`{ls;}`: bash reads the word `{ls`)."""
    end = open_brace.end_byte
    return end < len(data) and data[end] not in _scan.METACHARACTERS


def misplaced_keyword(keyword: TreeNode, data: bytes) -> str | None:
    """Why bash would not read `keyword` as the keyword tree-sitter made it (None if it would).

    Bash recognises a reserved word only where a command may start: after an operator,
    a newline or another keyword, never right after a word of a simple command (there it
    is one more argument: `{ ls }` runs `ls }` and leaves the group open). A keyword
    that closes a body right after the body's opener closes an empty body, which bash
    rejects (`{ }`, `then fi`, `do done`).
    """
    previous = _previous_leaf(keyword)
    if previous is None:
        return None
    name = keyword.type
    if previous.type in _OPENERS and not previous.is_named and _in_compound(previous):
        return f"bash rejects the empty body before `{name}`"
    if _scan.raw_newline(data, previous.end_byte, keyword.start_byte):
        return None
    if _ends_simple_command(previous):
        return f"bash reads `{name}` here as a word of the command before it, not as a keyword"
    return None


@dataclass(frozen=True, slots=True)
class Prefix:
    """A keyword that prefixes a command (`coproc`, `time`, `!`) read by tree-sitter as a
    command name, as in `coproc { rm -rf ~; }` (the command `coproc { rm -rf ~` and a
    stray `}`), `time ! ls` or `! ! ls`.

    `blank` is the byte range to blank out (the keyword, `coproc`'s NAME, `time`'s `-p`
    and `--`; empty when nothing should be) so that tree-sitter, parsing again, sees the
    command bash runs at `body`; `problem` says why the use is not fully seen ("" when it
    is).
    """

    keyword: str
    blank: tuple[int, int]
    body: int
    problem: str = ""


#: Command names that may be a prefix keyword (`prefix` decides).
PREFIX_WORDS: Final = frozenset({b"coproc", b"time", b"!"})

_IDENTIFIER: Final = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*\Z")
_COMPOUND_WORDS: Final = (b"if", b"while", b"until", b"for", b"case", b"select", b"[[")
_RESERVED_BYTES: Final = tuple(sorted((w.encode() for w in RESERVED_COMMAND_WORDS), key=len))


def prefix(command: TreeNode, data: bytes) -> Prefix | None:
    """The prefix keyword whose tree-sitter reading as a command name hides a command.

    `command` is a command node whose name is one of `PREFIX_WORDS`. Bash reads `coproc`'s
    NAME only when a compound command follows it (`coproc w { ls; }`); otherwise the
    first word is the command (`coproc cat file`). `time CMD` and `! CMD` are left to the
    wrapper table and tree-sitter unless a keyword, `!` or a compound command follows.
    """
    name = command.children[0]
    start, end = name.start_byte, name.end_byte
    keyword = data[start:end].decode("ascii", "replace")
    body = _skip_blanks(data, end)
    ends = body >= len(data) or data[body] in b";&|)\n#"
    if keyword == "coproc":
        if ends:
            return Prefix(keyword, (start, start), body, "bash rejects `coproc` alone")
        for word in (b"!", b"coproc"):
            if _word_at(data, body, word):
                problem = f"bash rejects `{word.decode()}` after `coproc`"
                return Prefix(keyword, (start, end), body, problem)
        return _coproc(command, data, start, end, body)
    if keyword == "time":
        stop = end
        for option in (b"-p", b"--"):  # the keyword's own option, and the end of options
            if _word_at(data, body, option):
                stop = body + len(option)
                body = _skip_blanks(data, stop)
        if body < len(data) and data[body] in b"&|":
            return Prefix(keyword, (start, start), body, "bash rejects `time` before `&` or `|`")
        if _keyword_at(data, body):
            return Prefix(keyword, (start, stop), body)
        return None
    if body < len(data) and data[body] in b"&|":
        return Prefix(keyword, (start, start), body, "bash rejects `!` before `&` or `|`")
    if not ends:
        return Prefix(keyword, (start, end), body)  # `! ! ls`, `time ! ls`
    return None


def _coproc(command: TreeNode, data: bytes, start: int, end: int, body: int) -> Prefix:
    children = command.children
    if len(children) > 1 and children[1].start_byte == body and not _keyword_at(data, body):
        name = children[1]
        after = _skip_blanks(data, name.end_byte)
        if _compound_at(data, after):
            if _IDENTIFIER.match(data[name.start_byte : name.end_byte]) is None:
                problem = "the coprocess name is not a plain name"
                return Prefix("coproc", (start, end), body, problem)
            # bash assigns NAME the coprocess's descriptors and NAME_PID its process
            # (review BY1: `coproc CDPATH { :; }; cd docs` went to a shipped `63/docs`);
            # the variables that change what later commands mean are upper case
            problem = ""
            if not data[name.start_byte : name.end_byte].decode("ascii", "replace").islower():
                problem = "`coproc NAME` assigns NAME and NAME_PID, which are not modelled"
            return Prefix("coproc", (start, name.end_byte), after, problem)
        if _keyword_at(data, after):  # `coproc ls do`: bash reads `do` as a keyword here
            problem = "bash reads a keyword after `coproc NAME` and rejects it"
            return Prefix("coproc", (start, end), body, problem)
    return Prefix("coproc", (start, end), body)


def _skip_blanks(data: bytes, index: int) -> int:
    while index < len(data) and data[index] in b" \t":
        index += 1
    return index


def _word_at(data: bytes, index: int, word: bytes) -> bool:
    """Whether `word` stands alone at `index` (followed by a metacharacter or the end)."""
    stop = index + len(word)
    return data.startswith(word, index) and (
        stop >= len(data) or data[stop] in _scan.METACHARACTERS
    )


def _compound_at(data: bytes, index: int) -> bool:
    """Whether a compound command starts at `index` (`{ `, `(`, `if `, `while ` …)."""
    if index >= len(data):
        return False
    if data[index] == 0x28:  # `(`: a subshell or `((`
        return True
    return _word_at(data, index, b"{") or any(_word_at(data, index, w) for w in _COMPOUND_WORDS)


def _keyword_at(data: bytes, index: int) -> bool:
    """Whether bash reads a reserved word, a prefix keyword or a compound command at
    `index`."""
    if index >= len(data):
        return False
    if data[index] == 0x28 or any(_word_at(data, index, w) for w in PREFIX_WORDS):
        return True
    return any(_word_at(data, index, w) for w in _RESERVED_BYTES)


def _previous_leaf(node: TreeNode) -> TreeNode | None:
    """The last token before `node` in the text (None at the start)."""
    current: TreeNode | None = node
    while current is not None and current.prev_sibling is None:
        current = current.parent
    if current is None:
        return None
    leaf = current.prev_sibling
    assert leaf is not None
    while leaf.child_count:
        leaf = leaf.children[-1]
    return leaf


def _in_compound(token: TreeNode) -> bool:
    parent = token.parent
    return parent is not None and parent.type in _COMPOUND


def _ends_simple_command(leaf: TreeNode) -> bool:
    """Whether the token `leaf` belongs to a simple command (a word or redirection)."""
    current: TreeNode | None = leaf
    while current is not None:
        kind = current.type
        if kind in _SIMPLE:
            return True
        if kind == "test_command":
            children = current.children
            return bool(children) and children[0].type == "["  # `[ … ]` is a command
        if kind in _COMPOUND:
            return False
        current = current.parent
    return False
