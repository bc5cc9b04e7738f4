"""Review GF: formatters under the approvals the engine offers for them.

GF1: an approved formatter reads the files below the folder it is given, or the one it
runs in when it is given none, by their names, and a committed link named like one
(`x.tf -> .env`) had it print the protected file: `terraform fmt -diff` showed `.env` in
its diff; only a program no rule names, given a folder, had its links looked at. GF2: the
same link out of the workspace had `terraform fmt` rewrite a file there. GF3: rustfmt
(`cargo fmt`) parses every file the sources and the manifest name (`#[path = "../.env"]
mod y;`, a `[[bin]]` target's `path`) and prints the line it fails on, so it is a
compiler for reads: no approval covers it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_CANARY = "CANARY_GF"
_TERRAFORM = shutil.which("terraform")


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    main = 'variable "a" {\n  default = "x"\n}\n'
    return canary_workspace(tmp_path, f'TOKEN="{_CANARY}"\n', {"main.tf": main})


def _env_linked(workspace: Path, link: str) -> None:
    """`link` (its folders made) in `workspace`, a link to its `.env`."""
    target = workspace / link
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(workspace / ".env")


def _not_allowed(line: str, workspace: Path, env: dict[str, str], approval: str) -> None:
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_gf1_terraform_fmt_offered_for_a_plain_workspace_is_approved(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    offered = decide("terraform fmt -diff", workspace, env).suggested_rule
    assert offered == "terraform fmt"
    (workspace / "alias.tf").symlink_to("main.tf")  # a link inside, to a plain file
    for line in ("terraform fmt", "terraform fmt -diff", "terraform fmt -check ."):
        decision = decide(line, workspace, env, offered)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("line", ["terraform fmt -diff", "terraform fmt -diff .", "terraform fmt"])
@pytest.mark.parametrize("name", ["x.tf", "x.tfmock.hcl", "x.tftest.hcl", "x.tfvars"])
def test_gf1_a_link_named_like_a_source_to_a_protected_file(
    tmp_path: Path, line: str, name: str
) -> None:
    # (`.tfmock.hcl`, which terraform 1.11 formats too: review GJ1)
    workspace, env = _workspace(tmp_path)
    (workspace / name).symlink_to(".env")
    if _TERRAFORM is not None:  # what terraform does: the diff prints `.env`
        assert _CANARY in program_printed([_TERRAFORM, "fmt", "-diff", "-no-color"], workspace)
    _not_allowed(line, workspace, env, "terraform fmt")


@pytest.mark.parametrize(
    ("line", "approval", "link"),
    [
        ("deno fmt --check", "deno fmt", "src/x.ts"),
        ("prettier --check src", "prettier", "src/x.js"),
        ("gofmt -d .", "gofmt", "pkg/x.go"),
        ("biome format", "biome format", "x.json"),
    ],
)
def test_gf1_other_formatters_walking_a_link_to_a_protected_file(
    tmp_path: Path, line: str, approval: str, link: str
) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW
    _env_linked(workspace, link)
    _not_allowed(line, workspace, env, approval)


def test_gf2_a_link_out_of_the_workspace_is_judged_as_written(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    outside = tmp_path / "home" / "infra"  # (another project of the user's)
    outside.mkdir()
    victim = outside / "main.tf"
    victim.write_text('variable "b" {\ndefault="y"\n}\n')
    (workspace / "infra.tf").symlink_to(victim)
    if _TERRAFORM is not None:  # what terraform does: the file out there is rewritten
        before = victim.read_text()
        program_printed([_TERRAFORM, "fmt"], workspace)
        assert victim.read_text() != before
        victim.write_text(before)
    _not_allowed("terraform fmt", workspace, env, "terraform fmt")
    # a link out to a file of another name is none of terraform's business
    (workspace / "infra.tf").unlink()
    (workspace / "python").symlink_to("/usr/bin/env")
    assert decide("terraform fmt", workspace, env, "terraform fmt").verdict is Verdict.ALLOW


def _crate(workspace: Path, main: str, manifest: str = "") -> None:
    (workspace / "src").mkdir(exist_ok=True)
    (workspace / "Cargo.toml").write_text(
        '[package]\nname = "c"\nversion = "0.1.0"\nedition = "2021"\n' + manifest
    )
    (workspace / "src" / "main.rs").write_text(main)


@pytest.mark.parametrize(
    ("main", "manifest"),
    [
        ('#[path = "../.env"]\nmod y;\nfn main() {}\n', ""),
        ("fn main() {}\n", '[[bin]]\nname = "z"\npath = ".env"\n'),
    ],
)
def test_gf3_rustfmt_prints_the_files_the_sources_name(
    tmp_path: Path, main: str, manifest: str
) -> None:
    workspace, env = _workspace(tmp_path)
    _crate(workspace, main, manifest)
    cargo = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
    if Path(cargo).exists():  # what cargo fmt does: rustfmt's error shows `.env`'s line
        assert _CANARY in program_printed([cargo, "fmt"], workspace)
    for line in ("cargo fmt", "cargo fmt --check", "cargo +nightly fmt", "cargo -q fmt"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.suggested_rule is None, line
        for approval in ("cargo fmt", "cargo +nightly fmt", "cargo"):
            assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, approval)
    for line in ("rustfmt src/main.rs", "cargo-fmt --check"):
        assert decide(line, workspace, env, line.split()[0]).verdict is Verdict.ASK, line
    assert decide("rustfmt --version", workspace, env).verdict is not Verdict.DENY


@pytest.mark.parametrize(
    ("line", "approval", "link"),
    [
        # isort's `skip` setting replaces its default skips, which are not assumed
        ("isort --check", "isort", ".venv/x.py"),
        # eslint walks `node_modules` when told to (bare: its folder)
        ("eslint --no-ignore", "eslint", "node_modules/m/x.js"),
    ],
)
def test_gf1_folders_a_formatter_may_be_told_to_walk(
    tmp_path: Path, line: str, approval: str, link: str
) -> None:
    workspace, env = _workspace(tmp_path)
    _env_linked(workspace, link)
    _not_allowed(line, workspace, env, approval)
