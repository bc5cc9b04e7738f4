"""Review DX: approvals that still wrote or read protected places. DX2 an approved
javac writes the classes it compiles from sources on its class path beside them (no `-d`),
and a `-d` that is another option's value is no output folder; DX3 a link on the way to a
protected home place's target (`~/.ssh -> dotfiles/current/ssh`, `current -> v1`) is
that place; DX4 `7z a ARCHIVE` and `rar a ARCHIVE` with no file operand archive the
working folder whole; DX5 `git rm -r` and git's pathspec globs remove a tree."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import (
    canary_environment,
    copy_workspace,
    decide,
    env_beside,
    git_ok,
    scan_policy,
)

from policylang import Verdict
from policylang.decision import Decision

# -- DX2: javac's class path holds sources it compiles, and writes classes beside ----------


def _javac_workspace(tmp_path: Path) -> Path:
    """DW5's workspace: `Z.java` uses `commands.Evil`, whose source is in
    `.claude/commands/`; a jar outside."""
    workspace = copy_workspace(tmp_path)
    (workspace / "Z.java").write_text("public class Z { commands.Evil e; }\n")
    (workspace / ".claude" / "commands").mkdir(parents=True)
    (workspace / ".claude" / "commands" / "Evil.java").write_text(
        "package commands; public class Evil {}\n"
    )
    (workspace / "src").mkdir()
    (tmp_path / "jars").mkdir()
    (tmp_path / "jars" / "x.jar").write_bytes(b"PK\x05\x06" + bytes(18))  # (an empty zip)
    return workspace


def _javac(line: str, workspace: Path, **env: str) -> Decision:
    policy = scan_policy("javac")
    return policy.evaluate(
        line, workspace=str(workspace), env=canary_environment(workspace, **env)
    )


@pytest.mark.parametrize(
    "line",
    ["javac -cp .claude Z.java", "javac -classpath .claude Z.java",
     "javac --class-path .claude Z.java", "javac --class-path=.claude Z.java",
     "javac -cp src:.claude Z.java", "javac -cp ./.claude/ Z.java",
     "javac -sourcepath .claude -cp -d Z.java", "javac -cp -d -sourcepath .claude Z.java",
     "javac --source-path .claude -classpath -d Z.java",
     "javac --source-path .claude --add-modules -d Z.java",
     "javac -encoding -d -sourcepath .claude Z.java"],
)  # fmt: skip
def test_dx2_an_approved_javac_writes_beside_the_sources_of_its_class_path(
    tmp_path: Path, line: str
) -> None:
    workspace = _javac_workspace(tmp_path)
    decision = _javac(line, workspace)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_dx2_the_class_path_of_the_environment_and_outside_the_workspace(tmp_path: Path) -> None:
    workspace = _javac_workspace(tmp_path)
    decision = _javac("javac Z.java", workspace, CLASSPATH=".claude")
    assert decision.verdict is Verdict.DENY, decision.explain()
    # (a folder outside the workspace, not below /tmp, where writes are allowed)
    for line in ("javac -cp /usr/share Y.java", "javac -cp src:/usr/share Y.java"):
        decision = _javac(line, workspace)
        assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["javac -cp .claude -d out Z.java", "javac -d out -cp .claude Z.java",
     "javac -cp src Z.java", "javac -cp JARS/x.jar Z.java", "javac -cp 'JARS/*' Z.java",
     "javac -sourcepath src -cp .claude Z.java", "javac Z.java", "javac -d out Z.java"],
)  # fmt: skip
def test_dx2_what_still_is_allowed(tmp_path: Path, line: str) -> None:
    """With `-d` the classes go there; with a source path, javac looks for sources there
    only; a jar holds no folder to write in."""
    workspace = _javac_workspace(tmp_path)
    decision = _javac(line.replace("JARS", str(tmp_path / "jars")), workspace)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- DX3: a link on the way to a protected home place's target -----------------------------


def _versioned_dotfiles(tmp_path: Path) -> Path:
    """`~/.ssh -> dotfiles/current/ssh` and `~/dotfiles/current -> v1`; `v2` beside it
    (the attacker's); returns the dotfiles folder, the workspace."""
    home = tmp_path / "home"
    dotfiles = home / "dotfiles"
    for version in ("v1", "v2"):
        (dotfiles / version / "ssh").mkdir(parents=True)
        (dotfiles / version / "ssh" / "config").write_text(f"# {version}\n")
    (dotfiles / "README").write_text("dotfiles\n")
    (dotfiles / "empty").mkdir()
    (dotfiles / "current").symlink_to("v1")
    (home / ".ssh").symlink_to("dotfiles/current/ssh")
    return dotfiles


@pytest.mark.parametrize(
    ("line", "approval"),
    [("ln -sfn v2 current", "ln"), ("ln -sfnT v2 current", "ln"), ("ln -sfn v3 current", "ln"),
     ("ln -sfn empty current", "ln"), ("ln -sfn empty ~/dotfiles/current", "ln"),
     ("ln -sfnT empty current", "ln"), ("rm current", "rm"), ("rm -f current", "rm"),
     ("unlink current", "unlink"), ("mv -T v2 current", "mv"), ("mv -fT empty current", "mv"),
     ("rm current && ln -s v3 current", "rm,ln")],
)  # fmt: skip
def test_dx3_replacing_a_link_a_protected_place_resolves_through(
    tmp_path: Path, line: str, approval: str
) -> None:
    dotfiles = _versioned_dotfiles(tmp_path)
    decision = decide(line, dotfiles, env_beside(tmp_path), *approval.split(","))
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert ".ssh" in decision.explain(), decision.explain()


def test_dx3_the_place_itself_and_other_links_stay_as_they_were(tmp_path: Path) -> None:
    dotfiles = _versioned_dotfiles(tmp_path)
    env = env_beside(tmp_path)
    assert decide("ln -sfn v2 other", dotfiles, env, "ln").verdict is Verdict.ALLOW
    assert decide("ls current", dotfiles, env).verdict is Verdict.ALLOW
    assert decide("cat README", dotfiles, env).verdict is Verdict.ALLOW
    assert decide("readlink current", dotfiles, env).verdict is Verdict.ALLOW
    (dotfiles / "v2" / "notes").write_text("x\n")
    assert decide("rm v2/notes", dotfiles, env, "rm").verdict is Verdict.ALLOW


# -- DX4: 7-Zip's and rar's add with no file operand ---------------------------------------


def _dot_env_workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / ".env").write_text("SECRET=topsecret\n")
    (workspace / "a.txt").write_text("a\n")
    return workspace


