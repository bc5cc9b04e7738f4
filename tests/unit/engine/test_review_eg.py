"""Review EG: plain `git grep` judged by the index (open items I) read more than the
engine saw. A crafted index whose entry's name length (in its flags) and NUL disagree
(EG1), a SHA-256 repository's 32-byte object ids (EG2), `submodule.recurse` (EG3),
`grep.fallbackToNoIndex` (EG4), a tracked folder replaced by a link (EG5), and an operand
before `--` that is also a path (EG6). Each layout is run with the real git 2.39: where it
prints the protected file, the engine must not allow the line."""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, git_ok, run_printed

from policylang import Verdict
from policylang.engine import gitconfig

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _leaks(line: str, workspace: Path, secret: str = "KEY=abc") -> None:
    """Real git prints `secret`, and the engine does not allow the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert secret in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _entry(name: bytes, flags_len: int, sha: bytes, total: int | None = None) -> bytes:
    """An index v2 entry (SHA-1) for `name` whose flags give `flags_len`, `total` bytes
    long (padded with NULs)."""
    head = struct.pack(">10I", 0, 0, 0, 0, 0, 0, 0o100644, 0, 0, 0) + sha
    body = head + struct.pack(">H", flags_len) + name + b"\0"
    size = total if total is not None else (len(body) + 7) & ~7
    return body + b"\0" * (size - len(body))


def _crafted(workspace: Path, hidden: bytes, sha: bytes = b"\x11" * 20) -> None:
    """An index git reads as `+a.txt` and `hidden`; read up to each NUL it is `+a.txt`
    and `b.txt` (the first entry's flags say 74 bytes, its NUL sits at 6)."""
    first = _entry(b"+a.txt", 74, sha, total=72)
    inner = _entry(b"b.txt", 5, sha)
    last = _entry(hidden, len(hidden), sha)
    data = b"DIRC" + struct.pack(">II", 2, 2) + first + inner + last
    (workspace / ".git" / "index").write_bytes(data + hashlib.sha1(data).digest())


def test_eg1_a_name_longer_than_its_nul_hides_a_tracked_env(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "+a.txt").write_text("KEY=plain\n")
    (workspace / "b.txt").write_text("KEY=b\n")
    (workspace / "zz").mkdir()
    (workspace / "zz" / ".env").write_text("KEY=abc\n")
    _crafted(workspace, b"zz/.env")
    listed = run_printed("git ls-files", workspace, env_beside(tmp_path))
    assert "zz/.env" in listed, listed
    assert "b.txt" not in listed, listed
    _leaks("git grep KEY", workspace)


def test_eg1_git_diff_of_a_hidden_entry_outside_the_work_tree(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True)
    secret.write_text("KEY=AKIASECRET\n")
    git_ok(workspace, "init", "-q", ".")
    (workspace / "+a.txt").write_text("KEY=plain\n")
    (workspace / "b.txt").write_text("KEY=b\n")
    blob = run_printed("echo x | git hash-object -w --stdin", workspace, env_beside(tmp_path))
    _crafted(workspace, b"../home/.aws/credentials", bytes.fromhex(blob.strip()))
    _leaks("git diff", workspace, "AKIASECRET")
    _leaks("git grep KEY", workspace, "AKIASECRET")


def test_eg1_the_reader_reads_names_as_git_does(tmp_path: Path) -> None:
    # a name of 4,100 bytes (the flags say 0xFFF: git reads up to the NUL), a v4 index
    # (prefix compression), an extended entry (intent to add): the reader lists what
    # `git ls-files` lists, and the crafted index above reads as unreadable
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    (workspace / "ab.txt").write_text("KEY=plain\n")
    git_ok(workspace, "add", "a.txt")
    git_ok(workspace, "add", "-N", "ab.txt")
    blob = run_printed("git hash-object -w a.txt", workspace, env_beside(tmp_path)).strip()
    long_name = "/".join(["d" * 200] * 20) + "/x.txt"
    git_ok(workspace, "update-index", "--add", "--cacheinfo", f"100644,{blob},{long_name}")
    index = workspace / ".git" / "index"
    for version in ("2", "3", "4"):
        git_ok(workspace, "update-index", "--index-version", version)
        listed = run_printed("git ls-files -z", workspace, env_beside(tmp_path))
        entries = gitconfig._read_tracked(str(index), index.stat())
        assert entries is not None, version
        assert [e.path for e in entries] == listed.split("\0")[:-1], version
    _crafted(workspace, b"zz/.env")
    assert gitconfig._read_tracked(str(index), index.stat()) is None


def _sha256_repository(tmp_path: Path, *, tracked_env: bool) -> Path:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", "--object-format=sha256", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    (workspace / ".env").write_text("KEY=old\n")
    git_ok(workspace, "add", "a.txt", *(["-f", ".env"] if tracked_env else []))
    git_ok(workspace, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "one")
    (workspace / ".env").write_text("KEY=abc\n")
    return workspace


@pytest.mark.parametrize("line", ["git grep -n KEY", "git diff", "git diff HEAD", "git status -vv"])
def test_eg2_sha256_repository_with_a_tracked_env(tmp_path: Path, line: str) -> None:
    _leaks(line, _sha256_repository(tmp_path, tracked_env=True))


def test_eg2_sha256_repository_read_exactly(tmp_path: Path) -> None:
    # the index is read with 32-byte ids: an untracked `.env` is not printed, and allowed
    workspace = _sha256_repository(tmp_path, tracked_env=False)
    env = env_beside(tmp_path)
    out = run_printed("git grep KEY", workspace, env)
    assert "KEY=plain" in out, out
    assert "KEY=abc" not in out, out
    assert decide("git grep KEY", workspace, env).verdict is Verdict.ALLOW
    index = workspace / ".git" / "index"
    entries = gitconfig._read_tracked(str(index), index.stat())
    assert entries is not None
    assert [e.path for e in entries] == ["a.txt"]


def test_eg2_an_unknown_object_format_is_unreadable(tmp_path: Path) -> None:
    workspace = _sha256_repository(tmp_path, tracked_env=False)
    config = workspace / ".git" / "config"
    config.write_text(config.read_text().replace("sha256", "sha512"))
    index = workspace / ".git" / "index"
    assert gitconfig._read_tracked(str(index), index.stat()) is None


def _with_submodule(tmp_path: Path) -> Path:
    """A repository with a submodule `vend` whose `.git` is a folder; the submodule
    tracks a `.env`."""
    source = tmp_path / "subsrc"
    source.mkdir()
    git_ok(source, "init", "-q", ".")
    (source / "s.txt").write_text("KEY=sub\n")
    (source / ".env").write_text("KEY=abc\n")
    git_ok(source, "add", "-f", "s.txt", ".env")
    git_ok(source, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "s")
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    git_ok(workspace, "add", "a.txt")
    git_ok(workspace, "clone", "-q", str(source), "vend")
    git_ok(workspace, "submodule", "add", "-q", "./vend", "vend")
    return workspace


@pytest.mark.parametrize("where", ["global", "repository", "include"])
@pytest.mark.parametrize("line", ["git grep KEY", "git grep KEY -- a.txt vend"])
def test_eg3_submodule_recurse(tmp_path: Path, line: str, where: str) -> None:
    workspace = _with_submodule(tmp_path)
    env = env_beside(tmp_path)
    assert "KEY=abc" not in run_printed(line, workspace, env)
    assert decide(line, workspace, env).verdict is Verdict.ALLOW
    config = tmp_path / "home" / ".gitconfig"
    if where == "repository":
        config = workspace / ".git" / "config"
    elif where == "include":
        config.write_text("[include]\n\tpath = more.inc\n")
        config = tmp_path / "home" / "more.inc"
    with config.open("a") as file:
        file.write("[submodule]\n\trecurse = true\n")
    _leaks(line, workspace)


def _untracked_env(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    git_ok(workspace, "add", "a.txt")
    (workspace / ".env").write_text("KEY=abc\n")
    return workspace


def test_eg4_fallback_to_no_index(tmp_path: Path) -> None:
    workspace = _untracked_env(tmp_path)
    env = env_beside(tmp_path)
    assert decide("git grep KEY", workspace, env).verdict is Verdict.ALLOW
    (tmp_path / "home" / ".gitconfig").write_text("[grep]\n\tfallbackToNoIndex = true\n")
    decision = decide("git grep KEY", workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    if os.geteuid() == 0:  # a repository git finds dubious: git greps without the index
        os.chown(workspace / ".git", 4321, 4321)
        _leaks("git grep KEY", workspace)


def test_eg5_a_tracked_folder_replaced_by_a_link_into_git(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    (workspace / "d").mkdir()
    (workspace / "d" / "config").write_text("KEY=x\n")
    git_ok(workspace, "add", "a.txt", "d")
    git_ok(workspace, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "one")
    shutil.rmtree(workspace / "d")
    (workspace / "d").symlink_to(".git")
    git_ok(workspace, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic S0VZ")
    _leaks("git grep -e extraheader -e KEY", workspace, "AUTHORIZATION")


def test_eg5_a_tracked_folder_replaced_by_a_link_elsewhere(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    (workspace / "d").mkdir()
    (workspace / "d" / ".env").write_text("KEY=x\n")
    git_ok(workspace, "add", "-f", "a.txt", "d/.env")
    shutil.rmtree(workspace / "d")
    (workspace / "x" / ".env").write_text("KEY=abc\n")
    (workspace / "d").symlink_to("x")
    _leaks("git grep KEY", workspace)


def test_eg6_a_revision_before_dashes_that_is_also_a_folder(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    (workspace / ".env").write_text("KEY=abc\n")
    git_ok(workspace, "add", "-f", "a.txt", ".env")
    git_ok(workspace, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "one")
    git_ok(workspace, "rm", "-q", "--cached", ".env")
    git_ok(workspace, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "two")
    (workspace / "HEAD~1").mkdir()
    line = "git grep KEY HEAD~1 -- ."
    _leaks(line, workspace)
    assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.DENY


@pytest.mark.parametrize(
    "line", ["env git grep KEY", "git -C . grep KEY", "git grep --cached KEY", "git grep KEY"]
)
def test_a_crafted_entry_outside_the_work_tree_where_the_whole_tree_counts(
    tmp_path: Path, line: str
) -> None:
    # (found beside EG1) judged by the whole tree, `git grep` still greps what the index
    # names: an entry `../home/.aws/credentials` lies outside that tree, and asks
    workspace = copy_workspace(tmp_path)
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True)
    secret.write_text("KEY=AKIASECRET\n")
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    git_ok(workspace, "add", "a.txt")
    blob = run_printed(
        "git hash-object -w ../home/.aws/credentials", workspace, env_beside(tmp_path)
    ).strip()
    entry = f"100644,{blob},zz/home/.aws/credentials"
    git_ok(workspace, "update-index", "--add", "--cacheinfo", entry)
    index = workspace / ".git" / "index"
    data = bytearray(index.read_bytes())
    at = data.find(b"zz/home/.aws/credentials")
    data[at : at + 3] = b"../"
    body = bytes(data[:-20])
    index.write_bytes(body + hashlib.sha1(body).digest())
    _leaks(line, workspace, "AKIASECRET")
