"""Review GP4, GP5, GP6, GP8: build tools whose "read" verbs run the project's code.

GP4: `bundle list|show|check|env|platform|outdated|info` (each offered as its own
approval) evaluate the `Gemfile`, Ruby code: they ask with no offer where a Gemfile,
`gems.rb` or `.bundle/config` lies in the working folder or above it in the workspace
(or `BUNDLE_GEMFILE` moves it). GP5: the approval "bundle config" (offered for the
listing) allowed `bundle config set --global gemfile /tmp/evil`: the listing is offered
exactly, and bundler's writes are a locked ask. GP6: approved `go list` (offered for
`go list -m`), `go vet`, `go build` ran cgo, whose gcc printed `~/.aws/credentials`
included by a preamble: where the workspace holds a cgo package (or C, assembly files),
the compiling verbs ask with no offer. GP8: the read-looking verbs of SwiftPM, Composer,
sbt, Leiningen, Gradle, dotnet and uv get no offer where their manifest is.

The real bundler (Ruby's default gem) and go (the reviewer's unpacked go 1.19 under
/tmp/review-GP) run where found; the engine's verdicts are asserted always."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_BUNDLER = Path("/usr/lib/ruby/gems/3.1.0/gems/bundler-2.3.7/libexec/bundle")
_GO = Path("/tmp/review-GP/godeb/x/usr/lib/go-1.19/bin/go")
_CANARY = "SECRET=canary-gp-build-5117"


def _ruby_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace whose Gemfile copies `.env` to `LEAKED` beside it, with a `bundle` on
    PATH that runs the real bundler (where Ruby has one)."""
    gemfile = 'File.write(File.join(__dir__, "LEAKED"), File.read(File.join(__dir__, ".env")))\n'
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    wrapper = bin_dir / "bundle"
    wrapper.write_text(f'#!/bin/sh\nexec ruby {_BUNDLER} "$@"\n')
    wrapper.chmod(0o755)
    return canary_workspace(tmp_path, _CANARY + "\n", {"Gemfile": gemfile},
                            path=f"{bin_dir}:/usr/bin:/bin")  # fmt: skip


def _real_bundler() -> bool:
    return _BUNDLER.is_file() and shutil.which("ruby") is not None


_BUNDLE_READS = ["bundle list", "bundle show", "bundle check", "bundle env", "bundle platform",
                 "bundle outdated --local", "bundle info rake", "bundler list"]  # fmt: skip


@pytest.mark.parametrize("line", _BUNDLE_READS)
def test_bundle_read_verbs_run_the_gemfile_and_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _ruby_workspace(tmp_path)
    if _real_bundler() and not line.startswith("bundler"):
        program_printed(["sh", "-c", line], workspace, env)
        assert (workspace / "LEAKED").read_text().strip() == _CANARY  # (the premise)
    offered = " ".join(line.split()[:2])  # the approval offered before the fix
    decision = decide(line, workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.manifest-code" in decision.explain()
    unapproved = decide(line, workspace, env)
    assert unapproved.verdict is Verdict.ASK
    assert unapproved.suggested_rule is None


def test_bundle_gemfile_moved_or_absent(tmp_path: Path) -> None:
    """No Gemfile in the workspace: `bundle list` keeps its offer; `BUNDLE_GEMFILE`
    naming one anywhere asks; `bundle install` (the Gemfile's code approved) is offered."""
    workspace, env = canary_workspace(tmp_path, None, {"README": "x\n"})
    assert decide("bundle list", workspace, env, "bundle list").verdict is Verdict.ALLOW
    moved = {**env, "BUNDLE_GEMFILE": "/tmp/evil/Gemfile"}
    assert decide("bundle list", workspace, moved, "bundle list").verdict is Verdict.ASK
    ruby, renv = _ruby_workspace(tmp_path / "r")
    assert decide("bundle install", ruby, renv).suggested_rule == "bundle install"
    assert decide("bundle -v", ruby, renv, "bundle").verdict is Verdict.ALLOW
    (workspace / ".bundle").mkdir()
    (workspace / ".bundle" / "config").write_text('BUNDLE_GEMFILE: "/tmp/evil"\n')
    assert decide("bundle check", workspace, env, "bundle check").verdict is Verdict.ASK


def test_bundle_config_global_write_asks(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"README": "x\n"})
    attack = "bundle config set --global gemfile /tmp/review-gp-evil/Gemfile"
    if _real_bundler():
        wrapper = ["ruby", str(_BUNDLER), *attack.split()[1:]]
        program_printed(wrapper, workspace, env)
        written = (tmp_path / "home" / ".bundle" / "config").read_text()
        assert "BUNDLE_GEMFILE" in written  # (the premise: every later bundle runs it)
    listing = decide("bundle config", workspace, env)
    assert listing.suggested_rule == "bundle config $"
    assert decide("bundle config", workspace, env, "bundle config $").verdict is Verdict.ALLOW
    for line in (attack, "bundle config gemfile /tmp/evil", "bundle config --global gemfile x",
                 "bundle config unset gemfile", "bundle config --delete gemfile",
                 "bundler config set gemfile x", "bundle config list gemfile x"):  # fmt: skip
        decision = decide(line, workspace, env, "bundle config", "bundler config")
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.locked, line
    got = decide("bundle config get path", workspace, env, "bundle config get")
    assert got.verdict is Verdict.ALLOW


