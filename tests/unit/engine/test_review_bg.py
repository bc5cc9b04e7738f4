"""Review BG: property violations found with large fuzzing budgets (each line here was
allowed, or asked where a deny should hold, before the fix)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.engine.policy import Policy
from policylang.shell._exposure import _subscript_then_substitution

TAR_ACTION = "--checkpoint=1 --checkpoint-action=exec=touch\\ P"


def _verdict(policy: Policy, command: str, workspace: Path, **env: str) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin", **env}
    return policy.evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    "command",
    [
        "command -pp set -k; less LESSOPEN='|touch P %s' a.txt",  # BG1
        "command -ppp export LESSOPEN='|touch P %s'; less a.txt",
        "command -p -p eval 'cd ~/.aws'; cat credentials",
        f"builtin export TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar",  # BG2
        f"command export TAR_OPTIONS='{TAR_ACTION}' && tar tf x.tar",
        f"time export TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar",
        f"\\export TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar",  # BG3
        f"'export' TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar",
        f"ex''port TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar",
        "read ab < payload.txt; echo $((q[a${z}b]))",  # BG4
        'read ab < payload.txt; (( q[a$""b] ))',
        'read ab < payload.txt; [[ q[a$""b] -eq 1 ]]',
        "(( q[GITHUB_TO${z}KEN] ))",
    ],
)
def test_prefixed_or_quoted_builtins_and_joined_subscripts_ask(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    verdict = _verdict(default_policy, command, workspace, GITHUB_TOKEN="ghp-x")
    assert verdict is Verdict.ASK


def test_the_quoted_export_is_real(workspace: Path) -> None:
    """BG3: bash runs `export` for any spelling, and tar runs the checkpoint action while
    it only lists the archive."""
    (workspace / "a.txt").write_text("x\n")
    subprocess.run(["tar", "cf", "x.tar", "a.txt"], cwd=workspace, check=True)
    line = f"'export' TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar"
    subprocess.run(["bash", "-c", line], cwd=workspace, capture_output=True, timeout=20)
    assert (workspace / "P").exists()


@pytest.mark.parametrize(
    "command",
    [
        "git log '-L1,1:.env' HEAD~1",  # BG5
        'git log "-L1,1:.env" HEAD~1',
        "git log \\-L1,1:.env HEAD~1",
        "git show '-L1,1:.env' HEAD~1",
        "time A=1 cat .env",  # BG10
        "time -p A=1 rm -rf ~",
        "f() { cat credentials; cd ~/.aws; }; f; f",  # BG14
    ],
)
def test_spellings_that_lost_a_deny(default_policy: Policy, workspace: Path, command: str) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.DENY


@pytest.mark.parametrize(
    "command",
    [
        "export FOO=1",
        "command -v git",
        "time ls",
        "echo $((i + 1))",
        "set -- a b",
        "git log -L1,5:src/a.py",
    ],
)
def test_everyday_forms_keep_their_verdict(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    expected = {"export FOO=1": Verdict.ASK}.get(command, Verdict.ALLOW)
    assert _verdict(default_policy, command, workspace) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a[$(x)]", True),
        ("a[b[1]+`x`]", True),
        ("$(x) a[1]", False),
        ("a[1]", False),
        ("a[" * 5000, False),  # linear now: a lazy `NAME[.*?$(` was quadratic (BG6)
        ("a[" * 5000 + "$(x)", True),
    ],
)
def test_a_subscript_before_a_substitution(value: str, expected: bool) -> None:
    assert _subscript_then_substitution(value) is expected


# ----------------------------------------------------------------- review BI (of the above)


@pytest.mark.parametrize(
    "command",
    [
        f"2>/dev/null export TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar",  # BI1
        f"! export TAR_OPTIONS='{TAR_ACTION}'; tar tf x.tar",
        'read ab < payload.txt; unset "DIRSTACK"[ab]',  # BI2
        "read ab < payload.txt; unset \\DIRSTACK[ab]",
        'read ab < payload.txt; unset DIRSTACK""[ab]',
    ],
)
def test_declarations_after_a_redirect_and_quoted_subscripted_names_ask(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.ASK


@pytest.mark.parametrize(
    "command",
    ['cd "$(echo bin)" && bash -lc true', "for d in bin; do cd $d; done; id"],
)
def test_a_relative_path_entry_under_an_unknown_directory_asks(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BI3: a relative PATH entry was joined only with the known cwd candidates."""
    (workspace / "bin").mkdir()
    assert _verdict(default_policy, command, workspace, PATH=":/usr/bin:/bin") is Verdict.ASK


def test_a_crowded_path_folder_is_not_taken_for_empty(
    default_policy: Policy, workspace: Path
) -> None:
    """BI4: the helper scans stopped after 256 entries and concluded "nothing found"."""
    folder = workspace / "bin3"
    folder.mkdir()
    for index in range(300):
        (folder / f"pad{index:04}").write_text("")
    for name in ("git-lfs", "grep"):
        program = folder / name
        program.write_text("#!/bin/sh\necho planted\n")
        program.chmod(0o755)
    path = f"{folder}:/usr/bin:/bin"
    assert _verdict(default_policy, "git status", workspace, PATH=path) is Verdict.ASK
    assert _verdict(default_policy, "zgrep hi a.gz", workspace, PATH=path) is Verdict.ASK


def test_a_printf_that_would_print_more_than_a_line_is_not_expanded() -> None:
    """BI6: `printf '<45K>%s' a×27000 | bash` built 1.2 GB of fed code."""
    from policylang.engine.evaluate import _printed

    assert _printed("x" * 45_000 + "%s", ["a"] * 27_000) is None
    assert _printed("%s\\n", ["rm -rf ~"]) == "rm -rf ~\n"
