"""Review G (fifth round): byte-exact `$'…'`, sed labels and bytes, ps's BSD `e`, and a
repository config that makes `git blame` echo a file. Real files and real programs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from policylang.decision import Verdict
from policylang.engine.policy import Policy


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIASECRET\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "README.md").write_text("hello\n")
    # names whose UTF-8 bytes a `$'\xHH'` spells (a repository can ship such links)
    (ws / "é").symlink_to(home / ".aws")
    (ws / "è").symlink_to(home / ".aws" / "credentials")
    return ws, home


def _verdict(policy: Policy, world: tuple[Path, Path], command: str) -> Verdict:
    ws, home = world
    return policy.evaluate(command, workspace=ws, env={"HOME": str(home)}).verdict


@pytest.mark.parametrize(
    "command",
    [
        "cat $'\\xc3\\xa9'/credentials",
        "cat $'\\xc3\\xa8'",
        "cat $'\\303\\250'",
        "cat $'\\xc3'$'\\xa8'",  # one character split over two quotes
        "cd $'\\xc3\\xa9' && cat credentials",
        "grep -r SECRET $'\\xc3\\xa9'",
    ],
)
def test_byte_escapes_name_the_bytes_bash_passes(
    default_policy: Policy, world: tuple[Path, Path], command: str
) -> None:
    # G1: bash turns `\xc3\xa9` into the two bytes of `é`, not into the characters U+00C3 U+00A9
    assert _verdict(default_policy, world, command) is Verdict.DENY
    ws, home = world
    shown = subprocess.run(
        ["bash", "-c", command], cwd=ws, env={"HOME": str(home)}, capture_output=True, text=True
    )
    assert "AKIASECRET" in shown.stdout  # the case is real


def test_a_locale_dependent_escape_is_not_literal(
    default_policy: Policy, world: tuple[Path, Path]
) -> None:
    # `$'\u00e8'` is `è` in a UTF-8 locale and the text `\u00E8` in C
    assert _verdict(default_policy, world, "cat $'\\u00e8'") is not Verdict.ALLOW


@pytest.mark.skipif(shutil.which("sed") is None, reason="needs GNU sed")
@pytest.mark.parametrize(
    "script",
    [
        ":a e touch PWNED",  # G5: GNU sed ends a label at a blank
        "t x e touch PWNED\n:x",
        ":a\te touch PWNED",
    ],
)
def test_sed_label_followed_by_a_command(
    default_policy: Policy, world: tuple[Path, Path], script: str
) -> None:
    ws, _ = world
    command = f"sed -n '{script}' README.md"
    assert _verdict(default_policy, world, command) is not Verdict.ALLOW
    subprocess.run(["sed", "-n", script, "README.md"], cwd=ws, capture_output=True)
    assert (ws / "PWNED").exists()  # GNU sed ran the command the label hid


def test_sed_script_spelt_with_bytes_sed_reads_otherwise(
    default_policy: Policy, world: tuple[Path, Path]
) -> None:
    # G2: in the C locale sed reads bytes, and the C3 inside `é` closes the `s` early
    command = "LC_ALL=C sed -n $'s\\xc3A'é$'B\\xc3\\ne touch PWNED\\n#\\xc3' README.md"
    assert _verdict(default_policy, world, command) is not Verdict.ALLOW
    ws, home = world
    subprocess.run(["bash", "-c", command], cwd=ws, env={"HOME": str(home)}, capture_output=True)
    assert (ws / "PWNED").exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the real git")
def test_blame_ignore_revs_file_in_the_repository_config(
    default_policy: Policy, world: tuple[Path, Path]
) -> None:
    # G4: git blame prints the first line of that file in its error
    ws, home = world
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    assert _verdict(default_policy, world, "git blame README.md") is Verdict.ALLOW
    secret = home / ".aws" / "credentials"
    subprocess.run(["git", "config", "blame.ignoreRevsFile", str(secret)], cwd=ws, check=True)
    assert _verdict(default_policy, world, "git blame README.md") is Verdict.ASK
    assert _verdict(default_policy, world, "git annotate README.md") is Verdict.ASK
