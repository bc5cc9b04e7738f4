"""Reviews IE (of fixers CL and CM) and ID (of fixer CN), repaired by the lead.

IE1: jake reads `-f=FILE`, `-J=DIR`, `-C=DIR` as `-f`, `-J`, `-C` with a value (it strips
the dashes and cuts the word at `=`: real jake 10.9.4 ran the other file); CL's reading of
jake's options took `-f=/tmp/x.js` for one unknown option, and the lines were allowed
under `jake build`. IE2: a single word `"snap run"` names a program of that name (bash
runs it from PATH), not the wrapper `snap run` named by a program and its verb.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide, env_beside

from policylang import Verdict


def _ws(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    return workspace


@pytest.mark.parametrize(
    "line",
    [
        "jake build -f=/tmp/x.js",
        "jake build -J=/tmp/lib",
        "jake build -C=/tmp/other",
        "jake -f=/tmp/x.js build",
        "env jake build -f=/tmp/x.js",
        "jake build '-f=/tmp/x.js'",
    ],
)
def test_jake_glued_equals_asks(tmp_path: Path, line: str) -> None:
    workspace = _ws(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path), "jake build")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "jake-other-file" in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize("line", ["jake build -t", "jake build -q", "jake build"])
def test_jake_ordinary_lines_allowed(tmp_path: Path, line: str) -> None:
    workspace = _ws(tmp_path)
    assert decide(line, workspace, env_beside(tmp_path), "jake build").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        '"snap run" git status',
        "'snap run' ls",
        "snap\\ run ls",
        'env "snap run" git status',
        'timeout 5 "snap run" git status',
        'cd sub && "snap run" ls',
    ],
)
def test_one_word_snap_run_is_a_program(tmp_path: Path, line: str) -> None:
    workspace = _ws(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None or "git" not in decision.suggested_rule.split()[:1]
    approved = decide('"snap run" npm test', workspace, env_beside(tmp_path), "npm test")
    assert approved.verdict is Verdict.ASK, approved.explain()


def test_snap_run_still_seen_through(tmp_path: Path) -> None:
    workspace = _ws(tmp_path)
    env = env_beside(tmp_path)
    assert decide("snap run node --version", workspace, env).verdict is Verdict.ALLOW
    assert decide("snap run rm -rf /", workspace, env).verdict is Verdict.DENY


# review ID (of fixer CN): yarn 1's `workspaces run` and `workspace NAME` start another yarn,
# which reads the words after the outer `--` as its own options (real yarn 1 ran another
# `.yarnrc`'s script-shell and another modules folder's program: ID1); bare `yarn
# workspaces` was offered for harmless lines and approved `yarn workspaces --silent run
# lint` and berry's `workspaces focus`, which run the workspaces' scripts (ID2)


@pytest.mark.parametrize(
    "line",
    [
        "yarn workspaces -- run --use-yarnrc=/tmp/e/.yarnrc lint",
        "yarn workspaces -- run --modules-folder=/tmp/e/nm gulp",
        "yarn workspaces --silent -- run --use-yarnrc=/tmp/e/.yarnrc lint",
        'env yarn workspaces -- run "--modules-folder=/tmp/e/nm" gulp',
    ],
)
def test_nested_yarn_reads_words_after_dashes(tmp_path: Path, line: str) -> None:
    workspace = _ws(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path), "yarn workspaces")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.launcher-file" in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    "line",
    [
        "yarn workspaces --silent info",
        "yarn workspaces -s list",
        "yarn workspaces",
        "yarn workspaces focus w1",
        "yarn workspaces info",
    ],
)
def test_bare_yarn_workspaces_never_offered(tmp_path: Path, line: str) -> None:
    workspace = _ws(tmp_path)
    offer = decide(line, workspace, env_beside(tmp_path)).suggested_rule
    assert offer is None or offer.split() == [*line.split(), "$"], offer


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("yarn workspaces run build", "yarn workspaces run build"),
        ("yarn workspace web build", "yarn workspace web build"),
        ("yarn test", "yarn test"),
    ],
)
def test_yarn_offers_kept(tmp_path: Path, line: str, offer: str) -> None:
    workspace = _ws(tmp_path)
    assert decide(line, workspace, env_beside(tmp_path)).suggested_rule == offer


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("yarn lint -- --fix", "yarn lint"),
        ("yarn test -- --watch", "yarn test"),
        ("yarn workspaces info", "yarn workspaces"),
    ],
)
def test_yarn_ordinary_lines_still_allowed(tmp_path: Path, line: str, approval: str) -> None:
    workspace = _ws(tmp_path)
    assert decide(line, workspace, env_beside(tmp_path), approval).verdict is Verdict.ALLOW
