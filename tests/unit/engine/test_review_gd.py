"""Review GD: bare-allowed and approved programs that read the repository's configuration.

GD1 `cargo install --list` (a rule's allow) skipped rustup's toolchain files; GD2 the
spellings of a toolchain path the line-anchored regex missed (the legacy one-line
`rust-toolchain`, a quoted or dotted key, an inline table); GD3 the same for
`.cargo/config.toml` (an inline table, escaped key names); GD4 a toolchain file over the
size limit was skipped; GD5 PATH entries written with a literal `~`, which bash expands
when it looks up a command.

Each premise is shown with the real program (rustup's proxies of this machine, bash)
where it is installed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from realrun import approved, copy_workspace, run_printed

from policylang import Verdict, load_policy

_RUSTUP_BIN = Path.home() / ".cargo" / "bin"
_RUSTUP = (_RUSTUP_BIN / "rustup").exists() and (_RUSTUP_BIN / "cargo").exists()


def _script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


def _env(tmp_path: Path) -> dict[str, str]:
    """The engine's environment: rustup's proxies first on PATH."""
    return {"HOME": str(tmp_path / "home"), "PATH": f"{_RUSTUP_BIN}:/usr/bin:/bin"}


def _real_env(tmp_path: Path) -> dict[str, str]:
    """The same for the real run, with this machine's installed toolchains."""
    rustup_home = os.environ.get("RUSTUP_HOME", str(Path.home() / ".rustup"))
    cargo_home = os.environ.get("CARGO_HOME", str(Path.home() / ".cargo"))
    return {**_env(tmp_path), "RUSTUP_HOME": rustup_home, "CARGO_HOME": cargo_home}


def _ran(line: str, workspace: Path, env: dict[str, str], marker: Path) -> bool:
    """Whether a real bash running `line` in `workspace` made `marker`."""
    marker.unlink(missing_ok=True)
    run_printed(line, workspace, env, timeout=300)
    return marker.exists()


def _toolchain(workspace: Path, marker: Path) -> Path:
    """A toolchain folder of the workspace whose programs make `marker`."""
    folder = workspace / "tc"
    for program in ("cargo", "rustc"):
        _script(folder / "bin" / program, f"#!/bin/sh\ntouch {marker}\necho fake\n")
    return folder


def _crate(workspace: Path) -> None:
    (workspace / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
    )
    (workspace / "src").mkdir(exist_ok=True)
    (workspace / "src" / "main.rs").write_text("fn main() {}\n")


