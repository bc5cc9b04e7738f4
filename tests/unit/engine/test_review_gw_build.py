"""Review GW2-GW4, GW6: the cgo and manifest-code checks of reviews GP6-GT8, got around.

GW2: in a pure-Go workspace whose go.mod requires a module that uses cgo, the approved
`go build`, `go vet`, `go list -export` ran gcc on that module's preamble (`#include` of
the user's key): the cgo scan read only the workspace. GW3: the go/packages tools
(`staticcheck`, `gopls`, `golangci-lint`, `govulncheck`, `errcheck`), which run `go list
-compiled -export`, escaped the check `go vet` gets. GW4: `gem exec bundler --version` was
offered `gem exec bundler`, which approved `gem exec bundler exec ruby evil.rb`. GW6:
`composer show -d sub` (and `--working-dir`) loaded `sub`'s plugins while the manifest
check looked at the working folder.

The real go (the reviewer's unpacked go 1.19 under /tmp/review-GP) and gcc run where
found, with a file:// GOPROXY standing in for proxy.golang.org; the go/packages tools,
composer and a RubyGems with `gem exec` are not installed: their documented behaviour is
the premise. The engine's verdicts are asserted always."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_GO = Path("/tmp/review-GP/godeb/x/usr/lib/go-1.19/bin/go")
_SECRET = "canary-ssh-gw2-5521"
_MODULE = "evil.example/cgo"


def _cgo_source(home: Path) -> str:
    return f'package cgo\n\n/*\n#include "{home}/.ssh/id_rsa"\n*/\nimport "C"\n\nfunc F() {{}}\n'


def _proxy(tmp_path: Path) -> Path:
    """A file:// GOPROXY serving `evil.example/cgo@v1.0.0`, whose preamble includes the
    key of the fake home (review GW2)."""
    folder = tmp_path / "proxy" / _MODULE / "@v"
    folder.mkdir(parents=True)
    mod = f"module {_MODULE}\n\ngo 1.19\n"
    (folder / "list").write_text("v1.0.0\n")
    (folder / "v1.0.0.info").write_text('{"Version":"v1.0.0"}\n')
    (folder / "v1.0.0.mod").write_text(mod)
    with zipfile.ZipFile(folder / "v1.0.0.zip", "w") as archive:
        archive.writestr(f"{_MODULE}@v1.0.0/go.mod", mod)
        archive.writestr(f"{_MODULE}@v1.0.0/c.go", _cgo_source(tmp_path / "home"))
    return tmp_path / "proxy"


def _dependent_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A pure-Go workspace whose go.mod requires the cgo module (review GW2)."""
    files = {
        "go.mod": f"module example.com/gdep\n\ngo 1.19\n\nrequire {_MODULE} v1.0.0\n",
        "main.go": f'package main\n\nimport "{_MODULE}"\n\nfunc main() {{ cgo.F() }}\n',
    }
    home = {".ssh/id_rsa": _SECRET + "\n"}
    return canary_workspace(tmp_path, None, files, home=home)


def _go_printed(tmp_path: Path, workspace: Path, env: dict[str, str], line: str) -> str:
    proxy = _proxy(tmp_path)
    run_env = {
        **env, "PATH": f"{_GO.parent}:/usr/bin:/bin", "GOPROXY": f"file://{proxy}",
        "GOSUMDB": "off", "GOFLAGS": "-mod=mod", "GOPATH": str(tmp_path / "gopath"),
        "GOCACHE": str(tmp_path / "gocache"), "GOTOOLCHAIN": "local",
    }  # fmt: skip
    return program_printed(["sh", "-c", line], workspace, run_env)


def _fresh(folder: Path) -> Path:
    folder.mkdir()
    return folder


def _real_go() -> bool:
    return _GO.is_file() and shutil.which("gcc") is not None


# -- GW2 ---------------------------------------------------------------------------------
_COMPILES = [
    ("go build ./...", "go build"),
    ("go vet ./...", "go vet"),
    ("go list -export ./...", "go list"),
    ("go build -modfile=evil.mod", "go build"),
    ("go run example.com/tool@v1.0.0", "go run"),
    ("go install example.com/tool@latest", "go install"),
]


@pytest.mark.parametrize(("line", "approved"), _COMPILES)
def test_go_compiling_verbs_with_required_modules_ask(
    tmp_path: Path, line: str, approved: str
) -> None:
    workspace, env = _dependent_workspace(tmp_path)
    if _real_go() and "@" not in line and "modfile" not in line:
        out = _go_printed(tmp_path, workspace, env, line)
        assert _SECRET in out, out  # (the premise: gcc printed the required module's key)
    decision = decide(line, workspace, env, approved)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.go-cgo" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


