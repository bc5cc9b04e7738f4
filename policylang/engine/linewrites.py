"""Engine stage: what a line's own writes change for the checks that looked before it ran.

A line is judged before it runs. Some checks look at the file system as it is then:
the configuration of the repository a `git` segment runs in, the ignore files that decide
whether `rg` reads hidden files, the links a path resolves through. A segment of the same
line that writes files can change what they looked at, for the segments after it (and,
in a loop or a background job, before it): `mkdir -p evil/objects evil/refs && … | tee
evil/HEAD && … | tee evil/config && git -C evil status` made `evil` a repository whose
`core.fsmonitor` the allowed `git status` ran (review BV1); `echo '!.env' | tee .ignore &&
rg KEY` printed `.env` (BV2); `git switch other && cat hl/.aws/credentials` read home
through a link the branch holds (BV5).

The walk notes what each segment writes (`written`: the resolved paths its path checks
met; `tree_writers`: programs that write files the line does not name, `git switch`,
`tar -x`, `patch`) and which checks depended on the file system (`git_reads`,
`hidden_skips`, `path_users`); `floor_line_writes` then makes those checks ask where
another segment's writes reach what they looked at. Lines without writes cost nothing
here: no file-system call is made for them.
"""

from __future__ import annotations

import os
from typing import Final

from policylang.decision import Verdict
from policylang.engine import paths, subtree
from policylang.engine.checks import PathChecks, SegmentState, short
from policylang.engine.gitconfig import bare_levels
from policylang.engine.paths import glob_matches, is_within

# what makes a folder a git directory, or changes what git runs or reads in one: written
# below a folder git's discovery reaches, the folder may be a repository after the write
_GITDIR_ENTRIES: Final = frozenset(
    {"HEAD", "config", "config.worktree", "commondir", "objects", "refs", "hooks", "info",
     "packed-refs", "worktrees", ".git"}
)  # fmt: skip
# ignore files whose `!pattern` lines make rg and ag read hidden files (`!.env`), and fd's
_IGNORE_NAMES: Final = subtree.IGNORE_FILES | {".fdignore"}


def _is_ignore_file(written: str) -> bool:
    name = os.path.basename(written)
    # (`info/exclude` of a repository, git's global `~/.config/git/ignore`: rg reads both)
    return name in _IGNORE_NAMES or written.endswith(("/info/exclude", "/git/ignore"))


def _normal_pattern(pattern: str) -> str:
    """An absolute glob with `.`, `..` and doubled slashes gone and the folders before its
    first wildcard resolved through their links, as written paths are."""
    folder = _literal_folder(pattern)
    # (realpath follows each link before the `..` after it, as the system does:
    # `docs/lnk/../t*` is below where `lnk` leads, review CK4)
    real = os.path.realpath(folder or "/")
    return os.path.normpath(real.rstrip("/") + pattern[len(folder) :])


def _literal_folder(pattern: str) -> str:
    """The folder of an absolute glob before its first wildcard (`/w/docs` of
    `/w/docs/cfg*/t*`)."""
    first = min((i for i in (pattern.find(c) for c in "*?[") if i >= 0), default=len(pattern))
    return pattern[:first].rpartition("/")[0]  # ("" for a glob at the root)


