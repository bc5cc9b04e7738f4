"""Review GL7: `rustc +nightly --version` and `-V` got no offer, while `rustc --version`
was offered `rustc --version $`: the toolchain word `+nightly` counted as code handed to
rustc (`HANDED_CODE`, which asks for `+/ws/tc`, a toolchain folder: review DP4) even
where an exact approval names it. Now such a line is offered itself, exactly, and
nothing wider: another toolchain, a path toolchain or one more word still asks.

The real rustup proxy prints the toolchain's version (when that toolchain is installed);
the engine's verdicts are asserted always."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "x.rs").write_text("fn main() {}\n")
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


def _installed(toolchain: str) -> bool:
    rustup = shutil.which("rustup")
    if rustup is None:
        return False
    done = subprocess.run([rustup, "toolchain", "list"], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    return any(line.startswith(f"{toolchain}-") for line in done.stdout.splitlines())


@pytest.mark.parametrize("option", ["--version", "-V"])
def test_gl7_a_toolchain_version_line_is_offered_exactly(tmp_path: Path, option: str) -> None:
    workspace, env = _workspace(tmp_path)
    rustc = shutil.which("rustc")
    if rustc is not None and _installed("nightly"):  # (the premise: a version, no build)
        done = subprocess.run([rustc, "+nightly", option], cwd=workspace, capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "nightly" in done.stdout, done.stdout
    line = f"rustc +nightly {option}"
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == f"{line} $"
    offered = decision.suggested_rule
    assert decide(line, workspace, env, offered).verdict is Verdict.ALLOW
    for wider in (f"{line} x.rs", f"rustc +beta {option}", "rustc +nightly x.rs",
                  "rustc +nightly", f"rustc +{workspace}/tc {option}"):  # fmt: skip
        assert decide(wider, workspace, env, offered).verdict is Verdict.ASK, wider


def test_gl7_a_path_toolchain_is_offered_nothing(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(f"rustc +{workspace}/tc --version", workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None


def test_gl7_another_proxy_approved_by_name_still_asks_for_a_toolchain(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide("rustfmt +nightly --version", workspace, env)
    assert decision.suggested_rule == "rustfmt +nightly --version $"
    for line in ("rustfmt +nightly x.rs", "rustfmt +nightly --check x.rs"):
        assert decide(line, workspace, env, "rustfmt +nightly --version $").verdict is Verdict.ASK
