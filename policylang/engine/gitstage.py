"""Engine stage: what `git add` would stage that a protect rule covers (review AL9), and
what `git clean` would remove (the approval oracle, run 2).

`git add .env` names the file and is judged as a read of it. `git add -A`, `git add .` or
`git add 'src/*'` name no file, yet stage every untracked file below that git does not
ignore: a workspace `.env` would go into the next commit, and with a routine `git commit`
and `git push` to the remote. So the tree below each pathspec is walked (`.git`
skipped), and a protected file there that the index does not track and no ignore file
surely ignores is reported.

The ignore check errs on the side of "not ignored" (a question, not a leak): only the
ignore files of the repository are read (`.gitignore` from the top down to the file, and
`.git/info/exclude`), and git's global one when the caller is sure which it is; the last
pattern that matches decides, a negation (`!`) for "not ignored"; an escape or an
unreadable file in one of them makes the answer "not ignored". `git clean` removes
the untracked files git does not ignore below its pathspecs: the same walk finds the
protected ones among them (`CLAUDE.md`, `.mcp.json` made here and never committed).
Imports only the stdlib and `rules.globs`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from policylang.rules.globs import glob_regex

# `git add`'s long options (git 2.39), which git takes by any unique prefix and, but for
# the valued ones, negated with `--no-` (review CR2: `--al`, `--no-dry-run` after `-n`)
_ADD_LONG = (
    "dry-run", "verbose", "interactive", "patch", "edit", "force", "update", "renormalize",
    "intent-to-add", "all", "ignore-removal", "refresh", "ignore-errors", "ignore-missing",
    "sparse", "chmod", "pathspec-from-file", "pathspec-file-nul", "warn-embedded-repo",
)  # fmt: skip
_ADD_SHORT = {"n": "dry-run", "v": "verbose", "i": "interactive", "p": "patch", "e": "edit",
              "f": "force", "u": "update", "N": "intent-to-add", "A": "all"}  # fmt: skip
# `git clean`'s long options (git 2.39)
_CLEAN_LONG = ("dry-run", "force", "interactive", "quiet", "exclude")
# the options after which `git add` stages no untracked file (the last of each wins)
_NOTHING_NEW = frozenset({"dry-run", "update", "refresh", "renormalize"})
# a backslash is a pattern escape to git (`.en\\v` is `.env`), so it globs too (review EQ2)
_GLOB = re.compile(r"[*?\[\\]")
# a bracket set as the engine reads it (`[!…]`, `[^…]`, a `]` first in it); a `[` not
# opening one is a literal to the engine but aborts git's wildmatch (review EQ1)
_SETS = re.compile(r"(?:[^\[]|\[(?>[!^]?)(?>\]?)[^\]]*\])*")
_MAX_IGNORE_BYTES = 1 << 20
# a stash as a revision or tree: `stash`, `refs/stash`, `stash@{1}`, `stash^2`, `stash:dir`
_STASH_REVISION = re.compile(r"(?:refs/)?stash(?:@\{[^}]*\})?(?:[~^][0-9]*|\^\{[^}]*\})*(?::.*)?")


def may_name_stash(revision: str) -> bool:
    """Whether `revision` may name a stash's commit or tree (reviews EW4, FD2): by its
    name (`stash@{0}`, `refs/stash^2`), or as the newest commit whose message matches
    (`:/WIP on`, which searches every ref, the stash's too). An object id may also be
    the stash's: the callers say what they do with those."""
    return revision.startswith(":/") or _STASH_REVISION.fullmatch(revision) is not None


@dataclass(frozen=True, slots=True)
class StagePlan:
    """The folders whose untracked files a `git add` stages, and whether ignored ones too."""

    roots: tuple[str, ...]
    force: bool


def stage_plan(words: Sequence[str | None], cwd: str, top: str) -> StagePlan | None:
    """What `git add WORDS…` (the words after `add` or `stage`) stages, run in `cwd` of
    the work tree `top`; None when it stages no untracked file. A word the engine cannot
    read, a pathspec with magic (`:/`, `:(glob)`) or a glob, and `--pathspec-from-file`
    count as the whole work tree; an option not known, as the whole tree with ignored
    files (`-f`); `-i` (its menu, from stdin, adds any untracked file) as `-A`."""
    state, operands = _add_words(words)
    everything = state.get("all", False) or state.get("interactive", False)
    everything = everything or state.get("ignore-removal") is False
    force = state.get("force", False)
    if state.get("dry-run", False) or (
        not everything and any(state.get(option, False) for option in _NOTHING_NEW)
    ):
        return None
    if not operands:
        return StagePlan(roots=(top,), force=force) if everything else None
    roots: list[str] = []
    for operand in operands:
        if operand is None or operand.startswith(":") or _GLOB.search(operand):
            return StagePlan(roots=(top,), force=force)
        roots.append(os.path.normpath(os.path.join(cwd, operand)))
    return StagePlan(roots=tuple(dict.fromkeys(roots)), force=force)


def update_plan(words: Sequence[str | None], cwd: str, top: str) -> StagePlan | None:
    """Below which folders `git add WORDS…` stages the changes of tracked files (review
    EQ8: `git add -u`, `git add .`, `git add src`); None when it stages none (a dry run,
    `--refresh`, no pathspec without `-u`/`-A`/`-p`). Read as `stage_plan` reads them."""
    state, operands = _add_words(words)
    if state.get("dry-run", False) or state.get("refresh", False):
        return None
    whole = any(
        state.get(option, False) for option in ("all", "update", "interactive", "patch", "edit")
    )
    return _pathspec_roots(operands, cwd, top, whole=whole)


def pathspec_plan(operands: Sequence[str | None], cwd: str, top: str) -> StagePlan | None:
    """The folders a list of git pathspecs stands for (`_pathspec_roots`), None for none:
    what `git checkout -- PATHS` / `git restore PATHS` overwrite (review EW2)."""
    return _pathspec_roots(operands, cwd, top, whole=False)


def _pathspec_roots(
    operands: Sequence[str | None], cwd: str, top: str, *, whole: bool
) -> StagePlan | None:
    """The folders git's pathspecs `operands` stand for, from `cwd`: the whole work tree
    `top` for one not read (magic, a glob, an escape, a word not known), or for none
    where `whole`; None for none otherwise."""
    if not operands:
        return StagePlan(roots=(top,), force=False) if whole else None
    if any(o is None or o.startswith(":") or _GLOB.search(o) for o in operands):
        return StagePlan(roots=(top,), force=False)
    roots = [os.path.normpath(os.path.join(cwd, o)) for o in operands if o is not None]
    return StagePlan(roots=tuple(dict.fromkeys(roots)), force=False)


# `git commit`'s long options (git 2.39), by any unique prefix; those valued take the next
# word unless glued with `=`
_COMMIT_LONG = (
    "quiet", "verbose", "file", "author", "date", "message", "reedit-message",
    "reuse-message", "fixup", "squash", "reset-author", "trailer", "signoff", "verify",
    "template", "edit", "cleanup", "status", "gpg-sign", "all", "include", "interactive",
    "patch", "only", "untracked-files", "dry-run", "short", "branch", "ahead-behind",
    "porcelain", "long", "null", "amend", "post-rewrite", "pathspec-from-file",
    "pathspec-file-nul", "allow-empty", "allow-empty-message",
)  # fmt: skip
_COMMIT_VALUED = frozenset(
    {"file", "author", "date", "message", "reedit-message", "reuse-message", "fixup",
     "squash", "trailer", "template", "cleanup", "pathspec-from-file"}
)  # fmt: skip
# `-m MSG`, `-F FILE`, `-C ID`, `-c ID`, `-t FILE`; `-uno` and `-SKEY` glue theirs
_COMMIT_SHORT_VALUED = frozenset("mFCct")
_COMMIT_SHORT_GLUED = frozenset("uS")


# a branch's upstream or push target (`@{u}`, `main@{upstream}`, `@{push}`), which a crafted
# `branch.X.merge = refs/stash` makes the stash (review FR2), and an earlier checkout
# (`@{-1}`, which a crafted `logs/HEAD` makes the stash: review FS2), or any reflog entry
# (`@{1}`, `main@{yesterday}`: review FT3)
UPSTREAM_REF: Final = re.compile(r"@\{[^}]*\}")


def commit_plan(words: Sequence[str | None], cwd: str, top: str) -> StagePlan | None:
    """Below which folders `git commit WORDS…` (the words after `commit`) stages and
    commits the changes of tracked files (review EQ8): the whole work tree with `-a`,
    `-p`, `--interactive`, a pathspec file or an option not known, the pathspecs'
    folders (`git commit src -m x` commits `src` as the work tree holds it); None for a
    dry run or a commit of the index alone."""
    whole = dry = False
    operands: list[str | None] = []
    options_done = skip = False
    for word in words:
        if skip:
            skip = False
        elif word is None or options_done or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            options_done = True
        elif word.startswith("--"):
            name, eq, _value = word[2:].partition("=")
            found = long_option(name, _COMMIT_LONG)
            option, negated = found if found is not None else ("", False)
            whole = whole or found is None or (
                not negated and option in ("all", "interactive", "patch", "pathspec-from-file")
            )
            dry = dry or (option == "dry-run" and not negated)
            skip = option in _COMMIT_VALUED and not negated and not eq
        else:
            letters = word[1:]
            for at, letter in enumerate(letters):
                if letter in _COMMIT_SHORT_VALUED or letter in _COMMIT_SHORT_GLUED:
                    skip = letter in _COMMIT_SHORT_VALUED and at == len(letters) - 1
                    break
                # (`-a`, `-p` and letters not known: the whole tree; `-n` is no dry run)
                whole = whole or letter not in "qvsneioz"
    if dry:
        return None
    return _pathspec_roots(operands, cwd, top, whole=whole)


def _add_words(words: Sequence[str | None]) -> tuple[dict[str, bool], list[str | None]]:
    """`git add`'s options, by the long name each sets (False: negated), and its
    operands (None: a word not read, which may be any pathspec)."""
    state: dict[str, bool] = {}
    operands: list[str | None] = []
    options_done = skip = False
    for word in words:
        if skip:
            skip = False
        elif word is None or options_done or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            options_done = True
        elif word.startswith("--"):
            name, eq, _value = word[2:].partition("=")
            found = long_option(name, _ADD_LONG)
            if found is None:  # (its value, if any, may hide the pathspecs: all of them)
                state.update({"all": True, "force": True})
                operands.append(None)
                continue
            option, negated = found
            state[option] = not negated
            if option in ("chmod", "pathspec-from-file") and not negated:
                skip = not eq
                if option == "pathspec-from-file":
                    operands.append(None)
        else:
            for letter in word[1:]:
                short = _ADD_SHORT.get(letter)
                if short is None:
                    state.update({"all": True, "force": True})
                    operands.append(None)
                else:
                    state[short] = True
    return state, operands


def long_option(name: str, options: Sequence[str]) -> tuple[str, bool] | None:
    """The long option `--NAME` is to git (an exact name, or a unique prefix of one, or
    of one negated with `no-`), and whether it is negated; None when ambiguous or not
    known."""
    if name in options:
        return name, False
    if name.startswith("no-") and name[3:] in options:
        return name[3:], True
    plain = [option for option in options if name and option.startswith(name)]
    negated = (
        [option for option in options if option.startswith(name[3:])]
        if name.startswith("no-") and len(name) > 3
        else []
    )
    if len(plain) + len(negated) != 1:
        return None
    return (plain[0], False) if plain else (negated[0], True)


def clean_plan(words: Sequence[str | None], cwd: str, top: str) -> StagePlan | None:
    """What `git clean WORDS…` (the words after `clean`) removes, run in `cwd` of the work
    tree `top`: the untracked files below its pathspecs, or below `cwd` without any
    (`force`: ignored ones too, `-x`, `-X`); None for a dry run (`-n`, `--dry-run`, the
    last of it and `--no-dry-run` winning, by any prefix git takes). A word the engine
    cannot read, magic (`:/`), a glob and a long option not known count as the whole
    work tree."""
    dry = force = whole = False
    operands: list[str] = []
    options_done = skip = False
    for word in words:
        if skip:
            skip = False
        elif word is None:
            whole = True
        elif not options_done and word == "--":
            options_done = True
        elif not options_done and word.startswith("--"):
            # by any unique prefix and `--no-` (`--no-dry` is `--no-dry-run`: review CR3;
            # `--exc X` takes X as its pattern); one not known may take the pathspecs'
            # place: the whole tree
            name, eq, _value = word[2:].partition("=")
            found = long_option(name, _CLEAN_LONG)
            if found is None:
                whole = True
                continue
            option, negated = found
            if option == "dry-run":
                dry = not negated
            skip = option == "exclude" and not negated and not eq
        elif not options_done and word.startswith("-") and word != "-":
            letters = word[1:]
            if "e" in letters:  # `-e PATTERN`, glued or not: the letters after it are it
                skip = letters.endswith("e")
                letters = letters[: letters.index("e")]
            dry = dry or "n" in letters
            force = force or "x" in letters or "X" in letters
        elif word.startswith(":") or _GLOB.search(word):
            whole = True
        else:
            operands.append(word)
    if dry:
        return None
    if whole:
        return StagePlan(roots=(top,), force=force)
    roots = [os.path.normpath(os.path.join(cwd, operand)) for operand in operands or ["."]]
    return StagePlan(roots=tuple(dict.fromkeys(roots)), force=force)


def protected_files(
    roots: Iterable[str],
    protected: Callable[[str], bool],
    budget: int,
    skip_folder: Callable[[str], bool] | None = None,
) -> tuple[list[str], bool]:
    """The files below `roots` (or the roots themselves) that `protected` picks, `.git`
    folders and those `skip_folder` picks skipped; and whether every entry was seen (at
    most `budget` of them)."""
    found: list[str] = []
    seen = 0
    pending = list(roots)
    while pending:
        path = pending.pop()
        try:
            mode = os.lstat(path).st_mode
        except (OSError, ValueError):
            continue  # git cannot stage what is not there
        seen += 1
        if seen > budget:
            return found, False
        if stat.S_ISDIR(mode):
            if skip_folder is not None and skip_folder(path):
                continue
            try:
                with os.scandir(path) as listing:
                    names = [entry.name for entry in listing]
            except (OSError, ValueError):
                continue
            pending.extend(os.path.join(path, name) for name in names if name != ".git")
        elif protected(path):
            found.append(path)
    return found, True


def surely_ignored_folder(path: str, *, top: str, excludes: str | None = None) -> bool:
    """Whether the ignore files certainly make git ignore the folder `path` (below the
    work tree `top`), and so everything in it (`node_modules/`)."""
    return surely_ignored(path, top, folder=True, excludes=excludes)


def surely_ignored(
    path: str, top: str, *, folder: bool = False, excludes: str | None = None
) -> bool:
    """Whether the repository's own ignore files, and `excludes` (git's global ignore
    file, read first, so that the repository's patterns win), certainly make git ignore
    `path` (a file below the work tree `top`, or a folder). False whenever in doubt."""
    relative = os.path.relpath(path, top)
    if relative.startswith("..") or relative == ".":
        return False
    # git's wildmatch compares bytes, so `?` and a set take one byte of `é` (review EQ9):
    # both the name and the patterns are matched as latin-1 text, a byte a character
    parts = [os.fsencode(part).decode("latin-1") for part in relative.split(os.sep)]
    # git follows a link at `.git/info/exclude`, never at a `.gitignore` of the work tree
    # (review CP4: a linked `.gitignore` naming `CLAUDE.md` ignores nothing)
    sources = [(excludes, 0, True)] if excludes else []
    sources.append((os.path.join(top, ".git", "info", "exclude"), 0, True))
    sources.extend(
        (os.path.join(top, *parts[:depth], ".gitignore"), depth, False)
        for depth in range(len(parts))
    )
    ignored = False
    for source, depth, follow in sources:
        lines = _read_lines(source, follow=follow)
        if lines is None:
            return False
        for line in lines:
            # as git reads a line: a `\r` before its end dropped, unescaped trailing spaces
            # trimmed, and nothing else (` .env` and `.env<TAB>` name other files: CP4)
            pattern = line.removesuffix("\r").rstrip(" ")
            if not pattern or pattern.startswith("#"):
                continue
            # the last pattern that matches decides, a negation (`!.env.example`) for
            # "not ignored" (review CT3: any `!` line made every file count as not
            # ignored); git keeps a file ignored whose folder is, whatever a later
            # negation says: read as not ignored here, which only asks
            negated = pattern.startswith("!")
            body = pattern[1:] if negated else pattern
            if not _readable(body):
                # read on the strict side (review EQ1): such a line ignores nothing, and
                # such a negation may un-ignore the file
                ignored = ignored and not negated
            elif _matches(body, parts[depth:], folder=folder):
                ignored = not negated
    return ignored


def _read_lines(path: str, *, follow: bool) -> list[str] | None:
    """The lines of an ignore file, split where git splits them (at `\n` only), [] if
    there is none; None if it cannot be read, or is a link and `follow` is False."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | (0 if follow else os.O_NOFOLLOW)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        data = os.read(descriptor, _MAX_IGNORE_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    if len(data) > _MAX_IGNORE_BYTES:
        return None
    return data.decode("latin-1").split("\n")  # (a byte a character: review EQ9)


def _readable(pattern: str) -> bool:
    """Whether the engine reads the gitignore pattern as git's wildmatch does: not with
    an escape, a class spelling in a set (`[[:.:]env` is a class named `.` to git, which
    matches nothing, where the engine saw the set `[:.]`: review EQ1) or a `[` that opens
    no set (git then matches nothing at all)."""
    if "\\" in pattern:
        return False
    if "[" not in pattern:
        return True
    if any(spelling in pattern for spelling in ("[:", "[=", "[.")):
        return False
    if not all(_SETS.fullmatch(part) for part in pattern.split("/")):
        return False
    try:
        glob_regex(pattern.strip("/") or "x").fullmatch("")  # (compiled on first use)
    except re.error:
        return False  # a set the engine cannot compile (`.[z-a]nv`: review EW5)
    return True


def _matches(pattern: str, parts: Sequence[str], *, folder: bool = False) -> bool:
    """Whether a gitignore pattern, read from the folder `parts` is relative to, covers
    the file (or `folder`) `parts` or a folder above it."""
    # as git: one trailing `/` makes it match folders only, any `/` left anchors it, and
    # one leading `/` is dropped (review CR1: `.claude//` and `//CLAUDE.md` match nothing
    # in git, where all of them stripped matched `.claude` and `CLAUDE.md`)
    directory_only = pattern.endswith("/")
    body = pattern[:-1] if directory_only else pattern
    if not body or "//" in body:
        return False
    anchored = "/" in body
    body = body.removeprefix("/")
    regex = glob_regex(body)
    # a trailing `/**` matches what is inside, never the folder itself (review CU1, CU2:
    # `a/**` with `!a/CLAUDE.md`, and `a/**/`, made the engine skip `a` whole, which
    # git walks): the glob's `**` may match no component, so its folder is left out
    inside = glob_regex(body[:-3]) if body.endswith("/**") else None
    for depth in range(1, len(parts) + 1):
        if directory_only and depth == len(parts) and not folder:
            break  # the file itself is no folder
        candidate = "/".join(parts[:depth]) if anchored else parts[depth - 1]
        if regex.fullmatch(candidate) and not (inside and inside.fullmatch(candidate)):
            return True
    return False


# `git checkout`'s and `git restore`'s long options (git 2.39), by any unique prefix, and
# those that take the next word unless glued with `=`
_CHECKOUT_LONG = (
    "quiet", "progress", "force", "ours", "theirs", "track", "guess", "overlay", "merge",
    "conflict", "detach", "orphan", "ignore-skip-worktree-bits", "ignore-other-worktrees",
    "recurse-submodules", "overwrite-ignore", "patch", "pathspec-from-file",
    "pathspec-file-nul",
)  # fmt: skip
_RESTORE_LONG = (
    "source", "staged", "worktree", "ignore-unmerged", "overlay", "quiet",
    "recurse-submodules", "progress", "merge", "conflict", "ours", "theirs", "patch",
    "ignore-skip-worktree-bits", "pathspec-from-file", "pathspec-file-nul",
)  # fmt: skip
_CHECKOUT_VALUED = frozenset({"conflict", "orphan", "pathspec-from-file", "source"})


def overwrite_operands(restore: bool, words: Sequence[str | None]) -> list[str | None]:
    """The operands of `git checkout WORDS…` (`restore`: `git restore WORDS…`), the words
    after the subcommand, option values left out: pathspecs, and for `git checkout` a
    branch or commit before them (None: a word not read). An option not known is read
    as taking no value, so that a value after it counts as an operand."""
    operands: list[str | None] = []
    options_done = skip = False
    for word in words:
        if skip:
            skip = False
        elif word is None or options_done or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            options_done = True
        elif word.startswith("--"):
            name, eq, _value = word[2:].partition("=")
            found = long_option(name, _RESTORE_LONG if restore else _CHECKOUT_LONG)
            if found is not None:
                skip = found[0] in _CHECKOUT_VALUED and not found[1] and not eq
        else:  # `-b NAME`, `-B NAME` (checkout), `-s TREE` (restore), glued or not
            letters = word[1:]
            for at, letter in enumerate(letters):
                if letter in ("s" if restore else "bB"):
                    skip = at == len(letters) - 1
                    break
    return operands


@dataclass(frozen=True, slots=True)
class Overwrite:
    """What `git checkout … -- PATHS` or `git restore PATHS` writes: its pathspecs (None:
    a word not read), whether it covers the whole tree without any (patch mode), whether
    a commit may be its source rather than the index, and whether it writes the work tree
    at all (`git restore --staged` alone writes the index only)."""

    pathspecs: tuple[str | None, ...]
    whole: bool
    revision: bool
    worktree: bool


def overwrite_form(restore: bool, words: Sequence[str | None]) -> Overwrite:
    """`git checkout WORDS…` (`restore`: `git restore WORDS…`) read as an `Overwrite`.
    Patch mode (`-p`, `--pat`, `-qp`) with no pathspec goes over the whole tree, as
    `git add -p` does (review FB1). For `git checkout` without `--`, a lone operand may
    be a revision (then the tree is the whole one in patch mode), and with two or more
    the first may be one (all are kept as pathspecs: a superset); `restore -s`,
    `--source` and `--staged` with `--worktree` take a commit (review FB8)."""
    before: list[str | None] = []
    after: list[str | None] = []
    flags: set[str] = set()
    dashdash = skip = False
    for word in words:
        if skip:
            skip = False
        elif word is None or dashdash or not word.startswith("-") or word == "-":
            (after if dashdash else before).append(word)
        elif word == "--":
            dashdash = True
        elif word.startswith("--"):
            skip = _overwrite_long(restore, word[2:], flags)
        else:
            skip = _overwrite_short(restore, word[1:], flags)
    patch = "patch" in flags
    if restore:
        pathspecs = (*before, *after)
        staged_only = "staged" in flags and "worktree" not in flags
        revision = "source" in flags or "staged" in flags
        return Overwrite(pathspecs, patch and not pathspecs, revision, not staged_only)
    if dashdash:
        return Overwrite(tuple(after), patch and not after, bool(before), True)
    revision = len(before) > 1 or (patch and len(before) == 1)
    return Overwrite(tuple(before), patch and len(before) < 2, revision, True)


def _overwrite_long(restore: bool, name: str, flags: set[str]) -> bool:
    """Note `--NAME`'s effect in `flags`; whether it takes the next word as its value."""
    longs = _RESTORE_LONG if restore else _CHECKOUT_LONG
    return _note_long(name, longs, _CHECKOUT_VALUED, flags)


def _overwrite_short(restore: bool, letters: str, flags: set[str]) -> bool:
    """Note a bundle of short options in `flags` (`-Wp`, `-qp`, `-sHEAD`); whether the
    next word is the value of its last letter (`-s REV`, `-b NAME`)."""
    names = {"p": "patch", "S": "staged", "W": "worktree"} if restore else {"p": "patch"}
    for at, letter in enumerate(letters):
        if letter in ("s" if restore else "bB"):
            if restore:
                flags.add("source")
            return at == len(letters) - 1
        if letter in names:
            flags.add(names[letter])
    return False


# the long options (git 2.39) of the verbs whose patch mode prints the hunks of every file
# in scope before it asks anything (review FJ3), those that take a value, and the short
# options that take one (the rest of a bundle, or the next word)
_RESET_LONG = (
    "quiet", "refresh", "mixed", "soft", "hard", "merge", "keep", "recurse-submodules",
    "patch", "intent-to-add", "pathspec-from-file", "pathspec-file-nul",
)  # fmt: skip
_STASH_PUSH_LONG = (
    "patch", "staged", "keep-index", "quiet", "include-untracked", "all", "message",
    "pathspec-from-file", "pathspec-file-nul",
)  # fmt: skip
_PATCH_VERBS: Final = {
    "reset": (_RESET_LONG, ""),
    "restore": (_RESTORE_LONG, "s"),
    "stash": (_STASH_PUSH_LONG, "m"),
}
_PATCH_VALUED = frozenset({"source", "conflict", "message", "pathspec-from-file"})


@dataclass(frozen=True, slots=True)
class PatchMode:
    """`git reset -p`, `git restore -p`, `git stash push -p` (`verb` is `stash` for the
    words after `push` or `save`): whether it compares with a commit or the index rather
    than the work tree with the index (`--staged`, `--source`, and always for `reset` and
    `stash`), and its operands before and after `--` (None: a word not read)."""

    revision: bool
    before: tuple[str | None, ...]
    after: tuple[str | None, ...]


def patch_mode(verb: str, words: Sequence[str | None]) -> PatchMode | None:
    """`git VERB WORDS…` read for patch mode (review FJ3): `-p`, `--patch`, a unique prefix
    (`--patc`), a bundle (`-pSs TREE`, `-qp`); None without it. A word not read may be
    `-p`, so it counts as one (fail closed)."""
    longs, valued_short = _PATCH_VERBS[verb]
    before: list[str | None] = []
    after: list[str | None] = []
    flags: set[str] = set()
    dashdash = skip = False
    for word in words:
        if skip:
            skip = False
        elif dashdash:
            after.append(word)
        elif word is None:
            flags.add("patch")
            before.append(None)
        elif word == "--":
            dashdash = True
        elif not word.startswith("-") or word == "-":
            before.append(word)
        elif word.startswith("--"):
            skip = _patch_long(word[2:], longs, flags)
        else:
            skip = _patch_short(word[1:], valued_short, flags)
    if "patch" not in flags:
        return None
    revision = verb != "restore" or bool(flags & {"source", "staged"})
    return PatchMode(revision, tuple(before), tuple(after))


def _patch_long(text: str, longs: Sequence[str], flags: set[str]) -> bool:
    """Note `--NAME[=VALUE]` in `flags`; whether it takes the next word as its value."""
    return _note_long(text, longs, _PATCH_VALUED, flags)


def _note_long(
    text: str, longs: Sequence[str], valued: Collection[str], flags: set[str]
) -> bool:
    """Note `--NAME[=VALUE]` (`text` without the dashes: any prefix git takes, `no-`
    clearing) in `flags`; whether it takes the next word as its value (`valued`, not
    negated, not glued with `=`)."""
    name, eq, _value = text.partition("=")
    found = long_option(name, longs)
    if found is None:
        return False
    option, negated = found
    if negated:
        flags.discard(option)
    else:
        flags.add(option)
    return option in valued and not negated and not eq


def _patch_short(letters: str, valued: str, flags: set[str]) -> bool:
    """Note a bundle of short options in `flags` (`-pSs`); whether the next word is the
    value of its last letter (`-s TREE`, `-m MESSAGE`)."""
    names = {"p": "patch", "S": "staged", "s": "source"}
    for at, letter in enumerate(letters):
        if letter in names:
            flags.add(names[letter])
        if letter in valued:
            return at == len(letters) - 1
    return False


def worktree_operands(words: Sequence[str | None]) -> list[str | None]:
    """The operands of `git worktree add|move|remove WORDS…` (the words after the verb):
    the worktree's path, and for `add` a commit after it, for `move` the new path (None:
    a word not read); the values of `-b`, `-B` and `--reason` left out (review FB3, FB5)."""
    return _operands(words, "bB", ("reason",))


def submodule_add_folders(words: Sequence[str | None]) -> list[str | None]:
    """The folders `git submodule add WORDS…` (the words after `add`) may clone into:
    its path, or without one the repository's own name (`../.vscode.git` makes
    `.vscode`); both, and every operand, are given, since the engine does not tell them
    apart (review FB3). The values of `-b`, `--name`, `--reference`, `--depth` left out."""
    operands = _operands(words, "b", ("branch", "name", "reference", "depth"))
    named = [
        name
        for operand in operands
        if operand is not None
        for name in (
            os.path.basename(operand.rstrip("/")).removesuffix(".git"),
            url_basename(operand),
        )
    ]
    return [*operands, *dict.fromkeys(name for name in named if name)]


def clone_folders(words: Sequence[str | None]) -> list[str | None]:
    """The folder `git clone WORDS…` (the words after `clone`) makes when no folder is
    given: the one git's `git_url_basename` names after the repository (`git clone
    git@host:.vscode` clones into `.vscode`: beside review FE2); a repository word not
    read is None. With a folder given, nothing: the folder is a path word checked as
    such. The values of clone's valued options are left out."""
    operands = _operands(words, "obucj", _CLONE_VALUED)
    if len(operands) != 1:
        return []
    url = operands[0]
    if url is None:
        return [None]
    # git strips `.bundle` instead of `.git` where the repository is a bundle file
    # (`git clone .vscode.bundle` makes `.vscode`: review FH2); which it is is not read
    bundle = url_basename(url, suffix=".bundle")
    return [name or None for name in dict.fromkeys((url_basename(url), bundle))]


# `git clone`'s long options that take the next word as their value
_CLONE_VALUED: Final = (
    "origin", "branch", "upload-pack", "reference", "reference-if-able",
    "separate-git-dir", "depth", "shallow-since", "shallow-exclude", "config", "template",
    "jobs", "filter", "server-option", "bundle-uri", "ref-format",
)  # fmt: skip


def url_basename(url: str, *, suffix: str = ".git") -> str:
    """The folder git names after the repository `url` (git's `git_url_basename`, used by
    `git submodule add` and `git clone`): `../.vscode/.git` and `git@host:.vscode` make
    `.vscode` (review FE2). The scheme and user are skipped; trailing slashes and blanks,
    then a `/.git` go; a lone `host:port` loses its port; the last part after a `/` or
    `:` is kept without `suffix` (`.bundle` for a bundle file `git clone` reads); runs of
    control characters and blanks become one space."""
    start = url.find("://")
    start = 0 if start < 0 else start + 3
    slash = url.find("/", start)
    host = url[start : len(url) if slash < 0 else slash]
    if "@" in host:
        start += host.rindex("@") + 1
    text = url[start:].rstrip("/ \t\n\v\f\r")
    if len(text) > 5 and text.endswith("/.git"):
        text = text[:-5].rstrip("/")
    if "/" not in text and ":" in text:
        head, _colon, port = text.rpartition(":")
        if not port or (port.isascii() and port.isdigit()):
            text = head
    text = re.split(r"[/:]", text)[-1].removesuffix(suffix)
    return " ".join(re.split(r"[\x00-\x20]+", text)).strip()


def _operands(
    words: Sequence[str | None], valued_short: str, valued_long: Sequence[str]
) -> list[str | None]:
    """The operands among `words`: the values of the short options `valued_short` and
    of the long ones `valued_long` (by any prefix, unless glued with `=`) left out."""
    operands: list[str | None] = []
    options_done = skip = False
    for word in words:
        if skip:
            skip = False
        elif word is None or options_done or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            options_done = True
        elif word.startswith("--"):
            skip = "=" not in word and any(name.startswith(word[2:]) for name in valued_long)
        else:
            letters = word[1:]
            for at, letter in enumerate(letters):
                if letter in valued_short:
                    skip = at == len(letters) - 1
                    break
    return operands


def read_tree_prefixes(words: Sequence[str | None]) -> list[str | None]:
    """The values of `--prefix` (`--prefix=P`, `--prefix P`, by any abbreviation git
    takes) in `git read-tree WORDS…` (the words after `read-tree`; None: a value not
    read): the folders it fills the index below (review FE1)."""
    found: list[str | None] = []
    taking = False
    for word in words:
        if taking:
            found.append(word)
            taking = False
        elif word == "--":
            break
        elif word is not None and word.startswith("--p"):
            name, eq, value = word[2:].partition("=")
            if "prefix".startswith(name):
                if eq:
                    found.append(value)
                else:
                    taking = True
    if taking:
        found.append(None)
    return found


def worktree_paths(gitdir: str | None) -> list[str] | None:
    """The folders of the worktrees of the repository whose git directory is `gitdir`
    (that of any of its worktrees): the main one, then those `worktrees/*/gitdir` name,
    as git's `get_worktrees` lists them; None where they cannot be read (review FE3)."""
    if gitdir is None:
        return None
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as handle:
            common = os.path.normpath(os.path.join(gitdir, handle.read().strip()))
    except FileNotFoundError:
        common = os.path.normpath(gitdir)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    listed = [os.path.dirname(common) if os.path.basename(common) == ".git" else common]
    folder = os.path.join(common, "worktrees")
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return listed
    except OSError:
        return None
    for name in names[:_MAX_WORKTREES]:
        try:
            with open(os.path.join(folder, name, "gitdir"), encoding="utf-8") as handle:
                path = handle.read().strip()
        except FileNotFoundError:
            continue  # (git skips an entry without one)
        except (OSError, UnicodeDecodeError, ValueError):
            return None
        # (relative to that entry's folder under `worktree.useRelativePaths`)
        path = os.path.normpath(os.path.join(folder, name, path))
        listed.append(path.removesuffix("/.git") if path.endswith("/.git") else path)
    return listed if len(names) <= _MAX_WORKTREES else None


_MAX_WORKTREES = 256


def worktree_by_suffix(listed: Sequence[str], suffix: str) -> list[str]:
    """The worktrees of `listed` git may take `suffix` for by the end of its path, at a
    folder's start (git's `find_worktree_by_suffix`, tried before the path itself: review
    FE3): the one match when exactly one, compared as is and, for `core.ignorecase`,
    without case (the config is not read)."""
    if not suffix:
        return []
    found: list[str] = []
    for fold in (False, True):
        wanted = suffix.casefold() if fold else suffix
        matches = [
            path
            for path in listed
            if (text := path.casefold() if fold else path) == wanted
            or text.endswith("/" + wanted)
        ]
        if len(matches) == 1 and matches[0] not in found:
            found.append(matches[0])
    return found
