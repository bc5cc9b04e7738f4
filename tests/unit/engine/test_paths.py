from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policylang.engine import paths
from policylang.engine.paths import Cwd
from policylang.shell.model import Expansion, ExpansionKind, Segment, SegmentKind, Word
from policylang.span import Span

HOME = "/home/u"
SPAN = Span(0, 0)


def _seg(*argv: str | None, group: int = 0, scopes: tuple[object, ...] = ()) -> Segment:
    words = tuple(_word(a) for a in argv)
    return Segment(
        kind=SegmentKind.SIMPLE,
        words=words,
        group=group,
        scopes=scopes,  # type: ignore[arg-type]
        text=" ".join(a or "$X" for a in argv),
        span=SPAN,
    )


def _word(text: str | None) -> Word:
    """A word as the analyser builds it: `$X` for None, and an unquoted leading `~` is a
    tilde expansion with no literal value (a literal `~` would be a quoted one)."""
    if text is not None and text.startswith("~"):
        tilde = Expansion(kind=ExpansionKind.TILDE, text=text.split("/")[0], span=SPAN)
        return Word(text=text, value=None, expansions=(tilde,), span=SPAN)
    return Word(text=text or "$X", value=text, span=SPAN)


def test_lexical_collapses_traversal_and_home() -> None:
    assert paths.lexical("../../etc/passwd", "/w/a/b", HOME) == "/w/etc/passwd"
    assert paths.lexical("~", "/w", HOME) == HOME
    assert paths.lexical("~other/x", "/w", HOME) is None
    assert paths.lexical("//etc", "/w", HOME) == "/etc"


