"""`policylang parse [--json] COMMAND`: print the shell model of one command line.

Shows what bash will run: segments with their connectors and scopes, each word's value
(or why it is not literal), redirects, wrappers seen through, nested command lines and
every problem the analyser found. `render_text`, `render_summary` and `to_json` are also
used by `policylang demo` and the golden tests.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import re

from policylang.shell.model import Assignment, CommandLine, Expansion, Redirect, Segment, Word
from policylang.shell.parse import parse_command
from policylang.shell.walk import nested_lines
from policylang.span import SourceText, Span

EXIT_OK = 0
EXIT_PROBLEMS = 1

JsonValue = None | bool | int | str | list["JsonValue"] | dict[str, "JsonValue"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "parse",
        help="show what bash will run for a command line",
        description=(
            "Print the shell model of COMMAND: segments, words with their values or "
            "expansions, redirects, wrappers, nested command lines and problems. "
            "Exit status 1 when the analyser found problems."
        ),
    )
    parser.add_argument("command", metavar="COMMAND", help="the command line (one argument)")
    parser.add_argument("--json", action="store_true", help="print the model as JSON")
    parser.add_argument(
        "--summary", action="store_true", help="print the one-line summary the golden tests use"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    line = parse_command(args.command)
    if args.json:
        print(json.dumps(to_json(line), indent=2, ensure_ascii=False))
    elif args.summary:
        print(render_summary(line))
    else:
        print(render_line(line))
    return EXIT_PROBLEMS if line.problems else EXIT_OK


# --------------------------------------------------------------------------- JSON
def to_json(value: object) -> JsonValue:
    """The model as plain JSON data (spans as `[start, end]`, enums as their values)."""
    if isinstance(value, Span):
        return [value.start, value.end]
    if isinstance(value, enum.Enum):
        return str(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_json(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.init and not f.name.startswith("_")
        }
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    return repr(value)


# --------------------------------------------------------------------------- text
def render_text(command: str) -> str:
    """Parse a command and render its model as indented text (used by `policylang demo`)."""
    return render_line(parse_command(command))


def render_line(line: CommandLine, indent: str = "") -> str:
    """Render a parsed command line as indented text."""
    out: list[str] = []
    if not line.segments:
        out.append(f"{indent}(no segments)")
    for number, segment in enumerate(line.segments, 1):
        _render_segment(segment, number, indent, out)
        for nested in nested_lines(segment):
            out.append(f"{indent}    {nested.context}:")
            out.append(render_line(nested, indent + "      "))
    if line.problems and not line.context:
        source = SourceText("command", line.text)
        out.append(f"{indent}problems:")
        # nested ERROR nodes of the tree can read the same: each is shown once (AR13)
        for problem in dict.fromkeys(line.problems):
            position = source.position(problem.span.start)
            where = f"{position.line}:{position.column}"
            out.append(f"{indent}  {where}: {problem.code}: {problem.message}")
    return "\n".join(out)


def _render_segment(segment: Segment, number: int, indent: str, out: list[str]) -> None:
    head = f"{indent}segment {number}: {segment.kind.value}"
    if segment.name:
        head += f" `{segment.name}`"
    if segment.scopes:
        head += f", in {' > '.join(s.value for s in segment.scopes)}"
    if segment.group:
        head += f", group {segment.group}"
    if segment.connector.value != "end":
        head += f", then `{segment.connector.value}`"
    out.append(head)
    pad = indent + "  "
    for assignment in (*segment.assignments, *segment.declared):
        value = assignment.value
        shown = "(array)" if value is None else _word_text(value)
        out.append(f"{pad}assign   {assignment.name}{'+=' if assignment.append else '='}{shown}")
    for index, word in enumerate(segment.words):
        out.append(f"{pad}argv[{index}]  {_word_text(word)}")
    for redirect in segment.redirects:
        out.append(f"{pad}redirect {_redirect_text(redirect)}")
    wrapped = segment.wrapped
    if wrapped is not None:
        chain = " > ".join(use.name for use in wrapped.chain)
        if wrapped.opaque:
            out.append(f"{pad}wrappers {chain}: opaque, {wrapped.reason}")
        elif wrapped.nested is not None:
            out.append(f"{pad}wrappers {chain}: runs the nested command line below")
        else:
            inner = " ".join(_word_text(w, brief=True) for w in wrapped.words) or "(nothing)"
            out.append(f"{pad}wrappers {chain}: runs {inner}")


def _word_text(word: Word, *, brief: bool = False) -> str:
    if word.value is not None:
        return _quote(word.value)
    if brief:
        return f"⟨{word.text}⟩"
    kinds = ", ".join(dict.fromkeys(f"{e.kind.value} `{e.text}`" for e in word.expansions))
    return f"⟨{word.text}⟩ not literal: {kinds or 'unknown'}"


def _redirect_text(redirect: Redirect) -> str:
    fd = "" if redirect.fd is None else str(redirect.fd)
    if redirect.heredoc is not None:
        doc = redirect.heredoc
        quoted = "quoted, literal body" if doc.quoted else "unquoted, body expands"
        return f"{fd}{redirect.op}{doc.delimiter} (heredoc, {quoted})"
    target = "" if redirect.target is None else _word_text(redirect.target, brief=True)
    return f"{fd}{redirect.op} {target}".rstrip()


_PLAIN = re.compile(r"[\w@%+=:,./~^-]+")


def _quote(value: str) -> str:
    """A literal value as shown to people: bare when plain, else JSON-quoted."""
    if _PLAIN.fullmatch(value):
        return value
    return json.dumps(value, ensure_ascii=False)


# --------------------------------------------------------------------------- summary
def render_summary(line: CommandLine) -> str:
    """A one-line structural summary of a parsed line (the golden table's format).

    Segments are separated by their connectors; `⟨…⟩` marks a non-literal word with its
    expansion kinds, nested lines in brackets; `=>` shows what wrappers run; problems
    follow `!!` with their codes.
    """
    parts: list[str] = []
    for segment in line.segments:
        parts.append(_summary_segment(segment))
        if segment.connector.value != "end":
            parts.append(segment.connector.value)
    text = " ".join(parts) if parts else "∅"
    if line.problems and not line.context:
        codes = sorted({p.code.removeprefix("shell.") for p in line.problems})
        text += " !! " + ",".join(codes)
    return text


_KIND_MARK = {
    "simple": "",
    "assignment-only": "assign:",
    "test": "test:",
    "arithmetic": "arith:",
    "function-def": "function:",
    "loop-header": "loop:",
    "case-header": "case:",
}


def _summary_segment(segment: Segment) -> str:
    items: list[str] = []
    for assignment in (*segment.assignments, *segment.declared):
        items.append(_summary_assignment(assignment))
    items.extend(_summary_word(w) for w in segment.words)
    for redirect in segment.redirects:
        items.append(_summary_redirect(redirect))
    body = " ".join(items)
    mark = _KIND_MARK.get(segment.kind.value, segment.kind.value + ":")
    if segment.name:
        mark += segment.name + ":"
    scopes = ",".join(s.value for s in segment.scopes)
    text = f"{mark}[{body}]"
    if scopes:
        text += f"@{scopes}"
    wrapped = segment.wrapped
    if wrapped is not None:
        chain = ">".join(use.name for use in wrapped.chain)
        if wrapped.opaque:
            text += f" =>{chain}:opaque"
        elif wrapped.nested is not None:
            text += f" =>{chain}:{{{render_summary(wrapped.nested)}}}"
        else:
            text += f" =>{chain}:[{' '.join(_summary_word(w) for w in wrapped.words)}]"
    return text


def _summary_assignment(assignment: Assignment) -> str:
    name = assignment.name
    if assignment.subscript is not None:
        name += f"[{_summary_word(assignment.subscript)}]"
    op = "+=" if assignment.append else "="
    if assignment.array is not None:
        return f"{name}{op}({' '.join(_summary_word(w) for w in assignment.array)})"
    value = "" if assignment.value is None else _summary_word(assignment.value)
    return f"{name}{op}{value}"


def _summary_word(word: Word) -> str:
    if word.value is not None:
        return _quote(word.value)
    return f"⟨{word.text}|{_summary_expansions(word.expansions)}⟩"


def _summary_expansions(expansions: tuple[Expansion, ...]) -> str:
    kinds: list[str] = []
    for expansion in expansions:
        mark = expansion.kind.value
        if expansion.nested is not None:
            mark += "{" + render_summary(expansion.nested) + "}"
        kinds.append(mark)
    return ",".join(dict.fromkeys(kinds))


def _summary_redirect(redirect: Redirect) -> str:
    fd = "" if redirect.fd is None else str(redirect.fd)
    if redirect.heredoc is not None:
        doc = redirect.heredoc
        body = f"|{_summary_expansions(doc.expansions)}" if doc.expansions else ""
        return f"{fd}{redirect.op}{'q:' if doc.quoted else ''}{doc.delimiter}{body}"
    target = "" if redirect.target is None else _summary_word(redirect.target)
    return f"{fd}{redirect.op}{target}"
