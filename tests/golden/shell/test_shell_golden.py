"""Golden table of the shell analyser: tests/golden/shell/commands.tsv.

Each line is `command<TAB>summary`, the summary being `render_summary` of the parsed
command (see `policylang parse --summary`). A field holding a control character (tab,
newline …), a lone surrogate or a leading `"` is written as a JSON string. Regenerate the
summaries after a deliberate change with

    POLICYLANG_UPDATE_GOLDEN=1 .venv/bin/pytest tests/golden/shell

and review the diff. To add a case, append a line with the command and any summary
(for example `?`), then regenerate.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from policylang.cli.parse_cmd import render_summary
from policylang.shell.parse import parse_command

TABLE = Path(__file__).with_name("commands.tsv")
UPDATE = os.environ.get("POLICYLANG_UPDATE_GOLDEN") == "1"


def encode(field: str) -> str:
    if field.startswith('"') or any(c < " " or "\ud800" <= c <= "\udfff" for c in field):
        return json.dumps(field)
    return field


def decode(field: str) -> str:
    if field.startswith('"'):
        value = json.loads(field)
        assert isinstance(value, str)
        return value
    return field


def read_table() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for number, line in enumerate(TABLE.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        command, sep, summary = line.partition("\t")
        assert sep, f"{TABLE.name}:{number}: no tab"
        rows.append((decode(command), decode(summary)))
    return rows


def write_table(rows: list[tuple[str, str]]) -> None:
    header = "# command<TAB>summary — regenerate with POLICYLANG_UPDATE_GOLDEN=1 (see test file)\n"
    body = "".join(f"{encode(c)}\t{encode(s)}\n" for c, s in rows)
    TABLE.write_text(header + body, encoding="utf-8")


ROWS = read_table()


def test_table_is_large_and_unique() -> None:
    commands = [c for c, _ in ROWS]
    assert len(commands) >= 150
    assert len(set(commands)) == len(commands), "duplicate commands in the golden table"


def test_golden_table() -> None:
    actual = [(command, render_summary(parse_command(command))) for command, _ in ROWS]
    if UPDATE:
        write_table(actual)
        return
    wrong = [
        f"{command!r}\n  expected {expected}\n  actual   {got}"
        for (command, expected), (_, got) in zip(ROWS, actual, strict=True)
        if expected != got
    ]
    assert not wrong, f"{len(wrong)} golden mismatches:\n" + "\n".join(wrong)
