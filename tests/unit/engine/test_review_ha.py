"""Review HA: writes through links of protected files that fixer AX's checks (f35edd5)
left open.

HA1: a tree copied onto an existing folder writes into the files already at the names
it lands as. With `out/notes` a hard link (or a symbolic link) of `.git/config`,
`.git/hooks/pre-commit` or `~/.bashrc`, `cp -r pl/. out/`, `cp -R pl/* out/` and
`rsync -r --inplace pl/ out/` changed that file (real runs below), and were allowed under
the engine's own suggested approvals `cp` and `rsync`: the written-tree check skipped
copying programs, and cp's `-R` was read as `--parents` for a glob source.

HA3: the hard-link map left out a nested bare repository (`vendor/x.git`), a clone
inside `node_modules`, and `.git/objects/info/alternates`."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from realrun import decide, git_ok, printed

from policylang import Verdict

_ORIGINAL = "original\n"
_PAYLOAD = "PAYLOAD\n"
# the protected files `out/notes` is made a link of (`~`: the home)
_TARGETS = (".git/config", ".git/hooks/pre-commit", "~/.bashrc")
# copies that write into `out/notes` (real cp and rsync): each is denied now
_THROUGH = (
    "cp -r pl/. out/",
    "cp -R pl/* out/",
    "cp -r pl/* out/",
    "cp -rT pl out",
    "cp -r -t out pl/.",
    "rsync -r --inplace pl/ out/",
    "rsync -a --inplace pl/ out/",
)
# the engine's own suggestions for these innocent lines are the approvals `cp`, `rsync`
_APPROVED = ("cp", "rsync")


def _env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _setup(tmp_path: Path, target: str, *, symbolic: bool = False) -> tuple[Path, Path]:
    """A repository holding `pl/notes` (the payload) and `out/notes`, a link of
    `target`; returns the workspace and the target's path."""
    workspace = tmp_path / "ws"
    home = tmp_path / "home"
    home.mkdir(parents=True)
    workspace.mkdir()
    git_ok(workspace, "init", "-q")
    for folder in ("pl", "out"):
        (workspace / folder).mkdir()
    (workspace / "pl" / "notes").write_text(_PAYLOAD)
    (workspace / "out" / "other.txt").write_text("o\n")
    path = home / target[2:] if target.startswith("~/") else workspace / target
    path.write_text(_ORIGINAL)
    if symbolic:
        os.symlink(path, workspace / "out" / "notes")
    else:
        os.link(path, workspace / "out" / "notes")
    return workspace, path


def _check(tmp_path: Path, target: str, line: str, *, symbolic: bool = False) -> None:
    workspace, path = _setup(tmp_path, target, symbolic=symbolic)
    decision = decide(line, workspace, _env(tmp_path / "home"), *_APPROVED)
    assert decision.verdict is Verdict.DENY, (target, line, decision.explain())
    printed(["bash", "-c", line], workspace)
    assert path.read_text() == _PAYLOAD, (target, line)  # written through the link


@pytest.mark.skipif(shutil.which("rsync") is None, reason="needs rsync")
@pytest.mark.parametrize("target", _TARGETS)
def test_ha1_a_copy_onto_a_hard_link_of_a_protected_file(tmp_path: Path, target: str) -> None:
    for number, line in enumerate(_THROUGH):
        _check(tmp_path / str(number), target, line)


def test_ha1_a_copy_onto_a_symbolic_link_of_a_protected_file(tmp_path: Path) -> None:
    """cp opens the name a regular file lands as, following a link there (with `-a`
    too); rsync replaces the link (checked below)."""
    for number, line in enumerate((*_THROUGH[:5], "cp -a pl/. out/")):
        _check(tmp_path / str(number), ".git/config", line, symbolic=True)


@pytest.mark.skipif(shutil.which("rsync") is None, reason="needs rsync")
def test_ha1_copies_that_replace_the_name_and_everyday_copies(tmp_path: Path) -> None:
    # rsync without `--inplace` writes a new file and renames it over the name
    for number, (line, symbolic) in enumerate(
        (
            ("rsync -r pl/ out/", False),
            ("rsync -a pl/ out/", False),
            ("rsync -a --inplace pl/ out/", True),
        )
    ):
        workspace, path = _setup(tmp_path / str(number), ".git/config", symbolic=symbolic)
        decision = decide(line, workspace, _env(tmp_path / str(number) / "home"), *_APPROVED)
        assert decision.verdict is Verdict.ALLOW, (line, decision.explain())
        printed(["bash", "-c", line], workspace)
        assert path.read_text() == _ORIGINAL, line
    # a copy onto files with one name, onto another name of an ordinary file, and of
    # links onto the same links (a second `cp -a` of a tree) stays allowed
    workspace = tmp_path / "plain"
    (tmp_path / "plain-home").mkdir()
    for folder in ("pl", "out"):
        (workspace / folder / "bin").mkdir(parents=True)
        os.symlink("/usr/bin/env", workspace / folder / "bin" / "env")
        (workspace / folder / "a.txt").write_text("a\n")
    (workspace / "pl" / "b.txt").write_text("b\n")
    os.link(workspace / "out" / "a.txt", workspace / "out" / "b.txt")
    env = _env(tmp_path / "plain-home")
    for line in ("cp -r pl/. out/", "cp -a pl/. out/", "cp -R pl/* out/", "rsync -a pl/ out/"):
        decision = decide(line, workspace, env, *_APPROVED)
        assert decision.verdict is Verdict.ALLOW, (line, decision.explain())


def test_ha3_git_directories_the_hard_link_map_missed(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    home = tmp_path / "home"
    home.mkdir()
    workspace.mkdir()
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "init", "-q", "--bare", "vendor/x.git")
    (workspace / "node_modules" / "foo").mkdir(parents=True)
    git_ok(workspace / "node_modules" / "foo", "init", "-q")
    hook = workspace / "vendor" / "x.git" / "hooks" / "post-receive"
    hook.write_text("#!/bin/sh\n")
    alternates = workspace / ".git" / "objects" / "info" / "alternates"
    alternates.write_text("")
    cases = {
        "barehook": hook,
        "barecfg": workspace / "vendor" / "x.git" / "config",
        "nmcfg": workspace / "node_modules" / "foo" / ".git" / "config",
        "objalt": alternates,
    }
    for name, path in cases.items():
        os.link(path, workspace / name)
    env = _env(home)
    for name in cases:
        line = f"echo x >> {name}"
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.DENY, (line, decision.explain())
        assert "hard link" in decision.explain(), line
    # the premise: a hook written through its other name runs on a push to the repository
    canary = tmp_path / "PWNED"
    printed(["bash", "-c", f"printf '#!/bin/sh\\ntouch {canary}\\n' > barehook"], workspace)
    hook.chmod(0o755)
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "first")
    git_ok(workspace, "push", "-q", "./vendor/x.git", "HEAD:main")
    assert canary.exists()
