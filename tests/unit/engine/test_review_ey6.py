"""Review EY6: `uniq` and `xxd` with an option and one file asked (`ask uniq|xxd * * **`
counted words, not operands). The `one-file` check counts their operands as each program
reads its options; the real programs show that every allowed line writes nothing and that
the asked ones write their second operand."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, judge

from policylang import Verdict


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("x 1\nx 1\ny 2\n")
    (workspace / "16").write_text("not a number\n")
    (workspace / "-c").write_text("a file named -c\n")
    return workspace


def _files(workspace: Path) -> dict[str, tuple[int, bytes]]:
    return {
        name: (os.stat(workspace / name).st_mtime_ns, (workspace / name).read_bytes())
        for name in sorted(os.listdir(workspace))
    }


def _run(line: str, workspace: Path, **env: str) -> None:
    subprocess.run(["bash", "-c", line], cwd=workspace, capture_output=True, timeout=30,
                   env={**canary_environment(workspace), **env}, check=False)  # fmt: skip


ALLOWED = [
    "uniq -c a.txt",
    "uniq -d a.txt",
    "uniq -f 1 -c a.txt",
    "uniq -cf1 a.txt",
    "uniq --skip-fields 1 a.txt",
    "uniq --skip-f=1 a.txt",
    "uniq --all-repeated=separate a.txt",
    "uniq -D -w 3 a.txt",
    "uniq -- -c",
    "uniq a.txt",
    "xxd -l 16 a.txt",
    "xxd -l16 a.txt",
    "xxd -c 32 -g 1 a.txt",
    "xxd -s 2 a.txt",
    "xxd --ps a.txt",
    "xxd -p -l 4 a.txt",
    "xxd -i -n name a.txt",
    "xxd -- a.txt",
]


@pytest.mark.parametrize("line", ALLOWED)
def test_one_file_is_read_only(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    assert decision.retention is not None
    assert decision.retention.value == "requery"
    before = _files(workspace)
    _run(line, workspace)
    _run(line, workspace, POSIXLY_CORRECT="1")
    assert _files(workspace) == before  # (the real program wrote nothing)


# each writes its second operand, as the real program shows (the file named last changes)
WRITERS = [
    ("uniq -c a.txt out", "out", {}),
    ("uniq a.txt -c", "-c", {"POSIXLY_CORRECT": "1"}),  # (a file after the first)
    ("uniq - out < a.txt", "out", {}),
    ("xxd a.txt out", "out", {}),
    ("xxd -pl 16 a.txt", "a.txt", {}),  # (`-p`; `16` is the input, `a.txt` the output)
    ("xxd -len 4 a.txt out", "out", {}),
    ("xxd -cols 4 a.txt out", "out", {}),
]


@pytest.mark.parametrize(("line", "written", "env"), WRITERS)
def test_a_second_operand_asks(
    tmp_path: Path, line: str, written: str, env: dict[str, str]
) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "one-file" in decision.explain()
    before = _files(workspace)
    _run(line, workspace, **env)
    assert _files(workspace).get(written) != before.get(written)


@pytest.mark.parametrize(
    "line",
    ["uniq +3 a.txt", "uniq --s 1 a.txt", "uniq -c", "uniq -x a.txt", "xxd -R always a.txt",
     "uniq *.txt", 'uniq -c "$F"', "uniq a.txt -f"],
)  # fmt: skip
def test_what_the_check_cannot_count_asks(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    if line == "uniq -c":
        assert judge(line, workspace).verdict is Verdict.ALLOW  # (reads its input)
        return
    assert judge(line, workspace).verdict is Verdict.ASK
