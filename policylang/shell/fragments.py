"""Shell stage: the command substitutions inside text that did not parse; stdlib only.

A line bash runs but the analyser cannot parse is at least a question. Its pieces may
still hold a command a rule denies: `echo $((( i = $(sudo id) ))⏎)` runs `sudo id` in
bash, and had reached the approver as an approvable "could not analyse" question, where
`(( i = $(sudo id) ))` alone is denied (review AR10). The bodies of `$(…)` and `` `…` ``
found by a plain scan are analysed on their own so that a deny among them holds; they
can only make the verdict stricter.

>>> substitution_bodies("echo $((( i = $(sudo id) ))\\n)")
['(( i = $(sudo id) ))\\n', 'sudo id']
>>> substitution_bodies("a `rm -rf ~` b $(x 'y)' z)")
["x 'y)' z", 'rm -rf ~']
"""

from __future__ import annotations

import re

_MAX_BODIES = 16


def command_pieces(text: str) -> list[str]:
    """`text` cut at every `;`, `&`, `|` and newline, quoting ignored: where a line did
    not parse, the commands around its operators may still be read alone (a line whose
    first command breaks the parser may go on with `; ls .env`, which is denied). A cut
    inside quotes only makes pieces that do not parse either.

    >>> command_pieces("ls < `x`; ls .env && y")
    ['ls < `x`', 'ls .env', 'y']
    """
    pieces = [piece.strip() for piece in _OPERATORS.split(text)]
    found = [piece for piece in pieces if piece and piece != text.strip()]
    return found[:_MAX_BODIES]


_OPERATORS = re.compile(r"[;&|\n]+")


def substitution_bodies(text: str) -> list[str]:
    """The bodies of the `$(…)` and backquote substitutions in `text`, outermost first,
    the nested ones too; an unclosed one runs to the end of the text."""
    found: list[str] = []
    index = 0
    while index < len(text) and len(found) < _MAX_BODIES:
        if text.startswith("$(", index):
            end = _closing_paren(text, index + 2)
            found.append(text[index + 2 : end])
            index += 2
            continue
        index += 1
    for start, end in _backquoted(text):
        if len(found) >= _MAX_BODIES:
            break
        found.append(text[start:end])
    return [body for body in dict.fromkeys(found) if body.strip()]


def _closing_paren(text: str, index: int) -> int:
    """Where the `)` that closes the `(` before `index` is (quotes skipped), or the end."""
    depth = 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char in "'\"":
            close = text.find(char, index + 1)
            index = len(text) if close < 0 else close + 1
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return len(text)


def _backquoted(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    index = text.find("`")
    while index >= 0:
        close = text.find("`", index + 1)
        end = len(text) if close < 0 else close
        spans.append((index + 1, end))
        if close < 0:
            break
        index = text.find("`", close + 1)
    return spans
