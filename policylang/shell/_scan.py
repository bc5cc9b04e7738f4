"""Byte-level scanning of command text: pure Python, imports nothing from policylang.

`shell.parse` uses these to check tree-sitter's node boundaries against bash's own rules:
where escaped characters belong, whether a `#` starts a comment, whether text between
nodes was dropped. Offsets are byte offsets into the UTF-8 (surrogatepass) encoding.
"""

from __future__ import annotations

from typing import Final

#: Bytes that end a word in bash (blanks and operator characters).
METACHARACTERS: Final = frozenset(b" \t\n;&|()<>")


def cut(data: bytes, start: int, stop: int) -> bytes:
    """`data[start:stop]`, for bounds that may cross or fall before the text.

    Python gives `b""` for `data[-1:0]` or `data[5:3]`; the compiled build of a bytes
    slice (mypyc 2.4) raises SystemError there instead. Slices whose start may pass
    their end go through here (tests/unit/test_native.py compares both builds).
    """
    size = len(data)
    if start < 0:
        start = max(start + size, 0)
    if stop < 0:
        stop = max(stop + size, 0)
    return data[start:stop] if start < stop else b""


def escapes_only(data: bytes, start: int, stop: int) -> bool:
    """Whether `data[start:stop]` is only backslash-escaped characters (no word break)."""
    index = start
    while index < stop:
        if data[index] != 0x5C or index + 1 >= stop:
            return False
        index += 2
        while index < stop and 0x80 <= data[index] < 0xC0:
            index += 1  # the rest of an escaped multi-byte character
    return True


def starts_bash_comment(data: bytes, offset: int) -> bool:
    """Whether bash starts a comment at the `#` at `offset`: it must begin a word, i.e.
    follow the start of the text or an unescaped blank or metacharacter."""
    index = preceding(data, offset)
    if index < 0:
        return True
    if data[index] not in METACHARACTERS:
        return False
    return not escaped(data, index)


def glued(data: bytes, offset: int) -> bool:
    """Whether bash reads the byte at `offset` (line continuations removed) on into the
    word before it: anything but the end of the text, a blank or a metacharacter."""
    index = past_continuations(data, offset)
    return index < len(data) and data[index] not in METACHARACTERS


def past_continuations(data: bytes, offset: int) -> int:
    """The offset of the first byte bash reads at or after `offset`: line continuations
    there vanish."""
    index = offset
    while data.startswith(b"\\\n", index):
        index += 2
    return index


def preceding(data: bytes, offset: int) -> int:
    """The offset of the byte bash reads just before `offset`, line continuations removed
    (-1 at the start of the text)."""
    index = offset
    while index >= 2 and data[index - 1] == 0x0A and data[index - 2] == 0x5C:
        if escaped(data, index - 2):
            break
        index -= 2  # a line continuation vanishes: look at what precedes it
    return index - 1


def ansi_c_end(data: bytes, start: int) -> int:
    """Where bash ends the `$'…'` string starting at `start` (-1 if it is unterminated).

    Inside `$'…'` a backslash escapes the next character, so `$'\\\\'` ends at its second
    quote; the first unescaped `'` closes the string.
    """
    index = start + 2
    size = len(data)
    while index < size:
        byte = data[index]
        if byte == 0x5C:
            index += 2
        elif byte == 0x27:
            return index + 1
        else:
            index += 1
    return -1


def escaped_backslashes(data: bytes, start: int, stop: int) -> list[int]:
    """Offsets of the `\\\\` pairs in `data[start:stop]`, read left to right as escapes."""
    found: list[int] = []
    index = data.find(b"\\", start, stop)
    while index != -1 and index + 1 < stop:
        if data[index + 1] == 0x5C:
            found.append(index)
        index = data.find(b"\\", index + 2, stop)
    return found


def escapes_near(data: bytes, start: int, end: int) -> bool:
    """Whether a backslash lies in `data[start:end]` or after it, past blanks only.

    Bounded so that the words of each command of a long line are not checked against
    the whole rest of the line.
    """
    if data.find(b"\\", start, end) != -1:
        return True
    size = len(data)
    while end < size and data[end] in (0x20, 0x09):
        end += 1
    return end < size and data[end] == 0x5C


