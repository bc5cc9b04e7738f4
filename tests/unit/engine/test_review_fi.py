"""Review FI: bash builtins under the approvals the engine suggests.

Found before the review, while writing its brief: builtins without a rule ask as unknown
commands and suggest their bare name, so an approval of `mapfile -t a < README` covered
`mapfile -C CODE`, which evaluates CODE, and approvals of `history 5` and `fc -l` covered
`history -s CMD; fc -s`, which runs CMD (`fc -e EDITOR` runs EDITOR, then the commands)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import bash_ran, canary_environment, copy_workspace, judge

from policylang import Verdict


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / "README").write_text("one\ntwo\n")
    return workspace


def test_mapfile_is_offered_its_name(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    decision = judge("mapfile -t a < README", workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == "mapfile"
    assert judge("mapfile -t a < README", workspace, "mapfile").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "mapfile -C 'touch pwned' -c 1 a < README",
        "mapfile -tC 'touch pwned' -c1 a < README",
        "mapfile -tC'touch pwned' -c1 a < README",
        "readarray -c1 -C 'touch pwned' a < README",
    ],
)
def test_a_mapfile_callback_asks_under_its_approval(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(line, workspace, "mapfile", "readarray")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "shell-mapfile-callback" in decision.explain()
    bash_ran(line, workspace)
    assert (workspace / "pwned").exists()  # (the premise: bash ran the callback)


@pytest.mark.parametrize(
    "line", ["history -s 'touch pwned'; fc -s", "fc -e 'touch pwned'", "fc -l", "fc"]
)
def test_fc_is_a_locked_ask(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(line, workspace, "history", "fc")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None


def test_history_then_fc_runs_the_command(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    bash_ran("history -s 'touch pwned'; fc -s", workspace)
    assert (workspace / "pwned").exists()  # (the premise of the locked ask above)


# --- the review's findings (FI1-FI9)


def _printed(line: str, workspace: Path) -> str:
    done = subprocess.run(["bash", "-c", line], cwd=workspace, capture_output=True,
                          text=True, timeout=30, env=canary_environment(workspace))  # fmt: skip
    return done.stdout + done.stderr


def test_fi1_enable_loads_a_workspace_object_by_name(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    source = workspace / "evil.c"
    source.write_text(
        '#include <stdio.h>\n__attribute__((constructor)) static void ran(void) {\n'
        '  FILE *f = fopen("pwned", "w"); if (f) fclose(f); }\n'
    )
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(workspace / "evil"), str(source)],
                   check=True, capture_output=True, timeout=60)  # fmt: skip
    for line in ("enable evil", "enable ./evil", "enable -n evil", "builtin enable evil"):
        decision = judge(line, workspace, "enable")
        assert decision.verdict is Verdict.ASK, decision.explain()
    assert judge("enable -a", workspace).suggested_rule == "enable"
    _printed("enable evil", workspace)
    assert (workspace / "pwned").exists()  # (the object's constructor ran)


@pytest.mark.parametrize(
    "line",
    ["compgen -W \\$\\(touch\\ pwned\\) ''", "compgen -W $'\\x24(touch pwned)' ''",
     "compgen -aW \\$\\(touch\\ pwned\\) ''", "compgen -W '$GITHUB_TOKEN' ''"],
)  # fmt: skip
def test_fi2_compgen_expands_its_word_list(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    assert judge("compgen -W 'a b' a", workspace).suggested_rule is None
    decision = judge(line, workspace, "compgen")
    assert decision.verdict is Verdict.ASK, decision.explain()
    printed = _printed(line, workspace)
    assert (workspace / "pwned").exists() or "ghp_CANARY" in printed


@pytest.mark.parametrize(
    "line", ["bind '$include secret.txt'", "bind -f x.inputrc", "bind -f secret.txt"]
)
def test_fi3_bind_prints_the_lines_of_a_file(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "secret.txt").write_text("CANARY_FI3\nmore\n")
    (workspace / "x.inputrc").write_text("$include secret.txt\n")
    assert judge("bind -l", workspace).suggested_rule == "bind"
    decision = judge(line, workspace, "bind")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "CANARY_FI3" in _printed(line, workspace)


@pytest.mark.parametrize(
    "line",
    ["read HISTFILE HISTFILESIZE < trunc.txt",
     "printf -v HISTFILE %s target; printf -v HISTFILESIZE %s 0",
     "printf -v HISTFILE %s target; (( HISTFILESIZE=0 ))",
     "for HISTFILE in target; do read HISTFILESIZE <<< 0; done"],
)  # fmt: skip
def test_fi5_assigning_histfilesize_truncates_histfile(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "target").write_text("keep me\n")
    (workspace / "trunc.txt").write_text("target 0\n")
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()
    _printed(line, workspace)
    assert (workspace / "target").read_text() == ""  # (bash emptied it)


@pytest.mark.parametrize(
    ("line", "approval"),
    [("read HISTFILE < path.txt; history -r; history", "history"),
     ("read INPUTRC < path.txt; bind -l", "bind"),
     ("read HOSTFILE < path.txt; compgen -A hostname", "compgen")],
)  # fmt: skip
def test_fi4_fi6_fi7_files_named_by_builtin_assignments(
    tmp_path: Path, line: str, approval: str
) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "secret.txt").write_text("CANARY_FI4\n")
    (workspace / "path.txt").write_text("secret.txt\n")
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "CANARY_FI4" in _printed(line, workspace)


def test_fi9_kill_l_lists_and_sends_nothing(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    for line in ("kill -l", "kill -l 9", "kill -L"):
        decision = judge(line, workspace)
        assert decision.verdict is Verdict.ALLOW, decision.explain()
    assert judge("kill -9 1234", workspace).verdict is Verdict.ASK
    # (the premise: a process named after `-l` stays alive)
    done = subprocess.run(
        ["bash", "-c", "sleep 30 & p=$!; kill -9 -l $p; kill -0 $p && echo alive; kill $p"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert "alive" in done.stdout