@pytest.mark.parametrize(
    ("line", "approval"),
    [("7z a -ttar x.tar", "7z a"), ("7z a -tzip -mx0 x.zip", "7z a"), ("7z a x.7z", "7z a"),
     ("7z a x.7z --", "7z a"), ("7za a x.7z", "7za a"), ("7zr a x.7z", "7zr a"),
     ("7zz a x.7z", "7zz a"), ("7z u -ttar y.tar", "7z u"), ("rar a x.rar", "rar a"),
     ("rar a -r x.rar", "rar a"), ("rar u x.rar", "rar u"), ("rar m x.rar", "rar m")],
)  # fmt: skip
def test_dx4_an_archiver_given_no_file_reads_the_working_folder(
    tmp_path: Path, line: str, approval: str
) -> None:
    workspace = _dot_env_workspace(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path), approval)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    ("line", "approval"),
    [("7z a x.7z a.txt", "7z a"), ("7z a -ttar x.tar a.txt", "7z a"),
     ("7z a -si x.7z", "7z a"), ("7z l x.7z", "7z l"), ("rar a x.rar a.txt", "rar a")],
)  # fmt: skip
def test_dx4_an_archiver_given_files(tmp_path: Path, line: str, approval: str) -> None:
    workspace = _dot_env_workspace(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path), approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_dx4_a_workspace_without_protected_files(tmp_path: Path) -> None:
    workspace = _dot_env_workspace(tmp_path)
    (workspace / ".env").unlink()
    (workspace / "src").mkdir()
    (workspace / "src" / "b.txt").write_text("b\n")
    for line, approval in (("7z a x.7z", "7z a"), ("rar a x.rar", "rar a")):
        decision = decide(line, workspace, env_beside(tmp_path), approval)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_dx4_in_dotfiles_whose_folder_a_home_place_links_to(tmp_path: Path) -> None:
    home = tmp_path / "home"
    dotfiles = home / "dotfiles"
    (dotfiles / "ssh").mkdir(parents=True)
    (dotfiles / "ssh" / "work_key").write_text("SSHKEY\n")
    (home / ".ssh").symlink_to("dotfiles/ssh")
    decision = decide("7z a -ttar x.tar", dotfiles, env_beside(tmp_path), "7z a")
    assert decision.verdict is Verdict.DENY, decision.explain()


