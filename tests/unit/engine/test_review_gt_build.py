"""Review GT3-GT8: the manifest-code and cgo checks of review GP4-GP8, got around.

GT3: `bundle check --gemfile=evil.rb` (approval `bundle check`, offered where no Gemfile
is) evaluated the Ruby file it names. GT4: a home in the workspace made `~/.bundle/config`
(its `BUNDLE_GEMFILE`) the repository's. GT5: a home in the workspace made go's user env
file (`~/.config/go/env`, `GOFLAGS=-toolexec=…`) the repository's. GT6: `swift package
--version` was offered `swift package`, which approved `swift package resolve`. GT7: bare
`gradle`, `sbt`, `lein`, `composer`, `composer help X` and `sbt "show name"` escaped the
verb tables. GT8: `gem exec bundle list` was offered exactly, where `bundle list` asks.

The real bundler (Ruby's default gem) and go (the reviewer's unpacked go 1.19 under
/tmp/review-GP) run where found; swift, gradle, sbt, lein, composer and a RubyGems with
`gem exec` are not installed: their documented behaviour is the premise."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_BUNDLER = Path("/usr/lib/ruby/gems/3.1.0/gems/bundler-2.3.7/libexec/bundle")
_GO = Path("/tmp/review-GP/godeb/x/usr/lib/go-1.19/bin/go")
_CANARY = "SECRET=canary-gt-build-6203"
# evaluated by bundler as a Gemfile: copies `.env` beside it to LEAKED
_EVIL_RB = (
    'File.write(File.join(__dir__, "LEAKED"), File.read(File.join(__dir__, ".env")))\n'
    'source "https://rubygems.org"\n'
)


def _real_bundler() -> bool:
    return _BUNDLER.is_file() and shutil.which("ruby") is not None


def _bundle(workspace: Path, env: dict[str, str], *args: str) -> str:
    return program_printed(["ruby", str(_BUNDLER), *args], workspace, env)


# -- GT3 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    ["bundle check --gemfile=evil.rb", "bundle check --gemfile evil.rb",
     "bundle install --gemfile=evil.rb", "bundler check --gemfile evil.rb"],
)  # fmt: skip
def test_bundle_gemfile_option_asks(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, _CANARY + "\n", {"evil.rb": _EVIL_RB})
    if _real_bundler() and line.startswith("bundle check"):
        _bundle(workspace, env, *line.split()[1:])
        assert (workspace / "LEAKED").read_text().strip() == _CANARY  # (the premise)
    offered = " ".join(line.split()[:2])  # no Gemfile here: `bundle check` is offered
    assert decide(offered, workspace, env).suggested_rule == offered
    decision = decide(line, workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.manifest-code" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


# -- GT4 ---------------------------------------------------------------------------------
def test_bundle_user_config_in_the_workspace_asks(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, _CANARY + "\n", {"evil.rb": _EVIL_RB})
    config = f'---\nBUNDLE_GEMFILE: "{workspace / "evil.rb"}"\n'
    (workspace / "h" / ".bundle").mkdir(parents=True)
    (workspace / "h" / ".bundle" / "config").write_text(config)
    home_in = {**env, "HOME": str(workspace / "h")}
    if _real_bundler():
        _bundle(workspace, home_in, "list")
        assert (workspace / "LEAKED").read_text().strip() == _CANARY  # (the premise)
    decision = decide("bundle list", workspace, home_in, "bundle list")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decide("bundle list", workspace, home_in).suggested_rule is None
    # the same file named by BUNDLE_USER_CONFIG or under BUNDLE_USER_HOME
    for key, value in (("BUNDLE_USER_CONFIG", workspace / "h" / ".bundle" / "config"),
                       ("BUNDLE_USER_HOME", workspace / "h" / ".bundle")):  # fmt: skip
        moved = {**env, key: str(value)}
        assert decide("bundle list", workspace, moved, "bundle list").verdict is Verdict.ASK
    # the home outside the workspace: bundler's own settings, the approval holds
    assert decide("bundle list", workspace, env, "bundle list").verdict is Verdict.ALLOW


# -- GT5 ---------------------------------------------------------------------------------
def _go_env_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    files = {"go.mod": "module example.com/x\n\ngo 1.19\n",
             "main.go": "package main\n\nfunc main() {}\n",
             "evil.sh": '#!/bin/sh\ncat "$(dirname "$0")/.env" > "$(dirname "$0")/LEAKED"\n'
                        'exec "$@"\n'}  # fmt: skip
    workspace, env = canary_workspace(tmp_path, _CANARY + "\n", files)
    (workspace / "evil.sh").chmod(0o755)
    go_env = workspace / "h" / ".config" / "go" / "env"
    go_env.parent.mkdir(parents=True)
    go_env.write_text(f"GOFLAGS=-toolexec={workspace / 'evil.sh'}\n")
    return workspace, {**env, "HOME": str(workspace / "h")}


@pytest.mark.parametrize(
    ("line", "offered"),
    [("go build ./...", "go build"), ("go vet ./...", "go vet"),
     ("go list -export ./...", "go list"), ("go version", "go version")],
)  # fmt: skip
def test_go_env_file_in_the_workspace_asks(tmp_path: Path, line: str, offered: str) -> None:
    workspace, env = _go_env_workspace(tmp_path)
    if _GO.is_file() and line.startswith("go build"):
        run_env = {**env, "PATH": f"{_GO.parent}:/usr/bin:/bin",
                   "GOCACHE": str(tmp_path / "gocache")}  # fmt: skip
        program_printed(["sh", "-c", line], workspace, run_env)
        assert (workspace / "LEAKED").read_text().strip() == _CANARY  # (the premise)
    decision = decide(line, workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.go-env-file" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None
    # XDG_CONFIG_HOME or GOENV naming it from a home outside
    outside = {**env, "HOME": str(tmp_path / "home")}
    for key, value in (("XDG_CONFIG_HOME", workspace / "h" / ".config"),
                       ("GOENV", workspace / "h" / ".config" / "go" / "env")):  # fmt: skip
        moved = {**outside, key: str(value)}
        assert decide(line, workspace, moved, offered).verdict is Verdict.ASK, key


def test_go_env_file_outside_or_empty_keeps_approvals(tmp_path: Path) -> None:
    workspace, env = _go_env_workspace(tmp_path)
    outside = {**env, "HOME": str(tmp_path / "home")}
    assert decide("go build ./...", workspace, outside, "go build").verdict is Verdict.ALLOW
    (workspace / "h" / ".config" / "go" / "env").write_text("# nothing set\n")
    assert decide("go build ./...", workspace, env, "go build").verdict is Verdict.ALLOW
    # `go env -w` writes that file: it asks with no offer
    write = decide("go env -w GOFLAGS=-toolexec=/tmp/x", workspace, env)
    assert write.verdict is Verdict.ASK
    assert write.suggested_rule is None


# -- GT6 ---------------------------------------------------------------------------------
_SWIFT = {"Package.swift": "// swift-tools-version:5.9\n"}


def test_swift_package_help_is_offered_exactly(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, None, _SWIFT)
    for line in ("swift package --version", "swift package -h", "swift package"):
        offer = decide(line, workspace, env).suggested_rule
        assert offer == f"{line} $", line
        for attack in ("swift package resolve", "swift package update"):
            decision = decide(attack, workspace, env, offer)
            assert decision.verdict is Verdict.ASK, (line, attack)
    assert decide("swift package resolve", workspace, env).suggested_rule == (
        "swift package resolve"
    )


# -- GT7 ---------------------------------------------------------------------------------
_PROJECT = {"build.gradle": "println 'x'\n", "build.sbt": 'name := "x"\n',
            "project.clj": '(defproject x "1")\n', "composer.json": "{}\n"}  # fmt: skip


@pytest.mark.parametrize(
    "line",
    ["gradle", "sbt", "lein", "composer", "composer help", "composer help install",
     'sbt "show name"', "sbt 'tasks -V'", "composer my-plugin-command", "lein my-alias"],
)  # fmt: skip
def test_manifest_tools_with_no_verb_or_an_odd_one_ask(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, None, _PROJECT)
    decision = decide(line, workspace, env, f"{line} $", line.split()[0] + " help")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.manifest-code" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


def test_manifest_tools_help_offered_exactly_outside_a_project(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"README": "x\n"})
    assert decide("composer help", workspace, env).suggested_rule == "composer help $"
    # (lein's help is offered nothing anywhere since review HR6: it loads the project's
    # and the user's profiles and plugins)
    assert decide("lein help deps", workspace, env).suggested_rule is None
    assert decide("lein", workspace, env).suggested_rule == "lein $"
    # (Gradle and sbt find their builds upward and in the user's init scripts: always)
    assert decide("gradle", workspace, env).suggested_rule is None
    for line in ("gradle build", "composer install", "sbt compile", "lein test"):
        assert decide(line, workspace, env).suggested_rule == line, line


# -- GT8 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    ["gem exec bundle list", "gem exec bundler list", "gem exec bundler:2.3.7 list",
     "gem exec -v 2.3.7 bundle check", "gem exec -g bundler bundle list",
     "gem exec -- bundle list", "gem exec bundle check --gemfile=x.rb"],
)  # fmt: skip
def test_gem_exec_bundle_is_judged_as_bundle(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"Gemfile": _EVIL_RB})
    decision = decide(line, workspace, env, f"{line} $", "gem exec")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.manifest-code" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


def test_gem_exec_other_programs_keep_their_offer(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"Gemfile": _EVIL_RB})
    assert decide("gem exec rubocop", workspace, env).suggested_rule == "gem exec rubocop"
    (tmp_path / "b").mkdir()
    bare, benv = canary_workspace(tmp_path / "b", None, {"README": "x\n"})
    offer = decide("gem exec bundle list", bare, benv).suggested_rule
    assert offer is not None
    assert decide("gem exec bundle list", bare, benv, offer).verdict is Verdict.ALLOW
