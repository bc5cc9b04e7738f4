"""Engine stage: path, redirect and git-config checks of a segment; imports the engine views.

`PathChecks` is a mixin of the walk (`evaluate._Walk`): it resolves path arguments and
redirect targets against the tracked working directories, expands globs, and reads the
repository's git config, turning each finding into a floor on the segment's state.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from policylang.decision import Reason, Verdict
from policylang.engine import _objects, gitstage, paths, prefixes, subtree
from policylang.engine.context import EvalContext
from policylang.engine.gitconfig import (
    REWRITE_MARK,
    GitConfigInspector,
    TrackedFile,
    TrackedSelection,
    find_gitdirs,
    git_directory_of,
    is_git_directory,
    read_regular,
)
from policylang.engine.rules import (
    GitPrint,
    RuleView,
    SegmentRules,
    git_url_reach,
    is_git_config_path,
    is_git_remote_verb,
    may_name_blob,
    option_word,
    program_name,
    wide_git_pathspec,
)
from policylang.shell.braces import expand_braces
from policylang.shell.model import Expansion, ExpansionKind, Redirect, Word
from policylang.span import Span

_HARMLESS_DEVICES = frozenset(
    {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero"}
)
_NETWORK_PREFIXES = ("/dev/tcp/", "/dev/udp/")
# a path that starts inside a word, after a separator of the program's own syntax
# (after `=` and `,` too: inside quotes, `textfile='/x'`, the piece is not one of
# `_named_paths`; relative pieces count, `concat:a|../home/u/.bashrc`)
_EMBEDDED_HINT = re.compile(r"[|;\]:(<>'\"=,](?:~|\.\.?)?\\?/")
_EMBEDDED_PATH = re.compile(r"([|;\]:(<>'\"=,])((?:~|\.\.?)?/[^|;,\]<>()'\"\s]*)")


@dataclass(slots=True)
class SegmentState:
    """Mutable accumulator for one segment's verdict (the walk's working state)."""

    text: str
    context: str
    verdict: Verdict = Verdict.ALLOW
    read_only: bool = True
    reasons: list[Reason] = field(default_factory=list)
    # only an unlocked rule-level ask (no floor) can be approved; this is its prefix
    suggestion: tuple[str, ...] | None = None
    floored: bool = False
    locked: bool = False
    writes: str | None = None  # the first file a redirect writes
    approved: int = 0  # the words of an approval that made the rule's ask an allow
    # the words of an approval that would cover the segment but for an exception (a
    # clause ask): its later words are still checked, so a deny they reach is not lost
    shadowed: int = 0
    fed: bool = False  # its standard input may come from the line (a pipe, `<`, `<<`)
    # the reasons `floor` added, for a check in constant time: a scan of the list had made
    # 10,000 assignments after `time` cost 7 s (review BI7)
    floored_reasons: set[Reason] = field(default_factory=set)

    def floor(
        self, verdict: Verdict, rule_id: str, message: str, location: str | None = None
    ) -> None:
        if verdict is Verdict.ALLOW:
            return
        self.floored = True
        self.verdict = self.verdict.at_least(verdict)
        reason = _objects.reason(rule_id, message, verdict, location, self.text)
        if reason not in self.floored_reasons:
            self.floored_reasons.add(reason)
            self.reasons.append(reason)


# a rewrite base that ends after a whole host, so nothing can be glued to the host
_COMPLETE_HOST = re.compile(
    r"(?:https?|git|ssh)://[^/@]*@?[A-Za-z0-9.-]+(?::\d+)?/|[\w.-]+@[\w.-]+:"
)
# settings of git's global configuration that only `git blame` reads
_BLAME_KEYS = frozenset({"blame.ignorerevsfile"})
# variables that give git configuration or point it at another one (review AC7)
_GIT_CONFIG_ENV = re.compile(
    r"GIT_CONFIG(?:_COUNT|_KEY_\d+|_VALUE_\d+|_PARAMETERS)?|GIT_DIR|GIT_COMMON_DIR"
)
# config keys whose value git shows in ref and status output (`%(push:remotename)`)
_TRACKING_KEY = re.compile(r"branch\..*\.(?:remote|pushremote|merge)|remote\.pushdefault", re.I)


def _word_value(words: Sequence[Word], index: int) -> str | None:
    return words[index].value if index < len(words) else None


def _is_sibling_temporary(path: str, state: str) -> bool:
    """`path` is a temporary file written beside `state` and renamed over it
    (`.approvals.toml.tmp`, `approvals.toml~`)."""
    folder, _sep, name = state.rpartition("/")
    if not path.startswith(folder + "/"):
        return False
    other = path[len(folder) + 1 :]
    return "/" not in other and other != name and name in other


def _tilde_readings(word: Word, home: str) -> list[str]:
    r"""The other ways a literal word's tilde may be read (review AB6):

    - a `~` that bash leaves alone (`"~/x"`, `\~/x`, `--file=~/x`) names a directory
      called `~` here, while the path rules read it as the home: `./~/x` is checked too;
    - bash expands an unquoted `~` after the `=` of an assignment-shaped argument and
      after its `:`s: `x=~/.my.cnf` is the relative path `x=/home/u/.my.cnf` (through a
      directory `x=`, which may be a link), checked too.
    """
    if word.value is not None:
        # the analyser saw no tilde expansion: a `~` here is a character
        return ["./" + word.value] if word.value.startswith("~") else []
    if not any(e.kind is ExpansionKind.TILDE for e in word.expansions):
        return []
    value = paths.path_text(word)
    found: list[str] = []
    if value is not None and _ASSIGNMENT_SHAPED.match(value):
        name, _, rest = value.partition("=")
        parts = rest.split(":")
        expanded = [home + p[1:] if p == "~" or p.startswith("~/") else p for p in parts]
        if expanded != parts:
            found.append(f"./{name}={':'.join(expanded)}")
        # `~+`, `~-`, `~user` there name directories the path rules cannot know: checked
        # as written, they make the path unknown (review AC2)
        found.extend(p for p in parts if p.startswith("~") and p != "~" and not p.startswith("~/"))
    return found


# `x=`, `x+=`, `x[0]=`: bash expands a tilde after their `=` (review AC2)
_ASSIGNMENT_SHAPED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?\+?=")


def _prints_git_config(values: Sequence[str | None]) -> str | None:
    """The git command (`git config`, `git remote -v` …) when it prints configuration
    values or remote URLs, which may carry credentials; else None."""
    sub = values[1] if len(values) > 1 else None
    if sub in ("config", "var"):
        return f"git {sub}"
    rest = values[2:]
    if sub == "remote" and any(
        v in ("get-url", "show") or _long_prefix(v, "--verbose") or _VERBOSE.fullmatch(v or "")
        for v in rest
    ):
        return "git remote"  # `-vv`, `--verb`: git counts and expands them (review AE7)
    if sub == "ls-remote" and any(_long_prefix(v, "--get-url", 5) for v in rest):
        return "git ls-remote --get-url"
    if (sub == "help" and rest) or "--help" in rest:
        return "git help"  # `'deploy' is aliased to 'push https://u:T@…'` (review AE3)
    return None


_VERBOSE = re.compile(r"-v+")


def _long_prefix(value: str | None, option: str, shortest: int = 3) -> bool:
    """`value` is `option` or an abbreviation git's option parser expands to it."""
    return value is not None and len(value) >= shortest and option.startswith(value)


@dataclass(frozen=True, slots=True)
class MovedTree:
    """A path a command may move or copy as a whole tree, and where to (`moved_trees`).

    `into`: True when it lands below the target (`-t DIR`), False when it becomes the
    target (`mv -T`, `rename.ul`), None when that depends on whether the target is a
    folder. `whole`: the target's tree is to be checked here (`mv`, a renamer; `cp -r`
    checks it as a recursive write already)."""

    source: str | None
    target: str | None
    into: bool | None
    whole: bool
    # the source leaves its place and is checked as a removal here (`git mv`, `rename.ul`;
    # `mv`'s own path roles check its sources)
    leaves: bool = False
    # a source that is a link lands as that link, its text unchanged: a relative one then
    # points from the folder it lands in (`mv`, `cp -P`, `rsync -l`; not `ln -s`, whose
    # source is the text: `_linked_trees`)
    as_link: bool = True


_MOVERS = frozenset({"mv"})  # (and GNU's under Homebrew's names: `program_name`)
_REMOVERS = frozenset({"rm", "rmdir", "unlink"}) | _MOVERS
_TREE_COPIERS = frozenset({"cp", "rsync"})


def moved_trees(found: SegmentRules) -> list[MovedTree]:
    """The trees `found` moves or copies whole (review BX9): `mv SRC… DST`, `cp -r` and
    `rsync -r`/`-a` (`-t DIR`, `-T` too), util-linux `rename FROM TO FILE…`, `git mv`."""
    inner = found.inner
    name = program_name(inner[0].value.rpartition("/")[2]) if inner and inner[0].value else ""
    if found.git_dirs is not None:
        if len(inner) < 4 or inner[1].value != "mv":
            return []
        # (git mv's options take no value; `--` ends them, and the words before it that
        # are no options are operands too: `git mv cfg -- .vscode`, review CA6)
        words = [tree_path(w) for w in inner[2:]]
        cut = words.index("--") if "--" in words else len(words)
        operands = [v for v in words[:cut] if v is None or not v.startswith("-")]
        operands.extend(words[cut + 1 :])
        if len(operands) < 2:
            return []
        return [MovedTree(source, operands[-1], None, True, True) for source in operands[:-1]]
    if name == "rename.ul":
        made = prefixes.made_names(inner, ())
        if made is None or made.unknown is not None or made.joined is not None:
            return []  # (`rename.ul -s`, words not literal: the made-names check asks)
        half = len(made.paths) // 2
        return [
            MovedTree(old, new, False, True, True)
            for old, new in zip(made.paths[:half], made.paths[half:], strict=True)
            if old != new
        ]
    view = found.view
    if name in _LINKERS:
        return _linked_trees(found)
    if name in _TREE_COPIERS:
        # (`cp -P LINK DIR`, `rsync -l LINK DIR` copy a link to a folder as a link: the
        # folder lands there; rsync's `-d` copies a folder's files, not its subfolders)
        deep = _RSYNC_DEEP if name == "rsync" else _CP_DEEP
        if not view.has(*deep):
            return []
    elif name not in _MOVERS:
        return []
    whole = name in _MOVERS
    values = [tree_path(inner[i]) for i in view.operands]
    if view.has("-t", "--target-directory"):
        folder = _target_directory(found)
        return [MovedTree(source, folder, True, whole) for source in values]
    if len(values) < 2:
        return []
    into = False if view.has("-T", "--no-target-directory") else None
    return [MovedTree(source, values[-1], into, whole) for source in values[:-1]]


_LINKERS = frozenset({"ln", "link"})
# cp's options that copy a folder or a link to one whole (`-R` is rsync's `--relative`,
# `-P` its `--partial --progress`: review CC3)
_CP_DEEP = ("-r", "-R", "--recursive", "-a", "--archive", "-P", "-d", "--no-dereference")
_RSYNC_DEEP = ("-r", "--recursive", "-a", "--archive", "-d", "--dirs", "-l", "--links")


def _linked_trees(found: SegmentRules) -> list[MovedTree]:
    """`ln -s TARGET NAME`: a link to a folder makes the folder's files appear below
    NAME, as a copy would (review BZ5: `ln -s cfg .vscode` made the repository's
    `cfg/tasks.json` the active `.vscode/tasks.json`). A relative TARGET is read from
    the link's folder, which is NAME's parent, or NAME itself when it is a folder (both
    are tried: `check_moved_trees` only reports protected names). Hard links to folders
    are refused by the system."""
    inner, view = found.inner, found.view
    if program_name(inner[0].value.rpartition("/")[2] if inner[0].value else "") == "link":
        # `link LINK NAME`: a hard link to a symbolic link is that link (review CD4), after
        # a `--` too (CE7)
        words = inner[2:] if len(inner) > 1 and inner[1].value == "--" else inner[1:]
        values = [tree_path(word) for word in words[:2]]
        return [MovedTree(values[0], values[1], False, False)] if len(values) == 2 else []
    if not view.has("-s", "--symbolic"):
        # (`-L` follows the link, unless a `-P` after it wins: `ln -L -P`, review CE6;
        # both given is taken as the link hard-linked)
        logical = view.has("-L", "--logical") and not view.has("-P", "--physical")
        return [] if logical else _hard_linked(found)
    values = [tree_path(inner[i]) for i in view.operands]
    into = view.has("-t", "--target-directory")
    if into or len(values) == 1:
        # `ln -s x/.vscode` makes `./.vscode`; `-t DIR` links every operand into DIR
        place = _target_directory(found) if into else "."
        return [
            MovedTree(_from_link(source, place), place, True, True, as_link=False)
            for source in values
        ]
    if len(values) < 2:
        return []
    name = values[-1]
    moves: list[MovedTree] = []
    for source in values[:-1]:
        if not view.has("-T", "--no-target-directory", "-n", "--no-dereference"):
            moves.append(MovedTree(_from_link(source, name), name, True, True, as_link=False))
        parent = None if name is None else (os.path.dirname(name.rstrip("/")) or ".")
        moves.append(MovedTree(_from_link(source, parent), name, False, True, as_link=False))
    return moves


def _hard_linked(found: SegmentRules) -> list[MovedTree]:
    """`ln LINK NAME` without `-s`: GNU ln hard-links a symbolic link itself (`-P`, the
    default on Linux), so a relative link lands as the same text, pointing from where it
    lands, as `mv` and `cp -P` move and copy it (review CD4: `ln cfg2/.vscode .` made the
    shipped `cfg2/.vscode -> cfg` the active `.vscode`). Folders cannot be hard-linked."""
    inner, view = found.inner, found.view
    values = [tree_path(inner[i]) for i in view.operands]
    if view.has("-t", "--target-directory"):
        folder = _target_directory(found)
        return [MovedTree(source, folder, True, False) for source in values]
    if len(values) == 1:  # (`ln x/LINK` makes `./LINK`)
        return [MovedTree(values[0], ".", True, False)]
    into = False if view.has("-T", "--no-target-directory") else None
    return [MovedTree(source, values[-1], into, False) for source in values[:-1]]


