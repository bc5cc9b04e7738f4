"""Walking a parsed command line: every segment, nested lines included; imports only the model.

`CommandLine` values nest (substitutions, heredoc bodies, `bash -c` strings); `walk`
visits all of them iteratively so a deep nest cannot exhaust the Python stack.
"""

from __future__ import annotations

from collections.abc import Iterator

from policylang.shell.model import Assignment, CommandLine, Expansion, Segment, Word

__all__ = ["expansions", "lines", "nested_lines", "walk"]


def expansions(segment: Segment) -> list[Expansion]:
    """Every expansion written in a segment: in its words, assignments (its own and its
    wrappers'), redirect targets and unquoted heredoc bodies."""
    words: list[Word] = list(segment.words)
    for assignment in (*segment.assignments, *segment.declared):
        words.extend(_assignment_words(assignment))
    found: list[Expansion] = []
    for redirect in segment.redirects:
        if redirect.target is not None:
            words.append(redirect.target)
        if redirect.heredoc is not None:
            found.extend(redirect.heredoc.expansions)
    if segment.wrapped is not None:
        for assignment in segment.wrapped.assignments:
            words.extend(_assignment_words(assignment))
    for word in words:
        found.extend(word.expansions)
    return found


def nested_lines(segment: Segment) -> Iterator[CommandLine]:
    """Every command line nested directly in a segment (substitutions, heredocs, `bash -c`)."""
    seen: set[int] = set()
    for expansion in expansions(segment):
        # INVARIANT: `export A=$(x)` shares one Expansion between its word and its
        # declared assignment; yield each nested line once.
        if expansion.nested is not None and id(expansion.nested) not in seen:
            seen.add(id(expansion.nested))
            yield expansion.nested
    wrapped = segment.wrapped
    if wrapped is not None and wrapped.nested is not None:
        yield wrapped.nested


def _assignment_words(assignment: Assignment) -> list[Word]:
    words = list(assignment.array or ())
    if assignment.value is not None:
        words.append(assignment.value)
    if assignment.subscript is not None:
        words.append(assignment.subscript)
    return words


def walk(line: CommandLine) -> Iterator[tuple[CommandLine, Segment]]:
    """Every segment of a line and of every line nested in it, with the line it belongs to.

    Segments of a line come in order, each line's nested lines after it (depth first,
    iteratively). `CommandLine.context` of a nested line says where it sits. A nested line
    reachable from several segments (`while …; done < <(ls)` gives the redirect to every
    segment of the loop) is visited once.
    """
    for current in lines(line):
        for segment in current.segments:
            yield current, segment


def lines(line: CommandLine) -> Iterator[CommandLine]:
    """The line itself and every line nested in it, at any depth, each once (iteratively)."""
    seen = {id(line)}
    stack = [line]
    while stack:
        current = stack.pop()
        yield current
        found: list[CommandLine] = []
        for segment in current.segments:
            for nested in nested_lines(segment):
                if id(nested) not in seen:
                    seen.add(id(nested))
                    found.append(nested)
        stack.extend(reversed(found))
