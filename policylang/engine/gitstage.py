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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

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
_GLOB = re.compile(r"[*?\[]")
_MAX_IGNORE_BYTES = 1 << 20


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
    parts = relative.split(os.sep)
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
            if "\\" in pattern:
                return False  # an escape: not read here
            # the last pattern that matches decides, a negation (`!.env.example`) for
            # "not ignored" (review CT3: any `!` line made every file count as not
            # ignored); git keeps a file ignored whose folder is, whatever a later
            # negation says: read as not ignored here, which only asks
            negated = pattern.startswith("!")
            if _matches(pattern[1:] if negated else pattern, parts[depth:], folder=folder):
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
    return data.decode("utf-8", "replace").split("\n")


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
