"""A lexical safety net under the analyser: substitutions bash may run that it did not see.

tree-sitter-bash has blind spots where bash runs a command substitution: inside `${…}`
operands (`${x#$(cmd)}`, `${x:-`cmd`}`), single quotes that bash does not honour
(`${a['$(cmd)']}`, `$(( '$(cmd)' ))`), here-document bodies whose first line starts with
a blank, and more. Rather than trust every node, the analyser scans the text the way bash
quotes it — conservatively — for every place a substitution may start (`$(`, a backquote,
`<(`, `>(`) and reports each one it did not record. Reporting too much only asks.

The scanner knows one kind of literal text: single quotes (and `$'…'`) at command level,
and the bodies of here-documents whose word is quoted, both as bash delimits them. Inside
`${…}`, `$((…))`, `((…))`, double quotes and unquoted here-document bodies, quotes do not
make `$(` literal. A single-quoted string at command level that holds an array subscript
with a substitution (`'a[$(cmd)]'`) is reported too: bash runs it when it evaluates the
string as a variable name or an arithmetic expression (`test -v`, `printf -v`, `read`,
`unset`, `[[ … -eq … ]]`), wherever the word goes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

__all__ = ["CONTROL_BLANKS", "code_subscript", "may_substitute", "unseen_substitutions"]

# the characters the scanner reacts to; everything else is skipped in one regex step
_INTERESTING: Final = re.compile(r"[\\'\"$`{}()<>\[\]\n\r\v\f#]")
_MAY_SUBSTITUTE: Final = re.compile(r"\$\(|`|<\(|>\(|[\r\v\f]|[$<>]\\\n")
# bash splits words at blanks and newlines only; tree-sitter also at these
CONTROL_BLANKS: Final = "\r\v\f"
_HEREDOC_OP: Final = re.compile(r"<<(-?)[ \t]*")
_HEREDOC_WORD: Final = re.compile(r"""(?:[^\s;&|<>()]|\\.)+""", re.DOTALL)
# `name[ … $( … ]`: an array subscript that runs a substitution when bash evaluates it
_SUBSCRIPT_SUBSTITUTION: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[.*?(\$\(|`)", re.DOTALL)
# the same as written, with quotes and backslashes anywhere (`a[\$\(x\)]`, `"a["'$('x)]`)
_OPENER: Final = re.compile(r"\$\(|`")
_SUBSCRIPT_START: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[\\'\"]*\[")
_OPENER_ESCAPED: Final = re.compile(r"\$[\\'\"]*\(|`|\\x24|\\044|\\u0024|\\U00000024")

_COMMAND = "command"  # command level: quotes quote, `#` may start a comment
_DOUBLE = "double"  # "…": only `\`, `$`, backquote are special
_BRACE = "brace"  # ${…}
_ARITH = "arith"  # $((…)), ((…)), $[…]
_BODY = "body"  # an unquoted here-document body


def may_substitute(text: str) -> bool:
    """Whether `text` holds anything the scanner could report (a cheap first test)."""
    return _MAY_SUBSTITUTE.search(text) is not None


def code_subscript(
    text: str, value: str | None, recorded: Mapping[int, int], *, subscript: bool = False
) -> bool:
    """Whether a word names an array element whose subscript runs a substitution that
    bash does not expand as part of the word (`recorded`: start → end offsets in `text`
    of the substitutions it does expand, such as `a[`x`]` unquoted). With `subscript`,
    the whole word is a subscript (`a['$(x)']=1`)."""
    if value is not None:
        pattern = _OPENER if subscript else _SUBSCRIPT_SUBSTITUTION
        if pattern.search(value) is not None:
            return True
    if subscript:
        return _hidden_opener(text, 0, len(text), recorded)
    if "[" not in text:
        return False
    # to the end of the word, not the first `]`: bash matches brackets (`a[b[1]+$(x)]`)
    start = _SUBSCRIPT_START.search(text)
    return start is not None and _hidden_opener(text, start.end(), len(text), recorded)


def _hidden_opener(text: str, start: int, stop: int, recorded: Mapping[int, int]) -> bool:
    """Whether an opener in `text[start:stop]` lies outside every recorded substitution
    (those bash expands as part of the word, such as `${a[@]}` inside a backquote)."""
    for opener in _OPENER_ESCAPED.finditer(text, start, stop):
        where = opener.start()
        if not any(first <= where < end for first, end in recorded.items()):
            return True
    return False


def unseen_substitutions(text: str, seen: Mapping[int, int]) -> list[tuple[int, str]]:
    """Where bash may start a substitution that is not among `seen` (start → end offsets).

    Returns (offset, what) pairs: what is the opener (`$(`, a backquote, `<(`, `>(`),
    `'[…$(…)]'` for a quoted array subscript holding one, or a CR, VT or FF outside
    quotes (bash keeps it in the word; tree-sitter may split the word there).
    """
    return _Scanner(text, seen).run()


class _Scanner:
    __slots__ = ("ends", "found", "pending", "seen", "stack", "text")

    def __init__(self, text: str, seen: Mapping[int, int]) -> None:
        self.text = text
        self.seen = seen
        self.found: list[tuple[int, str]] = []
        # contexts: (kind, end offset for a recorded substitution / paren depth for arith)
        self.stack: list[list[object]] = [[_COMMAND, -1]]
        self.pending: list[tuple[str, bool, bool]] = []  # here-documents: word, quoted, <<-

    def run(self) -> list[tuple[int, str]]:
        text = self.text
        size = len(text)
        i = 0
        while i < size:
            match = _INTERESTING.search(text, i)
            if match is None:
                break
            i = match.start()
            i = self.step(i, text[i])
        return self.found

    def kind(self) -> str:
        kind = self.stack[-1][0]
        assert isinstance(kind, str)
        return kind

    def step(self, i: int, char: str) -> int:
        text = self.text
        kind = self.kind()
        closed = self.close_recorded(i)
        if closed is not None:
            return closed
        if char == "\\":
            return i + 2
        if char in "$<>" and text.startswith("\\\n", i + 1) and i not in self.seen:
            # bash deletes `\⏎` before it reads tokens: `$\⏎(cmd)` is `$(cmd)`, which
            # this scan would otherwise read as `$` and an escaped newline
            self.found.append((i, f"{char}\\\n"))
            return i + 3
        if char in CONTROL_BLANKS:
            if kind not in (_DOUBLE, _BODY):
                self.found.append((i, char))
            return i + 1
        if char == "#":
            return self.comment(i, kind)
        if char == "\n" and kind == _COMMAND and self.pending:
            return self.bodies(i + 1)
        if kind == _COMMAND and char == "'":
            return self.single_quoted(i, i + 1)
        if kind == _COMMAND and text.startswith("$'", i):
            return self.single_quoted(i, i + 2, ansi_c=True)
        if char == '"' and kind != _BODY:
            if kind == _DOUBLE:
                self.stack.pop()
            else:
                self.stack.append([_DOUBLE, -1])
            return i + 1
        if char in "$`<>" and i in self.seen:
            # a substitution the analyser recorded: its inside is command level again
            end = self.seen[i]
            self.stack.append([_COMMAND, end])
            return i + (1 if char == "`" else 2)
        if char == "$":
            if text.startswith("$((", i) or text.startswith("$[", i):
                self.stack.append([_ARITH, 0])
                return i + (3 if text[i + 1] == "(" else 2)
            if text.startswith("${", i):
                self.stack.append([_BRACE, -1])
                return i + 2
            if text.startswith("$(", i):
                self.found.append((i, "$("))
                return i + 2
            return i + 1
        if char == "`":
            self.found.append((i, "`"))
            return self.past_backquote(i + 1)
        if char in "<>":
            if text.startswith("<<", i) and not text.startswith("<<<", i) and kind == _COMMAND:
                return self.heredoc_operator(i)
            if text.startswith("(", i + 1) and kind not in (_DOUBLE, _BODY):
                self.found.append((i, f"{char}("))
                return i + 2
            return i + 1
        return self.brackets(i, char, kind)

    def brackets(self, i: int, char: str, kind: str) -> int:
        text = self.text
        if char == "(" and kind == _COMMAND and text.startswith("((", i):
            self.stack.append([_ARITH, 0])  # `(( … ))`; `( (…) )` only costs a report
            return i + 2
        if kind == _ARITH:
            top = self.stack[-1]
            depth = top[1]
            assert isinstance(depth, int)
            if char in "([":
                top[1] = depth + 1
            elif char in ")]":
                if depth > 0:
                    top[1] = depth - 1
                elif char == "]" or text.startswith("))", i):
                    self.stack.pop()
                    return i + (1 if char == "]" else 2)
            return i + 1
        if char == "}" and kind == _BRACE:
            self.stack.pop()
        return i + 1

    def comment(self, i: int, kind: str) -> int:
        """A `#` that starts a word at command level starts a comment, up to the newline.

        Only after an unescaped blank: anything less certain is scanned on (a report too
        many rather than a substitution skipped as a comment bash does not see).
        """
        text = self.text
        if kind == _COMMAND and (
            i == 0 or (text[i - 1] in " \t\n" and text[i - 2 : i - 1] != "\\")
        ):
            newline = text.find("\n", i)
            return len(text) if newline < 0 else newline
        return i + 1

    def past_backquote(self, i: int) -> int:
        """After an unrecorded backquote: past its closing one (reported once is enough)."""
        text = self.text
        while i < len(text) and text[i] != "`":
            i += 2 if text[i] == "\\" else 1
        return i + 1

    def close_recorded(self, i: int) -> int | None:
        """At the last character of a recorded substitution, leave its contexts."""
        for index in range(len(self.stack) - 1, 0, -1):
            end = self.stack[index][1]
            if self.stack[index][0] == _COMMAND and isinstance(end, int) and end - 1 == i:
                del self.stack[index:]
                return i + 1
        return None

    def single_quoted(self, start: int, i: int, *, ansi_c: bool = False) -> int:
        text = self.text
        while i < len(text) and text[i] != "'":
            i += 2 if ansi_c and text[i] == "\\" else 1
        end = min(i + 1, len(text))
        if _SUBSCRIPT_SUBSTITUTION.search(text, start, end) is not None:
            self.found.append((start, "'[…$(…)]'"))
        return end

    def heredoc_operator(self, i: int) -> int:
        operator = _HEREDOC_OP.match(self.text, i)
        assert operator is not None
        strip_tabs = operator.group(1) == "-"
        word = _HEREDOC_WORD.match(self.text, operator.end())
        if word is None:
            return operator.end()
        raw = word.group()
        quoted = any(c in raw for c in "'\"\\")
        delimiter = re.sub(r"\\(.)", r"\1", raw, flags=re.DOTALL).replace("'", "").replace('"', "")
        self.pending.append((delimiter, quoted, strip_tabs))
        return word.end()

    def bodies(self, i: int) -> int:
        """The bodies of the pending here-documents start at `i`, one after the other."""
        text = self.text
        for delimiter, quoted, strip_tabs in self.pending:
            start = i
            end = len(text)
            while i < len(text):
                newline = text.find("\n", i)
                line_end = len(text) if newline < 0 else newline
                line = text[i:line_end]
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    end = i
                    i = line_end + 1
                    break
                i = line_end + 1
            else:
                i = len(text)
            if not quoted:
                self.scan_body(start, end)
        self.pending.clear()
        return i

    def scan_body(self, start: int, end: int) -> None:
        """An unquoted body: `$(`, backquotes and `${…}` work, quotes do not."""
        inner = _Scanner(self.text[:end], self.seen)
        inner.stack = [[_BODY, -1]]
        position = start
        while position < end:
            match = _INTERESTING.search(inner.text, position)
            if match is None:
                break
            position = inner.step(match.start(), match.group())
        self.found.extend(inner.found)