class LineWrites(PathChecks):
    """What the segments of one line write, and the checks made before those writes.

    (A subclass of `PathChecks` rather than a second base of the walk: the compiled build,
    mypyc, makes classes with one base only. `PathChecks` declares the lists shared with
    those checks: `written`, `git_reads`, `hidden_skips`, `path_users`, `clean_kept`,
    `glob_landings`.)
    """

    # segments that write files of the tree the line does not name, what runs, and
    # whether it is git (which writes and reads the work tree without following links)
    tree_writers: list[tuple[SegmentState, str, bool]]
    # segments (by `id`) that only remove files (`rm -r`): they add no ignore file
    removers: set[int]
    # segments that make a folder a git directory in a way no written path shows (`git
    # init --bare evil`, `git init --template=t`), and what runs
    gitdir_makers: list[tuple[SegmentState, str]]
    # approved programs no rule describes, which may write any file (`rclone copy`)
    unnamed_writers: list[tuple[SegmentState, str]]

    def init_line_writes(self) -> None:
        self.written = []
        self.tree_writers = []
        self.removers = set()
        self.gitdir_makers = []
        self.git_reads = []
        self.hidden_skips = []
        self.resplit_globs = []
        self.named_ignores = []
        self.path_users = {}
        self.unnamed_writers = []
        self.clean_kept = []
        self.tracked_greps = []
        self.index_changers = []

    def adopt_line_writes(self, inner: LineWrites, seg: SegmentState) -> None:
        """What the line an approved program runs writes and reads, as `seg`'s own
        (`strace tee evil/config`, `strace git -C evil status`)."""
        self.written.extend((seg, form, deep) for _s, form, deep in inner.written)
        self.tree_writers.extend((seg, what, git) for _s, what, git in inner.tree_writers)
        self.gitdir_makers.extend((seg, what) for _s, what in inner.gitdir_makers)
        self.git_reads.extend((seg, dirs) for _s, dirs in inner.git_reads)
        self.hidden_skips.extend((seg, shown) for _s, shown in inner.hidden_skips)
        self.resplit_globs.extend((seg, shown) for _s, shown in inner.resplit_globs)
        self.named_ignores.extend(inner.named_ignores)
        self.unnamed_writers.extend((seg, what) for _s, what in inner.unnamed_writers)
        self.clean_kept.extend((seg, path) for _s, path in inner.clean_kept)
        self.tracked_greps.extend((seg, gitdirs) for _s, gitdirs in inner.tracked_greps)
        self.index_changers.extend((seg, what) for _s, what in inner.index_changers)
        if inner.path_users:
            self.path_users[id(seg)] = seg

    def floor_line_writes(self, segments: list[SegmentState]) -> None:
        """The floors of the line's writes on the checks made before them. Any other
        segment counts, before or after in the text: loops and background jobs run
        segments in another order than they are written (review Y1). Each floor costs
        time linear in the line's writes and checks (a line may hold thousands)."""
        if self.tracked_greps:
            self._floor_index_changes()
        if not (self.written or self.tree_writers or self.gitdir_makers or self.unnamed_writers):
            return
        unseen = _Writers()
        for seg, what, _git in self.tree_writers:
            unseen.add(seg, f"`{short(what)}` may write files there")
        self._floor_planted_repositories(unseen)
        self._floor_written_ignore_files()
        self._floor_resplit_globs()
        self._floor_checked_out_links(segments)
        self._floor_head_writes()
        self._land_written_glob_matches()
        self._floor_untracking()

    def _floor_planted_repositories(self, unseen: _Writers) -> None:
        """A git segment asks where another segment may write the git directory it runs
        in: the engine read that repository's configuration before the line runs (review
        BV1: `… | tee evil/config && git -C evil status` ran its `core.fsmonitor`). At a
        repository's top `.git` is found first, which the protect rules keep, so `npm run
        build && git status` holds; `git -C sub status` and `cd sub && git status` look
        for a bare repository in `sub` and the folders above it first."""
        if not self.git_reads:
            return
        for seg, what in self.gitdir_makers:
            unseen.add(seg, f"`{short(what)}` makes a git directory")
        # folder → the writes that may make it, or change it as, a git directory: an
        # entry git reads there (`evil/config`, `evil/objects/…`), or the folder itself
        # or one above it as a whole (`cp -r fixture.git evil`)
        entries: dict[str, _Writers] = {}
        wholes: dict[str, _Writers] = {}
        for seg, form, _deep in self.written:
            how = f"the line writes `{short(form)}`"
            wholes.setdefault(form, _Writers()).add(seg, how)
            parts = form.split("/")
            for index in range(1, len(parts)):
                if parts[index] in _GITDIR_ENTRIES:
                    folder = "/".join(parts[:index]) or "/"
                    entries.setdefault(folder, _Writers()).add(seg, how)
        levels: dict[str, list[str]] = {}  # `bare_levels`, once per directory
        for seg, directories in self.git_reads:
            for directory in directories:
                if directory not in levels:
                    levels[directory] = bare_levels(directory)
                found = _first_planted(levels[directory], seg, unseen, entries, wholes)
                if found is not None:
                    _planted(seg, *found)
                    break

    def _floor_written_ignore_files(self) -> None:
        """A recursive reader judged to skip hidden files (`rg`, `ag`) asks where another
        segment writes an ignore file, a whole tree (not `rm -r`), or files no path names:
        a `!.env` line makes it read `.env` after all, and the engine read the ignore
        files before the line runs (review BV2: `echo '!.env' | tee .ignore && rg KEY`)."""
        if not self.hidden_skips:
            return
        causes = _Writers()
        named = frozenset(self.named_ignores)  # (`rg --ignore-file F`'s, closing 28)
        for seg, form, deep in self.written:
            if _is_ignore_file(form) or form in named or (deep and id(seg) not in self.removers):
                causes.add(seg, f"writes `{short(form)}`")
        for seg, what, _git in self.tree_writers:
            causes.add(seg, f"runs `{short(what)}`, which may write one")
        for seg, shown in self.hidden_skips:
            cause = causes.other_than(seg)
            if cause is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.ignore-in-line",
                    f"reads `{short(shown)}` recursively, skipping hidden files as its "
                    f"ignore files say; the line {cause}, an ignore file whose `!` lines "
                    "can make it read hidden files such as `.env`",
                )

    def _floor_resplit_globs(self) -> None:
        """An unquoted loop variable over a glob asks where another segment writes files:
        the glob may match a name the line makes (`touch 'x .e*'`), which bash splits and
        expands again (review ES1); the engine looked at the names there before the line."""
        if not self.resplit_globs:
            return
        causes = _Writers()
        for seg, form, _deep in self.written:
            causes.add(seg, f"writes `{short(form)}`")
        for seg, what, _git in self.tree_writers:
            causes.add(seg, f"runs `{short(what)}`, which may write files")
        for seg, what in self.unnamed_writers:
            causes.add(seg, f"runs `{short(what)}`, which may write files")
        for seg, shown in self.resplit_globs:
            cause = causes.other_than(seg)
            if cause is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.glob-path",
                    f"`{short(shown)}` is unquoted and stands for a glob's matches, which bash "
                    f"splits and expands again; the line {cause}, whose name it may match",
                )

    def _floor_index_changes(self) -> None:
        """Plain `git grep` was judged by the index as it is before the line runs (open
        items I); another segment may change what git tracks first: a git verb that is
        not one that only reads (`git reset -q OLD -- .env`, `git add -N .env`,
        `git read-tree`), a write into or over the git directory, a program that writes
        files the line does not name (`tar -x` of a `.git/index`). Then it asks."""
        causes = _Writers()
        for seg, what in self.index_changers:
            causes.add(seg, f"runs `{short(what)}`, which may change what git tracks")
        for seg, what, _git in self.tree_writers:
            causes.add(seg, f"runs `{short(what)}`, which may write files there")
        for seg, what in (*self.unnamed_writers, *self.gitdir_makers):
            causes.add(seg, f"runs `{short(what)}`, which may write files there")
        for seg, gitdirs in self.tracked_greps:
            cause = causes.other_than(seg)
            if cause is None:
                cause = next(
                    (
                        f"writes `{short(form)}`"
                        for other, form, _deep in self.written
                        for gitdir in gitdirs
                        if other is not seg
                        and (is_within(form, gitdir) or is_within(gitdir, form))
                    ),
                    None,
                )
            if cause is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.git-tracked",
                    "`git grep` prints the files the index tracks, read before the line "
                    f"runs; the line {cause}",
                )

    def _floor_untracking(self) -> None:
        """`git clean` keeps the protected files git tracks or ignores, as the index and
        the ignore files are before the line runs; another git segment may untrack them
        or rewrite the ignore files first (review CP5: `git reset -q HEAD~ && git clean
        -f` and `git rm -rq --cached . && git clean -f` removed `CLAUDE.md` and
        `.mcp.json`; review CR4: `git checkout old -- .gitignore && git clean -fd`
        removed `.env` and `.claude/`, under approvals of each)."""
        if not self.clean_kept:
            return
        causes = _Writers()
        for seg, what, git in self.tree_writers:
            if git:
                what = f"runs `{short(what)}`, which may change what git tracks or ignores"
                causes.add(seg, what)
        floored: set[int] = set()
        for seg, path in self.clean_kept:
            cause = causes.other_than(seg)
            if cause is not None and id(seg) not in floored:
                floored.add(id(seg))
                seg.floor(
                    Verdict.ASK,
                    "engine.git-clean",
                    f"`git clean` keeps `{short(path)}`, where a protect rule applies, only "
                    f"while git tracks or ignores it; the line {cause}",
                )

    def _floor_checked_out_links(self, segments: list[SegmentState]) -> None:
        """Every other segment that resolved a path asks where a segment writes files no
        path of the line names: `git switch`, `tar -x`, `patch` can make symbolic links
        (a branch may commit `hl -> /home/u`), which the paths were not resolved through
        (review BV5). Segments that name no path (`git log`) are left alone, and so are
        git's own tree writers after git's (`git stash && git pull && git stash pop`):
        git writes a link of the tree as a link and refuses a path beyond one."""
        if not self.tree_writers:
            return
        makers = _Writers()
        others = _Writers()  # the makers that are not git
        by_git: set[int] = set()
        for seg, what, git in self.tree_writers:
            makers.add(seg, what)
            if git:
                by_git.add(id(seg))
            else:
                others.add(seg, what)
        for seg in segments:
            if id(seg) not in self.path_users:
                continue
            maker = (others if id(seg) in by_git else makers).other_than(seg)
            if maker is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.link-in-line",
                    f"`{short(maker)}` writes files in this line that may be links, so the "
                    "paths of the other commands may lead anywhere",
                )

    def _land_written_glob_matches(self) -> None:
        """A file another segment writes that a copy's glob source matches lands below
        the copy's target too (review CI6: `cp cfg/tasks.json docs/ && cp docs/*
        .vscode/`: the glob matched nothing when the line was judged)."""
        if not self.glob_landings:
            return
        for landing, pattern, cut in self.glob_landings:
            for seg, what in self.unnamed_writers:
                if seg is not landing.seg:
                    # what it wrote is not known (review CM9: `rclone copy cfg/tasks.json
                    # docs/x && cp docs/x/t* .vscode/` under approvals of both)
                    landing.seg.floor(
                        Verdict.ASK,
                        "engine.glob-path",
                        f"the glob `{short(pattern[cut:])}` may match files `{short(what)}` "
                        "writes in this line, which no rule describes",
                    )
                    break
            # (the pattern as the written paths are: `./docs/t*`, `docs//t*`,
            # `cfg/../docs/t*` and a linked folder are the same files: review CJ5)
            normal = _normal_pattern(pattern)
            folders = {_literal_folder(pattern) or "/", _literal_folder(normal) or "/"}
            for seg, form, deep in self.written:
                if seg is landing.seg:
                    continue
                if glob_matches(form, pattern) or glob_matches(form, normal):
                    self.land_glob_match(landing, form, form[cut:])
                elif (
                    deep
                    and id(seg) not in self.removers
                    and any(is_within(f, form) or is_within(form, f) for f in folders)
                ):
                    # a tree copied in whole (`rsync -r cfg docs/ && cp docs/cfg/t*
                    # .vscode/`, review CL3): its files, which the glob may match, are
                    # not named here
                    landing.seg.floor(
                        Verdict.ASK,
                        "engine.glob-path",
                        f"the glob `{short(pattern[cut:])}` may match files the line "
                        f"copies into `{short(form)}` as a whole tree, which cannot be "
                        "named where they are copied to",
                    )

    def _floor_head_writes(self) -> None:
        """Writing a file named `HEAD` next to `objects/` and `refs/` (there before, or
        made by the line) makes that folder a git directory, whose configuration every
        later `git` there reads, the user's and an editor's too: no approval covers it
        (review BV1: `src` became a repository with a `core.fsmonitor`)."""
        heads = [
            (seg, form)
            for seg, form, _deep in self.written
            if os.path.basename(form) == "HEAD" and ".git" not in form.split("/")
        ]
        if not heads:
            return
        made = {a for _s, form, _d in self.written for a in paths.ancestors(form)}
        for seg, form in heads:
            folder = os.path.dirname(form)
            parts = (f"{folder}/objects", f"{folder}/refs")
            if all(part in made or os.path.isdir(part) for part in parts):
                seg.floor(
                    Verdict.ASK,
                    "engine.git-directory",
                    f"writes `{short(form)}` beside `objects/` and `refs/`, which makes "
                    f"`{short(folder)}` a git directory: its `config` can make git run programs",
                )


