"""Review CN (of review CM's fixes and the approval oracle's): links one folder deeper
through a link (CN10), a submodule named like git's stores (CN11), repositories with
submodules no longer make every write ask (CN12); an unknown program's operands copied
into each other (CN9); option values that look like an exception (CN4, CN6, CN13);
wrappers with options first (CN8); `gem b` (CN7); JDK tools and binutils' plugins
(CN14, CN15); `dpkg-*` tools are no `dpkg` (CN16). Real runs with bash and cp."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import approved, bash_ran, canary_environment, copy_workspace, judge

from policylang import Verdict


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


@pytest.mark.parametrize(
    ("folder", "link"),
    [(".claude/sub", ".claude/sub/settings.json"), (".git/hooks", ".git/hooks/pre-commit")],
)
def test_cn10_a_link_inside_a_folder_a_link_leads_to(
    workspace: Path, folder: str, link: str
) -> None:
    (workspace / "tmpl").mkdir()
    (workspace / folder).parent.mkdir(parents=True, exist_ok=True)
    if (workspace / folder).exists():
        (workspace / folder).rmdir()
    (workspace / folder).symlink_to("../tmpl")
    (workspace / "tmpl" / Path(link).name).symlink_to("../x/c")
    line = "cp cfg/tasks.json x/c"
    decision = judge(line, workspace, "cp")
    assert decision.verdict is Verdict.DENY, decision.explain()
    bash_ran(line, workspace)
    assert "PWNED" in (workspace / link).read_text()


def test_cn11_a_submodule_named_like_a_store(workspace: Path) -> None:
    module = workspace / ".git" / "modules" / "logs"
    (module / "hooks").mkdir(parents=True)
    (module / "HEAD").write_text("ref: refs/heads/main\n")
    (module / "config").symlink_to("../../../x/c")
    line = "cp cfg/tasks.json x/c"
    decision = judge(line, workspace, "cp")
    assert decision.verdict is Verdict.DENY, decision.explain()
    bash_ran(line, workspace)
    assert "PWNED" in (module / "config").read_text()


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "protocol.file.allow=always", *args], cwd=cwd, check=True,
                   capture_output=True,
                   env={"HOME": str(cwd.parent / "home"), "PATH": "/usr/bin:/bin",
                        "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b",
                        "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"})


def test_cn12_writes_in_a_repository_with_submodules_stay_approvable(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    library = tmp_path / "lib"
    library.mkdir()
    _git("init", "-q", cwd=library)
    (library / "a.txt").write_text("a\n")
    _git("add", "a.txt", cwd=library)
    _git("commit", "-qm", "a", cwd=library)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    _git("init", "-q", cwd=workspace)
    # nested names (`vim/pack/plugins/start/x`, a dotfiles layout) and many of them
    for index in range(12):
        _git("submodule", "add", "-q", str(library), f"vim/pack/plugins/start/m{index}",
             cwd=workspace)
    (workspace / "notes.txt").write_text("n\n")
    (workspace / "docs").mkdir()
    decision = approved("cp").evaluate(
        "cp notes.txt docs/", workspace=str(workspace), env=canary_environment(workspace)
    )
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_cn9_an_unknown_program_s_folder_copied_into_the_workspace(workspace: Path) -> None:
    bin_folder = workspace.parent / "bin"
    bin_folder.mkdir()
    (bin_folder / "acme-copy").write_text('#!/bin/sh\ncp -r "$1"/. "$2"/\n')
    (bin_folder / "acme-copy").chmod(0o755)
    (workspace / "evil").mkdir()
    (workspace / "evil" / ".mcp.json").write_text('{"PWNED": 1}\n')
    env = canary_environment(workspace, PATH=f"{bin_folder}:/usr/bin:/bin")
    line = "acme-copy evil ."
    decision = approved("acme-copy").evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    bash_ran(line, workspace, env)
    assert "PWNED" in (workspace / ".mcp.json").read_text()
    elsewhere = approved("acme-copy").evaluate(
        "acme-copy cfg docs", workspace=str(workspace), env=env
    )
    assert elsewhere.verdict is Verdict.ALLOW, elsewhere.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("dar", "dar -l hd -B --version"), ("gpgtar", "gpgtar --gpg ./x.sh --gpg-args --help -t h"),
     ("munpack", "munpack -qC -h m.eml"), ("sshpass", "sshpass -p x sh x.sh"),
     ("sshpass", "sshpass -p x tar xf h.tar"), ("gem b", "gem b x.gemspec"),
     ("jwebserver", "jwebserver -J-javaagent:a.jar"),
     ("ar rcs", "ar rcs x.a f.o --plugin ./x.so"), ("nm", "nm --plugin ./x.so a.o")],
)  # fmt: skip
def test_cn_wider_uses_under_the_approval(workspace: Path, approval: str, line: str) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line", ["dpkg-query -W -f=x", "dpkg-buildpackage -i", "ar rcs x.a f.o", "nm a.o"]
)
def test_cn16_everyday_lines_keep_their_suggestion(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.suggested_rule is not None, decision.explain()
    assert not any(r.rule_id == "engine.archive-extract" for r in decision.reasons)


# review CO (of CN's fixes)
@pytest.mark.parametrize(
    ("approval", "line"),
    [("at", "at -ql -f x.sh now"), ("crontab", "crontab -ul x.cron"),
     ("gem BUILD", "gem BUILD x.gemspec"), ("gem Bu", "gem Bu x.gemspec")],
)
def test_co1_co2_case_and_values_inside_a_bundle(
    workspace: Path, approval: str, line: str
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["acme-copy ev* .vscode", "acme-copy evil -t.vscode", "acme-copy --dest=.vscode evil"],
)
def test_co3_an_unknown_program_s_globs_and_glued_targets(workspace: Path, line: str) -> None:
    (workspace / "evil").mkdir()
    (workspace / "evil" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / ".vscode").mkdir()
    decision = judge(line, workspace, "acme-copy")
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line", ["acme-lint . .vscode", "acme-site -s . -d public", "acme-fmt --write src/*.ts t/*.ts"]
)
def test_co4_an_unknown_program_s_everyday_operands(workspace: Path, line: str) -> None:
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "tasks.json").write_text("{}\n")  # (not copied onto itself)
    (workspace / "src").mkdir()
    (workspace / "src" / "a.ts").write_text("x\n")
    decision = judge(line, workspace, line.split()[0])
    assert decision.verdict is Verdict.ALLOW, decision.explain()