def test_resolve_follows_symlinks(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (tmp_path / "link").symlink_to(secret)
    forms, complete = paths.resolve("link/key", Cwd(candidates=frozenset({str(tmp_path)})), HOME)
    assert complete
    assert str(tmp_path / "link" / "key") in forms
    assert os.path.join(os.path.realpath(secret), "key") in forms


def test_relative_path_under_unknown_cwd_is_incomplete() -> None:
    cwd = Cwd(candidates=frozenset({"/w"}), known=False)
    assert paths.resolve("x", cwd, HOME)[1] is False
    assert paths.resolve("/etc/x", cwd, HOME)[1] is True


def test_cd_changes_later_segments_of_same_group() -> None:
    segs = [_seg("cd", "~/.ssh"), _seg("cat", "id_rsa")]
    cwds = paths.track(segs, Cwd(candidates=frozenset({"/w"})), HOME)
    assert cwds[0].candidates == {"/w"}
    # the cd may fail: both directories are candidates
    assert cwds[1].candidates == {"/w", "/home/u/.ssh"}


def test_cd_in_subshell_does_not_leak() -> None:
    segs = [_seg("cd", "/etc", group=1), _seg("cat", "x", group=1), _seg("cat", "y", group=0)]
    cwds = paths.track(segs, Cwd(candidates=frozenset({"/w"})), HOME)
    assert "/etc" in cwds[1].candidates
    assert cwds[2].candidates == {"/w"}


def test_cd_non_literal_makes_cwd_unknown() -> None:
    segs = [_seg("cd", None), _seg("cat", "x")]
    cwds = paths.track(segs, Cwd(candidates=frozenset({"/w"})), HOME)
    assert cwds[1].known is False
    segs = [_seg("cd", "-"), _seg("cat", "x")]
    assert paths.track(segs, Cwd(candidates=frozenset({"/w"})), HOME)[1].known is False


def test_cd_without_operand_goes_home() -> None:
    segs = [_seg("cd"), _seg("cat", "x")]
    assert HOME in paths.track(segs, Cwd(candidates=frozenset({"/w"})), HOME)[1].candidates


def test_cd_in_loop_applies_to_every_segment() -> None:
    from policylang.shell.model import Scope

    segs = [
        _seg("cat", "id_rsa", scopes=(Scope.LOOP_BODY,)),
        _seg("cd", "/s", scopes=(Scope.LOOP_BODY,)),
    ]
    cwds = paths.track(segs, Cwd(candidates=frozenset({"/w"})), HOME)
    assert "/s" in cwds[0].candidates


def test_too_many_candidates_become_unknown() -> None:
    segs = [_seg("cd", f"/d{i}") for i in range(paths.MAX_CANDIDATES + 1)] + [_seg("ls")]
    assert paths.track(segs, Cwd(candidates=frozenset({"/w"})), HOME)[-1].known is False


@given(st.text("/wx.", max_size=6), st.text("/wx.", max_size=6))
def test_is_within_is_the_plain_prefix_rule(path: str, root: str) -> None:
    # (written without making a string: it must still say what the plain rule says)
    plain = root == "/" or path == root or path.startswith(root.rstrip("/") + "/")
    assert paths.is_within(path, root) is plain


def test_is_within() -> None:
    assert paths.is_within("/w/x", "/w")
    assert not paths.is_within("/wx", "/w")
    assert paths.is_within("/anything", "/")


def _link_maze(root: Path) -> list[str]:
    """A small tree of files, directories and every kind of link; the names to combine."""
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f").write_text("")
    (root / "la").symlink_to(root / "a")  # a link to a directory
    (root / "dang").symlink_to("/nonexistent-target/x")  # dangling
    (root / "dd").symlink_to("dang")  # a link to a dangling link
    (root / "a" / "rel").symlink_to("b/../b")  # relative, with `..`
    (root / "a" / "b" / "up").symlink_to("../..")
    (root / "a" / "b" / "lf").symlink_to("f")
    (root / "a" / "b" / "fx").symlink_to("f/x")  # through a file
    (root / "loop1").symlink_to(root / "loop2")
    (root / "loop2").symlink_to(root / "loop1")
    os.mkfifo(root / "fifo")
    return ["a", "b", "f", "la", "dang", "dd", "rel", "up", "lf", "fx", "loop1", "fifo", "no"]


def test_real_agrees_with_realpath(tmp_path: Path) -> None:
    # `real` takes shortcuts (the kernel's resolution, stopping below a missing
    # component); it must give exactly what os.path.realpath gives, links of every kind
    names = _link_maze(tmp_path)
    checked = 0
    for depth in (1, 2, 3):
        for combo in itertools.product(names, repeat=depth):
            path = "/".join((str(tmp_path), *combo))
            assert paths.real(path) == os.path.realpath(path), path
            checked += 1
    for path in ("/", "/nonexistent/workspace/x", "/etc/passwd", "/dev/null", "/proc/self/fd/0"):
        assert paths.real(path) == os.path.realpath(path), path
    assert checked > 2000


def test_real_never_raises() -> None:
    assert paths.real("/a\0b") == "/a\0b"
    assert paths.real("/" + "x" * 5000) == "/" + "x" * 5000


def test_lexical_agrees_with_normpath() -> None:
    # lexical() skips normpath when the joined path is already normal; same answers
    def reference(path: str, cwd: str, home: str) -> str | None:
        if path.startswith("~"):
            if path != "~" and not path.startswith("~/"):
                return None
            path = home + path[1:]
        normal = os.path.normpath(os.path.join(cwd, path))
        return "/" + normal.lstrip("/") if normal.startswith("//") else normal

    parts = ("a", ".", "..", "", ".x", "~", "b.c", "/")
    for cwd in ("/", "/w", "/w/", "//w", "/w/.", "w", "/w/a/..", ""):
        for home in ("/h", "/", "/h/"):
            for size in (1, 2, 3):
                for combo in itertools.product(parts, repeat=size):
                    path = "/".join(combo)
                    assert paths.lexical(path, cwd, HOME) == reference(path, cwd, HOME)
                    assert paths.lexical(path, cwd, home) == reference(path, cwd, home)


# --- `..` after a link, and /proc's per-process directories (review B-F11, A-F13) -----------


def test_dotdot_after_a_link_is_physical(tmp_path: Path) -> None:
    # the kernel resolves `lnk/..` to the parent of lnk's target, not to the cwd
    (tmp_path / "home" / "projects").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "lnk").symlink_to(tmp_path / "home" / "projects")
    cwd = Cwd(candidates=frozenset({str(tmp_path / "ws")}))
    forms, complete = paths.resolve("lnk/../.aws/credentials", cwd, HOME)
    assert complete
    assert str(tmp_path / "ws" / ".aws" / "credentials") in forms  # the lexical form
    assert os.path.realpath(tmp_path / "home") + "/.aws/credentials" in forms


def test_real_agrees_with_realpath_on_unnormalised_paths(tmp_path: Path) -> None:
    names = [*_link_maze(tmp_path), "..", ".", ""]
    for depth in (1, 2, 3):
        for combo in itertools.product(names, repeat=depth):
            path = "/".join((str(tmp_path), *combo))
            assert paths.real(path) == os.path.realpath(path), path
            resolved, process = paths.physical(path, paths.normal(path))
            assert (resolved, process) == (os.path.realpath(path), False), path


def test_cd_through_a_link_then_up_reaches_the_physical_parent(tmp_path: Path) -> None:
    (tmp_path / "home" / "projects").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "lnk").symlink_to(tmp_path / "home" / "projects")
    start = Cwd(candidates=frozenset({str(tmp_path / "ws")}))
    physical_home = os.path.realpath(tmp_path / "home")
    # `cd -P lnk/..` (and bash's fallback for `cd lnk/..`) is the physical directory
    after = paths.track([_seg("cd", "-P", "lnk/.."), _seg("cat", "x")], start, HOME)[1]
    assert physical_home in after.candidates
    assert str(tmp_path / "ws") in after.candidates  # the logical one too
    # `cd lnk; cat ../x`: `..` of the link's target
    after = paths.track([_seg("cd", "lnk"), _seg("cat", "x")], start, HOME)[1]
    forms = paths.resolve("../.aws/credentials", after, HOME)[0]
    assert physical_home + "/.aws/credentials" in forms
    # `git -C lnk/..`
    moved = paths.moved(start, "lnk/..", HOME)
    assert physical_home in moved.candidates


