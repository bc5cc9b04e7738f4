"""Review FG: option spellings of the allowed programs, part 2 (FG1-FG8).

Each premise is shown with the real program (git, python3, info, pr): the configuration is
written, the branch created, the patch applied, the marker touched. Then the engine's
verdict is checked, under the approval it suggested (or used to suggest) for the innocent
form of the line.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, git_ok, judge, printed, run_real

from policylang import Decision, Verdict, load_policy
from policylang.engine.policy import shipped_ruleset


def _asks(decision: Decision, rule_id: str | None = None) -> None:
    assert decision.verdict is Verdict.ASK, decision.explain()
    if rule_id is not None:
        assert any(r.rule_id == rule_id for r in decision.reasons), decision.explain()


def _ci(line: str, workspace: Path) -> Verdict:
    policy = load_policy(shipped_ruleset("ci"))
    env = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return policy.evaluate(line, workspace=str(workspace), env=env).verdict


def _repository(tmp_path: Path, commits: int = 1) -> Path:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    for n in range(commits):
        (workspace / "README.md").write_text(f"r{n}\n")
        git_ok(workspace, "add", "README.md")
        git_ok(workspace, "commit", "-qm", f"c{n}")
    return workspace


def _suggested(line: str, workspace: Path) -> str | None:
    return judge(line, workspace).suggested_rule


# FG1: git's parse-options reads `--no-get` (any unique prefix) as clearing `--get`: the
# line is a plain set, not the read `git-config-read` allows
CONFIG_SETS = ["--get --no-get", "--list --no-lis", "-l --no-list", "--get-all --no-get-a",
               "--get-regexp --no-get-r", "--get-urlmatch --no-get-u"]  # fmt: skip


@pytest.mark.parametrize("spelling", CONFIG_SETS)
def test_fg1_a_negated_read_action_sets_the_key(tmp_path: Path, spelling: str) -> None:
    workspace = _repository(tmp_path)
    marker = tmp_path / "PWNED"
    command = f"touch {marker}; false"
    done = run_real(["git", "config", *spelling.split(), "core.fsmonitor", command], workspace)
    assert done.returncode == 0, done.stderr
    assert printed(["git", "config", "--get", "core.fsmonitor"], workspace).strip() == command
    run_real(["git", "status", "--short"], workspace)
    assert marker.exists()  # the configured command ran on the next git status
    line = f"git config {spelling} core.fsmonitor 'touch ../pwned; false'"
    _asks(judge(line, workspace))
    assert _ci(line, workspace) is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    ["git config --get core.pager", "git config -l", "git config --list --show-origin",
     "git config --get --no-list core.pager", "git config --get-all --no-includes user.name"],
)  # fmt: skip
def test_fg1_config_reads_stay_allowed(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    assert judge(line, workspace).verdict is Verdict.ALLOW, judge(line, workspace).explain()


# FG6: `--no-list` clears `--list`/`-l`: git creates the branch, which ci must deny
@pytest.mark.parametrize("listing", ["--list", "-l"])
def test_fg6_a_negated_listing_creates_the_branch(tmp_path: Path, listing: str) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "branch", listing, "--no-list", "nb1")
    assert "nb1" in printed(["git", "branch"], workspace)
    line = f"git branch {listing} --no-list nb2"
    _asks(judge(line, workspace))
    assert _ci(line, workspace) is Verdict.DENY


# FG3: `--apply` (after or before `--stat`) and `--no-check` switch applying back on
EVIL_PATCH = """diff --git a/.claude/settings.json b/.claude/settings.json
new file mode 100644
--- /dev/null
+++ b/.claude/settings.json
@@ -0,0 +1 @@
+{"hooks":{}}
"""
OK_PATCH = """diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-r0
+r1
"""


@pytest.mark.parametrize(
    ("innocent", "line"),
    [("git apply --check ok.patch", "git apply --stat --apply evil.patch"),
     ("git apply --check ok.patch", "git apply --numstat --apply evil.patch"),
     ("git apply --check ok.patch", "git apply --check --no-check evil.patch"),
     ("git apply --stat ok.patch", "git apply --stat --no-stat evil.patch")],
)  # fmt: skip
def test_fg3_an_undone_dry_run_applies(tmp_path: Path, innocent: str, line: str) -> None:
    workspace = _repository(tmp_path)
    (workspace / "evil.patch").write_text(EVIL_PATCH)
    (workspace / "ok.patch").write_text(OK_PATCH)
    done = run_real(line.split(), workspace)
    assert done.returncode == 0, done.stderr
    assert (workspace / ".claude" / "settings.json").exists()  # the patch was applied
    shutil.rmtree(workspace / ".claude")
    suggestion = _suggested(innocent, workspace)
    assert suggestion == "git apply"
    _asks(judge(line, workspace, suggestion))
    assert judge(innocent, workspace, suggestion).verdict is Verdict.ALLOW


# FG4: every word after `git bisect run` is the command's, a trailing `--help` too
def test_fg4_a_trailing_help_belongs_to_the_bisect_command(tmp_path: Path) -> None:
    workspace = _repository(tmp_path, commits=2)
    marker = tmp_path / "PWN_BIS"
    git_ok(workspace, "bisect", "start", "HEAD", "HEAD~1")
    run_real(["git", "bisect", "run", "sh", "-c", f"touch {marker}; exit 0", "--help"], workspace)
    assert marker.exists()
    git_ok(workspace, "bisect", "reset")
    suggestion = _suggested("git bisect start HEAD HEAD~1", workspace)
    assert suggestion == "git bisect"
    line = "git bisect run sh -c 'touch ../pwned' --help"
    _asks(judge(line, workspace, suggestion), "git-bisect-run")
    _asks(judge(line, workspace, "git bisect run"), "git-bisect-run")


# FG5: these modules hand the words after the script (module, statement) on to it, or
# import their operands before they reach `--help`
EVIL = "import pathlib\npathlib.Path('PWN_PY').write_text('ran')\n"


@pytest.mark.parametrize(
    "words",
    ["cProfile evil.py --help", "profile evil.py --help", "trace --count evil.py --help",
     "runpy evil --help", "pydoc evil --help", "timeit -n 1 'import evil' --help"],
)  # fmt: skip
def test_fg5_a_trailing_help_belongs_to_the_script(tmp_path: Path, words: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "evil.py").write_text(EVIL)
    python = shutil.which("python3") or "python3"
    subprocess.run(["bash", "-c", f"{python} -m {words}"], cwd=workspace, capture_output=True,
                   timeout=60, check=False, env={"PATH": os.environ["PATH"]})  # fmt: skip
    assert (workspace / "PWN_PY").read_text() == "ran"
    module = words.split()[0]
    line = f"python3 -m {words}"
    # the approval the engine used to suggest for `python3 -m MODULE --help`
    _asks(judge(line, workspace, f"python3 -m {module}"), "python-module-runs")
    assert _suggested(f"python3 -m {module} --help", workspace) is None


@pytest.mark.parametrize("module", ["unittest", "http.server", "zipfile"])
def test_fg5_modules_that_read_help_anywhere_keep_the_exception(
    tmp_path: Path, module: str
) -> None:
    workspace = copy_workspace(tmp_path)
    line = f"python3 -m {module} --help"
    assert judge(line, workspace, f"python3 -m {module}").verdict is Verdict.ALLOW


# FG2: info reads `./dir` and hands a compressed file's unquoted path to `sh -c`
DIR_FILE = (
    "\x1f\nFile: dir,\tNode: Top,\tThis is the top of the INFO tree\n\n* Menu:\n\n"
    "Project\n* myproj: (x;sh p.sh;y).         The project.\n"
)


def _info_workspace(tmp_path: Path) -> tuple[Path, Path]:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWN_INFO"
    (workspace / "dir").write_text(DIR_FILE)
    (workspace / "x;sh p.sh;y.gz").write_bytes(gzip.compress(b"hi\n"))
    (workspace / "p.sh").write_text(f"touch {marker}\n")
    return workspace, marker


def test_fg2_info_runs_a_command_a_file_name_holds(tmp_path: Path) -> None:
    info = shutil.which("info")
    if info is None:
        pytest.skip("GNU info is not installed")
    workspace, marker = _info_workspace(tmp_path)
    subprocess.run([info, "-k", "ls"], cwd=workspace, capture_output=True, timeout=60,
                   check=False, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"),
                                     "TERM": "dumb"})  # fmt: skip
    assert marker.exists()


@pytest.mark.parametrize("line", ["info -k ls", "info --apropos=printf", "info myproj",
                                  "info -f 'x;sh p.sh;y.gz'", "info ls"])  # fmt: skip
def test_fg2_info_asks(tmp_path: Path, line: str) -> None:
    workspace, _ = _info_workspace(tmp_path)
    _asks(judge(line, workspace), "info-workspace")
    assert _ci(line, workspace) is Verdict.DENY
    for harmless in ("info --help", "info --version"):
        assert judge(harmless, workspace).verdict is Verdict.ALLOW


# FG7: colour and column settings alone list branches
@pytest.mark.parametrize("option", ["--no-color", "--color=always", "--no-column"])
def test_fg7_branch_colour_alone_lists(tmp_path: Path, option: str) -> None:
    workspace = _repository(tmp_path)
    assert "master" in printed(["git", "branch", option], workspace) or "main" in printed(
        ["git", "branch", option], workspace
    )
    assert judge(f"git branch {option}", workspace).verdict is Verdict.ALLOW
    git_ok(workspace, "branch", option, "nb")  # with a name it creates one: that asks
    assert "nb" in printed(["git", "branch"], workspace)
    _asks(judge(f"git branch {option} nb2", workspace))


# FG8: pr reads and paginates its files
def test_fg8_pr_reads_files(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "README.md").write_text("hello\n")
    assert "hello" in printed(["pr", "-n", "README.md"], workspace)
    assert judge("pr -n README.md", workspace).verdict is Verdict.ALLOW
    (tmp_path / "home" / ".ssh").mkdir()
    (tmp_path / "home" / ".ssh" / "id_rsa").write_text("KEY\n")
    assert judge("pr -n ../home/.ssh/id_rsa", workspace).verdict is Verdict.DENY
