"""Review IA of fixer CG's whole-folder read (fixer CJ).

IA2: in a workspace reached through a link (`/t/a/ws -> /t/b/ws`), a folder named inside
it (`gulp --cwd sub`, `gulp --cwd .`) or holding it (`gulp --cwd ..`) was read whole by
its lexical or real spelling, whichever the workspace's own spelling missed, and its
`.env` files denied the line, which asks with the real path: folders are compared by
their real paths; one inside the workspace reads nothing more (the approved tasks read
the workspace anyway: the clause asks).
IA3: a folder holding the workspace had every entry beside the workspace read whole,
each with a tree budget of its own (seconds with links to `/usr` beside it): only the
entries that are, hold or lie in a protected place (the home, `~/.ssh`, `/root`…) are.
IA1: grunt's `-b` is `--base`: `grunt -b ~` under `grunt` is denied like `grunt --base ~`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict


def _linked_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    real = tmp_path / "b" / "ws"
    (real / "sub").mkdir(parents=True)
    (real / ".env").write_text("TOKEN=canary\n")
    (real / "sub" / ".env").write_text("TOKEN=canary\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "ws").symlink_to(real)
    (tmp_path / "home").mkdir()
    return tmp_path / "a" / "ws", {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("gulp --cwd sub", "gulp"),
        ("grunt --base sub", "grunt"),
        ("snakemake -d sub -n", "snakemake"),
        ("makers --cwd sub build", "makers"),
        ("gulp --cwd .", "gulp"),
        ("gulp --cwd ..", "gulp"),
        ("gulp --cwd ../ws", "gulp"),
    ],
)
def test_linked_workspace_asks_not_denies(command: str, approval: str, tmp_path: Path) -> None:
    workspace, env = _linked_workspace(tmp_path)
    linked = decide(command, workspace, env, approval)
    assert linked.verdict is Verdict.ASK, linked.explain()
    # as with the real path
    real = decide(command, workspace.resolve(), env, approval)
    assert real.verdict is Verdict.ASK, real.explain()


def test_the_home_beside_a_linked_workspace_still_denied(tmp_path: Path) -> None:
    workspace, env = _linked_workspace(tmp_path)
    decision = decide("gulp --cwd ~", workspace, env, "gulp")
    assert decision.verdict is Verdict.DENY
    # `../..` is tmp_path, which holds the home
    assert decide("gulp --cwd ../..", workspace, env, "gulp").verdict is Verdict.DENY


def test_workspace_itself_judged_as_plain_runner(tmp_path: Path) -> None:
    """A link in the workspace to `~/.ssh`: plain `gulp` is allowed by the approval,
    whose tasks read the workspace; `gulp --cwd .` runs the same tasks in the same
    folder, and asks by its clause (not a deny plain `gulp` escapes)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    (tmp_path / "home" / ".ssh" / "id_rsa").write_text("key")
    (workspace / "keys").symlink_to(tmp_path / "home" / ".ssh")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    plain = decide("gulp", workspace, env, "gulp").verdict
    assert decide("gulp --cwd .", workspace, env, "gulp").verdict is Verdict.ASK
    assert plain is not Verdict.DENY


def _big_folder(where: Path, count: int) -> None:
    where.mkdir(parents=True)
    for index in range(count):
        (where / f"f{index}").touch()


@pytest.fixture
def scandirs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = os.scandir

    def counting(path: str | os.PathLike[str] = ".") -> os.ScandirIterator[str]:
        seen.append(os.fspath(path))
        return real(path)  # type: ignore[return-value]

    monkeypatch.setattr(os, "scandir", counting)
    return seen


def test_siblings_of_the_workspace_not_read_whole(tmp_path: Path, scandirs: list[str]) -> None:
    """IA3: `gulp --cwd ..` beside a big unprotected folder (and links to it) asks by its
    clause, without reading that folder: no tree budget spent on it."""
    workspace = tmp_path / "p" / "ws"
    workspace.mkdir(parents=True)
    big = tmp_path / "big"
    _big_folder(big, 300)
    for index in range(5):
        (tmp_path / "p" / f"link{index}").symlink_to(big)
    (tmp_path / "h" / "home").mkdir(parents=True)
    env = {"HOME": str(tmp_path / "h" / "home"), "PATH": "/usr/bin:/bin"}
    decision = decide("gulp --cwd ..", workspace, env, "gulp")
    assert decision.verdict is Verdict.ASK
    assert "engine.tree-budget" not in {reason.rule_id for reason in decision.reasons}
    assert not [seen for seen in scandirs if seen.startswith(str(big))]


def test_a_protected_place_beside_the_workspace_still_denied(tmp_path: Path) -> None:
    """The entries beside the workspace that are or lead to a protected place are read:
    `gulp --cwd ..` with `../keys -> ~/.ssh`, and the home holding the workspace."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    workspace = tmp_path / "p" / "ws"
    workspace.mkdir(parents=True)
    (tmp_path / "p" / "keys").symlink_to(home / ".ssh")
    assert decide("gulp --cwd ..", workspace, env, "gulp").verdict is Verdict.DENY
    # the workspace in the home: `..` is the home, `~/.ssh` beside the workspace
    inner = home / "proj"
    inner.mkdir()
    (inner / ".env").write_text("TOKEN=canary\n")
    assert decide("gulp --cwd ..", inner, env, "gulp").verdict is Verdict.DENY
    assert decide("gulp --cwd .", inner, env, "gulp").verdict is Verdict.ASK


@pytest.mark.parametrize("command", ["grunt -b ~", "grunt -b ~ build", "grunt --base ~"])
def test_grunt_b_is_base(command: str, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    decision = decide(command, workspace, env, "grunt")
    assert decision.verdict is Verdict.DENY
    assert "secrets-home" in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("jake build -C ~", "jake build"),
        ("jake build --directory ~", "jake build"),
        ("doit run -d ~", "doit run"),
        ("doit run --dir ~", "doit run"),
    ],
)
def test_jake_and_doit_moved_home_denied(command: str, approval: str, tmp_path: Path) -> None:
    # their `*-other-file` clauses (review HZ3) ask first; the folder they move the
    # approved tasks to is still read whole, as for `gulp --cwd ~`
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    decision = decide(command, workspace, env, approval)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert "secrets-home" in {reason.rule_id for reason in decision.reasons}
    assert decide(command.replace("~", "sub"), workspace, env, approval).verdict is Verdict.ASK
