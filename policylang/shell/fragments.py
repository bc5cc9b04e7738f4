"""Shell stage: the command substitutions inside text that did not parse; stdlib only.

A line bash runs but the analyser cannot parse is at least a question. Its pieces may
still hold a command a rule denies: `echo $((( i = $(sudo id) ))⏎)` runs `sudo id` in
bash, and had reached the approver as an approvable "could not analyse" question, where
`(( i = $(sudo id) ))` alone is denied (review AR10). The bodies of `$(…)` and `` `…` ``
found by a plain scan are analysed on their own so that a deny among them holds; they
can only make the verdict stricter.

The operator cuts ignore quoting on purpose (and substitution bodies are closed both
ways, see `substitution_bodies`). Where the parser failed, a quote-tracking scan is a
second parser that can disagree with bash as well: the CI fuzz campaign found
``ls < `ls ''\\'''`; ls .env``, where quotes inside backquotes follow other rules and a
quote-tracking cut hides `ls .env`. Ignoring quotes errs the strict way: a quoted `;` may
cut out a command bash would not run, and the line is then denied rather than asked
(review AS2, `printf "a; sudo id"` in a line that does not parse). The scans are linear in
the text: a line made to defeat the parser must not cost more than one that parses
(review AS1); the engine also bounds the whole line's recovery.

>>> substitution_bodies("echo $((( i = $(sudo id) ))\\n)")
['(( i = $(sudo id) ))\\n', 'sudo id']
>>> substitution_bodies("a `rm -rf ~` b $(x y z)")
['rm -rf ~', 'x y z']

A word bash brace-expands is a command of its own too: in `( {rm,-rf,~} )` or
`echo $({cat,.env}⏎)` tree-sitter does not parse the braced word, and the pieces cut at
its braces (`rm,-rf,~`) name no command. `brace_written` writes the text as brace
expansion makes it, for the engine to read as one more line (review DY1).

>>> brace_written("( {rm,-rf,~} )")
'( rm -rf ~ )'
"""

from __future__ import annotations

import re

from policylang.shell.braces import expand_braces

MAX_BODIES = 16  # pieces one scan returns; the engine also caps the whole line's work

# parentheses too: `((rm -rf ~) )` is two subshells to bash (no `))` closes an
# arithmetic command), and a piece that kept them (`rm -rf ~)`) matched no rule (AW5);
# and braces: tree-sitter reads the `{` of `! { cat /etc/shadow; }` as a word (AZ13)
# but not at the `|` of the clobbering redirect `>|`: `echo x >| ~/.bashrc` was cut into
# `echo x >` and `~/.bashrc`, and the protected write went unseen (review AZ11); and a
# brace only where it starts a word, as bash's `{` and `}` do (a word's own braces, as in
# `du $'\x{78}' /etc/pass*`, had cut its quote open, and the piece holding `/etc/pass*`
# did not parse: the fuzz campaign's seed 20261206)
_OPERATORS = re.compile(r"(?:[;&\n()]|(?<!>)\||(?:(?<=[\s;&|(){}`])|^)[{}])+")


def command_pieces(text: str) -> list[str]:
    """`text` cut at every `;`, `&`, `|`, newline, parenthesis and brace that starts a
    word, quoting ignored, each piece without a leading reserved word: where a line did
    not parse, the commands around its operators may still be read alone (a line whose
    first command breaks the parser may go on with `; ls .env`, which is denied).

    >>> command_pieces("ls < `x`; ls .env && y")
    ['ls < `x`', 'ls .env', 'y']
    >>> command_pieces("((rm -rf ~) )")
    ['rm -rf ~']
    >>> command_pieces("ls <<E;\\necho x >| ~/.bashrc")
    ['ls <<E', 'echo x >| ~/.bashrc']
    >>> command_pieces("! { cat x;}; du $'\\\\x{78}' /etc")
    ['!', 'cat x', "du $'\\\\x{78}' /etc"]
    >>> command_pieces("if true; then cat x; fi")
    ['true', 'cat x', 'fi']
    """
    return _pieces(_OPERATORS, _RESERVED_START, text)


def list_pieces(text: str) -> list[str]:
    """The pieces of `text` cut only at newlines, `&&` and `||`, quoting ignored, that hold
    a `for` or `select` loop, each without a leading `then`, `do`, `else` or `elif`: a
    loop written on one line stays whole, so its variable is read as bash reads it (after
    a here-document the parser lost, `ls <<E &&⏎E⏎for f in .env; do cat "$f"; done`:
    review EF1), where `command_pieces` cuts `for f in .env` from its body. (The other
    pieces are `command_pieces`' own, joined: they would only spend the budget.)

    >>> list_pieces("ls <<E &&\\nE\\nfor f in .env; do cat $f; done")
    ['for f in .env; do cat $f; done']
    """
    pieces = _pieces(_LIST_OPERATORS, _BODY_START, text)
    return [piece for piece in pieces if _LOOP_WORD.search(piece)]