def _verdict(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> Verdict:
    policy = approved(*approvals) if approvals else load_policy()
    decision = policy.evaluate(line, workspace=str(workspace), env=env)
    return decision.verdict


def test_gd1_cargo_install_list_looks_at_the_toolchain_file(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    folder = _toolchain(workspace, marker)
    (workspace / "rust-toolchain.toml").write_text(f'[toolchain]\npath = "{folder}"\n')
    if _RUSTUP:  # rustup's proxy runs the toolchain the file names
        assert _ran("cargo install --list", workspace, _real_env(tmp_path), marker)
    env = _env(tmp_path)
    assert _verdict("cargo install --list", workspace, env) is Verdict.ASK
    # a toolchain named by its channel stays allowed
    (workspace / "rust-toolchain.toml").write_text(
        '[toolchain]\nchannel = "1.80.0"\ncomponents = ["rustfmt", "clippy"]\n'
        'targets = ["wasm32-unknown-unknown"]\nprofile = "minimal"\n'
    )
    assert _verdict("cargo install --list", workspace, env) is Verdict.ALLOW
    (workspace / "rust-toolchain.toml").unlink()
    (workspace / "rust-toolchain").write_text("stable\n")
    assert _verdict("cargo install --list", workspace, env) is Verdict.ALLOW


def test_gd2_every_spelling_of_a_toolchain_path(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _crate(workspace)
    marker = tmp_path / "PWNED"
    folder = _toolchain(workspace, marker)
    spellings = (
        ("rust-toolchain", f"{folder}\n"),
        ("rust-toolchain.toml", f'[toolchain]\n"path" = "{folder}"\n'),
        ("rust-toolchain.toml", f'toolchain.path = "{folder}"\n'),
        ("rust-toolchain.toml", f'toolchain = {{ path = "{folder}" }}\n'),
        ("rust-toolchain.toml", f'[toolchain]\n"p\\u0061th" = "{folder}"\n'),
    )
    env = _env(tmp_path)
    for name, text in spellings:
        (workspace / name).write_text(text)
        if _RUSTUP:
            assert _ran("cargo tree", workspace, _real_env(tmp_path), marker), text
            assert _ran("rustc --version", workspace, _real_env(tmp_path), marker), text
        assert _verdict("cargo tree", workspace, env, "cargo tree") is Verdict.ASK, text
        verdict = _verdict("rustc --version", workspace, env, "rustc --version $")
        assert verdict is Verdict.ASK, text
        assert _verdict("cargo install --list", workspace, env) is Verdict.ASK, text
        (workspace / name).unlink()
    assert _verdict("cargo tree", workspace, env, "cargo tree") is Verdict.ALLOW


def test_gd3_cargo_configuration_read_as_cargo_reads_it(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _crate(workspace)
    marker = tmp_path / "PWNED"
    _script(workspace / "evil", f'#!/bin/sh\ntouch {marker}\nexec "$@"\n')
    config = workspace / ".cargo" / "config.toml"
    config.parent.mkdir()
    wrapper = workspace / "evil"
    risky = (
        f'build = {{ rustc-wrapper = "{wrapper}" }}\n',
        f'[build]\n"rustc\\u002dwrapper" = "{wrapper}"\n',
        f'["build"]\n"\\u0072ustc-wrapper" = "{wrapper}"\n',
        'alias = { tree = "run --" }\n',
        '"\\u0065nv" = { LD_PRELOAD = "./x.so" }\n',
        "[build\n",  # does not parse: cargo's reading is not known here
    )
    env = _env(tmp_path)
    stable = (Path(_real_env(tmp_path)["RUSTUP_HOME"]) / "toolchains").glob("stable-*")
    for text in risky:
        config.write_text(text)
        if _RUSTUP and "wrapper" in text and any(stable):
            # cargo runs the wrapper for rustc's target information
            line = "cargo +stable tree --offline"
            assert _ran(line, workspace, _real_env(tmp_path), marker), text
        for approval in ("cargo tree", "cargo metadata"):
            verdict = _verdict(f"{approval} --offline", workspace, env, approval)
            assert verdict is Verdict.ASK, text
    # the settings projects commonly hold stay allowed
    config.write_text(
        '[build]\ntarget-dir = "target"\njobs = 4\n[net]\nretry = 3\n'
        '[source.crates-io]\nreplace-with = "vendored-sources"\n'
        '[source.vendored-sources]\ndirectory = "vendor"\n[term]\ncolor = "always"\n'
        '[profile.release]\nlto = true\n'
    )
    assert _verdict("cargo tree", workspace, env, "cargo tree") is Verdict.ALLOW


def test_gd4_a_file_too_large_to_read_asks(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _crate(workspace)
    marker = tmp_path / "PWNED"
    folder = _toolchain(workspace, marker)
    padding = "#" + "x" * (17 << 20) + "\n"
    (workspace / "rust-toolchain.toml").write_text(f'[toolchain]\npath = "{folder}"\n{padding}')
    if _RUSTUP:
        assert _ran("cargo tree", workspace, _real_env(tmp_path), marker)
    env = _env(tmp_path)
    assert _verdict("cargo tree", workspace, env, "cargo tree") is Verdict.ASK
    assert _verdict("cargo install --list", workspace, env) is Verdict.ASK
    (workspace / "rust-toolchain.toml").unlink()
    config = workspace / ".cargo" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'[build]\nrustc-wrapper = "./evil"\n{padding}')
    assert _verdict("cargo tree", workspace, env, "cargo tree") is Verdict.ASK


def test_gd5_path_entries_written_with_a_tilde(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    marker = tmp_path / "PWNED"
    _script(workspace / "bin" / "ls", f"#!/bin/sh\ntouch {marker}\n")
    for path in ("~/../ws/bin:/usr/bin:/bin", "/usr/bin:~/../ws/bin:/bin"):
        env = {"HOME": str(home), "PATH": path}
        first = path.startswith("~")
        if first:  # bash expands the entry's `~` when it looks `ls` up
            assert _ran("ls", workspace, env, marker)
        assert _verdict("ls", workspace, env) is (Verdict.ASK if first else Verdict.ALLOW)
    # `~user` is that user's home
    user = os.environ.get("USER") or "root"
    if shutil.which("bash") and Path(os.path.expanduser(f"~{user}")).is_dir():
        own = os.path.expanduser(f"~{user}")
        entry = f"~{user}/{os.path.relpath(workspace / 'bin', own)}"
        env = {"HOME": str(home), "PATH": f"{entry}:/usr/bin:/bin"}
        assert _ran("ls", workspace, env, marker)
        assert _verdict("ls", workspace, env) is Verdict.ASK
    # a version manager's shims named through `~` are shims
    _script(home / ".pyenv" / "shims" / "python", "#!/bin/sh\n")
    env = {"HOME": str(home), "PATH": "~/.pyenv/shims:/usr/bin:/bin"}
    assert _verdict("python --version", workspace, env) is Verdict.ASK
    # a `~` entry outside the workspace changes nothing
    (home / "bin").mkdir()
    env = {"HOME": str(home), "PATH": "~/bin:~/.local/bin:/usr/bin:/bin"}
    assert _verdict("ls", workspace, env) is Verdict.ALLOW