def _relative_link(path: str) -> str | None:
    """The text of the link `path` when it is relative (None for anything else)."""
    try:
        text = os.readlink(path)
    except OSError:
        return None
    return text if text and not text.startswith("/") else None


def _links_at_top(
    folder: str, names: frozenset[str], pattern: re.Pattern[str],
    inner: Sequence[tuple[str, bool]],
) -> tuple[list[str], bool]:
    """The links directly in `folder` with one of `names` or a name `pattern` matches,
    and those at the protected paths below its top (`.vscode/tasks.json`) and anywhere
    inside its protected folders, through the links to folders there too (`.claude/sub ->
    ../tmpl` holding a link: reviews CL5, CM1, CN10); in git's own folder, those git reads
    (`_walk_git`); and whether every folder was seen whole (`_MAX_INSIDE_ENTRIES`,
    `_MAX_INSIDE_DEPTH`). One listing of the top says which folders are there to look in."""
    found: list[str] = []
    folders: set[str] = set()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_symlink():
                    if entry.name in names or pattern.match(entry.name):
                        found.append(entry.path)
                        folders.add(entry.name)  # (and looked inside where it leads: CM1)
                elif entry.is_dir(follow_symlinks=False):
                    folders.add(entry.name)
    except FileNotFoundError:
        return found, True  # (no folder there: nothing to land through)
    except OSError:
        return found, False  # (a folder that cannot be listed may hold any link)
    budget = [_MAX_INSIDE_ENTRIES]
    complete = True
    for path, deep in inner:
        if path.partition("/")[0] not in folders:
            continue
        full = os.path.join(folder, path)
        if os.path.islink(full):
            found.append(full)
        if deep and os.path.isdir(full):
            if path == ".git":
                walked = _walk_git(full, [_MAX_GIT_ENTRIES], found, _MAX_MODULE_DEPTH)
            else:
                walked = _walk_links(full, _MAX_INSIDE_DEPTH, budget, found, set())
            complete = walked and complete
    return found, complete


def _listing(folder: str, budget: list[int]) -> list[os.DirEntry[str]] | None:
    """The entries of `folder` ([] where there is none), or None where it cannot be read
    or `budget` (entries left to look at) runs out."""
    try:
        with os.scandir(folder) as entries:
            listed = list(entries)
    except FileNotFoundError:
        return []
    except OSError:
        return None
    budget[0] -= len(listed)
    return None if budget[0] < 0 else listed


def _walk_links(
    folder: str, depth: int, budget: list[int], found: list[str], seen: set[str]
) -> bool:
    """Add the links below `folder` (`depth` levels, into the folders links lead to as
    well, each once) to `found`; False where a listing failed, the budget ran out, or a
    folder lay deeper than `depth`."""
    listed = _listing(folder, budget)
    if listed is None:
        return False
    complete = True
    for entry in listed:
        link = entry.is_symlink()
        if link:
            found.append(entry.path)
        if not entry.is_dir(follow_symlinks=True):
            continue
        if link:
            real = os.path.realpath(entry.path)
            if real in seen:
                continue  # (a loop, or a folder seen already)
            seen.add(real)
        if depth <= 1:
            return False
        complete = _walk_links(entry.path, depth - 1, budget, found, seen) and complete
    return complete


def _walk_git(gitdir: str, budget: list[int], found: list[str], depth: int) -> bool:
    """The links of a git directory that git reads (`config`, `hooks/`, `info/`, a
    worktree's `config.worktree`) and those of its submodules' git directories below
    `modules/`, whose names may hold slashes (review CM2, CN11: a submodule may be named
    `logs`); its object, ref and log stores are not listed (review CN12: a repository with
    submodules made every write ask). False where a listing failed or a bound ran out."""
    top = _listing(gitdir, budget)
    if top is None:
        return False
    complete = True
    for entry in top:
        if entry.is_symlink():
            found.append(entry.path)  # (and looked inside, where it leads to a folder)
        if not entry.is_dir(follow_symlinks=True):
            continue
        if entry.name in ("hooks", "info"):
            complete = _walk_links(entry.path, 2, budget, found, set()) and complete
        elif entry.name == "worktrees":  # (each one's `config.worktree`, `HEAD` …)
            worktrees = _listing(entry.path, budget)
            if worktrees is None:
                return False  # (review CO6)
            for worktree in worktrees:
                if worktree.is_symlink():
                    found.append(worktree.path)
                elif worktree.is_dir(follow_symlinks=False):
                    listed = _listing(worktree.path, budget)
                    if listed is None:
                        return False
                    found.extend(e.path for e in listed if e.is_symlink())
        elif entry.name == "modules":
            complete = _walk_modules(entry.path, budget, found, depth) and complete
    return complete


def _walk_modules(folder: str, budget: list[int], found: list[str], depth: int) -> bool:
    listed = _listing(folder, budget)
    if listed is None or depth <= 0:
        return False
    complete = True
    for entry in listed:
        if entry.is_symlink():
            found.append(entry.path)
        elif entry.is_dir(follow_symlinks=False):
            if os.path.lexists(os.path.join(entry.path, "HEAD")):  # a submodule's git dir
                complete = _walk_git(entry.path, budget, found, depth - 1) and complete
            else:  # (a part of a submodule's name: `vim/pack/plugins/start/x`)
                complete = _walk_modules(entry.path, budget, found, depth - 1) and complete
    return complete


_MAX_GIT_ENTRIES = 4096  # entries of a git directory and its submodules' looked at
_MAX_MODULE_DEPTH = 16  # folders of submodules' names and nesting below `.git/modules`
_MAX_COPY_PAIRS = 256  # (source, target) pairs of an approved unknown program checked


def _copy_operands(words: Sequence[Word]) -> tuple[list[str], list[str]]:
    """The literal paths among `words` (operands, and values glued to an option:
    `--dest=.vscode`, `-t.vscode`, review CO3), and the globs among its operands."""
    values: list[str] = []
    globs: list[str] = []
    for word in words:
        value = tree_path(word)
        if value is None:
            if _may_glob(word) and (pattern := paths.path_text(word)) is not None:
                globs.append(pattern)
            continue
        if value.startswith("--"):
            glued = value.partition("=")[2]
        elif value.startswith("-"):
            glued = value[2:]
        else:
            glued = value
        if glued and not glued.startswith("-"):
            values.append(glued)
    return values, globs
_MAX_INSIDE_ENTRIES = 512  # entries of protected folders looked at for links, per line
_MAX_INSIDE_DEPTH = 6


# programs that copy, move or link their sources into a folder under the sources' names
_GLOB_LANDERS = frozenset({"cp", "mv", "ln", "install", "rsync"})


@dataclass(frozen=True, slots=True)
class GlobLanding:
    """Where a glob source of a copy lands (`PathChecks.check_globbed_sources`)."""

    seg: SegmentState
    target: str
    deep: bool  # a folder it matches lands with its tree
    parents: bool  # a match keeps its path below the target (`cp --parents`)
    cwd: paths.Cwd


def _hard_linked_trees(found: SegmentRules, moved: Sequence[MovedTree]) -> list[str]:
    """The folders whose files a copy hard-links rather than copies: the sources of
    `cp -al`, `cp -r --link`, and the `--link-dest` folders of `rsync` (a relative one
    is relative to the target, and taken from here too)."""
    program, view = _program(found), found.view
    if program == "cp" and view.has("-l", "--link") and view.has(*_CP_DEEP[:5]):
        return [move.source for move in moved if move.source is not None]
    if program == "git":
        source = _local_clone_source(found.inner)
        # a local clone hard-links the object files (review CY6: `git clone --bare . c.git`
        # gave `.git/objects/…` a second, unprotected name)
        if source in (None, "?"):
            return [] if source is None else ["?"]
        return [f"{source}/.git/objects", f"{source}/objects"]
    if program != "rsync":
        return []
    found_dirs: list[str] = []
    target = moved[0].target if moved else None
    for option in view.options:
        if not (option.name.startswith("--link-") and "--link-dest".startswith(option.name)):
            continue
        word = option_word(found.inner, option)
        value = None if word is None else tree_path(word)
        if value is None:
            found_dirs.append(".")  # not known: the folder it runs in, and all below
            continue
        found_dirs.append(value)
        if target is not None and not value.startswith(("/", "~")):
            found_dirs.append(os.path.join(target, value))
    return found_dirs


# git's global options that take the next word, and `git clone`'s
_GIT_GLOBAL_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                                "--config-env", "--super-prefix", "--exec-path"})  # fmt: skip
_CLONE_VALUED = frozenset(
    {"-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference",
     "--reference-if-able", "--separate-git-dir", "--depth", "--shallow-since",
     "--shallow-exclude", "-c", "--config", "--server-option", "-j", "--jobs", "--filter",
     "--template", "--bundle-uri", "--ref-format", "--revision"}
)  # fmt: skip
# `git clone`'s long options (git 2.39), which git takes by unique prefix and negation
_CLONE_LONG = (
    "verbose", "quiet", "progress", "reject-shallow", "no-checkout", "bare", "mirror",
    "local", "no-hardlinks", "hardlinks", "shared", "recurse-submodules", "jobs",
    "template", "reference", "reference-if-able", "dissociate", "origin", "branch",
    "upload-pack", "depth", "shallow-since", "shallow-exclude", "single-branch", "tags",
    "shallow-submodules", "separate-git-dir", "config", "server-option", "ipv4", "ipv6",
    "filter", "also-filter-submodules", "remote-submodules", "sparse", "bundle-uri",
    "ref-format", "revision", "checkout",
)  # fmt: skip


def _names_a_git_directory(path: str) -> bool:
    """Whether `path` is a file holding `gitdir: …` (a worktree's or a submodule's `.git`,
    or one made to stand for a repository: review DB1), not a bundle (DC6)."""
    data = read_regular(path, 64)
    return data is not None and data.startswith(b"gitdir:")


def _local_clone_source(words: Sequence[Word]) -> str | None:
    """The folder a `git clone` copies by hard links: a local path given without
    `--no-hardlinks`, `--no-local` or `--shared` (a URL, `host:path` or `file://` goes
    through a transport, which copies); `?` where a word that cannot be read may be one."""
    values = [w.value for w in words]
    index = 1
    while index < len(values) and (values[index] or "").startswith("-"):
        index += 2 if values[index] in _GIT_GLOBAL_VALUED else 1
    if index >= len(values) or values[index] != "clone":
        return None
    index += 1
    operands: list[str | None] = []
    # the last of `--[no-]local`, `--[no-]hardlinks`, `-s|--[no-]shared` decides
    # (review CZ4: `--no-local --local` linked)
    linked = {"local": True, "hardlinks": True, "shared": False}
    while index < len(values):
        value = values[index]
        if value is None:
            # (an option or the source: not known, but a URL by its text)
            return None if "://" in words[index].text else "?"
        if value == "--":
            operands.extend(values[index + 1 :])
            break
        if value.startswith("--"):
            found = gitstage.long_option(value[2:].partition("=")[0], _CLONE_LONG)
            if found is None:
                return "?"  # an option git may read otherwise
            name, negated = found
            if name == "no-hardlinks":
                name, negated = "hardlinks", not negated
            if name in linked:
                linked[name] = not negated
            valued = "--" + name in _CLONE_VALUED and "=" not in value
            index += 2 if valued else 1
            continue
        if value.startswith("-") and value != "-":
            # a bundle: a letter that takes a value takes the rest, or the next word
            # when it is last (review DA2: `-qo up` read `up` as the source)
            letters = value[1:]
            at = next((i for i, ch in enumerate(letters) if f"-{ch}" in _CLONE_VALUED), None)
            if "s" in (letters if at is None else letters[:at]):
                linked["shared"] = True
            index += 2 if at == len(letters) - 1 else 1
            continue
        operands.append(value)
        index += 1
    if not operands or not linked["local"] or not linked["hardlinks"] or linked["shared"]:
        return None
    source = operands[0]
    if source is None:
        return "?"
    if "://" in source:
        return None  # a URL (`file://` copies through a transport)
    return source.rstrip("/") or "/"


def _copies_through_links(found: SegmentRules) -> bool:
    """`cp -r -L`, `rsync -r -L|-k|--copy-unsafe-links`: a tree copied with its links
    followed."""
    program, view = _program(found), found.view
    if program == "cp":
        return view.has("-L", "--dereference") and view.has(*_CP_DEEP[:5])
    if program == "rsync":
        follows = ("-L", "--copy-links", "-k", "--copy-dirlinks", "--copy-unsafe-links")
        return view.has(*follows) and view.has(*_RSYNC_DEEP[:4])
    return False


def _target_directory(found: SegmentRules) -> str | None:
    """The folder of `-t DIR`/`--target-directory=DIR` (`mv`, `cp`, `ln`), if given."""
    inner = found.inner
    for option in found.view.options:
        if option.name in ("-t", "--target-directory"):
            return tree_path(inner[option.arg_indexes[0]]) if option.arg_indexes else option.value
    return None


def _from_link(target: str | None, folder: str | None) -> str | None:
    """The path a link's TARGET names, read from the folder the link is in."""
    if target is None or folder is None:
        return None
    if target.startswith(("/", "~")):
        return target
    return os.path.join(folder, target)


def tree_path(word: Word) -> str | None:
    """A moved or copied path: the word's value, or for `~/x` its text, which the path
    checks expand (a tilde word has no value: `mv ~/.config /tmp/c`, review BZ)."""
    if word.value is None and word.expansions and all(
        exp.kind is ExpansionKind.TILDE for exp in word.expansions
    ):
        return paths.path_text(word)
    return word.value


def _program(found: SegmentRules) -> str | None:
    name = found.inner[0].value if found.inner else None
    return None if name is None else program_name(name.rpartition("/")[2])


