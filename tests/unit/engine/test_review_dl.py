"""Review DL: bypasses and regressions of the fixes of review DK.

DL1 a header's quoted includes are looked for beside the path as named, not beside the
file a link leads to; DL2 include folders (`-I src/lnk/..`, `CPATH`) where the kernel
leads them; DL3 `PERL5OPT` words after a `-Mlib=/abs`; DL5 an option's value in a global
git setting (`--lesskey-file=~/.lesskey`) is no work-tree path; DL6 `/bin/sh
.githooks/fsm`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, default_verdict, env_beside, run_printed, scan_judge

from policylang import Verdict, load_policy


def _linked_headers(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "vend" / "deep").mkdir(parents=True)
    (workspace / "vend" / "deep" / "real.h").write_text('#include "sub.h"\n')
    (workspace / "vend" / "deep" / "sub.h").write_text("/* harmless */\n")
    (workspace / "vend" / "m.h").write_text(f'#include "{secret}"\n')
    (workspace / "src").mkdir()
    (workspace / "src" / "sub.h").write_text(f'#include "{secret}"\n')
    (workspace / "src" / "h.h").symlink_to("../vend/deep/real.h")
    (workspace / "src" / "main.c").write_text('#include "h.h"\n')
    (workspace / "src" / "lnk").symlink_to("../vend/deep")
    (workspace / "src" / "m2.c").write_text('#include "m.h"\n')
    return workspace


@pytest.mark.parametrize(
    ("line", "extra"),
    [("cpp src/main.c", {}), ("gcc -E src/main.c", {}), ("cpp -I src/lnk/.. src/m2.c", {}),
     ("cpp -Isrc/lnk/.. src/m2.c", {}), ("cpp src/m2.c", {"CPATH": "src/lnk/.."})],
)  # fmt: skip
def test_dl1_dl2_headers_where_the_compiler_finds_them(
    tmp_path: Path, line: str, extra: dict[str, str]
) -> None:
    workspace = _linked_headers(tmp_path)
    env = env_beside(tmp_path, **extra)
    assert "AKIASECRET" in run_printed(line, workspace, env)  # the real compiler
    policy = load_policy()
    policy.approvals.add(line.split()[0], persist=False)
    decision = policy.evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "options", ["-Mlib=/opt -d", "-Mlib=/opt -Mblib", "-Mlib=/opt -Mif=1,lib,x"]
)
def test_dl3_perl5opt_words_after_a_lib_of_absolute_folders(tmp_path: Path, options: str) -> None:
    workspace = copy_workspace(tmp_path)
    policy = load_policy()
    policy.approvals.add("shasum", persist=False)
    env = env_beside(tmp_path, PERL5OPT=options)
    decision = policy.evaluate("shasum x.txt", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()


def _repository(workspace: Path, env: dict[str, str]) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True)


@pytest.mark.parametrize(
    ("config", "verdict"),
    [("[core]\n\tpager = less --lesskey-file=~/.lesskey\n", Verdict.ALLOW),
     ('[core]\n\tsshCommand = ssh -o UserKnownHostsFile=~/.ssh/kh\n', Verdict.ALLOW),
     ("[core]\n\tpager = less --lesskey-file=$HOME/.lesskey\n", Verdict.ALLOW),
     ("[core]\n\tfsmonitor = /bin/sh .githooks/fsm\n", Verdict.ASK),
     ("[core]\n\tfsmonitor = sh .githooks/fsm\n", Verdict.ASK)],
)  # fmt: skip
def test_dl5_dl6_global_git_values(tmp_path: Path, config: str, verdict: Verdict) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b",
                     GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@b")  # fmt: skip
    _repository(workspace, env)
    (tmp_path / "home" / ".gitconfig").write_text(config)
    for line in ("git status", "git log -1"):
        assert default_verdict(line, workspace, env) is verdict, (config, line)


def test_dl_ordinary_headers_stay_approved(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "inc").mkdir()
    (workspace / "inc" / "a.h").write_text('#include "b.h"\n')
    (workspace / "inc" / "b.h").write_text("#define B 1\n")
    (workspace / "m.c").write_text('#include "a.h"\nint main(void) { return B; }\n')
    assert scan_judge("cpp -Iinc m.c", workspace, "cpp").verdict is Verdict.ALLOW
