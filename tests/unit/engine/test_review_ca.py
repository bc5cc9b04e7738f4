"""Review CA: review BZ's fixes and the archivers, again.

CA1: a here-document body line that starts with `\\⏎` or `\\ ` then `#` is a comment for
tree-sitter and body text for bash (`cat <<E⏎\\⏎#${_@P}⏎E` ran a command). CA2: an
arithmetic name spelt with `\\` escapes or `$'…'` (`[[ P\\ATH=11 -eq 11 ]]`). CA3: `zip
-R` matches its operands below `.`, and `--recurse-paths` is `-r`. CA4: `gzip -rc`,
`zstd -rc` print every file below, through links. CA5: an approved program no rule
describes may follow the links below a folder it is given. Each line runs for real."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import approved, git_ok, judged_and_run, run_real

from policylang import Verdict

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("AWS-MARKER\n")
    workspace = tmp_path / "ws"
    for folder in ("10", "11"):
        fake = workspace / folder / "ls"
        fake.parent.mkdir(parents=True)
        fake.write_text(f"#!/bin/sh\necho FAKE-LS-{folder}\n")
        fake.chmod(0o755)
    (workspace / ".env").write_text("TOKEN=ENV-MARKER\n")
    (workspace / "docs").mkdir()
    (workspace / "docs" / "a.md").write_text("a\n")
    (workspace / "fix").mkdir()
    (workspace / "fix" / "hl").symlink_to(home)  # a link a repository may ship
    return home


def _run(line: str, home: Path) -> tuple[Verdict, str]:
    return judged_and_run(line, home.parent / "ws", home)


@pytest.mark.parametrize(
    "line",
    [
        ": '\\044(cat ~/.ssh/id_rsa)'; cat <<E\n\\\n#${_@P}\nE",
        ": '\\044(cat ~/.ssh/id_rsa)'; cat <<E\n\\  #${_@P}\nE",
        ": <<E\n\\\n#${CDPATH=$HOME}\nE\ncd .ssh && cat id_rsa",
    ],
)
def test_a_body_line_tree_sitter_reads_as_a_comment_asks(line: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert "SSH-MARKER" in printed
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "[[ P\\ATH=11 -eq 11 ]]; ls",
        "[[ 1 -eq PA\\TH=11 ]]; ls",
        "LC_ALL=([$'\\x50ATH=11']=C); ls",
    ],
)
def test_an_arithmetic_name_spelt_with_escapes_asks(line: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert "FAKE-LS-11" in printed
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    ("approval", "line", "marker"),
    [
        ("zip", "zip -0R - '.e*'", "ENV-MARKER"),
        ("zip", "zip -0 --recurse-paths - fix", "SSH-MARKER"),
        ("gzip", "gzip -rc fix | gzip -dc", "SSH-MARKER"),
        ("gzip", "gzip -rc . | gzip -dc", "ENV-MARKER"),
        ("gzip", "gzip --recursive --stdout fix | gzip -dc", "SSH-MARKER"),
    ],
)
def test_recursive_archivers_do_not_reach_protected_files(
    home: Path, approval: str, line: str, marker: str
) -> None:
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    if shutil.which(line.split()[0]) is not None:
        # (the archive is binary: its bytes are shown as text)
        done = run_real(["bash", "-c", line + " | tr -c '[:print:]\\n' ."], workspace, home)
        assert marker in done.stdout


@pytest.mark.parametrize(
    ("approval", "line"),
    [("zip", "zip -r -y x.zip docs"), ("gzip", "gzip -rc docs"), ("zip", "zip x.zip docs/a.md")],
)
def test_archivers_of_clean_folders_stay_allowed(home: Path, approval: str, line: str) -> None:
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_an_approved_unknown_program_does_not_follow_a_link_out(home: Path) -> None:
    workspace = home.parent / "ws"
    script = workspace / "pack.sh"
    script.write_text('#!/bin/sh\ncat "$1"/*/.ssh/id_rsa\n')
    script.chmod(0o755)
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    policy = approved(str(script))
    assert policy.evaluate("./pack.sh docs", workspace=str(workspace), env=environment).verdict is (
        Verdict.ALLOW
    )
    decision = policy.evaluate("./pack.sh fix", workspace=str(workspace), env=environment)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert "SSH-MARKER" in run_real(["bash", "-c", "./pack.sh fix"], workspace, home).stdout


@pytest.mark.parametrize("line", ["git mv cfg .vscode --", "git mv cfg -- .vscode"])
def test_git_mv_operands_on_both_sides_of_the_separator(home: Path, line: str) -> None:
    # CA6: the words before `--` that are no options are operands too
    workspace = home.parent / "ws"
    (workspace / "cfg").mkdir()
    (workspace / "cfg" / "tasks.json").write_text('{"tasks": []}\n')
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "add", "cfg")
    git_ok(workspace, "commit", "-qm", "payload")
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved("git mv").evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert run_real(["bash", "-c", line], workspace, home).returncode == 0
    assert (workspace / ".vscode" / "tasks.json").is_file()


@pytest.mark.parametrize("line", ["7z a -r -so x.7z '*env'", "7z a x.7z '*env'"])
def test_seven_zip_wildcards_are_matched_where_it_looks(home: Path, line: str) -> None:
    # CA7: 7-Zip matches a quoted wildcard itself (`*` matches `.env`), below `.` with
    # `-r`; 7-Zip is not installed here, so the verdict alone
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved("7z a").evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is Verdict.DENY, decision.explain()
