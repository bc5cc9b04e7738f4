"""Code for other shells (review E13): real dash runs what bash's reading does not show.

Each payload is first run by the real `dash` and the real `bash` in a scratch folder: dash
must create the marker file where bash does not (so the case is a real differential, not
a guess), and the default policy must not allow the same text given to `sh -c`/`dash -c`.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from policylang.decision import Decision, Verdict

DASH = shutil.which("dash")
BASH = shutil.which("bash")

# code that creates `marker` only when read by dash's rules
PAYLOADS = [
    pytest.param("echo $'\\'\ntouch marker\n'", id="ansi-c-quote"),
    pytest.param("echo x &>/dev/null touch marker", id="ampersand-redirect"),
    pytest.param("((touch - marker))", id="double-paren"),
]


def _creates_marker(shell: str, code: str, folder: Path) -> bool:
    marker = folder / "marker"
    marker.unlink(missing_ok=True)
    subprocess.run(
        [shell, "-c", code],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=10,
        check=False,
    )
    return marker.exists()


@pytest.mark.skipif(DASH is None or BASH is None, reason="needs the real dash and bash")
@pytest.mark.parametrize("code", PAYLOADS)
def test_dash_runs_what_bash_does_not(
    code: str, tmp_path: Path, decide: Callable[[str], Decision]
) -> None:
    assert DASH is not None
    assert BASH is not None
    assert _creates_marker(DASH, code, tmp_path), "dash should run the hidden command"
    assert not _creates_marker(BASH, code, tmp_path), "bash reads the code differently"
    quoted = "'" + code.replace("'", "'\\''") + "'"
    for shell in ("sh", "dash"):
        decision = decide(f"{shell} -c {quoted}")
        assert decision.verdict is not Verdict.ALLOW, decision.explain()
        assert any(r.rule_id == "shell.dialect" for r in decision.reasons), decision.explain()
    # bash itself reads the code as the policy does
    assert decide(f"bash -c {quoted}").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    ["zsh -c 'ls'", "ksh -c 'ls -l'", "watch -n 1 'ls &>/dev/null rm x'"],
)
def test_other_shells_ask(command: str, decide: Callable[[str], Decision]) -> None:
    assert decide(command).verdict is Verdict.ASK


def test_a_deny_in_foreign_code_holds(decide: Callable[[str], Decision]) -> None:
    assert decide("zsh -c 'rm -rf /'").verdict is Verdict.DENY