def _ignored_folder(top: str, excludes: str | None, skipped: list[str], path: str) -> bool:
    """Whether git surely ignores the folder `path` of the work tree `top` (noted in
    `skipped`), so that `git clean` and `git add` leave what is in it."""
    if gitstage.surely_ignored_folder(path, top=top, excludes=excludes):
        skipped.append(path)
        return True
    return False


def removes_only(found: SegmentRules) -> bool:
    """`rm`, `rmdir`, `unlink`: the files they write are removed, none is made; and the
    movers, whose only recursive writes are their sources, which leave their place
    (`check_moved_trees` checks where they land)."""
    return _program(found) in _REMOVERS


def short(text: str, limit: int = 60) -> str:
    # only the head is looked at: a reason for each of 5,000 names in one long text had
    # split the whole text each time (review BG6: 6 s for a 98 KB `[[ … ]]`)
    text = text.strip()
    head = text[: max(limit * 16, 1024)]
    folded = " ".join(head.split())
    if len(folded) <= limit and len(head) == len(text):
        return folded
    return folded[: limit - 1] + "…" if len(folded) > limit - 1 else folded + "…"


class PathChecks:
    """Path, redirect and git checks; the walk provides the attributes below."""

    rules: RuleView
    ctx: EvalContext
    git: GitConfigInspector
    fs: bool  # set when a decision depends on the file system (it is then never cached)
    loop_values: dict[str, tuple[str, ...] | None]
    glob_visits: list[int]  # entries the line's globs read, globs past the budget (shared)
    reads_hidden: bool | tuple[str, ...]  # recursive reads include hidden files (names)
    # whether the segment's recursive writes only remove files (`rm -r`): they reach no
    # `**/X/…` glob through the folder's own name (`rm -rf .venv`: review BX9)
    removing: bool
    moving: bool  # whether they remove by moving away (`mv`): see `check_state`
    # whether the segment copies or moves trees (`cp -r`, `mv`): its recursive writes
    # are where they land, which `check_moved_trees` judges, not the target's own files
    copying: bool
    # the first file below each folder a recursive write of the line reaches that a
    # rule denying writes protects, and whether the whole tree was seen
    written_trees: dict[str, tuple[tuple[str, Reason] | None, bool]]
    reads_contents: bool  # whether its recursive reads read files (`grep -r`, not `ls -R`)
    follows_links: bool  # whether its recursive listings follow links (`ls -RL`)
    trees: dict[tuple[str, bool | tuple[str, ...]], tuple[list[Reason], bool]]  # scans of this line
    state_files: tuple[str, ...]  # the policy's own files, sorted: writes deny (`check_state`)
    # `paths.resolve_all` answers of this walk, by path and working directory: a word
    # is checked as read and as written, often twice in one line; the file system is
    # asked once per path and evaluation (never across evaluations)
    resolved: dict[tuple[str, frozenset[str], bool], tuple[tuple[str, ...], bool, bool]]
    # the line's segments that point descriptor 1 or 2 elsewhere, and those that write to
    # `/dev/stdout` or `/dev/stderr` by name (`_swapped`, `_reopened`)
    std_swaps: list[tuple[SegmentState, str]]
    std_reopens: list[SegmentState]
    # how many of each `_pair_descriptors` has floored
    std_swaps_paired: int
    std_reopens_paired: int
    # the files git's configuration includes, by the directory whose repository's
    # configuration was read (`included_configs`), asked once per walk
    includes: dict[str, frozenset[str]]
    # segments of the line that may rewrite a file of the work tree git's configuration
    # includes (`git checkout`), with what runs and that file: later git segments ask
    config_rewrites: list[tuple[SegmentState, str, str]]
    # what the line writes and which checks looked at the file system before it, for the
    # floors of `linewrites.LineWrites` (review BV)
    written: list[tuple[SegmentState, str, bool]]
    git_reads: list[tuple[SegmentState, tuple[str, ...]]]
    hidden_skips: list[tuple[SegmentState, str]]
    clean_kept: list[tuple[SegmentState, str]]
    path_users: dict[int, SegmentState]
    start: paths.Cwd  # where the line starts (the walk's)
    # the glob sources of copies, each absolute pattern and where the text bash passes
    # starts in it: a file another segment writes may match them (`floor_line_writes`)
    glob_landings: list[tuple[GlobLanding, str, int]]
    # the repository's tracked links and where each points (`_protected_links`): a write
    # there lands below the link's name, found once per walk (None: not yet)
    protected_links: list[tuple[str, str]] | None
    links_complete: bool  # whether every index `_protected_links` asked was read

    def resolve_all(self, value: str, cwd: paths.Cwd) -> tuple[tuple[str, ...], bool, bool]:
        """`paths.resolve_all(value, cwd, home)`, asked once per walk."""
        key = (value, cwd.candidates, cwd.known)
        found = self.resolved.get(key)
        if found is None:
            found = self.resolved[key] = paths.resolve_all(value, cwd, self.ctx.home)
        return found

    def path_checks(self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd) -> None:
        self.reads_hidden = found.reads_hidden
        self.reads_contents = found.reads_contents
        self.follows_links = found.follows_links
        self.removing = removes_only(found)
        self.moving = self.removing and _program(found) in _MOVERS
        moved = moved_trees(found)
        self.copying = bool(moved)
        for word, access, recursive in found.cwd_path_words:
            if access != "read":  # `time -o FILE`
                seg.read_only = False
            self.check_path_word(word, access, seg, cwd, subtree=recursive)
        if found.run_in is not None:  # `git -C DIR show HEAD:x`: x is relative to DIR
            cwd = paths.moved(cwd, found.run_in, self.ctx.home)
        for word, access, recursive in found.path_words:
            if access == "blob":
                self.check_blob(word, seg, cwd)
                continue
            if access != "read":
                seg.read_only = False
            self.check_path_word(word, access, seg, cwd, subtree=recursive)
        if prefixes.makes_names(found.inner):
            self.check_made_names(found, seg, cwd)
        if moved:
            self.check_moved_trees(moved, seg, cwd)
        for value in _hard_linked_trees(found, moved):
            # `cp -al .vscode v`: every file below gets a second name, and a write to
            # `v/tasks.json` writes `.vscode/tasks.json` (review CX2): linked as `ln` is
            seg.read_only = False
            if value == "?":
                seg.floor(
                    Verdict.ASK,
                    "engine.hard-links",
                    "cannot tell whether `git clone` copies a repository here by hard links",
                )
                continue
            if _program(found) == "git":
                self.linked_objects(value, seg, cwd)
                continue
            self.check_path(value, "write", seg, cwd, subtree=True, removal=False)
            forms, _complete, _process = self.resolve_all(value, cwd)
            self.check_written_tree(forms, seg, value, "hard-links")
        if _program(found) in _GLOB_LANDERS:
            self.check_globbed_sources(found, seg, cwd)
            if _copies_through_links(found):
                # `cp -rL pkg/sub docs/`: a link below the folder lands as the tree it
                # leads to, which the landing checks do not follow (review CJ6)
                seg.floor(
                    Verdict.ASK,
                    "engine.copied-links",
                    "copies folders following the links in them: what they lead to lands "
                    "below the target unchecked",
                )
        globbed = [w for w in found.inner[1:] if _may_glob(w)]
        if globbed:  # (most segments have none: nothing more is built for them)
            judged = {id(word) for word, _access, _deep in found.path_words}
            # `echo ~/.ssh/*`, `printf '%s\n' sub/*/*`: the names a glob expands to
            self.check_glob_names([w for w in globbed if id(w) not in judged], seg, cwd)
        if found.implicit_cwd_read:
            for directory in sorted(cwd.candidates):
                if found.implicit_recursive and not found.reads_contents:
                    # as the same lister given the folder (`ls -R ~`)
                    self.check_path(directory, "read", seg, cwd, subtree=True)
                else:
                    self.check_absolute((directory,), "read", seg, directory)
                if found.reads_contents:  # `grep -r key`, `rg key`: the directory's tree
                    self.check_tree(directory, seg, ".")
            if not cwd.known:
                seg.floor(
                    Verdict.ASK,
                    "engine.unknown-cwd",
                    "the working directory is not known after a `cd` to a non-literal path "
                    "or into /proc's directory of a process",
                )

    def check_made_names(self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd) -> None:
        """The files a program names by joining a prefix to names it makes up: `split …
        CLAUDE.m` writes `CLAUDE.md`, `rename.ul .txt .md CLAUDE.txt` too (review BT6)."""
        states = (os.path.basename(state) for state in self.state_files)
        made = prefixes.made_names(found.inner, (*self.rules.write_globs, *states))
        if made is None:
            return
        seg.read_only = False
        if made.unknown is not None:
            seg.floor(Verdict.ASK, "engine.made-names", made.unknown)
        if made.joined is None:
            for path in made.paths:
                self.check_path(path, "write", seg, cwd)
            return
        for directory in sorted(cwd.candidates):
            top = _repository_top(directory)
            if top is None:
                message = "cannot tell which repository `git checkout-index` runs in"
                seg.floor(Verdict.ASK, "engine.made-names", message)
                continue
            start = made.joined if made.joined.startswith("/") else f"{top}/{made.joined}"
            for path in made.paths:
                below = os.path.relpath(os.path.normpath(os.path.join(directory, path)), top)
                self.check_path(start + below, "write", seg, cwd)

    def check_moved_trees(
        self, moved: Sequence[MovedTree], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """A folder moved or copied whole writes its files under names no word spells:
        `mv cfg .vscode` made `.vscode/tasks.json`, `cp -r cl docs` `docs/cl/CLAUDE.md`
        (review BX9). Each file below an existing source folder is checked where it lands
        (below the target, or below the target's folder of the source's name when the
        target is a folder); a source that is not there yet (made in the line) or not a
        literal word leaves the target's whole tree checked (`subtree`), as `cp -r`'s is."""
        for move in moved:
            if move.leaves and move.source is not None:
                # everything below the source leaves its place (`git mv`, `rename.ul`;
                # `mv`'s path roles say so): `rename.ul .config .cfg ~/.config` took
                # `~/.config/gh/hosts.yml` out of its protected place (review BZ)
                self.check_path(move.source, "write", seg, cwd, subtree=True, removal=True)
            elif self.moving and move.source is not None:
                # (`mv sub /tmp/x` takes `sub/.claude/settings.json` from its place)
                forms, _complete, _process = self.resolve_all(move.source, cwd)
                self.check_written_tree(forms, seg, move.source)
            if move.target is None:
                continue
            folders: list[str] = []
            links: list[str] = []
            there = False
            if move.source is not None:
                forms, _complete, _process = self.resolve_all(move.source, cwd)
                self.fs = True
                there = any(os.path.lexists(form) for form in forms)
                folders = [form for form in dict.fromkeys(forms) if os.path.isdir(form)]
                if move.as_link:
                    links = [text for form in forms if (text := _relative_link(form))]
            if move.whole and not there:
                # a source made in the line (or not a literal word) cannot be listed: the
                # tree where it lands is checked whole (`cp -r` checks its target's tree
                # already: `recursive`); into an existing folder it lands below it, so
                # `mv x .` checks `./x`, not every protected file of the workspace
                root = self.landing_root(move, cwd)
                self.check_path(root, "write", seg, cwd, subtree=True, removal=False)
            if not (folders or links) or move.source is None:
                continue
            targets, _complete, _process = self.resolve_all(move.target, cwd)
            name = move.source.rstrip("/").rpartition("/")[2]
            # (`cp -r -t DIR cfg/.` copies what is in `cfg` into DIR itself: review CH3;
            # so does `cfg/sub/..`: CI9)
            landings = [*targets] if move.into is not True or name in (".", "..") else []
            if move.into is not False and name not in ("", ".", ".."):
                landings.extend(f"{target.rstrip('/')}/{name}" for target in targets)
            # and below a tracked link that points there (`mv cfg6/tgt .` with `.vscode ->
            # tgt` committed: review CF7)
            landings.extend(self.link_landings(landings, subtree=True))
            shown = f"{move.target} (from `{move.source}`)"
            # a relative link keeps its text where it lands, and points from there: the
            # shipped `cfg2/.vscode -> cfg` moved to `.` is `.vscode -> cfg`, the
            # workspace's `cfg` (review CC4); each folder it may point to lands as it
            trees = [(folder, landings) for folder in folders]
            for text in dict.fromkeys(links):
                for landing in dict.fromkeys(landings):
                    # (the system follows each link of the text before its `..`: the
                    # text `lnk2/../evil` with `lnk2 -> a/b` is `a/evil`, review CD5)
                    joined = os.path.join(os.path.dirname(landing), text)
                    if os.path.isdir(joined):
                        trees.append((os.path.realpath(joined), [landing]))
                    elif not os.path.lexists(joined) and not os.path.isdir(landing):
                        # a link to nothing yet: whatever is made there later shows below
                        # the landing (review CE8: `mv cfg5/.vscode cfg6/tgt .` moved
                        # `.vscode -> tgt` and `tgt` with it), so below it is written (a
                        # folder there already is where the link goes into, not the link)
                        self.check_path(landing, "write", seg, cwd, subtree=True, removal=False)
            for folder, landed in trees:
                reasons, complete = self.rules.landed_in_tree(
                    folder, landed, self.ctx, shown, budget=TREE_BUDGET
                )
                for reason in reasons:
                    seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
                if not complete:
                    seg.floor(
                        Verdict.ASK,
                        "engine.tree-budget",
                        f"moves or copies `{short(move.source)}`: more than {TREE_BUDGET:,} "
                        "entries, too many to rule out protected files among them",
                    )

    def check_globbed_sources(
        self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """A glob source of a copy lands as each name it matches below the target folder:
        `cp cfg/* .vscode/`, `cp -t .vscode cfg/*`, `ln cfg/* DIR`, `install -t DIR cfg/*`
        wrote `.vscode/tasks.json`, a name no word of the line spells (review CH3). The
        glob is expanded as bash would (`check_glob`'s bounds; past them, it asks); a
        folder it matches lands with its tree when the program copies, moves or links
        trees (review CI7: `cp -r pkg/* docs/` wrote `docs/sub/CLAUDE.md`); with
        `--parents` a match keeps its path (CI8); a file another segment of the line
        writes is matched too (`glob_landings`, at the end of the line: CI6)."""
        inner, operands = found.inner, list(found.view.operands)
        into = _target_directory(found)
        target: str | None
        if into is not None:
            target, sources = into, operands
        else:
            target = tree_path(inner[operands[-1]]) if operands else None
            sources = operands[:-1]
        globs = [w for i in sources if _may_glob(w := inner[i]) and not w.splits_at_blanks]
        if target is None or not globs:
            return
        self.fs = True
        self.path_users[id(seg)] = seg  # (a tree writer of the line may make its matches)
        program = _program(found)
        deep = program in ("mv", "ln") or found.view.has(
            *(_RSYNC_DEEP if program == "rsync" else _CP_DEEP)
        )
        parents = found.view.has("--parents", "-R", "--relative") and program in ("cp", "rsync")
        landing = GlobLanding(seg, target.rstrip("/") or "/", deep, parents, cwd)
        for word in globs:
            pattern = paths.path_text(word)
            if pattern is None:
                continue  # (`$HOME/x*`: the path checks of the source ask)
            for match, relative in self._glob_matches(pattern, seg, cwd, landing):
                self.land_glob_match(landing, match, relative)

    def land_glob_match(self, landing: GlobLanding, match: str, relative: str) -> None:
        name = relative.lstrip("/") if landing.parents else os.path.basename(match.rstrip("/"))
        where = f"{landing.target}/{name}"
        self.check_path(where, "write", landing.seg, landing.cwd)
        if landing.deep and os.path.isdir(match):
            self._land_tree(landing, match, where, f"copies `{short(relative)}`")

    def _land_tree(self, landing: GlobLanding, folder: str, where: str, what: str) -> None:
        """`folder`'s tree landed at `where` (the files it holds below that name)."""
        forms, _complete, _process = self.resolve_all(where, landing.cwd)
        reasons, complete = self.rules.landed_in_tree(
            os.path.realpath(folder), list(forms), self.ctx, where, budget=TREE_BUDGET
        )
        for reason in reasons:
            landing.seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
        if not complete:
            landing.seg.floor(
                Verdict.ASK,
                "engine.tree-budget",
                f"{what} into `{short(landing.target)}`: more than {TREE_BUDGET:,} entries, "
                "too many to rule out protected files among them",
            )

    def land_possible_copies(self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd) -> None:
        """An approved program no rule describes may copy any operand that exists into
        any other, whole or its contents (`rclone copy evil .`, `rclone copy
        evil/tasks.json .vscode`: review CN9): each such landing is checked as a write."""
        values, globs = _copy_operands(found.inner[1:])
        if len(values) + len(globs) < 2 or not values:
            return
        self.fs = True
        sources: list[tuple[str, str]] = []  # (the operand, an existing form of it)
        for source in values:
            forms, _complete, _process = self.resolve_all(source, cwd)
            sources.extend((source, form) for form in forms if os.path.lexists(form))
        for pattern in globs:  # (`rclone copy ev* .vscode`: review CO3)
            matches = self._glob_matches(pattern, seg, cwd, None)
            sources.extend((pattern, match) for match, _shown in matches)
        if len(sources) * len(values) > _MAX_COPY_PAIRS:
            seg.floor(
                Verdict.ASK,
                "engine.glob-path",
                f"a program no rule describes is given {len(sources)} files that exist and "
                f"{len(values)} paths, any of which it may copy into another: too many to check",
            )
            return
        for target in values:
            targets, _complete, _process = self.resolve_all(target, cwd)
            for source, form in sources:
                if source == target:
                    continue
                # (a folder holding the target, `hugo -s . -d public`, is the program's
                # input, not copied whole into it: only its name lands there)
                whole = not any(paths.is_within(t, form) for t in targets)
                landing = GlobLanding(seg, target.rstrip("/") or "/", whole, False, cwd)
                if os.path.dirname(form) not in targets:  # (else it is there: `typos .
                    self.land_glob_match(landing, form, os.path.basename(form))  # .vscode`)
                if whole and os.path.isdir(form):  # (its contents, into the target)
                    self._land_tree(landing, form, landing.target, f"may copy `{short(form)}`")

    def _glob_matches(
        self, pattern: str, seg: SegmentState, cwd: paths.Cwd, landing: GlobLanding | None
    ) -> list[tuple[str, str]]:
        """What `pattern` matches now in each working folder, absolute and as bash passes
        it; asks (and gives none) where that cannot be told within the bounds. Notes the
        absolute patterns for the line's own writes, with `landing` (`glob_landings`)."""
        expanded = paths.expand_home(pattern, self.ctx.home)
        if expanded is None:
            return []
        found_all: list[tuple[str, str]] = []
        for base in sorted(cwd.candidates):
            absolute = expanded if expanded.startswith("/") else f"{base.rstrip('/')}/{expanded}"
            if landing is not None:
                self.glob_landings.append((landing, absolute, len(absolute) - len(expanded)))
            try:
                found = paths.bounded_glob(
                    absolute, matches=_GLOB_CAP, visits=_GLOB_VISITS, spent=self.glob_visits
                )
            except (OSError, ValueError):
                found = None
            if found is None:
                seg.floor(
                    Verdict.ASK,
                    "engine.glob-path",
                    f"the glob `{short(pattern)}` names more files than can be checked where "
                    "they are copied to",
                )
                return []
            cut = len(absolute) - len(expanded)
            found_all.extend((match, match[cut:]) for match in found)
        return list(dict.fromkeys(found_all))

    def landing_root(self, move: MovedTree, cwd: paths.Cwd) -> str:
        """Where a moved tree whose source cannot be listed lands: below the target when
        it goes into it (`-t`, or the target is a folder now), else the target itself."""
        target = move.target or ""
        name = (move.source or "").rstrip("/").rpartition("/")[2]
        if move.into is False or name in ("", ".", ".."):
            return target
        if move.into is None:
            forms, _complete, _process = self.resolve_all(target, cwd)
            if not any(os.path.isdir(form) for form in forms):
                return target
        return f"{target.rstrip('/')}/{name}"

    def check_glob_names(self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """The names the globs among `words` expand to, read as `ls FOLDER` is (review
        BS7). Also for the word list of `for NAME in WORDS` and `select`: bash expands it
        as it does a command's arguments, and the loop variable carries the names on
        (review BT2: `for f in ~/.ssh/*; do echo $f; done` printed them)."""
        for word in words:
            if not _may_glob(word):
                continue
            pattern = paths.path_text(word)
            if pattern is None:
                # `echo $HOME/.ssh/*`: the glob is expanded after `$HOME` is (review BT2)
                pattern = home_parameter_glob(word.text, self.ctx.home)
            if pattern is not None:
                self.check_glob(pattern, "read", seg, cwd, subtree=False, names=True)

    def check_path_word(
        self, word: Word, access: str, seg: SegmentState, cwd: paths.Cwd, *, subtree: bool = False
    ) -> None:
        value = word.value
        for other in _tilde_readings(word, self.ctx.home):
            # bash and the path rules read `~` differently here (review AB6): check both
            self.check_path(other, access, seg, cwd, subtree=subtree)
        if value is None and (here := working_folder_path(word)) is not None:
            self.check_path(here, access, seg, cwd, subtree=subtree)
        if value is None:
            if _is_process_substitution(word):
                return  # the path is a pipe; its command is evaluated on its own
            values = self.loop_variable(word)
            if values is not None:
                for one in values:
                    self.check_path_word(
                        Word(text=one, value=None, span=word.span, expansions=_GLOB_MARK),
                        access,
                        seg,
                        cwd,
                        subtree=subtree,
                    )
                return
            value = paths.path_text(word)
            if value is None:
                seg.floor(
                    Verdict.ASK,
                    "engine.unknown-path",
                    f"cannot tell which file `{short(word.text)}` names",
                )
                home = home_parameter_path(word.text, self.ctx.home)
                if home is not None:
                    # `rm -rf $HOME`: the home folder, unless the line changed HOME, which
                    # the question above already covers; checked too, so a deny holds
                    # (review BK5: `rm -rf ~` was denied, `rm -rf $HOME` asked)
                    self.check_path(home, access, seg, cwd, subtree=subtree)
                return
            if _glob_may_reach_hidden(value):
                seg.floor(
                    Verdict.ASK,
                    "engine.glob-path",
                    f"the glob `{short(word.text)}` may match a protected file",
                )
            # (a mover's glob is judged by what it matches, below: `mv *.txt done/` moves
            # those files and folders, not the folder the glob lies in)
            if (
                subtree
                and any(ch in value for ch in "*?[{")
                and not _expanded_apart(word)
                and not self.moving
            ):
                directory = _glob_directory(value)
                self.check_path(directory, access, seg, cwd, subtree=True)
            if any(ch in value for ch in "*?["):
                self.check_glob(value, access, seg, cwd, subtree=subtree)
        self.check_path(value, access, seg, cwd, subtree=subtree)

    def check_glob(
        self,
        pattern: str,
        access: str,
        seg: SegmentState,
        cwd: paths.Cwd,
        *,
        subtree: bool,
        names: bool = False,
    ) -> None:
        """Check what a glob matches now (`cat *` reading a workspace `server.key`).

        The glob is expanded the way bash would (no dotfiles unless the pattern says so);
        too many matches to check is itself a reason to ask. With `names`, the glob is an
        argument that is no path (`echo ~/.ssh/*`): the command line holds the names in
        each folder a match lies in, which is read as `ls FOLDER` is (review BS7).
        """
        self.fs = True
        self.path_users[id(seg)] = seg
        expanded = paths.expand_home(pattern, self.ctx.home)
        if expanded is None:
            return  # `~user/…`: resolve() already reports it as unknowable
        for base in sorted(cwd.candidates):
            absolute = expanded if expanded.startswith("/") else f"{base.rstrip('/')}/{expanded}"
            # every glob of the line reads from one budget: 640 globs of 20,000 entries
            # each had taken 30 s (review AW6); past it, a few more globs still get a small
            # budget of their own, so that expensive globs placed first cannot leave
            # `cat .en*` unchecked (review BA6: a deny had become a question)
            left = LINE_GLOB_VISITS - self.glob_visits[0]
            if left >= GLOB_FLOOR:
                visits = min(_GLOB_VISITS, left)
            elif self.glob_visits[1] < GLOBS_PAST_BUDGET:
                self.glob_visits[1] += 1
                visits = GLOB_FLOOR
            else:
                _glob_unchecked(pattern, seg)
                return
            try:
                found = paths.bounded_glob(
                    absolute, matches=_GLOB_CAP, visits=visits, spent=self.glob_visits
                )
            except (OSError, ValueError):
                found = None
            if found is None and visits < _GLOB_VISITS:
                _glob_unchecked(pattern, seg)
                return
            if found is None:
                # too many matches, or a walk too long to finish (`/sys/*/*/*/*/*/x`)
                seg.floor(
                    Verdict.ASK,
                    "engine.glob-path",
                    f"the glob `{short(pattern)}` names more files than can be checked "
                    f"(over {_GLOB_CAP}, or over {_GLOB_VISITS} directory entries to read)",
                )
                return
            matches = found
            if not expanded.startswith("/"):
                # bash passes a relative match as it is named here: `-r`, a file a hostile
                # tree may hold, is an option to the command (review Z3)
                prefix = len(base.rstrip("/")) + 1
                option = next((m[prefix:] for m in matches if m[prefix:].startswith("-")), None)
                if option is not None:
                    seg.floor(
                        Verdict.ASK,
                        "engine.glob-option",
                        f"the glob `{short(pattern)}` matches `{short(option)}`, which the "
                        "command reads as an option",
                    )
            if names:
                matches = list(dict.fromkeys(os.path.dirname(match) for match in matches))
            for match in matches:
                self.check_path(match, access, seg, cwd, subtree=subtree)
            if expanded.startswith("/"):
                return

    def loop_variable(self, word: Word) -> tuple[str, ...] | None:
        """The values of a `for` variable a word consists of (`$f`, `"${f}"`), if known.

        Not known when a value is not one plain operand (review Z1): one that starts with
        `-` is an option to the command, and one with a blank becomes several words when
        the variable is unquoted (`for f in ".env ../x"; do cat $f; done` reads `.env`).
        """
        if len(word.expansions) != 1 or word.expansions[0].kind is not ExpansionKind.PARAMETER:
            return None
        name = word.expansions[0].name
        if name is None or word.text.strip('"') not in (f"${name}", f"${{{name}}}"):
            return None
        values = self.loop_values.get(name)
        if values is None:
            return None
        quoted = word.text.startswith('"')
        if any(v.startswith("-") or (not quoted and _BLANKS.search(v)) for v in values):
            return None
        if any("~" in v[1:] for v in values):
            return None  # `x=~/…` in the word list: bash expands that tilde (review AB6)
        return values

    def check_path(
        self,
        value: str,
        access: str,
        seg: SegmentState,
        cwd: paths.Cwd,
        *,
        subtree: bool = False,
        removal: bool | None = None,
    ) -> None:
        """`removal`: whether a recursive write only removes files (`ProtectedTable.
        match_protected`); by default, when the segment's program only removes them
        (`removes_only`)."""
        if is_harmless_device(value):
            if access == "write":  # `tee /dev/stdout`, `cp x /dev/stdin`: as a redirect
                self._device_write(value, seg)
            return
        if value.startswith(_NETWORK_PREFIXES):
            seg.read_only = False
            seg.floor(
                Verdict.ASK, "engine.network-redirect", f"`{value}` opens a network connection"
            )
            return
        self.fs = True
        self.path_users[id(seg)] = seg
        forms, complete, process = self.resolve_all(value, cwd)
        if process:
            seg.floor(
                Verdict.ASK,
                "engine.process-path",
                f"`{short(value)}` leads through /proc's directory of the process that opens "
                "it (its working directory, root or descriptors), which cannot be known here",
            )
        if subtree and self.ctx.env_secrets:
            self.environment_secrets_below(forms, access, seg, value)
        if subtree and access == "read" and self.follows_links and not self.reads_contents:
            for form in dict.fromkeys(forms):  # `ls -RL .`: where its links point
                self.check_links_below(form, seg, value)
        elif subtree and access == "write" and self.follows_links:
            for form in dict.fromkeys(forms):  # `chown -RL x .`, `gzip -rf .`: the same
                self.check_links_below(form, seg, value, "write")
        if (
            subtree
            and access == "read"
            and all(paths.is_within(form, self.ctx.workspace) for form in forms)
        ):
            # reading a tree inside the workspace is the everyday case (`grep -r x .`): its
            # protected globs (`**/.env`) would match by name, so look at what is there; a
            # recursive read of anything else (`grep -r x ~`) must not reach protected files
            if self.reads_contents:  # `ls -R` lists names; `grep -r` prints contents
                for form in dict.fromkeys(forms):
                    self.check_tree(form, seg, value)
            subtree = False
        elif subtree and access == "read" and self.reads_contents:
            # a tree elsewhere (`grep -r x ../other`): rules anchored at `/` (`/**/.env`)
            # match by name anywhere in it, so it is looked at too; its home- and
            # root-anchored directories are still found by `check_absolute` below
            for form in dict.fromkeys(forms):
                if not paths.is_within(form, self.ctx.workspace):
                    self.check_tree(form, seg, value)
        if not complete:
            seg.floor(
                Verdict.ASK,
                "engine.unknown-path",
                f"cannot tell where `{short(value)}` points (working directory or user unknown)",
            )
        if access == "read":
            included = self._included_in(self.ctx.workspace)
            for form in forms:
                if is_git_config_path(form) or form in included:
                    found = self.git_config_credentials(form, value)
                    if found is not None:
                        seg.floor(found.verdict, found.rule_id, found.message)
        else:
            self.included_config_write(forms, seg, value, cwd, subtree=subtree)
            self.git_directory_write(forms, seg, value, subtree=subtree)
            self.written.extend((seg, form, subtree) for form in forms)
            forms = (*forms, *self.link_landings(forms, subtree))
            if not self.links_complete and any(
                paths.is_within(form, self.ctx.workspace) for form in forms
            ):
                # an index that could not be read hides the links it tracks: the write
                # may land below one of a protected name (fail closed)
                seg.floor(
                    Verdict.ASK,
                    "engine.unknown-links",
                    f"writes `{short(value)}` where the links it may land through could "
                    "not all be seen (an unreadable git index, or a protected folder too "
                    "large to list)",
                )
        self.check_absolute(forms, access, seg, value, subtree=subtree, removal=removal)
        if access == "write" and subtree and (removal or not self.copying):
            self.check_written_tree(forms, seg, value)

    def linked_objects(self, objects: str, seg: SegmentState, cwd: paths.Cwd) -> None:
        """A local `git clone` hard-links the source repository's object files: a later
        write to one in the clone rewrites the protected original (review CY6). Asks
        where they are protected (a routine `git clone lib vendor-lib` is no write of
        them, so no deny: review CZ5); a `host:path` source that is a local folder is
        local to git too (CZ4)."""
        forms, complete, _process = self.resolve_all(objects, cwd)
        self.fs = True
        source = objects.rpartition("/")[0].removesuffix("/.git")
        if not complete:
            seg.floor(
                Verdict.ASK,
                "engine.hard-links",
                f"cannot tell where the repository `{short(source)}` a local `git clone` "
                "hard-links lies",
            )
            return
        if not any(os.path.isdir(form) for form in forms):
            # `SRC/.git` a file (a worktree, a submodule), or `SRC` itself one holding
            # `gitdir: …` (review DB1)
            folders = [form.removesuffix("/objects") for form in forms]
            if objects.endswith("/.git/objects") and any(
                _names_a_git_directory(path) or _names_a_git_directory(path.removesuffix("/.git"))
                or os.path.isfile(os.path.join(path.removesuffix("/.git"), "commondir"))
                for path in folders
            ):
                # a linked worktree or a submodule: `.git` is a file naming the git
                # directory whose objects git links (review DA2)
                seg.floor(
                    Verdict.ASK,
                    "engine.hard-links",
                    f"`git clone` of `{short(source)}` hard-links the object files of the "
                    "repository its `.git` file names",
                )
            return
        for form in forms:
            found = self.rules.path_verdicts(
                (form,), "write", self.ctx, objects, protected_only=True
            )
            if found:
                seg.floor(
                    Verdict.ASK,
                    "engine.hard-links",
                    f"`git clone` of a local repository hard-links `{short(objects)}`, which "
                    f"`{found[0].rule_id}` protects: a write to the clone's copy rewrites it",
                )
                return

    def check_written_tree(
        self, forms: Sequence[str], seg: SegmentState, shown: str, how: str = "writes"
    ) -> None:
        """A recursive write of an existing folder (`rm -r sub`, `chmod -R 777 certs`,
        the source of `mv sub /tmp`) reaches every file in it: one a rule denying writes
        protects asks, even under an approval (an approval of `rm` let `rm -rf sub` remove
        `sub/.claude/settings.json`, where `rm -rf sub/.claude` is denied). An ask, not
        the rule's deny: the file was found, not named, and a human may well mean it
        (`rm -rf old-checkout` with its `.git`)."""
        if seg.verdict is Verdict.DENY:
            return  # (nothing below can make it stricter; `rm -rf ~` lists no home)
        if self.removing and not self.moving and not shown.endswith("/"):
            # `rm -rf lnk` removes the link, not what it leads to (review CY11)
            links = [form for form in forms if os.path.islink(form)]
            ends = {os.path.realpath(form) for form in links}
            forms = [form for form in forms if form not in links and form not in ends]
        for form in dict.fromkeys(forms):
            if not os.path.isdir(form):
                continue  # a file, or nothing yet
            self.fs = True
            scanned = self.written_trees.get(form)
            if scanned is None:
                if self._too_many_trees(len(self.written_trees), seg, shown, "writes"):
                    return
                scanned = self.rules.denied_below(form, self.ctx, budget=TREE_BUDGET)
                self.written_trees[form] = scanned
            denied, complete = scanned
            if denied is not None:
                path, reason = denied
                seg.floor(
                    Verdict.ASK,
                    "engine.written-tree",
                    f"{how} `{short(shown)}` recursively, reaching `{self._as_shown(path)}`"
                    f", which `{reason.rule_id}` protects",
                    reason.location,
                )
            elif not complete:
                seg.floor(
                    Verdict.ASK,
                    "engine.tree-budget",
                    f"{how} `{short(shown)}` recursively: more than {TREE_BUDGET:,} entries, "
                    "too many to rule out protected files among them",
                )

    def link_landings(self, forms: Sequence[str], subtree: bool) -> tuple[str, ...]:
        """The protected names a write reaches through a link the repository tracks: with
        `.vscode -> tgt` committed, `cp -r cfg tgt` or `mkdir tgt && cp x tgt/tasks.json`
        writes `.vscode/tasks.json` (review CF7). A link not there yet is followed too
        (it points where the write lands), one the line makes is `LineWrites`' to judge.
        Each form at or below a link's target lands below the link; a tree written above
        a target (`mv cfg6 x` where the link points into `x`) reaches the link whole."""
        links = self._protected_links()
        if not links:
            return ()
        found: list[str] = []
        for form in forms:
            for link, target in links:
                top = target.rstrip("/") + "/"  # (`/` for a link to the root)
                if form == target or form.startswith(top):
                    below = form[len(top) :] if form != target else ""
                    found.append(f"{link}/{below}" if below else link)
                elif subtree and target.startswith(form.rstrip("/") + "/"):
                    found.append(link)
        return tuple(found)

    def _protected_links(self) -> list[tuple[str, str]]:
        """The links a write may land below: those the index of the workspace's
        repository and of the working folder's (a submodule) track, and, for a workspace
        git does not know (an unpacked archive) or a link not committed, the links at the
        workspace's top and in the working folder named as a protected path's folder or
        file is (review CH6: `.vscode -> tgt` in a tarball, `sub/.claude -> tgt` in a
        submodule), and those at or inside the protected paths below the top (CL5)."""
        if self.protected_links is None:
            self.fs = True
            links, complete = self.git.tracked_links(self.ctx.workspace)
            folders = dict.fromkeys((self.ctx.workspace, *sorted(self.start.candidates)))
            for folder in list(folders)[1:]:
                more, read = self.git.tracked_links(folder)
                links.extend(more)
                complete = complete and read
            self.links_complete = complete
            for folder in folders:
                inside, seen_all = _links_at_top(
                    folder,
                    self.rules.protected_names,
                    self.rules.protected_name_pattern(),
                    self.rules.protected_inner,
                )
                links.extend(inside)
                self.links_complete = self.links_complete and seen_all
            found: list[tuple[str, str]] = []
            for link in dict.fromkeys(links):  # (most repositories track none, or a few)
                try:
                    text = os.readlink(link)
                except OSError:
                    continue  # not a link in the work tree (any more): no alias
                joined = os.path.join(os.path.dirname(link), text)
                # `..` after a link is the link target's parent (review CL4: `.vscode ->
                # docs/lnk/../tgt` with `docs/lnk -> ../cfg2/sub` is `cfg2/tgt`): the
                # lexical form is kept only where it has no `..` to collapse
                real = paths.physical_target(joined)
                if real is None:
                    # a hop past PATH_MAX: where it leads is not known, so a write in the
                    # workspace asks (reviews CX1, CY1)
                    self.links_complete = False
                    continue
                found.append((link, real))
                if ".." not in joined.split("/"):
                    target = os.path.normpath(joined)
                    if target != real:
                        found.append((link, target))
            self.protected_links = found
        return self.protected_links

    def git_remotes(
        self, remotes: Sequence[str], seg: SegmentState, directory: str, owner: str
    ) -> None:
        """The remotes git may reach without the line naming them (`git fetch up`,
        `git submodule update`): ssh to this machine asks, and a local repository is read
        like a path, so one under `~/.config/op` is denied (review AC6). `owner` names
        the configuration they come from, for the reasons."""
        # git reads a relative remote from the top of the work tree, which may be any
        # directory at or above this one (review AD3): each is a base
        bases = [directory]
        while bases[-1] not in ("/", ""):
            bases.append(bases[-1].rpartition("/")[0] or "/")
        here = paths.Cwd(candidates=frozenset(bases), known=True)
        for url in remotes:
            if url.endswith(REWRITE_MARK):
                base = url[: -len(REWRITE_MARK)]
                if not _COMPLETE_HOST.match(base):
                    seg.floor(
                        Verdict.ASK,
                        "engine.git-remote",
                        f"{owner} rewrites remote URLs to start with `{short(base)}` "
                        "(`insteadOf`), so where git goes cannot be told",
                    )
                    continue
                url = base
            reach = git_url_reach(url)
            if reach is None:
                continue
            kind, where = reach
            if kind == "loopback":
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-loopback",
                    f"{owner} has the remote `{short(url)}`, which is this machine (`{where[0]}`): "
                    "git reaches it over ssh",
                )
            elif kind == "program":
                seg.floor(
                    Verdict.ASK,
                    "engine.git-remote",
                    f"{owner} has the remote `{short(url)}`, which runs a command or uses a "
                    "descriptor (git's `ext::` and `fd::` transports)",
                )
            else:
                for path in where:
                    self.check_path(path, "read", seg, here, subtree=True)

    def included_configs(self, cwd: paths.Cwd) -> frozenset[str]:
        """The files git's global configuration and the configuration of the repositories
        of the workspace and of `cwd` include, as named and resolved (reviews AE2, BT1):
        git reads them as its configuration wherever they lie (`include.path =
        ../shared.gitconfig` names a file of the work tree)."""
        found = self._included_in(self.ctx.workspace)
        for directory in cwd.candidates:
            if directory != self.ctx.workspace:
                found |= self._included_in(directory)
        return found

    def _included_in(self, directory: str) -> frozenset[str]:
        found = self.includes.get(directory)
        if found is None:
            named = self.git.included_files(directory, self.ctx.home, self.ctx.env)
            forms = set(named)
            for path in named:  # (rare: most configurations include nothing)
                forms.update(self.resolve_all(path, _ROOT)[0])  # a link on the way
            found = self.includes[directory] = frozenset(forms)
        return found

    def included_config_write(
        self,
        forms: Sequence[str],
        seg: SegmentState,
        shown: str,
        cwd: paths.Cwd,
        *,
        subtree: bool,
    ) -> None:
        """A write to a file git's configuration includes is a write to that configuration,
        which can make git run programs (`core.fsmonitor`): denied wherever the file lies,
        as writes to `.git/config` are (review BT1: `cp payload.cfg shared.gitconfig && git
        status` ran the payload's fsmonitor under an approval of `cp`)."""
        included = self.included_configs(cwd)
        if not included:
            return
        for form in forms:
            hit = form if form in included else None
            if hit is None and subtree:  # `rm -r conf`, `cp -rT evil conf`
                hit = next((path for path in sorted(included) if _below(path, [form])), None)
            if hit is not None:
                seg.floor(
                    Verdict.DENY,
                    "engine.git-include",
                    f"writes `{short(shown)}`, reaching `{short(hit)}`, a file git's "
                    "configuration includes (`include.path`): what it sets can make git run "
                    "programs, so it is protected as `.git/config` is",
                )
                return

    @staticmethod
    def git_directory_write(
        forms: Sequence[str], seg: SegmentState, shown: str, *, subtree: bool
    ) -> None:
        """A write to the `config`, `HEAD`, hooks or info files of a git directory that is
        not named `.git` (a bare repository: a test fixture, `x.git`, one a line or a
        checkout made) is denied, as writes below `.git` are: git reads them as that
        repository's configuration, and `core.fsmonitor` runs on `git status` (review
        BV1). So is a write of the whole of one (`cp -rT payload fixture.git`)."""
        for form in forms:
            gitdir = git_directory_of(form)
            if gitdir is None and subtree and is_git_directory(form):
                gitdir = form
            if gitdir is not None:
                seg.floor(
                    Verdict.DENY,
                    "engine.git-directory",
                    f"writes `{short(shown)}`, in `{short(gitdir)}`, which git takes for a "
                    "git directory: its configuration and hooks can make git run programs, "
                    "so it is protected as `.git` is",
                )
                return

    def note_config_rewrite(self, program: str, seg: SegmentState) -> None:
        """`program` may rewrite files of the work tree (`git checkout`, `git stash pop`):
        where git's configuration includes a file of the workspace outside `.git`, the
        git commands after it in the line read a configuration not known here."""
        for path in sorted(self._included_in(self.ctx.workspace)):
            if paths.is_within(path, self.ctx.workspace) and "/.git/" not in path + "/":
                self.config_rewrites.append((seg, program, path))
                return

    def earlier_config_rewrite(self, seg: SegmentState) -> None:
        """A git command after one that may rewrite a file git's configuration includes
        (`git checkout other && git status`) asks: the engine read the file as it was
        before the line ran (review BT1)."""
        for other, program, path in self.config_rewrites:
            if other is not seg:
                seg.floor(
                    Verdict.ASK,
                    "engine.git-config",
                    f"`{short(program)}` earlier in the line may rewrite `{short(path)}`, a "
                    "file git's configuration includes: what git reads from it then is not "
                    "known here",
                )
                return

    def _write_protected(self, path: str) -> bool:
        """Whether a protect rule denies writing the absolute `path` where it really is (a
        protected name that is a link into the workspace is the workspace's file)."""
        if not path.startswith("/"):
            return False
        try:
            path = paths.real(path)
        except paths.Unresolvable:
            return False  # (where it leads is not known: counted, which asks)
        reasons = self.rules.path_verdicts((path,), "write", self.ctx, path, protected_only=True)
        return any(reason.verdict is Verdict.DENY for reason in reasons)

    def _in_workspace(self, path: str) -> bool:
        """`path` lies in the workspace, as written and with its links resolved."""
        if not path.startswith("/") or not paths.is_within(path, self.ctx.workspace):
            return False
        real = os.path.realpath(path)
        return any(paths.is_within(real, ws) for _home, ws in self.ctx.anchors())

    def git_config_credentials(self, path: str, shown: str) -> Reason | None:
        """Reading a git config file that holds a credential (`http.extraheader`, which
        actions/checkout leaves in `.git/config`; a URL with a token in it) prints it."""
        found = self.git.credentials_in(path)
        if not found:
            return None
        return Reason(
            rule_id="engine.git-credentials",
            message=f"`{short(shown)}` reads a git config that holds a credential "
            f"(`{found[0].key}`)",
            verdict=Verdict.ASK,
        )

    def check_blob(self, word: Word, seg: SegmentState, cwd: paths.Cwd) -> None:
        """`git show HEAD:PATH` prints PATH as committed; PATH is relative to the root of
        the repository (`./` and `../` make it relative to the working directory).

        The root is some directory at or above the working directory, so PATH is checked
        below each of them: a repository in `~` shows `~/.aws/credentials` to
        `git -C ~/src show HEAD:.aws/credentials`.
        """
        value = word.value
        if value is None or value.startswith(("./", "../")) or value in (".", ".."):
            self.check_path_word(word, "read", seg, cwd)
            return
        if not cwd.known:
            seg.floor(
                Verdict.ASK,
                "engine.unknown-cwd",
                "the working directory is not known, so neither is the repository's root",
            )
        for base in sorted(cwd.candidates):
            directory = base
            while True:
                absolute = paths.lexical(value, directory, self.ctx.home)
                if absolute is not None:
                    self.check_path(absolute, "read", seg, cwd)
                if directory in ("/", ""):
                    break
                directory = directory.rpartition("/")[0] or "/"

    def check_links_below(
        self, directory: str, seg: SegmentState, shown: str, access: str = "read"
    ) -> None:
        """A recursive listing that follows links (`ls -RL`, `find -L`, `du -aL`) lists
        the names where each link below `directory` points: those places meet the
        protect rules as trees (review BM10), and the links below a linked folder are
        followed in turn, as the lister does; a recursive writer that follows links
        (`chown -RL`, `gzip -rf`) writes there (`access`). More than `TREE_LINKS` links,
        or a tree too large to look through, asks."""
        if (self.reads_contents and access == "read") or not os.path.isdir(directory):
            return  # a content read follows links in `check_tree` already
        self.fs = True
        pending = [directory]
        seen = {directory}
        links = 0
        complete = True
        while pending and complete:
            root = pending.pop()
            found = subtree.scan(root, hidden=True, budget=TREE_BUDGET)
            complete = found.complete
            for link, target in found.links:
                links += 1
                if links > TREE_LINKS:
                    complete = False
                    break
                if paths.is_within(target, root) or target in seen:
                    continue
                deep = os.path.isdir(target)
                for reason in self.rules.path_verdicts(
                    (target,), access, self.ctx, f"{shown} ({link})", subtree=deep
                ):
                    seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
                if deep:
                    seen.add(target)
                    pending.append(target)
        if not complete:
            seg.floor(
                Verdict.ASK,
                "engine.tree-budget",
                f"lists `{short(shown)}` following links: too many entries or links to "
                "look through",
            )

    def _too_many_trees(self, count: int, seg: SegmentState, shown: str, how: str) -> bool:
        """Whether a line has scanned as many trees as it may (`TREES_PER_LINE`); it then
        asks rather than scan one more."""
        if count < TREES_PER_LINE:
            return False
        seg.floor(
            Verdict.ASK,
            "engine.tree-budget",
            f"{how} `{short(shown)}` recursively: more than {TREES_PER_LINE} trees to check "
            "in one line",
        )
        return True

    def check_tree(self, directory: str, seg: SegmentState, shown: str) -> None:
        """Floors for the protected files a recursive read of `directory` reaches."""
        self.path_users[id(seg)] = seg
        if self.reads_hidden is not True:
            # judged by the ignore files as they are now: see `LineWrites` (review BV2)
            self.hidden_skips.append((seg, shown))
        if not os.path.isdir(directory):
            return  # a file, or nothing yet: no tree below it
        self.fs = True
        key = (directory, self.reads_hidden)
        scanned = self.trees.get(key)
        if scanned is None:
            if self._too_many_trees(len(self.trees), seg, shown, "reads"):
                return
            scanned = self.rules.protected_in_tree(
                directory,
                self.ctx,
                shown,
                hidden=self.reads_hidden,
                budget=TREE_BUDGET,
                git_config=self.git_config_credentials,
            )
            self.trees[key] = scanned
        reasons, complete = scanned
        for reason in reasons:
            seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
        # files git configuration includes, whatever their names and wherever they lie
        # (reviews AE2, BT1: `include.path = ../shared.gitconfig` names a workspace file)
        for path in self._included_in(self.ctx.workspace):
            below = _below(path, [directory])
            found = self.git_config_credentials(path, shown) if below else None
            if found is not None:
                seg.floor(found.verdict, found.rule_id, found.message)
        if not complete:
            seg.floor(
                Verdict.ASK,
                "engine.tree-budget",
                f"reads `{short(shown)}` recursively: more than {TREE_BUDGET:,} entries, "
                "too many to rule out protected files among them",
            )

    def check_absolute(
        self,
        forms: Sequence[str],
        access: str,
        seg: SegmentState,
        shown: str,
        *,
        subtree: bool = False,
        removal: bool | None = None,
    ) -> None:
        self.path_users[id(seg)] = seg
        removal = subtree and (self.removing if removal is None else removal)
        for reason in self.rules.path_verdicts(
            forms, access, self.ctx, shown, subtree=subtree, removal=removal
        ):
            seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
        if access == "write" and self.state_files:
            self.check_state(forms, seg, shown, subtree=subtree)

    def check_state(
        self, forms: Sequence[str], seg: SegmentState, shown: str, *, subtree: bool
    ) -> None:
        """A write to a file the policy is loaded from, to its approvals file or a
        temporary sibling of it: deny. A write to a folder that holds one: deny when it
        reaches the whole tree (`rm -r`), else ask (`mv d x` moves the file away, `cp x d`
        only writes into it)."""
        subtree = subtree and not self.moving
        for form in forms:
            for state in self.state_files:
                # (a state folder, the snapshots', holds state files: a write into it)
                exact = (
                    form == state
                    or _is_sibling_temporary(form, state)
                    or paths.is_within(form, state)
                )
                if not exact and not paths.is_within(state, form):
                    continue
                verdict = Verdict.DENY if exact or subtree else Verdict.ASK
                what = "is" if exact else "holds"
                seg.floor(
                    verdict,
                    "engine.policy-state",
                    f"writes `{short(shown)}`, which {what} `{state}`, a file this policy is "
                    "loaded from (its rules or its approvals)",
                )
                return

    def check_state_prefix(self, word: Word, seg: SegmentState, cwd: paths.Cwd) -> None:
        """A name `split`/`csplit` add a suffix to: `split -n25 F team.polic` writes
        `team.policy` (review AJ2)."""
        value = word.value
        if value is None or value.startswith("-"):
            return
        forms, _complete, _process = self.resolve_all(value, cwd)
        for form in forms:
            hit = next(
                (s for s in self.state_files if s.startswith(form) and "/" not in s[len(form) :]),
                None,
            )
            if hit is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.policy-state",
                    f"writes files named `{short(value)}` and a suffix, such as `{hit}`, a "
                    "file this policy is loaded from",
                )
                return

    def check_embedded(self, word: Word, seg: SegmentState, cwd: paths.Cwd) -> None:
        """Absolute paths inside a word's own syntax, after `|`, `;`, `]`, `:` …
        (`concat:a|/home/u/.aws/credentials`, ffmpeg's tee muxer `[f=data]~/.bashrc`),
        checked against the protect rules only: `s|/usr|/opt|` names no file to ask
        about, but an approved program must not reach a protected one (review AF4)."""
        value = word.value
        if value is None or not _EMBEDDED_HINT.search(value):
            return
        # a program's own quoting and escapes (ffmpeg's `textfile='/x'`, `..\/x`) are its
        # to remove: the pieces are read without them (review AJ3)
        value = value.replace("\\", "")
        for match in _EMBEDDED_PATH.finditer(value):
            separator, piece = match.group(1, 2)
            forms, _complete, _process = self.resolve_all(piece, cwd)
            # after a `:` it may be another machine's path (`docker cp c:/etc/hosts x`,
            # `host:/etc/x`), or a protocol's file (`cache:/…`): read, not written, but
            # for `file:`
            only_read = separator == ":" and not value[: match.start() + 1].endswith("file:")
            for access in ("read",) if only_read else ("read", "write"):
                for reason in self.rules.path_verdicts(
                    forms, access, self.ctx, piece, protected_only=True
                ):
                    seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
            if not only_read and self.state_files:
                self.check_state(forms, seg, piece, subtree=False)

    def redirect_target(
        self, redirect: Redirect, target: Word, seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        op = redirect.op
        if op in ("<<<", "<<", "<<-"):
            return
        value = target.value
        fd = redirect.fd if redirect.fd is not None else (1 if op == ">&" else None)
        if fd in (1, 2) and op == "<":
            # `1<.bashrc`: the descriptor programs write to holds a file read, and `>>
            # /dev/stdout` reopens it for writing (review BK7)
            self._swapped(seg, fd, target.text, always=True)
        elif fd in (1, 2) and _duplicates_other(op, value):
            # `>&3`, `2<&0`: the same, if the line opens `/dev/stdout` or `/dev/stderr` by
            # name anywhere (the swap idiom `3>&1 1>&2 2>&3` alone is harmless)
            self._swapped(seg, fd, target.text, always=False)
        # only `>&N`, `<&N`, `>&N-` and `>&-` duplicate, move or close a descriptor: `&>WORD`
        # and `&>>WORD` always write the file WORD (`echo x &>1` writes a file named `1`)
        if op in (">&", "<&") and value is not None and _is_fd_word(value):
            return
        writes = redirect.writes or op == ">&"
        access = "write" if writes else "read"
        if value is not None and is_harmless_device(value):
            if writes:
                self._device_write(value, seg)
            return
        if writes:
            seg.read_only = False
            if seg.writes is None:
                seg.writes = short(target.text)
        self.check_path_word(target, access, seg, cwd)
        if redirect.op == "<>":
            self.check_path_word(target, "read", seg, cwd)

    def _device_write(self, value: str, seg: SegmentState) -> None:
        """A write to a descriptor's name. Opening `/dev/stdin` or `/dev/fd/3` opens again
        whatever file that descriptor holds, for writing: `echo x < .bashrc >>
        /dev/stdin` appends to `.bashrc` (review BK7); `/dev/stdout` and `/dev/stderr`
        do so when the line pointed descriptor 1 or 2 at one (`_swapped`)."""
        if value in _STD_DEVICES:
            self._reopened(seg)
        elif _reopens_a_descriptor(value):
            seg.read_only = False
            seg.floor(
                Verdict.ASK,
                "engine.descriptor-write",
                f"writing to `{value}` writes whatever file that descriptor holds",
            )

    def _swapped(self, seg: SegmentState, fd: int, target: str, *, always: bool) -> None:
        """Descriptor 1 or 2 pointed at a file read or at another descriptor: a question
        when the line also writes to `/dev/stdout` or `/dev/stderr` by name, in any
        segment and in either order (review BM3: a check of the line's text was dodged
        by `/dev''/stdout`); `always` for a file read onto it, which nothing needs."""
        message = (
            f"descriptor {fd} is pointed at `{short(target)}`: a write to "
            f"`/dev/{'stdout' if fd == 1 else 'stderr'}` writes there"
        )
        self.std_swaps.append((seg, message))
        if always:
            _descriptor_swap(seg, message)
        if self.std_reopens:
            self._pair_descriptors()

    def _reopened(self, seg: SegmentState) -> None:
        """A write to `/dev/stdout`, `/dev/stderr`, `/dev/fd/1` or `/dev/fd/2` by name."""
        self.std_reopens.append(seg)
        if self.std_swaps:
            self._pair_descriptors()

    def _pair_descriptors(self) -> None:
        """Floor the swaps and reopenings not floored yet; each once, so that a line of
        thousands of `>&3` costs linear time (review BN6: 6 s for 4,000)."""
        message = self.std_swaps[0][1]
        for swapped, said in self.std_swaps[self.std_swaps_paired :]:
            _descriptor_swap(swapped, said)
        for reopening in self.std_reopens[self.std_reopens_paired :]:
            _descriptor_swap(reopening, message)
        self.std_swaps_paired = len(self.std_swaps)
        self.std_reopens_paired = len(self.std_reopens)

    def git_check(self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd) -> None:
        self.fs = True
        self.earlier_config_rewrite(seg)
        directories: list[str] = []
        for target in found.git_dirs or ():
            forms, complete = paths.resolve(target, cwd, self.ctx.home)
            if not complete or not forms:
                seg.floor(
                    Verdict.ASK, "engine.git-config", f"cannot tell which repository `{target}` is"
                )
                return
            # `git -C lnk/..` changes directory physically: every form may be the repository
            directories.extend(form for form in forms if form not in directories)
        if not found.git_dirs:
            directories.extend(sorted(cwd.candidates))
            if not cwd.known:
                seg.floor(
                    Verdict.ASK, "engine.git-config", "cannot tell which repository git runs in"
                )
        # the line may make or change a repository there: see `LineWrites` (review BV1)
        self.git_reads.append((seg, tuple(directories)))
        printer = _prints_git_config([w.value for w in found.inner])
        supplied = sorted(k for k in self.ctx.env if _GIT_CONFIG_ENV.fullmatch(k))
        remote_verb = is_git_remote_verb(_word_value(found.inner, 1))
        if (printer is not None or remote_verb) and supplied:
            # configuration the environment gives git, which the engine does not read
            seg.floor(
                Verdict.ASK,
                "engine.git-credentials",
                f"the environment gives git configuration (`{supplied[0]}`), which the "
                "engine does not read: it may hold a credential or a remote",
            )
        global_remotes: tuple[str, ...] = ()
        roots = (self.ctx.workspace, self.ctx.real_workspace or self.ctx.workspace)
        config = self.git.global_config(self.ctx.home, self.ctx.env, workspace=roots)
        verb = _word_value(found.inner, 1)
        for risk in config.risks:
            # (review DD5, DE7: the repository chooses what that setting runs or reads)
            placed = risk.file.startswith("/") and not self._in_workspace(risk.file)
            if placed and risk.key.lower() in _BLAME_KEYS and verb not in ("blame", "annotate"):
                continue  # (GitHub's advice, `.git-blame-ignore-revs`: read by blame only)
            if not placed and self._write_protected(risk.file.partition(", ")[0]):
                continue  # (a workspace of `/` or `~`: `~/.gitconfig` is no agent's to write)
            seg.read_only = False
            seg.floor(
                Verdict.ASK,
                "engine.git-config",
                f"git's global configuration sets `{risk.key}` ({short(risk.file, 100)}) "
                + (
                    f"to `{short(risk.detail)}`, a path in the work tree"
                    if placed
                    else "in a file of the workspace"
                )
                + ": the repository chooses what git runs or reads there",
            )
            break
        if printer is not None or remote_verb:
            global_remotes = config.remotes if remote_verb else ()
            if printer is not None and config.credentials:
                held = config.credentials[0]
                seg.floor(
                    Verdict.ASK,
                    "engine.git-credentials",
                    f"git's global configuration holds a credential (`{held.key}` "
                    f"in {held.file}), which `{printer}` prints",
                )
            elif not config.complete:
                seg.floor(
                    Verdict.ASK,
                    "engine.git-credentials" if printer is not None else "engine.git-remote",
                    "git's global configuration could not be read; "
                    + (
                        f"`{printer}` may print a credential from it"
                        if printer is not None
                        else "it may send git to another remote (`insteadOf`)"
                    ),
                )
        for directory in directories:
            inspection = self.git.inspect(directory, home=self.ctx.home)
            risks, complete = inspection.risks, inspection.complete
            if printer is not None and inspection.credentials:
                held = inspection.credentials[0]
                seg.floor(
                    Verdict.ASK,
                    "engine.git-credentials",
                    f"the repository's git config holds a credential (`{held.key}` in "
                    f"{held.file}), which `{printer}` prints",
                )
            subcommand = _word_value(found.inner, 1)
            if inspection.lazy_fetch and subcommand not in _GIT_WITHOUT_OBJECT_READS:
                lazy = inspection.lazy_fetch[0]
                seg.floor(
                    Verdict.ASK,
                    "engine.git-remote",
                    f"the repository is a partial clone (`{lazy.key}` in {lazy.file}): "
                    f"`git {subcommand or ''}` may fetch the objects it lacks from that remote "
                    "over the network",
                )
            if remote_verb:
                self.git_remotes(inspection.remotes, seg, directory, "the repository")
                owner = "git's global configuration"
                self.git_remotes(global_remotes, seg, directory, owner)
            for worktree, submodule in inspection.worktrees:
                # a submodule's is its checkout; any other was set by whoever wrote the
                # config, and makes a shipped index print files it names (review AA9)
                if not submodule or not self._in_workspace(worktree):
                    seg.floor(
                        Verdict.ASK,
                        "engine.git-worktree",
                        f"the repository's `core.worktree` is `{short(worktree)}`: git reads "
                        "and prints the files of that tree, as a shipped index names them",
                    )
            if any(_TRACKING_KEY.fullmatch(held.key) for held in inspection.credentials):
                seg.floor(
                    Verdict.ASK,
                    "engine.git-credentials",
                    "a branch's remote is a URL with a credential in the repository's git "
                    "config, which git prints in branch, ref and status output",
                )
            if not complete:
                seg.floor(
                    Verdict.ASK,
                    "engine.git-config",
                    f"the git config of `{directory}` could not be read; it may run programs",
                )
            for risk in risks:
                seg.read_only = False
                if risk.kind == "link":
                    # git follows it and prints the lines it cannot parse (review BK1)
                    message = (
                        f"the repository's `{risk.key}` ({short(risk.file, 100)}) is a symbolic "
                        f"link to `{short(risk.detail)}`: git follows it on its own and may "
                        "print the lines of that file"
                    )
                elif risk.kind == "outside":
                    message = (
                        f"the repository's `{risk.key}` ({short(risk.file, 100)}) names "
                        f"`{short(risk.detail)}`, outside the repository: git may read and "
                        "print what is stored there"
                    )
                else:
                    what = (
                        f" has the executable hook `{risk.key}` ({risk.file})"
                        if risk.kind == "hook"
                        else f"'s git config sets `{risk.key}` ({risk.file})"
                    )
                    message = f"the repository{what}, so git may run a program"
                seg.floor(Verdict.ASK, "engine.git-config", message)
        subcommand = _word_value(found.inner, 1)
        if subcommand in ("add", "stage"):  # (`stage` is git's other name: review CR2)
            for directory in directories:
                self.staged_secrets(found, seg, directory)
        if subcommand == "clean":
            for directory in directories:
                self.removed_untracked(found, seg, directory)
        if found.git_print is not None or subcommand in _GIT_OBJECT_PRINTERS:
            for directory in directories:
                self.unplaced_repository(directory, f"git {subcommand}", seg)
        if found.git_print is not None:
            for directory in directories:
                self.tracked_secrets(found.git_print, directory, seg, cwd)

    def tracked_secrets(
        self, printing: GitPrint, directory: str, seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """`git diff`, `git show REV`, `git log -p`, `git diff src`: git prints the contents
        of tracked files the command does not name, a committed `.env` among them.

        The index lists what the repository tracks; a tracked file under the command's
        path operands (all of the working tree without any) that a protected-path rule
        covers makes the command ask. Plain `git diff` prints only files that differ from
        the index, so there a protected file whose size and modification time are what the
        index recorded (and not as late as the index itself: git re-reads those) is left
        out. History is not read: a protected file removed from the index but present in an
        older commit is not found (`git log -p` may still print it).
        """
        scope, revisions = _git_scope(printing, directory)
        selections, complete = self.git.tracked(
            directory, self._protected_read, (self.ctx.home, self.ctx.workspace)
        )
        if not complete:
            seg.floor(
                Verdict.ASK,
                "engine.git-tracked",
                f"the index of the repository of `{directory}` could not be read; "
                f"`{printing.command}` may print a protected file",
            )
            return
        tops = [selection.top.rstrip("/") for selection in selections]
        if (
            printing.worktree
            and not revisions
            and len(scope) == 2
            and (not tops or any(not _below(path, tops) for path in scope))
        ):
            # `git diff A B` outside a repository, or with a path outside its working
            # tree, is `git diff --no-index A B`: both compared file by file, recursively
            for path in scope:
                self.check_path(path, "read", seg, cwd, subtree=True)
            return
        for selection in selections:
            for entry, rule in selection.files:
                path = f"{selection.top.rstrip('/')}/{entry.path}"
                if scope and not _below(path, scope):
                    continue
                if printing.worktree and not revisions and _unchanged(entry, path, selection):
                    continue
                seg.floor(
                    Verdict.ASK,
                    "engine.git-tracked",
                    f"the repository tracks `{entry.path}`, which {rule}, and "
                    f"`{printing.command}` may print its contents",
                )
                return

    def unplaced_repository(self, directory: str, command: str, seg: SegmentState) -> None:
        """A bare repository (`~/.dotfiles`), or a `.git` file pointing at a repository
        elsewhere: which files its revisions hold cannot be placed on the disk, so the
        protect rules cannot tell that `git grep . HEAD` prints its tracked
        `.aws/credentials` (review AE4)."""
        for gitdir, top in find_gitdirs(directory)[0]:
            if (
                top is None
                or (gitdir != f"{top.rstrip('/')}/.git" and not _LINKED_GITDIR.search(gitdir))
                or os.path.islink(gitdir)  # a `.git` link to a bare repository (review AG7)
            ):
                where = "has no working tree" if top is None else f"lives at `{short(gitdir)}`"
                seg.floor(
                    Verdict.ASK,
                    "engine.git-tracked",
                    f"the repository of `{short(directory)}` {where}, so the files "
                    f"`{command}` may print from it cannot be checked",
                )
                return

    def staged_secrets(self, found: SegmentRules, seg: SegmentState, directory: str) -> None:
        """`git add -A`, `git add .`: an untracked, not ignored file a protect rule covers
        would be staged, and go out with a routine commit and push (review AL9)."""
        for kind, path in self._untracked_protected(
            found, directory, gitstage.stage_plan, self._protected_read, "read"
        ):
            if kind in ("budget", "unseen"):
                self._floor_unseen(seg, "engine.git-stage", kind, path, "`git add` would stage")
            elif kind == "untracked":
                seg.floor(
                    Verdict.ASK,
                    "engine.git-stage",
                    f"`git add` would stage `{self._as_shown(path)}`, a file a protect "
                    f"rule covers ({self._protected_read(path)}) that git does not track or "
                    "surely ignore: it would go out with the next commit",
                )

    def removed_untracked(self, found: SegmentRules, seg: SegmentState, directory: str) -> None:
        """`git clean -f`, `git clean -fd src`: git removes the untracked files below its
        pathspecs (the folder it runs in without any) that it does not ignore, which no
        word names: a protected one (`CLAUDE.md`, `.mcp.json`, `.claude/settings.json`
        made here and never committed) asks, even under an approval of `git clean`
        (the approval oracle, run 2: H7)."""
        for kind, path in self._untracked_protected(
            found, directory, gitstage.clean_plan, self._protected_write, "write"
        ):
            if kind in ("budget", "unseen"):
                what = "`git clean` would remove"
                self._floor_unseen(seg, "engine.git-clean", kind, path, what)
            elif kind == "untracked":
                seg.floor(
                    Verdict.ASK,
                    "engine.git-clean",
                    f"`git clean` would remove `{self._as_shown(path)}`, which "
                    f"{self._protected_write(path)} protects and git does not track or "
                    "surely ignore",
                )
            else:
                # git keeps what it tracks or ignores, unless another segment untracks it
                # or rewrites the ignore files first (reviews CP5, CR4)
                self.clean_kept.append((seg, path))

    def _floor_unseen(
        self, seg: SegmentState, rule_id: str, kind: str, path: str, what: str
    ) -> None:
        """Ask where `git add` or `git clean` could not be followed: a tree too large to
        walk (`budget`), or a repository not fully found (`unseen`)."""
        cause = (
            f"too many files below `{short(path)}`"
            if kind == "budget"
            else f"the repository of `{short(path)}` could not be fully found"
        )
        seg.floor(Verdict.ASK, rule_id, f"{cause} to tell whether {what} a protected file")

    def _untracked_protected(
        self,
        found: SegmentRules,
        directory: str,
        plan_of: Callable[[Sequence[str | None], str, str], gitstage.StagePlan | None],
        protected: Callable[[str], str | None],
        access: str,
    ) -> list[tuple[str, str]]:
        """What `git add` or `git clean` (the plan `plan_of` reads from its words) does
        to the protected files below its pathspecs, for each work tree git may use for
        `directory` (review CP6: a `.git` git rejects is no top): `("untracked", path)`
        for the first one git neither tracks nor surely ignores, `("tracked", path)` for
        each one it tracks, `("ignored", path)` for each one, or folder, it surely ignores,
        `("budget", root)` for a tree too large to look at, or `("unseen", directory)` where
        the work trees git may use could not all be found."""
        found_dirs, complete = find_gitdirs(directory)
        if not complete:  # (a level that could not be read: the top is not known)
            return [("unseen", directory)]
        tops = list(dict.fromkeys(top for _gitdir, top in found_dirs if top is not None))
        words = [w.value for w in found.inner[2:]]
        # git's global ignore file (where Claude Code lists `settings.local.json`)
        excludes = self.git.global_excludes(directory, self.ctx.home, self.ctx.env)
        result: list[tuple[str, str]] = []
        tracked: set[str] | None = None
        readable = True
        for top in tops:
            plan = plan_of(words, directory, top)
            if plan is None:
                continue
            skipped: list[str] = []
            candidates, complete = gitstage.protected_files(
                plan.roots,
                lambda path: protected(path) is not None,
                _STAGE_BUDGET,
                # (git neither cleans nor stages inside a folder it ignores: review CP8)
                None if plan.force else functools.partial(_ignored_folder, top, excludes, skipped),
            )
            result.extend(("ignored", folder) for folder in skipped)
            if not complete:
                return [("budget", plan.roots[0])]
            if candidates and tracked is None:
                selections, readable = self.git.tracked(
                    directory, protected, (access, self.ctx.home, self.ctx.workspace)
                )
                tracked = {
                    f"{selection.top.rstrip('/')}/{entry.path}"
                    for selection in selections
                    for entry, _kept in selection.files
                }
            for path in candidates:
                if readable and tracked is not None and path in tracked:
                    result.append(("tracked", path))
                elif not plan.force and gitstage.surely_ignored(path, top, excludes=excludes):
                    result.append(("ignored", path))
                else:
                    return [*result, ("untracked", path)]
        return result

    def _as_shown(self, path: str) -> str:
        """`path` as the approver reads it best: relative to the workspace when inside it
        (a long absolute path, shortened, lost the file's name)."""
        if paths.is_within(path, self.ctx.workspace) and path != self.ctx.workspace:
            return short(os.path.relpath(path, self.ctx.workspace), 100)
        return short(path, 100)

    def environment_secrets_below(
        self, forms: Sequence[str], access: str, seg: SegmentState, shown: str
    ) -> None:
        """A recursive read or write of a folder that holds a credential file the
        environment moved there (`grep -r x ~/clusters` with `KUBECONFIG` below it: review
        DR5), as the protect rules' folders are reached."""
        for form in forms:
            for place, variable in self.ctx.env_secrets:
                if place.startswith(form.rstrip("/") + "/"):
                    seg.floor(
                        Verdict.DENY,
                        "engine.environment-secret",
                        f"{access}s `{short(shown)}` recursively, reaching `{short(place)}`, "
                        f"a credential file the environment names (`{variable}`)",
                    )
                    return

    def _protected_read(self, path: str) -> str | None:
        return self.rules.protection(path, self.ctx)

    def _protected_write(self, path: str) -> str | None:
        """The id of the protect rule that covers writing (removing) `path`, or None."""
        found = self.rules.path_verdicts((path,), "write", self.ctx, path, protected_only=True)
        return f"`{found[0].rule_id}`" if found else None


# entries `git add -A` walks before it asks rather than look further
_STAGE_BUDGET = 20_000
# subcommands that print what objects hold, blobs by path (`git show HEAD:x`) included
_GIT_OBJECT_PRINTERS = frozenset({"show", "cat-file", "grep"})
# git verbs that read refs, the index or commits only: a partial clone (which always holds
# its commits and the blobs of its checkout) does not fetch for them
_GIT_WITHOUT_OBJECT_READS = frozenset(
    # not `rev-parse`, `ls-files`, `describe`, `shortlog`, `reflog`: `REV:FILE`,
    # `--with-tree=REV`, `-p` and pathspecs read trees and blobs (review AP2)
    {"status", "branch", "remote", "config", "tag", "symbolic-ref", "show-ref", "for-each-ref",
     "var", "version", "help", "check-ignore", "worktree"}
)  # fmt: skip
# the git directory of a linked work tree or of a submodule (`.git` files point there)
_LINKED_GITDIR = re.compile(r"/\.git/(?:worktrees|modules)/")


def _git_scope(printing: GitPrint, directory: str) -> tuple[list[str], bool]:
    """The absolute paths a content-printing git command is limited to ([]: none, so the
    whole working tree), and whether it
    names a revision. git takes an operand before `--` for a path when it exists, and for
    a revision otherwise; with no path at all it prints from the whole working tree."""
    base = directory.rstrip("/")
    scope: list[str] = []
    revisions = False
    wide = printing.whole  # `--full-diff`: the pathspecs only choose the commits
    for word in printing.ambiguous:
        value = word.value or ""
        path = os.path.normpath(value if value.startswith("/") else f"{base}/{value}")
        if value and wide_git_pathspec(value):
            wide = True  # git takes a glob or magic for a pathspec, whatever exists
            # and first tries it as a revision: `:/init` is a commit by its message,
            # `HEAD^{/\\init}` one by a pattern (review BS3)
            revisions = True
        elif value and os.path.lexists(path):
            scope.append(path)
        else:
            revisions = True
            # `git diff ID README.md` prints the blob ID names whole (review BP3)
            wide = wide or may_name_blob(value)
    for word in printing.paths:
        value = word.value or ""
        wide = wide or wide_git_pathspec(value)
        scope.append(os.path.normpath(value if value.startswith("/") else f"{base}/{value}"))
    return ([] if wide else scope), revisions  # no scope: the whole working tree


_ROOT = paths.Cwd(candidates=frozenset({"/"}))  # for absolute paths, whose base is moot


def _repository_top(directory: str) -> str | None:
    """The top folder of the work tree `directory` lies in: the nearest with a `.git`."""
    current = os.path.normpath(directory)
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _below(path: str, roots: Sequence[str]) -> bool:
    """Whether `path` is one of `roots` or inside one (all absolute, normalised)."""
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _unchanged(entry: TrackedFile, path: str, selection: TrackedSelection[str]) -> bool:
    """Whether git would take the working tree's file for the staged one without reading
    it: same size and modification time, staged before the index was last written."""
    try:
        st = os.lstat(path)
    except OSError:
        return False  # deleted: `git diff` prints the staged contents as removed lines
    return (
        st.st_size == entry.size
        and st.st_mtime_ns == entry.mtime_ns
        and entry.mtime_ns < selection.index_mtime_ns
    )


_FD_WORD = re.compile(r"[0-9]+-?|-")
# the calling process's own descriptors, by their exact names only: `/dev/fd/1/../..` is a
# path through /proc/self like any other (`/dev/fd` links to `/proc/self/fd`)
_FD_DEVICE = re.compile(r"/dev/fd/[0-9]+")


def _is_fd_word(value: str) -> bool:
    """`N`, `N-` or `-` after `>&`/`<&`: a descriptor to duplicate, move or close."""
    return _FD_WORD.fullmatch(value) is not None


# `$HOME`, `"${HOME}"/.ssh`, `"$HOME/.aws"`: the home parameter, then plain path text
# `$HOME`, `${HOME}`, `${HOME%/}`, `${HOME%%/}`, `${HOME:?}`, `${HOME:?msg}`, `${HOME:-}`
_PARAMETER_PATH = re.compile(
    r"\$(?:(HOME|PWD)|\{(HOME|PWD)(?:%%?/|:[?-][A-Za-z0-9_. -]*)?\})((?:/[A-Za-z0-9_.@%+=:,-]*)*)"
)
_PARAMETER_GLOB = re.compile(
    r"\$(?:(HOME)|\{(HOME)(?:%%?/|:[?-][A-Za-z0-9_. -]*)?\})((?:/[A-Za-z0-9_.@%+=:,*?\[\]-]*)*)"
)


def _parameter_path(text: str) -> tuple[str, str] | None:
    """`(NAME, REST)` of a word made of `$HOME` or `$PWD` and plain path text. Quotes are
    removed first (`"$HOME"/.ssh`, `$HOME''`: review BM5); a word with a backslash or an
    unbalanced quote is not of this form."""
    if "\\" in text or text.count('"') % 2 or text.count("'") % 2:
        return None
    match = _PARAMETER_PATH.fullmatch(text.replace('"', "").replace("'", ""))
    if match is None:
        return None
    return match.group(1) or match.group(2), match.group(3)


def home_parameter_glob(text: str, home: str) -> str | None:
    """The glob a word made of `$HOME` and unquoted path text with glob characters names
    (`$HOME/.ssh/*`), with the context's home folder; None for any other word."""
    if "\\" in text or text.count('"') % 2 or text.count("'") % 2:
        return None
    match = _PARAMETER_GLOB.fullmatch(_QUOTES_AROUND_NAME.sub(r"\1", text))
    if match is None or not home.startswith("/") or _BLANKS.search(home) or "*" in home:
        return None
    return home.rstrip("/") + match.group(3)


# `"$HOME"/.ssh/*`, `"${HOME}"/x*`: quotes around the parameter only (a quoted glob
# character is no glob, so quotes elsewhere leave the word alone)
_QUOTES_AROUND_NAME = re.compile(r'"(\$HOME|\$\{HOME\})"')


def _may_glob(word: Word) -> bool:
    """Whether bash may expand `word` as a glob: the analyser saw one, or a `$HOME` word has
    an unquoted glob character (the analyser records the parameter only)."""
    if any(e.kind is _GLOB for e in word.expansions):
        return True
    return (
        word.value is None
        and "$" in word.text
        and any(ch in _UNQUOTED.sub("", word.text) for ch in "*?[")
    )


_UNQUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")  # (removes the quoted parts of a word)


def home_parameter_path(text: str, home: str) -> str | None:
    """The path a word made of `$HOME` and plain path text names, with the context's home
    folder for `$HOME` (None for any other word, or a home bash would split or glob)."""
    found = _parameter_path(text)
    if found is None or found[0] != "HOME":
        return None
    if not home.startswith("/") or _BLANKS.search(home) or "*" in home:
        return None
    rest = found[1]
    return home.rstrip("/") + rest if rest else home


def working_folder_path(word: Word) -> str | None:
    """The relative path a word names through the working folder: `~+/x`, `$PWD/x`,
    `"${PWD}"` (bash's `~+` is `$PWD`). The working folder is the segment's, unless the
    line changed `PWD`: the question the word's expansion raises stays, so this reading
    only adds a check (review BP7: `rm -rf ~+/.git` asked where `rm -rf ./.git` is
    denied)."""
    value = paths.path_text(word)
    if value is not None and (value == "~+" or value.startswith("~+/")):
        return "." + value[2:]
    found = _parameter_path(word.text) if word.value is None else None
    if found is None or found[0] != "PWD":
        return None
    return "." + found[1]


def _expanded_apart(word: Word) -> bool:
    """A word whose only expansion is braces the engine expands, into a line of its own
    that checks each path exactly (`diff /tmp/a-{1,2}.log`): its folder is not read whole
    in its place."""
    return (
        bool(word.expansions)
        and all(e.kind is ExpansionKind.BRACE for e in word.expansions)
        and expand_braces(word.text) is not None
    )


_GLOB = ExpansionKind.GLOB
_STD_DEVICES = frozenset({"/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2"})


def _descriptor_swap(seg: SegmentState, message: str) -> None:
    seg.read_only = False
    seg.floor(Verdict.ASK, "engine.descriptor-swap", message)


def _reopens_a_descriptor(value: str) -> bool:
    """`/dev/stdin` and `/dev/fd/N` but 1 and 2: descriptors no redirect writes to
    unless the line made it so (those of 1 and 2 are checked where they are redirected)."""
    if value == "/dev/stdin":
        return True
    return _FD_DEVICE.fullmatch(value) is not None and value not in ("/dev/fd/1", "/dev/fd/2")


def _duplicates_other(op: str, value: str | None) -> bool:
    """`>&3`, `<&0`, `>&$fd` onto 1 or 2: a descriptor but each other (`2>&1`, `1>&2`) or
    closing (`>&-`) may hold a file opened for reading. (`>& FILE` writes FILE.)"""
    if op not in (">&", "<&"):
        return False
    if value is None:
        return True
    return _is_fd_word(value) and value not in ("1", "2", "-", "1-", "2-")


def is_harmless_device(value: str) -> bool:
    """`/dev/null`, `/dev/stdout`, … and `/dev/fd/N`, spelt exactly."""
    return value in _HARMLESS_DEVICES or _FD_DEVICE.fullmatch(value) is not None


_BLANKS = re.compile(r"[ \t\n]")  # bash's default IFS
_GLOB_CAP = 256  # files a glob may match before the engine stops checking them one by one
_GLOB_VISITS = 20_000  # directory entries a glob may read to find its matches (review H4)


def _glob_unchecked(pattern: str, seg: SegmentState) -> None:
    """The question for a glob the line's budget left unchecked (review AW6)."""
    seg.floor(
        Verdict.ASK,
        "engine.glob-path",
        f"the glob `{short(pattern)}` is not checked: the line's globs have read "
        f"{LINE_GLOB_VISITS:,} directory entries already",
    )


LINE_GLOB_VISITS = 60_000  # and all the globs of one line together (review AW6)
GLOB_FLOOR = 2_000  # what a glob may still read once the line's budget is spent (BA6) …
GLOBS_PAST_BUDGET = 32  # … for this many globs of the line
TREE_BUDGET = 20_000  # entries a recursive read's tree may have before the engine asks
TREES_PER_LINE = 8  # distinct trees a line may read recursively before the engine asks
TREE_LINKS = 64  # links a link-following listing may meet before the engine asks

# marks a re-checked loop value as a possible glob (path_text takes its text)
_GLOB_MARK = (Expansion(kind=ExpansionKind.GLOB, text="", span=Span(0, 0)),)


def _is_process_substitution(word: Word) -> bool:
    return (
        bool(word.expansions)
        and all(exp.kind is ExpansionKind.PROCESS_SUBSTITUTION for exp in word.expansions)
        and word.text.startswith(("<(", ">("))
    )


def _glob_directory(pattern: str) -> str:
    """The literal directory a glob lies in: `/*` → `/`, `~/x/*.py` → `~/x`."""
    parts = pattern.split("/")
    literal: list[str] = []
    for part in parts:
        if any(ch in part for ch in "*?[{"):
            break
        literal.append(part)
    joined = "/".join(literal)
    return joined or ("/" if pattern.startswith("/") else ".")


def _glob_may_reach_hidden(pattern: str) -> bool:
    """Whether a glob may match a name the literal text does not show.

    A glob char in a directory component, a leading-dot or bracket final component, or
    braces can reach files the text does not spell out. A word that is a tilde path and
    no pattern (`~/.gitconfig`) names one file, which is checked as a path.
    """
    if not any(ch in pattern for ch in "*?[{"):
        return False
    head, _, last = pattern.rpartition("/")
    if any(ch in head for ch in "*?[{"):
        return True
    return last.startswith((".", "[", "?", "{")) or "{" in last