@pytest.mark.parametrize(
    "path",
    [
        "/proc/self/cwd/.env",
        "/proc/self/cwd/../x",
        "/proc/thread-self/cwd/x",
        "/proc/self/fd/../cwd/x",
        "/proc/self/root/etc/x",
        "/proc/self/task/1/root/x",
        "/proc/1/cwd/x",
        "/proc/self/fd/3",
        "/dev/fd/../cwd/x",
        "/dev/fd/0/../../cwd/x",
        "/dev/stdin/../../cwd",
        "/tmp/../proc/self/cwd/x",
    ],
)
def test_process_relative_proc_paths_are_unknown(path: str) -> None:
    cwd = Cwd(candidates=frozenset({"/w"}))
    forms, _, process = paths.resolve_all(path, cwd, HOME)
    assert process, path
    assert paths.resolve(path, cwd, HOME)[1] is False
    # nothing resolved in policylang's own process is offered as a form
    assert not any(form.startswith(os.getcwd() + "/") for form in forms)


@pytest.mark.parametrize(
    "path",
    [
        "/proc/cpuinfo",
        "/proc/meminfo",
        "/proc/loadavg",
        "/proc/self/status",
        "/proc/1/cmdline",
        "/proc/net/dev",
        "/proc/mounts",
        "/dev/fd/../../../etc/hostname",  # `..` out of /proc ends where it would anywhere
    ],
)
def test_system_proc_paths_stay_known(path: str) -> None:
    assert paths.resolve_all(path, Cwd(candidates=frozenset({"/w"})), HOME)[1:] == (True, False)


def test_link_into_proc_self_is_unknown(tmp_path: Path) -> None:
    (tmp_path / "me").symlink_to("/proc/self")
    (tmp_path / "fds").symlink_to("/dev/fd")
    cwd = Cwd(candidates=frozenset({str(tmp_path)}))
    for path in ("me/cwd/x", "fds/../cwd/x", "me/root/etc/x"):
        assert paths.resolve_all(path, cwd, HOME)[2], path
    # a `cd` there leaves the directory unknown
    after = paths.track([_seg("cd", "me/cwd"), _seg("cat", "x")], cwd, HOME)[1]
    assert after.known is False
    after = paths.track([_seg("cd", "/proc/self/cwd/.."), _seg("ls")], cwd, HOME)[1]
    assert after.known is False


def test_kernel_real_and_path_entries_agree_with_realpath(tmp_path: Path) -> None:
    # PATH entries are resolved with `kernel_real` first (one call fewer than `real`);
    # an entry's place must be exactly what os.path.realpath gives, links of every kind
    from policylang.engine.evaluate import _physical_entry

    names = _link_maze(tmp_path)
    checked = 0
    for depth in (1, 2, 3):
        for combo in itertools.product([*names, "..", "."], repeat=depth):
            path = "/".join((str(tmp_path), *combo))
            expected = os.path.realpath(path)
            assert _physical_entry(path, os.path.normpath(path)) == (expected, False), path
            kernel = paths.kernel_real(path)
            assert kernel is None or kernel == expected, path
            checked += 1
    for path in ("/", "//usr/bin", "/usr/bin/"):
        assert _physical_entry(path, os.path.normpath(path))[0] == os.path.realpath(path), path
    assert paths.kernel_real("/a\0b") is None
    assert checked > 3000


def test_a_path_entry_through_proc_depends_on_the_process(tmp_path: Path) -> None:
    # review DZ1: `/proc/self/cwd/bin`, or a link to it, names a folder of whoever looks
    from policylang.engine.evaluate import _physical_entry

    (tmp_path / "lnk").symlink_to("/proc/self/cwd/.t")
    for entry in ("/proc/self/cwd/bin", "/proc/thread-self/cwd/bin", str(tmp_path / "lnk"),
                  "/dev/fd/../cwd/bin"):
        assert _physical_entry(entry, os.path.normpath(entry))[1] is True, entry
    assert _physical_entry("/usr/bin", "/usr/bin") == (os.path.realpath("/usr/bin"), False)


