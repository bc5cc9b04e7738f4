"""Review BZ: what bash expands or evaluates where the engine looked at other text.

BZ1: inside double quotes tree-sitter puts the blanks before an expansion into its node,
so `" ${_@P}"` was not seen as `${…}` and escaped the prompt-expansion and subscript
checks. BZ2: tree-sitter drops the first expansion of a here-document body that starts
with blanks. BZ4: bash evaluates every value stored in OPTIND, RANDOM, SRANDOM, SECONDS
and HISTCMD as arithmetic. BZ3: an arithmetic assignment spelt with quotes or line
continuations (`(( "PATH"=11 ))`). BZ5: a link to a folder lands the folder's files at
the link's name (`ln -s cfg .vscode`). Each line runs in a real bash beside its verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import approved, judged_and_run, run_real

from policylang import Verdict

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

# `${_@P}` decodes `\044(` to `$(` and runs it (printing on stderr, where a pattern or `:`
# does not swallow it)
_PAYLOAD = r": '\044(cat ~/.ssh/id_rsa >&2)'; "


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("AWS-MARKER\n")
    workspace = tmp_path / "ws"
    fake = workspace / "11" / "ls"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\necho FAKE-LS-11\n")
    fake.chmod(0o755)
    (workspace / "notes.txt").write_text("a[$(cat ~/.aws/credentials >&2)]\n")
    return home


def _run(line: str, home: Path) -> tuple[Verdict, str]:
    return judged_and_run(line, home.parent / "ws", home)


@pytest.mark.parametrize(
    "line",
    [
        _PAYLOAD + 'echo " ${_@P}"',
        _PAYLOAD + 'printf %s "$x ${_@P}"',
        _PAYLOAD + 'echo "\t${_@P}"',
        _PAYLOAD + 'echo "\\\n${_@P}"',
        _PAYLOAD + 'LC_ALL=" ${_@P}"',
        _PAYLOAD + 'case x in " ${_@P}") ;; esac',
        """echo " ${y[$'\\x24(cat ~/.ssh/id_rsa >&2)']}\"""",
        # BZ2: the here-document body starts with a blank or a tab
        _PAYLOAD + "cat <<-E\n\t${_@P}\n\tE",
        _PAYLOAD + ": <<E\n ${_@P}\nE",
        ": <<-E\n\t${CDPATH=$HOME}\n\tE\ncd .ssh && cat id_rsa",
    ],
)
def test_an_expansion_after_a_blank_is_seen(line: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert "SSH-MARKER" in printed  # what bash does with it
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    ['echo " $HOME"', 'echo "$x $y"', "cat <<E\nHi $USER and $1\nE", "cat <<E\nprice: $5\nE"],
)
def test_plain_expansions_after_blanks_stay_allowed(line: str, home: Path) -> None:
    verdict, _printed = _run(line, home)
    assert verdict is Verdict.ALLOW


def test_a_body_expansion_tree_sitter_drops_asks(home: Path) -> None:
    # tree-sitter gives ` $USER` no node: what it expands to cannot be judged (the same
    # shape printed `$GITHUB_TOKEN`); `$1` and the like run and assign nothing
    line = "cat <<E\n $USER and $1\nE"
    decision = approved().evaluate(line, workspace=str(home.parent / "ws"), env={"HOME": str(home)})
    assert decision.verdict is Verdict.ASK
    assert any("here-document body" in r.message for r in decision.reasons), decision.explain()


@pytest.mark.parametrize(
    "line",
    [
        "for OPTIND in a[\\$\\(cat\\ ~/.aws/credentials\\ \\>\\&2\\)]; do :; done",
        "for SECONDS in a[\\$\\(cat\\ ~/.aws/credentials\\ \\>\\&2\\)]; do :; done",
        "read OPTIND < notes.txt",
        "read RANDOM < notes.txt",
        "while read HISTCMD; do :; done < notes.txt",
    ],
)
def test_an_integer_variable_evaluates_what_is_stored_in_it(line: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert "AWS-MARKER" in printed
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "read OPTIND <<< PATH=11; ls",
        "for RANDOM in PATH=11; do :; done; ls",
        '(( "PATH"=11 )); ls',
        "(( PATH\\\n=11 )); ls",
        '[[ PA""TH=11 -eq 11 ]]; ls',
        ": ${x[PA\"\"TH=11]}; ls",
        "test -v 'x[PATH${x}=11]'; ls",
        "LC_ALL=([PATH''=11]=C); ls",
        'LC_ALL[PATH$""=11]=C; ls',
    ],
)
def test_path_assigned_by_evaluation_asks(line: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert "FAKE-LS-11" in printed  # bash ran the shipped `11/ls`
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line", ["(( i = 1 )); ls", "(( total += $n ))", "(( $a <= $b ))", "(( x = ${#a[@]} ))"]
)
def test_ordinary_arithmetic_stays_allowed(line: str, home: Path) -> None:
    verdict, _printed = _run(line, home)
    assert verdict is Verdict.ALLOW


@pytest.fixture
def payloads(home: Path) -> Path:
    workspace = home.parent / "ws"
    (workspace / "cfg").mkdir()
    (workspace / "cfg" / "tasks.json").write_text('{"tasks": []}\n')
    (workspace / "cg").mkdir()
    (workspace / "cg" / "config.toml").write_text('[build]\nrustc-wrapper = "./evil"\n')
    (workspace / "x" / ".vscode").mkdir(parents=True)
    (workspace / "x" / ".vscode" / "tasks.json").write_text('{"tasks": []}\n')
    (workspace / "vs").symlink_to("x/.vscode")
    return workspace


@pytest.mark.parametrize(
    ("approval", "line", "made"),
    [
        ("ln", "ln -s cfg .vscode", ".vscode/tasks.json"),
        ("ln", "ln -s x/.vscode", ".vscode/tasks.json"),
        ("ln", "ln -s x/.vscode .", ".vscode/tasks.json"),
        ("ln", "ln -s cg .cargo", ".cargo/config.toml"),
        ("cp", "cp -P vs .vscode", ".vscode/tasks.json"),
        ("cp", "cp --no-dereference vs .vscode", ".vscode/tasks.json"),
    ],
)
def test_a_link_to_a_folder_is_the_folder_written_at_its_name(
    payloads: Path, home: Path, approval: str, line: str, made: str
) -> None:
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved(approval).evaluate(line, workspace=str(payloads), env=environment)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    run_real(["bash", "-c", line], payloads, home)
    assert (payloads / made).is_file()  # the payload is now the active configuration


@pytest.mark.parametrize("line", ["ln -s cfg newlink", "ln -s ../cfg x/link", "ln -s cfg x"])
def test_other_links_stay_allowed(payloads: Path, home: Path, line: str) -> None:
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved("ln").evaluate(line, workspace=str(payloads), env=environment)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