@pytest.mark.parametrize(
    ("files", "extra"),
    [({"go.work": "go 1.19\n\nuse ../other\n"}, {}),
     ({"go.mod": "module x\n\nreplace a => ../a\n"}, {}),
     ({}, {"GOFLAGS": "-mod=mod"}),
     ({}, {"GOWORK": "/tmp/x/go.work"}),
     ({}, {"GO111MODULE": "off"})],
)  # fmt: skip
def test_go_modules_from_elsewhere_ask(
    tmp_path: Path, files: dict[str, str], extra: dict[str, str]
) -> None:
    base = {"go.mod": "module x\n\ngo 1.19\n", "main.go": "package main\n\nfunc main() {}\n"}
    workspace, env = canary_workspace(tmp_path, None, {**base, **files})
    decision = decide("go build ./...", workspace, {**env, **extra}, "go build")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_go_self_contained_module_keeps_its_approvals(tmp_path: Path) -> None:
    files = {"go.mod": "module x\n\ngo 1.19\n", "main.go": "package main\n\nfunc main() {}\n"}
    workspace, env = canary_workspace(tmp_path, None, files)
    for line, approved in _COMPILES[:3]:
        assert decide(line, workspace, env).suggested_rule == approved, line
        assert decide(line, workspace, env, approved).verdict is Verdict.ALLOW, line
    assert decide("go build -mod=vendor .", workspace, env, "go build").verdict is Verdict.ALLOW
    # verbs that compile nothing keep their approvals with requirements too
    dependent, denv = _dependent_workspace(_fresh(tmp_path / "d"))
    for line, approved in (("go list ./...", "go list"), ("go mod tidy", "go mod")):
        assert decide(line, dependent, denv, approved).verdict is Verdict.ALLOW, line


# -- GW3 ---------------------------------------------------------------------------------
_TOOLS = [
    ("staticcheck ./...", "staticcheck"),
    ("gopls check main.go", "gopls check"),
    ("golangci-lint run", "golangci-lint run"),
    ("govulncheck ./...", "govulncheck"),
    ("errcheck ./...", "errcheck"),
]
_CGO_MAIN = 'package main\n\n/*\n#include "../home/.ssh/id_rsa"\n*/\nimport "C"\n\nfunc main() {}\n'


@pytest.mark.parametrize(("line", "approved"), _TOOLS)
def test_go_packages_tools_in_a_cgo_workspace_ask(
    tmp_path: Path, line: str, approved: str
) -> None:
    files = {"go.mod": "module x\n\ngo 1.19\n", "main.go": _CGO_MAIN}
    workspace, env = canary_workspace(tmp_path, None, files, home={".ssh/id_rsa": _SECRET})
    if _real_go():
        # go/packages runs this very command for a tool that needs types (the premise)
        out = _go_printed(tmp_path, workspace, env, "go list -e -compiled=true -export=true ./...")
        assert _SECRET in out, out
    decision = decide(line, workspace, env, approved)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.go-cgo" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None
    dependent, denv = _dependent_workspace(_fresh(tmp_path / "d"))
    assert decide(line, dependent, denv, approved).verdict is Verdict.ASK


def test_go_packages_tools_in_a_pure_workspace_keep_their_approvals(tmp_path: Path) -> None:
    files = {"go.mod": "module x\n\ngo 1.19\n", "main.go": "package main\n\nfunc main() {}\n"}
    workspace, env = canary_workspace(tmp_path, None, files)
    for line, approved in _TOOLS:
        assert decide(line, workspace, env).suggested_rule == approved, line
        assert decide(line, workspace, env, approved).verdict is Verdict.ALLOW, line
    cgo, cenv = canary_workspace(_fresh(tmp_path / "c"), None, {"main.go": _CGO_MAIN})
    assert decide("staticcheck -version", cgo, cenv, "staticcheck").verdict is Verdict.ALLOW


# -- GW4 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("innocent", "attack"),
    [("gem exec bundler --version", "gem exec bundler exec ruby evil.rb"),
     ("gem exec bundler help", "gem exec bundler install"),
     ("gem exec bundle help", "gem exec bundle exec ruby evil.rb")],
)  # fmt: skip
def test_gem_exec_is_offered_exactly(tmp_path: Path, innocent: str, attack: str) -> None:
    files = {"Gemfile": 'source "https://rubygems.org"\n', "evil.rb": "puts 1\n"}
    workspace, env = canary_workspace(tmp_path, "SECRET=canary-gw4\n", files)
    offered = decide(innocent, workspace, env).suggested_rule
    assert offered == f"{innocent} $"
    assert decide(innocent, workspace, env, offered).verdict is Verdict.ALLOW
    decision = decide(attack, workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_gem_exec_help_of_another_program_is_offered_exactly(tmp_path: Path) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"README": "x\n"})
    assert decide("gem exec rails --version", workspace, env).suggested_rule == (
        "gem exec rails --version $"
    )
    assert decide("gem exec rails", workspace, env).suggested_rule == "gem exec rails"


# -- GW6 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "approved"),
    [("composer show -d sub", "composer show"),
     ("composer show --working-dir=sub", "composer show"),
     ("composer show --working-dir sub", "composer show"),
     ("composer show -nd sub", "composer show"),
     ("composer show -dsub", "composer show"),
     ("composer diagnose -d sub", "composer diagnose")],
)  # fmt: skip
def test_composer_working_dir_asks(tmp_path: Path, line: str, approved: str) -> None:
    """(composer is not installed here: Symfony's `-d`/`--working-dir` moving Composer to
    `sub`, whose `vendor/` plugins it loads, is the premise.)"""
    files = {"sub/composer.json": "{}\n", "sub/vendor/autoload.php": "<?php\n"}
    workspace, env = canary_workspace(tmp_path, None, files)
    assert decide(approved, workspace, env).suggested_rule == approved  # (no manifest here)
    assert decide(approved, workspace, env, approved).verdict is Verdict.ALLOW
    decision = decide(line, workspace, env, approved)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.manifest-code" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None
