"""Review DP: version managers' shims and the tool configuration a workspace holds.

DP1 `npm --version` where `npm` is corepack's shim (which runs the package manager the
project's `package.json` names, downloading it); DP2 a venv's `pip.conf` (`python =`
makes `pip --version` re-run under any program); DP3 git's `git-*` helpers among a
version manager's shims (`git-lfs path:./.tools` in `.tool-versions`); DP4 rustup's
`+/path` toolchain under an approval of `rustc` or `rustfmt`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from realrun import copy_workspace, scan_judge

from policylang import Verdict, load_policy


def _env(tmp_path: Path, path: str = "/usr/bin:/bin") -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": path}


def _script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


def test_dp1_corepacks_shim_is_a_version_managers(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    # what `corepack enable npm` makes: a link beside node to corepack's own script
    dist = tmp_path / "lib" / "node_modules" / "corepack" / "dist" / "npm.js"
    _script(dist, "#!/usr/bin/env node\n")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "npm").symlink_to(dist)
    policy = load_policy()
    env = _env(tmp_path, f"{tmp_path}/bin:/usr/bin:/bin")
    decision = policy.evaluate("npm --version", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "corepack" in decision.explain()
    # npm itself (Debian's, or none) stays allowed
    decision = policy.evaluate("npm --version", workspace=str(workspace), env=_env(tmp_path))
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_dp2_a_venvs_pip_conf_is_an_install_folders_file(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(workspace / ".venv")],
        check=True, timeout=120,
    )  # fmt: skip
    line = "printf '[global]\\npython = scripts/build.sh\\n' | tee .venv/pip.conf"
    assert scan_judge(line, workspace, "tee").verdict is Verdict.ASK
    assert scan_judge("cp x.txt .venv/pip.conf", workspace, "cp").verdict is Verdict.ASK
    assert scan_judge("cp x.txt .venv/notes.txt", workspace, "cp").verdict is Verdict.ALLOW


def test_dp2_pip_really_runs_the_program_pip_conf_names(tmp_path: Path) -> None:
    # pip reads `<venv>/pip.conf`, and `python =` re-runs it under that program before
    # it prints its version
    workspace = copy_workspace(tmp_path)
    venv = workspace / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    marker = tmp_path / "PWNED"
    _script(workspace / "scripts" / "build.sh", f"#!/bin/sh\ntouch {marker}\necho pip 0\n")
    (venv / "pip.conf").write_text("[global]\npython = scripts/build.sh\n")
    env = {**_env(tmp_path, f"{venv}/bin:/usr/bin:/bin"), "VIRTUAL_ENV": str(venv)}
    subprocess.run(
        ["bash", "-c", "pip --version"], cwd=workspace, env=env, capture_output=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert marker.exists()


def test_dp3_git_helpers_among_a_version_managers_shims(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    shims = tmp_path / "mise" / "shims"
    _script(shims / "node", "#!/bin/sh\n")
    env = _env(tmp_path, f"{shims}:/usr/bin:/bin")
    assert scan_judge("git status", workspace).verdict is Verdict.ALLOW
    policy = load_policy()
    decision = policy.evaluate("git status", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()  # (no git helper there)
    _script(shims / "git-lfs", "#!/bin/sh\n")
    for line in ("git status", "git diff --stat", "git log -p"):
        decision = policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert "git-lfs" in decision.explain()


def test_dp4_a_rustup_toolchain_path_under_an_approval(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    cases = (
        ("rustc", "rustc {tc} --version"), ("rustfmt", "rustfmt {tc} --check x.rs"),
        ("rustdoc", "rustdoc {tc} x.rs"),
    )  # fmt: skip
    for program, line in cases:
        plain = line.replace("{tc} ", "")
        assert scan_judge(plain, workspace, program).verdict is Verdict.ALLOW, plain
        toolchain = line.format(tc=f"+{workspace}/tc")
        assert scan_judge(toolchain, workspace, program).verdict is Verdict.ASK, toolchain


def _crate(workspace: Path) -> None:
    (workspace / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    (workspace / "src").mkdir()
    (workspace / "src" / "main.rs").write_text("fn main() {}\n")


def test_dp5_a_toolchain_path_of_the_workspace_under_an_approval(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _crate(workspace)
    marker = tmp_path / "PWNED"
    for program in ("cargo", "rustc", "rustfmt"):
        _script(workspace / "tc" / "bin" / program, f"#!/bin/sh\ntouch {marker}\necho fake\n")
    (workspace / "rust-toolchain.toml").write_text(f'[toolchain]\npath = "{workspace}/tc"\n')
    cargo = Path.home() / ".cargo" / "bin" / "cargo"
    if cargo.exists():  # rustup's proxy: it runs the toolchain the file names
        subprocess.run(
            [str(cargo), "tree"], cwd=workspace, capture_output=True, timeout=120, check=False
        )
        assert marker.exists()
    for approval, line in (
        ("cargo tree", "cargo tree"),
        ("rustfmt", "rustfmt --check src/main.rs"),
    ):
        decision = scan_judge(line, workspace, approval)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert "a program the project names" in decision.explain()
    (workspace / "rust-toolchain.toml").write_text('[toolchain]\nchannel = "stable"\n')
    assert scan_judge("cargo tree", workspace, "cargo tree").verdict is Verdict.ALLOW


def test_dp5_cargo_configuration_that_runs_programs_under_an_approval(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _crate(workspace)
    (workspace / ".cargo").mkdir()
    config = workspace / ".cargo" / "config.toml"
    settings = (
        '[alias]\nfmt = "run --quiet --"\n', '[build]\nrustc-wrapper = "./w.sh"\n',
        'build.rustflags = ["-C", "linker=./x"]\n', '[env]\nLD_PRELOAD = "./x.so"\n',
        '[target.x86_64-unknown-linux-gnu]\nrunner = "./r"\n',
    )  # fmt: skip
    for text in settings:
        config.write_text(text)
        for approval in ("cargo fmt", "cargo tree", "cargo metadata"):
            decision = scan_judge(approval, workspace, approval)
            assert decision.verdict is Verdict.ASK, (text, decision.explain())
    config.write_text('[build]\njobs = 4\ntarget-dir = "target"\nincremental = true\n')
    for approval in ("cargo fmt", "cargo tree", "cargo metadata"):
        assert scan_judge(approval, workspace, approval).verdict is Verdict.ALLOW
    # a verb that builds runs the project's code anyway (`build.rs`): the approval says so
    config.write_text('[build]\nrustc-wrapper = "./w.sh"\n')
    assert scan_judge("cargo build", workspace, "cargo build").verdict is Verdict.ALLOW
