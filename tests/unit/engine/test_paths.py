from __future__ import annotations

import os
from pathlib import Path

from policylang.engine import paths
from policylang.engine.paths import Cwd
from policylang.shell.model import Segment, SegmentKind, Word
from policylang.span import Span

HOME = "/home/u"
SPAN = Span(0, 0)


def _seg(*argv: str | None, group: int = 0, scopes: tuple[object, ...] = ()) -> Segment:
    words = tuple(Word(text=a or "$X", value=a, span=SPAN) for a in argv)
    return Segment(
        kind=SegmentKind.SIMPLE,
        words=words,
        group=group,
        scopes=scopes,  # type: ignore[arg-type]
        text=" ".join(a or "$X" for a in argv),
        span=SPAN,
    )


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


def test_is_within() -> None:
    assert paths.is_within("/w/x", "/w")
    assert not paths.is_within("/wx", "/w")
    assert paths.is_within("/anything", "/")
