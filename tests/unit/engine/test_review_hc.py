"""Review HC1-HC5: the go dependency and terraform local-backend checks, got around.

HC1: go's modfile lexer takes `\\r` as a blank, so a go.mod line `\\r require evil v1`
requires a module the scan `^[ \\t]*require` missed: approved `go build` compiled its cgo
preamble, which printed the user's key. HC2: `backend "local" { # }` ended the body at
the `}` of the comment, and the `path` on the next line (`~/.bash_login`) was exempted:
`terraform init -force-copy` wrote the committed state there. HC3: a local backend with
`path = "s.tfstate"` beside a committed link `s.tfstate.backup -> ~/.bash_login` was
exempted, and `init -force-copy` wrote through the link. HC4: `go build -C sub` (go 1.20+)
reads `sub/go.mod`, which the upward look from the working folder missed. HC5: tools that
load, build or test packages (mockery, goreleaser, ginkgo …) were not in the list.

The real go 1.19 (unpacked under /tmp/review-GP), gcc and terraform 1.11 run where
found; go 1.19 has no `-C` and the HC5 tools are not installed: go 1.20's release notes
and the tools' documented use of go/packages, `go build` and `go test` are the premise."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, git_out, program_printed
from test_review_gw_build import _SECRET, _dependent_workspace, _go_printed, _real_go

from policylang import Verdict

_TERRAFORM = shutil.which("terraform")
_MODULE = "evil.example/cgo"
_MAIN = f'package main\n\nimport "{_MODULE}"\n\nfunc main() {{ cgo.F() }}\n'
_PURE = {"go.mod": "module x\n\ngo 1.19\n", "main.go": "package main\n\nfunc main() {}\n"}


# -- HC1 ---------------------------------------------------------------------------------
def _cr_workspace(tmp_path: Path, directive: str) -> tuple[Path, dict[str, str]]:
    workspace, env = _dependent_workspace(tmp_path)
    (workspace / "go.mod").write_text(f"module example.com/gdep\n\ngo 1.19\n{directive}\n")
    return workspace, env


@pytest.mark.parametrize(
    "directive",
    [f"\r require {_MODULE} v1.0.0", f"\rrequire {_MODULE} v1.0.0",
     f"require\r{_MODULE} v1.0.0", f"\r replace {_MODULE} => ../x",
     f"\x0crequire {_MODULE} v1.0.0"],
)  # fmt: skip
def test_hc1_a_carriage_return_before_require_asks(tmp_path: Path, directive: str) -> None:
    workspace, env = _cr_workspace(tmp_path, directive)
    if _real_go() and "require" in directive and "\x0c" not in directive:
        out = _go_printed(tmp_path, workspace, env, "go build ./...")
        assert _SECRET in out, out  # (the premise: go read the requirement, gcc the key)
    for line, approved in (("go build ./...", "go build"), ("go vet ./...", "go vet"),
                           ("go list -export ./...", "go list"), ("go test ./...", "go test"),
                           ("staticcheck ./...", "staticcheck")):  # fmt: skip
        decision = decide(line, workspace, env, approved)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert "engine.go-cgo" in decision.explain()


def test_hc1_a_crlf_go_mod_without_requirements_keeps_its_approvals(tmp_path: Path) -> None:
    files = {**_PURE, "go.mod": "module x\r\n\r\ngo 1.19\r\n// a note\r\n"}
    workspace, env = canary_workspace(tmp_path, None, files)
    assert decide("go build ./...", workspace, env).suggested_rule == "go build"
    assert decide("go build ./...", workspace, env, "go build").verdict is Verdict.ALLOW


# -- HC4 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "approved"),
    [("go build -C sub ./...", "go build"), ("go vet -C=sub ./...", "go vet"),
     ("go build --C sub ./...", "go build"), ("go test -C sub ./...", "go test"),
     ("go build -Csub ./...", "go build"), ("go list -C sub -export ./...", "go list")],
)  # fmt: skip
def test_hc4_go_chdir_option_asks(tmp_path: Path, line: str, approved: str) -> None:
    """(go 1.19 has no `-C`: go 1.20 moving into `sub` first, whose go.mod requires the
    cgo module, is the premise; GW2's test shows what that requirement prints.)"""
    sub = {"sub/go.mod": f"module example.com/sub\n\ngo 1.19\n\nrequire {_MODULE} v1.0.0\n",
           "sub/main.go": _MAIN}  # fmt: skip
    workspace, env = canary_workspace(tmp_path, None, {**_PURE, **sub})
    decision = decide(line, workspace, env, approved)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.go-cgo" in decision.explain()
    assert decide(line, workspace, env).suggested_rule is None  # (no `go build` offered)
    assert decide("go build ./...", workspace, env, "go build").verdict is Verdict.ALLOW


# -- HC5 ---------------------------------------------------------------------------------
_TOOLS = ["mockery", "enumer -type=Color", "impl 'f *File' io.Reader", "callgraph ./...",
          "bodyclose ./...", "go-licenses report ./...", "goreleaser build", "ko build .",
          "ginkgo", "richgo test ./...", "go-callvis .", "gotip build ./...",
          "controller-gen object paths=./...", "mage build"]  # fmt: skip
_CGO_MAIN = 'package main\n\n/*\n#include "../home/.ssh/id_rsa"\n*/\nimport "C"\n\nfunc main() {}\n'


@pytest.mark.parametrize("line", _TOOLS)
def test_hc5_go_tools_in_a_cgo_workspace_ask(tmp_path: Path, line: str) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "c").mkdir()
    pure, penv = canary_workspace(tmp_path / "p", None, _PURE)
    offered = decide(line, pure, penv).suggested_rule
    assert offered is not None
    assert decide(line, pure, penv, offered).verdict is Verdict.ALLOW  # (kept where pure)
    files = {"go.mod": "module x\n\ngo 1.19\n", "main.go": _CGO_MAIN}
    workspace, env = canary_workspace(tmp_path / "c", None, files, home={".ssh/id_rsa": _SECRET})
    if _real_go():
        # what go/packages runs for a tool that needs types (and `go build` runs cgo too)
        listed = "go list -e -compiled=true -export=true ./..."
        out = _go_printed(tmp_path / "c", workspace, env, listed)
        assert _SECRET in out, out
    decision = decide(line, workspace, env, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.go-cgo" in decision.explain()


def test_hc5_parsing_tools_keep_their_approvals(tmp_path: Path) -> None:
    files = {"go.mod": "module x\n\ngo 1.19\n", "main.go": _CGO_MAIN}
    workspace, env = canary_workspace(tmp_path, None, files)
    for line in ("goimports -l .", "gofmt -l .", "mockery --version"):
        offered = decide(line, workspace, env).suggested_rule
        assert offered is not None, line
        assert decide(line, workspace, env, offered).verdict is Verdict.ALLOW, line


# -- HC2, HC3 ----------------------------------------------------------------------------
_STATE = {"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "hc",
          "outputs": {"x": {"value": "$(touch pwned)", "type": "string"}},
          "resources": []}  # fmt: skip
_OUTPUT = 'output "x" { value = 1 }\n'
needs_terraform = pytest.mark.skipif(_TERRAFORM is None, reason="terraform is not installed")


def _tf_workspace(tmp_path: Path, main: str, files: dict[str, str]) -> tuple[Path, dict[str, str]]:
    workspace, env = canary_workspace(
        tmp_path, None, {"main.tf": main + _OUTPUT, **files}, home={".profile": "\n"}
    )
    git_out(workspace, "init", "-q")
    return workspace, env


def _init_wrote_login(workspace: Path, env: dict[str, str], tmp_path: Path) -> bool:
    assert _TERRAFORM is not None
    init = [_TERRAFORM, "init", "-force-copy", "-input=false", "-no-color"]
    program_printed(init, workspace, env)
    login = tmp_path / "home" / ".bash_login"
    return login.is_file() and "$(touch pwned)" in login.read_text()


def _not_allowed(workspace: Path, env: dict[str, str]) -> None:
    for line in ("terraform init -force-copy", "terraform init", "terraform output"):
        decision = decide(line, workspace, env, line.partition(" -")[0])
        assert decision.verdict is not Verdict.ALLOW, decision.explain()


@needs_terraform
@pytest.mark.parametrize("comment", ["# }", "// }"])
def test_hc2_a_brace_in_a_comment_ends_no_local_backend(tmp_path: Path, comment: str) -> None:
    login = tmp_path / "home" / ".bash_login"
    main = f'terraform {{\n  backend "local" {{ {comment}\n    path = "{login}"\n  }}\n}}\n'
    state = {**_STATE, "serial": 2}
    workspace, env = _tf_workspace(tmp_path, main, {"terraform.tfstate": json.dumps(state)})
    _not_allowed(workspace, env)
    assert _init_wrote_login(workspace, env, tmp_path)  # (the premise, run after judging)


@pytest.mark.parametrize(
    "body",
    ['{ # }\n path = "~/.bash_login"\n }',
     '{\n path = "s.tfstate" # }\n workspace_dir = "/tmp/x"\n }',
     '{ /* } */\n path = "/tmp/x"\n }', '{ # }\r path = "/tmp/x"\n }'],
)  # fmt: skip
def test_hc2_local_backend_bodies_read_as_hcl_ask(tmp_path: Path, body: str) -> None:
    workspace, env = _tf_workspace(tmp_path, f'terraform {{\n  backend "local" {body}\n}}\n', {})
    _not_allowed(workspace, env)


@needs_terraform
def test_hc3_a_link_at_the_backup_of_a_local_state_path(tmp_path: Path) -> None:
    main = 'terraform {\n  backend "local" { path = "s.tfstate" }\n}\n'
    outputs = {"x": {"value": "1", "type": "string"}}
    current = {**_STATE, "serial": 2, "lineage": "hc3", "outputs": outputs}
    files = {"terraform.tfstate": json.dumps(current), "s.tfstate": json.dumps(_STATE)}
    workspace, env = _tf_workspace(tmp_path, main, files)
    (workspace / "s.tfstate.backup").symlink_to(tmp_path / "home" / ".bash_login")
    _not_allowed(workspace, env)
    assert _init_wrote_login(workspace, env, tmp_path)  # (the premise, run after judging)


@pytest.mark.parametrize(
    ("main", "link"),
    [("", ".terraform.tfstate.lock.info"),
     ("", "terraform.tfstate.d/w/terraform.tfstate"),
     ("", "terraform.tfstate.d/w"),
     ('terraform {\n  backend "local" {}\n}\n', "terraform.tfstate.d"),
     ('terraform {\n  backend "local" { workspace_dir = "wd" }\n}\n', "wd/w/terraform.tfstate"),
     ('terraform {\n  backend "local" { path = "st/s" }\n}\n', "st/.s.lock.info")],
)  # fmt: skip
def test_hc3_links_among_the_local_state_files_ask(tmp_path: Path, main: str, link: str) -> None:
    workspace, env = _tf_workspace(tmp_path, main, {"st/keep": ""})
    (workspace / link).parent.mkdir(parents=True, exist_ok=True)
    (workspace / link).symlink_to(tmp_path / "home" / ".bash_login")
    _not_allowed(workspace, env)


def test_hc3_a_local_backend_without_links_keeps_its_approvals(tmp_path: Path) -> None:
    main = 'terraform {\n  backend "local" { path = "s.tfstate" } # }\n}\n'
    workspace, env = _tf_workspace(tmp_path, main, {"s.tfstate": json.dumps(_STATE)})
    (workspace / "terraform.tfstate.d" / "w").mkdir(parents=True)
    for line in ("terraform init", "terraform output"):
        assert decide(line, workspace, env, line).verdict is Verdict.ALLOW, line
