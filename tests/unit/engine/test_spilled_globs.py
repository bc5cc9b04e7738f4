"""Found by the secrets oracle: an unquoted glob where one word goes (a pattern, an
option's value) is expanded by bash to several words, and each after the first is an
operand the path checks never saw. `grep -v ~/.* README` printed `~/.netrc`, `rg -f *[de]*
README` the workspace's keys (README.md the pattern file, `certs/` searched), `grep .*
README` read `.env.production`. Such globs are judged as the operands they spill into."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import printed

from policylang import Verdict, load_policy


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".netrc").write_text("machine x login u password NETRC-MARKER\n")
    (home / ".aaa").write_text("first\n")  # (the first word of `~/.*`: the pattern)
    workspace = tmp_path / "ws"
    (workspace / "certs").mkdir(parents=True)
    (workspace / "certs" / "server.pem").write_text("PEM-MARKER\n")
    (workspace / ".env").write_text("ENV-MARKER\n")
    (workspace / ".aaa").write_text("first\n")
    (workspace / "README").write_text("readme\n")
    (workspace / "README.md").write_text("\n")  # a blank pattern line matches every line
    return home


@pytest.mark.parametrize(
    ("line", "marker"),
    [
        ("grep -v ~/.* README", "NETRC-MARKER"),
        ("grep -hv ~/.* /dev/null", "NETRC-MARKER"),
        ("grep -v .* README", "ENV-MARKER"),
        ("grep -v -e .* README", "ENV-MARKER"),
        ("grep -r -f *[de]* README", "PEM-MARKER"),
        ("rg -f *[de]* README", "PEM-MARKER"),
        ("rg -v -e .* README", "ENV-MARKER"),
    ],
)
def test_a_glob_in_a_one_word_place_is_judged_as_operands(
    home: Path, line: str, marker: str
) -> None:
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = load_policy().evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is not Verdict.ALLOW
    if shutil.which(line.split()[0]) is not None:
        assert marker in printed(["bash", "-c", line], workspace, home)


@pytest.mark.parametrize(
    "line",
    ["grep foo* README", "grep -E 'a.*b' README", "grep -rn TODO .", "rg -e foo README",
     "rg -f README.md README", "grep -v '.*' README"],
)  # fmt: skip
def test_patterns_that_spill_nowhere_stay_allowed(home: Path, line: str) -> None:
    workspace = home.parent / "ws"
    (workspace / ".env").unlink()
    (workspace / "certs" / "server.pem").unlink()
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = load_policy().evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
