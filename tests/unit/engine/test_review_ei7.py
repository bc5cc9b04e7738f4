"""Review EI7: files interpreters read as code or settings beside their script, and bash's
bundles. `bash -ox pipefail .env` runs `.env` (bash gives `-o` the next word and reads on
in the bundle; read the getopt way, `-o x`, the script had been taken to be `pipefail`),
`node -r ./.env` loads `.env` as code and prints the line it cannot parse, `ruby -r`
names a file ruby loads as code (it looks for `NAME.rb` first: judged by the name given,
stricter), `php -c`, `gawk -i`/`--include` and `R -f` read the file they name: each a read of
a protected file, which denies, where it had only asked. So do awk's operands after its
program (`awk 1 .env` prints the file)."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from realrun import decide, env_beside, run_printed

from policylang import Verdict

_CANARY = "canary-ei7"


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / ".env").write_text(f"KEY={_CANARY}\n{_CANARY}-line\n")
    (workspace / "s.sh").write_text("echo ran\n")
    return workspace


_DENIES = [
    "bash -ox pipefail .env",
    "bash -Oe extglob .env",
    "bash -oO pipefail extglob .env",
    "bash +ox pipefail .env",
    "sh -ox pipefail .env",
    "node -r ./.env",
    "node --require ./.env app.js",
    "node --require=./.env app.js",
    "node --import ./.env app.js",
    "ruby -r./.env -e 1",
    "ruby -r ./.env -e 1",
    "php -c .env x.php",
    "gawk -i .env 1",
    "gawk --include=.env 1",
    "gawk --include .env 1",
    "R -f .env",
    "R --file=.env",
    # `uv run --script` runs the file as Python whatever its name
    "uv run --script .env",
    "uv run -s .env",
    "uv run --gui-script .env",
    # awk's operands after its program are the files it reads
    "awk 1 .env",
    "awk -F: '{print $1}' .env",
    "awk -v n=1 1 .env",
    "awk -f prog.awk .env",
    "gawk -e 1 .env",
    "mawk -- 1 .env",
]


@pytest.mark.parametrize("line", _DENIES)
def test_a_file_an_interpreter_reads_is_judged_as_read(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any("`.env`" in r.message or "`./.env`" in r.message for r in decision.reasons)


# the same options naming files that hold no secret, and bash's bundles running a
# script that is not protected: no deny (they ask, as any interpreter's code does)
_NOT_DENIED = [
    "bash -ox pipefail s.sh",
    "node -r dotenv/config app.js",
    "php -c php.ini x.php",
    "gawk -i inplace 1 x",
    "R -f analysis.R",
    "awk 1 README.md",
    "awk '{print}' n=1 README.md",
]


@pytest.mark.parametrize("line", _NOT_DENIED)
def test_the_same_options_on_other_files_do_not_deny(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ASK


def test_bash_gives_a_bundles_value_letters_the_next_words(tmp_path: Path) -> None:
    """What the engine now reads is what bash does: `-ox pipefail F` runs F with pipefail
    and xtrace on, `-oO pipefail extglob F` sets both options and runs F."""
    workspace = _workspace(tmp_path)
    env = env_beside(tmp_path)
    printed = run_printed('bash -ox pipefail s.sh', workspace, env)
    assert "+ echo ran" in printed  # xtrace on
    assert "ran\n" in printed.replace("+ echo ran\n", "")  # and the script ran
    (workspace / "o.sh").write_text('echo "$SHELLOPTS"; shopt extglob\n')
    printed = run_printed("bash -oO pipefail extglob o.sh", workspace, env)
    assert "pipefail" in printed
    assert re.search(r"extglob\s+on", printed)
    # and `.env` run so prints its lines (the secret)
    assert _CANARY in run_printed("bash -ox pipefail .env", workspace, env)
    # `-xoc pipefail CODE` is `-c CODE` with pipefail: the code is read, and judged
    decision = decide("bash -xoc pipefail 'cat .env'", workspace, env)
    assert decision.verdict is Verdict.DENY


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js (node)")
def test_node_require_prints_the_file_it_cannot_parse(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    assert _CANARY in run_printed("node -r ./.env -e 1", workspace, env_beside(tmp_path))


def test_awk_prints_the_files_after_its_program(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    assert _CANARY in run_printed("awk -v n=1 1 .env", workspace, env_beside(tmp_path))


_UV = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))


@pytest.mark.skipif(_UV is None, reason="needs uv (a dev dependency)")
def test_uv_runs_a_script_option_s_file_as_python(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    env = {**env_beside(tmp_path), "UV_NO_CACHE": "1", "UV_PYTHON_DOWNLOADS": "never",
           "UV_PYTHON": sys.executable}  # fmt: skip
    assert _CANARY in run_printed(f"{_UV} run --no-project --script .env", workspace, env)