def escaped(data: bytes, offset: int) -> bool:
    """Whether the byte at `offset` is preceded by an odd number of backslashes."""
    count = 0
    index = offset - 1
    while index >= 0 and data[index] == 0x5C:
        count += 1
        index -= 1
    return count % 2 == 1


def escaped_run(data: bytes, start: int, stop: int) -> int:
    """The end of the run of backslash-escaped characters starting at `start`."""
    index = start
    while index + 1 < stop and data[index] == 0x5C:
        index += 2
        while index < stop and 0x80 <= data[index] < 0xC0:
            index += 1
    return index


def raw_newline(data: bytes, start: int, stop: int) -> bool:
    """Whether `data[start:stop]` holds a newline that is not a line continuation."""
    index = data.find(b"\n", start, stop)
    while index != -1:
        if not escaped(data, index):
            return True
        index = data.find(b"\n", index + 1, stop)
    return False


def escape_region_end(data: bytes, start: int) -> int:
    """The end of the blanks and backslash escapes that follow `start` (not past a
    newline, a separator or any other character)."""
    index = start
    size = len(data)
    while index < size:
        byte = data[index]
        if byte in (0x20, 0x09):
            index += 1
        elif byte == 0x5C and index + 1 < size:
            index = escaped_run(data, index, size)
        else:
            break
    return index


def escape_words(data: bytes, start: int, stop: int) -> list[tuple[int, int]]:
    """Runs of escaped characters standing alone between blanks in `data[start:stop]`.

    Only when the region holds nothing but blanks and such runs (anything else may be a
    redirect or an assignment that has its own node).
    """
    if data.find(b"\\", start, stop) == -1:
        return []
    runs: list[tuple[int, int]] = []
    index = start
    while index < stop:
        byte = data[index]
        if byte in (0x20, 0x09):
            index += 1
        elif byte == 0x5C and index + 1 < stop:
            end = escaped_run(data, index, stop)
            # line continuations alone are no word: bash removes them before it splits
            # words (review BX4: `cd \<newline>\<newline>; cat .aws/credentials` ran in
            # home, where the model had `cd ''`)
            if data[index:end].replace(b"\\\n", b""):
                runs.append((index, end))
            index = end
        else:
            return []
    return runs


def escaped_prefix(data: bytes, end: int, start: int) -> int:
    """Where the word starting at `start` really starts: escaped characters tree-sitter
    left between the previous word (ending at `end`) and this one belong to it."""
    if data.find(b"\\", end, start) == -1:
        return start
    index = end
    prefix = start
    while index < start:
        if data[index] == 0x5C and index + 1 < start:
            if prefix == start:
                prefix = index
            index += 2
            while index < start and 0x80 <= data[index] < 0xC0:
                index += 1
        else:
            prefix = start
            index += 1
    return prefix


def dropped(data: bytes, start: int, stop: int, *, command_start: bool = False) -> bool:
    """Whether `data[start:stop]`, between two statements, holds text tree-sitter dropped.

    Blanks and line continuations are fine. Escaped characters on the line of the
    statement before are words of that statement (`words()` recovers them); after a
    newline, or where a command starts (`command_start`: the start of the text, after an
    operator or a keyword), they start a command of their own (`\\ ` alone is the
    command ` `, `| \\  cat` runs ` ` with the argument `cat`), and anything else is
    text no node holds.
    """
    chunk = data[start:stop]
    if not chunk.strip(b" \t\n"):
        return False
    chunk = chunk.replace(b"\\\n", b"")
    if command_start:
        return bool(chunk.strip(b" \t\n"))
    first, newline, rest = chunk.partition(b"\n")
    if newline and rest.strip(b" \t\n"):
        return True
    index = 0
    while index < len(first):
        byte = first[index]
        if byte == 0x5C and index + 1 < len(first):
            index += 2
        elif byte in (0x20, 0x09):
            index += 1
        elif 0x80 <= byte < 0xC0 and index:
            index += 1  # the rest of an escaped multi-byte character
        else:
            return True
    return False