class _Writers:
    """The first two segments that did something, and what: enough to name one other
    than any given segment in constant time."""

    def __init__(self) -> None:
        self.found: list[tuple[SegmentState, str]] = []

    def add(self, seg: SegmentState, what: str) -> None:
        if len(self.found) < 2 and all(other is not seg for other, _what in self.found):
            self.found.append((seg, what))

    def other_than(self, seg: SegmentState) -> str | None:
        return next((what for other, what in self.found if other is not seg), None)


def _first_planted(
    levels: list[str],
    seg: SegmentState,
    unseen: _Writers,
    entries: dict[str, _Writers],
    wholes: dict[str, _Writers],
) -> tuple[str, str] | None:
    """The first of `levels` a segment other than `seg` may make a git directory, and how."""
    for level in levels:
        how = unseen.other_than(seg) or _planting(level, seg, entries, wholes)
        if how is not None:
            return how, level
    return None


def _planting(
    level: str, seg: SegmentState, entries: dict[str, _Writers], wholes: dict[str, _Writers]
) -> str | None:
    """How a segment other than `seg` may make `level` a git directory (None: none)."""
    found = entries.get(level)
    how = found.other_than(seg) if found is not None else None
    for folder in paths.ancestors(level):
        if how is not None:
            break
        whole = wholes.get(folder)
        how = whole.other_than(seg) if whole is not None else None
    return how


def _planted(seg: SegmentState, how: str, level: str) -> None:
    seg.floor(
        Verdict.ASK,
        "engine.git-config",
        f"git may take `{short(level)}` for its repository, and {how}: a repository made "
        "or changed in this line (its `config`, `HEAD`, hooks) can make git run programs, "
        "and the engine read it before the line runs",
    )
