"""Review DE: what the default ruleset allowed without any approval, program by program.

DE1 `file -m A:B` reads each magic file of the list; DE2 `rg --type-add` whitelists hidden
names as `-g` does; DE3 `rg --ignore-file` may re-include hidden names; DE4 an ignore
file above the workspace; DE5 zgrep reads its options as its script does; DE6 `LANGUAGE`
names message catalogs by path (DE7: tests/unit/engine/test_review_dd.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, default_verdict, env_beside, run_printed

from policylang import Verdict


def _secrets(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    aws_secret(tmp_path)
    (workspace / ".env").write_text("SECRET=topsecret\n")
    (workspace / "README").write_text("hello\n")
    return workspace


@pytest.mark.parametrize(
    "line",
    ["file -m README:../home/.aws/credentials README", "file -m /dev/null:.env README",
     "file -m/dev/null:.env README", "file --magic-file=README:../home/.aws/credentials README"],
)  # fmt: skip
def test_de1_each_magic_file_of_the_list_is_read(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    printed = run_printed(line, workspace, env_beside(tmp_path))
    assert "AKIASECRET" in printed or "topsecret" in printed  # the real `file` printed it
    assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.DENY


def test_de1_ordinary_file_lines_hold(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    for line in ("file README", "file -m /usr/share/misc/magic README", "file -b README"):
        assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.ALLOW, line


@pytest.mark.parametrize(
    "line",
    ["rg --type-add e:.env -te SECRET", "rg --type-add 'e:.env*' -te .",
     "rg -te --type-add=e:.env SECRET", "rg --ignore-file <(echo '!.env') SECRET",
     "echo '!.env' | rg --ignore-file /dev/stdin SECRET ."],
)  # fmt: skip
def test_de2_de3_rg_options_that_reach_hidden_files(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    assert "topsecret" in run_printed(line, workspace, env_beside(tmp_path))  # the real rg
    assert default_verdict(line, workspace, env_beside(tmp_path)) is not Verdict.ALLOW


def test_de4_an_ignore_file_above_the_workspace(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    assert default_verdict("rg SECRET", workspace, env_beside(tmp_path)) is Verdict.ALLOW
    (tmp_path / ".ignore").write_text("!.env\n")
    assert "topsecret" in run_printed("rg SECRET", workspace, env_beside(tmp_path))
    assert default_verdict("rg SECRET", workspace, env_beside(tmp_path)) is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    ["zgrep -e '' --group-separator ../home/.aws/credentials -n",
     "zgrep --group-separator ../home/.aws/credentials -e ''",
     "zgrep -e SECRET --group-separator .env -n"],
)  # fmt: skip
def test_de5_zgrep_reads_its_options_as_its_script_does(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    printed = run_printed(line, workspace, env_beside(tmp_path))
    assert "AKIASECRET" in printed or "topsecret" in printed  # the real zgrep printed it
    assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.DENY


def test_de5_ordinary_zgrep_lines_hold(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    for line in ("zgrep -A 3 x README", "zgrep -e x README", "zgrep --regexp=x README",
                 "zgrep -m 2 x README", "zgrep --max-count 2 x README"):  # fmt: skip
        assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.ALLOW, line


@pytest.mark.parametrize(
    "line",
    ["LC_ALL=C.UTF-8 LANGUAGE=../../x ls nope", "LANGUAGE=../x git status",
     "env LANGUAGE=../x ls", "export LANGUAGE=../x; ls", "LANGUAGE=$PWD/x ls",
     "LC_MESSAGES=/tmp/x ls", "timeout 5 env LC_MESSAGES=./x ls"],
)  # fmt: skip
def test_de6_message_catalogs_named_by_path(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.ASK


def test_de6_ordinary_languages_hold(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    for line in ("LANGUAGE=de:en ls", "LC_TIME=de_DE.UTF-8 date", "env LANGUAGE=fr ls"):
        assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.ALLOW, line