# -- GP6 ---------------------------------------------------------------------------------
_CGO_MAIN = """package main

/*
#define default 0
int a[1];
int b = a
#include "../home/.aws/credentials"
;
*/
import "C"

func main() {}
"""


def _go_workspace(tmp_path: Path, main: str) -> tuple[Path, dict[str, str]]:
    files = {"go.mod": "module example.com/x\n\ngo 1.19\n", "main.go": main}
    home = {".aws/credentials": "[default]\naws_secret_access_key = canary-aws-gp6-3317\n"}
    return canary_workspace(tmp_path, None, files, home=home)


_GO_COMPILES = [
    ("go list -compiled ./...", "go list"),
    ("go list -export ./...", "go list"),
    ("go list -json=CompiledGoFiles ./...", "go list"),
    ("go vet ./...", "go vet"),
    ("go build ./...", "go build"),
    ("go test ./...", "go test"),
    ("go install .", "go install"),
]


@pytest.mark.parametrize(("line", "offered"), _GO_COMPILES)
def test_go_compiling_verbs_in_a_cgo_workspace_ask(
    tmp_path: Path, line: str, offered: str
) -> None:
    workspace, env = _go_workspace(tmp_path, _CGO_MAIN)
    # (go 1.19's `-json=CompiledGoFiles` does not compile: judged as newer ones may)
    premise = line.split()[1] in ("vet", "build") or ("-json" not in line and "list" in line)
    if _GO.is_file() and shutil.which("gcc") and premise:
        run_env = {**env, "PATH": f"{_GO.parent}:/usr/bin:/bin", "GOFLAGS": "-mod=mod"}
        out = program_printed(["sh", "-c", line], workspace, run_env)
        assert "canary-aws-gp6-3317" in out  # (the premise: gcc printed the secret)
    decision = decide(line, workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.go-cgo" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


def test_go_pure_workspace_keeps_its_approvals(tmp_path: Path) -> None:
    workspace, env = _go_workspace(tmp_path, "package main\n\nfunc main() {}\n")
    for line, offered in _GO_COMPILES:
        assert decide(line, workspace, env).suggested_rule == offered, line
        assert decide(line, workspace, env, offered).verdict is Verdict.ALLOW, line
    (workspace / "asm_amd64.s").write_text('#include "../home/.aws/credentials"\n')
    assert decide("go build ./...", workspace, env, "go build").verdict is Verdict.ASK
    assert decide("go list -m all", workspace, env, "go list").verdict is Verdict.ALLOW


def test_go_tool_cgo_is_a_locked_ask(tmp_path: Path) -> None:
    workspace, env = _go_workspace(tmp_path, _CGO_MAIN)
    decision = decide("go tool cgo main.go", workspace, env, "go tool cgo")
    assert decision.verdict is Verdict.ASK
    assert decision.locked


# -- GP8 ---------------------------------------------------------------------------------
_MANIFEST_READS = [
    ({"Package.swift": "// swift-tools-version:5.9\n"}, "swift package describe", "swift package"),
    ({"Package.swift": "// x\n"}, "swift package show-dependencies", "swift package"),
    ({"composer.json": "{}\n"}, "composer show", "composer show"),
    ({"composer.json": "{}\n"}, "composer validate", "composer validate"),
    ({"build.sbt": "name := \"x\"\n"}, "sbt version", "sbt version"),
    ({"project.clj": "(defproject x \"1\")\n"}, "lein version", "lein version"),
    ({"build.gradle": "println 'x'\n"}, "gradle tasks", "gradle tasks"),
    ({"build.gradle": "println 'x'\n"}, "gradle dependencies", "gradle dependencies"),
    ({"build.gradle": "println 'x'\n"}, "gradle -q :app:dI", "gradle"),
    ({"x.csproj": "<Project/>\n"}, "dotnet list package", "dotnet list"),
    ({"pyproject.toml": "[project]\nname='x'\n"}, "uv tree", "uv tree"),
    ({"pyproject.toml": "[project]\nname='x'\n"}, "uv lock", "uv lock"),
]


@pytest.mark.parametrize(("files", "line", "offered"), _MANIFEST_READS)
def test_manifest_is_code_read_verbs_ask(
    tmp_path: Path, files: dict[str, str], line: str, offered: str
) -> None:
    """(swift, composer, sbt, lein, gradle, dotnet and uv are not installed here: the
    review's documented behaviour is the premise.)"""
    workspace, env = canary_workspace(tmp_path, _CANARY + "\n", files)
    decision = decide(line, workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.manifest-code" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


def test_manifest_tools_build_verbs_keep_offers(tmp_path: Path) -> None:
    files = {"build.gradle": "x\n", "composer.json": "{}\n", "pyproject.toml": "x\n"}
    workspace, env = canary_workspace(tmp_path, None, files)
    for line in ("gradle build", "gradle test", "composer install", "uv sync"):
        assert decide(line, workspace, env).suggested_rule == line, line
        assert decide(line, workspace, env, line).verdict is Verdict.ALLOW, line
    # no composer.json, no vendor/: nothing of a project's runs
    (tmp_path / "b").mkdir()
    bare, benv = canary_workspace(tmp_path / "b", None, {"README": "x\n"})
    assert decide("composer show", bare, benv, "composer show").verdict is Verdict.ALLOW
