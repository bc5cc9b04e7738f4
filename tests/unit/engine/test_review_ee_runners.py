"""Review EE, runners and interpreters: EE8 an interpreter's script is a file it reads
(`python3 .env` prints the secret line in its syntax error); EE7 a command a verb runner
(`uv run ls`) runs is looked up in the project's environment first; EE9 the files uv's
and pdm's own options read (`--env-file .env`) and the folder `--directory` moves to;
EE6 the lock file a runner writes itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict

_UV = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env` (a line that is shell, Python and Perl text) and `x.py`,
    beside a fake home with `~/.ssh/id_rsa`."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("export KEY=sk-secret\n")
    (workspace / "x.py").write_text("print('hi')\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("key\n")
    return workspace, env_beside(tmp_path)


# -- EE8: an interpreter's script operand is read ---------------------------------------------

_SCRIPT_READS = [
    "python3 .env",
    "python .env",
    "python3.12 .env",
    "python3 -u .env",
    "python3 -W ignore .env",
    "python3 -Wignore -X dev .env",
    "python3 -- .env",
    "python3 ~/.ssh/id_rsa",
    "node .env",
    "perl .env",
    "perl -w .env",
    "ruby .env",
    "php .env",
    "php -f .env",
    "bash .env",
    "sh .env",
    "bash -x .env",
    "bash -o pipefail .env",
    "env python3 .env",
    "nice python3 .env",
    "uv run python .env",
    "uv run python3 -u .env",
    "poetry run python .env",
    "uv run bash .env",
    "awk -f .env",
    "gawk -f .env README",
]


@pytest.mark.parametrize("line", _SCRIPT_READS)
def test_ee8_an_interpreters_script_that_is_protected_is_denied(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert decision.suggested_rule is None


@pytest.mark.parametrize("line", ["python3 .env", "uv run python .env", "bash .env"])
def test_ee8_no_approval_reads_the_secret(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    rule = line.replace(".env", str(workspace / ".env"))
    decision = decide(line, workspace, env, rule, line.split()[0])
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["python3 x.py", "python3 x.py .env", "python3 -c 'print(1)' .env", "python3 -m json.tool",
     "python3 - README", "bash -c 'echo hi' .env", "perl -e 1 .env", "node -e 1 .env",
     "python3 -W ignore x.py", "uv run python x.py"],
)  # fmt: skip
def test_ee8_arguments_and_other_scripts_are_not_denied(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.DENY, decision.explain()


def test_ee8_an_approved_script_stays_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide("python3 x.py", workspace, env, f"python3 {workspace / 'x.py'}")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_ee8_the_real_python_prints_the_script_it_cannot_parse(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    done = subprocess.run(
        [sys.executable, ".env"], cwd=workspace, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert "sk-secret" in done.stderr