# -- DX5: `git rm -r` and pathspec globs ---------------------------------------------------


def _repository(tmp_path: Path, protected: str) -> Path:
    """A repository tracking `a.txt`, `src/b.json` and `protected` (a settings file)."""
    workspace = tmp_path / "ws"
    (workspace / "src").mkdir(parents=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    (workspace / "a.txt").write_text("a\n")
    (workspace / "src" / "b.json").write_text("{}\n")
    settings = workspace / protected
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text('{"permissions": {"deny": ["Bash(curl:*)"]}}\n')
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "add", "-A")
    git_ok(workspace, "commit", "-qm", "x")
    return workspace


@pytest.mark.parametrize(
    "line",
    ["git rm -r .", 'git rm -r "*"', "git rm -r ':/'", 'git rm -r -- "*.json"',
     "git rm -r --cached .", 'git rm "*.json"', "git rm -rq .", "git rm -rf .",
     "git rm -r -f -- .", "git rm -r ./", 'git rm "*settings*"', "git rm -r ':(top)'",
     "git -C . rm -r .", "git rm --cached '*.json'", "git rm '.cla\\ude/*'",
     "git rm -r '.cl*'", "git rm --pathspec-from-file=names"],
)  # fmt: skip
def test_dx5_a_recursive_git_rm_reaching_a_protected_file(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path, ".claude/settings.json")
    decision = decide(line, workspace, env_beside(tmp_path), "git rm")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_dx5_a_folder_holding_one(tmp_path: Path) -> None:
    workspace = _repository(tmp_path, "pkg/.claude/settings.json")
    env = env_beside(tmp_path)
    decision = decide("git rm -r pkg", workspace, env, "git rm")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "pkg/.claude" in decision.explain(), decision.explain()
    # as `rm -r pkg` under an approval of `rm`
    assert decide("rm -r pkg", workspace, env, "rm").verdict is Verdict.ASK


def test_dx5_in_dotfiles_whose_folder_a_home_place_links_to(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "ws").mkdir()
    dotfiles = home / "dotfiles"
    (dotfiles / "ssh").mkdir(parents=True)
    (dotfiles / "ssh" / "config").write_text("Host *\n")
    (dotfiles / "README").write_text("x\n")
    (home / ".ssh").symlink_to("dotfiles/ssh")
    git_ok(dotfiles, "init", "-q")
    decision = decide("git rm -r .", dotfiles, env_beside(tmp_path), "git rm")
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["git rm a.txt", "git rm -r src", 'git rm "src/*.json"', "git rm --cached a.txt",
     "git rm -r --cached src", "git rm '*.txt'", "git rm -rn .", "git rm --dry-run -r ."],
)  # fmt: skip
def test_dx5_what_still_is_allowed(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path, ".claude/settings.json")
    decision = decide(line, workspace, env_beside(tmp_path), "git rm")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
