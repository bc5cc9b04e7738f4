"""Engine stage: what the compiled policy says about one segment; imports shell and compiler.

`RuleView` is the engine's one window on the compiled policy and the shell analyser: it
parses, unwraps wrappers, looks rules up, reads the path-argument roles and turns every
table hit into `Reason`s. `evaluate` combines what it returns; nothing here decides a
line's verdict.
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import ipaddress
import itertools
import os
import re
import socket
import stat
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from glob import glob as matching_files
from typing import Final

from policylang._frozen import picklable
from policylang.compiler.checks import harmless_git_setting
from policylang.compiler.paths import ABSOLUTE, HOME, WORKSPACE, LazyRegex, prefilter
from policylang.compiler.tables import scope_operand_ends
from policylang.compiler.tree import (
    Access,
    CompiledPolicy,
    CompiledRule,
    EnvMatch,
    ExpansionAction,
    ExpansionPosition,
    InterpreterSpec,
    OperandRole,
    PathRoles,
    ProtectedMatch,
    RuleMatch,
    RuleRef,
    RuleTree,
)
from policylang.decision import Reason, Verdict
from policylang.engine import _objects, containers, gitstage, paths, subtree
from policylang.engine._rgtypes import RG_TYPES
from policylang.engine.approvals import EXACT_END, is_exact
from policylang.engine.context import EvalContext
from policylang.engine.envpoison import LOCALE_NAMES, locale_charset_risk
from policylang.engine.gitconfig import gitfile_target, is_git_directory
from policylang.engine.gitstage import long_option
from policylang.engine.launchers import PNPM_COMMANDS, PNPM_FLAGS, PNPM_NPM_COMMANDS, YARN_COMMANDS
from policylang.engine.paths import is_within as paths_within
from policylang.engine.paths import path_text
from policylang.shell.model import (
    CommandLine,
    Expansion,
    ExpansionKind,
    Limits,
    Segment,
    Unwrapped,
    Word,
)
from policylang.shell.options import (
    DEFAULT_OPTION_SPECS,
    Option,
    OptionSpec,
    OptionView,
    option_view,
)
from policylang.shell.parse import parse_command
from policylang.shell.wrappers import BASH_SINGLE_DASH_LONG, DEFAULT_WRAPPERS, gnu_base
from policylang.span import Span

# Reader commands that read the working directory when given no operand.
_IMPLICIT_CWD = frozenset(
    {"ls", "find", "rg", "ag", "ack", "du", "tree", "fd", "fdfind", "dir", "vdir", "eza", "exa"}
)
_RECURSIVE = ("-r", "-R", "--recursive")
# `tree` lists every name below its operands (hidden ones with `-a`), as `ls -R` does
# (review BI5: `tree ~/.config` listed `~/.config/gcloud`'s files where `ls -R` is denied),
# and so does fd (review BP4: `fd . ~/.config`, and `fd -L . sub` through a link)
_ALWAYS_RECURSIVE = frozenset({"rg", "ag", "ack", "tree", "fd", "fdfind"})
# listers that walk a whole tree, hidden names included, under these options
_HIDDEN_LISTERS: Final = {
    "du": ("-a", "--all"),
    **dict.fromkeys(("fd", "fdfind"), ("-H", "--hidden", "-u", "--unrestricted")),
}
def _du_lists_below(view: OptionView) -> bool:
    """Whether `du` prints the names of folders below the children of its operands: it
    prints every folder of the tree (`du ~` printed `~/.password-store/bank.example.com`,
    as `tree -d ~` would: review BS8), unless `-s` or a depth of at most 1 stops it."""
    if view.has("-s", "--summarize"):
        return False
    depths = (*view.values("-d"), *view.values("--max-depth"))
    if not depths:
        return True
    last = depths[-1]  # (du takes the last one given)
    return last is None or not last.isdigit() or int(last) > 1


# commands whose first operand is a pattern (`grep -r key` reads `.`), and the options
# that give the pattern instead
_GREP_PATTERN = ("-e", "--regexp", "-f", "--file")
_PATTERN_OPTIONS = {
    **dict.fromkeys(("grep", "egrep", "fgrep", "zgrep", "rgrep", "rg"), _GREP_PATTERN),
    # ag's `-f` is --follow; ack's `--match` takes a value the engine has no spec for: for
    # both, one operand is always taken for the pattern (at worst the tree is checked)
    "ag": ("-g", "--filename-pattern"),  # `ag -g x DIR` lists the names in DIR (BI5)
    "ack": (),
    # fd's first operand is always its pattern; the others are folders it lists (BH9)
    "fd": (),
    "fdfind": (),
}
_SEARCHERS = frozenset(_PATTERN_OPTIONS)
# awk's first operand is its program, unless a program file or `--source` text was given
_PATTERN_OPTIONS.update(
    dict.fromkeys(
        ("awk", "gawk", "mawk", "nawk"), ("-f", "--file", "-E", "--exec", "-e", "--source")
    )
)
# jq's first operand is its program (`jq .env.url x.json` reads x.json), unless `-f` reads
# the program from a file; a value-taking option before it only moves the program later,
# where it is checked as a path too (the strict side)
_JQ_FAMILY = ("jq", "xq", "tomlq", "yq")
_PATTERN_OPTIONS.update(dict.fromkeys(_JQ_FAMILY, ("-f", "--from-file")))


_ZONE_FOLDER: Final = "/usr/share/zoneinfo"  # where glibc looks up a relative `TZ` name


def time_zone_path(value: str | None) -> str | None:
    """The file a `TZ` value names, if it names one: `/path` or `:path`, and a relative
    name below the zone folder, which `..` can leave (review BK11).

    >>> [time_zone_path(v) for v in ("UTC", "Europe/Paris", ":/etc/x", "../../../etc/x")]
    [None, '/usr/share/zoneinfo/Europe/Paris', '/etc/x', '/etc/x']
    """
    if value is None or "/" not in value:
        return None
    name = value[1:] if value.startswith(":") else value
    return name if name.startswith("/") else os.path.normpath(f"{_ZONE_FOLDER}/{name}")


def time_zone_word(value: Word) -> Word | None:
    """The path word a `TZ` value names, literal or not: `TZ=:~/x` and `TZ=$HOME/x`
    expand to a file's name (review BM9), which the path checks then read (a tilde or
    `$HOME` word they resolve, anything else not literal they ask about)."""
    if value.value is not None:
        zone = time_zone_path(value.value)
        return None if zone is None else _value_word(value, zone)
    text = value.text[1:] if value.text.startswith(":") else value.text
    if text.startswith("~"):
        return _tilde_word(text, value.span)
    # `TZ=$ZONE` may be a zone's name or a file's: not seen, so checked as a path (asks)
    return Word(text=text, value=None, expansions=value.expansions, span=value.span)


def _jq_program_like(value: str | None) -> bool:
    """A word jq reads as its program though it starts with `-` (`-0,.`, `-1`): jq takes
    only `-LETTER…` and `--NAME` for options, so the option view and jq disagree on it."""
    if value is None:
        return True
    return value.startswith("-") and len(value) > 1 and not (value[1].isalpha() or value[1] == "-")


_SEVEN_ZIP = frozenset({"7z", "7za", "7zr", "7zz", "7zzs"})
# tar's modes that read the files they are given into an archive
_TAR_CREATE = ("-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate")
_GREP_RECURSIVE = ("-r", "-R", "--recursive", "--dereference-recursive")
# option values that stand for operands (read as deeply as the operands are)
_RECURSIVE_OPERAND_OPTIONS = frozenset({"--from-file", "--to-file"})
_ARCHIVE = ("-a", "--archive")  # cp and rsync: recursive
_CONDITIONAL_WRITERS = frozenset({"sed", "gsed", "perl", "git"})
# network clients that send files named inside option values or operands (`curl -d @FILE`,
# `curl file:///…`, httpie's `field@FILE`), which a role table cannot express
_FILE_SENDERS = frozenset(
    {"curl", "wget", "http", "https", "xh", "xhs", "docker", "podman", "nerdctl", "finch",
     "buildah"}
)  # fmt: skip
# compressors write a file named after each operand: `gzip -d CLAUDE.md.gz` writes
# `CLAUDE.md`, `gzip x` writes `x.gz` (review T6); the suffix each adds or strips
# (the suffix each adds; `_UNPACKED` lists what any of them strips)
_COMPRESSORS: dict[str, str] = {
    "gzip": ".gz", "pigz": ".gz", "xz": ".xz", "lzma": ".lzma", "zstd": ".zst",
    "bzip2": ".bz2", "lz4": ".lz4", "brotli": ".br", "lzip": ".lz", "lzop": ".lzo",
    "compress": ".Z",
    # zstd's multithreaded and parallel names, lz4's legacy one (review CC5)
    "zstdmt": ".zst", "pzstd": ".zst", "lz4c": ".lz4",
}  # fmt: skip
_DECOMPRESSORS = {
    "gunzip": "gzip", "unpigz": "pigz", "unxz": "xz", "unlzma": "lzma", "unzstd": "zstd",
    "bunzip2": "bzip2", "unlz4": "lz4", "uncompress": "compress", "lunzip": "lzip",
    "zcat": "gzip", "bzcat": "bzip2", "xzcat": "xz", "lzcat": "lzma", "zstdcat": "zstd",
    "lz4cat": "lz4", "gzcat": "gzip",  # (macOS's name for zcat: review CD8)
}  # fmt: skip
# decompressors that always write to stdout: `zcat -rf .` prints every file below, as
# `gunzip -rcf .` does (review CC5: `zcat -rf . | grep TOKEN` printed `.env`)
_CATS = frozenset({"zcat", "gzcat", "bzcat", "xzcat", "lzcat", "zstdcat", "lz4cat"})
# commands that print or copy the contents of whole trees when recursive (`less -R` and
# `sort -R` are not recursive at all; `ls -R`, `du`, `find` list names)
_CONTENT_READERS = frozenset(
    {"grep", "egrep", "fgrep", "zgrep", "rgrep", "rg", "ag", "ack", "cp", "scp", "rsync", "zip",
     "diff",
     "sdiff", "7z", "7za", "7zr", "7zz", "tar", "gtar", "bsdtar"}
) | frozenset(_COMPRESSORS) | frozenset(_DECOMPRESSORS)  # fmt: skip
# Every suffix a decompressor strips, whatever the program: zstd and xz read other
# formats too, and gzip compares suffixes without case (`X.GZ`, `X_z`: review U7). The
# value is what replaces it (`a.tgz` -> `a.tar`).
_UNPACKED = {
    ".gz": "", ".z": "", "-gz": "", "_z": "", "-z": "", ".zz": "", ".xz": "", ".lzma": "",
    ".zst": "", ".bz2": "", ".bz": "", ".lz4": "", ".br": "", ".lz": "", ".lzo": "",
    ".tgz": ".tar", ".taz": ".tar", ".txz": ".tar", ".tlz": ".tar", ".tzst": ".tar",
    ".tbz2": ".tar", ".tbz": ".tar", ".zip": "", "-zz": "",
}  # fmt: skip
_TO_STDOUT = ("-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list")
# cloud CLIs that read a file named inside any value: aws `file://PATH` and `fileb://PATH`
# (its parse errors print the file; review W1), az `@PATH`
_CLOUD_FILE_READERS = frozenset({"aws", "az"})
_AWS_FILE = re.compile(r"fileb?://([^,\s]*)", re.IGNORECASE)
_EMPTY_VIEW = OptionView(options=(), operands=())
_PLAIN_SPEC = OptionSpec()
_GIT_BLOB_READERS = frozenset({"show", "cat-file"})
# subcommands that print the contents of the files their pathspecs name (`git diff -- .env`
# prints the working tree's .env); `log` and kin only with a patch option
_GIT_CONTENT_PRINTERS = frozenset({"show", "diff", "blame", "annotate"})
_GIT_PATCH_PRINTERS = frozenset({"log", "whatchanged", "diff-tree", "diff-files", "diff-index"})
# options that print patches (by prefix: `--unified=0`, `-U1` read as `-U -1`); git 2.39
# prints one for each of these, after `--stat`, `-s` or `--no-patch` too (review BC4)
_GIT_PATCH_OPTIONS = (
    "-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--cc", "-L", "-U",
    "--unified", "--binary", "-c", "--combined-all-paths", "--remerge-diff", "--diff-merges",
    "-m", "--dd", "-W", "--function-context", "--word-diff", "--color-words",
    # prints the lines with whitespace errors (review BP8: `git log --check`)
    "--check",
)  # fmt: skip
# options that search the contents of every version of the files (`git log -G RE`,
# `-S TEXT`): which commits they print answers a question about a committed `.env`, a
# character at a time (review BO2), so they count as printing contents
_GIT_PICKAXE = ("-S", "-G", "--find-object", "--pickaxe-regex", "--pickaxe-all")
# files some subcommands read into the repository or apply (review P: an approved `git
# commit` must not commit `-F ~/.ssh/id_rsa`), and where `clone` writes
_GIT_FILE_OPTIONS = {
    "commit": ("-F", "--file", "-t", "--template"),
    "tag": ("-F", "--file"),
    "merge": ("-F", "--file"),
    "notes": ("-F", "--file"),
    # read as ignore patterns; not echoed, but a protected file is not for git to open
    # on an allowed read either (review AN5)
    "ls-files": ("-X", "--exclude-from"),
}
_GIT_MESSAGE_OPTIONS = ("-m", "--message")
_GIT_FILE_SPECS = {
    sub: OptionSpec(
        # `git ls-files -m` lists modified files: a flag there, not a message
        takes_value=frozenset((*names, *(_GIT_MESSAGE_OPTIONS if sub != "ls-files" else ())))
    )
    for sub, names in _GIT_FILE_OPTIONS.items()
}
_GIT_PATCH_APPLIERS = frozenset({"apply", "am"})
_GIT_CLONE_SPEC = OptionSpec(
    takes_value=frozenset(
        {
            "-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference",
            "--reference-if-able", "--separate-git-dir", "--depth", "--shallow-since",
            "--shallow-exclude", "-c", "--config", "--template", "-j", "--jobs", "--filter",
            "--server-option", "--bundle-uri", "--ref-format",
        }
    )
)
_GIT_PATH_SUBCOMMANDS = (
    _GIT_BLOB_READERS
    | _GIT_CONTENT_PRINTERS
    | _GIT_PATCH_PRINTERS
    | frozenset(_GIT_FILE_OPTIONS)
    | _GIT_PATCH_APPLIERS
    | {"clone"}
)
_MATCH_CACHE_SIZE = 4096
_TREE_REASONS = 3  # protected files named per recursive read (one is enough to decide)
_MAX_TREE_PICKS = 16  # listings whose `_tree_picks` a rule view keeps
_WHITELIST_ROUNDS = 4  # scans of a tree for the ignore files of admitted hidden folders


def _same_file(one: str, other: str) -> bool:
    """Whether two names are one file (device and inode); True where either cannot be
    looked at (review FY4: the caller then judges the name as the protected one)."""
    try:
        first, second = os.lstat(one), os.lstat(other)
    except (OSError, ValueError):
        return True
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


# inode number → the names of protected files on it (review GJ6)
_InodeMap = dict[int, tuple[str, ...]]
_INODE_BUDGET: Final = 20_000  # entries a home place or a git directory may have
# entries the workspace may have: its listing is kept and checked by its folders' stamps
# (some 2 ms at 20,000 entries, 10-20 ms at 100,000; listed afresh 40 and 250 ms), and
# is looked at only for a file with more than one name (review AX3)
_WORKSPACE_INODE_BUDGET: Final = 100_000
# folders the workspace's protected inodes are not looked for in: what git and package
# installers wrote there (pnpm's and uv's hard links among them), which would make most
# workspaces too large to list (review GJ6)
_INSTALLED_FOLDERS: Final = frozenset(
    {".git", "node_modules", "site-packages", "dist-packages", "__pycache__",
     ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)  # fmt: skip


def _add_inodes(found: _InodeMap, scan: subtree.TreeScan, picked: set[str]) -> None:
    """Adds the inode numbers of the names of `scan` among `picked`: the first name met
    of each inode (`scan.inodes`), and its other names (`scan.shared`)."""
    groups = {group[0][0]: group for group in scan.shared}
    for number, first in (scan.inodes or {}).items():
        for path, _listed in groups.get(first[0], (first,)):
            if path in picked:
                found[number] = (*found.get(number, ()), path)


# devices a home place that could not be listed whole lies on, each with the place: a
# file there may be another name of a file on that device only, as a hard link never
# crosses devices (review GU5); `_ANY_DEVICE`: which devices is not known
_Blind = dict[int, str]
_ANY_DEVICE: Final = -1


def _place_inodes(place: str, found: _InodeMap, blind: _Blind) -> None:
    """Adds to `found` the inode numbers of a protected home place: the file, or each file
    below the folder (`RuleView._home_inodes` keeps what was found); to `blind`, where
    the folder cannot be listed whole, the devices its files may lie on."""
    try:
        info = os.stat(place)
    except (FileNotFoundError, NotADirectoryError):
        return
    except (OSError, ValueError):
        blind[_ANY_DEVICE] = place
        return
    if stat.S_ISREG(info.st_mode):
        found[info.st_ino] = (*found.get(info.st_ino, ()), place)
    elif stat.S_ISDIR(info.st_mode):
        scan = subtree.scan_names(place, hidden=True, budget=_INODE_BUDGET, keep=False)
        if not scan.complete or scan.blind:
            _blind_devices(place, info.st_dev, blind)
            return
        _add_inodes(found, scan, set(scan.entries))


def _blind_devices(place: str, device: int, blind: _Blind) -> None:
    """Adds to `blind` the devices the files of folder `place` (on `device`), which could
    not be listed whole (a browser profile's caches: review GU5), may lie on: its own,
    and those of the file systems mounted below it; any, where the mounts are not known."""
    blind[device] = place
    mounts = _mount_points()
    if mounts is None:
        blind[_ANY_DEVICE] = place
        return
    real = os.path.realpath(place)
    for mount in mounts:
        if paths_within(mount, real) and mount != real:
            try:
                blind[os.stat(mount).st_dev] = place
            except (OSError, ValueError):
                blind[_ANY_DEVICE] = place


def _mount_points() -> list[str] | None:
    """The mount points of this process's view (`/proc/self/mountinfo`'s fifth field,
    its octal escapes undone); None where it cannot be read (not Linux)."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except (OSError, ValueError):
        return None
    found: list[str] = []
    for line in lines:
        fields = line.split(" ")
        if len(fields) > 4:
            found.append(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), fields[4]))
    return found


def _blind_place(blind: Mapping[int, str], device: int) -> str | None:
    """The home place that could not be listed whole whose files may lie on `device`."""
    return blind.get(device) or blind.get(_ANY_DEVICE)


def _unknown_hard_link(
    path: str, names: int, shown: str, place: str | None = None, verb: str = "reads"
) -> Reason:
    """The question for reading (`verb`: or writing, review AX1) a file with `names`
    names where the protected files' inodes cannot all be known (review GJ6): `place`
    names the folder that could not be listed, where known (review GU5)."""
    where = f"`{place}` has too many entries, or a folder that cannot be read" if place else (
        "too many entries, or a folder that cannot be read"
    )
    return Reason(
        rule_id="engine.hard-links",
        message=f"{verb} `{shown}`: `{path}` is a hard link (one of {names} names of one "
        f"file), and the protected files it may be another name of could not all be listed "
        f"({where})",
        verdict=Verdict.ASK,
    )


def _unknown_hard_links(
    scan: subtree.TreeScan,
    numbers: Mapping[int, tuple[str, bool]],
    shown: str,
    only: frozenset[str] | None,
    blind: Mapping[int, str] | None = None,
    verb: str = "reads",
) -> list[Reason]:
    """The question for a tree whose files' inodes cannot be matched with the protected
    files' (`RuleView.protected_inodes` None): a name read there whose file has more
    names than the tree holds may be a protected file's (review GJ6). A `stat` per file.
    `blind`: the devices where they cannot be, with the place (review GU5); None: any."""
    groups = {group[0][0]: group for group in scan.shared}
    for first in numbers.values():
        names = groups.get(first[0], (first,))
        for path, listed in names:
            if not listed or (only is not None and path not in only):
                continue
            try:
                info = os.lstat(path)
            except (OSError, ValueError):
                continue  # (gone: nothing to read)
            place = None if blind is None else _blind_place(blind, info.st_dev)
            if info.st_nlink > len(names) and (blind is None or place is not None):
                return [_unknown_hard_link(path, info.st_nlink, shown, place, verb)]
            break
    return []


@dataclass(frozen=True)
class GitConfigs:
    """The git configuration files of the workspace's repositories (`.git/config`, a
    submodule's, the files they include) and the judge of one (whether it holds a
    credential): a hard link of one is read as that file (review GU4). `complete`: the
    git directories could all be listed."""

    files: tuple[str, ...]
    judge: Callable[[str, str], Reason | None]
    complete: bool = True
    # the git directories themselves, whose every file a write is denied for
    # (`git_dir_inodes`, review AX1)
    gitdirs: tuple[str, ...] = ()
    # these with those of the repositories nested below the workspace's top, found when
    # first needed: a file with more than one name is met (review AX2)
    more: Callable[[tuple[str, ...]], GitConfigs] | None = None

    def whole(self, nested: tuple[str, ...]) -> GitConfigs:
        """These with those of the git directories `nested` (`more`)."""
        return self if self.more is None or not nested else self.more(nested)


# names of the folders of a git directory not listed for its files' inodes: the object
# files, read-only and far too many (review AX1)
_GIT_OBJECT_FOLDERS: Final = frozenset({"objects"})


def git_dir_inodes(gitdirs: Sequence[str]) -> _InodeMap | None:
    """The inode numbers of the files of `gitdirs` (their objects left out), each with
    their names: a write through another name of `.git/hooks/pre-commit` or `.git/config`
    is a write of it (review AX1). None where one cannot be listed whole."""
    found: _InodeMap = {}
    for gitdir in gitdirs:
        if not os.path.isdir(gitdir):
            continue
        scan = subtree.scan_names(
            gitdir, hidden=True, budget=_INODE_BUDGET, skip=_GIT_OBJECT_FOLDERS, keep=False
        )
        if not scan.complete or scan.blind:
            return None
        _add_inodes(found, scan, set(scan.entries))
        _add_object_info(found, f"{gitdir}/objects/info")
    return found


def _add_object_info(found: _InodeMap, info: str) -> None:
    """Adds the inode numbers of the files in a git directory's `objects/info` (its
    `alternates`, which name the object stores git reads: review HA3), the few files of
    `objects` a write may aim at."""
    try:
        with os.scandir(info) as entries:
            for entry in entries:
                if entry.is_file(follow_symlinks=False):
                    number = entry.inode()
                    found[number] = (*found.get(number, ()), entry.path)
    except OSError:
        return


def _written_link(shown: str, path: str, name: str) -> Reason:
    """The question for a recursive write reaching `path`, a hard link of the protected
    `name` (review AX1)."""
    return Reason(
        rule_id="engine.written-tree",
        message=f"writes `{shown}` recursively, reaching `{path}`, a hard link of `{name}`, "
        "which a rule protects from writes: the write changes that file",
        verdict=Verdict.ASK,
    )


def _tree_too_big(shown: str, budget: int) -> Reason:
    """The question for a recursive write whose tree has more than `budget` entries: a
    name past the listing may be another name of a protected file (review HD3)."""
    return Reason(
        rule_id="engine.tree-budget",
        message=f"writes `{shown}` recursively: more than {budget:,} entries, too many to "
        "rule out other names of protected files among them",
        verdict=Verdict.ASK,
    )


def _linked_gitdir(path: str, names: Sequence[str], shown: str) -> list[Reason]:
    """The denial of a write through `path`, another name of a git directory's file among
    `names` (same inode number): git reads that file as the repository's configuration
    or hooks (review AX1: `echo x >> notes` on `.git/hooks/pre-commit`'s inode)."""
    for name in names:
        if name != path and _same_file(path, name):
            return [
                Reason(
                    rule_id="engine.git-directory",
                    message=f"writes `{shown}`: `{path}` is a hard link of `{name}`, a file "
                    "of a git directory, whose configuration and hooks can make git run "
                    "programs",
                    verdict=Verdict.DENY,
                )
            ]
    return []


def _git_inodes(files: Sequence[str]) -> _InodeMap:
    """The inode numbers of `files` that have more than one name (a `stat` each: those
    with one name have no other to be read by), each with their names (review GU4)."""
    found: _InodeMap = {}
    for path in files:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
            found[info.st_ino] = (*found.get(info.st_ino, ()), path)
    return found


def _linked_git(path: str, configs: Sequence[str], git: GitConfigs, shown: str) -> list[Reason]:
    """The question for `path`, another name of a git config among `configs` (same inode
    number) that holds a credential: it prints what `cat .git/config` would (review GU4)."""
    for config in configs:
        if config != path and _same_file(path, config):
            found = git.judge(config, f"{config} (read as {path}, a hard link of it)")
            if found is not None:
                return [found]
    return []


def _tree_names(
    scan: subtree.TreeScan, first: tuple[str, bool], only: frozenset[str] | None
) -> Iterator[str]:
    """The names a recursive read reaches of the file whose first name in `scan` is
    `first` (its other names in `scan.shared`)."""
    for group in scan.shared:
        if group[0][0] == first[0]:
            break
    else:
        group = (first,)
    for path, listed in group:
        if listed and (only is None or path in only):
            yield path


def _nested_gitdirs(scans: Sequence[subtree.TreeScan]) -> tuple[str, ...] | None:
    """The git directories of the repositories in the workspace's listings `scans` (a
    nested clone's `.git`, a submodule's `.git` file's target): their configuration's
    hard links are looked for too (review AX2; `gitdirs_of` walks up from the top only).
    None where a `node_modules` holds more packages than are looked at (review HD4)."""
    found: dict[str, None] = {}
    for scan in scans:
        for path in scan.entries:
            if path.endswith("/.git"):
                if os.path.isdir(path):
                    found[path] = None
                elif (target := gitfile_target(path)) is not None:
                    found[os.path.normpath(target)] = None
            elif path.endswith("/HEAD") and is_git_directory(folder := path[:-5]):
                # a bare repository (`vendor/x.git`), which git takes for a git directory
                # as it does `.git`: its hooks run on a push to it (review HA3)
                found[folder] = None
            elif path.endswith("/node_modules"):
                packages = _package_gitdirs(path)
                if packages is None:
                    return None
                found.update(dict.fromkeys(packages))
    return tuple(found)


_PACKAGE_PROBES: Final = 5_000  # packages of a `node_modules` looked at for a `.git`


def _package_gitdirs(folder: str) -> list[str] | None:
    """The git directories of the packages right in `folder`, a `node_modules` the
    workspace's listing does not enter (`@scope/name` too): a package installed as a git
    clone keeps its `.git` (review HA3). Deeper ones are not looked for. None past
    `_PACKAGE_PROBES` packages: a clone among those not looked at would go unseen, so
    the caller asks for any file with more than one name, as for a workspace too large
    to list (review HD4)."""
    packages = _folders_in(folder)
    for scope in [path for path in packages if path.rpartition("/")[2].startswith("@")]:
        packages.extend(_folders_in(scope))
    if len(packages) > _PACKAGE_PROBES:
        return None
    found: list[str] = []
    for package in packages:
        dot = f"{package}/.git"
        if os.path.isdir(dot):
            found.append(dot)
        elif (target := gitfile_target(dot)) is not None:
            found.append(os.path.normpath(target))
    return found


def _folders_in(folder: str) -> list[str]:
    """The folders right in `folder` (not links to them), none where it cannot be read."""
    try:
        with os.scandir(folder) as entries:
            return [entry.path for entry in entries if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return []


def _denies(reasons: Sequence[Reason]) -> bool:
    """Whether any of `reasons` denies."""
    return any(reason.verdict is Verdict.DENY for reason in reasons)
# folders of installed packages and of build output, which a recursive write's walk does
# not enter: their `*.pem` test fixtures and `CLAUDE.md` files are the packages', and a
# build folder holds what the build made, often past the walk's budget (review CY10:
# `rm -rf target` asked in every mid-size cargo project); a protected file moved or copied
# there was judged where it landed
_PACKAGE_FOLDERS = frozenset(
    {"node_modules", "site-packages", "dist-packages", "target", "build", "dist", "out",
     "__pycache__", ".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache", ".gradle",
     ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".cache", "coverage",
     "htmlcov", "cmake-build-debug", "cmake-build-release", ".angular", ".output"}
)  # fmt: skip
_CACHEABLE_LENGTH = 4096


@dataclass(frozen=True, slots=True, kw_only=True)
class GitPrint:
    """A git command that prints the contents of tracked files it does not name: `git diff`,
    `git show REV`, `git log -p`, or one limited to directories (`git diff src`).

    Which operands are paths is git's call (what exists is a path, the rest revisions), so
    the engine makes it against the file system: see `PathChecks.tracked_secrets`.
    """

    command: str  # `git diff`, for messages
    worktree: bool  # compares the working tree with the index, unless a revision is given
    ambiguous: tuple[Word, ...]  # operands before `--`: paths if they exist, else revisions
    paths: tuple[Word, ...]  # operands after `--`
    # `--full-diff`: the pathspecs choose the commits, each printed whole (review BK8)
    whole: bool = False
    # `--submodule=diff`: the changes of the submodules' files too (review EZ1)
    submodules: bool = False


@dataclass(slots=True, kw_only=True)
class SegmentRules:
    """What the policy says about one simple command (wrappers seen through).

    Not frozen: it is built once per segment on the hot path and never shared.
    """

    verdict: Verdict  # the rule-level verdict (an approval may lift an unlocked ask)
    reason: Reason | None  # the deciding rule (or the default)
    locked: bool = False
    specificity: int = 0  # leading literal words of the deciding rule
    read_only: bool = False
    floors: tuple[Reason, ...] = ()  # wrapper rules, interpreter floors, opaque parts
    opaque: bool = False
    nested: tuple[CommandLine, ...] = ()
    inner: tuple[Word, ...] = ()  # the command's words, wrappers removed
    view: OptionView = _EMPTY_VIEW  # their option view (empty where none was needed)
    exception: bool = False  # asks because an allow rule's `unless`/check fired: not approvable
    # (word, access, recursive), relative to where the command runs (`run_in`)
    path_words: tuple[tuple[Word, str, bool], ...] = ()
    # paths relative to the segment's own directory: git's `-C DIR` (read like a path)
    cwd_path_words: tuple[tuple[Word, str, bool], ...] = ()
    run_in: str | None = None  # the directory the command changes to first (`git -C`)
    implicit_cwd_read: bool = False
    # whether that read lists the whole tree (`cd ~ && ls -R`: as `ls -R ~`, review BL1)
    implicit_recursive: bool = False
    # whether a recursive listing follows the links it meets (`ls -RL`, `find -L`)
    follows_links: bool = False
    # whether a recursive read also reads hidden files (`rg` and `ag` skip them by default)
    reads_hidden: bool | tuple[str, ...] = True  # (a tuple: the hidden names admitted)
    # the ignore files it is given (`rg --ignore-file F`), as written: their `!` lines
    # re-include hidden files as well
    ignore_files: tuple[str, ...] = ()
    # whether it reads the files of whole trees (`grep -r`, `rg`; not `ls -R`, which lists)
    reads_contents: bool = False
    git_dirs: tuple[str, ...] | None = None  # None: not git; (): the working directory
    git_print: GitPrint | None = None  # git prints contents of files it does not name
    # plain `git grep`, which prints only the index's tracked regular files: the operands
    # before its `--` (paths, or revisions when they do not exist); None for any other
    tracked_only: tuple[Word, ...] | None = None
    # any `git grep` (with git's own options too): git greps what its index names, a
    # crafted entry outside the work tree among them (review EG)
    git_grep: bool = False
    # a program run by path (`./build.sh`): rules judge its basename, approvals the path
    # as written, so approving one script is not approving every file of that name (L7)
    invoked_as: str | None = None
    # xargs adds words to the command: no approval covers them (review AF3)
    from_xargs: bool = False
    # allowed by an `allow` rule (not `readonly`): its words after the rule's literal
    # prefix are checked like an approval's (review AF5)
    standing: bool = False
    # no rule names the command: the policy's default decided (an approval is then its
    # only allow, and nothing says what it writes: review BX2)
    unruled: bool = False
    # the deciding rule is a read-only allow, whatever floors were raised beside it: a
    # write leaves the command to the default all the same (review FK2: `nohup echo hi >
    # out.txt` asked under ci, where the write is denied)
    rule_read_only: bool = False
    # where an undecidable rule decided (`deny tree ** when -o` on `tree $X`): what
    # decides if it does not apply, and whether that is a read-only allow (review FK2)
    otherwise: Reason | None = None
    otherwise_read_only: bool = False
    # the program of `inner` for the tables (`program_name` of its basename; None: no
    # literal name), asked by many checks of each segment: found once, from `inner`
    # (always: a value given is ignored, so that it cannot disagree with `inner`)
    program: str | None = None

    # written out rather than generated by `dataclass`: mypyc compiles it to plain
    # stores, where the generated one stays interpreted (see `policylang._frozen`)
    def __init__(
        self,
        *,
        verdict: Verdict,
        reason: Reason | None,
        locked: bool = False,
        specificity: int = 0,
        read_only: bool = False,
        floors: tuple[Reason, ...] = (),
        opaque: bool = False,
        nested: tuple[CommandLine, ...] = (),
        inner: tuple[Word, ...] = (),
        view: OptionView = _EMPTY_VIEW,
        exception: bool = False,
        path_words: tuple[tuple[Word, str, bool], ...] = (),
        cwd_path_words: tuple[tuple[Word, str, bool], ...] = (),
        run_in: str | None = None,
        implicit_cwd_read: bool = False,
        implicit_recursive: bool = False,
        follows_links: bool = False,
        reads_hidden: bool | tuple[str, ...] = True,
        ignore_files: tuple[str, ...] = (),
        reads_contents: bool = False,
        git_dirs: tuple[str, ...] | None = None,
        git_print: GitPrint | None = None,
        tracked_only: tuple[Word, ...] | None = None,
        git_grep: bool = False,
        invoked_as: str | None = None,
        from_xargs: bool = False,
        standing: bool = False,
        unruled: bool = False,
        rule_read_only: bool = False,
        otherwise: Reason | None = None,
        otherwise_read_only: bool = False,
        program: str | None = None,
    ) -> None:
        self.verdict = verdict
        self.reason = reason
        self.locked = locked
        self.specificity = specificity
        self.read_only = read_only
        self.floors = floors
        self.opaque = opaque
        self.nested = nested
        self.inner = inner
        self.view = view
        self.exception = exception
        self.path_words = path_words
        self.cwd_path_words = cwd_path_words
        self.run_in = run_in
        self.implicit_cwd_read = implicit_cwd_read
        self.implicit_recursive = implicit_recursive
        self.follows_links = follows_links
        self.reads_hidden = reads_hidden
        self.ignore_files = ignore_files
        self.reads_contents = reads_contents
        self.git_dirs = git_dirs
        self.git_print = git_print
        self.tracked_only = tracked_only
        self.git_grep = git_grep
        self.invoked_as = invoked_as
        self.from_xargs = from_xargs
        self.standing = standing
        self.unruled = unruled
        self.rule_read_only = rule_read_only
        self.otherwise = otherwise
        self.otherwise_read_only = otherwise_read_only
        name = inner[0].value if inner else None
        self.program = None if name is None else program_name(name.rpartition("/")[2])


@dataclass(frozen=True, slots=True, kw_only=True)
class _Command:
    """What the policy's tables say about one command name, looked up once per policy.

    Every field is a pure function of the compiled policy and the name, so `RuleView`
    builds these when it is created (for every name any table mentions) and shares one
    plain entry for all other names.
    """

    interpreter: InterpreterSpec | None = None
    roles: PathRoles | None = None
    runs_code: bool = False  # an interpreter, a shell or a wrapper
    conditional: bool = False  # sed, perl, git: writes a role table cannot express
    spec: OptionSpec = _PLAIN_SPEC
    # whether the rule clauses read this command with `spec` too (then their view is ours)
    clause_view: bool = False


_PLAIN_COMMAND = _Command()


_SOURCING = frozenset({"source", "."})


def _command_table(policy: CompiledPolicy) -> dict[str, _Command]:
    names = set(policy.interpreters) | set(policy.shells) | set(policy.path_args.commands)
    names |= _SOURCING
    names |= {spec.name for spec in policy.wrappers} | _CONDITIONAL_WRITERS | _FILE_SENDERS
    names |= set(_COMPRESSORS) | set(_DECOMPRESSORS) | _CLOUD_FILE_READERS
    names |= set(policy.tree.option_specs)
    return {
        name: _Command(
            interpreter=policy.interpreters.get(name),
            roles=policy.path_args.roles(name),
            runs_code=(
                name in policy.interpreters
                or name in policy.shells
                or (" " not in name and policy.wrappers.get(name) is not None)
                or name in _SOURCING  # `source x.sh` runs x.sh in this shell
            ),
            conditional=(
                name in _CONDITIONAL_WRITERS
                or name in _FILE_SENDERS
                or name in _COMPRESSORS
                or name in _DECOMPRESSORS
                or name in _CLOUD_FILE_READERS
            ),
            spec=policy.tree.option_spec(name),
            clause_view=policy.tree.command_clause_spec(name) is policy.tree.option_spec(name),
        )
        for name in names
    }


# `uniq IN OUT`, `xxd IN OUT` write their second operand (`ask uniq|xxd * * **`): a word
# that may expand to several (`uniq *.txt`) makes the count of operands unknown (review Z2)
_LAST_OPERAND_WRITERS = frozenset({"uniq", "xxd"})


def _uncounted_operands(name: str, inner: Sequence[Word], view: OptionView) -> list[Reason]:
    for index in (*view.operands, *view.unknown):
        word = inner[index]
        if word.value is None:
            return [
                Reason(
                    rule_id="engine.operand-count",
                    message=f"`{word.text}` may expand to several operands, and `{name}` "
                    "writes its second one",
                    verdict=Verdict.ASK,
                )
            ]
    return []


def is_git_config_path(path: str) -> bool:
    """A name git configuration goes by: `config` and `config.worktree` of any git
    directory (`.git/`, a bare `deps.git/`, `modules/x/`), `.gitconfig`, and the files
    configs include (`*.config`, `*.gitconfig`: actions/checkout's credentials file).
    Whether it is one, and holds a credential, the caller reads (review AA6, AA7)."""
    head, _, name = path.rpartition("/")
    return (
        name in _GIT_CONFIG_NAMES
        or name.startswith((".gitconfig", "gitconfig", "config."))  # `~/.gitconfig.local`
        or name.endswith((".config", ".gitconfig", ".inc", ".conf"))
        or head.endswith("/git")  # `~/.config/git/*` (review AC8)
    )


_GIT_CONFIG_NAMES = frozenset({"config", "config.worktree", ".gitconfig", "gitconfig"})


def _reason(ref: RuleRef | None, verdict: Verdict, fallback: str, extra: str = "") -> Reason:
    if ref is None:
        return Reason(rule_id="default", message=fallback + extra, verdict=verdict)
    return Reason(
        rule_id=ref.id,
        message=(ref.message or fallback) + extra,
        verdict=verdict,
        location=ref.location,
    )


class RuleView:
    """The compiled policy as the engine asks about it."""

    def __init__(
        self, policy: CompiledPolicy, *, limits: Limits | None = None, parse_cache: int = 1024
    ) -> None:
        self.policy = policy
        self.limits = limits or Limits()
        # parsing is a pure function of the text, so repeated commands can share it; the
        # walk (paths, git config, approvals) always runs afresh
        self._parse_cache_size = parse_cache
        self._parsed: dict[str, CommandLine] = {}
        self._parse_lock = threading.Lock()
        self._positions = {p.value: p for p in ExpansionPosition}
        self._commands = _command_table(policy)
        # `_may_be_run` answers by word, from this policy's tables alone: asked of the
        # words after every program no table knows (bounded: words are untrusted)
        self._run_names: dict[str, bool] = {}
        # `_renamed_program` answers by name: a pure function of the name and this policy's
        # rule tree, asked for every command no rule names (bounded: names are untrusted)
        self._renamed: dict[str, str | None] = {}
        # wrappers a policy's own lines define or redefine: `wrapper git …` in a later layer
        # must not hide `git push --force` from an earlier layer's deny (review AF8)
        self._declared_wrappers = frozenset(
            spec.name for spec in policy.wrappers if DEFAULT_WRAPPERS.get(spec.name) != spec
        )
        # every workspace-anchored glob a read can violate, as one expression over paths
        # relative to the workspace (`protected_in_tree` matches each entry against it)
        self._tree_pattern = _workspace_pattern(policy, Access.READ)
        # and those a write can violate: the workspace's files a hard link's write reaches
        # (`_workspace_inodes`, review AX1)
        self._write_tree_pattern = _workspace_pattern(policy, Access.WRITE)
        self._default_reason = _reason(
            policy.default_ref, policy.default, "no rule covers this command"
        )
        self._matches: dict[
            tuple[str, Access, str, str, bool, bool], tuple[ProtectedMatch | None, bool]
        ] = {}
        self._env: dict[str, EnvMatch] = {}  # env rule per variable name (names are few)
        # `_tree_picks` of the listings `subtree.scan` keeps, by the listing's identity
        self._picks: dict[
            tuple[int, tuple[str, ...], bool, str], tuple[tuple[str, ...], list[str]]
        ] = {}
        # reads a protected rule may cover: a git index is matched path by path
        self._may_protect = prefilter(policy.protected.rules, Access.READ)
        # the rules anchored at `/` (`/**/.pgpass`), as one expression over whole paths:
        # they hold inside a workspace too, so its tree's entries are matched against
        # them as well (review EU2)
        # (after a quick test by name: their alternation costs some 12 µs a path)
        anywhere = [rule for rule in policy.protected.rules if rule.anchor == ABSOLUTE]
        self._may_protect_anywhere = prefilter(anywhere, Access.READ)
        joined = "|".join(
            f"(?:{rule.regex.pattern})" for rule in anywhere if rule.access.covers(Access.READ)
        )
        self._anywhere_pattern = LazyRegex(joined, re.DOTALL | re.IGNORECASE) if joined else None
        self._may_write_anywhere = prefilter(anywhere, Access.WRITE)
        joined = "|".join(
            f"(?:{rule.regex.pattern})" for rule in anywhere if rule.access.covers(Access.WRITE)
        )
        self._write_anywhere_pattern = (
            LazyRegex(joined, re.DOTALL | re.IGNORECASE) if joined else None
        )
        self._may_protect_write = prefilter(policy.protected.rules, Access.WRITE)
        # `may_be_protected` by path: the evaluator asks it of most words of a line, and
        # the same names recur from line to line (a pure function of the text: memoised)
        self._maybe_protected: dict[str, bool] = {}
        # the globs a write is checked against: names a program makes up from a prefix
        # are tried against their components (`prefixes.made_names`)
        self.write_globs = tuple(
            rule.glob for rule in policy.protected.rules if rule.access.covers(Access.WRITE)
        )
        # the literal names of their components (`.vscode`, `tasks.json`, `.claude`): a
        # link of such a name leads writes below it (`PathChecks._protected_links`)
        parts = {
            part
            for glob in self.write_globs
            for part in glob.split("/")
            if part.strip("*") not in ("", "~", ".", "..")
        }
        self.protected_names = frozenset(p for p in parts if not any(c in p for c in "*?[{"))
        # and those with a wildcard (`.venv*`: review CI13), compiled when first needed
        # (loading a policy compiles no glob: start-up)
        self._name_globs = sorted(p for p in parts if any(c in p for c in "*?["))
        self._name_pattern: re.Pattern[str] | None = None
        # the protected paths below a workspace's top (`.vscode/tasks.json`, `.claude/**`):
        # a link there is a protected file's other name (review CL5), looked for inside
        self.protected_inner = _inner_paths(self.write_globs)
        # the home-anchored protected places (`.aws`, `.netrc`), looked at for links once
        # per home (`linked_places`), and what was found there, by (home, real home)
        self._home_places = tuple(
            sorted({r.literal_prefix for r in policy.protected.rules if r.anchor == HOME})
        )
        # per home: when the links were looked for (`time.monotonic`), what was found, and
        # the links on the way to each place's target (`chain_links`)
        self._linked: dict[tuple[str, str], tuple[float, _Links, _Links]] = {}
        # the home places read rules protect, whose files' inodes a hard link may share
        # (review GJ6), and what was found there per home (`_home_inodes`)
        # (and those write rules protect, whose inode a write may reach: review AX1)
        self._inode_places = {
            access: tuple(
                sorted(
                    {
                        r.literal_prefix
                        for r in policy.protected.rules
                        if r.anchor == HOME and r.literal_prefix and r.access.covers(kind)
                    }
                )
            )
            for access, kind in (("read", Access.READ), ("write", Access.WRITE))
        }
        self._home_inode_memo: dict[
            tuple[tuple[str, ...], str], tuple[float, _InodeMap, _Blind]
        ] = {}
        # the workspace's protected inodes, by the listing `subtree.scan` keeps
        # (and when a workspace was last found too large to list, review AX3)
        self._unlistable: dict[str, float] = {}
        self._workspace_inode_memo: dict[
            tuple[tuple[str, ...], str],
            tuple[tuple[object, ...], _InodeMap, tuple[str, ...] | None],
        ] = {}

    def protected_name_pattern(self) -> re.Pattern[str]:
        """Names a protected glob's wildcard component matches (`PathChecks`' links)."""
        if self._name_pattern is None:
            joined = "|".join(fnmatch.translate(p) for p in self._name_globs)
            self._name_pattern = re.compile(joined or "(?!)")
        return self._name_pattern

    # -- parsing -------------------------------------------------------------------------
    def parse(self, command: str) -> CommandLine:
        """The shell model of `command` (memoised when the policy has a parse cache)."""
        line = self._parsed.get(command)
        if line is not None:
            return line
        line = parse_command(command, limits=self.limits, wrappers=self.policy.wrappers)
        if self._parse_cache_size > 0 and len(command) <= _CACHEABLE_LENGTH:
            with self._parse_lock:
                if len(self._parsed) >= self._parse_cache_size:
                    self._parsed.pop(next(iter(self._parsed)))  # drop the oldest
                self._parsed[command] = line
        return line

    # -- expansions ----------------------------------------------------------------------
    def disqualifier(
        self, kind: ExpansionKind, position: str
    ) -> tuple[Verdict, str, str | None] | None:
        """The floor an expansion imposes in a position (None: no floor)."""
        entry = self.policy.disqualifiers.entry(kind, self._positions[position])
        if entry.action in (ExpansionAction.ALLOW, ExpansionAction.INSPECT):
            return None
        if entry.ref is None:
            return entry.action.floor, "expansion-default", None
        return entry.action.floor, entry.ref.id, entry.ref.location

    # -- environment ---------------------------------------------------------------------
    def env_verdicts(self, name: str, text: str, *, listed: bool = False) -> list[Reason]:
        """Reasons the env rules give for setting `name`; with `listed`, only a rule that
        names it counts (not `env default`): `read line` is no `line=…` assignment."""
        match = self._env.get(name)
        if match is None:
            match = self.policy.env.match(name)
            if len(self._env) < 4096:
                self._env[name] = match
        if match.verdict is Verdict.ALLOW or (listed and match.glob is None):
            return []
        ref = match.ref
        message = f"sets the environment variable `{name}`"
        return [
            Reason(
                rule_id=ref.id if ref else "env-default",
                message=message if ref is None or not ref.message else f"{ref.message}: `{name}`",
                verdict=match.verdict,
                location=ref.location if ref else None,
                segment=text,
            )
        ]

    # -- paths ---------------------------------------------------------------------------
    def may_be_protected(self, path: str) -> bool:
        """Whether some protected-path rule could cover `path` (a cheap test by names: no
        False is wrong, a True may be)."""
        found = self._maybe_protected.get(path)
        if found is None:
            found = self._may_protect(path) or self._may_protect_write(path)
            if len(self._maybe_protected) >= _MATCH_CACHE_SIZE:
                self._maybe_protected.clear()
            self._maybe_protected[path] = found
        return found

    def linked_places(self, ctx: EvalContext) -> tuple[tuple[str, str], ...]:
        """Where the links among the home's protected places lead, each with the link's
        own path: `~/.aws/credentials -> ~/dotfiles/aws/credentials` (stow, chezmoi) makes
        the target the protected file under another name (review DT5). Looked for at
        most once every `_LINK_SCAN_SECONDS` per home (the protected folders' entries,
        within a budget: about 2 ms), not per evaluation: a link the user makes (the agent
        cannot: a write there is denied) is seen that long after at the latest, also by a
        long-running server (review DW10)."""
        return self._scanned_links(ctx)[0]

    def chain_links(self, ctx: EvalContext) -> tuple[tuple[str, str], ...]:
        """The links met on the way to where a protected home place's link leads, each
        with that place's link (`~/.ssh -> dotfiles/current/ssh` and `~/dotfiles/current
        -> v1`: `~/dotfiles/current`). Replacing one repoints the place (review DX3: an
        approved `ln -sfn v2 current` made `~/.ssh` another folder), so writing one is
        writing the place."""
        return self._scanned_links(ctx)[1]

    def _scanned_links(self, ctx: EvalContext) -> tuple[_Links, _Links]:
        key = (ctx.home, ctx.real_home)
        now = time.monotonic()
        kept = self._linked.get(key)
        if kept is not None and now - kept[0] < _LINK_SCAN_SECONDS:
            return kept[1], kept[2]
        found = _linked_home_places(self._home_places, ctx.home, ctx.real_home or ctx.home)
        chains = _links_on_the_way(found)
        self._linked[key] = (now, found, chains)
        return found, chains

    def denies_by_name(self, path: str, access: str, ctx: EvalContext) -> bool:
        """Whether a protect rule denies `access` to `path` by its own name (not as a
        link's target, `linked_places`)."""
        wanted = Access.WRITE if access == "write" else Access.READ
        hit, outside = self._match_spellings(path, wanted, ctx, False)
        return hit is not None and not outside and hit.verdict is Verdict.DENY

    def link_target(self, path: str, ctx: EvalContext) -> bool:
        """Whether `path` is protected as the target of a protected home place's link
        (`linked_places`), at or below it."""
        return _linked_at(path, self.linked_places(ctx))

    def protection(self, path: str, ctx: EvalContext) -> str | None:
        """The rule that protects reading `path` (`id: message`, glob), or None: the
        protected-path rules only, not the outside-workspace one."""
        if not self._may_protect(path) and not _linked_at(path, self.linked_places(ctx)):
            return None
        hit, outside = self._match_anchors(path, Access.READ, ctx, False)
        if hit is None or outside or hit.verdict is Verdict.ALLOW:
            return None
        glob = hit.rule.glob if hit.rule is not None else "?"
        about = f": {hit.ref.message}" if hit.ref.message else ""
        return f"`{hit.ref.id}` protects (`{glob}`{about})"

    def path_verdicts(
        self,
        forms: Sequence[str],
        access: str,
        ctx: EvalContext,
        shown: str,
        *,
        subtree: bool = False,
        protected_only: bool = False,
        removal: bool = False,
    ) -> list[Reason]:
        """Reasons for every protected-path or outside-workspace rule the forms violate
        (`protected_only`: the protected paths alone; `removal`: a recursive write that
        only removes, see `ProtectedTable.match_protected`)."""
        wanted = Access.WRITE if access == "write" else Access.READ
        found: list[Reason] = []
        if ctx.env_secrets:
            moved = _environment_secret(forms, ctx, subtree)
            if moved is not None:
                return [
                    Reason(
                        rule_id="engine.environment-secret",
                        message=f"{access}s `{shown}`, {moved}",
                        verdict=Verdict.DENY,
                        location=None,
                    )
                ]
        for form in forms:
            hit, outside = self._match_anchors(form, wanted, ctx, subtree, removal)
            if hit is None or (outside and protected_only):
                continue
            if outside and _lands_inside(form, ctx):
                continue
            if outside:
                message = f"{access}s `{shown}` outside the workspace"
            else:
                glob = hit.rule.glob if hit.rule is not None else "?"
                extra = f" ({hit.ref.message})" if hit.ref.message else ""
                via = "" if form == shown else f" (resolves to `{form}`)"
                link = _link_to(form, self.linked_places(ctx))
                if link is not None:
                    via += f" (where the link `{link}` leads)"
                elif wanted is Access.WRITE:
                    chained = next((p for c, p in self.chain_links(ctx) if c == form), None)
                    if chained is not None:
                        via += f" (a link on the way to where the link `{chained}` leads)"
                message = f"{access}s protected path `{shown}`{via}: matches `{glob}`{extra}"
                direct, direct_outside = (
                    self._match_anchors(form, wanted, ctx, False) if subtree else (hit, False)
                )
                if direct is None or direct_outside:
                    message = (
                        f"{access}s `{shown}`{via} recursively, reaching protected `{glob}`{extra}"
                    )
            found.append(
                Reason(
                    rule_id=hit.ref.id,
                    message=message,
                    verdict=hit.verdict,
                    location=hit.ref.location,
                )
            )
            if hit.verdict is Verdict.DENY:
                break
        return found

    def _match_anchors(
        self, form: str, access: Access, ctx: EvalContext, subtree: bool, removal: bool = False
    ) -> tuple[ProtectedMatch | None, bool]:
        """`_match` under each spelling of home and workspace (`EvalContext.anchors`): the
        strictest protected match of any; outside only when outside under every one."""
        found = self._match_spellings(form, access, ctx, subtree, removal)
        hit, outside = found
        if hit is not None and not outside and hit.verdict is not Verdict.ALLOW:
            return found
        linked, chains = self._scanned_links(ctx)
        if access is Access.WRITE:
            for chain, link in chains:
                # (`ln -sfn v2 current`, `rm current`, `mv -T v2 current`; a recursive write
                # above it, `rm -r dotfiles`, takes it too)
                if form == chain or (subtree and chain.startswith(form.rstrip("/") + "/")):
                    other = self._match_spellings(link, access, ctx, True)
                    if other[0] is not None and not other[1] and (
                        other[0].verdict is not Verdict.ALLOW
                    ):
                        return other
        if not linked:
            return found
        # a target of a protected place's link is that place (review DT5); a recursive
        # reach above such a target reaches the place itself
        for target, link in linked:
            if form == target or form.startswith(target + "/"):
                rest = form[len(target) :]
                other = self._match_spellings(link + rest, access, ctx, subtree, removal)
            elif subtree and target.startswith(form.rstrip("/") + "/"):
                other = self._match_spellings(link, access, ctx, False)
            else:
                continue
            if other[0] is not None and not other[1] and other[0].verdict is not Verdict.ALLOW:
                return other
        return found

    def _match_spellings(
        self, form: str, access: Access, ctx: EvalContext, subtree: bool, removal: bool = False
    ) -> tuple[ProtectedMatch | None, bool]:
        """`_match_anchors` without the links of `linked_places`; a stricter protected
        match under the host's other HOME wins (review GK4)."""
        found = self._match_pairs(form, access, ctx, subtree, removal)
        for home in ctx.host_homes:
            hit, outside = self._match(form, access, home, ctx.workspace, subtree, removal)
            if hit is None or outside or hit.verdict is Verdict.ALLOW:
                continue  # (only a protect rule of the host's home, never its exceptions)
            mine = found[0]
            if mine is None or found[1] or hit.verdict.rank > mine.verdict.rank:
                found = (hit, False)
        return found

    def _match_pairs(
        self, form: str, access: Access, ctx: EvalContext, subtree: bool, removal: bool = False
    ) -> tuple[ProtectedMatch | None, bool]:
        """`_match` under each (home, workspace) of `EvalContext.anchors`."""
        pairs = ctx.anchors()
        if len(pairs) == 1:
            return self._match(form, access, ctx.home, ctx.workspace, subtree, removal)
        results = [self._match(form, access, home, ws, subtree, removal) for home, ws in pairs]
        protected = [hit for hit, outside in results if hit is not None and not outside]
        if protected:
            return max(protected, key=lambda hit: hit.verdict.rank), False
        if all(outside for _, outside in results):
            return results[0]
        if not any(paths_within(form, ws) for _, ws in pairs):
            # outside the workspace under every spelling: an exception one spelling of home
            # does not lift the outside verdict (`except /tmp/**` with home reached through
            # a link from its real place under /tmp: review EM4)
            return next((r for r in results if r[1]), (None, False))
        return None, False

    def _match(
        self,
        form: str,
        access: Access,
        home: str,
        workspace: str,
        subtree: bool,
        removal: bool = False,
    ) -> tuple[ProtectedMatch | None, bool]:
        """The protected or outside-workspace match of one absolute path (memoised).

        The match is a pure function of its arguments (no file system), so it is cached.
        """
        key = (form, access, home, workspace, subtree, subtree and removal)
        cached = self._matches.get(key)
        if cached is not None:
            return cached
        table = self.policy.protected
        hit = table.match_protected(
            form, access, home=home, workspace=workspace, subtree=subtree, removal=removal
        )
        result: tuple[ProtectedMatch | None, bool] = (hit, False)
        if hit is None or hit.verdict is not Verdict.ALLOW:
            # a protect rule that asks does not lift a stricter outside-workspace verdict
            # (`outside-workspace write deny` and a matching `protect … ask`: review AP5);
            # only one that allows carves an exception out of it
            out = table.match_outside(form, access, home=home, workspace=workspace)
            if out is not None and out.verdict is not Verdict.ALLOW and (
                hit is None or out.verdict.rank > hit.verdict.rank
            ):
                result = (out, True)
        if len(self._matches) >= _MATCH_CACHE_SIZE:
            self._matches.clear()
        self._matches[key] = result
        return result

    def landed_in_tree(
        self, root: str, landings: Sequence[str], ctx: EvalContext, shown: str, *, budget: int
    ) -> tuple[list[Reason], bool]:
        """Reasons for the protected files a move or copy of directory `root` writes: each
        entry below it, at its name below each of `landings` (the absolute paths the tree
        may land as). `mv cfg .vscode` writes `.vscode/tasks.json` and `cp -r cl docs`
        writes `docs/cl/CLAUDE.md`, which no word of the line spells (review BX9).

        Returns:
            The reasons (a few at most) and whether the whole tree was seen (False when it
            has more than `budget` entries).
        """
        found: list[Reason] = []
        scan = subtree.scan(root, hidden=True, budget=budget)
        start = len(root.rstrip("/")) + 1
        tops = [landing.rstrip("/") for landing in dict.fromkeys(landings)]
        for path in scan.entries:
            below = path[start:]
            for top in tops:
                landed = f"{top}/{below}"
                if self._may_protect_write(landed):
                    found.extend(
                        self.path_verdicts(
                            (landed,), "write", ctx, f"{shown} ({landed})", protected_only=True
                        )
                    )
            if len(found) >= _TREE_REASONS:
                break
        return found, scan.complete

    def denied_below(
        self, root: str, ctx: EvalContext, *, budget: int
    ) -> tuple[tuple[str, Reason] | None, bool]:
        """The first file below directory `root` that a rule denying writes protects,
        with that rule's reason, for a recursive write of `root` that reaches every file
        in it though no word names one (`rm -r sub` with `sub/.claude/settings.json`,
        `chmod -R 777 certs`, `mv sub /tmp`): `**/` globs match by name anywhere, so
        only the tree can tell. Folders of installed packages (`node_modules`,
        `site-packages`) are not walked: what lies there was installed, and anything
        moved or copied there was judged where it landed (`landed_in_tree`).

        Returns:
            The file and reason, or None; and whether the whole tree was seen (False
            when it has more than `budget` entries).
        """
        # (`rm -rf node_modules`, `chmod -R +x node_modules/x`: the names below the
        # workspace, not those above it: review CZ8, a workspace in `~/build/proj`)
        below = (
            os.path.relpath(root, ctx.workspace)
            if paths_within(root, ctx.workspace)
            else os.path.basename(root)
        )
        if not _PACKAGE_FOLDERS.isdisjoint(below.split("/")):
            return None, True
        scan = subtree.scan(root, hidden=True, budget=budget, skip=_PACKAGE_FOLDERS)
        for path in scan.entries:
            if not self._may_protect_write(path):
                continue
            for reason in self.path_verdicts((path,), "write", ctx, path, protected_only=True):
                if reason.verdict is Verdict.DENY:
                    return (path, reason), scan.complete
        return None, scan.complete

    def protected_in_tree(
        self,
        root: str,
        ctx: EvalContext,
        shown: str,
        *,
        hidden: bool | tuple[str, ...],
        budget: int,
        git_config: Callable[[str, str], Reason | None] | None = None,
        ignore_files: Sequence[str] = (),
        only: frozenset[str] | None = None,
        cwds: Sequence[str] = (),
        git: GitConfigs | None = None,
    ) -> tuple[list[Reason], bool]:
        """Reasons for the protected files a recursive read of directory `root` would reach.

        The everyday case, `grep -r key .` in the workspace, must not print a workspace
        `.env`, yet the protected globs (`**/.env`) lie inside every directory *by name*;
        so the tree is looked at (`subtree.scan`): each entry is matched against the
        workspace-anchored rules (one combined expression), the literal directory of
        each home- or root-anchored rule below `root` is checked if it exists, and each
        symbolic link is checked where it points (recursively, for a directory).

        `git_config(path, shown)`: the reason a git config file in the tree gives, if any
        (one that holds a credential, `http.extraheader` in a CI checkout).

        `only`: the paths the reader may read, and the folders above them (plain `git
        grep`: the index's tracked files); any other entry, link or place is left out.
        `cwds`: the folder (or each folder) the reader runs in, from which rg takes a
        relative `gitdir:` of a `.git` file (`subtree.git_excludes`).

        Returns:
            The reasons (a few at most) and whether the whole tree was seen (False when it
            has more than `budget` entries).
        """
        found: list[Reason] = []
        # the host's other HOME too (review GK4)
        homes = dict.fromkeys((*(home for home, _ in ctx.anchors()), *ctx.host_homes))
        for rule in self.policy.protected.rules:
            if rule.anchor == WORKSPACE or not rule.access.covers(Access.READ):
                continue
            for base in homes if rule.anchor == HOME else ("/",):
                fixed = f"{base.rstrip('/')}/{rule.literal_prefix}" if rule.literal_prefix else base
                if (
                    paths_within(fixed, root)
                    and (only is None or fixed in only)
                    and os.path.lexists(fixed)
                ):
                    found.extend(self.path_verdicts((fixed,), "read", ctx, shown, subtree=True))
        # where a protected home place's link leads, inside the tree (`~/.ssh ->
        # ~/dotfiles/ssh` and `grep -r KEY .` in ~/dotfiles): that place (review DW2)
        for target, _link in self.linked_places(ctx):
            if paths_within(target, root) and target != root and (only is None or target in only):
                deep = os.path.isdir(target)
                found.extend(self.path_verdicts((target,), "read", ctx, shown, subtree=deep))
        if _denies(found):
            # the read already reaches a file a rule denies (`grep -r x ~` and `~/.ssh`): no
            # entry of the tree can make it stricter, and listing `/` or `~` costs up to
            # the whole budget (33 ms for `grep -Ril x /`); "complete" only spares the
            # ask for an unseen rest, which the deny outranks
            return found, True
        workspaces = [ws.rstrip("/") for ws in dict.fromkeys(ws for _, ws in ctx.anchors())]
        pattern = self._tree_pattern
        if hidden is not True and ctx.env.get("RIPGREP_CONFIG_PATH"):
            hidden = True  # a config file the engine does not read may say `--hidden`
        admit = hidden if isinstance(hidden, tuple) else ()
        everything = hidden is True
        scan = subtree.scan(root, hidden=everything, admit=admit, budget=budget, cwds=cwds)
        if not everything:
            # `!.env` in an ignore file makes rg and ag read that hidden file after all:
            # the tree's, those above it, `.git/info/exclude`, git's global one, those
            # given by option (`ignore_files`)
            global_ignores = subtree.rg_global_ignores(ctx.env or os.environ)
            extra = () if global_ignores is None else (*global_ignores, *ignore_files)
            for _round in range(_WHITELIST_ROUNDS):
                # the hidden folders a `!` line admits hold ignore files of their own,
                # read on the next round (review EA2: `!.devcontainer`, whose `.ignore`
                # says `!.env`); rounds run out only in a contrived tree: every name then
                again = (
                    True
                    if global_ignores is None
                    else subtree.whitelisted(scan, root, extra, cwds)
                )
                fresh = () if isinstance(again, bool) else tuple(n for n in again if n not in admit)
                if again is True or (fresh and _round == _WHITELIST_ROUNDS - 1):
                    everything = True
                    scan = subtree.scan(root, hidden=True, budget=budget)
                    break
                if not fresh:
                    break
                admit = (*admit, *fresh)
                scan = subtree.scan(root, hidden=False, admit=admit, budget=budget, cwds=cwds)
        for path in self._tree_picks(scan.entries, workspaces, git_config is not None):
            if only is not None and path not in only:
                continue
            inside = False
            for anchor in workspaces:
                relative = path[len(anchor) + 1 :] if paths_within(path, anchor) else None
                inside = inside or relative is not None
                if pattern is not None and relative is not None and pattern.fullmatch(relative):
                    found.extend(self.path_verdicts((path,), "read", ctx, f"{shown} ({path})"))
                    break
            else:
                if self._outside_rule_may_cover(path, inside):
                    # a tree outside the workspace: rules anchored at `/` (`/**/.env`) hold
                    # there, and inside it too (review EU2: `rg KEY` printed `.pgpass`)
                    found.extend(self.path_verdicts((path,), "read", ctx, f"{shown} ({path})"))
            if git_config is not None and is_git_config_path(path):
                reason = git_config(path, f"{shown} ({path})")
                if reason is not None:
                    found.append(reason)
            if len(found) >= _TREE_REASONS or _denies(found):
                # (a deny is as strict as the read can get: the rest of a large tree,
                # a Python project's `.venv` say, would cost tens of milliseconds)
                break
        found.extend(self.hard_linked(scan.shared, ctx, shown, only))
        if not _denies(found):
            found.extend(self.linked_out(scan, ctx, shown, only, git))
        complete = scan.complete
        pending = list(scan.links)
        linked: set[str] = set()
        while pending and len(found) < _TREE_REASONS and not _denies(found):
            link, target = pending.pop()
            if paths_within(target, root) or (only is not None and link not in only):
                continue
            deep = os.path.isdir(target)
            found.extend(
                self.path_verdicts((target,), "read", ctx, f"{shown} ({link})", subtree=deep)
            )
            if git_config is None:
                continue
            # a link the repository ships to `.git/config`, or to `.git` (review AE6):
            # `grep -R` follows it into the credential the protect rules do not cover
            if not deep:
                if is_git_config_path(target):
                    reason = git_config(target, f"{shown} ({link})")
                    found.extend(() if reason is None else (reason,))
            elif target not in linked and len(linked) < _MAX_LINKED_TREES:
                linked.add(target)
                sub = subtree.scan(target, hidden=everything, admit=admit, budget=budget)
                complete = complete and sub.complete
                for path in sub.entries:
                    if is_git_config_path(path):
                        reason = git_config(path, f"{shown} ({link} → {path})")
                        found.extend(() if reason is None else (reason,))
                pending.extend(sub.links)
            else:
                complete = False
        return found, complete

    def hard_linked(
        self,
        shared: Sequence[tuple[tuple[str, bool], ...]],
        ctx: EvalContext,
        shown: str,
        only: frozenset[str] | None = None,
    ) -> list[Reason]:
        """Reasons for the names a recursive read reaches that are hard links of a
        protected file of the tree (`subtree.TreeScan.shared`): the reader reads that
        file under another name (review FY4: `tar xf` made `leak.py` on the inode of
        `.env`, which an approved `ruff check .` printed; `rg KEY` skips the hidden
        `.env`, not `leak.py`). Names are one file where `lstat` says so."""
        found: list[Reason] = []
        for group in shared:
            guarded = [
                path
                for path, _listed in group
                if self.path_verdicts((path,), "read", ctx, path, protected_only=True)
            ]
            for path, listed in group if guarded else ():
                if not listed or path in guarded or (only is not None and path not in only):
                    continue
                secret = next((g for g in guarded if _same_file(path, g)), None)
                if secret is not None:
                    found.extend(
                        self.path_verdicts(
                            (secret,), "read", ctx, f"{shown} ({path}, a hard link of it)",
                            protected_only=True,
                        )
                    )  # fmt: skip
        return found

    def linked_out(
        self,
        scan: subtree.TreeScan,
        ctx: EvalContext,
        shown: str,
        only: frozenset[str] | None = None,
        git: GitConfigs | None = None,
    ) -> list[Reason]:
        """Reasons for the names a recursive read reaches that are hard links of a
        protected file elsewhere, outside the scanned tree (review GJ6: `src/leak.py` on
        the inode of the top `.env`, which `rg KEY src` printed), or of a git config that
        holds a credential (`git`, review GU4). The listing's inode numbers meet the
        protected files' (`protected_inodes`): no `stat` unless one matches. Where those
        cannot all be known, a name of a file with more names than the tree holds asks."""
        numbers = scan.inodes
        if not numbers:
            return []
        secrets = self.protected_inodes(ctx)
        git = None if git is None or secrets is None else git.whole(secrets[3])
        if secrets is None or (git is not None and not git.complete):
            return _unknown_hard_links(scan, numbers, shown, only)
        workspace, home, blind, _nested = secrets
        found: list[Reason] = []
        for known in (workspace, home):
            for number in known.keys() & numbers.keys():
                for path in _tree_names(scan, numbers[number], only):
                    found.extend(self._linked_secret(path, known[number], ctx, shown))
                if _denies(found):
                    return found
        if git is not None:
            configs = _git_inodes(git.files)
            for number in configs.keys() & numbers.keys():
                for path in _tree_names(scan, numbers[number], only):
                    found.extend(_linked_git(path, configs[number], git, shown))
        if blind and not found:
            found.extend(_unknown_hard_links(scan, numbers, shown, only, blind))
        return found

    def linked_read(
        self,
        path: str,
        info: os.stat_result,
        ctx: EvalContext,
        shown: str,
        git: GitConfigs | None = None,
    ) -> list[Reason]:
        """Reasons for reading `path`, a regular file whose `os.stat` is `info`, where it
        is a hard link of a protected file (review GJ6: `cat notes.txt` on the inode of
        `.env`) or of a git config that holds a credential (`git`, review GU4: `cat
        docs/cfg.txt` on `.git/config`'s). Nothing is looked up for a file with one name;
        one with more asks where the protected files of its device cannot all be known."""
        if info.st_nlink < 2 or not stat.S_ISREG(info.st_mode):
            return []
        secrets = self.protected_inodes(ctx)
        git = None if git is None or secrets is None else git.whole(secrets[3])
        if secrets is None or (git is not None and not git.complete):
            return [_unknown_hard_link(path, info.st_nlink, shown)]
        workspace, home, blind, _nested = secrets
        names = (*workspace.get(info.st_ino, ()), *home.get(info.st_ino, ()))
        found = self._linked_secret(path, names, ctx, shown)
        if git is not None and not found:
            found = _linked_git(path, _git_inodes(git.files).get(info.st_ino, ()), git, shown)
        place = _blind_place(blind, info.st_dev)
        if place is not None and not found:
            # (a hard link never crosses devices: a place elsewhere holds none of its names)
            found = [_unknown_hard_link(path, info.st_nlink, shown, place)]
        return found

    def linked_write(
        self,
        path: str,
        info: os.stat_result,
        ctx: EvalContext,
        shown: str,
        git: GitConfigs,
    ) -> list[Reason]:
        """Reasons for writing through `path`, a regular file whose `os.stat` is `info`
        (`>>`, `tee`, `cp`, `truncate`, `dd` open it and change its contents), where it is
        a hard link of a file the write rules protect: the write changes that file (review
        AX1: `echo x >> notes` on the inode of `.claude/settings.json`, of
        `.git/hooks/pre-commit`, of `~/.bashrc`). As `linked_read`: one with more names
        asks where the protected files of its device cannot all be known."""
        if info.st_nlink < 2 or not stat.S_ISREG(info.st_mode):
            return []
        known = self._written_inodes(ctx, git)
        if known is None:
            return [_unknown_hard_link(path, info.st_nlink, shown, verb="writes")]
        (workspace, home, blind, _nested), gitdir = known
        found = _linked_gitdir(path, gitdir.get(info.st_ino, ()), shown)
        for name in (*workspace.get(info.st_ino, ()), *home.get(info.st_ino, ())):
            if found:
                break
            if name != path and _same_file(path, name):
                found = self.path_verdicts(
                    (name,), "write", ctx, f"{shown} ({path}, a hard link of it)",
                    protected_only=True,
                )  # fmt: skip
        place = _blind_place(blind, info.st_dev)
        if place is not None and not found:
            found = [_unknown_hard_link(path, info.st_nlink, shown, place, "writes")]
        return found

    def linked_written_tree(
        self,
        root: str,
        ctx: EvalContext,
        shown: str,
        git: GitConfigs,
        *,
        budget: int,
        whole: bool = False,
    ) -> list[Reason]:
        """Reasons for a recursive write of directory `root` (`chmod -R`, `sed -i` through
        `grep -rl`) reaching a file below that is another name of a file the write rules
        protect elsewhere (review AX1: `d/n` on `.git/hooks/pre-commit`'s inode): an ask,
        as `denied_below`'s, from the listing's inode numbers (the one `denied_below`
        keeps). A name that is itself protected is `denied_below`'s. `whole`: the
        folders of installed packages are entered too (a copy writes into `build/` and
        `node_modules/` as into any folder: review HD2). A listing cut short by `budget`
        asks (review HD3)."""
        skip = frozenset() if whole else _PACKAGE_FOLDERS
        scan = subtree.scan(root, hidden=True, budget=budget, skip=skip)
        if not scan.complete:
            return [_tree_too_big(shown, budget)]
        numbers = scan.inodes
        if not numbers:
            return []
        maps = self._written_inodes(ctx, git)
        if maps is None:
            return _unknown_hard_links(scan, numbers, shown, None, verb="writes")
        (workspace, home, blind, _nested), gitdir = maps
        for known in (gitdir, workspace, home):
            for number in known.keys() & numbers.keys():
                for path in _tree_names(scan, numbers[number], None):
                    for name in known[number]:
                        if name != path and _same_file(path, name):
                            return [_written_link(shown, path, name)]
        return _unknown_hard_links(scan, numbers, shown, None, blind, "writes") if blind else []

    def _written_inodes(
        self, ctx: EvalContext, git: GitConfigs
    ) -> tuple[tuple[_InodeMap, _InodeMap, Mapping[int, str], tuple[str, ...]], _InodeMap] | None:
        """What a write through a file with more than one name is checked against: the
        inodes the write rules protect (`protected_inodes`) and those of the git
        directories, the nested repositories' included. None where either cannot all be
        known: the caller asks."""
        secrets = self.protected_inodes(ctx, "write")
        if secrets is None:
            return None
        git = git.whole(secrets[3])
        gitdir = git_dir_inodes(git.gitdirs) if git.complete else None
        return None if gitdir is None else (secrets, gitdir)

    def _linked_secret(
        self, path: str, secrets: Sequence[str], ctx: EvalContext, shown: str
    ) -> list[Reason]:
        """The protected file among `secrets` (same inode number) that `path` is another
        name of, judged as that file; a name that is itself protected is judged already."""
        for secret in secrets:
            if secret != path and _same_file(path, secret):
                return self.path_verdicts(
                    (secret,), "read", ctx, f"{shown} ({path}, a hard link of it)",
                    protected_only=True,
                )  # fmt: skip
        return []

    def protected_inodes(
        self, ctx: EvalContext, access: str = "read"
    ) -> tuple[_InodeMap, _InodeMap, Mapping[int, str], tuple[str, ...]] | None:
        """The inode numbers of the files the read (`access`: or write) rules may protect,
        each with their names: the workspace's (`_workspace_inodes`) and the home places'
        (`_home_inodes`), the devices of the home places that could not be listed whole
        (review GU5), and the git directories nested in the workspace (review AX2). None
        where the workspace's cannot all be known (a tree too large to list, a folder this
        process cannot list): the caller then asks for a file with more than one name."""
        kept = self._workspace_inodes(ctx, access)
        if kept is None:
            return None
        home, blind = self._home_inodes(ctx, access)
        return kept[0], home, blind, kept[1]

    def _workspace_scans(self, ctx: EvalContext) -> list[subtree.TreeScan] | None:
        """The listings of the workspaces (`_workspace_inodes`), None where one cannot be
        listed whole."""
        scans: list[subtree.TreeScan] = []
        now = time.monotonic()
        for workspace in dict.fromkeys(ws.rstrip("/") for _, ws in ctx.anchors()):
            if now - self._unlistable.get(workspace, -_LINK_SCAN_SECONDS) < _LINK_SCAN_SECONDS:
                # (one too large was found so a moment ago: not listed again for every
                # line, which would cost some 250 ms at the budget: review AX3)
                return None
            scan = subtree.scan_names(
                workspace or "/",
                hidden=True,
                budget=_WORKSPACE_INODE_BUDGET,
                skip=_INSTALLED_FOLDERS,
            )
            if not scan.complete or scan.blind or scan.inodes is None:
                if len(self._unlistable) >= _MAX_TREE_PICKS:
                    self._unlistable.clear()
                self._unlistable[workspace] = now
                return None
            scans.append(scan)
        return scans

    def _workspace_inodes(
        self, ctx: EvalContext, access: str = "read"
    ) -> tuple[_InodeMap, tuple[str, ...]] | None:
        """The inode numbers of the workspace's protected files (those `_tree_picks`
        picks), from its listing: the one `subtree.scan` keeps, checked by its folders'
        stamps, and the picks kept with it. Folders that hold what git and package
        installers wrote (`_INSTALLED_FOLDERS`) are not listed: the packages' own `*.pem`
        fixtures are no secret a hard link leaks (review GJ6). `access`: "write" picks
        the files the write rules protect (review AX1). With the git directories nested
        in the listing (`_nested_gitdirs`)."""
        workspaces = tuple(ws.rstrip("/") for ws in dict.fromkeys(ws for _, ws in ctx.anchors()))
        found: dict[int, tuple[str, ...]] = {}
        scans = self._workspace_scans(ctx)
        if scans is None:
            return None
        listings: list[object] = [scan.inodes for scan in scans]
        kept = self._workspace_inode_memo.get((workspaces, access))
        if kept is not None and all(a is b for a, b in zip(kept[0], listings, strict=True)):
            return None if kept[2] is None else (kept[1], kept[2])
        for scan in scans:
            picked = set(self._tree_picks(scan.entries, list(workspaces), False, access))
            _add_inodes(found, scan, picked)
        nested = _nested_gitdirs(scans)
        if len(self._workspace_inode_memo) >= _MAX_TREE_PICKS:
            self._workspace_inode_memo.clear()
        self._workspace_inode_memo[(workspaces, access)] = (tuple(listings), found, nested)
        # (a `node_modules` with too many packages to look for clones in: review HD4)
        return None if nested is None else (found, nested)

    def _home_inodes(self, ctx: EvalContext, access: str = "read") -> tuple[_InodeMap, _Blind]:
        """The inode numbers of the files in the home places the read rules protect (each
        fixed name, and what a folder of them holds), looked at once every
        `_LINK_SCAN_SECONDS` per home as `linked_places` is: the agent cannot make a name
        there (a write there is denied). With the devices of the folders that cannot be
        listed whole (`_place_inodes`)."""
        homes = tuple(dict.fromkeys((*(home for home, _ in ctx.anchors()), *ctx.host_homes)))
        now = time.monotonic()
        kept = self._home_inode_memo.get((homes, access))
        if kept is not None and now - kept[0] < _LINK_SCAN_SECONDS:
            return kept[1], kept[2]
        found: _InodeMap = {}
        blind: _Blind = {}
        for home in homes:
            for place in self._inode_places[access]:
                _place_inodes(f"{home.rstrip('/')}/{place}", found, blind)
        if len(self._home_inode_memo) >= _MAX_TREE_PICKS:
            self._home_inode_memo.clear()
        self._home_inode_memo[(homes, access)] = (now, found, blind)
        return found, blind

    def _tree_picks(
        self,
        entries: tuple[str, ...],
        workspaces: list[str],
        git_configs: bool,
        access: str = "read",
    ) -> Sequence[str]:
        """The entries of a tree that `protected_in_tree` has anything to say of: those a
        workspace rule's pattern matches, those outside the workspace a rule may protect,
        and (`git_configs`) the names git configuration goes by, in the tree's order. Each
        is a question of the path's text alone, so the answer is kept for the listing
        `subtree.scan` keeps (the same tuple while the tree is unchanged); the reasons
        themselves, which look at the file system, are found again each time. `access`:
        "write" picks by the write rules (review AX1)."""
        key = (id(entries), tuple(workspaces), git_configs, access)
        kept = self._picks.get(key)
        if kept is not None and kept[0] is entries:
            return kept[1]
        pattern = self._tree_pattern if access == "read" else self._write_tree_pattern
        picked: list[str] = []
        for path in entries:
            inside = False
            for anchor in workspaces:
                relative = path[len(anchor) + 1 :] if paths_within(path, anchor) else None
                inside = inside or relative is not None
                if pattern is not None and relative is not None and pattern.fullmatch(relative):
                    break
            else:
                if not self._outside_rule_may_cover(path, inside, access) and not (
                    git_configs and is_git_config_path(path)
                ):
                    continue
            picked.append(path)
        if len(self._picks) >= _MAX_TREE_PICKS:
            self._picks.clear()
        self._picks[key] = (entries, picked)
        return picked

    def _outside_rule_may_cover(self, path: str, inside: bool, access: str = "read") -> bool:
        """Whether a rule that is not workspace-anchored may cover a tree's entry: any
        such rule outside the workspace, those anchored at `/` inside it too (review EU2:
        `/**/.git-credentials`, `/**/git-credentials-*.config`, whose names the
        workspace rules do not hold; `cat` of each was denied, `grep -r KEY .` not).
        `access`: "write" asks of the write rules (review AX1)."""
        reading = access == "read"
        if not inside:
            return self._may_protect(path) if reading else self._may_protect_write(path)
        pattern = self._anywhere_pattern if reading else self._write_anywhere_pattern
        may = self._may_protect_anywhere if reading else self._may_write_anywhere
        return pattern is not None and may(path) and pattern.fullmatch(path) is not None

    # -- one simple command --------------------------------------------------------------
    def package_bin_rules(self, words: Sequence[Word]) -> SegmentRules | None:
        """The rules of the package's program a package runner's line runs
        (`package_bin_line`: `yarn snakemake -s x` → `snakemake -s x`), None for another
        line or one whose words are not all literal."""
        values = [w.value for w in words]
        if not values or any(v is None for v in values):
            return None
        line = package_bin_line([v for v in values if v is not None], explicit=True)
        if not line:
            return None
        inner = tuple(words[len(values) - len(line) :])
        return self._inner(inner, [], (), False, from_xargs=False)

    def package_bin_variants(self, words: Sequence[Word]) -> tuple[SegmentRules, ...]:
        """`package_bin_rules` of the line as each package manager may read it: yarn 1
        removes the first `--` of its arguments and hands the rest to the program (`yarn
        gulp -- -f /tmp/x.js` runs `gulp -f /tmp/x.js`), berry and pnpm keep it; yarn 1
        cannot be told from berry, so a yarn line is judged both ways (review HY1)."""
        values = [w.value for w in words]
        readings: list[tuple[Word, ...]] = [tuple(words)]
        flags = yarn_require_flags(values)
        if flags:
            # yarn 1's `run --require` is a flag (`yarn run --require gulp -f /tmp/x.js`
            # runs `gulp -f /tmp/x.js`), berry's takes a MODULE: both readings (IB1)
            readings.append(tuple(w for i, w in enumerate(words) if i not in flags))
        if yarn_drops_dash(values):
            for reading in list(readings):
                cut = [w.value for w in reading].index("--")
                readings.append((*reading[:cut], *reading[cut + 1 :]))
        variants: list[SegmentRules] = []
        for reading in readings:
            found = self.package_bin_rules(reading)
            if found is not None:
                variants.append(found)
        return tuple(variants)

    def segment_rules(self, segment: Segment) -> SegmentRules:
        """The rule-level view of one simple command whose name is literal."""
        words = segment.words
        unwrapped = segment.wrapped
        if unwrapped is None:
            return self._inner(tuple(words), [], (), False, from_xargs=False)
        floors: list[Reason] = []
        for assignment in unwrapped.assignments:
            floors.extend(self.env_verdicts(assignment.name, segment.text))
            value = assignment.value.value if assignment.value is not None else None
            if assignment.name in LOCALE_NAMES and locale_charset_risk(value, strict=True):
                # `env LC_ALL=zh_CN.GBK bash -c '…'`: the shell reads its code in that
                # charset (review CG1; `_Walk.locale_assignment` for the other forms)
                floors.append(
                    Reason(
                        rule_id="engine.locale-charset",
                        message=f"sets `{assignment.name}` for the command: in a charset "
                        "other than UTF-8, a shell it runs may read its code otherwise "
                        "than the analyser did",
                        verdict=Verdict.ASK,
                    )
                )
            elif (assignment.name == "LANGUAGE" or assignment.name.startswith("LC_")) and (
                (value is None and assignment.name == "LANGUAGE") or (value and "/" in value)
            ):
                # `env LANGUAGE=../x ls`: messages from a catalog that path names (DE6)
                floors.append(
                    Reason(
                        rule_id="engine.locale-files",
                        message=f"sets `{assignment.name}` for the command to a path: it may "
                        "read its messages from files there",
                        verdict=Verdict.ASK,
                    )
                )
        for problem in unwrapped.problems:
            floors.append(
                Reason(rule_id=problem.code, message=problem.message, verdict=Verdict.ASK)
            )
        for use in unwrapped.chain:
            where = use.words[0].value if use.words else None
            if where is not None and "/" in where and not _system_program(where):
                # `./nice ls`, `bin/timeout 5 ls`: a program of that place runs, not the
                # system's wrapper whose command was judged (review EV1)
                floors.append(
                    Reason(
                        rule_id="engine.path-wrapper",
                        message=f"`{where}` is run by its path: a program there, not the "
                        f"system's `{use.name}`, whose command the policy judged",
                        verdict=Verdict.ASK,
                    )
                )
            if gnu_base(use.name) == "nohup":
                floors.append(
                    Reason(
                        rule_id="engine.nohup-output",
                        message="`nohup` appends the output to `nohup.out` in the working "
                        "folder when it runs on a terminal",
                        verdict=Verdict.ASK,
                    )
                )
            use_words = use.words
            if use_words and use_words[0].value != use.name:
                use_words = (_value_word(use_words[0], use.name), *use_words[1:])
            match = self.policy.tree.lookup(use_words)
            if match is not None and match.verdict is not Verdict.ALLOW:
                floors.append(_match_reason(match, f"wrapper `{use.name}`", self.policy.default))
            if use.name in self._declared_wrappers and self.policy.tree.knows(use.name):
                # the rules of the name see the whole command, as without the wrapper line
                whole = self.policy.tree.lookup(words)
                if whole is not None and whole.verdict is not Verdict.ALLOW:
                    floors.append(
                        _match_reason(whole, f"`{use.name}` as a command", self.policy.default)
                    )
        inner = tuple(unwrapped.words)
        nested = () if unwrapped.nested is None else (unwrapped.nested,)
        if unwrapped.opaque:
            floors.append(
                Reason(
                    rule_id="engine.opaque-wrapper",
                    message="cannot see the inner command: "
                    + (unwrapped.reason or "a wrapper hides it"),
                    verdict=Verdict.ASK,
                )
            )
        if not inner:
            if nested and has_xargs(unwrapped):
                floors.append(
                    Reason(
                        rule_id="engine.xargs-paths",
                        message="xargs feeds its input into a shell command the policy cannot see",
                        verdict=Verdict.ASK,
                    )
                )
            if nested or unwrapped.opaque:
                return SegmentRules(
                    verdict=Verdict.ALLOW,
                    reason=None,
                    read_only=not unwrapped.opaque,
                    floors=tuple(floors),
                    opaque=unwrapped.opaque,
                    nested=nested,
                    cwd_path_words=self._wrapper_paths(unwrapped),
                )
            inner = tuple(words)
        found = self._inner(
            inner, floors, nested, unwrapped.opaque, from_xargs=has_xargs(unwrapped)
        )
        wrapper_paths = self._wrapper_paths(unwrapped)
        if wrapper_paths:
            found.cwd_path_words = (*found.cwd_path_words, *wrapper_paths)
        if floors and found.read_only:
            # a wrapper the policy objects to (sudo …) may do more than its command reads
            found.read_only = False
        return found

    def _wrapper_paths(self, unwrapped: Unwrapped) -> tuple[tuple[Word, str, bool], ...]:
        """Files a wrapper's own options name, by the `path-args option` table:
        `xargs -a FILE` reads FILE, `time -o FILE` writes it (review BD8: `xargs -a
        ~/.aws/credentials echo` printed the file under an ask only). Relative to the
        segment's directory: the wrapper opens them before running anything."""
        found: list[tuple[Word, str, bool]] = []
        for assignment in unwrapped.assignments:  # `env TZ=/path date`
            value = assignment.value
            zone = time_zone_word(value) if assignment.name == "TZ" and value else None
            if zone is not None:
                found.append((zone, "read", False))
        for use in unwrapped.chain:
            shell = _script_options(use.name, self.policy.shells)
            if shell is _SHELL_SCRIPT:
                # `bash .env` reads the script it runs (review EE8), as `source .env` does
                found.extend((word, "read", False) for word in _script_words(shell, use.words))
            if gnu_base(use.name) == "nohup" and use.words:
                # on a terminal, nohup appends the output to `nohup.out` in the working
                # folder (review BK10): whether the runtime gives one is not known here
                # (the floor that makes this a question is `segment_rules`')
                found.append((_value_word(use.words[0], "nohup.out"), "write", False))
            roles = self.policy.path_args.roles(use.name)
            spec = self.policy.wrappers.get(use.name)
            if roles is None or not roles.options or spec is None:
                continue
            view = option_view(use.words, spec.options, start=1)
            for option in view.options:
                access = roles.options.get(option.name)
                if access is None:
                    continue
                for name in _access_names(access):
                    for index in option.arg_indexes:
                        found.append((use.words[index], name, False))
                    if not option.arg_indexes and option.value is not None:
                        word = _value_word(use.words[option.word_index], option.value)
                        found.append((word, name, False))
                    elif not option.arg_indexes and not option.literal:
                        found.append((_glued_value(use.words[option.word_index]), name, False))
        return tuple(found)

    def _inner(
        self,
        inner: tuple[Word, ...],
        floors: list[Reason],
        nested: tuple[CommandLine, ...],
        opaque: bool,
        *,
        from_xargs: bool,
    ) -> SegmentRules:
        name = inner[0].value
        if name is None:
            floors.append(
                Reason(
                    rule_id="engine.non-literal-command",
                    message=f"the command `{inner[0].text}` run by a wrapper is not a literal word",
                    verdict=Verdict.ASK,
                )
            )
            return SegmentRules(
                verdict=Verdict.ASK, reason=None, floors=tuple(floors), opaque=opaque
            )
        tree = self.policy.tree
        written = inner  # as written: git's `-C` directories are read from these
        git_globals: tuple[tuple[Word, str, bool], ...] = ()
        run_in: str | None = None
        if name.rpartition("/")[2] in _GIT_OPTION_READERS and len(inner) > 2:
            inner, git_globals, run_in = _without_git_globals(inner)
        candidates = tree.candidates(inner)
        views: dict[int, OptionView] = {}  # the clauses' option views of the final `inner`
        match = tree.decide(inner, candidates, None if "/" in name else views)
        decided = inner  # the words `match` was decided over (renamed below)
        invoked_as = name if "/" in name else None
        if "/" in name:
            # `/usr/bin/sudo`, `./rm`: the rules of the basename are floors (a deny holds),
            # but an allow for `rm` says nothing about whatever `./rm` is
            base = name.rpartition("/")[2]
            inner = (_value_word(inner[0], base), *inner[1:])
            candidates = tree.candidates(inner)
            based = tree.decide(inner, candidates, views)
            if based is not None and based.verdict is not Verdict.ALLOW:
                floors.append(_match_reason(based, f"`{base}` run by path", self.policy.default))
            name = base
        renamed = self.renamed(name) if match is None else None
        helper = _GIT_HELPER.fullmatch(name) if match is None and renamed is None else None
        if helper is not None and tree.knows("git"):
            # `/usr/lib/git-core/git-push` is git run under the name of its verb (git reads
            # `argv[0]`): the asks and denies of `git push …` are its own (review BR1:
            # `git-push --force` was asked about, and an approval of it force-pushed)
            git_words = (_value_word(inner[0], "git"), _value_word(inner[0], helper.group(1)))
            based_words = (*git_words, *inner[1:])
            based_candidates = tree.candidates(based_words)
            based = tree.decide(based_words, based_candidates, {})
            if based is not None and based.verdict is not Verdict.ALLOW:
                match, candidates, decided = based, based_candidates, based_words
                renamed = f"git {helper.group(1)}"
        if renamed is not None and helper is None:
            # `gcc-12`, `x86_64-linux-gnu-gcc`, `c99`, `clang-16`, `go1.22.1` are the program
            # they rename: its asks and denies are theirs, approved as that program's are
            # (review AG2: approved `gcc-12` ran `gcc-12 -wrapper sh,-c,CMD`); its allows
            # say nothing about a program of another name
            based_words = (_value_word(inner[0], renamed), *inner[1:])
            based_candidates = tree.candidates(based_words)
            based = tree.decide(based_words, based_candidates, {} if views else views)
            if based is not None and based.verdict is not Verdict.ALLOW:
                match, candidates, decided = based, based_candidates, based_words
            else:
                if based is None and _by_exception(based_candidates, None):
                    # and the exceptions of its allow rules: they ask on purpose (review
                    # CC10: approved `gfind` ran `gfind . -exec CMD ;`, approved `gtar`
                    # `gtar --checkpoint-action=exec=CMD`, where `find` and `tar` ask)
                    candidates, decided = based_candidates, based_words
                renamed = None
        npm_words = _npm_words(inner)
        if npm_words is not None:
            # `npm explo x -- CMD`, `npm vers patch`, `npm runScript x`: npm reads its verb
            # folded from camelCase and by any unique prefix (review CP2); the rules of the
            # verb it names hold as for that verb, unless looser
            based_candidates = tree.candidates(npm_words)
            based = tree.decide(npm_words, based_candidates, {})
            default = self.policy.default
            if based is not None and (
                _match_verdict(based, default).rank
                >= (default if match is None else _match_verdict(match, default)).rank
            ):
                match, candidates, decided = based, based_candidates, npm_words
        scoped = _scoped_words(inner)
        scope_words = 0
        if scoped is not None:
            # `pnpm recursive publish`, `yarn workspace a npm publish`, `yarn workspaces
            # foreach -A pack`: the verb comes after pnpm's `recursive` or yarn's workspace
            # prefix, where the verb rules' first operand is the prefix; the rules of the
            # line without it hold where they say more than the package rule (review HB1,
            # HB2: an approval of `pnpm recursive` or `yarn workspace` published `.env`)
            based_candidates = tree.candidates(scoped)
            based = tree.decide(scoped, based_candidates, {})
            if based is not None and _scope_holds(based, match, self.policy.default):
                match, candidates, decided = based, based_candidates, scoped
                # (an approval reaches it as far as it reaches the verb's own line: `yarn
                # workspace` lifts `yarn workspace a set version x` no more than `yarn`
                # lifts `yarn set version x`)
                scope_words = len(inner) - len(scoped)
        if match is None:
            verdict = self.policy.default
            reason: Reason | None = self._default_reason
            locked, specificity, read_only = False, 0, False
        else:
            where = "" if renamed is None else f"`{name}` is `{renamed}`"
            # a failed check leaves the command to the default, at least ask (`_match_verdict`)
            reason = _match_reason(match, where, self.policy.default)
            if _undecided_deny(candidates, match, self.policy.default):
                reason = _denied_undecided(reason)
            verdict = reason.verdict
            locked = match.locked
            specificity = (match.specificity[0] if match.specificity else 0) + scope_words
            read_only = match.readonly and verdict is Verdict.ALLOW
        exception = verdict is not Verdict.ALLOW and _by_exception(candidates, match)
        if exception and match is None:
            reason = _exception_reason(inner, candidates, verdict) or reason
        otherwise: Reason | None = None
        otherwise_read_only = False
        if match is not None and match.uncertain:
            otherwise, otherwise_read_only = self._otherwise(decided, match)
        rule_read_only = read_only
        # from here on, tables: `gmv` has mv's path roles, option spec and checks (CC10)
        name = program_name(name)
        command = self._command(name)
        # the option view is only needed for interpreters, path roles and suggestions of
        # programs that run code; most segments need none
        needs_view = (
            command.interpreter is not None
            or command.roles is not None
            or (command.conditional and (name != "git" or _word(inner, 1) in _GIT_PATH_SUBCOMMANDS))
            or (verdict is not Verdict.ALLOW and command.runs_code)
        )
        view = _EMPTY_VIEW
        if needs_view:
            shared = views.get(1) if command.clause_view else None
            view = shared if shared is not None else option_view(inner, command.spec, start=1)
        if command.interpreter is not None:
            self._interpreter(command.interpreter, name, view, floors)
        if name in _LAST_OPERAND_WRITERS and needs_view:
            floors.extend(_uncounted_operands(name, inner, view))
        path_words, implicit, implicit_recursive = (
            self._path_words(name, command.roles, inner, view)
            if needs_view
            else ((), False, False)
        )
        script_options = _script_options(
            name if command.interpreter is None else command.interpreter.name,
            self.policy.shells,
        )
        if script_options is not None:
            # the script an interpreter runs is a file it reads, and prints the line it
            # cannot parse: `python3 .env` printed the secret, as `source .env` would
            # have (review EE8)
            scripts = _script_words(script_options, inner)
            path_words = (*path_words, *((word, "read", False) for word in scripts))
        if name in _CONTAINER_COPIERS:
            # `docker cp . c:/x` reads the workspace whole, `docker cp c:/x .` writes what
            # the container holds: the host's side is a path, a folder copied whole, as
            # scp's (the approval oracle, run 2: the workspace's `.env` copied out)
            path_words = (*path_words, *_container_copy_words(inner, command.spec))
        if name in _SEVEN_ZIP and any(
            w.value is not None and w.value.lower().startswith("-spf") for w in inner[1:]
        ):
            # 7-Zip's switches are read whatever their case: `-spf`/`-SPF` extract or store
            # the archive's absolute paths (reviews CD7, CE5: `7z x -SPF -y x.7z` wrote
            # `~/.bashrc` under an approval of `7z x`)
            floors.append(
                _ask_floor(
                    "engine.7z-absolute-paths",
                    f"`{name}` writes or stores the absolute paths its archive names",
                )
            )
        if name in _JVM_TOOLS and any(
            w.value is None or w.value.startswith("-J") for w in inner[1:]
        ):
            # JDK tools pass `-J…` to the VM they start, in any position: `-J-javaagent:a.jar`
            # runs the repository's code (review CM6: `jar tf lib.jar -J-javaagent:a.jar`)
            floors.append(
                _ask_floor(
                    "engine.jvm-options",
                    f"`{name}` may pass `-J` options to the Java VM it starts "
                    "(`-J-javaagent:` runs any code), which no approval covers",
                )
            )
        if _loads_plugins(name) and any(_may_be_plugin(w.value) for w in inner[1:]):
            # binutils' `--plugin FILE` loads a shared object (review CN15: `ar rcs x.a f.o
            # --plugin ./x.so` under an approval of `ar rcs`), spelt by any prefix getopt
            # takes (review CP3: `--p ./x.so`)
            floors.append(
                _ask_floor(
                    "engine.plugin",
                    f"`{name}` may load the plugin an option names, which no approval covers",
                )
            )
        extractor = _extraction(_extractor_name(name), inner)
        stdin_names = _stdin_names(name, inner)
        if stdin_names is not None:
            # the files archived are named by the input (`bsdcpio -o < list` printed
            # `.env`: review CL6), which no path check reads
            floors.append(
                _ask_floor(
                    "engine.stdin-names",
                    f"`{stdin_names}` reads the files its input names, which cannot be "
                    "checked here and no approval covers",
                )
            )
        listed = _file_list_option(name, inner)
        if listed is not None:
            # the names in the list are opened unchecked: `printf '%s\0' ~/.ssh | find
            # -files0-from -` lists it, `sha256sum -c` confirms a guess of `~/.ssh/id_rsa`
            # (review CX3, CX4); a floor, not a rule clause, so that a glob (`du -sh *`)
            # is judged by what it matches (a file named `--files0-from=x` asks)
            floors.append(
                _ask_floor(
                    "engine.file-list",
                    f"`{name} {listed}` reads the files a list names, which cannot be checked "
                    "here and no approval covers",
                )
            )
        if name == "rclone" and any(
            w.value is None or (w.value.startswith(":") and not w.value.startswith(":local"))
            or w.value.partition("=")[0] == "--config"
            for w in inner[1:]
        ):
            # a backend defined on the command line (`:alias,remote=.git:hooks/x`) or a
            # config the project ships (`--config rc.conf`): where it writes cannot be
            # told (review DA4)
            floors.append(
                _ask_floor(
                    "engine.rclone-backend",
                    "`rclone` is given a backend or configuration on the command line, whose "
                    "local paths cannot be told here",
                )
            )
        native = _native_build_args(name, inner)
        if native is not None:
            # `cmake --build b -- --eval='${shell id}'`, `meson compile --ninja-args=-f,x`:
            # the words make or ninja gets, whose own rules the approval skips (review CV5)
            floors.append(
                _ask_floor(
                    "engine.native-build-args",
                    f"`{native}` hands words to the build tool it runs (make, ninja), which "
                    "no approval of it covers",
                )
            )
        if _source_from_stdin(name, inner):
            # `echo '#include "~/.ssh/id_rsa"' | cc -E -`, `rustc - <<< 'include!(…)'`:
            # the code names the files it reads, and the errors or output print them
            # (review CV4)
            floors.append(
                _ask_floor(
                    "engine.stdin-source",
                    f"`{name}` reads its source from its input, whose includes and imports "
                    "name files that cannot be checked here, which no approval covers",
                )
            )
        if extractor is not None:
            # an archive names the files it writes (`.git/hooks/pre-commit`, `.claude/…`):
            # approved once, never always, however the command letter is spelt (review
            # CI2-CI5: `7z X`, `7z -y x`, `ar -x`, `jar -xf`, `bsdtar xf`, `dpkg -x`)
            floors.append(
                _ask_floor(
                    "engine.archive-extract",
                    f"`{extractor}` writes the files its archive names, which no approval "
                    "covers",
                )
            )
        if name == "find":
            # find lists its start points (`find ~/.aws -type f`, review BL2: no role table
            # named them) and, with `-delete` or `-exec` of a writer, acts on what it finds
            # below them (review BK4: asked where `rm -rf ~/.ssh` is denied): each start
            # point is read, or written as `rm -r` writes its operand. Not the whole tree
            # below: the expression selects (`find / -name x`, `find . -name '*.pyc'
            # -delete`, which the `find` rule's exception asks about)
            acting = any(w.value in _FIND_ACTING for w in inner[1:])
            follows = _find_follows_links(inner)
            access = _find_access(inner) if acting else "read"
            # following links, the listing reaches where they point: read as a tree
            starts = tuple(
                (word, how, follows and how == "read")
                for word, how, _deep in _find_start_points(inner, access)
            )
            path_words = (*path_words, *starts)
            implicit = implicit or not starts  # `cd ~/.ssh && find`: the working folder
            implicit_recursive = implicit_recursive or (follows and not starts)
        reads_contents = False
        reads_hidden: bool | tuple[str, ...] = True
        ignore_files: tuple[str, ...] = ()
        tracked_only: tuple[Word, ...] | None = None
        if name == "git" and _word(inner, 1) == "grep":
            # without git's own options (`-C`, `--git-dir`) and with only those of its
            # own that keep it to the index's files, what it prints is known: see
            # `PathChecks.tracked_files` (open items I)
            tracked_only = _git_grep_operands(written) if _word(written, 1) == "grep" else None
            # `git grep` prints tracked files' contents (a committed `.env` too), and with
            # `--no-index` or `--untracked` any file below the working directory
            path_words = (*path_words, (_value_word(inner[1], "."), "read", True))
            # and below its pathspecs, which may leave that folder (`git -C docs grep KEY
            # -- ..`, `-- :/`: review BN5); the first operand is the pattern (or `-e`'s),
            # as the plain option view reads them and as git does (`-eKEY ..`: `..` is a
            # path, which the plain view had taken for the pattern)
            grep = option_view(inner, _PLAIN_SPEC, start=2)
            seen = {id(inner[i]) for i in grep.operands[1:]}
            precise = [w for w in _git_grep_paths(inner) if id(w) not in seen]
            for word in (*(inner[i] for i in grep.operands[1:]), *precise):
                if word.value is not None and wide_git_pathspec(word.value):
                    floors.append(
                        Reason(
                            rule_id="engine.git-pathspec",
                            message=f"the pathspec `{word.text}` may name any file of the "
                            "repository, which `git grep` prints lines of",
                            verdict=Verdict.ASK,
                        )
                    )
                else:
                    path_words = (*path_words, (word, "read", True))
            reads_contents = True
        elif name == "git" and _word(inner, 1) == "diff":
            reads_contents = True  # `git diff [--no-index] DIR DIR` prints every file below
        elif name in _CONTAINER_ENGINES or name in _CONTAINER_COPIERS:
            # a mounted or copied tree is the container's to read (reviews Q8, CP7)
            reads_contents = True
        elif name in _CONTENT_READERS:
            own = view if needs_view else option_view(inner, command.spec, start=1)
            reads_contents = _reads_trees(name, own, inner)
            if name in ("rg", "ag"):
                reads_hidden = _reads_hidden(name, own)
                if name == "rg" and reads_hidden is not True:
                    ignore_files = tuple(
                        o.value for o in own.find("--ignore-file") if o.value is not None
                    )
        if (name in _SEVEN_ZIP or name == "rar") and _archives_working_folder(name, inner):
            # `7z a x.7z`, `rar a x.rar`: no file given, the working folder's `*` is added,
            # each folder whole (review DX4: `.env` and a linked `~/.ssh`'s files)
            path_words = (*path_words, (_value_word(inner[0], "."), "read", True))
            reads_contents = True
        if from_xargs and (
            path_words or implicit or nested or command.roles or gnu_base(name) in _PROBES
        ):
            # (a probe looks its words up as paths, where an automounter resolves a
            # `/net/HOST` of stdin's words as a host name: review DW1)
            floors.append(
                Reason(
                    rule_id="engine.xargs-paths",
                    message=f"xargs passes `{name}` file names the policy cannot see",
                    verdict=Verdict.ASK,
                )
            )
        elif from_xargs and any(not rule.plain for rule in candidates):
            # `echo -D main | xargs git branch`: the words xargs adds may be just what a
            # rule's `unless`, `when` or `operand` clause looks for
            floors.append(
                Reason(
                    rule_id="engine.xargs-arguments",
                    message=f"xargs adds arguments to `{name}` that the policy's rules for it "
                    "would look at",
                    verdict=Verdict.ASK,
                )
            )
        # before `floors` is frozen below: git's own risky options add to it
        git_dirs = None
        if name == "git":
            before = len(floors)
            git_dirs = _git_dirs(written, floors)
            floors.extend(_git_object_floors(inner))
            read_only = read_only and len(floors) == before  # `git -p`, `-c core.pager=…`
        elif name == "scalar":
            # scalar hands its `-c` settings to every git it runs (review BT5: `scalar -c
            # protocol.ext.allow=always -c remote.x.url=ext::… run fetch` ran the command)
            _git_dirs(written, floors, "scalar")
        return SegmentRules(
            verdict=verdict,
            reason=reason,
            locked=locked,
            specificity=specificity,
            read_only=read_only,
            floors=tuple(floors),
            opaque=opaque,
            nested=nested,
            inner=inner,
            view=view,
            exception=exception,
            path_words=path_words,
            cwd_path_words=git_globals,
            run_in=run_in,
            implicit_cwd_read=implicit,
            implicit_recursive=implicit_recursive,
            follows_links=_follows_links(name, inner, view),
            reads_hidden=reads_hidden,
            ignore_files=ignore_files,
            reads_contents=reads_contents,
            git_dirs=git_dirs,
            git_print=_git_print(inner) if name == "git" else None,
            tracked_only=tracked_only,
            git_grep=name == "git" and _word(inner, 1) == "grep",
            invoked_as=invoked_as,
            from_xargs=from_xargs,
            standing=match is not None and verdict is Verdict.ALLOW and not match.readonly,
            unruled=match is None,
            rule_read_only=rule_read_only,
            otherwise=otherwise,
            otherwise_read_only=otherwise_read_only,
        )

    def _otherwise(self, words: Sequence[Word], match: RuleMatch) -> tuple[Reason, bool]:
        """What decides `words` where the undecidable rule of `match` does not apply, and
        whether that is a read-only allow.

        An undecidable deny asks, for the word may or may not be what it looks for; but
        where what holds without it is a deny too (an allow rule's certain exception left
        to `default deny`, or a read-only rule's write), the line is denied either way
        (review FK2: `tree $X > out.txt` and `git blame $X --contents x f` asked under ci).
        """
        tree = self.policy.tree
        default = self.policy.default
        rules = tree.candidates(words)
        found: RuleMatch | None = match
        while found is not None and found.uncertain:
            rule = found.rule
            rules = tuple(r for r in rules if r.ref is not rule)
            found = tree.decide(words, rules)
        if found is None:
            exception = _exception_reason(words, rules, default) if rules else None
            return exception or self._default_reason, False
        reason = _match_reason(found, "", default)
        return reason, found.readonly and reason.verdict is Verdict.ALLOW

    def _interpreter(
        self, spec: InterpreterSpec, name: str, view: OptionView, floors: list[Reason]
    ) -> None:
        inline = [o for o in view.options if o.name in spec.inline]
        if inline or (spec.program_operand and view.operands):
            how = f"`{inline[0].name}`" if inline else "its program operand"
            floors.append(
                _reason(spec.ref, spec.floor, f"runs code given inline ({how}) through `{name}`")
            )

    def _path_words(
        self, name: str, roles: PathRoles | None, inner: Sequence[Word], view: OptionView
    ) -> tuple[tuple[tuple[Word, str, bool], ...], bool, bool]:
        found: list[tuple[Word, str, bool]] = []
        recursive = (
            view.has(*_RECURSIVE)
            or name in _ALWAYS_RECURSIVE
            or (name in _CONTENT_READERS and _reads_trees(name, view, inner))
            # `du -a ~` and `fd -H . ~` list every name below, hidden ones too, as `ls -R`
            # does (review BE10: they listed `~/.ssh`'s files where `ls -R ~` is denied)
            or (name in _HIDDEN_LISTERS and view.has(*_HIDDEN_LISTERS[name]))
            or (name == "du" and _du_lists_below(view))
        )
        # a searcher's first operand is its pattern, unless `-e`/`-f` gave one, or rg only
        # lists files (`rg --files ~/.ssh` lists the names in `~/.ssh`: review BI5)
        given = _PATTERN_OPTIONS.get(name)
        patterns = 1 if given is not None and not view.has(*given) else 0
        if patterns and name == "rg" and view.has(*_RG_LISTING):
            patterns = 0
        if patterns and name in _JQ_FAMILY and any(_jq_program_like(w.value) for w in inner):
            patterns = 0  # jq takes `-0,.` for its program: every operand may be a file (AB1)
        if roles is not None:
            words = _role_words(roles, inner, view, recursive)
            first = min((*view.operands, *view.unknown), default=None)
            if patterns and first is not None and first in view.operands:
                # `grep .env notes.txt` reads notes.txt; `.env` is what it looks for
                words = (w for w in words if w[0] is not inner[first])
            found.extend(words)
            found.extend(_spilled_globs(roles, inner, found, recursive))
        if name == "zip" or name in _SEVEN_ZIP:
            found.extend(_pattern_folders(name, inner, view))
        if name in _CONDITIONAL_WRITERS:
            found.extend(_conditional_writes(name, inner, view))
        elif name in _FILE_SENDERS:
            found.extend(_sent_files(name, inner, view))
        elif name in _COMPRESSORS or name in _DECOMPRESSORS:
            found.extend(_compressed_names(name, inner, view))
        elif name == "rsync":
            found.extend(_rsync_folders(inner, view))
        elif name in _CLOUD_FILE_READERS:
            found.extend(_cloud_file_values(name, inner))
        if name in _COLON_LISTS:
            # `file -m A:B` reads each magic file of the list, and prints the lines of B it
            # cannot parse (review DE1: `file -m /dev/null:.env README` printed `.env`)
            found = _split_lists(found, ":")
        implicit = (
            roles is not None
            and roles.operands is OperandRole.READ
            and len(view.operands) <= patterns
            and (name in _IMPLICIT_CWD or (recursive and name in _SEARCHERS))
        )
        return tuple(found), implicit, implicit and recursive

    # -- approvals -----------------------------------------------------------------------
    def _command(self, name: str) -> _Command:
        """What the tables say about `name`; a versioned name of a program that runs code
        (`perl5.36.0`, `ruby3.1`, `python3.12-dbg`, `nodejs18`) is that program (review
        AF1: approving `perl5.36.0` approved `perl5.36.0 -e …`)."""
        found = self._commands.get(name)
        if found is not None:
            return found
        if not _VERSIONED.search(name):
            return _PLAIN_COMMAND
        base = name
        for _ in range(_MAX_VERSION_PARTS):
            base = _VERSIONED.sub("", base, count=1)
            found = self._commands.get(base)
            if found is not None:
                return found if found.runs_code else _PLAIN_COMMAND
        return _PLAIN_COMMAND

    def _runs_code(self, name: str) -> bool:
        return self._command(name).runs_code

    def _may_be_run(self, word: str) -> bool:
        """Whether `word` names a program that runs any code or command it is given (a
        shell, an interpreter, a wrapper: what an unknown program may be running), or an
        extractor (whose uses no approval covers). Not a builtin, which no program can
        run, nor a program's name that is also an everyday verb (`accelerate env`, `biff
        time`, `dnote view`)."""
        if word.startswith("-") or "=" in word:
            return False
        word = word.rpartition("/")[2]  # (`acme-wrap /bin/sh x.sh`)
        known = self._run_names.get(word)
        if known is not None:
            return known
        found = word not in _VERB_NAMES and (
            self._runs_code(word)
            # (not a wrapper named by a program and its verb: `"snap run"` is one word)
            or (" " not in word and self.policy.wrappers.get(word) is not None)
            or _extractor_name(word) in _EXTRACTORS
        )
        if len(self._run_names) >= _MAX_RENAMED:
            self._run_names.clear()
        self._run_names[word] = found
        return found

    def renamed(self, name: str) -> str | None:
        """The program the rules name that `name` renames (`gmake` → `make`), or None."""
        found = self._renamed.get(name, _UNSEEN)
        if found is _UNSEEN:
            found = _renamed_program(name, self.policy.tree)
            if len(self._renamed) >= _MAX_RENAMED:
                self._renamed.clear()
            self._renamed[name] = found
        return found  # type: ignore[return-value]  # (`_UNSEEN` is replaced above)

    def has_verb(self, name: str, operand: str) -> bool:
        """Whether `operand` is a verb of `name` rather than a script it runs: the arity
        table gives `name` verbs (`bun` = 2: `bun install`), and `operand` is not named
        like a file (`bun x.ts`, `bun ./build`)."""
        if _VERBLESS.fullmatch(name) and self.policy.arity.key_length((name, operand)) < 2:
            # `python3 tool` runs the file `tool`: `"python3" = 2` keeps the script in the
            # suggestion, python has no verbs (review BR10: the suggestion was not anchored)
            return False
        return (
            len(self.policy.arity.prefix((name, operand))) > 1
            and "/" not in operand
            and not self.names_script(operand)
        )

    def names_script(self, value: str) -> bool:
        """Whether `value` is named like a script file (`x.sh`, `x.py`): what a runner
        (`uv run x.py`) runs when it is its command."""
        return _SCRIPT_NAME.search(value) is not None or _RUN_SCRIPT_NAME.search(value) is not None

    def runs_script(self, name: str, operand: str, *, ruled: bool = True) -> bool:
        """Whether `NAME OPERAND` runs the script OPERAND names (as its suggestion keeps)."""
        return self._runs_code(name) or (not ruled and _SCRIPT_NAME.search(operand) is not None)

    def verb_script_at(self, values: Sequence[str | None], start: int) -> int | None:
        """Where the relative script of a verb that runs one is (`nim r x.nim`, `stack
        runghc x.hs`, `dart run bin/x.dart`: `_SCRIPT_VERBS`), for the command at `start`;
        None for another command or operand (review FL14)."""
        if not is_script_verb(values[start : start + 2]) or start + 2 >= len(values):
            return None
        operand = values[start + 2]
        if not operand or operand[0] in "-/":
            return None
        return start + 2 if "/" in operand or self.names_script(operand) else None

    def suggest(
        self, inner: Sequence[Word], view: OptionView, *, ruled: bool = True
    ) -> tuple[str, ...] | None:
        """The arity prefix to offer as "always allow"; never an interpreter's bare name.

        `ruled`: some rule names the command (`pytest tests/x.py` is offered as `pytest`;
        a program no rule names, run on a script, keeps the script)."""
        values: list[str] = []
        for word in inner:
            if word.value is None:
                break
            values.append(word.value)
        if not values or _GIT_HELPER.fullmatch(values[0].rpartition("/")[2]):
            # `git-log`: git by another name, without the checks `git log` gets (BR1)
            return None
        if len(values) < 2 and values[0].rpartition("/")[2] in _VERB_ONLY:
            return None  # bare `scalar` would approve every verb (review BT5)
        if _gem_exec_exact(values):
            # `gem exec bundler --version` offered `gem exec bundler`, which approved
            # `gem exec bundler exec ruby evil.rb` (review GW4): the line only, exactly
            return (*values, EXACT_END) if len(values) == len(inner) else None
        found = self._suggest_values(values, bool(view.unknown), 0, ruled=ruled)
        if found is not None and is_exact(found) and len(values) < len(inner):
            return None  # (a word that cannot be known: no exact rule can match the line)
        if found is not None and len(found) == 1 and len(values) == len(inner) > 1:
            if _loads_app_for_help(values):
                return None
            found = self._help_only(values) or found
        if found is not None and not is_exact(found) and len(values) == len(inner):
            found = _manifest_help_offer(found, values) or found
        start = _unknown_module(values)
        if found is not None and start is not None and len(found) == start < len(values):
            found = self._unknown_module_offer(values, start)
        if found is not None and _config_printer(found):
            # review GH1: only compose's listing lines, exactly
            found = (*values, EXACT_END) if _lists_only(found, values) else None
        if found is not None:
            found = _compose_offer(found, values)
        return found

    def _help_only(self, values: Sequence[str]) -> tuple[str, ...] | None:
        """The exact rule of a line whose words after the program only ask for its help or
        version (`X -h $`, `X --version $`), where the bare name would be offered: that
        approval covered every verb (review FV-widen W15: `VBoxManage -h` approved
        `VBoxManage extpack install x`, `fastapi --help` `fastapi run x.py`). Not for a
        program that runs code or starts a session (`_exact`'s exclusions)."""
        # a help or version word anywhere, in any spelling (`-q --version`, `--help-all`,
        # `-h run`, `-v`, `--ver`, `-hv`: reviews FX6, FY3): the line's exact words are all
        # a person approves, where the bare name covered every verb; a listing option too
        # (review GH4: `task --list`, `mytool --list` approved `task deploy`, `mytool deploy`)
        if not any(_helpish(value) or _listish(value, values[0]) for value in values[1:]):
            return None
        base = values[0].rpartition("/")[2]
        if self._runs_code(values[0]) or self._runs_code(base) or base in _NO_EXACT:
            return None
        return (*values, EXACT_END)

    def _module_help(self, line: Sequence[str]) -> tuple[str, ...] | None:
        """`suggest`'s help-only rule for a tool run by `python3 -m` (`line` read as the
        program's own line): its help line exactly, nothing for flask's help (which runs the
        app), the bare program otherwise (review GH3: `python3 -m flask --help` was offered
        `python3 -m flask`, which approved `python3 -m flask routes`)."""
        if _loads_app_for_help(line):
            return None
        return self._help_only(line) or (line[0],)

    def _unknown_module_offer(
        self, values: Sequence[str], start: int
    ) -> tuple[str, ...] | None:
        """The suggestion of `python3 -m MODULE ARGS` for a module the tables do not know,
        where `python3 -m MODULE` alone was found (review GH3: `python3 -m X --help`
        approved the module's every verb): its help or listing line exactly, its verb
        with it (as for a program no table knows: review AH3), nothing where it may run
        a program it is given, the module alone before a path (`python3 -m venv .venv`)."""
        line = (values[start - 1], *values[start:])
        offer = self._module_help(line)
        if offer is None or len(offer) > 1:
            return None if offer is None else (*values[:start], *offer[1:])
        if any(self._may_be_run(v) for v in values[start : start + _WRAPPED_SPAN]):
            return None  # (a wrapper the tables miss: review CM5)
        if values[start].startswith("-"):
            return None  # an option where its verb would be says nothing of it (GL2)
        if _VERB.fullmatch(values[start]):
            return tuple(values[: start + 1])
        return tuple(values[:start])  # (`python3 -m venv .venv` → `python3 -m venv`)

    def _exact(
        self, values: Sequence[str], words: Sequence[str], depth: int
    ) -> tuple[str, ...] | None:
        """The exact rule of the line's words (`make $`, `npm run $`, `make -j4 $`), where no
        prefix can be offered: it approves that line and no other. Not for a program that
        runs code or commands it is given (an interpreter, a shell, a wrapper), nor for a
        tool run by `python -m` (`depth`), nor past `_MAX_EXACT_WORDS` words."""
        if depth or not values or len(values) > _MAX_EXACT_WORDS:
            return None
        if (
            any(value.startswith(("-", "+")) for value in values[1:])
            and not _only_job_limits(words)
            and not all(_listish(value, values[0]) for value in values[1:])  # (GH4)
        ):
            # an option before the verb hides the verb from the rules that name it: `ip -4
            # vrf exec … sh x`, `tmux -2 saveb F`, `ip -b FILE` read by no locked rule
            # (review DF1, DF2), and an option's value says nothing of what follows
            return None
        base = values[0].rpartition("/")[2]
        if self._runs_code(words[0]) or self._runs_code(base) or base in _NO_EXACT:
            return None
        return (*values, EXACT_END)

    def _script_verb_prefix(
        self, values: Sequence[str], words: Sequence[str], depth: int
    ) -> tuple[str, ...] | None:
        """The suggestion of a verb that runs the script after it (`nim r x.nim`): the
        verb with that script, which the evaluator makes absolute; never the verb alone,
        which approved every script (review FL14). Alone (`dart run`: the package's own
        program), only that line; past an option or a descriptor, nothing."""
        if len(values) < 3:
            return self._exact(values, words, depth)
        operand = values[2]
        if operand.startswith("-") or names_descriptor(operand):
            return None
        return tuple(values[:3])

    def _toolchain_suggestion(
        self, values: Sequence[str], unknown: bool, depth: int
    ) -> tuple[str, ...] | None:
        """The suggestion of a rustup proxy given a toolchain (`cargo +stable tree`): the
        one of the line without it, the toolchain kept, since `+stable` is no verb (review
        GJ2: `cargo +stable` was offered, which approved `cargo +stable run`). A toolchain
        given by a path (`+/abs/tc`) runs that folder's programs: nothing is offered."""
        if not _TOOLCHAIN_WORD.fullmatch(values[1]):
            return None
        rest = (values[0], *values[2:])
        inner = self._suggest_values(rest, unknown, depth, ruled=self._ruled(rest))
        if len(rest) > 1 and (inner is None or len(inner) == 1):
            # (as `suggest` does: `rustc --version $`), also where the line without the
            # toolchain offers nothing: `rustc +nightly -V` got no offer (review GL7)
            inner = self._help_only(rest) or inner
        if inner is None:
            return None
        return (values[0], values[1], *inner[1:])

    def _scoped_suggestion(
        self, values: Sequence[str], end: int, unknown: bool, depth: int
    ) -> tuple[str, ...] | None:
        """The suggestion of `pnpm recursive VERB …` or `yarn workspace NAME VERB …`
        (`values[1:end]` the prefix): the one of the line without it, the prefix kept, so
        the verb is part of it (review HB1, HB2: `pnpm recursive why x` offered `pnpm
        recursive`, which approved `pnpm recursive publish`); nothing where that is the
        bare program."""
        rest = (values[0], *values[end:])
        inner = self._suggest_values(rest, unknown, depth, ruled=self._ruled(rest))
        if inner is None or len(inner) < 2:
            return None
        return (*values[:end], *inner[1:])

    def _held_by_program(self, values: Sequence[str]) -> bool:
        """Whether a clause of the program a package runner's line runs asks or denies
        it, in any reading of the line (`package_bin_variants`): approved, the line would
        still not be allowed (`yarn gulp -- -f /tmp/x.js`), so nothing is offered (HY1)."""
        words = [Word(text=v, value=v, span=Span(0, 0)) for v in values]
        return any(
            not found.unruled
            and found.verdict is not Verdict.ALLOW
            and found.exception
            and found.reason is not None
            for found in self.package_bin_variants(words)
        )

    def _ruled(self, values: Sequence[str]) -> bool:
        """Whether a rule of the policy (not its `default`) names the command `values`,
        as `suggest`'s `ruled` says of a segment (review CZ9)."""
        words = [Word(text=v, value=v, span=Span(0, 0)) for v in values]
        found = self.policy.lookup(words)
        return found is not None and found.specificity > (0,)

    def _suggest_values(
        self, values: Sequence[str], unknown: bool, depth: int, *, ruled: bool = True
    ) -> tuple[str, ...] | None:
        tool = module_tool(values)
        if tool is not None and depth < 2:
            # `python3 -m uv sync` is `uv sync`: offered with the verb uv's own line gets,
            # read as a program no rule names where the tables do not know it (review CV2:
            # `python3 -m uv` approved `python3 -m uv run bash`; CY4: `python3 -m coverage
            # report` offered `python3 -m coverage`, which approved `coverage run`)
            program, start = tool
            if not program:
                return None  # `python3 -m uv.cli x`: a module of the tool, approved once
            line = (program, *values[start:])
            inner = self._suggest_values(line, unknown, depth + 1, ruled=self._ruled(line))
            if inner is not None and len(inner) == 1 < len(line):
                inner = self._module_help(line)
            if inner is None:
                return None
            return (*values[:start], *inner[1:])
        # npm's other names and abbreviations of its verbs (`npm rum x`, `npm run-scrip x`,
        # `npm create x` are `npm run x`, `npm init x`) take the arity of the verb they name
        # (review BR4: `npm run-script build` offered `npm run-script`, every script)
        # a program by another name has the arity of the one it renames: `go1.22.1 build`,
        # `pip3.11 install x`, `gmake build` offered the bare name, which approved `go1.22.1
        # generate`, `pip3.11 download`, `gmake deploy` (every verb and target)
        words = values
        renamed = self.renamed(values[0].rpartition("/")[2]) if values else None
        if renamed is not None and " " not in renamed:
            words = (renamed, *values[1:])
        base = words[0].rpartition("/")[2] if words else ""
        if base in _TOOLCHAIN_PROXIES and len(values) > 1 and values[1].startswith("+"):
            return self._toolchain_suggestion(values, unknown, depth)
        if base == "cargo" and len(values) > 1 and values[1] in _CARGO_TOKEN_VERBS:
            # a registry write with the user's token: `cargo owner` offered for `cargo owner
            # --list serde` approved `cargo owner --add evil crate` (review GJ4)
            return (*values, EXACT_END) if len(values) <= _MAX_EXACT_WORDS else None
        if is_script_verb(words[:2]):
            return self._script_verb_prefix(values, words, depth)
        if package_scopes_unread(values):
            return None  # (what the line runs is not read: review HY2)
        if yarn_rc_word(values) is not None:
            return None  # (yarn 1 runs the `yarn-path` of a `--use-yarnrc` file: IB2)
        if (
            base in ("yarn", "yarnpkg")
            and "workspaces" in values[1:]
            and "run" in values[values.index("workspaces") + 1 :]
            and _scope_cut("yarn", values) is None
        ):
            return None  # (bare `yarn workspaces` approved `yarn workspaces run X`: IB4)
        if (
            base in ("yarn", "yarnpkg")
            and "workspaces" in values[1:]
            and _scope_cut("yarn", values) is None
        ):
            # any other `yarn workspaces` line (`info`, `list`, `focus`, `--silent info`) is
            # offered exactly: bare `yarn workspaces` approved `yarn workspaces --silent run
            # lint`, berry's `workspaces foreach --all run lint` and `workspaces focus`,
            # which installs and runs the workspaces' scripts (review ID2)
            return (*values, EXACT_END) if len(values) <= _MAX_EXACT_WORDS else None
        explicit = package_bin_line(values, explicit=True)
        if explicit is not None and self._held_by_program(values):
            # approved, the program's clause would still hold the line: yarn 1 hands the
            # program the words after the `--` it removes (`yarn gulp -- -f /tmp/x.js` runs
            # `gulp -f /tmp/x.js`: `yarn gulp` was offered, review HY1); `yarn vim`, `yarn
            # terraform plan` were offered and still asked (HY4). `yarn test -- --watch`
            # keeps its offer
            return None
        scope = _scope_cut(base, values) if base in ("pnpm", "yarn") else None
        if scope is not None and scope[0] == 1 and scope[1] > 3 and values[1] == "workspace":
            # `yarn workspace --silent a build`, `yarn workspace -- a exec CMD`: an option
            # or `--` before the NAME says nothing of what follows; an approval of them
            # covered every verb of the workspace (review HH1)
            return None
        if scope is not None and scope[0] == 1:
            return self._scoped_suggestion(values, scope[1], unknown, depth)
        bin_line = package_bin_line(values)
        if _lists_project(words) or (
            bin_line is not None
            and (
                _lists_project(bin_line)
                or _loads_app_for_help(bin_line)
                or (len(bin_line) == 1 and program_name(bin_line[0]) in _BARE_LISTS)
            )
        ):
            # `rake -T`, `mix help`, `mvn help:describe`: a listing or help that loads the
            # project's code to answer; its approval looked harmless (review BW)
            return None
        bare = _BARE_LISTS | _BARE_RUNS_DEFAULT | {"go-task"}
        if len(values) == 1 and program_name(base) in bare:
            # bare `mage` lists its targets, bare `gulp` runs its default one: the bare
            # program's approval covered every target (review HR4)
            if program_name(base) in _BARE_LISTS:
                return None
            return self._exact(values, words, depth)
        spelled = _npm_verb(words)
        prefix = self.policy.arity.prefix(words if spelled is None else spelled)
        prefix = tuple(values[: len(prefix)])
        if len(prefix) < self.policy.arity.arity(words if spelled is None else spelled):
            # `npm`, `git`, `npm run`, `tmux` alone: a prefix short of the verb would approve
            # every verb (the approval oracle: bare `tmux` approved `tmux saveb FILE`,
            # bare `npm` `npm install x`): only the line itself, exactly
            return self._exact(values, words, depth)
        named = max(1, self.policy.arity.key_length(words))  # `python3 -m` names its `-m`
        if any(word.startswith("-") for word in prefix[named:]):
            # `systemctl --user`: an option says nothing of what follows
            return self._exact(values, words, depth)
        instance = len(prefix) == 1 and values[0].rpartition("/")[2] in (
            containers.INSTANCE_PROGRAMS
        )
        if instance and len(values) == 1:
            # bare `lxc` (its help) was offered bare `lxc`, which approved every verb (the
            # same hole as IC6): that line exactly
            return self._exact(values, words, depth)
        if instance and values[1].startswith("-"):
            # `lxc --project p launch img c`, `lxc -d launch …`: an option before the verb
            # is the verb's (cobra), and bare `lxc` approved every verb, `exec` and
            # `delete` among them (review HZ1): the line exactly (no rule names lxc's
            # verbs; the engine reads its options wherever they stand), and only where the
            # line without them is offered something (review IC5: `lxc -q exec c -- bash`
            # was offered exactly, `lxc exec c -- bash` nothing)
            if depth or len(values) > _MAX_EXACT_WORDS:
                return None
            places = containers.cobra_verbs(
                values[1:], containers.INSTANCE_SWITCHES, (), containers.INSTANCE_EITHER
            )
            if not places:
                return None  # (a word that is not literal may be the verb)
            for place in places:  # (every place the verb may be: old lxc's `-d`)
                plain = (values[0], *values[place + 1 :])
                if self._suggest_values(plain, unknown, depth, ruled=self._ruled(plain)) is None:
                    return None
            return (*values, EXACT_END)
        if instance and not _VERB.fullmatch(values[1]):
            # `lxc '' list`, `lxc "" launch img c`: an empty word (or any that is no verb)
            # where the verb stands was offered bare `lxc`, which approved `lxc delete -f
            # c` and `lxc exec c -- bash` (review IC6): nothing
            return None
        if len(prefix) < 2 and (
            self._runs_code(words[0])
            or (not ruled and len(values) > 1 and _SCRIPT_NAME.search(values[1]))
        ):
            # `python3 x.py` → `python3 x.py`; `python3 -c …` → nothing to offer; and a
            # program no table names, run on a script (`fish x.fish`, `raku x.raku`), is
            # offered with its script too, never bare (review AF1)
            if len(values) < 2 or values[1].startswith("-") or unknown:
                return None
            if names_descriptor(values[1]):
                # `python3 /dev/stdin`, `source /dev/fd/5`: the script is whatever the
                # input gives, so its approval would cover any code (review ET1, ET2)
                return None
            prefix = tuple(values[:2])
        unknown_program = not ruled and self.policy.arity.key_length(words) == 0
        if (
            unknown_program
            and any(v in _INLINE_CODE_OPTIONS for v in values[1:3])
            and self.renamed(values[0]) is None  # `gcc-12 -c x.c`
        ):
            # `rhino -e CODE`, `oksh -c CMD`, `toybox sh -c CMD`, `gnome-terminal -- CMD`:
            # a program the tables miss, given code inline; approving its name would
            # approve any code (review AG3): approved once instead
            return None
        if (
            unknown_program
            and len(prefix) == 1
            and len(values) > 1
            and _VERB.fullmatch(values[1])
            and not self._runs_code(words[0])
        ):
            # a program no rule or arity entry knows: its first word may be a verb
            # (`meson compile`): offered with it, since the bare name would approve every
            # verb, those that run any command among them (review AH3)
            prefix = tuple(values[:2])
        if (
            len(prefix) == 1 < len(values)
            and program_name(base) in _OPTION_FIRST_EXACT
            and not any(_helpish(v) or _listish(v, values[0]) for v in values[1:])
        ):
            # (a help or listing line is `suggest`'s: `tox --version` loads the project)
            # `tox -e py`, `ant -d build`, `nox -s lint`: an option where a target would be
            # says nothing of what follows; the bare name approved every environment and
            # target (`tox -e deploy`, `ant deploy`) and the task listing (`tox -l`) that
            # loads the project's code (review CF3): the line itself, exactly
            if len(values) > _MAX_EXACT_WORDS or self._runs_code(words[0]):
                return None
            return (*values, EXACT_END)
        if len(prefix) > 1 and words[0].rpartition("/")[2] in TARGET_TAKERS:
            # `mvn clean package`: every goal, since an approval covers the ones it names
            rest = values[len(prefix) :]
            more = itertools.takewhile(lambda v: _TARGET.fullmatch(v) is not None, rest)
            prefix = (*prefix, *more)
        if (
            len(prefix) > 1
            and len(values) > len(prefix)
            and _READING_VERB.fullmatch(values[len(prefix)])
        ):
            # `gcloud compute snapshots describe x`, `docker node ls`, `npm dist-tag ls`: a
            # group of verbs whose prefix approved would approve its deletes too (the
            # approval oracle, run 2: `gcloud compute snapshots delete`, `docker node rm`)
            prefix = (*prefix, values[len(prefix)])
        size, runner = self.policy.runners.find(words)
        if size == 0:
            if unknown_program and any(self._may_be_run(v) for v in values[1:_WRAPPED_SPAN]):
                # a program no table knows, given a program's name: it may be a wrapper
                # the tables miss, whose approval would approve what it runs (review CM5:
                # `eatmydata ar`, `gosu root sh` were offered): approved once instead
                return None
            return prefix
        # a runner's approval never reaches the command it runs (`_Walk.approved_runner`):
        # offer the runner with that command's own suggestion (`strace ls`, `poetry run
        # pytest`, `uv run python x.py`, not `uv run python`), or nothing when an option
        # comes first (`strace -f ls`, `tmux -L s new ls`), there is no command, or where
        # the command starts cannot be told (`faketime 2020-01-01 CMD`: review U)
        if not self.policy.runners.is_exact(runner) or len(values) == size:
            return None
        if any(v.startswith("-") for v in values[1 : size + 1]):
            return None
        if depth >= _MAX_SUGGESTION_DEPTH:
            return None
        inner = self._suggest_values(values[size:], False, depth + 1)
        return None if inner is None else (*values[:size], *inner)


# the verbs that read or list, after a group's prefix (`gcloud sql backups describe`,
# `kubectl auth can-i`, `npm pkg get`, `gcloud container images list-tags`)
_READING_VERB: Final = re.compile(
    r"(?:list|ls|describe|get|show|view|status|inspect|info|can-i|cat|search|logs|history"
    r"|explain)(?:-[a-z0-9-]+)?"
)
_MAX_SUGGESTION_DEPTH = 4  # runners inside runners (`poetry run strace ls`)
# the words after an unknown program's name looked at for a program it may run (options
# first: `sshpass -p x tar xf h.tar`, review CN8)
_WRAPPED_SPAN = 6
# (`RuleView._may_be_run`): builtins, and programs' names that tools take as verbs
_VERB_NAMES: Final = frozenset(
    {".", "source", "command", "builtin", "exec", "eval", "trap", "coproc", "time", "env",
     "view", "help"}
)  # fmt: skip
# programs offered with a verb only: their bare name covers verbs that run git with the
# repository's configuration, register it for background jobs or delete it
# programs whose path options take a list of paths (`file -m A:B`, review DE1)
_COLON_LISTS: Final = frozenset({"file"})
_VERB_ONLY: Final = frozenset({"scalar"})
# the words that ask a program for its help or version only (`_help_only`)
def _listish(value: str, program: str) -> bool:
    """Whether a word may ask `program` to list its tasks or targets (`--list`,
    `--list-all`, `--summary`; a build tool's `-l`, rake's `-T`), which `_help_only`
    offers exactly: the bare name approved every task (review GH4). (`-l` is more often a
    count or a login elsewhere: `split -l 10`, and make's and ninja's load limit: GL6.)"""
    if value.startswith(("--list", "--summary", "--tasks")):
        return True
    return program_name(program.rpartition("/")[2]) in _SHORT_LISTINGS.get(value, ())


# the short options that list a task runner's tasks (review GH4, GL6)
_SHORT_LISTINGS: Final = {
    "-l": frozenset({"just", "task", "go-task", "invoke", "inv", "mage", "snakemake"}),
    "-T": frozenset({"rake"}),
}


# programs besides flask (whose help loads the project's app, after its `.env`: review
# GH7, `flask --help` imports `app.py` to list its commands; `flask --version` does not)
# whose help loads the project's configuration or plugins (review HQ: real pytest
# imports `conftest.py` for `--help`, scons runs the `SConstruct`, hardhat loads
# `hardhat.config.js`, nx hands off to the workspace's own copy; grunt's Gruntfile,
# jest's config, suspected; gulp's `.gulp.js`, cake's and jake's task files, review BW,
# suspected) ...
# (review HT2, by fixer CA: poe's help lists its tasks, reading `include_script`, and waf's
# runs the `wscript`: suspected)
_APP_HELP: Final = frozenset(
    {"pytest", "py.test", "scons", "hardhat", "nx", "grunt", "jest", "gulp", "cake", "jake",
     "poe", "waf"}
)  # fmt: skip
# ... and those that load it for their version too (real poetry runs `.poetry/plugins`
# and turbo the workspace's own binary before reading an option; rails runs `bin/rails`,
# pdm its project plugins, tox a `toxfile.py`, rebar3 a `rebar.config.script`: suspected)
_APP_VERSION: Final = frozenset({"poetry", "turbo", "rails", "pdm", "tox", "rebar3"})


# programs whose task listing loads the project's code (review BW: real rake runs the
# `Rakefile` for `-T`; invoke and fab import `tasks.py`/`fabfile.py`, mage compiles and
# runs the magefile, gulp, jake, cake require their `gulpfile.js`/`Jakefile`/`Cakefile`,
# nox imports `noxfile.py`, ant runs a `build.xml`'s top-level tasks: suspected): their
# listing options (besides `_listish`'s `--list…`, `--tasks…`, `--summary`)
_PROJECT_LISTINGS: Final = {
    "rake": frozenset({"-T", "-P", "--prereqs", "-D", "--describe", "-W", "--where", "-AT"}),
    "jake": frozenset({"-T", "-ls"}),
    "invoke": frozenset({"-l"}),
    "inv": frozenset({"-l"}),
    "fab": frozenset({"-l"}),
    "mage": frozenset({"-l"}),
    "gulp": frozenset({"-T"}),
    "nox": frozenset({"-l"}),
    "ant": frozenset({"-p", "-projecthelp"}),
    "cake": frozenset(),
    # (review HR4-HR6, by fixer BY: go-task runs the Taskfile's `sh:` variables for its
    # listings (go-task issues #332, #1322); capistrano's `-T` loads the `Capfile`, thor's
    # the `Thorfile`, phing's `-l` the `build.xml`, tox's `-l`/`-a` a `toxfile.py`, rails'
    # `--tasks` the app, cargo-make's `makers` the `Makefile.toml`'s scripts: suspected)
    "task": frozenset({"-l", "-a", "--list-all"}),
    # (review HT2, by fixer CA: snakemake's `-l` evaluates the `Snakefile`; mage's `-h
    # TARGET` compiles the magefile: suspected)
    "snakemake": frozenset({"-l", "--lt"}),
    "cap": frozenset({"-T", "--tasks", "-D", "--describe", "-P", "--prereqs", "-W", "--where"}),
    "thor": frozenset({"-T"}),
    "phing": frozenset({"-l", "-list", "-p", "-projecthelp"}),
    "tox": frozenset({"-l", "-a", "--listenvs", "--listenvs-all"}),
    "rails": frozenset({"-T", "--tasks"}),
    "makers": frozenset({"--print-steps"}),
    "doit": frozenset(),
    "poe": frozenset(),
}
# ... and the verbs that list or help, and load it (review BW: mix evaluates `mix.exs` for
# `mix help` (not for `mix --help`), rebar3 a `rebar.config.script`, vagrant the
# `Vagrantfile` (its project plugins), poetry its project plugins, bazel the workspace's
# `.bazelrc` (its server's JVM) and bazelisk `tools/bazel`, doit `dodo.py`, gradle its
# build scripts, sbt `build.sbt`: suspected; real mvn loads `.mvn/jvm.config`'s agents
# for any goal, its help plugin's too)
_PROJECT_HELP_VERBS: Final = {
    "mix": frozenset({"help"}),
    "rebar3": frozenset({"help"}),
    "vagrant": frozenset({"help", "list-commands"}),
    "poetry": frozenset({"help", "list", "about"}),
    "bazel": frozenset({"help", "version", "info", "query", "cquery", "aquery"}),
    "bazelisk": frozenset({"help", "version", "info", "query", "cquery", "aquery"}),
    "doit": frozenset({"list", "help", "info"}),
    "gradle": frozenset({"tasks", "help", "projects", "properties"}),
    "gradlew": frozenset({"tasks", "help", "projects", "properties"}),
    "sbt": frozenset({"tasks", "help", "about"}),
    # (review HR4, HR6, by fixer BY: thor's `Thorfile`, tox's `toxfile.py`, lein's
    # `project.clj`, robo's `RoboFile.php`, nx's and lerna's workspace plugins and config,
    # poetry's project plugins: suspected)
    "thor": frozenset({"list", "help"}),
    "tox": frozenset({"list", "l", "config", "c", "depends", "de"}),
    "lein": frozenset({"help", "tasks"}),
    "robo": frozenset({"list", "help"}),
    "nx": frozenset({"show", "list", "report", "help", "graph", "dep-graph"}),
    # (review HT2, by fixer CA: these rails verbs boot the app, as `rails -T` does)
    "rails": frozenset({"routes", "about", "notes", "stats", "middleware", "initializers"}),
    "lerna": frozenset({"list", "ls", "la", "ll", "info"}),
    "cap": frozenset({"help"}),
    "phing": frozenset(),
}
# ... the verbs of a verb that list and load it (review HR6: `hatch env show` loads the
# project's environment plugins)
_PROJECT_HELP_SUBVERBS: Final = {("hatch", "env"): frozenset({"show", "find"})}
# task runners whose bare line lists the tasks, loading the project's code (mage compiles
# and runs the magefile, poe reads its tasks, cap, thor and cake load their task files:
# review HR4): offered nothing; the other task runners' bare line runs their default
# target, and is offered only exactly (`gulp` had approved `gulp deploy`)
_BARE_LISTS: Final = frozenset({"mage", "poe", "cap", "thor", "cake"})
_BARE_RUNS_DEFAULT: Final = frozenset(
    {"gulp", "ant", "phing", "doit", "nox", "tox", "jake", "grunt", "makers"}
)
# ... of which those whose line with an option where a target would be (`tox -e py`, `ant
# -d build`, `nox -s lint`) is offered exactly, not as the bare program (review CF3; gulp
# and grunt keep their offers here: their lines are another fixer's, `gulp --silent`)
_OPTION_FIRST_EXACT: Final = _BARE_RUNS_DEFAULT - {"gulp", "grunt"}


# task runners' other names, read as the name the tables give (review HT2: go-task is the
# name some systems give task's program)
_OTHER_NAMES: Final = {"go-task": "task"}
# the package runners that run a package's program named by their first operand (`yarn
# gulp`, `npx gulp`, `npm exec gulp`: review HT2)
_PACKAGE_BIN_RUNNERS: Final = frozenset({"yarn", "yarnpkg", "pnpm", "pnpx", "npx", "bunx"})
_PACKAGE_BIN_VERBS: Final = frozenset({"exec", "x", "dlx"})
# the options of yarn's line (yarn 1's and berry's) that take the next word as their
# value, and those that take none; pnpm's (`PNPM_FLAGS`, and these with a value: pnpm
# reads the value where its own verb follows, `pnpm -C d exec gulp`, but may read it as
# the command otherwise: `pnpm -C d gulp` ran `d`)
_YARN_VALUE_OPTIONS: Final = frozenset(
    {"--cwd", "--modules-folder", "--cache-folder", "--mutex", "--network-concurrency",
     "--network-timeout", "--registry", "--proxy", "--https-proxy", "--link-folder",
     "--global-folder", "--preferred-cache-folder", "--use-yarnrc", "--otp"}
)  # fmt: skip
_YARN_FLAGS: Final = frozenset(
    {"-s", "--silent", "--verbose", "--offline", "--prefer-offline", "--json",
     "--no-progress", "--non-interactive", "--ignore-engines", "--no-default-rc",
     "--frozen-lockfile", "--ignore-scripts"}
)  # fmt: skip
_PNPM_VALUE_OPTIONS: Final = frozenset({"-C", "--dir", "-F", "--filter", "--filter-prod"})
# berry's `workspaces foreach` options that take the next word as their value
_FOREACH_VALUE_OPTIONS: Final = frozenset({"--from", "--include", "--exclude", "-j", "--jobs"})


def package_bin_line(values: Sequence[str], *, explicit: bool = False) -> Sequence[str] | None:
    """The line of the package's program a package runner's line may run (`yarn nx show
    projects` → `nx show projects`, `npm exec -- lerna list` → `lerna list`), None for
    another line: its listing loads the project's code as the program's own does, and
    gets no offer either (review HT2: `yarn task --list` was offered `yarn task`; yarn's
    `run BIN` too, review HV3). With `explicit`, only a line whose program is read as its
    runner reads it: by a runner's verb or as a runner's first word (`npx gulp`, `yarn
    exec gulp`, `yarn run gulp`), or, for yarn and pnpm, a first word that is none of
    their own commands (`yarn gulp`, `pnpm gulp`: they run the script of that name, or
    the program of `node_modules/.bin`), also after yarn's `workspace NAME` and berry's
    `workspaces foreach`, pnpm's `recursive` and their options (review HX4). `pnpm view
    lodash` is no line of the editor `view` (pnpm's first word, a command it hands to
    npm): the verdict's reading, where a wrong program would ask for nothing (review
    HX)."""
    if len(values) < 2:
        return None
    name = program_name(values[0].rpartition("/")[2])
    manager = {"yarnpkg": "yarn", "pn": "pnpm"}.get(name, name)
    if manager in ("yarn", "pnpm"):
        start = _manager_bin_start(manager, values)
        if start is not None or explicit:
            return values[start:] if start is not None else None
    if name not in _PACKAGE_BIN_RUNNERS and name not in ("npm", "bun"):
        return None
    index = 1
    while index < len(values) and values[index].startswith("-") and values[index] != "--":
        index += 1
    if index < len(values) and values[index] in _PACKAGE_BIN_VERBS:
        index += 1
    elif index < len(values) and values[index] == "run" and name in ("yarn", "yarnpkg"):
        # yarn 1's `run BIN` runs node_modules/.bin's BIN where no script has that name
        # (review HV3: `yarn run gulp --gulpfile /tmp/x.js` ran under `yarn run gulp`);
        # pnpm's and npm's `run` run scripts alone
        index += 1
    elif name in ("npm", "bun"):
        return None
    while index < len(values) and values[index].startswith("-"):
        index += 1  # (`npx --yes gulp`, `npm exec -- lerna list`)
    return values[index:] if index < len(values) else None


def _manager_bin_start(program: str, values: Sequence[str]) -> int | None:
    """Where the program a yarn or pnpm line runs starts (`package_bin_line`): past their
    options, yarn's `workspace NAME` (yarn 1 and berry run `yarn COMMAND…` in the
    workspace) and berry's `workspaces foreach OPTIONS`, pnpm's `recursive`; then past
    `exec`, `dlx` (and yarn's `run`, which runs a program where no script has its name),
    or at a first word that is none of the manager's own commands. None where the line
    cannot be read so (an option not known, whose value may be the command, or `--`)."""
    start, _overflow, _verb = _manager_scan(program, values)
    return start


def package_scopes_unread(values: Sequence[str | None]) -> bool:
    """Whether a yarn or pnpm line nests more scopes (`workspace NAME`, `workspaces
    foreach|run`, `recursive`) than are read (`_MAX_SCOPES`): what it runs is not known,
    so it is offered nothing and an approval does not cover it (review HY2)."""
    if len(values) < 2 or any(v is None for v in values):
        return False
    name = program_name((values[0] or "").rpartition("/")[2])
    manager = {"yarnpkg": "yarn", "pn": "pnpm"}.get(name, name)
    if manager not in ("yarn", "pnpm"):
        return False
    return _manager_scan(manager, [v for v in values if v is not None])[1]


def _yarn_line(values: Sequence[str | None]) -> bool:
    """Whether `values` is a yarn line (`yarn`, `yarnpkg`)."""
    if len(values) < 2 or values[0] is None:
        return False
    return program_name(values[0].rpartition("/")[2]) in ("yarn", "yarnpkg")


def yarn_require_flags(values: Sequence[str | None]) -> frozenset[int]:
    """The indexes of the `--require` words of a yarn line's `run` options, which yarn 1
    reads as a plain flag (`yarn run --require gulp -f /tmp/x.js` runs `gulp -f
    /tmp/x.js`) where berry takes the next word as a MODULE (review IB1)."""
    if not _yarn_line(values) or any(v is None for v in values):
        return frozenset()
    literal = [v for v in values if v is not None]
    verb = _manager_scan("yarn", literal)[2]
    if verb is None or literal[verb] != "run":
        return frozenset()
    found: set[int] = set()
    index = verb + 1
    while index < len(literal) and literal[index].startswith("-") and literal[index] != "--":
        if literal[index] == "--require":
            found.add(index)
        index += 1
    return frozenset(found)


def yarn_rc_word(values: Sequence[str | None]) -> str | None:
    """A word of a yarn line that is, or may be, `--use-yarnrc` (not literal, or a
    pattern that may expand to it): yarn 1 loads `--use-yarnrc FILE` from anywhere on its
    line, past any `--`, before all else, and runs the `yarn-path` that file names in
    place of itself (review IB2). None for another line."""
    if not _yarn_line(values):
        return None
    for value in values[1:]:
        if value is None:
            return "a word that is not literal"
        if value == "--use-yarnrc" or (
            any(c in value for c in "*?[") and fnmatch.fnmatchcase("--use-yarnrc", value)
        ):
            return value
    return None


def yarn_drops_dash(values: Sequence[str | None]) -> bool:
    """Whether `values` is a yarn line (`yarn`, `yarnpkg`) with a `--`, which yarn 1
    removes (the first one, anywhere) before handing the rest on (review HY1)."""
    return _yarn_line(values) and "--" in values[1:]


def _manager_scan(program: str, values: Sequence[str]) -> tuple[int | None, bool, int | None]:
    """`_manager_bin_start`, whether the line nests more scopes than are read, and the
    index of its `exec`, `dlx` or `run` verb, if it has one."""
    flags = _YARN_FLAGS if program == "yarn" else PNPM_FLAGS | {"-r", "--recursive"}
    valued = _YARN_VALUE_OPTIONS if program == "yarn" else _PNPM_VALUE_OPTIONS
    index, sure, scopes = 1, True, 0
    while index < len(values):
        word = values[index]
        if word == "--":
            return None, False, None
        if word.startswith("-") and word != "-":
            if word in valued:
                index += 2
                sure = sure and program == "yarn"
            else:
                index += 1
                sure = sure and ("=" in word or word in flags)
            continue
        after = values[index + 1] if index + 1 < len(values) else None
        scope = (program == "yarn" and word in ("workspace", "workspaces")) or (
            program == "pnpm" and word in _PNPM_SCOPES
        )
        if scope and scopes >= _MAX_SCOPES:
            return None, True, None  # (more scopes than are read: review HY2)
        if program == "yarn" and word == "workspace":
            if after is None or after.startswith("-"):
                return None, False, None  # (options before the NAME: review HH1)
            index, scopes = index + 2, scopes + 1
        elif program == "yarn" and word == "workspaces" and _workspaces_run(values, index):
            # yarn 1's `workspaces run X` runs `yarn X` in each workspace (review HY3), its
            # own options between (`workspaces --silent run X`: review IB4)
            index, scopes = _workspaces_run(values, index), scopes + 1
        elif program == "yarn" and word == "workspaces":
            if after != "foreach":
                return None, False, None
            index, scopes = index + 2, scopes + 1
            while index < len(values) and values[index].startswith("-"):
                index += 2 if values[index] in _FOREACH_VALUE_OPTIONS else 1
        elif program == "pnpm" and word in _PNPM_SCOPES:
            index, scopes = index + 1, scopes + 1
        else:
            break
    if index >= len(values):
        return None, False, None
    if values[index] in ("exec", "dlx") or (program == "yarn" and values[index] == "run"):
        verb = index
        index += 1
        while index < len(values) and values[index].startswith("-"):
            # (`yarn exec -- gulp`, `pnpm dlx --package=x gulp`; berry's `run --require
            # MODULE gulp`: review HY5)
            index += 2 if values[index] == "--require" and program == "yarn" else 1
        return (index if index < len(values) else None), False, verb
    own = YARN_COMMANDS if program == "yarn" else PNPM_COMMANDS
    if index == 1 and program == "pnpm":
        own = own | PNPM_NPM_COMMANDS  # (only as its first word: review HH2)
    return (index if sure and values[index] not in own else None), False, None


def _workspaces_run(values: Sequence[str | None], index: int) -> int:
    """Where the command of yarn 1's `workspaces [OPTIONS] run X` (at `index`) starts:
    the index after its `run`, its known options skipped (review IB4); 0 where the
    line is not read so."""
    at = index + 1
    while at < len(values) and (word := values[at]) is not None and word.startswith("-"):
        if word in _YARN_VALUE_OPTIONS:
            at += 2
        elif word in _YARN_FLAGS:
            at += 1
        else:
            return 0
    return at + 1 if at < len(values) and values[at] == "run" else 0


def _lists_project(line: Sequence[str]) -> bool:
    """Whether `line` asks a program for a listing or help that loads the project's code
    (`_PROJECT_LISTINGS`, `_PROJECT_HELP_VERBS`, a maven `help:` goal): no offer, since
    its approval looked harmless but approved running the workspace's code (review BW)."""
    if len(line) < 2:
        return False
    name = program_name(line[0].rpartition("/")[2])
    name = _OTHER_NAMES.get(name, name)
    options = all(value.startswith("-") for value in line[1:])
    if name in _BARE_LISTS and options and not all(v in ("-h", "--help") for v in line[1:]):
        return True  # (`mage -v` lists its targets as bare `mage` does: review HT2)
    listings = _PROJECT_LISTINGS.get(name)
    if listings is not None and any(
        value in listings or value.startswith(("--list", "--tasks", "--summary"))
        for value in line[1:]
    ):
        return True
    if name == "mage" and "-h" in line and not options:
        return True  # (`mage -h TARGET` compiles the magefile for the target's help: HT2)
    verb = _first_operand(line)
    if verb is not None and line[verb] in _PROJECT_HELP_VERBS.get(name, ()):
        # (its first operand, past options and what may be their values: `doit -f dodo.py
        # list` had been offered `doit`, review HR4)
        return True
    subverbs = _PROJECT_HELP_SUBVERBS.get((name, line[verb] if verb is not None else ""))
    if verb is not None and subverbs is not None and set(line[verb + 1 :]) & subverbs:
        return True
    if name in ("cargo", "cargo-make") and verb is not None and line[verb] == "make":
        # cargo-make's listings run the `Makefile.toml`'s scripts (review HR6)
        listings = _PROJECT_LISTINGS["makers"]
        return any(v in listings or v.startswith("--list") for v in line[verb + 1 :])
    return name in ("mvn", "mvnw", "mvnd") and any(v.startswith("help:") for v in line[1:])


def _first_operand(line: Sequence[str]) -> int | None:
    """Where the first word of `line` after its program may be its verb: a word that is no
    option, past options and the word after each (which may be its value: `doit -f dodo.py
    list` → 3); the verb may be either, so each word is tried in turn until one that no
    option precedes (review HR4)."""
    for index in range(1, len(line)):
        if line[index].startswith("-"):
            continue
        if line[index - 1].startswith("-") and index > 1:
            # (an option's value, or the verb after a flag: each reading is tried)
            if any(line[index] in verbs for verbs in _PROJECT_HELP_VERBS.values()):
                return index
            continue
        return index
    return None


def _loads_app_for_help(line: Sequence[str]) -> bool:
    """Whether `line` asks flask for more than its version, a program of `_APP_HELP` for
    its help, or one of `_APP_VERSION` for its help or version (no exact help approval: it
    runs the project's code, reviews GH7, HQ)."""
    name = program_name(line[0].rpartition("/")[2])
    if name == "flask":
        return any(value != "--version" for value in line[1:])
    if name not in _APP_HELP and name not in _APP_VERSION:
        return False
    # (a help or version line only: `pytest tests` keeps the offer of `pytest`)
    if not line[1:] or not all(_helpish(value) for value in line[1:]):
        return False
    return name in _APP_VERSION or any(value != "--version" for value in line[1:])


def _unknown_module(values: Sequence[str]) -> int | None:
    """Where the arguments of `python3 -m MODULE …` start, for a module `module_tool`
    does not know (`python3 -m dotenv list` → 3, `python3 -mfoo x` → 2); None for
    anything else (review GH3)."""
    if len(values) < 2 or not _PYTHON.fullmatch(program_name(values[0].rpartition("/")[2])):
        return None
    if values[1] == "-m" and len(values) > 2 and values[2]:
        start = 3
    elif values[1].startswith("-m") and len(values[1]) > 2:
        start = 2
    else:
        return None
    return start if module_tool(values) is None else None


# compose's `config` prints the compose file with the project's `.env` and `env_file:`
# values put in (and `--environment` every variable): only its listing options, which
# print names, are offered, exactly (review GH1)
_CONFIG_PRINTERS: Final = frozenset(
    {(*front, verb)
     for front in (("docker", "compose"), ("podman", "compose"), ("nerdctl", "compose"),
                   ("finch", "compose"), ("docker-compose",), ("podman-compose",))
     for verb in ("config", "convert")}  # (`convert`: compose v2's name of `config`, GL4)
)  # fmt: skip
# (`--images`, `--profiles` and `--models` print interpolated values, `alpine:${SECRET}`:
# review GS2; the keys of services, volumes and networks are never interpolated)
_COMPOSE_LISTINGS: Final = frozenset({"--services", "--volumes", "--networks"})
# compose's verbs offered nothing: `publish` (and `alpha publish`) uploads `.env` with
# `--with-env` to any registry (GS4), `bridge` covers `bridge convert` (GS5), a doubled
# `compose` covers `compose config` (GS6)
_COMPOSE_UNOFFERED: Final = frozenset({"publish", "bridge", "compose"})
_COMPOSE_FRONTS: Final = frozenset({"docker", "podman", "nerdctl", "finch"})
# container engines with docker's command line, and buildah (podman's builder, whose `run`,
# `from` and `build` take podman's mounts: review HF5): their mounts, env files and
# privileges are the host's to judge (review HE1: nerdctl's and finch's were not)
_CONTAINER_ENGINES: Final = containers.ENGINES


def _config_printer(found: Sequence[str]) -> bool:
    """Whether a suggestion is compose's `config` verb (`_CONFIG_PRINTERS`)."""
    return (program_name(found[0].rpartition("/")[2]), *found[1:]) in _CONFIG_PRINTERS


def _compose_offer(found: Sequence[str], values: Sequence[str]) -> tuple[str, ...] | None:
    """A compose suggestion, with the verbs no approval may cover taken out
    (`_COMPOSE_UNOFFERED`) and `alpha viz` offered exactly: `alpha viz --image` prints
    each service's interpolated image (review GS3)."""
    base = program_name(found[0].rpartition("/")[2])
    if base in _COMPOSE_FRONTS and len(found) > 1 and found[1] == "compose":
        verb = found[2:]
    elif base in ("docker-compose", "podman-compose"):
        verb = found[1:]
    else:
        return tuple(found)
    if verb and verb[0] == "alpha":
        verb = verb[1:]
        if not verb:
            return None  # (`nerdctl compose alpha` covered `alpha publish`: GS4)
        if verb[0] == "viz":
            return (*values, EXACT_END)
    if verb and verb[0] in _COMPOSE_UNOFFERED:
        return None
    return tuple(found)


def _lists_only(found: Sequence[str], values: Sequence[str]) -> bool:
    """Whether the words after compose's `config` are one listing option (review GH1)."""
    rest = values[len(found) :]
    return len(rest) == 1 and rest[0] in _COMPOSE_LISTINGS


# the tools whose manifest is code (`launchers.MANIFEST_TOOLS`) and SwiftPM's verb that
# takes a verb of its own (review GT6, GT7)
_MANIFEST_PROGRAMS: Final = frozenset(
    {"bundle", "bundler", "swift", "composer", "sbt", "lein", "gradle", "gradlew", "dotnet",
     "uv"}
)  # fmt: skip
_VERB_GROUPS: Final = frozenset({("swift", "package")})


def _gem_exec_exact(values: Sequence[str]) -> bool:
    """Whether a line is `gem exec …` (gem's options before `exec` skipped) that runs
    bundler, or asks its program for help or its version: the prefix offered covered
    the program's every verb (`gem exec bundler` approved `gem exec bundler exec ruby
    evil.rb`, review GW4); another program keeps its offer (`gem exec rubocop`)."""
    if program_name(values[0].rpartition("/")[2]) != "gem":
        return False
    index = next((i for i, value in enumerate(values) if i and not value.startswith("-")), 0)
    if not index or values[index] != "exec":
        return False
    rest = values[index + 1 :]
    runs_bundler = any(value.partition(":")[0] in ("bundle", "bundler") for value in rest)
    return runs_bundler or any(_helpish(value) for value in rest)


def _manifest_help_offer(found: tuple[str, ...], values: Sequence[str]) -> tuple[str, ...] | None:
    """The exact rule of a manifest tool's help line (`composer help install`, `swift
    package --version`) or of a verb group with no verb (`swift package`), where the
    verb offered covered the verbs that run the manifest (`swift package` approved `swift
    package resolve`: reviews GT6, GT7); None for another line."""
    program = program_name(values[0].rpartition("/")[2])
    if program not in _MANIFEST_PROGRAMS or len(found) < 2:
        return None
    rest = values[len(found) :]
    if values[1] == "help":
        return (*values, EXACT_END)
    if (program, found[1]) in _VERB_GROUPS and len(found) == 2:
        # `swift package resolve` keeps its verb; options before it, or none, exactly
        return (*found, rest[0]) if rest and not rest[0].startswith("-") else (*values, EXACT_END)
    if any(not value.startswith("-") for value in rest):
        return None
    return (*values, EXACT_END) if any(_helpish(value) for value in rest) else None


def _helpish(value: str) -> bool:
    """Whether a word may ask a program for its help or version: `_HELP_WORDS`, a long
    option that starts like one (`--help-all`, `--ver`, `--version=1`), `-v`, `-H`, or
    a bundle of letters that starts with `h` (`-hv`)."""
    return (
        value in _HELP_WORDS
        or value.startswith(("--help", "--ver", "--usage"))
        or value in ("-v", "-H")
        or (value.startswith("-h") and not value.startswith("--"))
    )


_HELP_WORDS: Final = frozenset(
    {"-h", "--help", "-help", "-?", "--usage", "-V", "--version", "-version", "help",
     "version"}
)  # fmt: skip
# rustup's proxies (and rustup), whose first word may name a toolchain: `cargo +stable tree`
_TOOLCHAIN_PROXIES: Final = frozenset(
    {"cargo", "rustc", "rustdoc", "rustfmt", "cargo-fmt", "cargo-clippy", "clippy-driver",
     "rust-analyzer", "rust-gdb", "rust-gdbgui", "rust-lldb", "rls", "cargo-miri", "rustup"}
)  # fmt: skip
# a toolchain named by its channel or version, not by a path (`+stable`, `+1.75.0`)
_TOOLCHAIN_WORD: Final = re.compile(r"\+[A-Za-z0-9][A-Za-z0-9._-]*")


def named_toolchain(values: Sequence[str]) -> bool:
    """Whether `values` is a rustup proxy given a toolchain by name as its first word
    (`rustc +nightly …`), not by a path (`+/ws/tc`)."""
    if len(values) < 2:
        return False
    program = program_name(values[0].rpartition("/")[2])
    return program in _TOOLCHAIN_PROXIES and _TOOLCHAIN_WORD.fullmatch(values[1]) is not None
# cargo's verbs that send the registry token (review GJ4)
_CARGO_TOKEN_VERBS: Final = frozenset({"owner", "yank", "publish", "login", "logout"})
_MAX_EXACT_WORDS = 8  # longer lines are approved once: an exact rule of them is seldom met
# programs that bare start a session running its configuration, kept after the call
# (review DF9: `tmux` runs `~/.tmux.conf` and leaves a server with a shell)
_NO_EXACT: Final = frozenset({"tmux", "screen", "byobu", "zellij"})
# programs' verbs that run the script (or the package's program) their next operand names:
# offered with that script, never by the verb alone, which approved any other script
# (review FL14: `nim r x.nim` offered `nim r`, `stack runghc x.hs` `stack runghc`)
_SCRIPT_VERBS: Final = frozenset(
    {("nim", "r"), ("nim", "e"), ("stack", "runghc"), ("stack", "runhaskell"),
     ("stack", "script"), ("dart", "run"), ("crystal", "run"), ("crystal", "i"),
     ("mix", "run"), ("scala-cli", "run"), ("scala", "run"), ("k6", "run"),
     ("hardhat", "run"), ("marimo", "run"), ("memray", "run"), ("ncc", "run"),
     ("mpremote", "run"), ("zig", "run"), ("v", "run"), ("v", "crun"), ("fastapi", "run"),
     ("fastapi", "dev")}
)  # fmt: skip


def is_script_verb(values: Sequence[str | None]) -> bool:
    """Whether `values` start with a program and its verb that runs a script
    (`_SCRIPT_VERBS`: `nim r`, `stack runghc`).

    >>> is_script_verb(["nim", "r", "x.nim"]), is_script_verb(["/usr/bin/nim", "r"])
    (True, True)
    >>> is_script_verb(["nim", "c", "x.nim"]), is_script_verb(["nim"])
    (False, False)
    """
    if len(values) < 2 or values[0] is None or values[1] is None:
        return False
    return (values[0].rpartition("/")[2], values[1]) in _SCRIPT_VERBS


# interpreters whose first operand is always a script (verbs are options: `python3 -m`)
_VERBLESS: Final = re.compile(r"(?:python|pypy)[0-9.]*")
# npm 11's commands and its other names for them (`lib/utils/cmd-list.js`); npm takes any
# unique prefix of either (`npm run-scrip`, `npm inst`)
_NPM_COMMANDS: Final = frozenset(
    """access adduser approve-scripts audit bugs cache ci completion config dedupe
    deny-scripts deprecate diff dist-tag docs doctor edit exec explain explore find-dupes
    fund get help help-search init install install-ci-test install-scripts install-test
    link ll login logout ls org outdated owner pack ping pkg prefix profile prune publish
    query rebuild repo restart root run sbom search set shrinkwrap stage star stars start
    stop team test token trust undeprecate uninstall unpublish unstar update version view
    whoami""".split()  # noqa: SIM905 (a table of words reads best as words)
)
_NPM_ALIASES: Final = {
    "author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view",
    "find": "search", "add": "install", "unlink": "uninstall", "remove": "uninstall",
    "rm": "uninstall", "r": "uninstall", "un": "uninstall", "rb": "rebuild", "list": "ls",
    "ln": "link", "create": "init", "i": "install", "it": "install-test",
    "cit": "install-ci-test", "u": "update", "up": "update", "c": "config", "s": "search",
    "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
    "run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test",
    "x": "exec", "why": "explain", "la": "ll", "verison": "version", "ic": "ci",
    "innit": "init", "in": "install", "ins": "install", "inst": "install",
    "insta": "install", "instal": "install", "isnt": "install", "isnta": "install",
    "isntal": "install", "isntall": "install", "install-clean": "ci",
    "isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag", "upgrade": "update",
    "udpate": "update", "rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org",
    "add-user": "adduser",
}  # fmt: skip
_NPM_NAMES: Final = tuple(sorted({*_NPM_COMMANDS, *_NPM_ALIASES}))


def _npm_words(inner: Sequence[Word]) -> tuple[Word, ...] | None:
    """`inner` with npm's verb as the command npm reads it, when it is spelt otherwise."""
    if len(inner) < 2 or inner[0].value is None or inner[1].value is None:
        return None
    if inner[1].value.startswith("-") and inner[1].value != "-":
        return _npm_words_after_options(inner)
    spelled = _npm_verb([inner[0].value, inner[1].value])
    if spelled is None:
        return None
    return (inner[0], _value_word(inner[1], spelled[1]), *inner[2:])


def _npm_words_after_options(inner: Sequence[Word]) -> tuple[Word, ...] | None:
    """`inner`, an npm line with an option before its verb (`npm --json explor x`,
    `npm --loglevel silent audi fix`), with every operand that spells a verb otherwise
    read as that verb: which word is the verb depends on which options take a value, so
    each may be it, and the verb rules' `first-operand` twins judge them (closing-36 AV1).
    Only stricter: the caller keeps the line's own decision where it is not looser."""
    npm = inner[0].value
    assert npm is not None  # INVARIANT: `_npm_words` looked
    changed = False
    words = [inner[0]]
    for word in inner[1:]:
        value = word.value
        if value == "--":
            # npm reads the first word after `--` as its verb, abbreviated or not, when
            # none came before (review HB3: `npm -- pac`, `npm -- publis` packed `.env`);
            # an operand before it may be an option's value, so it is read as one anyway
            rest = inner[len(words) :]
            verb = None if len(rest) < 2 else rest[1].value
            spelled = None if verb is None else _npm_verb([npm, verb])
            if spelled is not None:
                rest = (rest[0], _value_word(rest[1], spelled[1]), *rest[2:])
                changed = True
            words.extend(rest)
            break
        spelled = None if value is None or value.startswith("-") else _npm_verb([npm, value])
        words.append(word if spelled is None else _value_word(word, spelled[1]))
        changed = changed or spelled is not None
    return tuple(words) if changed else None


# pnpm's verb prefixes (`pnpm recursive publish` is `pnpm -r publish`), and yarn's that
# run a verb in workspaces (`yarn workspace NAME VERB`, `yarn workspaces foreach OPTS VERB`)
_PNPM_SCOPES: Final = frozenset({"recursive", "m", "multi"})
_MAX_SCOPES = 4  # (`yarn workspace a workspace b publish`)


def _scoped_words(inner: Sequence[Word]) -> tuple[Word, ...] | None:
    """`inner` without pnpm's `recursive` (`m`, `multi`) or yarn's `workspace NAME` and
    `workspaces foreach`, so that the verb after them is the first operand the verb rules
    read (review HB1, HB2). Only stricter: the caller keeps the line's decision unless the
    rules of these words say more."""
    if len(inner) < 3 or inner[0].value is None:
        return None
    name = program_name(inner[0].value.rpartition("/")[2])
    program = _ALIASES.get(name, name)  # (`yarnpkg`, yarn's other name, read as yarn; `pn`)
    if program not in ("pnpm", "yarn"):
        return None
    words = list(inner)
    for _ in range(_MAX_SCOPES):
        cut = _scope_cut(program, [word.value for word in words])
        if cut is None:
            break
        del words[cut[0] : cut[1]]
    if program != name and len(words) < len(inner):
        words[0] = _value_word(inner[0], program)
    return tuple(words) if len(words) < len(inner) else None


def _scope_cut(program: str, values: Sequence[str | None]) -> tuple[int, int] | None:
    """Where the scope prefix of a pnpm or yarn line lies (`_scoped_words`): at the first
    word, or, after an option (whose value may be the next word), at any operand."""
    for index in _verb_places(values):
        value, after = values[index], values[index + 1] if index + 1 < len(values) else None
        if program == "pnpm" and value in _PNPM_SCOPES:
            return (index, index + 1)
        if program == "yarn" and value == "workspace":
            # (yarn's options and `--` may come before the NAME: review HH1)
            ends = scope_operand_ends(values, index + 1, 1)
            if ends:
                return (index, ends[0])
        if program == "yarn" and value == "workspaces" and after == "foreach":
            return (index, index + 2)
        if program == "yarn" and value == "workspaces" and _workspaces_run(values, index):
            # (yarn 1's `workspaces run X` is `yarn X`: HY3; its options before `run`: IB4)
            return (index, _workspaces_run(values, index))
    return None


def _verb_places(values: Sequence[str | None]) -> list[int]:
    """The indexes of `values` (a command's words) that may be its verb: the first word,
    or every operand before `--` when an option comes first."""
    if len(values) < 2:
        return []
    first = values[1]
    if first is None or not first.startswith("-") or first == "-":
        return [1]
    end = values.index("--") if "--" in values else len(values)
    return [i for i in range(2, end) if (v := values[i]) is not None and not v.startswith("-")]


def _scope_holds(based: RuleMatch, match: RuleMatch | None, default: Verdict) -> bool:
    """Whether the decision `based` of a line without its scope prefix (`_scoped_words`)
    holds over the line's own `match`: it is at least as strict, and its rule names more
    than the program (the package rule asks of `pnpm why x`, which an approval of `pnpm
    recursive why` covers)."""
    if not (based.locked or based.specificity[:1] > (1,) or based.specificity[5:6] > (0,)):
        return False
    rank = _match_verdict(based, default).rank
    own = default.rank if match is None else _match_verdict(match, default).rank
    return rank > own or (rank == own and not (match is not None and match.locked))


def _npm_verb(values: Sequence[str]) -> tuple[str, ...] | None:
    """`values` with npm's verb as the command it names, when it is spelt otherwise.

    >>> _npm_verb(["npm", "run-scrip", "deploy"]), _npm_verb(["npm", "rum", "x"])
    (('npm', 'run', 'deploy'), ('npm', 'run', 'x'))
    >>> _npm_verb(["npm", "run", "x"]), _npm_verb(["npm", "ru", "x"]), _npm_verb(["ls"])
    (None, None, None)
    >>> _npm_verb(["npm", "runScript", "x"]), _npm_verb(["npm", "explo", "x"])
    (('npm', 'run', 'x'), ('npm', 'explore', 'x'))
    """
    if len(values) < 2 or values[0].rpartition("/")[2] != "npm" or values[1] in _NPM_COMMANDS:
        return None
    # camelCase first, as npm's `deref` does: `runScript` is `run-script` (review CP2)
    verb = _NPM_CAMEL.sub(lambda upper: "-" + upper.group(0).lower(), values[1])
    if verb in _NPM_COMMANDS:
        return (values[0], verb, *values[2:])
    name = verb if verb in _NPM_ALIASES else None
    if name is None:
        matches = [n for n in _NPM_NAMES if n.startswith(verb)] if verb else []
        name = matches[0] if len(matches) == 1 else None
    if name is None:
        return None  # (npm refuses an unknown or ambiguous verb)
    command = _NPM_ALIASES.get(name, name)
    return (values[0], command, *values[2:]) if command != values[1] else None


_NPM_CAMEL: Final = re.compile(r"[A-Z]")
# a version at the end of a program's name: `5.36.0` of `perl5.36.0`, `-dbg` of
# `python3.12-dbg`, `18` of `nodejs18`, taken off one part at a time
# `python3.13t`, `python3.13td`, `python3.13-nogil` too (review CZ10)
_VERSIONED = re.compile(r"(?:[-_.]?[0-9]+[tdm]{0,2}(?:-c)?|-dbg|-debug|-nogil|-intel64)$")
_MAX_VERSION_PARTS = 4
_MAX_SSH_CONFIG = 256 * 1024  # bytes of ~/.ssh/config read for loopback aliases
# build tools that run each target, goal or task among their operands (`make a b`):
# an approval names the ones it covers (review AH6), and a suggestion names them all
# Python modules that are command-line tools: `python3 -m MODULE ARGS` runs the tool as
# its own program does (`python3 -m pip install --user x` is `pip install --user x`), so
# an approval of it is judged as the program's (review CV2, CV3)
MODULE_PROGRAMS: Final = {
    "pip": "pip", "pytest": "pytest", "black": "black", "ruff": "ruff", "mypy": "mypy",
    "uv": "uv", "poetry": "poetry", "pdm": "pdm", "hatch": "hatch", "pipx": "pipx",
    "tox": "tox", "nox": "nox", "pre_commit": "pre-commit", "twine": "twine",
    "coverage": "coverage", "mkdocs": "mkdocs", "jupyter": "jupyter", "notebook": "jupyter",
    "nbconvert": "jupyter-nbconvert", "django": "django-admin", "isort": "isort",
    "flake8": "flake8", "pylint": "pylint", "pyright": "pyright", "sphinx": "sphinx-build",
    "virtualenv": "virtualenv", "pip_audit": "pip-audit", "bandit": "bandit",
    "invoke": "invoke", "fabric": "fab", "celery": "celery", "uvicorn": "uvicorn",
    "gunicorn": "gunicorn", "flask": "flask", "streamlit": "streamlit", "scrapy": "scrapy",
    "yt_dlp": "yt-dlp", "PyInstaller": "pyinstaller", "ansible": "ansible", "conda": "conda",
    "httpie": "http", "build": "pyproject-build", "maturin": "maturin", "cookiecutter":
    "cookiecutter", "copier": "copier", "semgrep": "semgrep", "locust": "locust",
    # review GH3: runners that load `.env` (`python3 -m dotenv list` printed it), and a
    # tool whose verbs run a script
    "dotenv": "dotenv", "honcho": "honcho", "fastapi": "fastapi",
    # review GL2: `python3 -m pipenv --venv` was offered `python3 -m pipenv`, which approved
    # `python3 -m pipenv run printenv SECRET` (pipenv loads `.env`)
    "pipenv": "pipenv",
}  # fmt: skip
# CPython's names, free-threaded (`3.13t`) and debug (`-dbg`, `d`, `m`) builds included
_PYTHON: Final = re.compile(
    r"(?:python|pypy|graalpy|jython|pythonw)(?:[23](?:\.\d+)?)?[tdm]{0,2}(?:-[a-z0-9]+)?"
)


# the programs that look their words up as paths where no rule reads them as paths
# (`engine.evaluate`'s `_AUTOMOUNT_PROBES`, as programs xargs can run) (review DW1)
_PROBES: Final = frozenset({"test", "[", "realpath", "readlink", "lsof", "stat", "ls", "df"})


def is_python(name: str) -> bool:
    """Whether `name` is a Python interpreter's (`python3`, `python3.13t`, `pypy3.10-c`)."""
    return _PYTHON.fullmatch(program_name(name)) is not None


def module_tool(values: Sequence[str | None]) -> tuple[str, int] | None:
    """The program `python3 -m MODULE …` runs as, and where its arguments start
    (`python3 -m pytest -q` → `("pytest", 3)`, `python3 -mpytest -q` → `("pytest", 2)`),
    for the modules of `MODULE_PROGRAMS` (`uv.__main__` is `uv`: review CY5); `""` as
    the program for another module of such a tool's package (`uv.cli`), whose program
    cannot be told; None for anything else."""
    if len(values) < 2 or values[0] is None or values[1] is None:
        return None
    if not _PYTHON.fullmatch(program_name(values[0].rpartition("/")[2])):
        return None
    if values[1] == "-m":
        module, start = (values[2] if len(values) > 2 else None), 2
    elif values[1].startswith("-m"):
        module, start = values[1][2:], 1
    else:
        return None
    module = (module or "").removesuffix(".__main__")
    program = MODULE_PROGRAMS.get(module)
    if program is None:
        package = module.partition(".")[0]
        return ("", start + 1) if package in MODULE_PROGRAMS else None
    return program, start + 1


def _only_job_limits(words: Sequence[str]) -> bool:
    """Whether make's options among its words are only its limits on parallel jobs
    (`-j4`, `-j 4`, `--jobs=4`, `-j`, `-l 2.5`, `--load-average=2`), which say nothing of
    what it runs: its line is then approved exactly (`make -j4 build $`, as `make $` for
    a bare `make`), where `make -j4` had been offered nothing (open items A3). ninja's
    `-j N`, `-l N` and `-k N` (the failures it goes on after) are such limits too, its
    number always given (review EB9: `ninja -j4` had been offered bare `ninja`, which
    approved `ninja -t clean` and `ninja -t browse`)."""
    if not words:
        return False
    limit, separate = _JOB_LIMITS.get(words[0].rpartition("/")[2], (None, frozenset()))
    if limit is None:
        return False
    index = 1
    while index < len(words):
        word = words[index]
        if word.startswith(("-", "+")):
            following = words[index + 1] if index + 1 < len(words) else ""
            if word in separate and _JOBS.fullmatch(following):
                index += 1  # (`-j 4`: the number that follows)
            elif limit.fullmatch(word) is None:
                return False
        index += 1
    return True


_JOBS: Final = re.compile(r"[0-9]+(?:\.[0-9]*)?")
_MAKE_LIMIT = (
    re.compile(r"(?:-[jl]|--jobs=?|--load-average=?)(?:[0-9]+(?:\.[0-9]*)?)?"),
    frozenset({"-j", "--jobs", "-l", "--load-average"}),
)
# (ninja 1.11 takes `-j`, `-k` and `-l` with a number, glued or as the next word)
_NINJA_LIMIT = (re.compile(r"-[jkl][0-9]+(?:\.[0-9]*)?"), frozenset({"-j", "-k", "-l"}))
# the build tools whose limits on parallel jobs `_only_job_limits` knows
_JOB_LIMITS: Final = {
    "make": _MAKE_LIMIT, "gmake": _MAKE_LIMIT, "bmake": _MAKE_LIMIT, "ninja": _NINJA_LIMIT,
}  # fmt: skip


TARGET_TAKERS: Final = frozenset(
    {"make", "gmake", "bmake", "mvn", "mvnw", "gradle", "gradlew", "ant", "rake", "just",
     "task", "ninja", "invoke", "inv", "mage"}
)  # fmt: skip
# options that give code or a command inline, to many programs the tables may miss
_INLINE_CODE_OPTIONS = frozenset(
    {"-c", "-e", "-E", "-r", "--", "--eval", "--exec", "--execute",
     "--command", "--code", "--run", "--script"}
)  # fmt: skip
# a word that may be a build tool's target (`package`, `exec:exec`, `:app:test`)
_TARGET = re.compile(r"(?!-)[\w:.+/-]+")
# a word that may be a program's verb (`compile`, `try-repo`), not a file or a value
_VERB = re.compile(r"[a-z][a-z0-9-]*")
# a name that may rename a program: a digit or a dash in it (`gcc-12`, `c99`, `go1.22`)
_RENAME_HINT = re.compile(r"[0-9-]")
# programs that are another under a name with no version in it (review AJ4)
_ALIASES = {
    "gmake": "make", "bmake": "make", "pmake": "make",
    "cpp": "gcc", "gfortran": "gcc", "gccgo": "gcc", "gdc": "gcc", "gnat": "gcc",
    "musl-gcc": "gcc", "tcc": "gcc", "clang-cpp": "clang", "musl-clang": "clang",
    "zig-cc": "clang", "yarnpkg": "yarn", "podman-remote": "podman",
    # pnpm 11's second names (review HH3)
    "pn": "pnpm", "pnx": "pnpx",
}  # fmt: skip
# GNU's tools as Homebrew installs them beside the system's, a `g` before the name
# (coreutils, findutils, sed, tar, grep, which, patch; and binutils' `gar`, GNU cpio's
# `gcpio` as MacPorts and the BSDs' ports name them: review CM4): `gmv` is GNU mv, and its
# path roles and rules are mv's (review CC10: `gmv cfg .vscode` was checked as no program).
# Not the wrappers (`genv`, `gtimeout`, `gxargs` …): the shell analyser sees through them
# (`policylang.shell.wrappers`). A name another program also has (`gdu`, `god`) gets the
# tool's path checks and its rules' asks and denies, never its allows.
_GNU_NAMES: Final = frozenset(
    {"b2sum", "base32", "base64", "basename", "basenc", "cat", "chcon", "chgrp", "chmod",
     "chown", "cksum", "comm", "cp", "csplit", "cut", "date", "dd", "df", "dir",
     "dircolors", "dirname", "du", "echo", "expand", "expr", "factor", "false", "fmt",
     "fold", "groups", "head", "hostid", "id", "install", "join", "kill", "link", "ln",
     "logname", "ls", "md5sum", "mkdir", "mkfifo", "mknod", "mktemp", "mv", "nl", "nproc",
     "numfmt", "od", "paste", "pathchk", "pinky", "pr", "printenv", "printf", "ptx", "pwd",
     "readlink", "realpath", "rm", "rmdir", "seq", "sha1sum", "sha224sum", "sha256sum",
     "sha384sum", "sha512sum", "shred", "shuf", "sleep", "sort", "split", "stat", "stty",
     "sum", "sync", "tac", "tail", "tee", "test", "touch", "tr", "true", "truncate",
     "tsort", "tty", "uname", "unexpand", "uniq", "unlink", "uptime", "users", "vdir", "wc",
     "who", "whoami", "yes", "find", "locate", "updatedb", "sed", "tar", "grep", "egrep",
     "fgrep", "which", "patch", "indent", "cpio", "ar"}
)  # fmt: skip


def program_name(name: str) -> str:
    """The program `name` is for the tables of path roles and checks: a GNU tool under its
    Homebrew name is that tool (`gmv` → `mv`, `gsed` → `sed`); any other name is itself."""
    if name[:1] == "g" and name[1:] in _GNU_NAMES:
        return name[1:]
    if name == "gnutar":  # (GNU tar's name on some systems, or star's emulation of it)
        return "tar"
    return name


# a toolchain's threading-model suffix, stripped like a version (`-gcc-win32`, `-g++-posix`)
_TOOLCHAIN_SUFFIX = re.compile(r"-(?:win32|posix)$")
# `c89`, `c99`, `c11` (POSIX's and Debian's C compiler drivers), `c99-gcc` → `gcc`
_C_STANDARD = re.compile(r"c(?:89|9[0-9]|1[0-9]|2[0-9x])(?:-(\w+))?")
_MAX_LINKED_TREES = 8  # directories reached through links that one tree check scans
# the operand of a program run on a script: its name says it is code
# (`.dll`: `dotnet x.dll` runs the assembly, `dotnet build` is a verb: review BR13)
_RUN_SCRIPT_NAME = re.compile(r"\.(?:py|pyw|js|mjs|cjs|ts|mts|dll)$", re.IGNORECASE)
_SCRIPT_NAME = re.compile(
    # (not `.py`, `.js`, `.ts`: linters without rules take those all day, and their
    # interpreters are in the tables)
    r"\.(?:sh|bash|zsh|ksh|fish|csh|tcsh|nu|xsh|elv|pl|pm|rb|php|lua|tcl|raku|p6|rakumod"
    r"|hs|lhs|ml|java|jsh|kts|groovy|scala|sc|clj|cljs|jl|r|ex|exs|erl|swift|ps1"
    r"|awk|sed|dc|m|vim|el|scm|rkt|lisp|expect|exp|osa|applescript"
    # (m4, gnuplot, Maxima, PARI/GP, notebooks, SQL, TeX: review BR11)
    r"|m4|gp|plt|gnuplot|mac|ipynb|sql|tex"
    # (Dart, Crystal, Janet, Nim, CoffeeScript, F# and C# scripts: review FL14)
    r"|dart|cr|janet|nim|nims|coffee|litcoffee|fsx|csx)$",
    re.IGNORECASE,
)


_MAX_PROGRAM_STARTS = 3


def program_starts(values: Sequence[str | None], size: int) -> tuple[tuple[int, ...], bool]:
    """Where the command an exact runner runs may start, given the runner's words end at
    `size` (`RunnerTable.find`): at its first operand, or, when that word follows an option
    without `=` (`strace -o echo sh -c …`: `-o` takes `echo`), at the next operand too;
    and whether that is all of them.

    The option table of each runner is not known, so every start an option's value could
    hide is returned, at most `_MAX_PROGRAM_STARTS`: past that the answer is incomplete
    (review U1), and the caller asks. After `--` the next word is the command.
    """
    starts: list[int] = []
    after_option = False
    for index in range(size, len(values)):
        value = values[index]
        if value == "--":
            if index + 1 < len(values):
                starts.append(index + 1)
            return tuple(starts[:_MAX_PROGRAM_STARTS]), len(starts) <= _MAX_PROGRAM_STARTS
        if value is not None and value.startswith("-") and value != "-":
            after_option = "=" not in value
            continue
        if len(starts) == _MAX_PROGRAM_STARTS:
            return tuple(starts), False
        starts.append(index)
        if not after_option:
            break
        after_option = False
    return tuple(starts), True


# commands whose later words run inside a container or on another host, not here
_CONTAINER_RUNS = frozenset({"run", "exec", "create"})
_KUBECTL_RUNS = frozenset({"exec", "run", "debug", "attach"})


# the options that take a value (OpenSSH 10; `-P` is one since 10, review T9): the first
# other word is the destination
_VALUED_LETTERS = {"ssh": frozenset("BbcDEeFIiJLlmOoPpQRSWw"), "sftp": frozenset("BbcDFiJloPRSsX")}
_REMOTE_SHELLS = frozenset({"ssh", "sftp", "scp", "rsync", "git"})
# git's global options whose value is the next word
_GIT_VALUED_GLOBALS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})
_URL_SCHEMES = re.compile(r"(?:scp|rsync|sftp|ssh|git\+ssh|ssh\+git)://", re.IGNORECASE)
# git's verbs that reach a repository by URL; the URL may be ssh to this machine
_GIT_REMOTE_VERBS = frozenset(
    {
        "clone", "fetch", "pull", "push", "ls-remote", "archive", "submodule", "remote",
        # `maintenance run --task=prefetch` fetches every remote (review AG8);
        # `request-pull` asks the URL it names what it holds
        "maintenance", "request-pull",
    }
)


def loopback_reach(
    values: Sequence[str | None], aliases: frozenset[str] = frozenset()
) -> str | None:
    """The destination of `ssh`, `sftp`, `scp` or `rsync` when it is this machine by its
    own address (`localhost`, `127.0.0.1`, `[::1]`, `0`, `127.1`, this host's name), or a
    word that cannot be read (None otherwise).

    Such a command runs here what an approval of the program was given for other hosts:
    `ssh localhost 'cat ~/.aws/credentials'` (review S9), or `rsync localhost:.ssh/ k/`.
    `aliases` are names `~/.ssh/config` maps to this machine (`ssh_loopback_aliases`); a
    name DNS maps to it cannot be seen. git over ssh (`git clone localhost:/home/u/repo`)
    is such a reach too.
    """
    if not values or values[0] is None:
        return None
    name = values[0].rpartition("/")[2]
    if name not in _REMOTE_SHELLS:
        return None
    for host in _remote_hosts(name, values[1:]):
        if host is None:
            return "a word that cannot be read"
        if _is_loopback(host) or host.lower() in aliases:
            return host or "an empty host name"
    return None


def ssh_loopback_aliases(home: str) -> frozenset[str]:
    """The `Host` names of `HOME/.ssh/config` whose `HostName` is this machine
    (`Host box` / `HostName 127.0.0.1`): `ssh box CMD` runs CMD here, which an approval of
    `ssh` for other hosts does not cover. The files it `Include`s are read too (`~/`,
    relative to `~/.ssh`, globs), as ssh reads them: OrbStack's installer adds `Include
    ~/.orbstack/ssh/config`, whose `Host orb` is its machine, which mounts the home (review
    BH-VM). Patterns (`Host *.lan`) are not followed; each file is read again when it
    changes."""
    found: set[str] = set()
    pending = [os.path.join(home, ".ssh", "config")]
    seen: set[str] = set()
    while pending and len(seen) < _MAX_SSH_FILES:
        path = pending.pop(0)
        if path in seen:
            continue
        seen.add(path)
        try:
            stat = os.stat(path)
        except OSError:
            continue
        aliases, includes = _ssh_aliases(path, paths.file_version(stat), stat.st_size)
        found.update(aliases)
        for include in includes:
            if include.startswith("~/"):
                include = os.path.join(home, include[2:])
            elif not include.startswith("/"):
                include = os.path.join(home, ".ssh", include)
            pending.extend(sorted(matching_files(include))[:_MAX_SSH_FILES])
    return frozenset(found)


_MAX_SSH_FILES = 32  # ssh configuration files read for loopback aliases (`Include`)


@functools.lru_cache(maxsize=8)
def _ssh_aliases(
    path: str, _version: tuple[int, ...], size: int
) -> tuple[frozenset[str], tuple[str, ...]]:
    """The loopback `Host` names of one ssh configuration file, and the files it
    includes (as written)."""
    if size > _MAX_SSH_CONFIG:
        return frozenset(), ()
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(_MAX_SSH_CONFIG)
    except OSError:
        return frozenset(), ()
    found: set[str] = set()
    includes: list[str] = []
    names: list[str] = []
    for raw in text.splitlines():
        key, _sep, rest = raw.strip().replace("\t", " ").replace("=", " ", 1).partition(" ")
        key, rest = key.lower(), rest.strip().strip('"')
        if key in ("host", "match"):
            names = [n.lower() for n in rest.split() if key == "host" and not set(n) & set("*?!")]
        elif key == "hostname" and _is_loopback(rest):
            found.update(names)
        elif key == "include":
            # (included wherever it stands: inside a `Host` block it applies to those
            # names only, and reading it for all errs on the strict side)
            includes.extend(word.strip('"') for word in rest.split())
    return frozenset(found), tuple(includes)


def ssh_options_end(words: Sequence[str | None], name: str = "ssh") -> int | None:
    """Where ssh's (or sftp's) options end in `words` (its arguments): the index of its
    first operand, past a `--`; None where a word before it cannot be read. Also how the
    ssh arguments `vagrant ssh -- ARGS` hands on are read (review HR2)."""
    index = 0
    while index < len(words):
        word = words[index]
        if word is None:
            return None
        if word == "--":
            return index + 1
        if not word.startswith("-") or word == "-":
            break
        letters = word[1:]
        for position, letter in enumerate(letters):
            if letter in _VALUED_LETTERS[name]:
                index += 1 if position < len(letters) - 1 else 2
                break
        else:
            index += 1
    return index


def _remote_hosts(name: str, words: Sequence[str | None]) -> list[str | None]:
    """The hosts `name` connects to: ssh's and sftp's destination, every `HOST:PATH` (or
    `scp://` / `rsync://` URL) operand of scp and rsync, and of git's remote verbs (after
    `clone`, `fetch` …: a refspec `a:b` there counts too, which errs on the strict side)."""
    if name == "git":
        verb = _git_verb_index(words)
        words = words[verb + 1 :] if verb is not None else ()
        # `--remote=localhost:repo`, `--repo=…`: the URL glued to an option (review AB5)
        words = [w.partition("=")[2] if w and w.startswith("--") and "=" in w else w for w in words]
    if name in ("ssh", "sftp"):
        index = ssh_options_end(words, name)
        if index is None:
            return [None]
        if index >= len(words):
            return []
        return [_host_of(words[index], with_path=name == "sftp")]
    hosts: list[str | None] = []
    for word in words:
        if word is None:
            hosts.append(None)
        elif _URL_SCHEMES.match(word) or (_scp_like(word) and (name != "git" or "://" not in word)):
            # `scp://…`, `HOST:PATH` (a `/` before `:`: a path); git's `file://` and
            # `https://` URLs are not ssh (the first is checked as the path it names)
            hosts.append(_host_of(word))
    return hosts


def _git_verb_index(words: Sequence[str | None]) -> int | None:
    """Where git's remote verb is among its words: its subcommand, past the global
    options (`git -C d fetch`), when that is a remote verb; a word that cannot be read
    there may be one. `git stash push -- ':/.env'` has none (review AL10)."""
    skip = False
    for index, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word is None:
            # the subcommand cannot be read: any later remote verb may be it
            return next((i for i, w in enumerate(words) if w in _GIT_REMOTE_VERBS), None)
        if word in _GIT_VALUED_GLOBALS:
            skip = True
            continue
        if word.startswith("-"):
            continue
        return index if word in _GIT_REMOTE_VERBS else None
    return None


def git_url_reach(url: str) -> tuple[str, tuple[str, ...]] | None:
    """Where a git remote URL leads on this machine: `("loopback", (HOST,))` for ssh to
    this machine, `("program", (URL,))` for `ext::` and `fd::` transports, which run a
    command or use a descriptor (review AD2), `("path", PATHS)` for a local repository
    (`/srv/r`, `../r`, `file:///r`; `file://h/x` both as `/x` and as the relative `h/x`,
    review AD4), None for anything else (https, another host)."""
    if url.startswith(("ext::", "fd::")):
        return ("program", (url,))
    if url[:7].lower() == "file://":
        local = file_url_path(url)
        readings = (url[7:] or ".", *(() if local in (None, "?") else (local,)))
        return ("path", tuple(dict.fromkeys(r for r in readings if r is not None)))
    if _URL_SCHEMES.match(url) or ("://" not in url and _scp_like(url)):
        host = _host_of(url)
        if host is None or _is_loopback(host):
            return ("loopback", (host or "a host that cannot be read",))
        return None
    if "://" in url or "::" in url:
        return None if "://" in url else ("program", (url,))
    return ("path", (url,))  # git reads any other URL as a local path


def is_git_remote_verb(word: str | None) -> bool:
    return word in _GIT_REMOTE_VERBS


def _scp_like(word: str) -> bool:
    """`[user@]host:path`: a `:` before any `/`, not an option."""
    return word[:1] != "-" and ":" in word.split("/", 1)[0]


def _host_of(destination: str | None, *, with_path: bool = True) -> str | None:
    """The host of `[user@]host[:path]` (`with_path`; ssh's destination has no path, so
    `::1` is a host there), `[user@][v6]:path` or `scheme://[user@]host[:port]/…`. The
    user ends at the last `@` before the host (`u@h@localhost:x` is `localhost`)."""
    if destination is None:
        return None
    text = destination
    if "://" in text:
        text = text.split("://", 1)[1].split("/", 1)[0]
        with_path = True  # `host:port`
    if not with_path:
        host = text.rpartition("@")[2]
        return host[1:].split("]", 1)[0] if host.startswith("[") else host
    bracket, colon = text.find("["), text.find(":")
    if bracket != -1 and (colon == -1 or bracket < colon):
        return text[bracket + 1 :].split("]", 1)[0]
    return text.split(":", 1)[0].rpartition("@")[2]


@functools.cache
def _own_names() -> frozenset[str]:
    """This machine's names and addresses, read once without any lookup (DNS could hang):
    its host name, the addresses of its interfaces (`/proc/net/fib_trie`, `if_inet6`),
    and the `/etc/hosts` names of any of them or of a loopback address (review T)."""
    names: set[str] = set()
    with contextlib.suppress(OSError):
        name = socket.gethostname().lower()
        names |= {name, name.split(".", 1)[0]}
    addresses = _local_addresses()
    names |= addresses
    with contextlib.suppress(OSError, UnicodeDecodeError), open("/etc/hosts") as hosts:
        for line in hosts:
            fields = line.split("#", 1)[0].split()
            if len(fields) >= 2 and (fields[0] in addresses or _is_loopback_address(fields[0])):
                names |= {field.lower() for field in fields[1:]}
    return frozenset(names - {""})


def _local_addresses() -> set[str]:
    """The IPv4 and IPv6 addresses of this machine's interfaces, as Linux lists them."""
    found: set[str] = set()
    with contextlib.suppress(OSError, UnicodeDecodeError), open("/proc/net/fib_trie") as trie:
        previous = ""
        for line in trie:
            text = line.strip()
            if text.startswith("/32 host LOCAL"):
                found.add(previous)
            elif text.startswith(("|--", "+--")):
                previous = text[3:].split()[0]
    with (
        contextlib.suppress(OSError, UnicodeDecodeError, ValueError),
        open("/proc/net/if_inet6") as table,
    ):
        for line in table:
            found.add(str(ipaddress.IPv6Address(bytes.fromhex(line.split()[0]))))
    return found


def _is_loopback_address(text: str, own: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether `text` is an IP address of this machine: loopback, unspecified (also
    IPv4-mapped), or one of `own`."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified or str(address) in own


def _is_loopback(host: str) -> bool:
    """Whether `host` names this machine by an address or a name every system gives it."""
    host = host.strip().rstrip(".").lower()
    if host in ("", "localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"):
        return True
    if host.endswith(".localhost"):
        return True
    if host in _own_names():
        return True
    try:  # the classic forms getaddrinfo takes too: `127.1`, `0x7f000001`, `2130706433`, `0`
        packed = socket.inet_aton(host)
    except (OSError, ValueError):
        packed = None
    if packed is not None:
        local = socket.inet_ntoa(packed) in _own_names()  # `0xc0.0.2.2` is 192.0.2.2
        return packed[0] == 127 or packed == b"\0\0\0\0" or local
    return _is_loopback_address(host, _own_names())


def runs_elsewhere(values: Sequence[str | None]) -> bool:
    """Whether the words after the program run in a container or on another host (`docker
    run IMAGE CMD`, `kubectl exec POD -- CMD`, `ssh HOST CMD`): a word there that names a
    program, or a path, is not this machine's."""
    if not values or values[0] is None:
        return False
    name = values[0].rpartition("/")[2]
    if name == "ssh":
        return True
    if name not in _CONTAINER_ENGINES and name not in ("kubectl", "oc"):
        return False  # (most commands: by name first, before the words are looked at)
    rest = [v for v in values[1:] if v is not None and not v.startswith("-")]
    if name in _CONTAINER_ENGINES:
        if rest[:1] == ["container"]:
            rest = rest[1:]
        return bool(rest) and rest[0] in _CONTAINER_RUNS
    return name in ("kubectl", "oc") and bool(rest) and rest[0] in _KUBECTL_RUNS


def _by_exception(candidates: Sequence[CompiledRule], match: RuleMatch | None) -> bool:
    """Whether the command asks because an allow rule's exception fired.

    `readonly find ** unless -exec …` not matching `find . -exec rm {} +`, an
    undecidable clause, or a failing check: the policy asks on purpose, and approving
    the bare prefix would allow every spelling the exception exists to catch.
    """
    if match is not None and (match.uncertain or match.check_failure is not None):
        return True
    if match is not None and any(
        rule.ref is match.rule and not rule.plain and rule.verdict is not Verdict.ALLOW
        for rule in candidates
    ):
        # `ask strings ** operand @*/**`, `ask man ** when -P`: an ask with a clause is an
        # exception carved out of a broader rule; approving the bare prefix (`strings`)
        # would allow every spelling it exists to catch (review F7)
        return True
    return any(rule.verdict is Verdict.ALLOW and not rule.plain for rule in candidates)


def _undecided_deny(
    candidates: Sequence[CompiledRule], match: RuleMatch, default: Verdict
) -> bool:
    """Whether `match` is a deny rule that cannot be decided (a word that is not literal:
    `make $T` and `deny make ** unless --version`) under `default deny`, where nobody
    answers an ask: what cannot be decided is denied (review FW5)."""
    return (
        match.uncertain
        and default is Verdict.DENY
        and any(rule.ref is match.rule and rule.verdict is Verdict.DENY for rule in candidates)
    )


def _denied_undecided(reason: Reason) -> Reason:
    """`reason` (an undecidable deny's ask) as the deny `_undecided_deny` makes it."""
    return _objects.reason(
        reason.rule_id,
        f"{reason.message}; the policy's default is deny, so a line it cannot decide is "
        "denied",
        Verdict.DENY,
        reason.location,
        "",
    )


def _exception_reason(
    inner: Sequence[Word], candidates: Sequence[CompiledRule], verdict: Verdict
) -> Reason | None:
    """Name the allow rule whose exception left this command to the default: one that
    applies, or may where a word is not literal (`date -d @$TS`: the rule's match was
    undecidable, review FW5)."""
    unsure = any(word.value is None for word in inner[1:])
    applies = "may apply (a word that is not literal may be one)" if unsure else "applies"
    for rule in candidates:
        if rule.verdict is Verdict.ALLOW and not rule.plain:
            ref = rule.ref
            return Reason(
                rule_id=ref.id,
                message=(
                    f"the rule `{ref.id}` ({ref.message}) does not cover this use of "
                    f"`{inner[0].value}`: one of its exceptions {applies}"
                ),
                verdict=verdict,
                location=ref.location,
            )
    return None


def _container_copy_words(
    inner: Sequence[Word], spec: OptionSpec | None
) -> tuple[tuple[Word, str, bool], ...]:
    """The paths of `docker cp SRC DEST` (or `docker container cp`): each source read as
    a whole folder, and the destination written as one, or, for `docker cp c:/app/x .`,
    `./x` (a folder here takes the source under its own name; `c:/app/.` spills its
    contents into it). A container's side (`c:/x`) names a path here no file has."""
    verb = _container_copy_verb(inner)
    if not verb:
        return ()
    view = option_view(inner, spec or _PLAIN_SPEC, start=verb)
    operands = sorted({*view.operands, *view.unknown})
    if not operands:
        return ()
    target = inner[operands[-1]]
    found = [(inner[index], "read", True) for index in operands[:-1]]
    names = [_container_copy_name(inner[index].value) for index in operands[:-1]]
    here = target.value is not None and os.path.normpath(target.value) == "."
    if here and names and all(name is not None for name in names):
        found.append((target, "write", False))
        found.extend((_value_word(target, f"./{name}"), "write", True) for name in names if name)
    else:
        found.append((target, "write", True))
    return tuple(found)


def _container_copy_verb(inner: Sequence[Word]) -> int:
    """Where the operands of a container tool's `cp` start (0: it is no `cp`):
    `docker cp`, `docker container cp`, and compose's (review CP7: `docker compose -f
    x.yml cp`, `docker-compose cp`), whose options before the verb are skipped."""
    first = _word(inner, 1)
    if first == "cp":
        return 2
    if first == "container":
        return 3 if _word(inner, 2) == "cp" else 0
    compose = inner[0].value is not None and inner[0].value.endswith("-compose")
    if not compose and first != "compose":
        return 0
    index = 1 if compose else 2
    while index < len(inner):
        value = inner[index].value
        if value is None:
            return 0  # a word not known where the verb may be: no `cp` is seen
        if not value.startswith("-"):
            return index + 1 if value == "cp" else 0
        index += 2 if value in _COMPOSE_VALUED else 1
    return 0


# compose's options before its verb that take the next word as their value
_COMPOSE_VALUED: Final = frozenset(
    {"-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile",
     "--ansi", "--parallel", "--progress", "-c", "--context", "-H", "--host", "--log-level"}
)  # fmt: skip


def _container_copy_name(source: str | None) -> str | None:
    """The name `docker cp SRC .` gives what it copies: the last component of SRC's path
    (after `CONTAINER:`); None when it copies a folder's contents (`c:/app/.`, `c:/`) or
    the source is not known."""
    if source is None:
        return None
    container, colon, path = source.partition(":")
    if colon and not container.startswith(("/", ".")):
        source = path
    name = source.rstrip("/").rpartition("/")[2]
    return None if name in ("", ".", "..") else name


# the container tools whose `cp` copies between the host and a container
_CONTAINER_COPIERS: Final = frozenset(
    {"docker", "podman", "nerdctl", "finch", "docker-compose", "podman-compose"}
)


def _word(words: Sequence[Word], index: int) -> str | None:
    return words[index].value if index < len(words) else None


def _match_verdict(match: RuleMatch, default: Verdict) -> Verdict:
    """The verdict a rule match gives under a policy whose `default` is `default`.

    An allow rule whose `checked-by` check fails does not allow the command: it is left
    where no rule would leave it, as when an `unless` option is present, but never looser
    than ask. So the policy's default raised to ask: ask under `default ask`, deny under
    `default deny` (review BR7: under the ci policy `sed '1e id' f` asked, and nobody is
    there to answer), the same rule as for a read-only rule's write (`rule_verdict`).
    """
    if match.check_failure is not None:
        return default.at_least(Verdict.ASK)
    return match.verdict


def _match_reason(match: RuleMatch, where: str, default: Verdict) -> Reason:
    ref = match.rule
    verdict = _match_verdict(match, default)
    message = ref.message or "matched"
    if match.uncertain:
        message += (
            " (may match: a word that is not literal could be an option, or an exception's"
            " option may be the value of the option before it)"
        )
    if match.check_failure:
        message += f"; {match.check_failure}"
        if verdict is not match.verdict:
            message += f", and the policy's default is {default.value}"
    if where:
        message = f"{where}: {message}"
    return _objects.reason(ref.id, message, verdict, ref.location, "")


# find's actions that delete the files found or hand them to a command
_FIND_ACTING = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir"})
_FIND_EXPRESSION_START = frozenset({"(", ")", "!", ","})


# listers' options that follow the symbolic links below their operands
_LINK_FOLLOWERS: Final = {
    **dict.fromkeys(("ls", "dir", "vdir"), ("-L", "--dereference")),
    "du": ("-L", "--dereference"),
    "tree": ("-l",),
    **dict.fromkeys(("rg", "fd", "fdfind"), ("-L", "--follow")),
}


def _follows_links(name: str, inner: Sequence[Word], view: OptionView) -> bool:
    """Whether a recursive listing follows the links it meets (review BM10: `ls -RL .`
    through a workspace link listed the names in `~/.ssh`)."""
    if name == "find":
        return _find_follows_links(inner)
    if name in _TREE_OWNERS:
        # `chown -RL x sub`: a link below `sub` is followed, and what it points to changed
        # (review BS10); without `-L` (`-P` is the default) links are left alone
        return view.has(*_RECURSIVE) and view.has("-L")
    if name in _COMPRESSORS or name in _DECOMPRESSORS:
        # `gzip -rf sub` compresses the files links below `sub` point to (review BS9), and
        # `gzip -rc sub` reads them (review CA4)
        forced = view.has("-f") or any(
            len(o.name) > 3 and "--force".startswith(o.name) for o in view.options
        )
        return (forced or _to_stdout(name, view)) and _compressing_tree(view)
    if name == "zip":
        # (review CA3: it stores what links hold)
        return not (view.has("-y") or _has_long(view, "--symlinks"))
    options = _LINK_FOLLOWERS.get(name)
    return options is not None and view.has(*options)


# recursive writers whose `-L` follows the links they meet
_TREE_OWNERS: Final = frozenset({"chown", "chgrp", "setfacl"})


def _find_follows_links(inner: Sequence[Word]) -> bool:
    return any(w.value in ("-L", "-follow") for w in inner[1:])


# programs that change or remove the files they are given: run by `find -exec`, the files
# below find's start points are written
_FIND_WRITERS = frozenset(
    {"rm", "shred", "unlink", "truncate", "chmod", "chown", "chgrp", "mv", "rmdir", "dd",
     "tee", "cp", "ln", "touch", "install", "sed", "gsed", "perl", "wipe", "srm"}
)  # fmt: skip


def _find_access(inner: Sequence[Word]) -> str:
    """`write` when find deletes (`-delete`) or runs a command that is a known writer or
    not literal; `read` for any other command (`-exec cat {} +` reads what it finds)."""
    words = list(inner)
    for index, word in enumerate(words):
        if word.value == "-delete":
            return "write"
        if word.value in _FIND_ACTING and index + 1 < len(words):
            command = words[index + 1].value
            if command is None or program_name(command.rpartition("/")[2]) in _FIND_WRITERS:
                return "write"
    return "read"


def _find_start_points(inner: Sequence[Word], access: str) -> Iterable[tuple[Word, str, bool]]:
    """find's start points (after `-H`, `-L`, `-P`, `-D LIST`, `-O LEVEL`, before the
    first word of the expression), each as a path of `access`."""
    index = 1
    while index < len(inner):
        value = inner[index].value
        if value in ("-H", "-L", "-P") or (value is not None and value.startswith("-O")):
            index += 1
        elif value == "-D":
            index += 2
        else:
            break
    for word in inner[index:]:
        value = word.value
        if value is not None and (value.startswith("-") or value in _FIND_EXPRESSION_START):
            return
        yield word, access, False


_RG_LISTING = ("--files", "--type-list")


def _pattern_folders(
    name: str, inner: Sequence[Word], view: OptionView
) -> Iterable[tuple[Word, str, bool]]:
    """The folders zip and 7-Zip read whole for the wildcards they match themselves:
    with zip's `-R` (`--recurse-patterns`) or 7-Zip's `-r`, every operand is a pattern
    matched in every folder below `.` (review CA3: `zip -0R - '.e*'` printed `.env`);
    otherwise 7-Zip matches a quoted wildcard (`7z a x.7z 'src/*env'`) in its folder,
    where `*` matches names that start with a dot too (review CA7). (zip without `-R`
    leaves wildcards to the shell.)"""
    if _zip_patterns(view) if name == "zip" else _seven_zip_recurses(inner):
        yield _value_word(inner[0], "."), "read", True
        return
    if name == "zip":
        return
    for index in view.operands:
        value = inner[index].value
        if value is not None and any(ch in value for ch in "*?["):
            head, _, _rest = value.partition(next(ch for ch in value if ch in "*?["))
            folder = head.rpartition("/")[0] if "/" in head else "."
            yield _value_word(inner[index], folder or "/"), "read", True


def _archives_working_folder(name: str, inner: Sequence[Word]) -> bool:
    """Whether 7-Zip's or rar's command adds files to its archive and no file is given
    (`7z a x.7z`, `7z u -ttar x.tar`, `rar a x.rar`): both then take `*` in the working
    folder (rar's default mask), folders with what they hold. Not with `-si` (stdin) or
    `-i…`/`-n…` (the names to include; lists and patterns ask by their rules), nor with
    a word that cannot be read here (a name, or nothing, judged as the approval's)."""
    operands: list[str] = []
    switches = True
    for word in inner[1:]:
        value = word.value
        if value is None:
            return False
        if switches and value == "--":
            switches = False
        elif switches and value.startswith("-") and len(value) > 1:
            if value[1:3].lower() == "si" or value[1:2].lower() in ("i", "n"):
                return False
        else:
            operands.append(value)
    adders = _RAR_ADDERS if name == "rar" else _SEVEN_ZIP_ADDERS
    return len(operands) == 2 and operands[0].lower() in adders


# the commands that add files to an archive: 7-Zip's `a` and `u`; rar's also move them in
# (`m`, `mf`) or freshen what the archive holds (`f`)
_SEVEN_ZIP_ADDERS: Final = frozenset({"a", "u"})
_RAR_ADDERS: Final = frozenset({"a", "u", "m", "mf", "f"})


def _zip_patterns(view: OptionView) -> bool:
    """zip's `-R`: its operands are patterns matched below `.`."""
    return view.has("-R") or _has_long(view, "--recurse-patterns")


def _seven_zip_recurses(inner: Sequence[Word]) -> bool:
    """7-Zip's `-r` (and `-r0`, wildcards only) recursion switch; `-r-` turns it off."""
    return any(w.value in ("-r", "-r0") for w in inner[1:])


def _reads_trees(name: str, view: OptionView, inner: Sequence[Word]) -> bool:
    """Whether a content reader (`_CONTENT_READERS`) reads whole trees here."""
    if name in _SEVEN_ZIP:
        # `7z a x.7z DIR` adds DIR with everything below it (review BZ: an approval of
        # `7z a` archived `~`); its other commands read archives, files
        return True
    if name in ("tar", "gtar", "bsdtar"):
        # creating or adding to an archive reads each folder named whole, unless told
        # not to; `tar czf x.tgz DIR` is the old spelling of `-czf`
        first = _word(inner, 1)
        old_style = first is not None and first[:1] != "-" and bool(set(first) & set("cru"))
        return (old_style or view.has(*_TAR_CREATE)) and not view.has("--no-recursion")
    if name in ("rg", "ag", "ack"):
        # recursive unless only listing (`rg --files`, `rg --type-list`)
        return not view.has("--files", "--type-list", "--list-file-types", "--help-types")
    if name == "rgrep":
        return True  # Debian's `exec grep -r "$@"` (review EX3)
    if name in ("grep", "egrep", "fgrep", "zgrep"):
        if view.has(*_GREP_RECURSIVE):
            return True
        # `-d recurse`, `--directories=recurse`; an unknown value may be `recurse`, and
        # grep takes any unique prefix of a value (`-d rec`: review BC2), so anything but
        # a prefix of `read` or `skip` recurses or fails
        return any(
            o.value is None or not ("read".startswith(o.value) or "skip".startswith(o.value))
            for o in view.find("-d", "--directories")
        )
    if name in ("cp", "rsync") and view.has(*_ARCHIVE):
        return True
    if name == "rsync" and rsync_reads_batch(view):
        # a batch turns recursion on itself, and names what it writes below the
        # destination (review HF1: `rsync --read-batch=x .` wrote `.git/hooks/pre-commit`)
        return True
    if name == "zip":
        # (review CA3: the long spellings too, abbreviated or not: CB4)
        return view.has("-r") or _zip_patterns(view) or _has_long(view, "--recurse-paths")
    if name in _COMPRESSORS or name in _DECOMPRESSORS:
        # `gzip -rc . | gzip -dc` prints every file below (review CA4); without `-c` the
        # files are compressed where they are, which the write checks judge
        return _compressing_tree(view) and _to_stdout(name, view)
    if name in ("diff", "sdiff"):
        # without `-r` too: two folders are compared file by file at their top level (with
        # `-N` each file printed whole), and `diff DIR FILE` reads `DIR/FILE` (review BK6:
        # `diff -N ~ empty` printed `~/.netrc`); read as `diff -r`, the strict side
        return True
    return view.has("-r", "-R", "--recursive")


def _reads_hidden(name: str, view: OptionView) -> bool | tuple[str, ...]:
    """Whether `rg` / `ag` read hidden files here (both skip them by default): all of
    them (True), none (False), or those whose names match the globs returned.

    Fails towards True: following links can reach a hidden file, `-u` counts however it
    is spelt (`-uu`, `-nuu`, `-u -u`), and an ignore file given by option that cannot be
    read ahead may re-include any (`!.*`, a value that is not literal, `-`: review DE3);
    one named plainly is read as the tree's are (`SegmentRules.ignore_files`, closing 28:
    every `--ignore-file` had counted every hidden file). A whitelist
    (`-g GLOB`, `-t TYPE`, a type `--type-add` makes) admits the hidden files its globs
    match, in folders that are not hidden (review DE2, DG2: `rg -tjson` read `.env.json`;
    DG8: `rg -g '*.py'` had been judged as reading every hidden file)."""
    if view.unknown or view.has("--hidden", "-.", "-L", "--follow"):
        return True
    if name == "rg":
        weight = {"-u": 1, "--unrestricted": 1, "-uu": 2, "-uuu": 3}
        if any(o.value in (None, "", "-") for o in view.find("--ignore-file")):
            return True
        if sum(weight.get(o.name, 0) for o in view.options) >= 2:
            return True
        admitted = _rg_whitelist(view)
        return True if admitted is None else admitted
    return view.has("-u", "--unrestricted", "-f")


def _rg_whitelist(view: OptionView) -> tuple[str, ...] | None:
    """The globs of rg's whitelists here (`-g`, `--iglob`, the types `-t` selects, with
    those `--type-add` defines), or None where one cannot be told (a value that is not
    literal, a glob with a `/`, a type rg's table here does not know)."""
    added: dict[str, list[str]] = {}
    for option in view.options:
        if option.name == "--type-add":
            if option.value is None or ":" not in option.value:
                return None
            type_name, _, globs = option.value.partition(":")
            if globs.startswith("include:"):
                return None  # (a type made of other types: not followed)
            for glob in (g for g in globs.split(",") if g):
                name_glob = _type_name_glob(glob)
                if name_glob is None:
                    return None
                added.setdefault(type_name, []).append(name_glob)
    admitted: list[str] = []
    for option in view.options:
        if option.name in ("-g", "--glob", "--iglob"):
            if option.value is None:
                return None
            # read with rg's gitignore line parser: trailing whitespace, Unicode's too, is
            # dropped (review EC3: `-g '.env '` read `.env`)
            value = subtree.rg_trimmed(option.value)
            if value.startswith("!"):
                continue  # (an exclusion admits nothing)
            if "/" in value.strip("/"):
                return None
            admitted.append(value.strip("/"))
        elif option.name in ("-t", "--type"):
            if option.value is None:
                return None
            # (`all` is every type, the ones `--type-add` makes too: rg applies them all
            # before any `-t`, review EX1)
            names = (*RG_TYPES, *added) if option.value == "all" else (option.value,)
            for type_name in names:
                if type_name not in RG_TYPES and type_name not in added:
                    return None
                admitted.extend((*RG_TYPES.get(type_name, ()), *added.get(type_name, ())))
    return tuple(dict.fromkeys(admitted))


def _type_name_glob(glob: str) -> str | None:
    """A `--type-add` glob as rg matches it: against the file's name alone, where globset
    lets a leading `**/` match no folder at all (review EU1: `--type-add 'x:**/.env*'`
    admitted `.env`, which `rg_glob` had read as needing a `/`). None for any other `/`
    (`{**/.env,x}`, `a/**`): not read here, so every hidden name counts."""
    while glob.startswith("**/"):
        glob = glob[3:]
    # (nothing left, `**/` or `**/**/`: globset matches every file, review EX2)
    return None if not glob or "/" in glob else glob


def has_xargs(unwrapped: Unwrapped) -> bool:
    return any(gnu_base(use.name) == "xargs" for use in unwrapped.chain)


def _unquoted_name(text: str) -> str:
    """`text` without the quote characters and escapes bash removes (`-"LF$HOME/x"` is
    `-LF$HOME/x`, `$'-'-pidfile=` is `--pidfile=`): where an option's name is looked for
    in a word that is not literal, whatever its value becomes."""
    return _QUOTE_MARKS.sub("", text)


_QUOTE_MARKS = re.compile(r"\$(?=['\"])|['\"\\]")


def _extraction(name: str, inner: Sequence[Word]) -> str | None:
    """How `inner` extracts an archive (`7z x`, `ar -x`, `jar -v -x -f`, …), or None.

    Each program's command is read as it reads it: 7-Zip's first word that is no switch,
    in any case; ar's and lha's first word, with or without a dash; the letters of any
    word or bundle for the tar-like ones (jar, fastjar, bsdtar's first word, atool,
    bsdcpio, pax, dpkg, dpkg-deb), their long options by any unique prefix; a word not
    literal, or jar's `@FILE` of arguments, may be any of these (reviews CI2-CI5, CJ1-CJ4).
    """
    if name not in _EXTRACTORS:
        return None  # (asked of every segment: most are no extractor)
    words = [w.value for w in inner[1:]]
    if name in _SEVEN_ZIP:
        command = next((w for w in words if w is None or not w.startswith("-")), "")
        return f"{name} {command}" if command is None or command.lower() in ("x", "e") else None
    first = words[0] if words else ""
    if name in _LETTER_COMMAND:
        # (`lha x`, `lha -xv`, `lha ef`, `zoo -extract`: the command is the first letter)
        if first is None or first.lstrip("-")[:1] in ("x", "e"):
            return f"{name} {first or '…'}"
        return None
    if name in _ALWAYS_EXTRACT:
        return _unless_listing(name, words, _ALWAYS_EXTRACT[name], _LISTING_VALUES.get(name, ()))
    if name in _COMMAND_EXTRACT:
        command = next((w for w in words if w is None or not w.startswith("-")), "")
        if command is None or command.lower().lstrip("-") in _COMMAND_EXTRACT[name]:
            return f"{name} {command}"
        return None
    if name in _COMMAND_KEEPS:
        return _unless_command(name, words, _COMMAND_KEEPS[name])
    if name == "lzop":
        return _lzop_extraction(words)
    short, long = _BUNDLED_EXTRACT[name]
    given = _bundled(name, words, short, long, dashless_first=name in _DASHLESS_FIRST)
    return None if given is None else f"{name} {given}"


def _bundled(
    name: str, words: Sequence[str | None], short: str, long: Sequence[str], *,
    dashless_first: bool = False,
) -> str | None:
    """The first word of `words` that gives one of the option letters `short` (in any
    word or bundle, up to a letter that takes the rest as its value: `_BUNDLE_VALUES`) or
    a unique prefix of one of the `long` options, as tar-like programs read their options;
    a word not literal, or an `@FILE` of arguments (jar, ar), may be any; None if none."""
    valued = _BUNDLE_VALUES.get(name, "")
    for index, word in enumerate(words):
        if word is None or (word.startswith("@") and name in _AT_FILES):
            return word or "…"
        if word == "--":
            break
        if word.startswith("--"):
            # (any unique prefix, one letter too: libarchive takes `--e`, review CK2)
            option = word.partition("=")[0]
            if len(option) > 2 and any(known.startswith(option) for known in long):
                return word
        elif word.startswith("-") or (index == 0 and dashless_first):
            for letter in word.lstrip("-"):
                if letter in short:
                    return word
                if letter in valued:
                    break  # (the rest is its value: `dpkg-deb -Zxz`, review CK6)
    return None


def _lzop_extraction(words: Sequence[str | None]) -> str | None:
    """lzop restores the names stored in an archive of several files whenever it
    decompresses to files (review CL2: `lzop -d m2.lzo` wrote `.mcp.json`), and under
    `-x`, `-N`, `-P` always (CK7): only a decompression to stdout writes no stored name."""
    restores = _bundled("lzop", words, "xNP", ("--extract", "--name", "--path"))
    if restores is not None:
        return f"lzop {restores}"
    decompresses = _bundled("lzop", words, "d", ("--decompress", "--uncompress"))
    if decompresses is None:
        return None
    if _bundled("lzop", words, "c", ("--stdout", "--to-stdout")) is not None:
        return None
    return f"lzop {decompresses}"


def _extractor_name(name: str) -> str:
    """The extractor `name` is under a version, a toolchain's prefix or a port's suffix
    (`llvm-ar-14`, `gcc-ar`, `x86_64-linux-gnu-gcc-ar-12` are `ar`: review CL1), or `name`."""
    if name in _EXTRACTORS or "-" not in name:
        return name
    # (the last dash part but versions and MacPorts' `-mp`: `llvm-ar-mp-14` is `ar`, review
    # CM4; not any part: `dpkg-query` is no `dpkg`, review CN16)
    parts = name.split("-")
    while len(parts) > 1 and (parts[-1] == "mp" or _VERSION_PART.fullmatch(parts[-1])):
        parts.pop()
    return parts[-1] if parts[-1] in _EXTRACTORS else name


_VERSION_PART = re.compile(r"[0-9][0-9.]*")


def _stdin_names(name: str, inner: Sequence[Word]) -> str | None:
    """How `inner` archives or copies the files its stdin names (`bsdcpio -o < list`,
    `pax -w`, `afio -o`: review CL6), or None: those names are the input's to choose."""
    spec = _STDIN_NAMES.get(name)
    if spec is None:
        return None
    given = _bundled(name, [w.value for w in inner[1:]], *spec)
    return None if given is None else f"{name} {given}"


# compilers, preprocessors and bundlers, under a toolchain's prefix or a version
_COMPILER: Final = re.compile(
    r"(?:.*-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|cpp|tcc|icx|icpx|rustc|esbuild|nvcc|"
    r"gfortran|gccgo|swiftc|zig|bun|deno|as|gas|nasm|yasm)(?:-[0-9][0-9.]*)?"
)
# the ones that read their input when no source file is named (`cpp <<< …`, `esbuild`)
_STDIN_BY_DEFAULT: Final = frozenset({"cpp", "esbuild", "tcc"})
_STDIN_NAMES_OF: Final = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
# a file name that is an open descriptor or terminal, whose contents the line (or whoever
# holds the descriptor) gives: as a program's script, any code
_DESCRIPTOR_NAME: Final = re.compile(
    r"/dev/(?:stdin|tty|fd/[0-9]+)|/proc/[^/]+(?:/task/[^/]+)?/fd/[0-9]+|/dev/pts/[0-9]+"
)


def names_descriptor(value: str) -> bool:
    """Whether `value` names an open descriptor or a terminal (`/dev/stdin`,
    `/dev/fd/5`, `/proc/self/fd/0`), which reads what is fed to it (review ET1, ET2)."""
    return _DESCRIPTOR_NAME.fullmatch(os.path.normpath(value)) is not None
_NO_INPUT: Final = frozenset({"--version", "--help", "-h", "-v", "--v"})
# the options of cpp and tcc that take the next word (headers and folders are no source)
_PREPROCESSOR_VALUED: Final = frozenset(
    {"-o", "--outfile", "-D", "-U", "-I", "-MF", "-MT", "-MQ", "-include", "-imacros",
     "-isystem", "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
     "-isysroot", "-x", "-A", "-Xpreprocessor", "-L", "-l", "-B", "--sysroot", "-std"}
)  # fmt: skip


_SUMS: Final = frozenset(
    {"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "cksum",
     "b2sum", "shasum", "gmd5sum", "gsha1sum", "gsha256sum", "gsha512sum", "gb2sum", "rhash",
     "b3sum"}
)  # fmt: skip
_SUM_BUNDLE: Final = re.compile(r"-[bctwz]*c[bctwz]*")
# ctags under its distributions' names (review DB3: Debian's is `ctags-universal`)
_CTAGS: Final = frozenset(
    {"ctags", "etags", "ctags-universal", "universal-ctags", "uctags", "exuberant-ctags",
     "ctags-exuberant", "etags.emacs", "ctags.emacs", "cscope"}
)  # fmt: skip
_LIST_READERS: Final = _SUMS | _CTAGS | {"wc", "du", "sort", "find", "git", "clang-format",
                                         "b3sum"}  # fmt: skip


def _file_list_option(name: str, inner: Sequence[Word]) -> str | None:
    """The option by which `wc`, `du`, `sort` (`--files0-from`, by any prefix getopt
    takes), `find` (`-files0-from`) or a checksum tool (`-c`, `--check`) reads the names
    of the files it opens from a list, or None."""
    program = program_name(name)
    if program not in _LIST_READERS:
        return None
    if program in _CTAGS:
        # a list by option (`-i`, `-L`, bundled: `-bi l`), or one the project ships
        # (`cscope.files`; `.ctags.d/*.ctags` may say `-L`): review DA5; not what only
        # prints its version or help (DB7)
        if any(w.value in _NO_INPUT or (w.value or "").startswith("--list-") for w in inner[1:]):
            return None
        return "(a file list)"
    for word in inner[1:]:
        value = word.value
        if value is None or value == "--":
            continue
        option = value.partition("=")[0]
        if program in ("wc", "du", "sort") and len(option) > 2 and "--files0-from".startswith(
            option
        ) and option.startswith("--f"):
            return value
        if program == "find" and option == "-files0-from":
            return value
        if program == "git" and option.startswith("--pathspec-") and option != (
            "--pathspec-file-nul"
        ):
            # `git restore --pathspec-from-file=l` rewrote the `CLAUDE.md` it listed,
            # `git rm` removed it (review CZ6); git takes the option by any prefix
            return value
        if program == "clang-format" and (
            (value.startswith("-") and option.lstrip("-").startswith("file"))
            or value.startswith("@")
        ):
            # (LLVM takes `-files=` and `--files=`, and response files: review DA5)
            return value
        if program in _SUMS and (
            _SUM_BUNDLE.fullmatch(value) or (len(option) > 2 and "--check".startswith(option))
        ):
            return value
    return None


def _native_build_args(name: str, inner: Sequence[Word]) -> str | None:
    """The spelling by which `cmake --build` (`-- ARGS`) or `meson compile`
    (`--ninja-args`, `--vs-args`, `--xcode-args`) passes words to the build tool it runs,
    or None."""
    if name not in ("cmake", "meson"):
        return None
    values = [w.value for w in inner[1:]]
    if name == "cmake" and "--build" in values and "--" in values[values.index("--build") :]:
        return "cmake --build … --"
    if name == "meson" and values[:1] == ["compile"]:
        for value in values[1:]:
            # (argparse takes a long option by any unique prefix: `--n=…`, review CY7)
            key = "" if value is None else value.partition("=")[0]
            if value is None or (
                len(key) > 2 and any(option.startswith(key) for option in _MESON_NATIVE)
            ):
                return f"meson compile {value or '…'}"
    return None


_MESON_NATIVE: Final = frozenset({"--ninja-args", "--vs-args", "--xcode-args"})


# entries of each of the home's protected folders looked at for links (`linked_places`):
# per folder, so that a large one (`~/.claude`) leaves the others theirs, and below each
# of their folders (`~/.claude/todos`), so that one leaves its siblings theirs (DW3)
_LINK_SCAN_BUDGET: Final = 256
_LINK_SCAN_SECONDS: Final = 10.0  # how long what `linked_places` found is kept
_LINK_SCAN_TOP: Final = 4096  # a protected folder's own entries looked at
_LINK_SCAN_DEPTH: Final = 3


def _linked_at(path: str, linked: Sequence[tuple[str, str]]) -> bool:
    """Whether `path` is at or below one of `linked`'s targets."""
    return _link_to(path, linked) is not None


def _link_to(path: str, linked: Sequence[tuple[str, str]]) -> str | None:
    """The link of `linked` whose target `path` is at or below, or None."""
    for target, link in linked:
        if path == target or path.startswith(target + "/"):
            return link
    return None


_Links = tuple[tuple[str, str], ...]


def _links_on_the_way(linked: Sequence[tuple[str, str]]) -> _Links:
    """(link met, place's link) for each link the kernel follows resolving each of
    `linked`'s links (`_links_met`), but the place's link itself."""
    found: list[tuple[str, str]] = []
    for _target, link in linked:
        found.extend((met, link) for met in _links_met(link) if met != link)
    return tuple(dict.fromkeys(found))


def _links_met(path: str) -> list[str]:
    """The links the kernel follows resolving absolute `path`, each named by the folder
    that holds it, resolved (`os.path.realpath`'s walk, noting each link); not below an
    automounter's host folder, which is not looked up."""
    found: list[str] = []
    pending = path.split("/")[::-1]
    resolved = ""
    hops = 0
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            resolved = resolved.rpartition("/")[0]
            continue
        candidate = f"{resolved}/{name}"
        if paths.under_automount(candidate) or hops > _MAX_LINK_HOPS:
            break
        try:
            target = os.readlink(candidate)
        except (OSError, ValueError):
            resolved = candidate  # no link (or not there): taken as written
            continue
        hops += 1
        found.append(candidate)
        if target.startswith("/"):
            resolved = ""
        pending.extend(target.split("/")[::-1])
    return found


_MAX_LINK_HOPS: Final = 40  # (as the kernel's limit on links followed in one path)


def _linked_home_places(
    places: Sequence[str], home: str, real_home: str
) -> tuple[tuple[str, str], ...]:
    """(target, link) for each protected home place (relative to `home`) that leads
    elsewhere through a link, itself or a folder above it inside home, and for each link
    among the entries of those that are folders, a few levels deep and within
    `_LINK_SCAN_BUDGET` entries each. A target that holds the home (`/`) is left out."""
    found: list[tuple[str, str]] = []
    for place in places:
        if not place or place.startswith("/"):
            continue
        lexical = f"{home}/{place}"
        target = paths.physical_target(lexical)
        if target is None or paths.under_automount(target):
            continue
        if target not in (lexical, f"{real_home}/{place}"):
            _add_link(found, target, lexical, home)
        if os.path.isdir(target):
            _links_in_place(lexical, target, found, home)
    return tuple(dict.fromkeys(found))


def _links_in_place(lexical: str, real: str, found: list[tuple[str, str]], home: str) -> None:
    """The links among the entries of protected folder `real` (named `lexical`): its own
    entries first, up to `_LINK_SCAN_TOP`, then each of its folders with a budget of its
    own, so that a large one (`~/.claude/todos`) hides no link beside it (review DW3:
    `~/.claude/settings.json` had been missed after 300 todo files)."""
    try:
        with os.scandir(real) as listing:
            entries = list(itertools.islice(listing, _LINK_SCAN_TOP))
    except (OSError, ValueError):
        return
    folders: list[tuple[str, str]] = []
    for entry in entries:
        name = f"{lexical}/{entry.name}"
        try:
            if entry.is_symlink():
                _add_entry_link(found, real, entry.name, name, home)
            elif entry.is_dir(follow_symlinks=False):
                folders.append((name, entry.path))
        except OSError:
            continue
    for name, path in folders:
        _links_below(name, path, found, [_LINK_SCAN_BUDGET], home, _LINK_SCAN_DEPTH - 1)


def _add_entry_link(
    found: list[tuple[str, str]], real: str, entry: str, name: str, home: str
) -> None:
    """Adds where the link `entry` of folder `real` (named `name` in the rules) leads,
    unless that is below an automounter's host folder, which is not looked up."""
    target = paths.physical_target(f"{real}/{entry}")
    if target is not None and not paths.under_automount(target):
        _add_link(found, target, name, home)


def _add_link(found: list[tuple[str, str]], target: str, link: str, home: str) -> None:
    if not (home == target or home.startswith(target.rstrip("/") + "/")):
        found.append((target, link))


def _links_below(
    lexical: str, real: str, found: list[tuple[str, str]], budget: list[int], home: str, depth: int
) -> None:
    """The links among the entries of folder `real` (named `lexical` in the rules)."""
    try:
        entries = list(os.scandir(real))
    except (OSError, ValueError):
        return
    for entry in entries:
        budget[0] -= 1
        if budget[0] < 0:
            return
        name = f"{lexical}/{entry.name}"
        try:
            if entry.is_symlink():
                _add_entry_link(found, real, entry.name, name, home)
            elif depth > 1 and entry.is_dir(follow_symlinks=False):
                _links_below(name, entry.path, found, budget, home, depth - 1)
        except OSError:
            continue


def _environment_secret(forms: Sequence[str], ctx: EvalContext, subtree: bool) -> str | None:
    """Why a path is a credential file the environment moved (`KUBECONFIG=~/k/prod.yaml`:
    review DR5): one of the forms at or below such a place, or, for a recursive reach
    (`subtree`), above it; None when none is."""
    for form in forms:
        for place, variable in ctx.env_secrets:
            below = form == place or form.startswith(place.rstrip("/") + "/")
            # a recursive reach above it reads or writes the place only where it is (DZ5:
            # `GRADLE_USER_HOME=$WS/.gradle` with no such file denied every `grep -r`)
            if below or (
                subtree and place.startswith(form.rstrip("/") + "/") and paths.lexists(place)
            ):
                return f"{secret_kind(variable)} the environment names (`{variable}`: `{place}`)"
    return None


# variables that name an agent's own folder, not a credential file (see `EvalContext`)
AGENT_FOLDER_VARIABLES: Final = frozenset({"CLAUDE_CONFIG_DIR", "CODEX_HOME"})


def secret_kind(variable: str) -> str:
    """What the place an environment variable names is, for messages."""
    if variable in AGENT_FOLDER_VARIABLES:
        return "an agent's configuration folder"
    return "a credential file"


def is_compiler(name: str) -> bool:
    """Whether `name` is a compiler, preprocessor or bundler (`_COMPILER`)."""
    return _COMPILER.fullmatch(name) is not None


def _source_from_stdin(name: str, inner: Sequence[Word]) -> bool:
    """Whether a compiler, preprocessor or bundler reads its source from stdin: `-` or
    `/dev/stdin` as an operand, or no source file at all for those that then read it
    (`cpp`, `esbuild`); a word that cannot be known may be either (review CV4)."""
    if not _COMPILER.fullmatch(name):
        return False
    values = [w.value for w in inner[1:]]
    if any(v is None or v in _STDIN_NAMES_OF for v in values):
        return True
    base = name.rsplit("-", 1)[-1] if "-" in name else name
    stem = name if name in _STDIN_BY_DEFAULT else base
    if stem not in _STDIN_BY_DEFAULT or any(v in _NO_INPUT for v in values):
        return False
    # a source named (`esbuild x.vue`, `cpp -dM /dev/null`): an operand, not an option's
    # value (review CZ2: `cpp -D V=1.0 <<< …` read `V=1.0` as the source)
    named = (
        v
        for before, v in zip(["", *values], values, strict=False)
        if before not in _PREPROCESSOR_VALUED and v and v[0] != "-" and "=" not in v
    )
    return next(named, None) is None


def _git_object_floors(inner: Sequence[Word]) -> list[Reason]:
    """Floors no approval lifts on git verbs that make a name the engine trusts stand for
    another object (reviews EZ3 to EZ6): the path checks of `git show HEAD:README.md` and
    `may_name_blob` take a path's blob and a ref's commit for what they seem, and an
    approved `git replace`, `git update-ref`, `git tag` or `git notes add` made them print
    a committed `.env`; `git unpack-file` writes any blob to a file a later `cat` reads."""
    subcommand = _word(inner, 1)
    found: str | None = None
    if subcommand in ("for-each-ref", "branch", "tag") and _raw_format(inner):
        return [_ask_floor("engine.git-raw-format", f"`git {subcommand}` prints the objects "
                           "its refs name whole with `%(raw)`, a blob's contents too")]
    command = _bisect_view_command(inner) if subcommand == "bisect" else None
    if command is not None:
        return [_ask_floor("engine.git-bisect-view", f"`git bisect view {command}` runs "
                           f"`git {command} … --bisect --`, which the engine does not judge")]
    if subcommand == "replace" and not _lists_replacements(inner):
        found = "makes git read one object in place of another wherever it is named"
    elif subcommand == "update-ref":
        found = _ref_update_target(inner)
    elif subcommand == "tag":
        found = _tag_target(inner)
    elif subcommand == "notes" and _notes_reuse(inner):
        found = "stores the object `-C`/`-c` names as a note, which `git log` prints"
    elif subcommand == "unpack-file":
        found = "writes a blob it is given by id to a file any later read prints"
    elif subcommand == "update-index" and _stages_by_id(inner):
        found = "stages an object it is given by id under a path, which `git show :PATH` prints"
    elif subcommand == "mktree":
        found = "builds a tree from object ids on stdin, under names a later read trusts"
    elif subcommand == "branch" and any(_may_be_stash(w.value) for w in inner[2:]):
        found = "may name a stash's commit, whose untracked files a later `git log -p` prints"
    else:
        found = _ref_copy_target(inner, subcommand)
    if found is None:
        return []
    return [_ask_floor("engine.git-object-swap", f"`git {subcommand}` {found}")]


def _ref_copy_target(inner: Sequence[Word], subcommand: str | None) -> str | None:
    """The other verbs that point a ref at an object the line names (review FF2, FF3):
    `git fetch . <.env's id>:refs/tags/v1` made a blob ref `git for-each-ref` printed,
    `git fetch . refs/stash:refs/heads/y`, `git symbolic-ref refs/heads/x refs/stash` and
    `git bisect start stash^3 HEAD` gave a stash's commit a name no stash check knows."""
    if subcommand in ("fetch", "pull"):
        return _fetch_refspec_target(inner)
    if subcommand == "stash" and _word(inner, 2) == "store":
        return "points `refs/stash` at the object it is given, a blob's id too"
    if subcommand == "symbolic-ref":
        return _symbolic_ref_target(inner)
    if subcommand == "bisect":
        return _bisect_stash(inner)
    # `git commit-tree -p stash …`: a commit whose parent is the stash's, which a `git
    # merge` or `reset --soft` of its id puts into history (review FJ2)
    if subcommand == "commit-tree" and any(_may_be_stash(w.value) for w in inner[2:]):
        return "may make a commit on top of a stash's, whose untracked files `git log -p` prints"
    # `git worktree add DIR stash`: a branch or folder holding the stash's commit, whose
    # untracked files a later `git log -p NAME` prints (review FH3)
    if (
        subcommand == "worktree"
        and _word(inner, 2) == "add"
        and any(w.value is None or _may_be_stash(w.value) for w in inner[3:])
    ):
        return "may check out a stash's commit, whose untracked files `git log -p` prints"
    return None


# `git fetch`'s and `git pull`'s options (git 2.39) that take the next word as their value
_GIT_FETCH_VALUED: Final = frozenset(
    {"--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs",
     "--negotiation-tip", "--refmap", "-o", "--server-option", "--upload-pack", "--filter",
     "--recurse-submodules-default", "--submodule-prefix", "-s", "--strategy", "-X",
     "--strategy-option", "--cleanup"}
)  # fmt: skip
_GIT_FETCH_SPEC: Final = OptionSpec(takes_value=_GIT_FETCH_VALUED)


def _fetch_refspec_target(inner: Sequence[Word]) -> str | None:
    """`git fetch|pull REMOTE REFSPEC…` (and `--refmap`): a source that may name a blob
    or a stash (`.` is this repository; an id or `refs/stash` reads the same from any
    remote that is a copy of it), a glob that may cover `refs/stash`, a `refs/replace/`
    destination; `--stdin` (any prefix git takes) reads refspecs the engine cannot see."""
    view = option_view(inner, _GIT_FETCH_SPEC, start=2)
    if view.unknown:
        return "is given a word that is not literal, which may be a refspec"
    for option in view.options:
        name = option.name.partition("=")[0]
        if len(name) > 3 and "--stdin".startswith(name):
            return "reads refspecs from stdin, which may copy a blob or a stash to a ref"
        glued = option.name.partition("=")[2] or option.value
        if len(name) > 4 and "--refmap".startswith(name) and _risky_refspec(glued):
            return f"maps refs by `{glued}`, which may copy a stash to a ref"
    for index in view.operands[1:]:
        value = inner[index].value
        if _risky_refspec(value):
            return f"copies `{value}`, which may be a blob or a stash's commit, to a ref"
    return None


def _risky_refspec(value: str | None) -> bool:
    """Whether a refspec's source (before its last `:`) may be a blob or a stash, or its
    glob may match `refs/stash`, or it writes a `refs/replace/` ref."""
    if value is None:
        return True
    spec = value.lstrip("+^")
    source, colon, destination = spec.rpartition(":")
    if not colon:
        source = spec
    glob = "*" in source and not source.startswith(("refs/heads/", "refs/tags/"))
    return glob or _risky_object(source) or "replace" in destination


def _raw_format(inner: Sequence[Word]) -> bool:
    """Whether a ref lister's format may hold `%(raw)`, which prints each ref's object
    whole: a ref that points at a blob (made before the floors above, or by a way they
    miss) printed a committed `.env` (review FF1). A format word that is not literal may."""
    return any(
        _RAW_ATOM.search(w.value) is not None if w.value is not None else "format" in w.text
        for w in inner[2:]
    )


# (`%(*raw)` prints the object a tag points at, a blob too: review FH1)
_RAW_ATOM: Final = re.compile(r"%\(\*?raw(?!:size\))")


def _bisect_view_command(inner: Sequence[Word]) -> str | None:
    """The git command `git bisect view|visualize CMD …` runs as `git CMD … --bisect --`
    (git 2.39 runs `git log` only when the first word is an option): under the `git
    bisect` approval it ran `git difftool -x` with committed code, and `git fast-export`
    printed a tracked `.env` (review FF5). A word that is not literal may be one."""
    if _word(inner, 2) not in ("view", "visualize") or len(inner) < 4:
        return None
    following = inner[3].value
    if following is None:
        return inner[3].text
    return None if following.startswith("-") else following


def _symbolic_ref_target(inner: Sequence[Word]) -> str | None:
    """`git symbolic-ref [-m MSG] NAME REF`: a REF that may be `refs/stash`, or a NAME under
    `refs/replace/` (review FF3); the one-operand form only reads."""
    operands: list[str | None] = []
    skip = False
    for word in inner[2:]:
        value = word.value
        if skip:
            skip = False
        elif value is None or not value.startswith("-"):
            operands.append(value)
        else:
            skip = value == "-m"
    if len(operands) < 2 and None not in operands:
        return None
    if None in operands or _may_be_stash(operands[1]) or "replace" in (operands[0] or ""):
        return "may point a ref at a stash, whose untracked files `git log -p` then prints"
    return None


def _bisect_stash(inner: Sequence[Word]) -> str | None:
    """`git bisect start|good|bad|… REV` marks REV with a `refs/bisect/` ref, which `git
    show refs/bisect/bad` prints; a stash's commit named there slips past the stash checks
    (review FF3). `replay` reads such lines from a file the engine does not read."""
    action = _word(inner, 2)
    if action in ("view", "visualize"):
        return None  # (`_bisect_view_command`)
    if action == "replay":
        return "replays bisect steps from a file, which may mark a stash's commit"
    if any(w.value is None or _may_be_stash(w.value) for w in inner[3:]):
        return "may mark a stash's commit, whose untracked files `git show` then prints"
    return None


def _stages_by_id(inner: Sequence[Word]) -> bool:
    """`git update-index --cacheinfo MODE,ID,PATH` (or `--index-info`, any unique prefix):
    the blob of a committed `.env` staged as `README.md`, which `git show :README.md`
    then printed (found beside review EZ3). A word that is not literal may be either."""
    for word in inner[2:]:
        name = (word.value or "--cacheinfo").partition("=")[0]
        # (`--ca` is unique to git, review FF6; `--c`, `--i` and the like are ambiguous
        # and fail, so any prefix of three letters or more counts)
        if len(name) > 2 and ("--cacheinfo".startswith(name) or "--index-info".startswith(name)):
            return True
    return False


def _lists_replacements(inner: Sequence[Word]) -> bool:
    """`git replace`, `git replace -l [PATTERN]`, `--list`, `--format=…` list only."""
    values = [w.value for w in inner[2:]]
    if not values:
        return True
    return any(
        v == "-l" or (v is not None and len(v) > 3 and "--list".startswith(v)) for v in values
    )


def _risky_object(value: str | None) -> bool:
    """Whether a revision given to be stored may name a blob: not literal, an abbreviated
    id, or `REV:PATH` (a blob by its path); or a stash's commit (review EZ8)."""
    return value is None or ":" in value or may_name_blob(value) or _may_be_stash(value)


def _may_be_stash(value: str | None) -> bool:
    """Whether a revision may be a stash's commit (`stash^3`, `refs/stash`, or found by its
    message, `:/untracked files on`), which holds the untracked files `git stash -u` put
    aside: a ref pointed there makes a plain `git log -p REF` print them (review EZ8)."""
    return value is not None and ("stash" in value.lower() or value.startswith(":/"))


def _ref_update_target(inner: Sequence[Word]) -> str | None:
    """`git update-ref [-m MSG] [--no-deref] REF NEW [OLD]`: NEW may name a blob, which
    `git show REF` then prints (review EZ5); a `refs/replace/` REF swaps objects (EZ3);
    `--stdin` may do either."""
    operands: list[str | None] = []
    delete = skip = done = False
    for word in inner[2:]:
        value = word.value
        if skip:
            skip = False
        elif value == "--" and not done:
            done = True
        elif not done and value is not None and _update_ref_stdin(value):
            return "reads the refs it sets from stdin, which may point one at a blob"
        elif value == "-m":
            skip = True
        elif value in ("-d", "--delete"):
            delete = True
        elif value is None or done or not value.startswith("-"):
            operands.append(value)
    if operands and (operands[0] is None or "replace" in operands[0]):
        return "may set a `refs/replace/` ref, which makes git read one object for another"
    if not delete and len(operands) > 1 and _risky_object(operands[1]):
        return "may point a ref at a blob, whose contents `git show REF` then prints"
    return None


# `git update-ref`'s long options (git 2.39), which it takes by any unique prefix
_UPDATE_REF_LONG: Final = ("no-deref", "stdin", "create-reflog")


def _update_ref_stdin(value: str) -> bool:
    """Whether an option word of `git update-ref` is `--stdin` as git reads it: `--std`,
    `--st` and `--s` are too (review FF1); a long option not known counts as it."""
    if not value.startswith("--"):
        return False
    known = long_option(value[2:].partition("=")[0], _UPDATE_REF_LONG)
    return known is None or known[0] == "stdin"


_GIT_TAG_VALUED: Final = frozenset(
    {"-m", "--message", "-F", "--file", "-u", "--local-user", "--cleanup", "--sort",
     "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--format"}
)  # fmt: skip
_GIT_TAG_SPEC: Final = OptionSpec(takes_value=_GIT_TAG_VALUED)
_GIT_TAG_LISTS: Final = frozenset(
    {"-l", "--list", "-d", "--delete", "-v", "--verify", "--contains", "--no-contains",
     "--merged", "--no-merged", "--points-at"}
)  # fmt: skip


def _tag_target(inner: Sequence[Word]) -> str | None:
    """`git tag [-a] NAME OBJECT`: an OBJECT that may name a blob makes `git show NAME`
    print it (review EZ5); the listing, deleting and verifying forms name no object."""
    view = option_view(inner, _GIT_TAG_SPEC, start=2)
    if any(o.name in _GIT_TAG_LISTS or o.name.startswith("-n") for o in view.options):
        return None
    if view.unknown or (len(view.operands) > 1 and _risky_object(inner[view.operands[1]].value)):
        return "may point a tag at a blob, whose contents `git show TAG` then prints"
    return None


def _notes_reuse(inner: Sequence[Word]) -> bool:
    """Whether `git notes …` takes a note from an object: `-C OBJ`, `-c OBJ`,
    `--reuse-message=OBJ`, `--reedit-message` (unique prefixes too), a blob by id among
    them (review EZ4: `git notes add -C <.env's id> HEAD`, then `git log` printed it).
    A word that is not literal may be one."""
    skip = False
    for word in inner[2:]:
        value = word.value
        if skip:
            skip = False
            continue
        if value is None:
            return True
        if value == "--":
            return False
        name = value.partition("=")[0]
        if value.startswith("--"):
            if len(name) > 3 and ("--reuse-message".startswith(name)
                                  or "--reedit-message".startswith(name)):
                return True
            skip = "=" not in value and name in ("--message", "--file", "--ref", "--strategy")
        elif value.startswith("-") and len(value) > 1:
            for at, letter in enumerate(value[1:]):
                if letter in "cC":
                    return True
                if letter in "mFs":
                    skip = at == len(value) - 2
                    break
    return False


def _ask_floor(rule_id: str, message: str) -> Reason:
    """An engine floor of `ask` that no approval lifts."""
    return Reason(rule_id=rule_id, message=message, verdict=Verdict.ASK)


def _loads_plugins(name: str) -> bool:
    """binutils' and LLVM's archivers and symbol listers, under any prefix or version
    (asked of every segment: the plain names first, the pattern only for a dashed one)."""
    return name in ("ar", "nm", "ranlib") or ("-" in name and bool(_PLUGIN_LOADER.fullmatch(name)))


def _may_be_plugin(value: str | None) -> bool:
    """Whether a word may be binutils' `--plugin` (`--p`, `--plu=x`), or bring it in from
    a response file (`@opts`: review CR6), or is not known."""
    if value is None or value.startswith("@"):
        return True
    name = value.partition("=")[0]
    return len(name) > 2 and "--plugin".startswith(name)


_PLUGIN_LOADER: Final = re.compile(r"(?:.*-)?(?:ar|nm|ranlib)(?:-[0-9][0-9.]*)?")
# the JDK's tools, which take `-J…` options for their VM (javac's are the ruleset's too)
_JVM_TOOLS: Final = frozenset(
    {"jar", "javac", "javadoc", "javap", "jarsigner", "keytool", "jlink", "jdeps", "jshell",
     "jcmd", "jconsole", "jdb", "jhsdb", "jinfo", "jmap", "jps", "jstack", "jstat", "jstatd",
     "jpackage", "jmod", "jdeprscan", "jfr", "jimage", "jrunscript", "rmiregistry",
     "serialver", "native2ascii", "kinit", "klist", "ktab", "wsimport", "xjc", "schemagen",
     "jwebserver", "jnativescan", "jaotc", "jhat", "jjs", "jsadebugd", "jvisualvm", "jmc",
     "javah", "javapackager", "pack200", "unpack200", "policytool", "rmic", "rmid", "idlj",
     "orbd", "servertool", "tnameserv", "wsgen", "appletviewer", "extcheck"}
)  # fmt: skip
# programs that read the names of the files they archive or copy from stdin, by the
# option letters and long options that say so (GNU cpio's rules are the ruleset's)
_STDIN_NAMES: Final = {
    "bsdcpio": ("op", ("--create", "--pass-through")),
    "paxcpio": ("op", ("--create", "--pass-through")),
    "afio": ("op", ()),
    "pax": ("w", ()),  # (with no file operand; with one, the tree checks are not there)
    "spax": ("w", ()),
    "scpio": ("op", ("--create", "--pass-through")),
}


def _unless_listing(
    name: str, words: Sequence[str | None], listing: frozenset[str], valued: Sequence[str]
) -> str | None:
    """`name`, which extracts on every use but where a listing, test or help option comes
    before its first operand (after it, the word may be a member's name: review CL), and
    is no value of the option before it (`munpack -C -h`: `-h` is the folder, review CM8;
    `valued`: the options that take the next word)."""
    letters = {v[1] for v in valued if len(v) == 2 and v[1] != "-"}
    value_next = False
    for word in words:
        if value_next:
            value_next = False
            continue
        if word in listing:
            return None
        if word is None or not word.startswith("-"):
            break
        value_next = word in valued or _bundle_ends_valued(word, letters)
    return name


def _bundle_ends_valued(word: str, letters: set[str]) -> bool:
    """Whether the bundle `word` (`-qC`) ends with a letter that takes the next word as
    its value (review CN13: `munpack -qC -h`); a valued letter before the end takes the
    rest of the bundle instead."""
    if word.startswith("--") or len(word) < 2:
        return False
    for index, letter in enumerate(word[1:], start=1):
        if letter in letters:
            return index == len(word) - 1
    return False


def _unless_command(name: str, words: Sequence[str | None], keeps: frozenset[str]) -> str | None:
    """`name COMMAND` where its command word is none that `keeps` names as writing nothing
    the archive chooses: an unknown command is taken to extract (`zpaq -extract`, `patool
    x`). zpaq's command is its first word, with or without a dash, abbreviated at will."""
    if name == "zpaq":
        command = words[0] if words else ""
    else:
        command = next((w for w in words if w is None or not w.startswith("-")), "")
    if command == "":
        return None  # (the bare program prints its help)
    if command is not None:
        given = command.lower().lstrip("-")
        if given and any(k.startswith(given) if name == "zpaq" else k == given for k in keeps):
            return None
    return f"{name} {command or '…'}"


# programs that read their options as tar does: the short letters and long options that
# extract (`jar -v -x -f x.jar`, `dpkg-deb -xv`, `bsdcpio -pd`: reviews CJ1-CJ4)
_BUNDLED_EXTRACT: Final = {
    "jar": ("x", ("--extract",)),
    "fastjar": ("x", ("--extract",)),
    "bsdtar": ("x", ("--extract",)),
    "atool": ("xX", ("--extract", "--extract-to")),
    "bsdcpio": ("ip", ("--extract", "--pass-through")),
    "pax": ("r", ()),
    "p7zip": ("d", ("--decompress", "--uncompress")),
    # (GNU ar reads a dashed `-x` anywhere: review CK1; `-M` runs the MRI script on stdin,
    # whose `EXTRACT` extracts: CM3)
    "ar": ("xM", ()),
    "lzop": ("xNP", ("--extract", "--name", "--path")),  # (`_lzop_extraction` reads it)
    "dpkg": ("xXRei", ("--extract", "--vextract", "--raw-extract", "--control", "--unpack",
                       "--install")),
    "dpkg-deb": ("xXRe", ("--extract", "--vextract", "--raw-extract", "--control")),
    "dpkg-source": ("x", ("--extract", "--before-build")),
    # Schily's star under its own and its emulations' names (review CL: not installed here)
    "star": ("x", ("--extract",)),
    "ustar": ("x", ("--extract",)),
    "suntar": ("x", ("--extract",)),
    "spax": ("r", ()),
    "scpio": ("ip", ("--extract", "--pass-through")),
    "paxcpio": ("ip", ("--extract", "--pass-through")),
    "paxtar": ("x", ("--extract",)),
    "ptar": ("x", ()),  # (perl's)
    "gpgtar": ("d", ("--decrypt", "--extract")),  # (gnupg's)
    "dar": ("x", ("--extract",)),
    "afio": ("ip", ()),
}  # fmt: skip
# of those, the ones whose first word may be their options without a dash (`jar xf`)
_DASHLESS_FIRST: Final = frozenset(
    {"jar", "fastjar", "bsdtar", "ar", "star", "ustar", "suntar", "paxtar"}
)
# of those, the ones that read words from an `@FILE` (GNU and LLVM ar, jar)
_AT_FILES: Final = frozenset({"jar", "fastjar", "ar"})
# extractors whose command is the first letter of their first word
_LETTER_COMMAND: Final = frozenset({"lha", "lhasa", "zoo"})
# letters that take the rest of their bundle as a value
_BUNDLE_VALUES: Final = {
    "dpkg-deb": "ZzS", "dpkg": "ZzSD", "lzop": "pSo", "bsdcpio": "FHEIORC", "paxcpio": "FHEIORC",
}  # fmt: skip


# extractors whose every use extracts but a listing or a test (review CI: not installed
# here, read from their manuals)
_ALWAYS_EXTRACT: Final = {
    "cabextract": frozenset({"-l", "--list", "-t", "--test", "--help", "--version"}),
    "unar": frozenset({"--help", "-h", "--version", "-v"}),
    "aunpack": frozenset({"--help", "--version"}),
    "unsquashfs": frozenset({"-l", "-ll", "-ls", "-lls", "-lc", "-llc", "-s", "-stat",
                             "-help", "-version"}),
    # the name of the file it writes is in its input (`begin 644 .bashrc`)
    "uudecode": frozenset({"--help", "--version"}),
    "unshar": frozenset({"--help", "--version"}),  # runs the archive's shell code (CK8)
    "dtrx": frozenset({"-l", "--list", "-t", "--table", "-h", "--help", "--version"}),
    "bsdunzip": frozenset({"-l", "-t", "-v", "-Z", "-h", "--help", "--version"}),
    "innoextract": frozenset({"-l", "--list", "-t", "--test", "-i", "--info", "-h", "--help",
                              "--version"}),
    "msiextract": frozenset({"-l", "--list", "-h", "--help", "--version"}),
    "unalz": frozenset({"-l", "-h", "--help"}),
    "unp": frozenset({"-h", "--help"}),
    "munpack": frozenset({"-h", "--help", "--version"}),  # (a MIME part names its file)
}  # fmt: skip


def listing_options(program: str) -> frozenset[str]:
    """The options with which an extractor that always extracts only lists or tests
    (`unsquashfs -l`): the lines whose prefix the engine offers (the approvals audit
    probes them, review BJ2)."""
    return _ALWAYS_EXTRACT.get(program_name(program.rpartition("/")[2]), frozenset())


# of those, the options that take the next word as their value (their manuals)
_LISTING_VALUES: Final = {
    "cabextract": ("-d", "--directory", "-F", "--filter", "-e", "--encoding"),
    "unar": ("-o", "--output-directory", "-p", "--password", "-e", "--encoding", "-i",
             "--indexes"),
    "unsquashfs": ("-d", "-dest", "-e", "-ef", "-p", "-processors", "-da", "-data-queue",
                   "-fr", "-frag-queue"),
    "uudecode": ("-o", "--output-file"),
    "unshar": ("-d", "--directory", "-e", "--exit-0"),
    "dtrx": ("-o", "--one"),
    "bsdunzip": ("-d", "-x", "-P"),
    "innoextract": ("-d", "--output-dir", "-I", "--include", "--language", "-P",
                    "--password", "--password-file", "--data-version"),
    "msiextract": ("-C", "--directory"),
    "unalz": ("-d", "-pwd"),
    "munpack": ("-C",),
}  # fmt: skip
# extractors whose command word (the first that is no option) extracts
_COMMAND_EXTRACT: Final = {
    "unrar": frozenset({"x", "e"}),
    "rar": frozenset({"x", "e"}),
    "arj": frozenset({"x", "e"}),
    "unace": frozenset({"x", "e"}),
    "unarj": frozenset({"x", "e"}),
    "unshield": frozenset({"x"}),
    "arc": frozenset({"x", "e"}),
    "ouch": frozenset({"d", "decompress"}),
    "wheel": frozenset({"unpack"}),
    "gem": frozenset({"unpack"}),
}
# extractors whose every command but these extracts (an unknown or abbreviated one too)
_COMMAND_KEEPS: Final = {
    "zpaq": frozenset({"add", "list", "delete", "test", "compare", "purge", "help"}),
    "patool": frozenset({"list", "test", "create", "diff", "search", "formats", "version",
                         "repack", "recompress"}),
}  # fmt: skip
_EXTRACTORS: Final = frozenset(
    {*_SEVEN_ZIP, *_LETTER_COMMAND, *_BUNDLED_EXTRACT, *_ALWAYS_EXTRACT, *_COMMAND_EXTRACT,
     *_COMMAND_KEEPS}
)  # fmt: skip


def _file_option_in(text: str, roles: PathRoles) -> Access | None:
    """The access of a file option spelt in `text`, a word that is not literal: GNU getopt
    takes a unique prefix of a long option (`--pidf=` is `--pidfile=`) and a short option
    after others in a bundle (`-LF$HOME/x` is `-L -F $HOME/x`); every option `text` may be
    counts (the checks cannot read the value: they ask)."""
    if text.startswith("--"):
        name = text.partition("=")[0]
        found = [a for o, a in roles.options.items() if o.startswith(name) and len(name) > 2]
        return found[0] if found else None
    if not text.startswith("-"):
        return None
    for letter in text[1:]:
        if not letter.isalnum():
            break  # (the value starts: `$`, a quote)
        access = roles.options.get(f"-{letter}")
        if access is not None:
            return access
    return None


def _spilled_globs(
    roles: PathRoles, inner: Sequence[Word], judged: Sequence[tuple[Word, str, bool]],
    recursive: bool,
) -> Iterator[tuple[Word, str, bool]]:
    """The words bash may make several of (an unquoted glob or expansion) where one word
    goes (a pattern, an option's value), judged as operands: each word after the first is
    one (the secrets oracle: `grep -v ~/.* README` printed `~/.netrc`, `rg -f *[de]*
    README` the workspace's keys; review CE2: `grep -A 0$IFS-r$IFS.$IFS$HOME/.ssh f`,
    `sort -k 1$IFS-o$IFS$HOME/.bashrc f` wrote `~/.bashrc`)."""
    if roles.operands is None:
        return
    # (an option's value judged as one file is still a tree when the operands are read
    # whole: `rg -f *[de]* README` searched `certs/` below)
    seen = {id(word) for word, _access, deep in judged if deep or not recursive}
    spilled = [w for w in inner[1:] if id(w) not in seen and w.may_split]
    for word in spilled:
        if roles.operands is OperandRole.WRITE:
            yield word, "write", recursive
        else:  # (read, or a copy's or move's source, which a move also removes)
            yield word, "read", recursive
            if roles.operands is OperandRole.MOVE:
                yield word, "write", True


def _role_words(
    roles: PathRoles, inner: Sequence[Word], view: OptionView, recursive: bool
) -> Iterable[tuple[Word, str, bool]]:
    # a non-literal word where an option could be may just as well be a file name; and
    # one spelt `--opt=VALUE` (`--from-file=~/x`, review AC5) may name a file in VALUE
    for index in view.unknown:
        word = inner[index]
        glued = _glued_value(word)
        # (an option's name read without its quotes: `--pidfi"le=$HOME/x"`, review CF5)
        text = _unquoted_name(word.text)
        access = roles.options.get(text.partition("=")[0] if text[1:2] == "-" else text[:2])
        if access is None and glued is word:
            access = _file_option_in(text, roles)  # (`--pidf=$HOME/x`, `-LF$HOME/x`: CE4)
        if access is None and roles.options and (word.may_split or "$'" in word.text):
            # bash may make a file option and its value of it (`pgrep -u
            # 0$IFS-F$IFS$HOME/.netrc`: review CF3), or an escape may spell one (`pgrep
            # $'\x2dF'$HOME/.netrc`: review CH2): a file the checks cannot read
            access = Access.READ
        if glued is not word:
            for name in _access_names(access) if access is not None else ("read",):
                yield glued, name, recursive
        elif access is not None:
            # `--pidfile=$HOME/.netrc`: a file option whose value the checks cannot read
            # (they ask; the secrets oracle: it was judged nowhere, where `-F $HOME/.netrc`
            # is denied)
            for name in _access_names(access):
                yield word, name, recursive
    operands = tuple(sorted(set(view.operands) | set(view.unknown)))
    # (rsync's `-t` is `--times`: review HF2b)
    targets = not _is_program(inner, "rsync")
    if roles.operands is OperandRole.READ:
        yield from ((inner[i], "read", recursive) for i in operands)
    elif roles.operands is OperandRole.WRITE:
        yield from ((inner[i], "write", recursive) for i in operands)
    elif roles.operands in (OperandRole.COPY, OperandRole.MOVE) and operands:
        # (`cp -t DIR SRC…`: every operand is a source)
        into = targets and any(option.name in _TARGET_DIRECTORY for option in view.options)
        sources = operands if into else operands[:-1]
        yield from ((inner[i], "read", recursive) for i in sources)
        if roles.operands is OperandRole.MOVE:
            # removed: moving `.git` away writes it (M13), and a folder takes every file
            # below it along: `mv ~/.config /tmp/c` took `~/.config/gh/hosts.yml` out of
            # its protected place, as `rm -r ~/.config` would have (review BZ)
            yield from ((inner[i], "write", True) for i in sources)
        yield inner[operands[-1]], "write", recursive
        if len(operands) == 1 and not into and _is_ln(inner):
            # `ln -s pkg/.mcp.json` makes `./.mcp.json` (review CI10)
            yield from _made_here(inner[operands[0]], recursive)
        parents = _keeps_parents(inner, view)
        yield from _copied_into(inner, operands[:-1], inner[operands[-1]], recursive, parents)
    for option in view.options:
        access = roles.options.get(option.name)
        if access is None:
            continue
        # `diff -r --to-file=DIR a`: DIR is compared, recursively, with every operand
        deep = recursive and option.name in _RECURSIVE_OPERAND_OPTIONS
        for name in _access_names(access):
            for index in option.arg_indexes or ():
                yield inner[index], name, deep
            if not option.arg_indexes and option.value is not None:
                yield _value_word(inner[option.word_index], option.value), name, deep
        if targets and option.name in _TARGET_DIRECTORY and roles.operands in _COPYING:
            # `cp -t DIR SRC…`: every operand lands in DIR
            folder = option_word(inner, option)
            if folder is not None:
                parents = _keeps_parents(inner, view)
                yield from _copied_into(inner, operands, folder, recursive, parents)
    if roles.keys:
        for index in operands:
            word = inner[index]
            value = word.value
            if value is None:
                tilde = _assignment_tilde(word)
                if tilde is not None and (access := roles.keys.get(tilde[0])) is not None:
                    for name in _access_names(access):
                        yield tilde[1], name, False
                continue
            if "=" not in value:
                continue
            key, _, path = value.partition("=")
            access = roles.keys.get(key)
            if access is not None:
                for name in _access_names(access):
                    yield _value_word(word, path), name, False


_TARGET_DIRECTORY = frozenset({"-t", "--target-directory"})
_COPYING = frozenset({OperandRole.COPY, OperandRole.MOVE})
_PLAIN_TILDE = re.compile(r"~\+?(?:/[A-Za-z0-9_.@%+=:,-]*)*")
# `$HOME`, `"${PWD}"/`: a folder the path checks may read through its parameter
_FOLDER_PARAMETER = re.compile(r"[\"']*\$\{?(?:HOME|PWD)\b")


def option_word(inner: Sequence[Word], option: Option) -> Word | None:
    """The word holding an option's value (the next word, or the value glued on)."""
    if option.arg_indexes:
        return inner[option.arg_indexes[0]]
    if option.value is not None:
        return _value_word(inner[option.word_index], option.value)
    return None


def _is_ln(inner: Sequence[Word]) -> bool:
    return _is_program(inner, "ln")


def _is_program(inner: Sequence[Word], name: str) -> bool:
    return program_name((inner[0].value or "").rpartition("/")[2]) == name


def _made_here(source: Word, recursive: bool) -> Iterator[tuple[Word, str, bool]]:
    """The name `ln SOURCE` makes in the working folder: SOURCE's last name; a word that
    is not literal names a file the checks cannot read (they ask)."""
    value = source.value
    if value is None:
        yield source, "write", recursive
        return
    name = value.rstrip("/").rpartition("/")[2]
    if name not in ("", ".", ".."):
        yield _value_word(source, name), "write", recursive


# rsync's options that name a folder on the receiving side, a relative one read from the
# destination folder (rsync(1); its receiver works in the destination), with what rsync
# does there: backups land below `--backup-dir` under their names in the destination,
# partial files below `--partial-dir` (in each folder a file lands in), temporary files
# in `--temp-dir`; `--compare-dest` and `--copy-dest` are read (`--link-dest`, which
# hard-links, is `checks._hard_linked_trees`'s)
RSYNC_FOLDERS: Final = {
    "--backup-dir": ("write", True),
    "--partial-dir": ("write", True),
    "--temp-dir": ("write", False),
    "-T": ("write", False),
    "--compare-dest": ("read", False),
    "--copy-dest": ("read", False),
}
_RSYNC_BATCH_WRITERS: Final = ("--write-batch", "--only-write-batch")


def rsync_reads_batch(view: OptionView) -> bool:
    """`rsync --read-batch=FILE DEST` (or an abbreviation, which rsync 3.5 refuses: fail
    closed): the batch file names the files it writes below DEST, and the options (`-r`,
    `--inplace`, `--append`) it writes them with (review HF1)."""
    return any(
        option.name.startswith("--rea") and "--read-batch".startswith(option.name)
        for option in view.options
    )


def rsync_destination(inner: Sequence[Word], view: OptionView) -> Word | None:
    """The destination operand of rsync: the last of two or more, or the only one of
    `--read-batch` (one source alone is a listing, which writes nothing)."""
    operands = sorted(set(view.operands) | set(view.unknown))
    if len(operands) < (1 if rsync_reads_batch(view) else 2):
        return None
    return inner[operands[-1]]


def rsync_remote(value: str) -> bool:
    """Whether rsync reads `value` as a remote place: `HOST:PATH` (a `:` before any
    `/`), `HOST::MODULE` or `rsync://…`."""
    head, colon, _rest = value.partition(":")
    return bool(colon) and "/" not in head


def _rsync_names_folder(value: str | None) -> bool:
    """Whether an rsync operand names a folder by its spelling alone: a trailing `/`,
    `.` or `..` (as the last component)."""
    return value is not None and (
        value.endswith("/") or value.rpartition("/")[2] in (".", "..")
    )


def rsync_receiver_folders(inner: Sequence[Word], view: OptionView, there: str) -> list[str]:
    """The folders rsync's receiver may work in for destination `there`, from which it
    reads its relative `--backup-dir`, `--partial-dir`, `--temp-dir`, `--link-dest`,
    `--compare-dest` and `--copy-dest`: the destination, and its parent where the
    destination may name the file written (rsync's `get_local_name`: one item that is no
    folder in the file list, and a destination that is no existing folder and has no
    trailing `/`; review HI2: `rsync -b --backup-dir=../.vscode pl/a out/tasks.json`
    replaced `.vscode/tasks.json`). The list's count is not the operands' (a missing
    source drops out, a folder without `-r` is skipped), nor whether the destination
    exists known here: unless the spelling tells, both are checked (fail closed)."""
    if _rsync_names_folder(there):
        return [there]
    operands = sorted(set(view.operands) | set(view.unknown))
    sources = [inner[i].value for i in operands[:-1]]
    may_name_file = (
        rsync_reads_batch(view)
        or view.has("--files-from")
        or any(not _rsync_names_folder(source) for source in sources)
    )
    if not may_name_file:
        return [there]
    return [there, os.path.dirname(there) or "."]


def _rsync_folders(inner: Sequence[Word], view: OptionView) -> Iterator[tuple[Word, str, bool]]:
    """The folders rsync's receiver options name, a relative one read from the destination
    folder as rsync does (review HF2: `rsync -r --backup-dir=../.git/hooks pl/ out/` moved
    the old `out/pre-commit` to `.git/hooks/pre-commit`, which the checks had read from
    the working folder, outside the workspace), and the `FILE.sh` script that
    `--write-batch=FILE` writes beside its batch. A relative `--partial-dir` is read from
    the folder of each file that lands, so each `..` in it reaches one folder further up
    from the destination's subfolders: each such folder is checked. Nothing is written
    here for a destination on another host; one that cannot be read asks already."""
    destination = rsync_destination(inner, view)
    there = None if destination is None else destination.value
    if there is not None and rsync_remote(there):
        return
    for option in view.options:
        word = option_word(inner, option)
        if word is None:
            continue
        value = word.value
        if option.name in _RSYNC_BATCH_WRITERS:
            if value is not None and value != "-":
                yield _value_word(word, value + ".sh"), "write", False
            continue
        found = RSYNC_FOLDERS.get(option.name)
        if found is None or destination is None:
            continue
        access, deep = found
        if value is None or there is None or value.startswith(("/", "~")):
            # (a word that cannot be read asks; an absolute folder is itself)
            yield word, access, deep
        if value is None or there is None or value.startswith("/"):
            continue
        # (a `~` bash left alone is a name to rsync: both are checked; a destination
        # that may name a file is read from its parent too: review HI2)
        for base in rsync_receiver_folders(inner, view, there):
            yield _value_word(word, os.path.join(base, value)), access, deep
            if option.name == "--partial-dir":
                # (rsync collapses its `a/..` first: `clean_fname`)
                names = os.path.normpath(value).split("/")
                ups = len(names) - len(list(itertools.dropwhile(lambda n: n == "..", names)))
                for depth in range(1, ups + 1):
                    folder = os.path.join(base, *names[depth:])
                    yield _value_word(word, folder), access, deep


def _keeps_parents(inner: Sequence[Word], view: OptionView) -> bool:
    """`cp --parents SRC DIR`, `rsync -R SRC DIR`: the source's folders are made again
    below DIR (review BS5: `cp --parents .vscode/tasks.json ..` from a subfolder wrote the
    workspace's `.vscode/tasks.json`)."""
    # (`gcp --parents` under an approval of `gcp`: review CF6)
    program = program_name((inner[0].value or "").rpartition("/")[2])
    if program == "cp":
        return view.has("--parents")
    return program == "rsync" and any(
        o.name == "-R" or (len(o.name) > 4 and "--relative".startswith(o.name))
        for o in view.options
    )


def _kept_path(source: str) -> str:
    """The part of a source `cp --parents` or `rsync -R` makes again below the target:
    all of it (`/a/b` is `a/b`), or what follows rsync's `/./` marker."""
    marked = source.rpartition("/./")[2] if "/./" in source else source
    return marked.strip("/")


def _copied_into(
    inner: Sequence[Word],
    sources: Sequence[int],
    target: Word,
    recursive: bool,
    parents: bool = False,
) -> Iterable[tuple[Word, str, bool]]:
    """`cp SRC… DIR`: each source is written as `DIR/NAME` when DIR is a folder, a name
    the target's text does not show (review BK3: `cp payload/.mcp.json .` planted the
    agent configuration `.mcp.json`, and an approval of `cp` allowed it). Whether the
    target is a folder is not known here, so the joined name is checked in any case: a
    path that does not exist meets only the rules of its name. With `parents`, the
    source's whole path is made below DIR."""
    folder = target.value
    tilde = folder is None and _PLAIN_TILDE.fullmatch(target.text) is not None
    if folder is None and not tilde and _FOLDER_PARAMETER.match(target.text) is None:
        return
    for index in sources:
        source = inner[index].value
        name = None if source is None else source.rstrip("/").rpartition("/")[2]
        if parents and source is not None:
            name = _kept_path(source)
        if name is None or name in ("", ".", ".."):
            continue
        if tilde:  # `cp x/.bashrc ~`: a tilde word, which the path checks expand
            yield _tilde_word(f"{target.text.rstrip('/')}/{name}", target.span), "write", recursive
            continue
        if folder is None:
            # `cp x/.bashrc $HOME`, `cp x/.mcp.json "$PWD"`: the same word with the name
            # after it, which the path checks read as the folder's path (review BP7)
            text = f"{target.text.rstrip('/')}/{name}"
            yield Word(text=text, value=None, expansions=target.expansions, span=target.span), (
                "write"
            ), recursive
            continue
        joined = f"{folder.rstrip('/')}/{name}" if folder.rstrip("/") else f"/{name}"
        yield _value_word(target, joined), "write", recursive


def _tilde_word(text: str, span: Span) -> Word:
    tilde = Expansion(kind=ExpansionKind.TILDE, text=text, span=span)
    return Word(text=text, value=None, expansions=(tilde,), span=span)


_ASSIGNMENT_TILDE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(~[^'\"\\$`*?\[{]*)")


def _assignment_tilde(word: Word) -> tuple[str, Word] | None:
    """`if=~/.aws/credentials`: bash expands a tilde after the `=` of a word that looks
    like an assignment, an argument too (`dd if=~/x` reads `$HOME/x`); the key, and the
    path as a tilde word the path checks expand (review AZ10). None for any other word."""
    match = _ASSIGNMENT_TILDE.fullmatch(word.text)
    if match is None:
        return None
    path = match.group(2)
    start = word.span.start + len(match.group(1)) + 1
    span = Span(min(start, word.span.end), word.span.end)
    return match.group(1), _tilde_word(path, span)


def _sent_files(
    name: str, inner: Sequence[Word], view: OptionView
) -> Iterable[tuple[Word, str, bool]]:
    """Files a network client reads to send them, named inside values (review P).

    An approved `curl` must not upload `~/.ssh/id_rsa`: `-d @FILE`, `-F f=@FILE`, `-H
    @FILE`, `--variable v@FILE`, a cookie file, and `file://` URLs read local files (curl
    prints or sends them); httpie's `field@FILE`, `field=@FILE`, `field:=@FILE` too.
    """
    if name in _CONTAINER_ENGINES:
        yield from _container_mounts(inner)
        return
    if name == "wget":
        yield from _wget_files(inner, view)
        return
    if name != "curl":
        for index in view.operands[1:]:  # the first operand is the method or the URL
            word = inner[index]
            found = _httpie_file(word.value) if word.value is not None else (
                "?" if "@" in word.text else None
            )
            if found is not None:
                yield _file_word(word, found), "read", False
        return
    for option in view.options:
        for word, value in _option_values(inner, option):
            named = option.name in ("-o", "--output") and value is not None
            if named and _CURL_GLOB_REF.search(value or ""):
                # `-o '#1'`: the name is the text a URL glob matched (review V7)
                yield _file_word(word, "?"), "write", False
                continue
            if value is None and option.name in _CURL_WHOLE_FILE:
                yield word, "read", False  # `-b ~/.x`: the checks resolve the tilde
                continue
            found = _curl_option_file(option.name, value)
            if found is not None:
                yield _file_word(word, found), "read", False
    for index in view.operands:
        word = inner[index]
        # a URL that is not literal may be a `file:` URL as well
        found = file_url_path(word.value) if word.value is not None else "?"
        if found is not None:
            yield _file_word(word, found), "read", False
    yield from _downloads(inner, view, remote_name=view.has(*_CURL_REMOTE_NAME),
                          unknown_name=view.has(*_CURL_SERVER_NAME))


def _downloads(
    inner: Sequence[Word], view: OptionView, *, remote_name: bool, unknown_name: bool
) -> Iterable[tuple[Word, str, bool]]:
    """Files a downloader names after the URL (`curl -O URL/.bashrc`, `wget URL/.envrc`
    write `.bashrc`, `.envrc` in the working directory; review Q2), or after what the
    server says (`-J`, `--content-disposition`): those cannot be known here."""
    if unknown_name:
        yield _file_word(inner[0], "?"), "write", False
        return
    if not remote_name:
        return
    for index in view.operands:
        word = inner[index]
        if word.value is None:
            yield _file_word(word, "?"), "write", False
            continue
        path = urllib.parse.urlsplit(word.value).path if "://" in word.value else word.value
        name = path.rpartition("/")[2] or "index.html"
        yield _file_word(word, urllib.parse.unquote(name)), "write", False


_CURL_REMOTE_NAME = ("-O", "--remote-name", "--remote-name-all")
_CURL_GLOB_REF = re.compile(r"#[0-9]")
_CURL_SERVER_NAME = ("-J", "--remote-header-name")
_WGET_SERVER_NAME = (
    "--content-disposition", "-r", "--recursive", "-m", "--mirror", "-p",
    "--page-requisites", "--trust-server-names",
)


def _wget_files(inner: Sequence[Word], view: OptionView) -> Iterable[tuple[Word, str, bool]]:
    """Where wget saves without `-O`: the URL's last name, in the working directory."""
    named = view.has("-O", "--output-document", "--spider")
    yield from _downloads(inner, view, remote_name=not named,
                          unknown_name=not named and view.has(*_WGET_SERVER_NAME))


_CONTAINER_STARTS = frozenset({"run", "create", "build", "exec", "clone"})  # `pod clone`: HL4
# buildah's: `from` mounts for the working container's later runs, `bud` is `build`
_BUILDAH_STARTS = frozenset({"run", "from", "build", "bud", "build-using-dockerfile"})
_BUILDS = frozenset({"build", "bud", "build-using-dockerfile"})
# `-v X`, `-vX`, `-v=X`, `-itv X`, `-qv=X`: short flags bundle before `-v` (review Q1)
_BUNDLED_VOLUME = re.compile(r"-[A-Za-z]*v=?(.*)", re.DOTALL)
_MOUNT_OPTIONS = frozenset(
    {"--volume", "--mount", "--env-file", "--label-file", "--volumes-from", "--secret"}
)


def _container_mounts(inner: Sequence[Word]) -> Iterable[tuple[Word, str, bool]]:
    """Host paths `docker run` / `podman run` mount or read: `-v SRC:DST`, `--mount
    type=bind,source=SRC`, `--env-file FILE`; `--volumes-from` (another container's
    mounts) cannot be known (review P: an approved `docker run` must not mount ~/.ssh).
    Every word after `run` is scanned, the container's own command's too: stricter, never
    looser, than finding where docker's options end."""
    words = [w.value for w in inner]
    name = (words[0] or "").rpartition("/")[2]
    starts = _BUILDAH_STARTS if name == "buildah" else _CONTAINER_STARTS
    start = next((i for i, v in enumerate(words) if v in starts), None)
    if start is None:
        return
    if words[start] in _BUILDS:
        yield from _build_contexts(inner, start)
    # `-v ~/.ssh:/k`: a tilde or glob is checked as the path pattern it spells
    words = [w.value if w.value is not None else path_text(w) for w in inner]
    index = start + 1
    while index < len(inner):
        word, text = inner[index], words[index]
        index += 1
        option, value = _mount_option(text)
        if option is None:
            continue
        if option == "--volumes-from":  # another container's mounts: not known here
            yield _file_word(word, "?"), "read", False
            continue
        if value is None:  # the value is the next word
            if index >= len(inner):
                return
            word, value = inner[index], words[index]
            index += 1
            if value is None:
                yield _file_word(word, "?"), "read", False
                continue
        yield from _mount_paths(word, option, value)


def _build_contexts(inner: Sequence[Word], start: int) -> Iterable[tuple[Word, str, bool]]:
    """The build context `docker build` sends to the daemon: read whole, since the
    Dockerfile (`-f -` from stdin, or the agent's own) may `COPY` any file of it (review
    V11). A word that looks like a folder is taken for the context, option value or not;
    `-` (a context from stdin) cannot be known."""
    for word in inner[start + 1 :]:
        text = word.value if word.value is not None else path_text(word)
        if text is None or text == "-":
            yield _file_word(word, "?"), "read", False
        elif "://" not in text and not text.startswith("-"):
            # any operand may be the context (`app/..` is `.`); an option's value too,
            # which only costs a read check of a folder that usually does not exist
            yield _file_word(word, text), "read", True


def _mount_option(text: str | None) -> tuple[str | None, str | None]:
    """(option, its value if glued to it) for docker's mount options, else (None, None)."""
    if text is None or not text.startswith("-"):
        return None, None
    if text.startswith("--"):
        name, eq, rest = text.partition("=")
        return (name, rest if eq else None) if name in _MOUNT_OPTIONS else (None, None)
    bundled = _BUNDLED_VOLUME.fullmatch(text)  # `-v X`, `-vX`, `-itv X`
    return ("-v", bundled.group(1) or None) if bundled is not None else (None, None)


def _mount_paths(word: Word, option: str, value: str) -> Iterable[tuple[Word, str, bool]]:
    if option in ("--env-file", "--label-file"):
        yield _value_word(word, value), "read", False
        return
    source = None
    if option in ("-v", "--volume"):
        head, colon, _ = value.partition(":")
        if colon and head.startswith(("/", ".", "~")):
            source = head
    elif option in ("--mount", "--secret"):
        # docker reads these as CSV, keys and `bind` in any case (review Q8): a quote
        # anywhere, or a local-driver `device=`, is a host path this cannot read for sure
        if '"' in value or "'" in value:
            source = "?"
        else:
            pairs = (part.partition("=") for part in value.split(","))
            fields = {key.strip().lower(): val for key, _, val in pairs}
            named = fields.get("source") or fields.get("src")
            # (podman's `type=glob,src=~/.ssh/*` mounts the files the glob matches)
            kind = fields.get("type", "volume").lower()
            if option == "--secret" or kind in ("bind", "glob"):
                source = named or "?"
            elif "device" in value.lower() or "volume-opt" in fields:
                source = "?"
    if source is not None:
        path = _file_word(word, source)
        yield path, "read", True  # the container may read the whole tree
        yield path, "write", False


def _option_values(inner: Sequence[Word], option: Option) -> Iterable[tuple[Word, str | None]]:
    for index in option.arg_indexes or ():
        yield inner[index], inner[index].value
    if not option.arg_indexes and option.value is not None:
        yield inner[option.word_index], option.value


_CURL_AT_FILE = frozenset(
    {
        "-d", "--data", "--data-binary", "--data-ascii", "--json", "-H", "--header",
        "--proxy-header", "-w", "--write-out",
    }
)
_CURL_NAME_AT_FILE = frozenset({"--data-urlencode", "--variable", "--url-query"})
_FORM_FILE = re.compile(r"=[@<](\"[^\"]*\"|[^;]*)")
_CURL_WHOLE_FILE = frozenset({"-b", "--cookie", "-T", "--upload-file"})
_CURL_FILE_OPTIONS = _CURL_AT_FILE | _CURL_NAME_AT_FILE | {
    "-F", "--form", "-b", "--cookie", "--url", "-T", "--upload-file"
}


def _curl_option_file(option: str, value: str | None) -> str | None:
    """The local file a curl option value names, `?` when it cannot be told, or None."""
    if value is None:
        return "?" if option in _CURL_FILE_OPTIONS else None
    if option in ("-T", "--upload-file"):  # the policy's role reads it; curl globs it too
        return value if ("{" in value or "[" in value) else None
    if option in _CURL_AT_FILE:
        return value[1:] if value.startswith("@") and value != "@-" else None
    if option in _CURL_NAME_AT_FILE:  # `name@FILE` or `@FILE`; `name=…` is content
        at = min((i for i in (value.find("@"), value.find("=")) if i >= 0), default=-1)
        if at >= 0 and value[at] == "@" and value[at + 1 :] != "-":
            return value[at + 1 :]
        return None
    if option in ("-F", "--form"):  # `name=@FILE;type=…`, `name=<FILE`, `;headers=@FILE`
        files = _FORM_FILE.findall(value)
        if not files:
            return None
        # more than one file in one value: not known which to check first, so none passes
        rest = files[0]
        if rest.startswith('"'):
            rest = rest[1:].partition('"')[0]
        rest = rest.partition(";")[0]
        return "?" if len(files) > 1 else (None if rest == "-" else rest)
    if option in ("-b", "--cookie"):  # without `=` the value is a cookie file
        return value if "=" not in value and value != "-" else None
    if option == "--url":
        return file_url_path(value)
    return None


def file_url_path(value: str | None) -> str | None:
    """The local path of a `file:` URL (`file:///etc/passwd`, any case), "?" for one on
    another host, else None."""
    if value is None or value[:5].lower() != "file:":
        return None
    rest = urllib.parse.unquote(value[5:])
    if rest.startswith("//"):
        host, slash, path = rest[2:].partition("/")
        return "?" if host.lower() not in ("", "localhost") else slash + path
    return rest


def _httpie_file(value: str | None) -> str | None:
    """The file an httpie request item sends (`f@FILE`, `f=@FILE`, `f:=@FILE`), else None."""
    if value is None:
        return None
    for index, char in enumerate(value):
        if char == "\\":
            return "?"  # an escaped separator: which one is real is not read here
        if char == "@":
            return value[index + 1 :].partition(";")[0]
        if char in "=:":
            rest = value[index:]
            for separator in (":=@", "=@", ":@"):
                if rest.startswith(separator):
                    return value[index + len(separator) :].partition(";")[0]
            return None
    return None


# a value the checks cannot resolve to one file: they ask (`engine.unknown-path`)
_UNKNOWN_FILE = (Expansion(kind=ExpansionKind.COMMAND_SUBSTITUTION, text="", span=Span(0, 0)),)


def _file_word(word: Word, path: str) -> Word:
    """The word to check for a file named inside `word`: a literal, or (for curl's own
    `{a,b}` and `[1-9]` globs, or an unknown value) a word the checks cannot resolve."""
    if path == "?" or "{" in path or "[" in path:
        return Word(text=word.text, value=None, span=word.span, expansions=_UNKNOWN_FILE)
    return _value_word(word, path)


def _compressed_names(
    name: str, inner: Sequence[Word], view: OptionView
) -> Iterable[tuple[Word, str, bool]]:
    """The files a compressor writes beside its operands (review T6): each operand with
    the suffix stripped (`-d`, `gunzip`) or added. Nothing for output to stdout."""
    if name in _CATS or view.has(*_TO_STDOUT):
        return
    added = _COMPRESSORS[_DECOMPRESSORS.get(name, name)]
    decompress = name in _DECOMPRESSORS or _decompressing(name, view)
    recursive = _compressing_tree(view)
    for index in view.operands:
        word = inner[index]
        value = path_text(word)
        if recursive and decompress:
            # every file below is unpacked beside itself, under names not known here
            yield _file_word(word, "?"), "write", False
        elif recursive:
            yield word, "write", True  # every file below is replaced by its `.gz`
        elif value is None or (decompress and word.value is None and not _tilde_only(word)):
            # (a glob names the files it matches now, not the names they unpack to)
            yield _file_word(word, "?"), "write", False
        elif value == "-":
            continue
        elif not decompress:
            yield _renamed(word, value + added), "write", False
        else:
            lowered = value.lower()
            for suffix, replacement in _UNPACKED.items():
                if lowered.endswith(suffix) and len(value) > len(suffix):
                    written = value[: -len(suffix)] + replacement
                    yield _renamed(word, written), "write", False


def _cloud_file_values(name: str, inner: Sequence[Word]) -> Iterable[tuple[Word, str, bool]]:
    """The local files aws and az read from argument values (`file://~/.aws/credentials`,
    `--parameters @.env`); a value that cannot be read may name one."""
    for word in inner[1:]:
        value = word.value
        if value is None:
            if "file" in word.text.lower() or "@" in word.text:
                yield _file_word(word, "?"), "read", False
            continue
        if name == "aws":
            for found in _AWS_FILE.finditer(value):
                yield _file_word(word, found.group(1) or "?"), "read", False
        else:
            text = value.partition("=")[2] if value.startswith("-") else value
            if text.startswith("@") and len(text) > 1:
                yield _file_word(word, text[1:]), "read", False


def _to_stdout(name: str, view: OptionView) -> bool:
    """A compressor's `-c`, `--stdout` or `--to-stdout` (or an abbreviation: review CB5),
    or a decompressing cat (`zcat`)."""
    return name in _CATS or view.has("-c") or _has_long(view, "--stdout", "--to-stdout")


def _has_long(view: OptionView, *names: str) -> bool:
    """One of the long options `names`, or an abbreviation of one, as GNU getopt takes
    them (`--recurse-patt`: review CB4)."""
    return any(
        len(o.name) > 3 and any(name.startswith(o.name) for name in names) for o in view.options
    )


def _compressing_tree(view: OptionView) -> bool:
    """`-r`, or any abbreviation of `--recursive` (review BS9: `gunzip --rec .vscode`
    unpacked a shipped `tasks.json.gz` where `-r` asks)."""
    return view.has("-r") or any(
        len(o.name) > 3 and "--recursive".startswith(o.name) for o in view.options
    )


def _decompressing(name: str, view: OptionView) -> bool:
    """`-d`, or any abbreviation of `--decompress` / `--uncompress` (`--decomp`), or
    lzop's `-x`."""
    if view.has("-d") or (name == "lzop" and view.has("-x")):
        return True
    for option in view.options:
        spelled = option.name
        if len(spelled) > 3 and spelled.startswith("--") and (
            "--decompress".startswith(spelled) or "--uncompress".startswith(spelled)
        ):
            return True
    return False


def _tilde_only(word: Word) -> bool:
    return all(e.kind is ExpansionKind.TILDE for e in word.expansions)


def _renamed(word: Word, text: str) -> Word:
    """`word` naming `text` instead: a literal, or the same kind of tilde or glob pattern."""
    if word.value is not None:
        return _value_word(word, text)
    kinds = dict.fromkeys(e.kind for e in word.expansions)
    found = tuple(Expansion(kind=kind, text=text, span=word.span) for kind in kinds)
    return Word(text=text, value=None, span=word.span, expansions=found)


def _conditional_writes(
    name: str, inner: Sequence[Word], view: OptionView
) -> Iterable[tuple[Word, str, bool]]:
    """Writes a role table cannot express: `sed -i`, `perl -i` rewrite their file operands."""
    # a word that is not literal may be an option or a file: `sed -i s/a/b/ $HOME/.bashrc`
    # rewrites the file (review BM5), so such words are written too
    words = sorted({*view.operands, *view.unknown})
    if name in ("sed", "gsed") and view.has("-i", "--in-place"):
        scripts = view.has("-e", "--expression", "-f", "--file")
        files = words if scripts else words[1:]
        yield from ((inner[i], "write", False) for i in files)
    elif name == "perl" and any(o.name.startswith("-i") for o in view.options):
        yield from ((inner[i], "write", False) for i in words)
    elif name == "git" and len(inner) > 1 and inner[1].value == "diff":
        # `git diff --no-index A B` reads two files like diff does
        sub = option_view(inner, _PLAIN_SPEC, start=2)
        if sub.has("--no-index"):
            # compares two files, or two directories file by file, recursively
            yield from ((inner[i], "read", True) for i in sub.operands)
        else:
            yield from _git_pathspecs(inner, sub)
    elif name == "git" and _word(inner, 1) in _GIT_CONTENT_PRINTERS | _GIT_PATCH_PRINTERS:
        sub = option_view(inner, _PLAIN_SPEC, start=2)
        if _word(inner, 1) in _GIT_CONTENT_PRINTERS or any(
            o.name.startswith(_GIT_PATCH_OPTIONS) for o in sub.options
        ):
            yield from _git_pathspecs(inner, sub)
        if _word(inner, 1) in _GIT_BLOB_READERS:
            yield from _git_blobs(inner, sub)
        if _word(inner, 1) in ("log", "show", "whatchanged"):  # (`-L` walks revisions)
            yield from _git_line_ranges(inner)
    elif name == "git" and _word(inner, 1) in _GIT_BLOB_READERS:
        yield from _git_blobs(inner, option_view(inner, _PLAIN_SPEC, start=2))
    elif name == "git":
        yield from _git_files(inner)


def _git_files(inner: Sequence[Word]) -> Iterable[tuple[Word, str, bool]]:
    """Message files `commit -F`, `tag -F` … read into the repository, patch files `apply`
    and `am` read, and the directory `clone` writes."""
    sub = _word(inner, 1)
    if sub in _GIT_FILE_SPECS:
        view = option_view(inner, _GIT_FILE_SPECS[sub], start=2)
        names = _GIT_FILE_OPTIONS[sub]
        for option in view.options:
            if option.name in names:
                for word, value in _option_values(inner, option):
                    yield (word if value is None else _value_word(word, value)), "read", False
    elif sub in _GIT_PATCH_APPLIERS:
        view = option_view(inner, _PLAIN_SPEC, start=2)
        yield from ((inner[i], "read", False) for i in view.operands)
    elif sub == "clone":
        view = option_view(inner, _GIT_CLONE_SPEC, start=2)
        if len(view.operands) >= 2:
            yield inner[view.operands[1]], "write", True


# revision options that add objects to show or walk: every ref, the index's blobs …
_GIT_PSEUDO_REVISIONS = (
    "--all", "--branches", "--tags", "--remotes", "--glob", "--reflog", "--indexed-objects",
    "--alternate-refs", "--bisect", "-g", "--walk-reflogs", "--stdin", "--not",
)  # fmt: skip


def _names_blob_path(value: str | None) -> bool:
    """Whether a `git show` operand is `REV:PATH` (or `:PATH`, `:N:PATH`), which prints the
    file at PATH, checked as that path. Not `:/text` (a commit by its message), nor a colon
    inside `@{…}` or `^{/…}` (`HEAD@{23:59}`, `HEAD^{/a:b}`): those name commits, printed
    with their patches (review BS2).

    >>> [_names_blob_path(v) for v in ("HEAD:x", ":0:x", ":/init", "@{23:59}", "HEAD")]
    [True, True, False, False, False]
    """
    if value is None or ":" not in value or value.startswith(":/"):
        return False
    return "@{" not in value and "^{" not in value


# an object name git may read as an abbreviated id (four hex digits at least), perhaps
# peeled or walked (`27948f2^{}`) or in `git describe`'s form (`v1-3-g27948f2`)
_HEX_ID: Final = re.compile(r"(?:^|[^0-9A-Za-z_]|-g)[0-9a-fA-F]{4,}(?![0-9A-Za-z_-])")


def may_name_blob(value: str) -> bool:
    """Whether a git revision operand may name a blob by its id, which `git show` and
    `git diff ID FILE` print whole (review BP3); a named ref is a commit unless something
    that asks wrote it. `REV:PATH` names a path, checked as one.

    >>> names = ("27948f2", "27948f2^{}", "x-1-g27948F2", "HEAD", "cafe-branch", "v1.2")
    >>> [may_name_blob(v) for v in names]
    [True, True, True, False, False, False]
    """
    return ":" not in value and _HEX_ID.search(value) is not None


def wide_git_pathspec(value: str) -> bool:
    """A pathspec that may name any tracked file: magic (`:/` is the whole tree, `:^x` and
    `:!x` all but x: review BK9), a glob (`*.env`), or a backslash, which git reads as a
    pattern escape (`.en\\v` is `.env`: review BM4)."""
    return value.startswith(":") or any(char in value for char in "*?[\\")


def _git_pathspecs(inner: Sequence[Word], sub: OptionView) -> Iterable[tuple[Word, str, bool]]:
    """The operands of a git command that prints file contents, each of which may be a
    pathspec (git tells revisions from paths by what exists): relative to the working
    directory, and, for a committed file, below every possible repository root (`blob`).
    A glob or magic pathspec (`'*.env'`, `:(glob)…`) may name any file: it asks."""
    for index in sub.operands:
        word = inner[index]
        value = word.value
        if value is None:
            yield word, "read", False  # `git diff -- $F`: which file is not known
            continue
        if value.startswith(":") or any(c in value for c in "*?["):
            yield Word(text=word.text, value=None, span=word.span), "read", False
            continue
        yield word, "read", False
        yield word, "blob", False


# options after which git prints names or statistics, not contents (unless `-p` is given;
# not `--check`, which prints the lines with whitespace errors)
_GIT_NO_CONTENT = (
    "--stat", "--numstat", "--shortstat", "--dirstat", "--name-only", "--name-status",
    "--summary", "--raw", "-s", "--no-patch", "--quiet", "--compact-summary",
)  # fmt: skip


def _git_print(inner: Sequence[Word]) -> GitPrint | None:
    """The `GitPrint` of a git command (subcommand at `inner[1]`), if it prints contents."""
    subcommand = _word(inner, 1)
    if subcommand == "cat-file":
        return _git_cat_file_print(inner)
    if subcommand == "difftool":
        return _git_difftool_print(inner)
    if subcommand is not None and (subcommand in ("reset", "restore") or _stash_push(inner)):
        return _git_patch_print(inner, subcommand)
    if subcommand in ("status", "stash", "reflog"):
        return _git_other_print(inner, subcommand)
    if subcommand == "archive":
        return _git_archive_print(inner)
    if subcommand in _GIT_DUMPERS:
        return _git_dump_print(inner, subcommand)
    if subcommand not in _GIT_CONTENT_PRINTERS | _GIT_PATCH_PRINTERS or subcommand in (
        "blame",
        "annotate",
    ):
        return None  # (blame and annotate print only the file they name)
    sub = option_view(inner, _PLAIN_SPEC, start=2)
    patch = any(o.name.startswith(_GIT_PATCH_OPTIONS + _GIT_PICKAXE) for o in sub.options)
    if subcommand in _GIT_PATCH_PRINTERS and not patch:
        return None
    words = list(inner[2:])
    split = next((i for i, w in enumerate(words) if w.value == "--"), len(words))
    operands = [inner[i] for i in sub.operands]
    after = {id(w) for w in words[split + 1 :]}
    if sub.has("--no-index"):
        return None
    # `--all`, `--indexed-objects`: revisions (and blobs) the options add (review BS1, BS2)
    pseudo = any(o.name.startswith(_GIT_PSEUDO_REVISIONS) for o in sub.options)
    if sub.has(*_GIT_NO_CONTENT) and not patch:
        # `git show -s ID` prints a blob whole, whatever the options (review BP3: the id of
        # a committed `.env` is one allowed `git ls-tree HEAD` away)
        blobs = tuple(
            w for w in operands if id(w) not in after and may_name_blob(w.value or "")
        )
        if subcommand != "show" or not (blobs or pseudo):
            return None
        return GitPrint(
            command=f"git {subcommand}", worktree=False, ambiguous=blobs, paths=(), whole=True
        )
    if (
        subcommand == "show"
        and operands
        and not pseudo
        and all(_names_blob_path(w.value) for w in operands)
    ):
        return None  # `git show HEAD:README.md` prints that blob (checked as a path) only
    return GitPrint(
        command=f"git {subcommand}",
        worktree=subcommand == "diff" and not sub.has("--cached", "--staged", "--merge-base"),
        ambiguous=tuple(w for w in operands if id(w) not in after),
        paths=tuple(w for w in operands if id(w) in after),
        whole=sub.has("--full-diff"),
        submodules=_submodule_diff(words[:split]),
    )


def _git_difftool_print(inner: Sequence[Word]) -> GitPrint | None:
    """`git difftool …` runs `git diff …` with the options it does not define itself:
    `--no-ext-diff` switches off its helper, so git prints the patch, or writes it to the
    `--output` file (review FJ1), and without it the diff program shows the same files.
    It is judged as `git diff` over the same words, tracked secrets and stashes checked."""
    as_diff = _git_print((inner[0], _value_word(inner[1], "diff"), *inner[2:]))
    if as_diff is None:
        return None
    return GitPrint(
        command="git difftool",
        worktree=as_diff.worktree,
        ambiguous=as_diff.ambiguous,
        paths=as_diff.paths,
        whole=as_diff.whole,
        submodules=as_diff.submodules,
    )


def _stash_push(inner: Sequence[Word]) -> bool:
    """Whether `git stash …` stashes: `push`, `save`, or options alone (`git stash -p`)."""
    action = _word(inner, 2)
    return _word(inner, 1) == "stash" and (
        action in ("push", "save") or (action is not None and action.startswith("-"))
    )


def _git_patch_print(inner: Sequence[Word], subcommand: str) -> GitPrint | None:
    """Patch mode prints the hunks of every file in scope before it asks anything, and
    with stdin at its end changes nothing: `git reset -p TREE` and `git restore -p
    --staged -s TREE` compare the index with a tree (the empty one: every tracked file,
    `.env` too), `git stash push -p` the work tree with HEAD (review FJ3). Judged as `git
    diff` over the same pathspecs, an unchanged file counting too (the engine does not
    compare the index with a commit). `git restore -p` of the work tree alone is the
    overwrite checks' (`git checkout -p` as well)."""
    start = 3 if subcommand == "stash" and _word(inner, 2) in ("push", "save") else 2
    mode = gitstage.patch_mode(subcommand, [w.value for w in inner[start:]])
    if mode is None or not mode.revision:
        return None
    before, after = list(mode.before), list(mode.after)
    if None in before or None in after or _word(inner, 2) == "save":
        before, after = [], []  # (a word not read, or `save`'s message: the whole tree)
    elif subcommand != "reset":
        before, after = [], [*before, *after]  # (pathspecs only: no tree among them)
    return GitPrint(
        command=f"git {subcommand} -p",
        worktree=False,
        ambiguous=tuple(_value_word(inner[1], v) for v in before if v is not None),
        paths=tuple(_value_word(inner[1], v) for v in after if v is not None),
    )


def _submodule_diff(words: Sequence[Word]) -> bool:
    """Whether git's options print the changes of the submodules' files: `--submodule=diff`
    in any spelling git takes (a unique prefix, `--submod=diff`; git knows `log`, `short`
    and `diff`, so any other value counts: review EZ1)."""
    for word in words:
        name, eq, value = (word.value or "").partition("=")
        submodule = len(name) > 4 and "--submodule".startswith(name)
        if eq and submodule and value not in ("log", "short"):
            return True
    return False


# verbs that print or write out the contents of whole commits, whatever paths they name
# (review EZ7: `git fast-export HEAD` and `git format-patch --stdout --root HEAD` printed
# a tracked `.env` under approvals suggested by their innocent forms)
_GIT_DUMPERS: Final = frozenset(
    {"fast-export", "format-patch", "request-pull", "merge-tree", "bisect"}
)


def _git_dump_print(inner: Sequence[Word], subcommand: str) -> GitPrint | None:
    """`git fast-export REV` (blobs unless `--no-data`), `git format-patch …` (its patches,
    to files or stdout), `git request-pull -p …`, the trivial `git merge-tree BASE A B`
    (the merged files' contents), `git bisect view -p` (`git log` with those options):
    each prints what the commits it walks hold, a tracked `.env` among them, so it counts
    as printing the whole tree (review EZ7)."""
    values = [w.value for w in inner[2:]]
    if subcommand == "fast-export" and _fast_export_no_data(values):
        return None
    if subcommand == "request-pull" and "-p" not in values and None not in values:
        return None
    if subcommand == "merge-tree" and not _trivial_merge(inner):
        return None
    if subcommand == "bisect":
        if _word(inner, 2) not in ("view", "visualize"):
            return None
        sub = option_view(inner, _PLAIN_SPEC, start=3)
        if not any(o.name.startswith(_GIT_PATCH_OPTIONS + _GIT_PICKAXE) for o in sub.options):
            return None
    return GitPrint(
        command=f"git {subcommand}",
        worktree=False,
        ambiguous=(),
        paths=(),
        submodules=_submodule_diff(inner[2:]),
    )


def _fast_export_no_data(values: Sequence[str | None]) -> bool:
    """Whether `git fast-export` leaves the blobs out: the last of `--no-data`, `--data`,
    `--no-no-data` (or a prefix of one, or a word that is not literal) is `--no-data`
    itself (review FF4: `--no-data --data` printed them)."""
    toggles = [
        v for v in values if v is None or v.startswith(("--d", "--no-d", "--no-n"))
    ]
    return bool(toggles) and toggles[-1] == "--no-data"


def _trivial_merge(inner: Sequence[Word]) -> bool:
    """Whether `git merge-tree` runs its trivial merge, which prints the merged files'
    contents: with `--trivial-merge` (a unique prefix of it), or with three operands and
    no `--write-tree` (git 2.39's choice); a word that is not literal may be either."""
    sub = option_view(inner, _PLAIN_SPEC, start=2)
    if sub.unknown or any(w.value is None for w in inner[2:]):
        return True
    names = [o.name.partition("=")[0] for o in sub.options]
    if any(len(n) > 3 and "--trivial-merge".startswith(n) for n in names):
        return True
    if any(len(n) > 3 and "--write-tree".startswith(n) for n in names):
        return False
    return len(sub.operands) == 3


# `git grep`'s long options (git 2.39), for the unique prefixes git takes; those after
# which it reads no more than the index's tracked regular files of the working tree (of
# them, those that take a value as the next word when not glued with `=`)
_GREP_LONG = (
    "cached", "no-index", "untracked", "exclude-standard", "recurse-submodules",
    "invert-match", "ignore-case", "word-regexp", "text", "textconv", "recursive",
    "max-depth", "extended-regexp", "basic-regexp", "fixed-strings", "perl-regexp",
    "line-number", "column", "full-name", "files-with-matches", "name-only",
    "files-without-match", "only-matching", "count", "color", "break", "heading",
    "context", "after-context", "before-context", "threads", "show-function",
    "function-context", "and", "or", "not", "all-match", "quiet", "open-files-in-pager",
    "null", "max-count", "file", "parent-basename",
)  # fmt: skip
_GREP_TRACKED_LONG = frozenset(
    {"invert-match", "ignore-case", "word-regexp", "text", "recursive", "max-depth",
     "extended-regexp", "basic-regexp", "fixed-strings", "perl-regexp", "line-number",
     "column", "full-name", "files-with-matches", "name-only", "files-without-match",
     "only-matching", "count", "color", "break", "heading", "context", "after-context",
     "before-context", "threads", "show-function", "function-context", "and", "or", "not",
     "all-match", "quiet", "null", "max-count"}
)  # fmt: skip
_GREP_LONG_VALUED = frozenset(
    {"max-depth", "context", "after-context", "before-context", "threads", "max-count"}
)
_GREP_SHORT_FLAGS = frozenset("aiIrwvhHEGFPnlLzocpWq")
_GREP_SHORT_VALUED = frozenset("ABCme")


def _git_grep_paths(inner: Sequence[Word]) -> list[Word]:
    """The words `git grep …` takes for paths or revisions, as git reads its options:
    after `-e PATTERN` (`-eKEY`, `-ie KEY`) or `-f FILE` every operand, else all but the
    first; after `--` every word. An option not known is read as taking no value."""
    found: list[Word] = []
    pattern = skip = dashdash = lead = False
    positional: list[Word] = []
    for word in inner[2:]:
        value = word.value
        if skip:
            skip = False
        elif dashdash:
            found.append(word)
        elif value == "--" and not pattern and not lead and not positional:
            lead = True
        elif value == "--":
            dashdash = True
        elif value is None or lead or not value.startswith("-") or value == "-":
            positional.append(word)
        elif value.startswith("--"):
            name, eq, _rest = value[2:].partition("=")
            known = long_option(name, _GREP_LONG)
            option = known[0] if known is not None and not known[1] else ""
            skip = (option in _GREP_LONG_VALUED or option == "file") and not eq
            pattern = pattern or option == "file"
        else:
            letters = value[1:]
            for at, letter in enumerate(letters):
                if letter in _GREP_SHORT_VALUED or letter == "f":
                    skip = at == len(letters) - 1
                    pattern = pattern or letter in "ef"
                    break
    return [*(positional if pattern else positional[1:]), *found]


def _git_grep_operands(inner: Sequence[Word]) -> tuple[Word, ...] | None:
    """For `git grep …` (`inner[1]` is `grep`, no global option before it): the operands
    that follow the pattern where no `--` follows them (paths where they exist, else
    revisions; before a `--` each is a revision, even one that is also a path),
    when every option is one that keeps git to the index's tracked regular files of the
    working tree; None otherwise (`--untracked`, `--no-index`, `--cached`, `-f FILE`,
    `-O`, `--recurse-submodules`, `--textconv`, an option not known, a word that is not
    literal). Any word starting with `-` is read as an option, wherever it stands (git
    refuses one after the pattern)."""
    operands: list[Word] = []
    pattern = False  # given by `-e`, or the first operand
    skip = dashdash = lead = False
    for word in inner[2:]:
        value = word.value
        if value is None:
            return None
        if skip:
            skip = False
        elif dashdash:
            pass  # pathspecs: whatever they name, only tracked files are read
        elif value == "--" and not pattern and not lead:
            lead = True  # `git grep -n -- -x`: the pattern follows, whatever it is
        elif value == "--":
            dashdash = True
        elif lead and not pattern:
            pattern = True
        elif value in ("(", ")") and not lead:
            pass  # git grep's grouping of patterns
        elif value.startswith("-") and value != "-" and (lead or value.startswith("--")):
            if lead:
                return None  # (git reads it as a revision or a path, or fails)
            name, eq, _rest = value[2:].partition("=")
            found = long_option(name, _GREP_LONG)
            if found is None or found[1] or found[0] not in _GREP_TRACKED_LONG:
                return None
            skip = found[0] in _GREP_LONG_VALUED and not eq
        elif value.startswith("-") and value != "-":
            letters = value[1:]
            for at, letter in enumerate(letters):
                if letter.isdigit():
                    if not letters[at:].isdigit():
                        return None
                    break  # `-3`: three lines of context
                if letter in _GREP_SHORT_VALUED:
                    skip = at == len(letters) - 1
                    pattern = pattern or letter == "e"
                    break
                if letter not in _GREP_SHORT_FLAGS:
                    return None
        elif not pattern:
            pattern = True
        else:
            operands.append(word)
    if dashdash and operands:
        return None  # before a `--`, git reads every operand as a revision (review EG6)
    return tuple(operands)


def _git_other_print(inner: Sequence[Word], subcommand: str) -> GitPrint | None:
    """Subcommands that print patches of tracked files on request (review BN1): `git
    status -v` (the staged diff; `-vv` the working tree's too), `git stash show` (a patch
    with `-p`, or by the repository's `stash.showPatch`), `git stash list -p`, `git reflog
    -p`. What they print is not limited by a pathspec here: the whole working tree."""
    sub = option_view(inner, _PLAIN_SPEC, start=2)
    # the pickaxe (`git reflog -G RE`, `git stash list -S TEXT`) answers questions about
    # the contents as `log -G` does (review BP2)
    patch = any(o.name.startswith(_GIT_PATCH_OPTIONS + _GIT_PICKAXE) for o in sub.options)
    if subcommand == "status":
        # git takes any unique prefix of a long option: `--verb` is `--verbose` (BO1)
        prints = sub.has("-v") or any(
            len(o.name) > 2 and "--verbose".startswith(o.name) for o in sub.options
        )
    elif subcommand == "stash":
        action = _word(inner, 2)
        prints = action == "show" or (action == "list" and patch)
    else:
        prints = patch
    if not prints:
        return None
    return GitPrint(
        command=f"git {subcommand}",
        worktree=False,
        ambiguous=(),
        paths=(),
        submodules=_submodule_diff(inner[2:]),
    )


# `git archive`'s long options (git 2.39) that take the next word unless glued with `=`
_ARCHIVE_VALUED: Final = ("--format", "--output", "--prefix", "--remote", "--exec",
                          "--add-file", "--add-virtual-file")  # fmt: skip


def _git_archive_print(inner: Sequence[Word]) -> GitPrint | None:
    """`git archive HEAD`, `git archive HEAD src`: the files of a tree, a committed `.env`
    among them, written as an archive to stdout or to the `-o` file, which any later
    read prints (review EQ10: `git show HEAD` asked, the archive of the same tree did
    not). The tree's files are taken for the index's, as for `git show REV`; the operands
    after the tree are its pathspecs (a glob or an escape: the whole tree). `-l` lists
    the formats only. An option not known may take any word's place: the whole tree.
    git takes options after the tree too (`git archive HEAD -o x.tar`), up to a `--`."""
    paths: list[Word] = []
    tree = skip = options_done = False
    for word in inner[2:]:
        value = word.value
        if skip:
            skip = False
        elif value == "--" and not options_done:
            options_done = True
        elif options_done or value is None or not value.startswith("-") or value == "-":
            if tree:
                paths.append(word)
            tree = True
        elif value in ("-l", "--list"):
            return None
        elif value == "-o" or value in _ARCHIVE_VALUED:
            skip = True
        elif not (value.startswith(("-o", "-v", "--verbose")) or value[1:].isdigit()) and not (
            value.startswith(_ARCHIVE_VALUED) and "=" in value
        ):
            paths = []
            break  # (not known: the whole tree)
    return GitPrint(command="git archive", worktree=False, ambiguous=(), paths=tuple(paths))


def _git_cat_file_print(inner: Sequence[Word]) -> GitPrint | None:
    """`git cat-file -p OBJECT`, `git cat-file blob OBJECT`: an object id names no path,
    so any tracked file may be what it prints (review AE4). `-t`, `-s` and `-e` print a
    type, a size or nothing; `HEAD:.env` is checked as that path (`_git_blobs`)."""
    sub = option_view(inner, _PLAIN_SPEC, start=2)
    if sub.has("-t", "-s", "-e") and not sub.has("-p"):
        return None
    objects = [inner[i] for i in sub.operands if ":" not in (inner[i].value or ":")]
    if not objects:
        return None
    return GitPrint(command="git cat-file", worktree=False, ambiguous=tuple(objects), paths=())


def _git_blobs(inner: Sequence[Word], sub: OptionView) -> Iterable[tuple[Word, str, bool]]:
    """`git show HEAD:.env` prints a committed file: its path is read like a file's."""
    for index in sub.operands:
        value = inner[index].value
        if value is not None and ":" in value:
            path = value.partition(":")[2]
            if path:
                # relative to the repository's root, wherever that is (`blob`)
                yield _value_word(inner[index], path), "blob", False


def _git_line_ranges(inner: Sequence[Word]) -> Iterable[tuple[Word, str, bool]]:
    """`git log -L RANGE:FILE` (`-L1,5:.env`, `-L:main:src/x.c`, `-L '/re/,+1:FILE'`)
    prints the history of those lines of FILE, the staged or committed text included: FILE
    is read like a path (review AW4: `git log -L1,1:.env` printed a `.env` whose removal
    was staged). A range may hold `:` itself, so the text after the first and after the
    last `:` are both checked; a value that is not literal is checked as it is (it asks)."""
    words = list(inner[2:])
    for index, word in enumerate(words):
        if word.value == "--":
            return
        if word.value == "-L" and index + 1 < len(words):
            value_word = words[index + 1]
        elif word.value is not None and word.value.startswith("-L") and len(word.value) > 2:
            # the value, not the text: `'-L1,1:.env'` is the same option (review BG5)
            value_word = _value_word(word, word.value[2:])
        elif word.value is None and word.text.startswith("-L") and len(word.text) > 2:
            value_word = _glued_value(word)
        elif word.value is None and "L" in word.text[:4] and ":" in word.text:
            value_word = word  # `"-L"…` spelt with quotes and expansions: checked as it is
        else:
            continue
        value = value_word.value
        if value is None:
            yield value_word, "read", False
            continue
        for path in dict.fromkeys((value.partition(":")[2], value.rpartition(":")[2])):
            if path:
                yield _value_word(value_word, path), "read", False


def _access_names(access: Access) -> tuple[str, ...]:
    """The checks a role makes: a read-write value (`curl --hsts FILE`) is both."""
    if access is Access.READ_WRITE:
        return ("read", "write")
    return ("read",) if access is Access.READ else ("write",)


_UNSEEN: Final = object()  # (`RuleView.renamed`: not asked yet)
_MAX_RENAMED: Final = 4096  # names `RuleView.renamed` keeps answers for


# git's commands run by the name of their verb (`git --exec-path` holds a link to git for
# each), as written or renamed by a link a repository ships
_GIT_HELPER: Final = re.compile(r"git-([a-z][a-z0-9-]*)")


def _renamed_program(name: str, tree: RuleTree) -> str | None:
    """The program the rules name that `name` renames, when the rules do not name `name`
    itself: a versioned name (`gcc-12`, `clang-16`, `go1.22.1`), a cross tool
    (`x86_64-linux-gnu-gcc-12`, `arm-none-eabi-gcc`), a C standard's driver (`c99`,
    `c89-gcc`), another name of it (`gmake`, `cpp`, `gfortran`: `_ALIASES`). None for any
    other name."""
    if tree.knows(name):
        return None
    alias = _ALIASES.get(name) or _gnu_alias(name)
    if alias is not None:
        return alias if tree.knows(alias) else None
    if not _RENAME_HINT.search(name):
        return None
    stem = _TOOLCHAIN_SUFFIX.sub("", name)  # `x86_64-w64-mingw32-gcc-win32`
    for _ in range(_MAX_VERSION_PARTS + 1):
        standard = _C_STANDARD.fullmatch(stem)
        if standard is not None:
            candidates: tuple[str, ...] = (standard.group(1) or "cc",)
        else:
            prefix, dash, last = stem.rpartition("-")
            cross = dash and (prefix.count("-") >= 1 or _C_STANDARD.fullmatch(prefix))
            candidates = (stem, last) if cross else (stem,)
        for candidate in candidates:
            candidate = _ALIASES.get(candidate, candidate)  # `x86_64-linux-gnu-cpp-12`
            if candidate != name and tree.knows(candidate):
                return candidate
        shorter = _VERSIONED.sub("", stem, count=1)
        if shorter == stem or not shorter:
            return None
        stem = shorter
    return None


def _inner_paths(globs: Sequence[str]) -> tuple[tuple[str, bool], ...]:
    """(path, deep) for each relative protected glob's literal part that is not a single
    name at the top: `.vscode/tasks.json` (False), `.claude` of `.claude/**` (True: any
    file below). Single top names are `protected_names`' to find."""
    found: dict[str, bool] = {}
    for glob in globs:
        if glob.startswith(("/", "~", "*")):
            continue
        parts = glob.split("/")
        literal = list(itertools.takewhile(lambda part: not any(c in part for c in "*?[{"), parts))
        deep = len(literal) < len(parts)
        if literal and (deep or len(literal) > 1):
            path = "/".join(literal)
            found[path] = found.get(path, False) or deep
    return tuple(found.items())


def _gnu_alias(name: str) -> str | None:
    base = program_name(name)
    return None if base == name else base


@dataclass(frozen=True)
class _ScriptOptions:
    """How an interpreter's options say which file it reads as its program (review EE8):
    `stops` hand it code, a module or standard input instead (`python3 -c`, `-m`, `bash
    -s`), `values` take a value glued or as the next word (`python3 -W ignore`), `glued`
    take the rest of their word (`perl -Mstrict`), `scripts` name the script (`php -f
    x.php`, `awk -f prog.awk`), `reads` name other files it reads as code or settings
    (`node -r ./x`, `php -c php.ini`, `gawk -i lib.awk`: review EI7); `operand`: whether
    the first operand is the script (not awk's, which is program text); `plus`: `+o` is
    an option too (the shells); `next_values`: bash's bundles, where each value letter
    takes the next word in turn and the letters after it are options too (`bash -ox
    pipefail .env` runs `.env`: EI7)."""

    stops: str = ""
    values: str = ""
    glued: str = ""
    scripts: str = ""
    reads: str = ""
    long_stops: frozenset[str] = frozenset()
    long_values: frozenset[str] = frozenset()
    long_scripts: frozenset[str] = frozenset()
    long_reads: frozenset[str] = frozenset()  # other files read (`node --env-file .env`)
    operand: bool = True
    plus: bool = False
    next_values: bool = False
    single_long: frozenset[str] = frozenset()  # bash's `-norc`, `-rcfile F` (review EV2)


_PYTHON_SCRIPT: Final = _ScriptOptions(
    stops="cm", values="WXQ", long_values=frozenset({"--check-hash-based-pycs"})
)
_SHELL_SCRIPT: Final = _ScriptOptions(
    stops="cs", values="oO", long_stops=frozenset({"--command"}),
    long_reads=frozenset({"--rcfile", "--init-file", "-rcfile", "-init-file"}), plus=True,
    next_values=True, single_long=BASH_SINGLE_DASH_LONG,
)  # fmt: skip
_SCRIPT_OPTIONS: Final = {
    **dict.fromkeys(
        ("node", "nodejs", "ts-node", "tsx"),
        _ScriptOptions(
            stops="ep", values="C", reads="r", long_stops=frozenset({"--eval", "--print"}),
            long_values=frozenset({"--conditions", "--input-type", "--title"}),
            long_reads=frozenset({"--env-file", "--env-file-if-exists", "--require",
                                  "--import", "--loader", "--experimental-loader"}),
        ),
    ),
    "perl": _ScriptOptions(stops="eE", values="I", glued="0CdDFilmMxV"),
    "ruby": _ScriptOptions(
        stops="e", values="ICE", reads="r", glued="0FKTWx",
        long_values=frozenset({"--enable", "--disable", "--encoding", "--external-encoding",
                               "--internal-encoding"}),
    ),
    "php": _ScriptOptions(stops="rBREaS", values="dzt", scripts="fF", reads="c"),
    **dict.fromkeys(("lua", "luajit"), _ScriptOptions(stops="e", values="l")),
    "Rscript": _ScriptOptions(stops="e"),
    # `R -f FILE` / `--file=FILE` runs FILE; R's operands are no script (`R CMD …`)
    "R": _ScriptOptions(
        stops="e", scripts="f", long_scripts=frozenset({"--file"}), operand=False
    ),
    **dict.fromkeys(
        ("awk", "gawk", "mawk", "nawk", "busybox-awk"),
        _ScriptOptions(
            stops="e", values="vFlW", scripts="fE", reads="i",
            long_stops=frozenset({"--source"}),
            long_values=frozenset({"--assign", "--field-separator", "--load"}),
            long_reads=frozenset({"--include"}),
            long_scripts=frozenset({"--file", "--exec"}), operand=False,
        ),
    ),
}  # fmt: skip


# the system's program folders, where only root writes: a wrapper named by its path there
# is the system's (`/usr/bin/env`, `/bin/bash -c …`)
_SYSTEM_PROGRAM: Final = re.compile(r"(?:/usr(?:/local)?)?/s?bin/[^/]+")


def _system_program(path: str) -> bool:
    return _SYSTEM_PROGRAM.fullmatch(path) is not None and ".." not in path.split("/")


def _lands_inside(form: str, ctx: EvalContext) -> bool:
    """Whether a path outside the workspace as written lies in it where its links lead
    (a cwd given through a link to the workspace: review EO3): what the outside-workspace
    rule judges is where the file is; the protect rules still judge every spelling."""
    real = paths.real(form)
    return real != form and any(
        paths_within(real, root) for root in (ctx.workspace, ctx.real_workspace) if root
    )


def _script_options(name: str, shells: frozenset[str]) -> _ScriptOptions | None:
    """How `name` (a program's name for the tables) is told its script, if it runs one."""
    if _PYTHON.fullmatch(name):
        return _PYTHON_SCRIPT
    if name in shells:
        return _SHELL_SCRIPT
    return _SCRIPT_OPTIONS.get(name)


def _script_words(options: _ScriptOptions, inner: Sequence[Word]) -> list[Word]:
    """The words that name the files an interpreter reads as its program (`options`):
    the first operand, or the value of a script option; and the files other options read
    (`node --env-file .env`, whose variables the program is given, as `uv run
    --env-file`'s are). A word not known stops the look."""
    found: list[Word] = []
    operand = options.operand
    bundled = False
    index = 1
    while index < len(inner):
        word = inner[index]
        value = word.value
        index += 1
        if value is None:
            # (`~/x`: the path checks expand it; a word they cannot know asks there)
            if operand:
                found.append(word)
            return found
        if value == "--" or (value == "-" and options.plus):
            # (a shell's `-` ends its options as `--` does: `bash - .env` runs `.env`,
            # review EM5; an interpreter's `-` is its standard input)
            if operand and index < len(inner):
                found.append(inner[index])
            return found
        if value == "-" or not value.startswith(("-", "+") if options.plus else "-"):
            if operand and value != "-":
                found.append(word)
            return found
        if value.startswith("--") or (value in options.single_long and not bundled):
            option, glued, rest = value.partition("=")
            if option in options.long_stops:
                return found
            read = option in options.long_scripts or option in options.long_reads
            target = _value_word(word, rest) if glued else None
            if (read or option in options.long_values) and not glued:
                target = inner[index] if index < len(inner) else None
                index += 1
            if read and target is not None:
                found.append(target)
                operand = operand and option not in options.long_scripts
            continue
        bundled = True  # (bash's `-norc` is long only before a bundle of letters: EW1)
        for at, letter in enumerate(value[1:], 2):
            if letter in options.stops:
                return found
            takes = options.values + options.scripts + options.reads
            if letter in takes and options.next_values:
                index += 1  # bash: the next word is its value; read on in the bundle
                continue
            if letter in takes:
                target = _value_word(word, value[at:]) if value[at:] else None
                if target is None:
                    target = inner[index] if index < len(inner) else None
                    index += 1
                if letter in options.scripts + options.reads and target is not None:
                    found.append(target)
                    operand = operand and letter not in options.scripts
                break
            if letter in options.glued:
                break
    return found


def _value_word(word: Word, value: str) -> Word:
    return Word(text=value, value=value, span=word.span)


def _split_lists(
    found: list[tuple[Word, str, bool]], separator: str
) -> list[tuple[Word, str, bool]]:
    """Each path word that holds `separator` as the paths of its list, the word too (a
    name that holds it is checked whole as well: stricter, never looser)."""
    split: list[tuple[Word, str, bool]] = []
    for word, access, deep in found:
        split.append((word, access, deep))
        if word.value is not None and separator in word.value:
            split.extend(
                (_value_word(word, part), access, deep)
                for part in word.value.split(separator)
                if part
            )
    return split


def _glued_value(word: Word) -> Word:
    """The value glued to an option in a word that is not literal: VALUE of `--opt=VALUE`,
    or all after the letter of `-oVALUE`, as written when the word has no quote, `$`,
    backquote or pattern (bash expands nothing there, tildes included: the word was not
    literal for a tilde after `=`); else the word itself, which the path checks cannot
    read (they ask)."""
    text = word.text
    if any(ch in text for ch in "'\"\\$`*?[{") or not text.startswith("-"):
        return word
    if not text.startswith("--"):
        # `-f=~/x` gives `-f` the value `=~/x`, a path through a directory `=~` (AD6)
        return _value_word(word, text[2:]) if len(text) > 2 else word
    _name, eq, value = text.partition("=")
    return _value_word(word, value) if eq else word


_MAX_GIT_C = 8  # `git -C DIR` options followed; more asks
# programs that take git's options before their verb: git, and scalar, which git ships
# (`scalar -C DIR delete X` is `scalar delete X` run in DIR: review BT5)
_GIT_OPTION_READERS: Final = frozenset({"git", "scalar"})
# git's own options that make what follows no subcommand (`git --help log` shows a page)
_GIT_QUERIES = frozenset(
    {"--version", "--help", "--list-cmds", "--html-path", "--man-path", "--info-path"}
)
# git's own options that choose what git runs or reads: each is at least ask (`-c` only
# for a key that can run a program or read a file, see `_risky_git_config`)
_GIT_RISKY_GLOBALS = {
    "--git-dir": "points git at a repository chosen here",
    "--work-tree": "points git at a working tree chosen here",
    "--exec-path": "points git at programs chosen here",
    "--config-env": "sets git configuration from an environment variable",
    "--bare": "treats the directory as a repository",
    "--namespace": "reads the refs of another namespace",
    "--icase-pathspecs": "matches paths ignoring case (`.ENV` is `.env`)",
    "--super-prefix": "is an internal option",
    "-p": "runs a pager",
    "--paginate": "runs a pager",
}


def _without_git_globals(
    inner: tuple[Word, ...],
) -> tuple[tuple[Word, ...], tuple[tuple[Word, str, bool], ...], str | None]:
    """`git -C dir --no-pager log` as the rules see it (`git log`), the `-C` paths (read
    like paths, relative to the segment's directory) and the directory git runs in (the
    subcommand's own path operands are relative to it).

    Every global option is seen through, so a rule for `git push` holds for
    `git -c k=v push` too (review F6/F8); the options that choose what git runs or reads
    (`-c`, `--git-dir` …) are floors of their own (`_git_dirs`). The words stay as written
    when an option is not literal or unknown, or a query option (`--version`, `--help`)
    makes the rest no subcommand.
    """
    unchanged: tuple[tuple[Word, ...], tuple[tuple[Word, str, bool], ...], str | None] = (
        inner,
        (),
        None,
    )
    first = inner[1].value
    if first is not None and not first.startswith("-"):
        return unchanged
    view = option_view(inner, DEFAULT_OPTION_SPECS["git"], start=1)
    if (
        view.unknown
        or view.rest >= len(inner)
        or any(not o.known or not o.literal or o.name in _GIT_QUERIES for o in view.options)
    ):
        return unchanged
    if sum(1 for o in view.options if o.name == "-C") > _MAX_GIT_C:
        return unchanged  # `_git_dirs` asks; each would be resolved against all before
    reads: list[tuple[Word, str, bool]] = []
    base = ""
    for option in view.options:
        if option.name != "-C":
            continue
        if option.value is None or not option.arg_indexes:
            return unchanged  # not literal, or `-C.`, which git itself rejects
        # `git -C a -C b` runs in a/b; an empty `-C ""` changes nothing
        if option.value:
            base = (
                option.value
                if not base or option.value.startswith(("/", "~"))
                else f"{base}/{option.value}"
            )
            reads.append((_value_word(inner[option.word_index], base), "read", False))
    return (inner[0], *inner[view.rest :]), tuple(reads), base or None


def _git_dirs(
    inner: Sequence[Word], floors: list[Reason], program: str = "git"
) -> tuple[str, ...]:
    """Directories whose repository config decides what git may run (`-C`), () = cwd.
    `program`: git, or scalar, which takes git's `-c` and `-C` before its verb."""
    first = inner[1].value if len(inner) > 1 else ""
    if first is not None and not first.startswith("-"):
        return ()  # `git status`: git's own options stop at the subcommand; none here
    view = option_view(inner, DEFAULT_OPTION_SPECS["git"], start=1)
    if sum(1 for o in view.options if o.name == "-C") > _MAX_GIT_C:
        # `git -C . -C . …` thousands of times: each directory is resolved against all the
        # ones before it, which costs time growing with the cube of their number (review H3)
        floors.append(
            Reason(
                rule_id="engine.git-config",
                message=f"more than {_MAX_GIT_C} `{program} -C` directories to follow",
                verdict=Verdict.ASK,
            )
        )
        return ()
    dirs: list[str] = []
    for option in view.options:
        if option.name == "-C":
            if option.value is None:
                floors.append(
                    Reason(
                        rule_id="engine.git-config",
                        message=f"{program} -C with a directory that is not literal",
                        verdict=Verdict.ASK,
                    )
                )
                continue
            base = dirs[-1] if dirs else "."
            dirs.append(
                option.value if option.value.startswith(("/", "~")) else f"{base}/{option.value}"
            )
        elif option.name in _GIT_RISKY_GLOBALS:
            what = _GIT_RISKY_GLOBALS[option.name]
            floors.append(
                Reason(
                    rule_id="engine.git-config",
                    message=f"`{program} {option.name}` {what}",
                    verdict=Verdict.ASK,
                )
            )
        elif option.name == "-c" and _risky_git_config(option.value):
            floors.append(
                Reason(
                    rule_id="engine.git-config",
                    message=f"`{program} -c {(option.value or '…')[:60]}` sets git "
                    "configuration that can run a program or read a file",
                    verdict=Verdict.ASK,
                )
            )
    return tuple(dirs)


def _risky_git_config(setting: str | None) -> bool:
    """Whether `git -c KEY=VALUE` may run a program or read another file: any key not
    known to be harmless (`compiler.checks.harmless_git_setting`), and any non-literal."""
    return setting is None or not harmless_git_setting(setting)


# (a compiled class leaves pickle and copy no blank instance to fill: see `picklable`)
picklable(SegmentRules)


def _workspace_pattern(policy: CompiledPolicy, access: Access) -> LazyRegex | None:
    """One expression over paths relative to the workspace for every workspace-anchored
    protect rule that `access` can violate; without regard to case, like the rules
    themselves (`match_rules`): it only picks the entries that `path_verdicts` then judges."""
    patterns = [
        f"(?:{rule.regex.pattern})"
        for rule in policy.protected.rules
        if rule.anchor == WORKSPACE and rule.access.covers(access)
    ]
    return LazyRegex("|".join(patterns), re.DOTALL | re.IGNORECASE) if patterns else None