def test_names_starting_lists_a_folder_as_it_is_now(tmp_path: Path) -> None:
    for name in ("git-lfs", "git-foo", "python", "gitk"):
        (tmp_path / name).touch()
    assert sorted(paths.names_starting(str(tmp_path), "git-", 100)) == ["git-foo", "git-lfs"]
    # just changed: not kept, so a change within the same timestamp tick is still seen
    assert (str(tmp_path), "git-") not in paths._LISTINGS
    (tmp_path / "git-new").touch()
    assert "git-new" in paths.names_starting(str(tmp_path), "git-", 100)
    assert paths.names_starting(str(tmp_path), "git-", 1) in (
        (),
        ("git-foo",),
        ("git-lfs",),
        ("git-new",),
    )
    with pytest.raises(FileNotFoundError):
        paths.names_starting(str(tmp_path / "missing"), "git-", 100)


@pytest.mark.source
def test_a_kept_listing_follows_every_change_of_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (a settled folder's listing is kept between lines; any entry made, removed or
    # renamed changes the folder's stamp, and the folder is read again)
    monkeypatch.setattr(paths, "_SETTLED_NS", -(10**18))  # every folder counts as settled
    folder = str(tmp_path)
    (tmp_path / "git-lfs").touch()
    assert paths.names_starting(folder, "git-", 100) == ("git-lfs",)
    assert (folder, "git-") in paths._LISTINGS
    (tmp_path / "git-evil").touch()
    assert sorted(paths.names_starting(folder, "git-", 100)) == ["git-evil", "git-lfs"]
    (tmp_path / "git-lfs").rename(tmp_path / "git-lfs2")
    assert sorted(paths.names_starting(folder, "git-", 100)) == ["git-evil", "git-lfs2"]
    (tmp_path / "git-evil").unlink()
    assert paths.names_starting(folder, "git-", 100) == ("git-lfs2",)


def test_folder_names_tells_which_names_a_folder_may_hold(tmp_path: Path) -> None:
    for name in ("node", "Python3", "k\u212aubectl"):  # (a Kelvin sign)
        (tmp_path / name).touch()
    stamp = paths.folder_stamp(str(tmp_path))
    assert stamp is not None
    names = paths.folder_names(str(tmp_path), stamp)
    assert names is not None
    # folded alike: a file system that ignores case finds `NODE`, `python3`, `kkubectl`
    for name in ("node", "NODE", "python3", "Python3", "kkubectl", "KKUBECTL"):
        assert paths.folded_name(name) in names, name
    assert paths.folded_name("nod") not in names
    # just changed: not kept (a change within the same timestamp tick would go unseen)
    assert str(tmp_path) not in paths._NAMES
    assert paths.folder_stamp(str(tmp_path / "node")) is None  # a file holds nothing
    assert paths.folder_stamp(str(tmp_path / "missing")) is None


@pytest.mark.source
def test_a_kept_folder_listing_follows_every_change_of_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paths, "_SETTLED_NS", -(10**18))  # every folder counts as settled
    folder = str(tmp_path)

    def names() -> frozenset[str] | None:
        stamp = paths.folder_stamp(folder)
        assert stamp is not None
        found = paths.folder_names(folder, stamp)
        # (the next change comes a clock tick later: the guard of `_SETTLED_NS` is off)
        time.sleep(0.02)
        return found

    (tmp_path / "ls").touch()
    assert names() == {"ls"}
    assert folder in paths._NAMES
    (tmp_path / "cat").touch()
    assert names() == {"ls", "cat"}
    (tmp_path / "ls").rename(tmp_path / "rg")
    assert names() == {"rg", "cat"}
    (tmp_path / "cat").unlink()
    assert names() == {"rg"}
    # a time set back (`touch -d`) does not bring the old stamp back: the change time moves
    before = paths.folder_stamp(folder)
    assert before is not None
    (tmp_path / "git").touch()
    os.utime(folder, ns=(before[2], before[2]))
    assert names() == {"rg", "git"}


def test_a_just_changed_file_gets_a_version_of_its_own_each_time(tmp_path: Path) -> None:
    # (a memo kept by it never finds it again: a change within the same tick is seen)
    fresh = tmp_path / "script"
    fresh.write_text("#!/bin/sh\n")
    info = os.stat(fresh)
    assert paths.file_version(info) != paths.file_version(info)


@pytest.mark.source
def test_a_kept_shebang_follows_a_rewrite_with_its_time_set_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from policylang.engine import evaluate

    monkeypatch.setattr(paths, "_SETTLED_NS", -(10**18))  # every file counts as settled
    script = tmp_path / "tool"
    script.write_text("#!/usr/bin/env node\n")
    info = os.stat(script)
    assert paths.file_version(info) == paths.file_version(info)
    assert evaluate._shebang(str(script)) == ("/usr/bin/env", "node")
    time.sleep(0.02)  # a clock tick later (the guard is off)
    script.write_text("#!/usr/bin/env perl\n")  # the same size
    os.utime(script, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert evaluate._shebang(str(script)) == ("/usr/bin/env", "perl")
