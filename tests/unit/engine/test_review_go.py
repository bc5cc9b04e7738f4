"""Review GO, of the npm line options (GN1), the compose `alpha` arity (GL5) and the
formatters' link walk.

GO1: isort follows a committed link to a folder (`follow_links`), mypy too: an approved
`isort .` rewrote the files of a folder the link named, outside the workspace. GO2: `npm
diff` packs the project, or a folder a `--diff` spec names, and runs its `prepare`
script (since review GT1, GT2 every `npm diff` is a locked ask). GO3: `npm audit fix`,
`uninstall`, `dedupe` and `prune` reify the tree, running the install scripts of a `file:`
dependency; the approval of `npm audit` covered `npm audit fix`. GO4: `docker-compose
alpha viz` was offered `docker-compose alpha` (which covers `alpha watch` and `alpha
publish`). GO5: `-g` under the approvals of the other npm verbs
acts on the global packages."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_NPM = shutil.which("npm")
# isort is a dev dependency: in the venv beside this Python, on PATH or not
_ISORT = shutil.which("isort") or str(Path(sys.executable).with_name("isort"))
needs_npm = pytest.mark.skipif(_NPM is None, reason="npm is not installed")
needs_isort = pytest.mark.skipif(not os.path.exists(_ISORT), reason="isort is not installed")


def _run_env(env: dict[str, str], **more: str) -> dict[str, str]:
    """The environment a real program runs with: the test's, this process's PATH."""
    return {**env, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), **more}


def _linked(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    """A workspace whose `hooks` links to the fake home's `.claude/hooks` (a folder its
    approvals may not write), which holds an unsorted `victim.py`."""
    workspace, env = canary_workspace(
        tmp_path, "SECRET=canaryGO\n", {"app.py": "x = 1\n"},
        home={".claude/hooks/victim.py": "import sys\nimport os\n"},
    )  # fmt: skip
    target = tmp_path / "home" / ".claude" / "hooks"
    (workspace / "hooks").symlink_to(target)
    return workspace, env, target / "victim.py"


@needs_isort
def test_go1_isort_rewrites_the_folder_a_link_names(tmp_path: Path) -> None:
    workspace, env, victim = _linked(tmp_path)
    program_printed([_ISORT, "."], workspace, _run_env(env))
    assert victim.read_text() == "import os\nimport sys\n"  # (rewritten through the link)
    victim.write_text("import sys\nimport os\n")
    for line, approval in (
        ("isort .", "isort"),
        ("isort --check --diff .", "isort"),
        ("python3 -m isort .", "python3 -m isort"),
    ):
        assert decide(line, workspace, env, approval).verdict is Verdict.DENY, line
    # (ruff does not walk into a link to a folder)
    assert decide("ruff format .", workspace, env, "ruff format").verdict is Verdict.ALLOW
    # (a link into the tree walked already, a venv's `lib64 -> lib`, leads nowhere new)
    (workspace / "hooks").unlink()
    site = workspace / ".venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (site / "x.py").write_text("x = 1\n")
    (workspace / ".venv" / "lib64").symlink_to("lib")
    assert decide("isort .", workspace, env, "isort").verdict is Verdict.ALLOW


def _npm_workspace(tmp_path: Path, package: str) -> tuple[Path, dict[str, str]]:
    return canary_workspace(tmp_path, "SECRET=canaryGO\n", {"package.json": package})


_PREPARE = '{"name": "app", "version": "1.0.0", "scripts": {"prepare": "echo RAN > ran.txt"}}'


@needs_npm
def test_go2_npm_diff_runs_prepare(tmp_path: Path) -> None:
    workspace, env = _npm_workspace(tmp_path, _PREPARE)
    other = tmp_path / "other"
    other.mkdir()
    (other / "package.json").write_text('{"name": "other", "version": "1.0.0"}')
    program_printed([str(_NPM), "diff", "--diff=file:../other", "--offline"], workspace,
                    _run_env(env))  # fmt: skip
    assert (workspace / "ran.txt").exists()  # (npm packed the project: `prepare` ran)
    for line in ("npm diff", "npm diff --diff=file:../other", "npm diff --diff=lodash@1"):
        assert decide(line, workspace, env, "npm diff").verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    "line",
    [
        "npm diff --diff=file:../other",
        "npm diff --diff ../other",
        "npm diff --diff=user/repo",
        "npm diff --diff=git+https://example.invalid/x.git",
        "npm diff --diff=lodash@npm:evil@1",
        "npm diff -w packages/a",
        # (review GT1, GT2: a project without `prepare`, and packages of the registry,
        # are packed and printed too: no `npm diff` is approvable)
        "npm diff",
        "npm diff --diff=lodash@1 --diff=lodash@2",
        "npm diff --diff=@types/node@^20 --diff-name-only",
    ],
)
def test_go2_npm_diff_of_a_folder_or_repository_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _npm_workspace(tmp_path, '{"name": "app", "version": "1.0.0"}')
    assert decide(line, workspace, env, "npm diff").verdict is Verdict.ASK
    assert decide(line, workspace, env).suggested_rule is None


def _file_dependency(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    package = '{"name": "app", "version": "1.0.0", "dependencies": {"evil": "file:./evil"}}'
    workspace, env = _npm_workspace(tmp_path, package)
    (workspace / "evil").mkdir()
    (workspace / "evil" / "package.json").write_text(
        '{"name": "evil", "version": "1.0.0", "scripts": {"postinstall": "echo RAN > ../ran.txt"}}'
    )
    return workspace, env


@needs_npm
def test_go3_npm_audit_fix_runs_install_scripts(tmp_path: Path) -> None:
    workspace, env = _file_dependency(tmp_path)
    run = [str(_NPM), "install", "--package-lock-only", "--ignore-scripts", "--offline"]
    program_printed(run, workspace, _run_env(env))
    program_printed([str(_NPM), "audit", "fix", "--offline"], workspace, _run_env(env))
    assert (workspace / "ran.txt").exists()  # (the `file:` dependency's postinstall ran)
    assert decide("npm audit fix", workspace, env, "npm audit").verdict is Verdict.ASK


@pytest.mark.parametrize("line", ["npm audit fix", "npm audit --json fix", "npm audit -- fix"])
def test_go3_npm_audit_approval_does_not_cover_audit_fix(tmp_path: Path, line: str) -> None:
    workspace, env = _file_dependency(tmp_path)
    offered = decide("npm audit", workspace, env).suggested_rule
    assert offered == "npm audit"
    assert decide("npm audit --json", workspace, env, offered).verdict is Verdict.ALLOW
    assert decide(line, workspace, env, offered).verdict is Verdict.ASK


def test_go3_npm_audit_fix_has_its_own_approval(tmp_path: Path) -> None:
    workspace, env = _file_dependency(tmp_path)
    offered = decide("npm audit fix", workspace, env).suggested_rule
    assert offered == "npm audit fix"
    assert decide("npm audit fix", workspace, env, offered).verdict is Verdict.ALLOW


@pytest.mark.parametrize("program", ["docker-compose", "podman-compose"])
def test_go4_compose_alpha_is_offered_with_its_verb(tmp_path: Path, program: str) -> None:
    # (no compose binary here: the reference lists `alpha watch` and `alpha publish`)
    workspace, env = _npm_workspace(tmp_path, "{}")
    (workspace / "compose.yaml").write_text("services:\n  web:\n    image: x\n")  # (GS1)
    offered = decide(f"{program} alpha viz", workspace, env).suggested_rule
    assert offered == f"{program} alpha viz $"  # (exactly: `--image` prints, review GS3)
    for line in (f"{program} alpha watch", f"{program} alpha publish --with-env x/y"):
        assert decide(line, workspace, env, offered).verdict is Verdict.ASK, line


@needs_npm
def test_go5_global_option_acts_outside_the_workspace(tmp_path: Path) -> None:
    workspace, env = _npm_workspace(tmp_path, '{"name": "app", "version": "1.0.0"}')
    victim = tmp_path / "global" / "lib" / "node_modules" / "victim"
    victim.mkdir(parents=True)
    (victim / "package.json").write_text('{"name": "victim", "version": "1.0.0"}')
    prefix = str(tmp_path / "global")
    run = [str(_NPM), "uninstall", "-g", "victim", "--offline"]
    program_printed(run, workspace, _run_env(env, npm_config_prefix=prefix))
    assert not victim.exists()  # (removed from the global prefix)
    for line, approval in (
        ("npm uninstall -g victim", "npm uninstall"),
        ("npm uninstall --global victim", "npm uninstall"),
        ("npm prune -g", "npm prune"),
        ("npm dedupe -g", "npm dedupe"),
        ("npm pkg set name=x -g", "npm pkg set"),
    ):
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, line
    assert decide("npm ls -g", workspace, env, "npm ls").verdict is Verdict.ALLOW
