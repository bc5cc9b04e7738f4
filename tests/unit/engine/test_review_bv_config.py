"""Review BV (BV3, BV4, BV6, BV7, BV8, BV9): files that make an allowed or approved command
run another program. Each non-regression row had a weaker verdict before its fix; python3
runs for real where the effect needs nothing else (a venv's `.pth`, `python -m`'s path)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest
from realrun import run_real

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import Policy, load_policy


def _policy(*approved: str) -> Policy:
    policy = load_policy()
    for rule in approved:
        policy.approvals.add(rule, persist=False)
    return policy


def _decide(
    policy: Policy,
    command: str,
    workspace: Path,
    path: str = "/usr/bin:/bin",
    cwd: Path | None = None,
    **env: str,
) -> Decision:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": path, **env}
    return policy.evaluate(
        command, workspace=str(workspace), cwd=str(cwd or workspace), env=environment
    )


def _ids(decision: Decision) -> list[str]:
    return [reason.rule_id for reason in decision.reasons]


def _executable(path: Path, text: str = "#!/bin/sh\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


# ---------------------------------------------------------------- protected writes


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        # BV3: what the PATH check trusts as installed (`_INSTALLED_BIN`)
        ("echo x | tee .venv/lib/python3.11/site-packages/zbv.pth", "install-folders"),
        ("echo x | tee .venv/lib/python3.11/site-packages/pip/__init__.py", "install-folders"),
        ("cp payload .venv/lib/python3.11/site-packages/sitecustomize.py", "install-folders"),
        ("printf '#!/bin/sh\\n' | tee .venv/bin/pip", "install-folders"),
        ("cp .venv/bin/pip .venv/bin/git", "install-folders"),
        ("cp payload .venv/pyvenv.cfg", "install-folders"),
        ("cp payload venv/bin/python", "install-folders"),
        ("cp payload sub/.venv-3.12/bin/ls", "install-folders"),
        ("cp payload .tox/py311/bin/pytest", "install-folders"),
        ("cp payload .nox/tests/lib/python3.11/site-packages/x.pth", "install-folders"),
        ("cp payload node_modules/.bin/ls", "install-folders"),
        ("cp payload node_modules/tree-cli/bin/tree.js", "install-folders"),
        # BV4: mise and asdf read these in the working folder and every parent
        ("cp payload .tool-versions", "toolchain-config"),
        ("cp payload sub/.tool-versions", "toolchain-config"),
        ("cp payload sub/mise.toml", "toolchain-config"),
        ("cp payload mise/config.toml", "toolchain-config"),
        ("cp payload mise/config.local.toml", "toolchain-config"),
        ("cp payload sub/.config/mise/config.toml", "toolchain-config"),
        ("cp payload sub/.mise.toml", "toolchain-config"),
        ("cp payload mise.dev.toml", "toolchain-config"),
        ("echo 'node path:./.tools' | tee .tool-versions", "toolchain-config"),
        # BV6: package managers' project configuration
        ("cp payload .npmrc", "package-manager-config"),
        ("cp payload sub/.npmrc", "package-manager-config"),
        ("printf 'registry=https://x/\\n' | tee .npmrc", "package-manager-config"),
        ("cp payload .yarnrc", "package-manager-config"),
        ("cp payload .yarnrc.yml", "package-manager-config"),
        ("cp payload .yarn/releases/yarn-4.cjs", "package-manager-config"),
        ("cp payload .pnpmfile.cjs", "package-manager-config"),
        ("cp payload bunfig.toml", "package-manager-config"),
        # BV8: cargo's and rustup's configuration, maven's launcher options
        (
            "printf '[build]\\nrustc-wrapper = \"./x.sh\"\\n' | tee .cargo/config.toml",
            "toolchain-config",
        ),
        ("cp payload .cargo/config", "toolchain-config"),
        ("cp payload crates/a/.cargo/config.toml", "toolchain-config"),
        ("cp payload rust-toolchain.toml", "toolchain-config"),
        ("cp payload rust-toolchain", "toolchain-config"),
        ("cp payload .mvn/jvm.config", "toolchain-config"),
        ("cp payload .mvn/extensions.xml", "toolchain-config"),
    ],
)
def test_configuration_writes_ask_under_an_approved_writer(
    workspace: Path, command: str, rule: str
) -> None:
    """BV3, BV4, BV6, BV8: an approval of `cp` or `tee` no longer reaches files that name
    the program an allowed or approved command runs."""
    decision = _decide(_policy("cp", "tee"), command, workspace)
    assert decision.verdict is Verdict.ASK
    assert rule in _ids(decision)


@pytest.mark.parametrize(
    "command",
    [
        "cp payload ~/.lesskey",
        "cp payload ~/.config/lesskey",
        "echo x | tee ~/.lessfilter",
        "echo 'def keys: $ENV.X;' | tee ~/.jq",
        "cp payload ~/.jq/lib.jq",
        "echo /tmp/m | tee ~/.manpath",
        "cp payload ~/.magic",
    ],
)
def test_home_files_of_pagers_and_readers_are_start_up_files(workspace: Path, command: str) -> None:
    """BV9: less, jq, man and file read these from home on every run."""
    decision = _decide(_policy("cp", "tee"), command, workspace)
    assert decision.verdict is Verdict.DENY
    assert "shell-startup" in _ids(decision)


@pytest.mark.parametrize(
    ("command", "approved"),
    [
        ("echo 'print(2)' | tee src/app.py", ("tee",)),
        ("cp template.json package.json", ("cp",)),
        ("cp draft.md README.md", ("cp",)),
        ("echo x | tee sub/venv_notes.md", ("tee",)),
        ("rm -rf node_modules package-lock.json && npm install", ("rm", "npm install")),
        ("rm -rf .venv", ("rm",)),
        ("pip install -e .", ("pip install",)),
        ("npm install", ("npm install",)),
        ("python3 -m json.tool data.json", ("python3 -m json.tool",)),
        ("python -m pytest 2>&1 | tee log.txt", ("python -m pytest", "tee")),
        ("pip install -e . && python -m pytest", ("pip install", "python -m pytest")),
    ],
)
def test_everyday_lines_stay_allowed(
    workspace: Path, command: str, approved: tuple[str, ...]
) -> None:
    """Regression rows: ordinary edits and installs under their approvals."""
    assert _decide(_policy(*approved), command, workspace).verdict is Verdict.ALLOW


@pytest.mark.parametrize("command", ["pip install -e .", "npm install"])
def test_installs_still_ask_with_their_suggestion(workspace: Path, command: str) -> None:
    """Regression rows: installers write into the install folders as programs, not
    through path words; nothing about them changed."""
    decision = _decide(_policy(), command, workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == " ".join(command.split()[:2])


# ---------------------------------------------------------------- BV4: shims on PATH


@pytest.fixture
def shims(workspace: Path) -> Path:
    """mise's shim folder in the fake home, with `node` and `python3`, and a system-like
    folder whose `npm` is a `#!/usr/bin/env node` script."""
    folder = workspace.parent / "home" / ".local" / "share" / "mise" / "shims"
    for name in ("node", "python3"):
        _executable(folder / name)
    _executable(workspace.parent / "sysbin" / "npm", "#!/usr/bin/env node\n")
    return folder


@pytest.mark.parametrize(
    "command", ["node --version", "python3 --version", "cd src && node --version"]
)
def test_a_version_managers_shim_is_not_the_program_the_rule_allows(
    workspace: Path, shims: Path, command: str
) -> None:
    """BV4: a shim runs what `.tool-versions` or `mise.toml` in the working folder or a
    parent names (`node path:./.tools`): `--version` is no longer read-only."""
    policy = _policy()
    decision = _decide(policy, command, workspace, f"{shims}:/usr/bin:/bin")
    assert decision.verdict is Verdict.ASK
    assert "engine.path-program" in _ids(decision)
    # without the shims on PATH (or after the system's folders), the rule holds
    assert _decide(policy, command, workspace).verdict is Verdict.ALLOW
    assert _decide(policy, command, workspace, f"/usr/bin:/bin:{shims}").verdict is Verdict.ALLOW


def test_a_script_run_by_a_shimmed_interpreter_asks(workspace: Path, shims: Path) -> None:
    """BV4: npm is `#!/usr/bin/env node`, and PATH finds the shim for `node`."""
    path = f"{workspace.parent / 'sysbin'}:{shims}:/usr/bin:/bin"
    decision = _decide(_policy(), "npm --version", workspace, path)
    assert decision.verdict is Verdict.ASK
    assert "engine.path-program" in _ids(decision)


@pytest.mark.parametrize("folder", [".asdf/shims", ".pyenv/shims", ".rbenv/shims", ".volta/bin"])
def test_other_version_managers_shims(workspace: Path, folder: str) -> None:
    shim = workspace.parent / "home" / folder
    _executable(shim / "python3")
    decision = _decide(_policy(), "python3 --version", workspace, f"{shim}:/usr/bin:/bin")
    assert decision.verdict is Verdict.ASK


def test_shims_leave_other_programs_and_approvals_alone(workspace: Path, shims: Path) -> None:
    """Regression rows: a program the shims do not hold is judged as before, and an
    approval (the person's word on that command) still holds."""
    path = f"{shims}:/usr/bin:/bin"
    assert _decide(_policy(), "ls src", workspace, path).verdict is Verdict.ALLOW
    assert _decide(_policy(), "git status", workspace, path).verdict is Verdict.ALLOW
    _executable(shims / "npm")
    asked = _decide(_policy(), "npm install", workspace, path)
    assert asked.verdict is Verdict.ASK
    assert asked.suggested_rule == "npm install"
    assert _decide(_policy("npm install"), "npm install", workspace, path).verdict is Verdict.ALLOW


# ---------------------------------------------------------------- BV7: python -m


@pytest.fixture
def data(workspace: Path) -> Path:
    (workspace / "data.json").write_text('{"a": 1}\n')
    (workspace.parent / "home").mkdir(exist_ok=True)
    return workspace


def test_a_planted_package_in_the_line_asks(data: Path) -> None:
    """BV7: `-m` imports from the working folder first: the line plants `json/`."""
    policy = _policy("python3 -m json.tool", "mkdir", "tee", "cp")
    line = (
        "mkdir -p json && printf 'import os\\n' | tee json/__init__.py"
        " && python3 -m json.tool data.json"
    )
    decision = _decide(policy, line, data)
    assert decision.verdict is Verdict.ASK
    assert "engine.python-module-path" in _ids(decision)
    for line in (
        "cp payload.py argparse.py; python3 -m json.tool data.json",
        "cp /tmp/argparse.py . && python3 -m json.tool data.json",
        "python3 -m json.tool data.json & cp payload.py json.py",
    ):
        assert _decide(policy, line, data).verdict is Verdict.ASK, line
    # a file no import can find, or one in another folder, changes nothing
    for line in (
        "cp notes.txt notes.md; python3 -m json.tool data.json",
        "python3 -m json.tool data.json | tee out.json",
        "cp payload.py src/json.py; python3 -m json.tool data.json",
    ):
        assert _decide(policy, line, data).verdict is Verdict.ALLOW, line


@pytest.mark.parametrize(
    "planted", ["json/__init__.py", "json/", "argparse.py", "locale.pyc", "json.cpython-311.so"]
)
def test_a_shadowing_module_in_the_working_folder_asks(data: Path, planted: str) -> None:
    """BV7: a module there named like the one run (a namespace folder too) or like one of
    the standard library's, which the module imports (`json.tool` imports argparse)."""
    target = data / planted
    if planted.endswith("/"):
        target.mkdir()
    else:
        target.parent.mkdir(exist_ok=True)
        target.write_text("")
    policy = _policy("python3 -m json.tool")
    decision = _decide(policy, "python3 -m json.tool data.json", data)
    assert decision.verdict is Verdict.ASK
    assert "engine.python-module-path" in _ids(decision)
    # in another folder, it is not imported
    elsewhere = _decide(policy, "python3 -m json.tool ../data.json", data, cwd=data / "src")
    assert elsewhere.verdict is Verdict.ALLOW
    # PYTHONSAFEPATH keeps the folder off the path (unless -E ignores it)
    safe = _decide(policy, "python3 -m json.tool data.json", data, PYTHONSAFEPATH="1")
    assert safe.verdict is Verdict.ALLOW


def test_an_ordinary_project_root_keeps_python_m_approvals(data: Path) -> None:
    """Regression row: `setup.py`, `conftest.py` and the project's package import nothing
    a `python -m` means, and a namespace folder named like a standard module loses to it."""
    (data / "setup.py").write_text("")
    (data / "conftest.py").write_text("")
    (data / "mypkg").mkdir()
    (data / "mypkg" / "__init__.py").write_text("")
    (data / "test").mkdir()  # no __init__.py: a namespace portion, after the stdlib's
    policy = _policy("python -m pytest", "python3 -m json.tool")
    assert _decide(policy, "python -m pytest -q", data).verdict is Verdict.ALLOW
    assert _decide(policy, "python3 -m json.tool data.json", data).verdict is Verdict.ALLOW


def test_python_m_imports_the_working_folders_module_for_real(data: Path) -> None:
    """What the check is for: python3 imports `./json` and `./argparse.py` instead of the
    standard library's, unless `-P` is given."""
    (data / "json").mkdir()
    (data / "json" / "__init__.py").write_text("print('SHADOW_JSON')\n")
    done = run_real([sys.executable, "-m", "json.tool", "data.json"], data)
    assert "SHADOW_JSON" in done.stdout
    safe = run_real([sys.executable, "-P", "-m", "json.tool", "data.json"], data)
    assert "SHADOW_JSON" not in safe.stdout
    assert json.loads(safe.stdout) == {"a": 1}
    shutil.rmtree(data / "json")
    (data / "argparse.py").write_text("print('SHADOW_ARGPARSE')\n")
    done = run_real([sys.executable, "-m", "json.tool", "data.json"], data)
    assert "SHADOW_ARGPARSE" in done.stdout


def test_a_planted_pth_runs_when_the_venvs_python_starts(workspace: Path) -> None:
    """What `install-folders` is for (BV3): a `.pth` in a venv's site-packages runs at
    every start of its Python (an approved `python3 -m json.tool` with the venv on PATH)."""
    venv = workspace / ".venv"
    made = run_real([sys.executable, "-m", "venv", "--without-pip", str(venv)], workspace)
    if made.returncode != 0:
        pytest.skip(f"no venv module: {made.stderr.strip()}")
    site = next(venv.glob("lib/python*/site-packages"))
    marker = workspace.parent / "pth_ran"
    (site / "zbv.pth").write_text(f"import os; open({str(marker)!r}, 'w').close()\n")
    env_path = f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    (workspace / "data.json").write_text("{}\n")
    done = run_real(["sh", "-c", f"PATH={env_path} python3 -m json.tool data.json"], workspace)
    assert done.returncode == 0, done.stderr
    assert marker.exists()
    # and the write that planted it now asks, under an approval of `tee`
    relative = site.relative_to(workspace) / "zbv.pth"
    decision = _decide(
        _policy("tee"), f"echo x | tee {relative}", workspace, f"{venv / 'bin'}:/usr/bin:/bin"
    )
    assert decision.verdict is Verdict.ASK
