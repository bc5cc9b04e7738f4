"""Review GJ: cargo and rustup under the approvals the engine offered (after GD's fix).

GJ2 `cargo +stable tree` was offered `cargo +stable`: the toolchain word was taken for
the verb, and the approval covered `cargo +stable run`. GJ3 `[http]` (proxy, cainfo …)
and `registries.NAME.index` of a project's `.cargo/config.toml` were allowlisted: cargo
sends the user's registry token through the project's proxy, or to the index it names.
GJ4 `cargo owner --list serde` was offered `cargo owner`, which covered `--add`. GJ5
rustup was not among the Rust tools: `rustup show active-toolchain -v` ran the toolchain
a committed `rust-toolchain.toml` names by its path.

Each premise is shown with the real cargo and rustup of this machine where they are
installed (a local HTTP server stands for the registry and the proxy)."""

from __future__ import annotations

import http.server
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from realrun import approved, copy_workspace, run_printed

from policylang import Verdict, load_policy

_RUSTUP_BIN = Path.home() / ".cargo" / "bin"
_REAL = (_RUSTUP_BIN / "rustup").exists() and (_RUSTUP_BIN / "cargo").exists()
_TOKEN = "CANARY_GJ_TOKEN"


def _stable() -> bool:
    """Whether rustup has a stable toolchain installed (the real runs use it)."""
    home = Path(os.environ.get("RUSTUP_HOME", str(Path.home() / ".rustup")))
    return _REAL and any((home / "toolchains").glob("stable-*"))


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": f"{_RUSTUP_BIN}:/usr/bin:/bin"}


def _real_env(tmp_path: Path) -> dict[str, str]:
    """The real run's environment: a fake CARGO_HOME (its token), this machine's rustup."""
    rustup_home = os.environ.get("RUSTUP_HOME", str(Path.home() / ".rustup"))
    return {
        **_env(tmp_path), "RUSTUP_HOME": rustup_home, "CARGO_HOME": str(_cargo_home(tmp_path)),
        "RUSTUP_TOOLCHAIN": "stable",
    }  # fmt: skip


def _cargo_home(tmp_path: Path) -> Path:
    return tmp_path / "home" / ".cargo"


def _run(line: str, workspace: Path, env: dict[str, str]) -> None:
    run_printed(line, workspace, env, timeout=300)


def _crate(workspace: Path, main: str = "fn main() {}\n") -> None:
    (workspace / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
    )
    (workspace / "src").mkdir(exist_ok=True)
    (workspace / "src" / "main.rs").write_text(main)


def _offered(line: str, workspace: Path, env: dict[str, str]) -> str | None:
    decision = load_policy().evaluate(line, workspace=str(workspace), env=env)
    return decision.suggested_rule


