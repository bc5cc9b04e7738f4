"""Review BX3, BX7: the body of a `` `…` `` substitution as bash reads it. Directly inside
double quotes bash also removes the backslash of `\\"` (``echo "`cat \\".env\\"`"`` printed
`.env`, and `\\"'\\"` hid whole commands from the model); and it drops line continuations
in the body even inside `'…'` (``echo `cat '.en\\⏎v'` `` printed `.env`). Both were
allowed; they are denied now, and the model's commands are what bash runs (checked with
a real bash)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import judged_and_run

from policylang import Verdict

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SSH-KEY-MARKER\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("ENV-MARKER\n")
    (workspace / "README.md").write_text("hello\n")
    return home


def _run(line: str, home: Path) -> tuple[Verdict, str]:
    return judged_and_run(line, home.parent / "ws", home)


@pytest.mark.parametrize(
    ("line", "marker"),
    [
        ('echo "`cat \\".env\\"`"', "ENV-MARKER"),  # BX3
        ('echo $"`cat \\".env\\"`"', "ENV-MARKER"),
        ('echo "`: \\"\'\\"; cat ~/.ssh/id_rsa; \\"\'\\"`"', "SSH-KEY-MARKER"),
        ("echo `cat '.en\\\nv'`", "ENV-MARKER"),  # BX7
        ("echo \"`cat '.en\\\nv'`\"", "ENV-MARKER"),
        ("echo `cat '~/.s\\\nsh/id_rsa'` `cat ~/'.s\\\nsh/id_rsa'`", "SSH-KEY-MARKER"),
    ],
)
def test_a_backquoted_body_is_read_as_bash_reads_it(line: str, marker: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert marker in printed  # bash read the secret
    assert verdict is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    [
        'echo "${x:-`cat \\".env\\"`}"',  # inside `${…}` the `\\"` stays
        'echo `cat \\".env\\"`',  # unquoted backquotes keep it too
        "echo $(cat '.en\\\nv')",  # `$( )` keeps a continuation inside quotes
        'echo "`ls \\"README.md\\"`"',
    ],
)
def test_the_same_spellings_where_bash_keeps_the_characters_stay_allowed(
    line: str, home: Path
) -> None:
    verdict, printed = _run(line, home)
    assert "ENV-MARKER" not in printed
    assert verdict is Verdict.ALLOW
