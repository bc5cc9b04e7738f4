"""Every command of the shared corpora goes through the shell analyser.

The corpora (../shared/corpora: tldr.tsv, nl2bash.tsv, codex_cases.tsv, about 42,000
command lines written by other people) live outside the repository; the test skips with a
message when they are absent. For each command: no exception, a deterministic model, every
tree-sitter ERROR/MISSING node recorded as a problem, and spans that fit the text.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest
import tree_sitter
import tree_sitter_bash

from policylang.cli.parse_cmd import render_summary
from policylang.shell.parse import parse_command
from policylang.shell.walk import lines, walk

CORPORA = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"
FILES = (("tldr.tsv", "command"), ("nl2bash.tsv", "command"), ("codex_cases.tsv", "command"))

pytestmark = pytest.mark.slow


def corpus() -> list[str]:
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA.resolve()} (outside the repository)")
    csv.field_size_limit(1 << 24)
    commands: list[str] = []
    for name, column in FILES:
        with open(CORPORA / name, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
            commands.extend(row[column] for row in reader)
    return commands


def tree_sitter_errors(text: str) -> int:
    """How many ERROR/MISSING nodes tree-sitter itself reports (an independent count)."""
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    root = parser.parse(text.encode("utf-8", "surrogatepass")).root_node
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += node.is_error or node.is_missing
        if node.has_error:
            stack.extend(node.children)
    return count


_SYNTAX_CODES = frozenset({"shell.syntax-error", "shell.missing-node", "shell.read-write-redirect"})


def spans(text: str) -> Iterator[tuple[int, int]]:
    line = parse_command(text)
    for nested in lines(line):
        if nested.reparsed:
            continue
        for segment in nested.segments:
            yield segment.span.start, segment.span.end
            for word in segment.words:
                yield word.span.start, word.span.end


def test_corpus_is_analysed_totally_and_deterministically() -> None:
    commands = corpus()
    assert len(commands) > 40_000
    failures: list[str] = []
    for text in commands:
        first = parse_command(text)
        if any(p.code == "shell.internal-error" for p in first.problems):
            failures.append(f"internal error: {text!r}")
            continue
        if render_summary(first) != render_summary(parse_command(text)):
            failures.append(f"not deterministic: {text!r}")
        for _ in walk(first):
            pass
        # (a `<>` tree-sitter rejects is read by the analyser, and stays a problem of its own)
        syntax = sum(p.code in _SYNTAX_CODES for p in first.problems)
        if syntax < tree_sitter_errors(text):
            failures.append(f"tree-sitter error not recorded: {text!r}")
        if any(not 0 <= s <= e <= len(text) for s, e in spans(text)):
            failures.append(f"span outside the text: {text!r}")
    assert not failures, f"{len(failures)} failures, first ones:\n" + "\n".join(failures[:20])