def _verdict(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> Verdict:
    policy = approved(*approvals) if approvals else load_policy()
    return policy.evaluate(line, workspace=str(workspace), env=env).verdict


class _Registry(http.server.BaseHTTPRequestHandler):
    """A sparse registry (and an HTTP proxy: it answers absolute URLs too) that records
    each request's line and Authorization header."""

    seen: list[str]
    api: str
    auth: bool  # (`auth-required`: cargo sends the token on every request, search too)

    def _answer(self) -> None:
        self.seen.append(f"{self.command} {self.path} {self.headers.get('Authorization')}")
        if self.path.endswith("config.json"):
            config = {"dl": f"{self.api}/dl", "api": self.api, "auth-required": self.auth}
            body = json.dumps(config).encode()
            self.send_response(200)
        else:
            body = b'{"errors": [{"detail": "no"}]}'
            self.send_response(403)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_PUT = do_DELETE = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def _registry(
    api: str | None = None, *, auth: bool = True
) -> Iterator[tuple[str, list[str]]]:
    """A `_Registry` on a free local port: its address and the requests it saw."""
    seen: list[str] = []
    handler = type("Handler", (_Registry,), {"seen": seen, "api": "", "auth": auth})
    server = http.server.HTTPServer(("127.0.0.1", 0), handler)
    address = f"http://127.0.0.1:{server.server_address[1]}"
    handler.api = api or address
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield address, seen
    finally:
        server.shutdown()
        server.server_close()


def _user_registry(tmp_path: Path, index: str | None) -> None:
    """The user's token for the registry `my-reg` (and its index, when given)."""
    home = _cargo_home(tmp_path)
    home.mkdir(parents=True, exist_ok=True)
    (home / "credentials.toml").write_text(f'[registries.my-reg]\ntoken = "{_TOKEN}"\n')
    if index is not None:
        (home / "config.toml").write_text(f'[registries.my-reg]\nindex = "sparse+{index}/"\n')


def test_gj2_a_toolchain_word_is_not_the_verb(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    _crate(workspace, f'fn main() {{ std::fs::write("{marker}", "ran").unwrap(); }}\n')
    env = _env(tmp_path)
    if _stable():  # `cargo +stable run` runs the project's code
        _run("cargo +stable run --offline", workspace, _real_env(tmp_path))
        assert marker.exists()
    for toolchain in ("+stable", "+beta", "+1.75", "+stable-x86_64-unknown-linux-gnu"):
        offered = _offered(f"cargo {toolchain} tree", workspace, env)
        assert offered == f"cargo {toolchain} tree"
        for line in (f"cargo {toolchain} run --offline", f"cargo {toolchain} build"):
            assert _verdict(line, workspace, env, offered) is Verdict.ASK, line
        line = f"cargo {toolchain} tree --offline"
        assert _verdict(line, workspace, env, offered) is Verdict.ALLOW
    assert _offered("cargo +nightly tree", workspace, env) == "cargo +nightly tree"
    assert _offered("cargo +stable build", workspace, env) == "cargo +stable build"
    assert _offered("cargo +stable --version", workspace, env) != "cargo +stable"
    assert _offered("cargo +/abs/tc tree", workspace, env) is None  # (a path toolchain)
    for program in ("rustc", "rustdoc"):
        assert _offered(f"{program} +stable --version", workspace, env) != f"{program} +stable"
    assert _offered("rustup +stable show", workspace, env) == "rustup +stable show"


def test_gj3_cargo_network_settings_of_the_project_ask(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _crate(workspace)
    config = workspace / ".cargo" / "config.toml"
    config.parent.mkdir()
    env = _env(tmp_path)
    line = "cargo search serde --registry my-reg"
    approval = _offered("cargo search serde", workspace, env)
    assert approval == "cargo search"
    # the project's proxy sees the token of the user's own registry
    with _registry("http://registry.invalid") as (address, seen):
        _user_registry(tmp_path, "http://registry.invalid")
        config.write_text(f'[http]\nproxy = "{address}"\n')
        if _stable():
            _run(line, workspace, _real_env(tmp_path))
            assert any(_TOKEN in request for request in seen), seen
        assert _verdict(line, workspace, env, approval) is Verdict.ASK
        for line_approved in ("cargo owner --list serde", "cargo yank --vers 1.0.0 x"):
            verdict = _verdict(line_approved, workspace, env, f"{line_approved} $")
            assert verdict is Verdict.ASK, line_approved
    # the project's index for the registry the user holds a token for
    with _registry() as (address, seen):
        _user_registry(tmp_path, None)
        config.write_text(f'[registries.my-reg]\nindex = "sparse+{address}/"\n')
        if _stable():
            _run(line, workspace, _real_env(tmp_path))
            assert any(_TOKEN in request for request in seen), seen
        assert _verdict(line, workspace, env, approval) is Verdict.ASK
    for text in (
        '[http]\ncainfo = "ca.pem"\n', '[http]\ncheck-revoke = false\n',
        '[http]\nproxy-cainfo = "ca.pem"\n', '[http]\nssl-version = "tlsv1"\n',
        '[http]\ndebug = true\n', 'http = { proxy = "127.0.0.1:1" }\n',
        '[registry]\nindex = "https://example.invalid/index"\n',
        '[net.ssh]\nknown-hosts = ["github.com ssh-ed25519 AAAA"]\n',
        '[registries]\nmy-reg = { index = "https://example.invalid/index" }\n',
    ):  # fmt: skip
        config.write_text(text)
        assert _verdict(line, workspace, env, approval) is Verdict.ASK, text
    # the harmless settings stay allowed
    config.write_text(
        '[http]\ntimeout = 30\nlow-speed-limit = 10\nmultiplexing = false\n'
        'user-agent = "x"\n[registries.crates-io]\nprotocol = "sparse"\n[net]\nretry = 3\n'
        '[source.crates-io]\nreplace-with = "vendored-sources"\n'
        '[source.vendored-sources]\ndirectory = "vendor"\n'
    )
    assert _verdict(line, workspace, env, approval) is Verdict.ALLOW


def test_gj4_a_listing_approval_does_not_cover_registry_writes(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _crate(workspace)
    env = _env(tmp_path)
    with _registry(auth=False) as (address, seen):  # `--add` writes with the user's token
        _user_registry(tmp_path, address)
        if _stable():
            _run("cargo owner --add evil x --registry my-reg", workspace, _real_env(tmp_path))
            assert any(r.startswith("PUT ") and _TOKEN in r for r in seen), seen
    offered = _offered("cargo owner --list serde", workspace, env)
    assert offered == "cargo owner --list serde $"
    assert _verdict("cargo owner --list serde", workspace, env, offered) is Verdict.ALLOW
    for line in (
        "cargo owner --add evil x", "cargo owner -a evil x", "cargo owner --remove me x",
        "cargo owner --list serde --add evil", "cargo owner --list other",
    ):  # fmt: skip
        assert _verdict(line, workspace, env, offered) is Verdict.ASK, line
    for line in ("cargo yank --vers 1.0.0 x", "cargo publish", "cargo login", "cargo logout"):
        assert _offered(line, workspace, env) == f"{line} $"
    assert _offered("cargo +stable owner -l x", workspace, env) == "cargo +stable owner -l x $"


def test_gj5_rustup_looks_at_the_toolchain_file(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    folder = workspace / "tc"
    for program in ("cargo", "rustc"):
        script = folder / "bin" / program
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text(f"#!/bin/sh\ntouch {marker}\necho fake\n")
        script.chmod(0o755)
    (workspace / "rust-toolchain.toml").write_text(f'[toolchain]\npath = "{folder}"\n')
    line = "rustup show active-toolchain -v"
    if _REAL:  # rustup runs the toolchain's rustc for its version
        real = _real_env(tmp_path)
        del real["RUSTUP_TOOLCHAIN"]
        _run(line, workspace, real)
        assert marker.exists()
    env = _env(tmp_path)
    for approved_rule in ("rustup show", "rustup run", "rustup doc", "rustup which"):
        verb = approved_rule.split()[1]
        rest = {"show": "active-toolchain -v", "run": "stable cargo", "doc": "--path"}
        current = f"{approved_rule} {rest.get(verb, 'cargo')}"
        assert _verdict(current, workspace, env, approved_rule) is Verdict.ASK, current
    (workspace / "rust-toolchain.toml").write_text('[toolchain]\nchannel = "stable"\n')
    assert _verdict(line, workspace, env, "rustup show") is Verdict.ALLOW