def _pieces(operators: re.Pattern[str], reserved: re.Pattern[str], text: str) -> list[str]:
    whole = text.strip()
    found: dict[str, None] = {}
    for piece in operators.split(text):
        piece = reserved.sub("", piece.strip())
        if piece and piece != whole:
            found[piece] = None
            if len(found) >= MAX_BODIES:
                break
    return list(found)


_LIST_OPERATORS = re.compile(r"(?:\n|&&|\|\|)+")
# a reserved word that starts a piece: the command after it is what bash runs there
# (`then cat .env`, `do cat .env`, `elif cat .env` had been read as a command named
# `then`, and the `cat` was never judged: review EF1)
_RESERVED_START = re.compile(r"\A(?:(?:then|do|else|elif|if|while|until)[ \t]+)+")
# (a piece cut only at `&&`, `||` and newlines keeps the `if`, `while`, `until` that
# start its compound whole: `while :; do cat .env; done`)
_BODY_START = re.compile(r"\A(?:(?:then|do|else|elif)[ \t]+)+")
_LOOP_WORD = re.compile(r"(?:^|[\s;&|(){}`!])(?:for|select)[ \t]")


def brace_written(text: str) -> str | None:
    """`text` with each whole word of plain characters that bash brace-expands replaced by
    the words it makes (`expand_braces`), quoting ignored; None when no word changes.

    A word is whole when a blank, newline, `;`, `&`, `|`, parenthesis or backquote (or the
    text's edge) is before it, and one of those or `<`, `>` after it: `{cat,.env}>x` is
    the command `cat .env` with a redirect, but `"{a,b}"`, `${a,b}` and `x'y'{a,b}` are
    left as written, as is a word in doubt (`{a{b,c}}`, a lone `{`). Quotes are kept, so
    the line is read with them; a braced word inside quotes is expanded there too, which
    errs the strict way, as the operator cuts do.

    >>> brace_written("{ {cat,.env}; } >/dev/null; echo $(ls {a,b}.py)")
    '{ cat .env; } >/dev/null; echo $(ls a.py b.py)'
    >>> brace_written("echo '{a,b}' ${a,b} {a{b,c}}") is None
    True
    """
    if "{" not in text:
        return None
    changed = False
    written: list[str] = []
    position = 0
    for match in _PLAIN_WORD.finditer(text):
        word = match.group()
        if "{" not in word:
            continue
        start, end = match.span()
        if start > 0 and text[start - 1] not in _BEFORE_WORD:
            continue
        if end < len(text) and text[end] not in _AFTER_WORD:
            continue
        expanded = expand_braces(word)
        if expanded is None:
            continue
        written.append(text[position:start])
        written.append(" ".join(expanded))
        position = end
        changed = True
    if not changed:
        return None
    written.append(text[position:])
    return "".join(written)


_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./:,@%+=~*?\[\]{}-]+")
_BEFORE_WORD = frozenset(" \t\n;&|()`")
_AFTER_WORD = _BEFORE_WORD | {"<", ">"}


def substitution_bodies(text: str) -> list[str]:
    """The bodies of the `$(…)` and backquote substitutions in `text`, in the order they
    open (so outermost first), the nested ones too; an unclosed one runs to the end.

    Each `$(` is closed twice, once without regard to quotes and once skipping quoted
    text, and both bodies are returned when they differ: a quoted `)` before a command
    (`$(rm -rf ')' ~)`) ends only the first early (review AT3), a quote bash does not see
    as one only the second. Only the first `MAX_BODIES` are cut out of the text, so the
    work stays linear (review AT1: slicing every body first had cost 2.4 GB for 98 KB).
    """
    blind = _closings(text, quoted=False)
    aware = _closings(text, quoted=True)
    found: dict[str, None] = {}
    for begin in sorted(blind.keys() | aware.keys()):
        for end in dict.fromkeys((blind.get(begin), aware.get(begin))):
            if end is None:
                continue
            body = text[begin:end]
            if body.strip():
                found[body] = None
                if len(found) >= MAX_BODIES:
                    return list(found)
    return list(found)


def _closings(text: str, *, quoted: bool) -> dict[int, int]:
    """Where each substitution body begins → where it ends (the end of the text for one
    left open); with `quoted`, `'…'`, `"…"` and `\\x` are skipped as bash reads them."""
    opened: list[int] = []  # per open `(`: where its `$(` body begins, or -1
    closes: dict[int, int] = {}
    backquote = -1
    index, end = 0, len(text)
    while index < end:
        char = text[index]
        if quoted and char == "\\":
            index += 2
            continue
        if quoted and char in "'\"":
            close = text.find(char, index + 1)
            index = end if close < 0 else close + 1
            continue
        if char == "(":
            dollar = index > 0 and text[index - 1] == "$"
            opened.append(index + 1 if dollar else -1)
        elif char == ")" and opened:
            begin = opened.pop()
            if begin >= 0:
                closes[begin] = index
        elif char == "`":
            if backquote < 0:
                backquote = index + 1
            else:
                closes[backquote] = index
                backquote = -1
        index += 1
    if backquote >= 0:
        closes[backquote] = end
    for begin in opened:
        if begin >= 0:
            closes[begin] = end
    return closes
