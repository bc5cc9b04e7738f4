"""Review EZ: git read protected content through its object model. `--submodule=diff`
(or `diff.submodule = diff` in git's configuration) printed a submodule's `.env` (EZ1,
EZ2); an approved `git replace`, `git notes add -C ID`, `git update-ref REF ID` or
`git unpack-file ID` made an allowed read print a committed `.env` by another name (EZ3
to EZ6); `git fast-export`, `git format-patch`, `git request-pull -p`, the trivial
`git merge-tree` and `git bisect view -p` printed a tracked `.env` under the approvals
their innocent forms suggested (EZ7); `git show stash^3` and `git log -p --all` printed
the `.env` a `git stash -u` had put aside (EZ8). Each line is run with the real git to
show the leak, and the engine's verdict is asserted."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
        "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"]  # fmt: skip


def _git(workspace: Path, *args: str) -> str:
    done = subprocess.run(
        [*_GIT, *args], cwd=workspace, check=True, timeout=60, capture_output=True, text=True,
        env={"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin",
             "GIT_CONFIG_NOSYSTEM": "1"},
    )  # fmt: skip
    return done.stdout.strip()


def _env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "home").mkdir(exist_ok=True)
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}  # fmt: skip


def _history(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """`.env` committed once, then untracked and ignored (review EZ's ws2)."""
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("SECRET=CANARY_EZ_OLD\n")
    (workspace / "README.md").write_text("hello\n")
    _git(workspace, "init", "-q", ".")
    _git(workspace, "add", "-A", "-f")
    _git(workspace, "commit", "-qm", "initial")
    _git(workspace, "rm", "-q", "--cached", ".env")
    (workspace / ".gitignore").write_text(".env\n")
    _git(workspace, "add", ".gitignore")
    _git(workspace, "commit", "-qm", "untrack")
    return workspace, env


def _blob(workspace: Path, name: str) -> str:
    return _git(workspace, "rev-parse", f"HEAD~1:{name}")


def _tracked(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository that tracks `.env`, `id_rsa` and `x.pem` (review EZ's ws)."""
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("SECRET=CANARY_EZ_HEAD\n")
    (workspace / "id_rsa").write_text("CANARY_EZ_IDRSA\n")
    (workspace / "README.md").write_text("hello\n")
    _git(workspace, "init", "-q", ".")
    _git(workspace, "add", "-A", "-f")
    _git(workspace, "commit", "-qm", "initial")
    (workspace / ".env").write_text("SECRET=CANARY_EZ_V2\n")
    _git(workspace, "commit", "-qam", "second")
    (workspace / "README.md").write_text("hello\nmore\n")
    _git(workspace, "commit", "-qam", "third")
    return workspace, env


def _submodule(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A superproject whose submodule `sub` tracks `.env`, edited in its work tree."""
    env = _env(tmp_path)
    source = tmp_path / "subsrc"
    source.mkdir()
    (source / "a.txt").write_text("a\n")
    _git(source, "init", "-q", ".")
    _git(source, "add", ".")
    _git(source, "commit", "-qm", "s1")
    (source / ".env").write_text("SUBSECRET=CANARY_EZ_SUB\n")
    _git(source, "add", "-f", ".env")
    _git(source, "commit", "-qm", "s2")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README.md").write_text("hi\n")
    _git(workspace, "init", "-q", ".")
    _git(workspace, "add", ".")
    _git(workspace, "commit", "-qm", "p1")
    _git(workspace, "submodule", "-q", "add", str(source), "sub")
    _git(workspace / "sub", "checkout", "-q", "HEAD~1")
    _git(workspace, "add", "sub", ".gitmodules")
    _git(workspace, "commit", "-qm", "add sub at s1")
    _git(workspace / "sub", "checkout", "-q", "main")
    _git(workspace, "add", "sub")
    _git(workspace, "commit", "-qm", "bump sub")
    (workspace / "sub" / ".env").write_text("SUBSECRET=CANARY_EZ_SUB_WT\n")
    return workspace, env


def _asks(line: str, workspace: Path, env: dict[str, str], rule: str, *approvals: str) -> None:
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == rule for r in decision.reasons), decision.explain()


@pytest.mark.parametrize(
    "line",
    ["git diff --submodule=diff", "git show --submodule=diff", "git log -p -1 --submodule=diff",
     "git diff --submodule=diff -- sub", "git diff --submodule=diff HEAD~1 HEAD"],
)  # fmt: skip
def test_ez1_submodule_diff_option_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _submodule(tmp_path)
    assert "CANARY_EZ_SUB" in run_printed(line, workspace, env)
    _asks(line, workspace, env, "engine.git-submodule-diff")


@pytest.mark.parametrize("where", ["repository", "global"])
@pytest.mark.parametrize("line", ["git diff", "git show", "git log -p -1", "git diff -- sub"])
def test_ez2_submodule_diff_setting_asks(tmp_path: Path, where: str, line: str) -> None:
    workspace, env = _submodule(tmp_path)
    if where == "repository":
        _git(workspace, "config", "diff.submodule", "diff")
    else:
        (tmp_path / "home" / ".gitconfig").write_text("[diff]\n\tsubmodule = diff\n")
    assert "CANARY_EZ_SUB" in run_printed(line, workspace, env)
    _asks(line, workspace, env, "engine.git-submodule-diff")


def test_ez2_setting_without_submodules_in_the_index_asks(tmp_path: Path) -> None:
    # (a gitlink in HEAD alone, or in an older commit, is one too: review FF8)
    workspace, env = _history(tmp_path)
    assert decide("git diff --submodule=log", workspace, env).verdict is Verdict.ALLOW
    (tmp_path / "home" / ".gitconfig").write_text("[diff]\n\tsubmodule = diff\n")
    assert decide("git diff", workspace, env).verdict is Verdict.ASK


@pytest.mark.parametrize("packed", [False, True])
def test_ez3_replace_refs(tmp_path: Path, packed: bool) -> None:
    workspace, env = _history(tmp_path)
    readme, secret = _blob(workspace, "README.md"), _blob(workspace, ".env")
    assert decide("git replace --list", workspace, env).suggested_rule == "git replace"
    swap = f"git replace -f {readme} {secret}"
    _asks(swap, workspace, env, "engine.git-object-swap", "git replace")
    by_ref = f"git update-ref refs/replace/{readme} {secret}"
    _asks(by_ref, workspace, env, "engine.git-object-swap", "git update-ref")
    assert decide("git show HEAD:README.md", workspace, env).verdict is Verdict.ALLOW
    run_printed(swap, workspace, env)
    if packed:
        _git(workspace, "pack-refs", "--all")
    for line in ("git show HEAD:README.md", "git cat-file -p HEAD:README.md",
                 "git show HEAD~1:README.md"):  # fmt: skip
        assert "CANARY_EZ_OLD" in run_printed(line, workspace, env), line
        _asks(line, workspace, env, "engine.git-replace")
    assert decide("git replace --list", workspace, env, "git replace").verdict is Verdict.ALLOW


def test_ez3_staging_a_blob_by_id_asks(tmp_path: Path) -> None:
    workspace, env = _history(tmp_path)
    line = f"git update-index --cacheinfo 100644,{_blob(workspace, '.env')},README.md"
    assert decide(line, workspace, env).verdict is Verdict.ASK
    _asks(line, workspace, env, "engine.git-object-swap", "git update-index")
    _asks("git update-index --index-info", workspace, env, "engine.git-object-swap",
          "git update-index")  # fmt: skip
    _asks("git mktree", workspace, env, "engine.git-object-swap", "git mktree")
    run_printed(line, workspace, env)
    assert "CANARY_EZ_OLD" in run_printed("git show :README.md", workspace, env)
    fine = decide("git update-index --refresh", workspace, env, "git update-index")
    assert fine.verdict is Verdict.ALLOW, fine.explain()


@pytest.mark.parametrize(
    "option", ["-C {id}", "-c {id}", "-C{id}", "--reuse-message={id}", "--reedit-message {id}",
               "--reuse {id}", "-fC {id}"],
)  # fmt: skip
def test_ez4_notes_from_a_blob_asks(tmp_path: Path, option: str) -> None:
    workspace, env = _history(tmp_path)
    secret = _blob(workspace, ".env")
    assert decide("git notes add -m reviewed HEAD", workspace, env).suggested_rule == (
        "git notes add"
    )
    line = f"git notes add -f {option.format(id=secret)} HEAD"
    _asks(line, workspace, env, "engine.git-object-swap", "git notes add")
    if option.startswith("-C "):
        run_printed(line, workspace, env)
        assert "CANARY_EZ_OLD" in run_printed("git log -1", workspace, env)
    plain = "git notes add -f -m reviewed HEAD"
    assert decide(plain, workspace, env, "git notes add").verdict is Verdict.ALLOW


def test_ez5_a_ref_at_a_blob_asks(tmp_path: Path) -> None:
    workspace, env = _history(tmp_path)
    secret = _blob(workspace, ".env")
    assert decide("git update-ref refs/heads/wip HEAD", workspace, env).suggested_rule == (
        "git update-ref"
    )
    line = f"git update-ref refs/tags/v0 {secret}"
    _asks(line, workspace, env, "engine.git-object-swap", "git update-ref")
    _asks("git update-ref --stdin", workspace, env, "engine.git-object-swap", "git update-ref")
    _asks(f"git tag -f v1 {secret}", workspace, env, "engine.git-object-swap", "git tag")
    run_printed(line, workspace, env)
    assert "CANARY_EZ_OLD" in run_printed("git cat-file -p v0", workspace, env)
    fine = decide("git update-ref refs/heads/wip HEAD", workspace, env, "git update-ref")
    assert fine.verdict is Verdict.ALLOW, fine.explain()


def test_ez6_unpack_file_asks(tmp_path: Path) -> None:
    workspace, env = _history(tmp_path)
    readme, secret = _blob(workspace, "README.md"), _blob(workspace, ".env")
    # (the review approved it from `git unpack-file README-ID`, which now asks unapproved)
    _asks(f"git unpack-file {readme}", workspace, env, "engine.git-object-swap")
    line = f"git unpack-file {secret}"
    _asks(line, workspace, env, "engine.git-object-swap", "git unpack-file")
    written = run_printed(line, workspace, env).strip()
    assert "CANARY_EZ_OLD" in (workspace / written).read_text()


@pytest.mark.parametrize(
    ("innocent", "line"),
    [("git fast-export --no-data HEAD", "git fast-export HEAD"),
     ("git format-patch -1", "git format-patch --stdout --root HEAD"),
     ("git merge-tree --write-tree HEAD HEAD~1", "git merge-tree HEAD~2 HEAD~2 HEAD"),
     ("git bisect log", "git bisect start HEAD HEAD~2 && git bisect view -p")],
)  # fmt: skip
def test_ez7_history_dumpers_ask(tmp_path: Path, innocent: str, line: str) -> None:
    workspace, env = _tracked(tmp_path)
    approval = decide(innocent, workspace, env).suggested_rule
    assert approval is not None
    assert "CANARY_EZ_V2" in run_printed(line, workspace, env)
    _asks(line, workspace, env, "engine.git-tracked", approval)


def test_ez7_request_pull_is_never_approved(tmp_path: Path) -> None:
    """`git request-pull -p` printed the patch; since review FM2 every `git request-pull`
    is a locked ask (transport plumbing: it hands its words to `git ls-remote`)."""
    workspace, env = _tracked(tmp_path)
    assert "CANARY_EZ_V2" in run_printed("git request-pull -p HEAD~2 . HEAD", workspace, env)
    for line in ("git request-pull HEAD~1 . HEAD", "git request-pull -p HEAD~2 . HEAD"):
        decision = decide(line, workspace, env, "git request-pull")
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.suggested_rule is None


def test_ez7_innocent_forms_allow_under_approval(tmp_path: Path) -> None:
    workspace, env = _tracked(tmp_path)
    innocent = (("git fast-export --no-data HEAD", "git fast-export"),
                ("git merge-tree --write-tree HEAD HEAD~1", "git merge-tree"))
    for line, approval in innocent:
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


def _stashed(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """An untracked `.env` put aside with `git stash -u` (review EZ's ws3)."""
    env = _env(tmp_path)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README.md").write_text("hello\n")
    _git(workspace, "init", "-q", ".")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "initial")
    (workspace / ".env").write_text("K=CANARY_EZ_STASHED\n")
    _git(workspace, "stash", "-q", "-u")
    return workspace, env


@pytest.mark.parametrize(
    "line",
    ["git show stash^3", "git diff stash^3", "git log -p stash^3", "git log -p --all",
     "git show 'stash@{0}^3'", "git log -p --reflog", "git show ID", "git archive stash^3",
     "git grep CANARY stash^3", "git format-patch --stdout -1 refs/stash^3"],
)  # fmt: skip
def test_ez8_stash_printers_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _stashed(tmp_path)
    line = line.replace("ID", _git(workspace, "rev-parse", "stash^3"))
    assert "CANARY_EZ_STASHED" in run_printed(line, workspace, env)
    approval = decide(line, workspace, env).suggested_rule  # (`git archive`)
    _asks(line, workspace, env, "engine.git-stash", *(approval,) if approval else ())


def test_ez8_a_ref_at_a_stash_asks(tmp_path: Path) -> None:
    workspace, env = _stashed(tmp_path)
    line = "git update-ref refs/heads/kept stash^3"
    _asks(line, workspace, env, "engine.git-object-swap", "git update-ref")
    run_printed(line, workspace, env)
    assert "CANARY_EZ_STASHED" in run_printed("git log -p kept", workspace, env)


def test_ez8_stash_show_untracked_asks(tmp_path: Path) -> None:
    workspace, env = _stashed(tmp_path)
    line = "git stash show -p -u"
    assert "CANARY_EZ_STASHED" in run_printed(line, workspace, env)
    assert decide(line, workspace, env, "git stash show").verdict is Verdict.ASK
    _git(workspace, "config", "stash.showIncludeUntracked", "true")
    assert "CANARY_EZ_STASHED" in run_printed("git stash show -p", workspace, env)
    _asks("git stash show -p", workspace, env, "engine.git-stash")


def test_ez8_everyday_lines_with_a_stash_allow(tmp_path: Path) -> None:
    workspace, env = _stashed(tmp_path)
    for line in ("git log -p", "git show", "git diff", "git stash show -p", "git stash list",
                 "git log --oneline --all", "git status"):  # fmt: skip
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ALLOW, decision.explain()
