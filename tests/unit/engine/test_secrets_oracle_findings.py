"""The secrets oracle's smaller findings: `unzip -l .env` read the file looking for a
zip directory (the archive operand had no path rule), and `pgrep x --pidfile=$HOME/.netrc`
read the pid file (a file option glued to a value that is not literal was judged nowhere,
where `-F $HOME/.netrc` is denied)."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict, load_policy


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".netrc").write_text("machine x password NETRC-MARKER\n")
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / ".env").write_text("ENV-MARKER\n")
    return tmp_path / "ws"


def _verdict(line: str, workspace: Path) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return load_policy().evaluate(line, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    "line",
    ["unzip -l .env", "unzip -t .env", "unzip -v docs/../.env", "unzip -Z .env",
     "pgrep x --pidfile=$HOME/.netrc", "pkill -0 --pidfile=$HOME/.netrc x"],
)  # fmt: skip
def test_the_files_these_options_and_operands_name_are_judged(line: str, workspace: Path) -> None:
    assert _verdict(line, workspace) is not Verdict.ALLOW


@pytest.mark.parametrize("line", ["unzip -l x.zip", "unzip -l x.zip '*.py'", "pgrep -f python"])
def test_everyday_listing_stays_allowed(line: str, workspace: Path) -> None:
    assert _verdict(line, workspace) is Verdict.ALLOW
