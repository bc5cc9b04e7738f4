"""Engine stage: whether a repository can make git run programs; imports nothing above.

`git status` runs no program of the repository's choosing only when the repository's
own configuration says nothing that git turns into a command. A cloned or generated
repository (or an agent tricked into writing `.git/config`) can set `core.fsmonitor`,
`core.pager`, `diff.external`, a `textconv` driver or a `!` alias, or drop an executable
hook, and the next "read-only" `git status` or `git log` runs it.

This module finds the git directories git itself would use for a working directory
(git's discovery: `DIR/.git` as a directory or a `gitdir:` file, and DIR itself as a bare
git directory, at each level up), and for each of them reads:

- `config` of the common directory and the per-worktree `config.worktree`
  (`extensions.worktreeConfig`), parsed like git's own parser (quotes, escapes,
  backslash-newline continuations, `;`/`#` comments), and the files they include
  (`include.path`, every `includeIf.*.path` regardless of the condition, with `~/`,
  `~user/` expanded like git; `%(prefix)/` cannot be resolved here);
- the hooks directory `hooks/`: an executable file not named `*.sample` is a risk
  (`git status` can run `post-index-change`), unless it is a hook that only commands
  changing the repository run (`pre-commit`, `pre-push`, …);
- submodules, which `git status` and `git diff` recurse into: every git directory under
  `modules/`, and the repository of every populated gitlink of the index;
- the files git reads there on its own (review BK1): a symbolic link among the entries of
  the git directory (`packed-refs`, `shallow`, `commondir`, `BISECT_START`, `objects`,
  `info`, … all but `HEAD` and `hooks`), of `objects/info/`, `info/` and the state
  directories `rebase-merge/`, `rebase-apply/` and `sequencer/` is a risk, since git
  follows it wherever it points and prints the lines it cannot parse
  (`fatal: unexpected line in .git/packed-refs: …`); so is a link among the entries of
  each linked worktree's `worktrees/NAME/` and of its state directories (review BM8: `git
  worktree list` prints its `locked`, `prunable` and `gitdir`), but for a `HEAD` naming a
  ref (`core.preferSymlinkRefs` makes those); so is an `objects/info/alternates`
  (or `http-alternates`, nested alternates followed) naming an object store outside the
  git directory, and a `commondir` naming anything but the repository of its worktree.

Fail closed: an include that cannot be resolved or read is reported as a risk naming it,
and an unreadable or unparsable file, a config too large to read whole, an index that
cannot be parsed or a tree of repositories too large to walk make the result incomplete.

Reading is cached per file by `(mtime_ns, size, inode)`, and directory listings by the
directory's `(mtime_ns, ctime_ns, inode, device)`, so a plain repository costs a few
`stat` calls per evaluation.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pwd
import re
import shlex
import stat
import struct
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Generic, NamedTuple, TypeVar

from policylang.engine.paths import Unresolvable, lexists, real

# Keys (lowercased; `*` is one subsection) whose value git may execute.
_EXACT_KEYS = frozenset(
    {
        "core.fsmonitor",
        # `ext::CMD` remotes run CMD once this allows them (review AD2)
        "protocol.ext.allow",
        "protocol.allow",
        "core.pager",
        "core.sshcommand",
        "core.hookspath",
        "core.editor",
        "core.askpass",
        "core.gitproxy",
        "core.alternaterefscommand",
        "diff.external",
        "diff.tool",
        "diff.guitool",
        "merge.tool",
        "merge.guitool",
        "sequence.editor",
        "gpg.program",
        "gpg.ssh.defaultkeycommand",
        # not run, but read and echoed: `git blame` prints the first line of this file
        # in its error (review G4); `log.showSignature` runs gpg.program on every commit
        "blame.ignorerevsfile",
        "log.showsignature",
        # files read as git's own formats whose words reach the output: `git check-attr -a
        # machine` prints every later word of `~/.netrc`'s `machine …` line as an attribute
        # name (review BP1), `check-ignore -v` prints the matching line, a mailmap rewrites
        # names into `git log`, fsck names the skip list's bad line, ssh signing prints
        # the signers file's principals
        "core.attributesfile",
        "core.excludesfile",
        "mailmap.file",
        "mailmap.blob",
        "fsck.skiplist",
        "fetch.fsck.skiplist",
        "receive.fsck.skiplist",
        "gpg.ssh.allowedsignersfile",
        "gpg.ssh.revocationfile",
        "credential.helper",
        "interactive.difffilter",
        "uploadpack.packobjectshook",
        "web.browser",
        "help.browser",
        "help.format",
        "man.viewer",
        "imap.tunnel",
        "instaweb.httpd",
        "sendemail.sendmailcmd",
        "sendemail.smtpserver",
        "sendemail.tocmd",
        "sendemail.cccmd",
        "sendemail.headercmd",
        "pager.*",
        "diff.*.textconv",
        "diff.*.command",
        "filter.*.clean",
        "filter.*.smudge",
        "filter.*.process",
        "merge.*.driver",
        "gpg.*.program",
        "credential.*.helper",
        "remote.*.uploadpack",
        "remote.*.receivepack",
        "remote.*.vcs",
        "difftool.*.cmd",
        "difftool.*.path",
        "mergetool.*.cmd",
        "mergetool.*.path",
        "browser.*.cmd",
        "browser.*.path",
        "man.*.cmd",
        "man.*.path",
        "guitool.*.cmd",
        "trailer.*.cmd",
        "trailer.*.command",
        "tar.*.command",
        "sendemail.*.sendmailcmd",
        "sendemail.*.smtpserver",
        "sendemail.*.tocmd",
        "sendemail.*.cccmd",
        "sendemail.*.headercmd",
    }
)
# Keys whose value runs a program only when it starts with `!`.
_BANG_KEYS = frozenset({"alias", "submodule.*.update"})

_MAX_INCLUDES = 32  # config files per repository
_MAX_REPOS = 64  # repositories (the discovered ones and their submodules)
_MAX_DEPTH = 8  # submodules of submodules…
_MAX_SCAN = 512  # directories under `modules/`
_MAX_CONFIG = 1_000_000  # bytes; a larger config is not read (incomplete)
_MAX_INDEX = 64_000_000  # bytes of index parsed for gitlinks
_MAX_ENTRIES = 4096  # entries of a git directory (or a state directory) listed
_MAX_WORKTREES = 256  # directories under `worktrees/` of a git directory (review BM8)
_MAX_ALTERNATES = 5  # git's nesting limit for alternates of alternates

# Entries of a git directory that may be symbolic links: git validates a linked `HEAD`
# (`_check_head`), and the hooks of a linked `hooks/` are inspected where it points. Any
# other link is followed by git wherever it points (review BK1).
_LINKS_ALLOWED = frozenset({"HEAD", "hooks"})
# directories of a git directory whose files git reads on its own: `info/` (`exclude`,
# `attributes`, `grafts`, `sparse-checkout`) and the state of a rebase (`git status`
# prints `done` and `git-rebase-todo`, `head-name` and `onto`), an `am` or a cherry-pick
_STATE_DIRS = ("info", "rebase-merge", "rebase-apply", "sequencer")
# a link git's files backend reads as a symbolic ref, without following it: a ref name
# (`check_refname_format`; this accepts fewer names than git, which then asks)
_REF_LINK = re.compile(r"refs(?:/[A-Za-z0-9_+,=-][A-Za-z0-9_.+,=-]*)+")
# a listing is kept only for a directory unchanged for this long: file system timestamps
# are coarse (a kernel tick), so a link made within the tick of the listing would leave
# the directory's stamp as it was
_SETTLE_NS = 1_000_000_000

# git's own character classes (ASCII only, `isspace` without \v and \f)
_SPACE = frozenset(" \t\n\r")
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_KEYCHAR = _ALPHA | frozenset("0123456789-")
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "\\": "\\", '"': '"'}
_HEX = frozenset(b"0123456789abcdefABCDEF")
_GITLINK_MODE = b"\x00\x00\xe0\x00"  # 0o160000 as stored in an index entry
# an index entry's fixed part: mtime (s, ns) at 8, mode at 24, size at 36, flags at 60
_ENTRY_HEAD = struct.Struct(">8xII8xI8xI20xH")

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True, kw_only=True)
class GitRisk:
    """Something that lets git run a program: the key (or hook) and the file that sets it.

    `kind` is `config` (a key) or `hook`, or for what makes git read and print files outside
    the repository (review BK1): `link` (the entry `key` of a git directory, `file`, is a
    symbolic link to `detail`) or `outside` (`file` names `detail`, outside the repository).
    """

    key: str
    file: str
    kind: str = "config"
    detail: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class GitInspection:
    """A repository's risks (programs git may run), the keys of its configuration that
    hold credentials, and whether everything could be read."""

    risks: tuple[GitRisk, ...]
    credentials: tuple[GitRisk, ...]
    complete: bool
    # the work trees `core.worktree` sets (absolute, lexical), each with whether it is a
    # submodule's (whose git directory lies in `modules/` of its superproject's): git
    # reads and prints the files there (review Z4: a shipped bare repository aimed at `~`)
    worktrees: tuple[tuple[str, bool], ...] = ()
    # remote URLs of its configuration and its `.gitmodules`: what `git fetch up` or
    # `git submodule update` reach without naming it (review AC6)
    remotes: tuple[str, ...] = ()
    # keys that make it a partial clone (`extensions.partialClone`, `remote.X.promisor`):
    # git fetches the objects it lacks from that remote whenever a command reads one, so
    # `git log -p` or `git blame` reach the network (review AN1)
    lazy_fetch: tuple[GitRisk, ...] = ()
    # `alias.NAME = VALUE` entries (NAME lowercased, with any subsection: `[alias "foo"]
    # bar` is `foo.bar`), in the order git reads them
    aliases: tuple[tuple[str, str], ...] = ()
    # keys that make plain `git grep` read more than the index (`_GREP_WIDENERS`)
    grep_wideners: tuple[str, ...] = ()
    # keys that make git's printers print more than the repository's own tracked files:
    # `diff.submodule = diff` (the submodules' files: review EZ2), a true
    # `stash.showIncludeUntracked` (a stash's untracked files: review EZ8)
    print_wideners: tuple[str, ...] = ()
    # whether the repository has a populated gitlink or a `modules/` folder (review EZ2)
    submodules: bool = False
    # keys that choose what `git push` sends where the line names nothing: `remote.X.push`
    # refspecs (`refs/stash:refs/heads/wip`) and a true `remote.X.mirror` (every ref,
    # deleting the remote's others: review FO6)
    push_sources: tuple[str, ...] = ()
    # where a bare `git push` may go: the values of `remote.pushDefault`,
    # `branch.X.pushRemote` and `branch.X.remote`, which git reads as a path or URL where
    # it counts no remote of that name (`evil.git` runs its hooks: reviews FS1, FT1)
    push_targets: tuple[str, ...] = ()
    # the names of the remotes with a `url`: the only destinations an approved `git push`
    # is allowed to (an allowlist, since every blocklisted spelling had another: FO..FT)
    remote_names: tuple[str, ...] = ()
    # `remote.X.fetch` refspecs that copy more than branches and tags (`+refs/stash:
    # refs/remotes/up/main` made the stash a remote-tracking branch: review FQ7)
    fetch_sources: tuple[str, ...] = ()
    # keys that change how git reaches a remote over the network: `http.*` (`proxy`,
    # `sslVerify = false`, `sslCAInfo`, `curloptResolve` …) and `remote.X.proxy`: an
    # attacker's proxy read the user's token from a pull (review GA1)
    network_settings: tuple[GitRisk, ...] = ()


# git 2.39's builtin commands (`git --list-cmds=builtins`): an alias of one of these names
# is never used, so only another verb may be an alias
GIT_BUILTINS: Final = frozenset(
    """add am annotate apply archive bisect--helper blame branch bugreport bundle cat-file
    check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker
    checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree
    config count-objects credential credential-cache credential-cache--daemon
    credential-store describe diagnose diff diff-files diff-index diff-tree difftool
    env--helper fast-export fast-import fetch fetch-pack fmt-merge-msg for-each-ref
    for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep
    hash-object help hook index-pack init init-db interpret-trailers log ls-files ls-remote
    ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index
    merge-ours merge-recursive merge-recursive-ours merge-recursive-theirs merge-subtree
    merge-tree mktag mktree multi-pack-index mv name-rev notes pack-objects pack-redundant
    pack-refs patch-id pickaxe prune prune-packed pull push range-diff read-tree rebase
    receive-pack reflog remote remote-ext remote-fd repack replace rerere reset restore
    rev-list rev-parse revert rm send-pack shortlog show show-branch show-index show-ref
    sparse-checkout stage stash status stripspace submodule--helper switch symbolic-ref tag
    unpack-file unpack-objects update-index update-ref update-server-info upload-archive
    upload-archive--writer upload-pack var verify-commit verify-pack verify-tag version
    whatchanged worktree write-tree""".split()  # noqa: SIM905 (a table of words reads best as words)
)


class _ConfigError(Exception):
    pass


def _split_var(var: str) -> tuple[str, str | None, str]:
    """`diff.x.y.textconv` → `("diff", "x.y", "textconv")`, as git's `parse_config_key`."""
    first = var.find(".")
    last = var.rfind(".")
    if first < 0:
        return "", None, var
    if last == first:
        return var[:first], None, var[last + 1 :]
    return var[:first], var[first + 1 : last], var[last + 1 :]


def _dangerous(var: str, value: str | None) -> bool:
    section, sub, name = _split_var(var.lower())
    wild = f"{section}.*.{name}" if sub is not None else f"{section}.{name}"
    if var.lower() in _EXACT_KEYS or wild in _EXACT_KEYS:
        return True
    if (section == "alias" or wild in _BANG_KEYS) and value is not None:
        return value.lstrip().startswith("!")
    if (wild == "format.pretty" or section == "pretty") and value:  # (`[pretty "x"] y`: DT2)
        # a format that verifies signatures (`%G?`) runs gpg on every signed commit, as
        # `--show-signature` does; gpgsm then fetches the CRL an X.509 signature names
        # (review DR2: `format.pretty`, `pretty.NAME` of `--format=NAME`)
        return _SIGNATURE_FORMAT.search(value.replace("%%", "")) is not None
    if wild in ("tag.sort", "branch.sort") and value:
        # the default sort key of `git tag -l` and `git branch`: `signature` computes
        # ref-filter's signature atom, which verifies them (review DT3)
        return _SIGNATURE_SORT.search(value) is not None
    return sub is None and section == "pager"


_SIGNATURE_FORMAT: Final = re.compile(r"%[-+ ]?(?:G|\(\*?signature)")
_SIGNATURE_SORT: Final = re.compile(r"(?i)(?:^|[\s,*-])signature\b")
# settings whose effect the repository's commits choose (the signatures verified), so
# that they count in git's global configuration too (review DR2)
_SIGNATURE_KEYS: Final = ("log.showsignature", "format.pretty", "pretty.", "tag.sort",
                          "branch.sort")  # fmt: skip


def split_alias(body: str) -> list[str] | None:
    """The words git makes of an alias that is no shell command (`alias.pr = push --repo
    #`), as git's `split_cmdline`: blanks separate words, single and double quotes group,
    a backslash takes the next character as it is (inside double quotes too, not inside
    single ones). Nothing else is special: `#`, `;`, `|`, `$`, `~` and globs are
    characters of a word (review BT4). None where git refuses the alias (an unclosed
    quote, a backslash at the end)."""
    words: list[str] = []
    word: list[str] = []
    quote = ""
    i = 0
    while i < len(body):
        c = body[i]
        i += 1
        if not quote and c in _SPACE:
            words.append("".join(word))
            word = []
            while i < len(body) and body[i] in _SPACE:
                i += 1
        elif not quote and c in "'\"":
            quote = c
        elif c == quote:
            quote = ""
        else:
            if c == "\\" and quote != "'":
                if i == len(body):
                    return None
                c = body[i]
                i += 1
            word.append(c)
    if quote:
        return None
    words.append("".join(word))  # (a blank at either end makes an empty word, as in git)
    return words


_MAX_ENV_ENTRIES = 4096  # `GIT_CONFIG_COUNT` read; more is incomplete
_COUNT = re.compile(r"\+?[0-9]+")


def environment_config(env: Mapping[str, str]) -> tuple[list[tuple[str, str | None]], bool]:
    """The entries `(variable, value)` git takes from its environment: the numbered
    `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` pairs of `GIT_CONFIG_COUNT`, then those of
    `GIT_CONFIG_PARAMETERS` (what `git -c` hands to the git it runs), and whether all
    could be read as git reads them. Variables are lowercased (git keeps a subsection's
    case; every caller compares without regard to it). git dies on what is not read."""
    entries: list[tuple[str, str | None]] = []
    complete = True
    count = env.get("GIT_CONFIG_COUNT", "").strip()  # (git's strtoul reads "" as 0)
    if count:
        if not _COUNT.fullmatch(count) or int(count) > _MAX_ENV_ENTRIES:
            complete = False
        else:
            for n in range(int(count)):
                key = env.get(f"GIT_CONFIG_KEY_{n}")
                value = env.get(f"GIT_CONFIG_VALUE_{n}")
                if key is None or value is None:
                    complete = False
                    break
                entries.append((key.lower(), value))
    parameters = env.get("GIT_CONFIG_PARAMETERS")
    if parameters is not None:
        found = _config_parameters(parameters)
        if found is None:
            complete = False
        else:
            entries.extend(found)
    return entries, complete


def _config_parameters(text: str) -> list[tuple[str, str | None]] | None:
    """`GIT_CONFIG_PARAMETERS` as git's `parse_config_env_list` reads it: single-quoted
    words, each `'key'='value'`, `'key'=` (true) or the older `'key=value'`; None where
    git reports a bogus format."""
    entries: list[tuple[str, str | None]] = []
    i = 0
    while i < len(text):
        key, i = _sq_word(text, i)
        if key is None:
            return None
        if i >= len(text) or text[i] in _SPACE:
            name, equals, value = key.partition("=")  # old style: `'key=value'`
            entries.append((name.strip().lower(), value if equals else None))
        elif text[i] == "=":
            i += 1
            if i < len(text) and text[i] == "'":
                quoted, i = _sq_word(text, i)
                if quoted is None or (i < len(text) and text[i] not in _SPACE):
                    return None
                entries.append((key.lower(), quoted))
            elif i >= len(text) or text[i] in _SPACE:
                entries.append((key.lower(), None))
            else:
                return None
        else:
            return None
        while i < len(text) and text[i] in _SPACE:
            i += 1
    return entries


def _sq_word(text: str, i: int) -> tuple[str | None, int]:
    """git's `sq_dequote_step` from `text[i]`: a single-quoted word, in which `'\\''` and
    `'\\!'` stand for `'` and `!`; the word and where it ends (None: not one)."""
    if i >= len(text) or text[i] != "'":
        return None, i
    out: list[str] = []
    i += 1
    while True:
        end = text.find("'", i)
        if end < 0:
            return None, i
        out.append(text[i:end])
        i = end + 1
        escaped = text[i + 1 : i + 2]
        if text[i : i + 1] == "\\" and escaped in ("'", "!") and text[i + 2 : i + 3] == "'":
            out.append(escaped)
            i += 3
            continue
        return "".join(out), i


def _parse(text: str) -> tuple[list[tuple[str, str | None]], bool]:
    """Entries `(variable, value)` as git reads them and whether the whole file parsed.

    A port of git's `git_parse_source`: the variable is `section[.subsection].name` with
    section and name lowercased; the value is None for a bare `name` (boolean true).
    """
    entries: list[tuple[str, str | None]] = []
    text = text.replace("\r\n", "\n")
    if text.startswith("\xef\xbb\xbf"):  # UTF-8 BOM (text is decoded as latin-1)
        text = text[3:]
    s = text + "\n\n"  # git's reader returns "\n" at the end of the file
    try:
        _parse_into(s, entries)
    except (_ConfigError, IndexError):
        return entries, False
    return entries, True


def _parse_into(s: str, entries: list[tuple[str, str | None]]) -> None:
    n = len(s) - 1  # the last "\n" stands for end of file
    i = 0
    base: str | None = None
    comment = False
    while i < n:
        c = s[i]
        i += 1
        if c == "\n":
            comment = False
            continue
        if comment or c in _SPACE:
            continue
        if c in "#;":
            comment = True
            continue
        if c == "[":
            base, i = _base_var(s, i)
            if not base:
                raise _ConfigError
            continue
        if c not in _ALPHA:
            raise _ConfigError
        j = i
        while s[j] in _KEYCHAR:
            j += 1
        name = (c + s[i:j]).lower()
        c = s[j]
        i = j + 1
        while c in " \t":
            c = s[i]
            i += 1
        value: str | None = None
        if c != "\n":
            if c != "=":
                raise _ConfigError
            value, i = _value(s, i)
        entries.append((f"{base}.{name}" if base is not None else name, value))


def _base_var(s: str, i: int) -> tuple[str, int]:
    name: list[str] = []
    while True:
        c = s[i]
        i += 1
        if c == "]":
            return "".join(name), i
        if c in _SPACE:
            break
        if c not in _KEYCHAR and c != ".":
            raise _ConfigError
        name.append(c.lower())
    # `[section "subsection"]`
    while True:
        if c == "\n":
            raise _ConfigError
        c = s[i]
        i += 1
        if c not in _SPACE:
            break
    if c != '"':
        raise _ConfigError
    name.append(".")
    while True:
        c = s[i]
        i += 1
        if c == "\n":
            raise _ConfigError
        if c == '"':
            break
        if c == "\\":
            c = s[i]
            i += 1
            if c == "\n":
                raise _ConfigError
        name.append(c)
    if s[i] != "]":
        raise _ConfigError
    return "".join(name), i + 1


def _value(s: str, i: int) -> tuple[str, int]:
    out: list[str] = []
    quote = comment = False
    space = 0
    while True:
        c = s[i]
        i += 1
        if c == "\n":
            if quote:
                raise _ConfigError
            if i >= len(s):  # the end of the file: stay on the final "\n"
                i -= 1
            return "".join(out), i
        if comment:
            continue
        if c in _SPACE and not quote:
            if out:
                space += 1
            continue
        if not quote and c in ";#":
            comment = True
            continue
        if space:
            out.append(" " * space)
            space = 0
        if c == "\\":
            c = s[i]
            i += 1
            if c == "\n":
                continue  # continuation line
            escaped = _ESCAPES.get(c)
            if escaped is None:
                raise _ConfigError
            out.append(escaped)
            continue
        if c == '"':
            quote = not quote
            continue
        out.append(c)


@dataclass(frozen=True, slots=True)
class _FileResult:
    risks: tuple[GitRisk, ...]
    includes: tuple[tuple[str, str, str | None], ...]  # (variable, raw value, resolved path)
    worktree: str | None  # the last `core.worktree`
    credentials: tuple[GitRisk, ...] = ()  # keys whose value (or name) holds a credential
    remotes: tuple[str, ...] = ()  # the URLs git may fetch from or push to (review AC6)
    lazy: tuple[GitRisk, ...] = ()  # keys that make it a partial clone (review AN1)
    # `alias.NAME = VALUE`, name lowercased (a subsection is part of it: `foo.bar`)
    aliases: tuple[tuple[str, str], ...] = ()
    # the last `extensions.objectFormat` ("\0" for one without a value): the size of the
    # index's object ids (review EG2)
    object_format: str | None = None
    # keys that make plain `git grep` read more than the index's tracked files
    # (`submodule.recurse`, `grep.fallbackToNoIndex`; review EG3, EG4)
    grep_wideners: tuple[str, ...] = ()
    print_wideners: tuple[str, ...] = ()  # (`_print_widener`: review EZ2, EZ8)
    push_sources: tuple[str, ...] = ()  # (`_push_source`: review FO6)
    push_targets: tuple[str, ...] = ()  # the values that name a remote to push to (FS1)
    remote_names: tuple[str, ...] = ()  # the X of each `remote.X.url`
    fetch_sources: tuple[str, ...] = ()  # (`_odd_fetch`: review FQ7)
    network_settings: tuple[GitRisk, ...] = ()  # (review GA1)


@dataclass(slots=True)
class _Walk:
    home: str | None
    risks: list[GitRisk] = field(default_factory=list)
    credentials: list[GitRisk] = field(default_factory=list)
    worktrees: list[tuple[str, bool]] = field(default_factory=list)
    remotes: list[str] = field(default_factory=list)
    lazy: list[GitRisk] = field(default_factory=list)
    aliases: list[tuple[str, str]] = field(default_factory=list)
    grep_wideners: list[str] = field(default_factory=list)
    print_wideners: list[str] = field(default_factory=list)
    push_sources: list[str] = field(default_factory=list)
    push_targets: list[str] = field(default_factory=list)
    fetch_sources: list[str] = field(default_factory=list)
    network_settings: list[GitRisk] = field(default_factory=list)
    submodules: bool = False
    complete: bool = True
    # (device, inode, foreign): a git directory reached both as another worktree's
    # submodule and as one of this worktree's is walked twice (`_inspect`, review GB6)
    repos: set[tuple[int, int, bool]] = field(default_factory=set)
    scanned: int = 0


_Stamp = tuple[int, int, int, int]
# a file's stamp (`_cached`): modification and change time, size, inode, mode (a program
# can set the modification time back, `touch -d`, never the change time)
_FileStamp = tuple[int, int, int, int, int]
# a file changed less than this long before it was read may change again within the same
# timestamp tick, unseen (git's "racy" index entries): it is read again on every line
_SETTLED_NS: Final = 3_000_000_000


class _Listing(NamedTuple):
    """The entries of a directory: symbolic links, directories, and the rest (files)."""

    links: tuple[str, ...]
    dirs: frozenset[str]
    files: frozenset[str]


def _listing(directory: str, walk: _Walk) -> _Listing | None:
    """The entries of `directory` by kind (links not followed); None (incomplete):
    unreadable or too many entries."""
    links: list[str] = []
    dirs: list[str] = []
    files: list[str] = []
    try:
        with os.scandir(directory) as entries:
            for count, entry in enumerate(entries):
                if count >= _MAX_ENTRIES:
                    walk.complete = False
                    return None
                if entry.is_symlink():
                    links.append(entry.name)
                elif entry.is_dir(follow_symlinks=False):
                    dirs.append(entry.name)
                else:
                    files.append(entry.name)
    except FileNotFoundError:
        return _Listing((), frozenset(), frozenset())  # removed since it was seen
    except (OSError, ValueError):
        walk.complete = False
        return None
    return _Listing(tuple(sorted(links)), frozenset(dirs), frozenset(files))


def _dir_stamp(st: os.stat_result) -> _Stamp:
    # the ctime too: `touch -d` sets the mtime back, nothing sets the ctime back
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _file_stamp(st: os.stat_result) -> _FileStamp:
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_mode)


def _settled(st: os.stat_result, read_at: int) -> bool:
    """Whether a file had last changed long enough before `read_at` (a time taken before
    it was read) for what was read to be kept by its stamp (`_SETTLED_NS`)."""
    return read_at - max(st.st_mtime_ns, st.st_ctime_ns) > _SETTLED_NS


def _lstamp(path: str) -> _Stamp | None:
    """The stamp of `path` (a link not followed), None if it does not exist."""
    try:
        return _dir_stamp(os.lstat(path))
    except (FileNotFoundError, NotADirectoryError):
        return None


class TrackedSelection(Generic[_T]):
    """Tracked files of one working tree that a caller picked, with what it kept for each.

    (A plain class: mypyc, which compiles the engine, cannot make a generic dataclass.)
    """

    __slots__ = ("files", "index_mtime_ns", "top")

    def __init__(
        self, *, top: str, index_mtime_ns: int, files: tuple[tuple[TrackedFile, _T], ...]
    ) -> None:
        self.top = top
        # entries staged as late as this may differ with equal stat data
        self.index_mtime_ns = index_mtime_ns
        self.files = files


class GitConfigInspector:
    """Finds the repositories of a directory and what in them makes git run programs."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], tuple[_FileStamp, object]] = {}
        self._tracked: dict[tuple[str, Hashable, int], tuple[_FileStamp, object]] = {}
        # a git directory's stamps (its own, `info/`, `objects/info/`, `worktrees/`), those
        # of the directories it has below `worktrees/` (path, stamp), and its risks
        self._places: dict[
            str,
            tuple[
                tuple[_Stamp | None, ...],
                tuple[tuple[str, _Stamp | None], ...],
                tuple[GitRisk, ...],
            ],
        ] = {}
        self._lock = threading.Lock()

    def risks_for(
        self, directory: str, *, home: str | None = None
    ) -> tuple[tuple[GitRisk, ...], bool]:
        """The risks for the repository containing `directory`.

        Returns `(risks, complete)`; `complete` is False when something could not be read
        or parsed (the caller treats that as a risk). `home` expands `~/` in include paths
        (default: `$HOME` of this process).
        """
        inspection = self.inspect(directory, home=home)
        return inspection.risks, inspection.complete

    def inspect(
        self, directory: str, *, home: str | None = None, known: dict[str, GitDirs] | None = None
    ) -> GitInspection:
        """What the repository containing `directory` lets git run, and the credentials its
        configuration holds (see `risks_for`). `known`: the line's `gitdirs_of` memo."""
        found, complete = gitdirs_of(directory, known)
        walk = _Walk(home=home)
        walk.complete = complete
        for gitdir, top in found:
            self._inspect(gitdir, top, walk, 0)
        return GitInspection(
            risks=tuple(walk.risks),
            credentials=tuple(walk.credentials),
            complete=walk.complete,
            worktrees=tuple(dict.fromkeys(walk.worktrees)),
            remotes=tuple(dict.fromkeys(walk.remotes)),
            lazy_fetch=tuple(walk.lazy),
            aliases=tuple(walk.aliases),
            grep_wideners=tuple(walk.grep_wideners),
            print_wideners=tuple(walk.print_wideners),
            submodules=walk.submodules,
            push_sources=tuple(walk.push_sources),
            push_targets=tuple(dict.fromkeys(walk.push_targets)),
            remote_names=self._named_by_all(found),
            fetch_sources=tuple(walk.fetch_sources),
            network_settings=tuple(walk.network_settings),
        )

    def global_config(
        self, home: str, env: Mapping[str, str], *, workspace: tuple[str, ...] = ()
    ) -> GitInspection:
        """The configuration git reads besides the repository's: the global
        (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`, `$GIT_CONFIG_GLOBAL`) and the system
        one (`/etc/gitconfig`, `$GIT_CONFIG_SYSTEM`), includes followed. Its credentials
        show in `git remote -v` (a global `url."https://x-access-token:T@github.com/"
        .insteadOf`, review AB2); its remotes and `insteadOf` bases are where `git fetch`
        may go (review AD7). Its risks are the user's own settings, and not reported,
        except where the repository chooses what they run or read (review DD5, DE7): a
        file of it that lies in `workspace` (an `XDG_CONFIG_HOME` or `GIT_CONFIG_GLOBAL`
        there) or is named relatively, and a setting whose file or program is named
        relatively, which git looks up in the work tree (GitHub's recommended
        `blame.ignoreRevsFile = .git-blame-ignore-revs`, shipped as a link to a secret)."""
        walk = _Walk(home=home)
        for path in _global_files(home, env):
            if path.startswith("/"):
                self._collect(path, walk, probe=True)
            else:  # (a relative XDG_CONFIG_HOME: below whatever folder git runs in)
                walk.risks.append(GitRisk(key="(the global configuration)", file=path))
        return GitInspection(
            risks=tuple(r for r in walk.risks if _chosen_by_repository(r, workspace)),
            credentials=tuple(walk.credentials),
            complete=walk.complete,
            remotes=tuple(dict.fromkeys(walk.remotes)),
            aliases=tuple(walk.aliases),
            grep_wideners=tuple(walk.grep_wideners),
            print_wideners=tuple(walk.print_wideners),
            # (a global file in the workspace is the repository's to write: GB3)
            network_settings=tuple(
                r for r in walk.network_settings if _chosen_by_repository(r, workspace)
            ),
        )

    def _named_by_all(self, found: Sequence[tuple[str, str | None]]) -> tuple[str, ...]:
        """The remote names every candidate git directory's own `config` gives, read on
        its own for each (none where there is no candidate, or one cannot be read). A
        name counts only where git certainly reads it: not from `config.worktree` (read
        only with `extensions.worktreeConfig`), an include whose condition may be false
        (review GA2) or a submodule's configuration (GB1); and git uses one candidate,
        which cannot be told here (a committed `src/` with `HEAD` and `config` is one git
        rejects: GB2), however the walk reached them (GC1)."""
        sets: list[set[str]] = []
        for gitdir, _top in found:
            common = commondir(gitdir)
            result = None if common is None else self._cached(
                "config", common + "/config", _read_config, missing=_MISSING
            )
            if result is None or result is _MISSING:
                return ()
            sets.append(set(result.remote_names))
        return tuple(sorted(set.intersection(*sets))) if sets else ()

    def special_refs(
        self, directory: str, known: dict[str, GitDirs] | None = None
    ) -> tuple[set[str], bool]:
        """Which of the refs that change what git's printers print the repositories of
        `directory` hold, loose or in `packed-refs`: `replace` (any `refs/replace/` ref:
        git reads the object it names in place of another, so `git show HEAD:README.md`
        printed a swapped-in `.env`: review EZ3) and `stash` (`refs/stash`, whose commits
        hold the untracked files `git stash -u` put aside: review EZ8). Returns
        `(kinds, complete)`; not complete where a common directory, a listing or
        `packed-refs` could not be read."""
        found, complete = gitdirs_of(directory, known)
        kinds: set[str] = set()
        for gitdir, _top in found:
            common = commondir(gitdir)
            if common is None:
                complete = False
                continue
            replace = common + "/refs/replace"
            try:
                if os.access(replace, os.F_OK) and os.listdir(replace):
                    kinds.add("replace")
            except (OSError, ValueError):
                complete = False
            if lexists(common + "/refs/stash") or lexists(common + "/logs/refs/stash"):
                kinds.add("stash")
            packed = common + "/packed-refs"
            held = self._cached("packed", packed, _packed_kinds, missing=_NO_KINDS, probe=True)
            if held is None:
                complete = False
            else:
                kinds.update(held)
        return kinds, complete

    def global_excludes(self, directory: str, home: str, env: Mapping[str, str]) -> str | None:
        """The ignore file git reads besides the repository's own for `directory` when no
        configuration sets `core.excludesFile`: `$XDG_CONFIG_HOME/git/ignore`, else
        `$HOME/.config/git/ignore` (where Claude Code lists `.claude/settings.local.json`).
        `env` is the command's environment, the process's when empty. None where some
        configuration sets the key, names an include that was not followed, or could not
        be read, or git would have no such file: the caller then reads none, which only
        errs toward "not ignored" (a question)."""
        walk = _Walk(home=home)
        for path in _global_files(home, env):
            self._collect(path, walk, probe=True)
        given, read = environment_config(env)
        repository = self.inspect(directory, home=home)
        if not (read and walk.complete and repository.complete):
            return None
        keys = [risk.key.lower() for risk in (*walk.risks, *repository.risks)]
        keys.extend(var for var, _value in given)
        if any(key == "core.excludesfile" or key.startswith("include") for key in keys):
            return None
        source = env or os.environ
        xdg = source.get("XDG_CONFIG_HOME", "")
        if xdg:  # (git takes an empty value as unset)
            return f"{xdg}/git/ignore" if xdg.startswith("/") else None
        home_dir = source.get("HOME", "")
        return f"{home_dir}/.config/git/ignore" if home_dir.startswith("/") else None

    def aliases_of(
        self, verb: str, directory: str, home: str, env: Mapping[str, str]
    ) -> tuple[tuple[str, ...], bool]:
        """What `git VERB` may run instead, by an alias without `!` in the repository's or
        git's global configuration (review BR2: `alias.sync = push` made `git sync --force`
        a force push the `git push` rules never saw): every value any file gives the name,
        not only the one git would take, and whether everything could be read. The
        configuration git's environment gives (`GIT_CONFIG_COUNT`, `GIT_CONFIG_PARAMETERS`)
        counts too (review BT7)."""
        wanted = verb.lower()  # git reads variable names without regard to case
        repository = self.inspect(directory, home=home)
        common = self.global_config(home, env)
        given, read = _environment_aliases(env)
        values = tuple(
            value
            for name, value in (*common.aliases, *repository.aliases, *given)
            if name == wanted and not value.lstrip().startswith("!")
        )
        return values, repository.complete and common.complete and read

    def included_files(
        self,
        directory: str,
        home: str,
        env: Mapping[str, str],
        known: dict[str, GitDirs] | None = None,
    ) -> frozenset[str]:
        """The files the global configuration and that of the repository of `directory`
        include (`include.path = ~/.work-creds`): git reads them as configuration, so
        whatever their names, reading one may print a credential (review AE2). `known`:
        the line's `gitdirs_of` memo."""
        named: list[str] = []
        for path in _global_files(home, env):
            self._included_by(path, home, named, probe=True)
        found, _complete = gitdirs_of(directory, known)
        for gitdir, _top in found:
            for config in _repository_configs(gitdir, commondir(gitdir) or gitdir):
                self._included_by(config, home, named, probe=config.endswith(".worktree"))
        return frozenset(os.path.normpath(path) for path in named)

    def _included_by(self, config: str, home: str, named: list[str], *, probe: bool) -> None:
        """Adds the files `config` includes, and those they include, to `named` (what
        `_collect` follows, without the rest of what it gathers: this runs for every
        command that names a path). `probe`: `config` is often absent."""
        seen = {config}
        pending = [config]
        while pending and len(seen) <= _MAX_INCLUDES:
            path = pending.pop()
            result = self._cached(
                "config", path, _read_config, missing=_MISSING, probe=probe and path == config
            )
            if result is None:
                continue
            for _var, raw, target in result.includes:
                if target is None:
                    target = _include_target(raw, os.path.dirname(path), home)
                if target is not None and target not in seen:
                    seen.add(target)
                    pending.append(target)
                    named.append(target)

    def tracked_links(
        self, directory: str, known: dict[str, GitDirs] | None = None
    ) -> tuple[list[str], bool]:
        """The symbolic links the index of each repository git may use for `directory`
        records (absolute paths in its working tree), and whether every index was read.
        `known`: the line's `gitdirs_of` memo."""
        found, complete = gitdirs_of(directory, known)
        links: list[str] = []
        for gitdir, top in found:
            if top is None:
                continue  # a bare repository checks nothing out
            size = self.object_id_size(gitdir)
            names = None
            if size is not None:
                read = functools.partial(_read_symlinks, hash_size=size)
                names = self._cached(f"links{size}", gitdir + "/index", read, missing=_NONE)
            if names is None:
                complete = False
                continue
            links.extend(f"{top}/{name}" for name in names)
        return links, complete

    def object_id_size(self, gitdir: str) -> int | None:
        """`object_id_size(gitdir)`, its config read once per version (review EG2)."""
        common = commondir(gitdir)
        if common is None:
            return None
        result = self._cached("config", common + "/config", _read_config, missing=_MISSING)
        return None if result is None else _id_size(result)

    def credentials_in(self, path: str) -> tuple[GitRisk, ...] | None:
        """The credentials a git config file itself holds (its includes not followed): for
        a command that prints the file (`cat .git/config`). None: not a readable config."""
        result = self._cached("config", path, _read_config, missing=_MISSING)
        return None if result is None else result.credentials

    def tracked(
        self, directory: str, select: Callable[[str], _T | None], select_key: Hashable
    ) -> tuple[list[TrackedSelection[_T]], bool]:
        """The tracked files `select` picks in each repository git may use for
        `directory` (those with a working tree).

        `select` gets a tracked file's absolute path and returns what to keep (None: not
        this one); results are cached per index file version and `select_key`, so a large
        index is matched once. Returns `(selections, complete)`; `complete` is False when
        an index could not be read or parsed.
        """
        found, complete = find_gitdirs(directory)
        selections: list[TrackedSelection[_T]] = []
        for gitdir, top in found:
            if top is None:
                continue  # a bare repository has no working tree to print from
            index = gitdir + "/index"
            try:
                st = os.stat(index)
            except FileNotFoundError:
                continue  # nothing staged yet
            except (OSError, ValueError):
                complete = False
                continue
            size = self.object_id_size(gitdir)
            if size is None:
                complete = False
                continue
            stamp = _file_stamp(st)
            key = (index, select_key, size)
            with self._lock:
                cached = self._tracked.get(key)
            picked: tuple[tuple[TrackedFile, _T], ...]
            if cached is not None and cached[0] == stamp:
                picked = cached[1]  # type: ignore[assignment]
            else:
                read_at = time.time_ns()
                entries = _read_tracked(index, st, hash_size=size)
                if entries is None:
                    complete = False
                    continue
                root = top.rstrip("/")
                chosen: list[tuple[TrackedFile, _T]] = []
                for entry in entries:
                    kept = select(f"{root}/{entry.path}")
                    if kept is not None:
                        chosen.append((entry, kept))
                picked = tuple(chosen)
                if _settled(st, read_at):
                    with self._lock:
                        self._tracked[key] = (stamp, picked)
            selections.append(
                TrackedSelection(top=top, index_mtime_ns=st.st_mtime_ns, files=picked)
            )
        return selections, complete

    # -- one repository -------------------------------------------------------------

    def _inspect(
        self, gitdir: str, top: str | None, walk: _Walk, depth: int, foreign: bool = False
    ) -> None:
        """`foreign`: `gitdir` is a submodule of another worktree of the superproject,
        whose `core.worktree` no command run here uses (review GB6)."""
        try:
            st = os.stat(gitdir)
        except OSError:
            walk.complete = False
            return
        ident = (st.st_dev, st.st_ino, foreign)
        if ident in walk.repos:
            return
        walk.repos.add(ident)
        if len(walk.repos) > _MAX_REPOS or depth > _MAX_DEPTH:
            walk.complete = False
            return
        common = commondir(gitdir)
        if common is None:
            walk.complete = False
            return
        self._state_files(gitdir, st, common, walk)
        worktree: str | None = None
        for config in _repository_configs(gitdir, common):
            found = self._collect(config, walk)
            if found is not None:
                worktree = found
        self._hooks(common + "/hooks", walk)
        if top is not None:  # `.gitmodules` is read for its URLs only: git takes no keys from it
            listed = self._cached("config", top + "/.gitmodules", _read_config, missing=_MISSING)
            if listed is None:
                walk.complete = False
            else:
                walk.remotes.extend(listed.remotes)
        # submodules: the populated gitlinks of the index, then everything in modules/
        tops = [t for t in (top,) if t is not None]
        if worktree:
            tops.append(os.path.join(gitdir, worktree))
            # `~` is not expanded there by git; kept as written, it is never in a workspace
            where = worktree if worktree.startswith("~") else os.path.join(gitdir, worktree)
            if not foreign:
                walk.worktrees.append((os.path.normpath(where), _submodule_gitdir(common)))
        size = self.object_id_size(gitdir)
        links = None
        if size is not None:
            read = functools.partial(_read_gitlinks, hash_size=size)
            links = self._cached(f"index{size}", gitdir + "/index", read, missing=_NONE)
        if links is None:
            walk.complete = False
        elif links:
            walk.submodules = True  # (review EZ2)
            for base in tops:
                for link in links:
                    self._submodule(base + "/" + link, walk, depth, foreign)
        self._all_modules(gitdir, st, common, walk, depth, foreign)

    def _all_modules(
        self, gitdir: str, st: os.stat_result, common: str, walk: _Walk, depth: int,
        foreign: bool,
    ) -> None:  # fmt: skip
        """Every submodule git directory, populated or not: git keeps those of a linked
        worktree in its own `modules/` (`worktrees/NAME/modules/`), those of the main
        worktree in the common directory's. The latter's are walked for their risks, but
        their `core.worktree` (the main checkout's `sub/`) is no command's here: foreign
        (review GB6)."""
        linked = not _same_directory(st, common)
        places = [(common + "/modules", foreign or linked)]
        if linked:
            places.append((gitdir + "/modules", foreign))
        for modules, elsewhere in places:
            if os.access(modules, os.F_OK):
                walk.submodules = True
                self._scan_modules(modules, walk, depth, elsewhere)

    def _submodule(self, path: str, walk: _Walk, depth: int, foreign: bool = False) -> None:
        dot_git = path + "/.git"
        try:
            mode = os.stat(dot_git).st_mode
        except FileNotFoundError:
            return  # not populated: git does not go there
        except (OSError, ValueError):
            walk.complete = False
            return
        if stat.S_ISDIR(mode):
            self._inspect(dot_git, path, walk, depth + 1, foreign)
        elif stat.S_ISREG(mode):
            gitdir = _gitfile_target(dot_git)
            if gitdir is None:
                walk.complete = False
            else:
                self._inspect(gitdir, path, walk, depth + 1, foreign)

    def _scan_modules(self, modules: str, walk: _Walk, depth: int, foreign: bool) -> None:
        stack = [modules]
        while stack:
            directory = stack.pop()
            walk.scanned += 1
            if walk.scanned > _MAX_SCAN:
                walk.complete = False
                return
            try:
                with os.scandir(directory) as entries:
                    subdirs = [e.path for e in entries if e.is_dir()]
            except OSError:
                walk.complete = False
                continue
            for sub in subdirs:
                if os.path.lexists(sub + "/HEAD") or os.path.lexists(sub + "/config"):
                    self._inspect(sub, None, walk, depth + 1, foreign)
                else:
                    stack.append(sub)  # a submodule name with a slash

    # -- files git reads by itself (review BK1) -------------------------------------------

    def _state_files(self, gitdir: str, st: os.stat_result, common: str, walk: _Walk) -> None:
        """Risks of the files git reads in `gitdir` (and its common directory) on its own:
        links among them, and object stores or a common directory they name outside the
        repository."""
        if common != gitdir:
            self._check_commondir(gitdir, common, walk)
            try:
                self._place(common, os.stat(common), walk)
            except (OSError, ValueError):
                walk.complete = False
        self._place(gitdir, st, walk)

    def _place(self, place: str, st: os.stat_result, walk: _Walk) -> None:
        """The risks of one git directory `place` (`st`: its `stat`, taken first).

        Kept while `place`, `place/info`, `place/objects/info` and `place/worktrees` keep
        their stamps (`mtime_ns`, `ctime_ns`, inode, device), and so do the directories
        listed below `worktrees/`: making, removing or replacing an entry changes its
        directory's. A state directory of `place` or an alternates file is read every time
        (the stamps do not cover them); a plain repository costs three `lstat` calls.
        """
        try:
            stamps = (
                _dir_stamp(st),
                _lstamp(place + "/info"),
                _lstamp(place + "/objects/info"),
                _lstamp(place + "/worktrees"),
            )
            with self._lock:
                cached = self._places.get(place)
            if (
                cached is not None
                and cached[0] == stamps
                and all(_lstamp(path) == stamp for path, stamp in cached[1])
            ):
                walk.risks.extend(cached[2])
                return
        except (OSError, ValueError):
            walk.complete = False
            return
        found = _Walk(home=None)
        watched: list[tuple[str, _Stamp | None]] = []
        keep = self._scan_place(place, found, watched)
        walk.risks.extend(found.risks)
        walk.complete = walk.complete and found.complete
        settled = time.time_ns() - _SETTLE_NS
        every = (*stamps, *(stamp for _, stamp in watched))
        if keep and found.complete and all(s is None or s[1] <= settled for s in every):
            with self._lock:
                self._places[place] = (stamps, tuple(watched), tuple(found.risks))

    def _scan_place(
        self, place: str, walk: _Walk, watched: list[tuple[str, _Stamp | None]]
    ) -> bool:
        """Adds the risks of the git directory `place`; whether the stamps of `_place`,
        with those added to `watched`, cover everything read (no state directory, no
        alternates file)."""
        listing = _listing(place, walk)
        if listing is None:
            return False
        keep = True
        for name in listing.links:
            if name not in _LINKS_ALLOWED:
                self._link(place, name, walk)
        for name in _STATE_DIRS:
            if name in listing.dirs:
                keep = keep and name == "info"
                below = _listing(f"{place}/{name}", walk)
                for entry in () if below is None else below.links:
                    self._link(place, f"{name}/{entry}", walk)
        if "worktrees" in listing.dirs:
            keep = self._scan_worktrees(place, walk, watched) and keep
        if "objects" not in listing.dirs:
            return keep
        info = place + "/objects/info"
        try:
            if stat.S_ISLNK(os.lstat(info).st_mode):
                self._link(place, "objects/info", walk)
                return keep
        except FileNotFoundError:
            return keep
        except (OSError, ValueError):
            walk.complete = False
            return False
        listing = _listing(info, walk)
        if listing is None:
            return False
        for name in listing.links:
            self._link(place, "objects/info/" + name, walk)
        for name in ("alternates", "http-alternates"):
            if name in listing.files:
                keep = False
                self._alternates(place, name, walk)
        return keep

    def _scan_worktrees(
        self, place: str, walk: _Walk, watched: list[tuple[str, _Stamp | None]]
    ) -> bool:
        """Links in the git directories of the linked worktrees, `place/worktrees/NAME/`
        (review BM8): git reads their files on its own (`git worktree list` prints
        `locked`, `prunable` and `gitdir`; `git branch` and `git log --all` read `HEAD`,
        `index` and the state of a rebase or a bisect) and follows links there. git makes
        none there but a `HEAD` naming a ref (`core.preferSymlinkRefs`), which it reads
        without following. Each directory listed is added to `watched` with its stamp,
        taken before the listing; False: not all could be listed."""
        listing = _listing(place + "/worktrees", walk)
        if listing is None:
            return False
        for name in listing.links:
            self._link(place, "worktrees/" + name, walk)
        if len(listing.dirs) > _MAX_WORKTREES:
            walk.complete = False
            return False
        complete = True
        for name in sorted(listing.dirs):
            below = [f"worktrees/{name}"]
            while below:
                relative = below.pop()
                path = f"{place}/{relative}"
                try:
                    watched.append((path, _lstamp(path)))
                except (OSError, ValueError):
                    walk.complete = complete = False
                    continue
                entries = _listing(path, walk)
                if entries is None:
                    complete = False
                    continue
                top = relative.count("/") == 1  # `worktrees/NAME` itself
                for entry in entries.links:
                    if not (top and entry == "HEAD" and _ref_link(f"{path}/HEAD")):
                        self._link(place, f"{relative}/{entry}", walk)
                if top:
                    below.extend(f"{relative}/{d}" for d in _STATE_DIRS if d in entries.dirs)
        return complete

    @staticmethod
    def _link(place: str, name: str, walk: _Walk) -> None:
        path = f"{place}/{name}"
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        walk.risks.append(GitRisk(key=name, file=path, kind="link", detail=target))

    def _alternates(self, place: str, name: str, walk: _Walk) -> None:
        """Whether the object stores `objects/info/NAME` of the git directory `place` names
        lie inside it; git reads each store's own `info/alternates` in turn (5 deep)."""
        inside = os.path.realpath(place).rstrip("/") + "/"
        root = os.path.normpath(place).rstrip("/") + "/"
        pending = [(os.path.normpath(place + "/objects"), name, 0)]
        seen: set[str] = set()
        while pending:
            objects, file, depth = pending.pop()
            path = f"{objects}/info/{file}"
            if path in seen:
                continue
            seen.add(path)
            entries = self._cached("alternates", path, _read_alternates, missing=_NONE)
            if entries is None:
                walk.complete = False
                continue
            key = os.path.relpath(path, place)
            for entry in entries:
                store = entry if entry.startswith("/") else f"{objects}/{entry}"
                # git takes the physical path, or the lexical one of a path that does not
                # resolve: both must stay inside; a quoted (C-style) path, a URL or a NUL
                # is not resolved here
                lexical = os.path.normpath(store)
                if (
                    entry.startswith('"')
                    or "://" in entry
                    or "\0" in entry
                    or not (lexical + "/").startswith(root)
                    or not (os.path.realpath(store).rstrip("/") + "/").startswith(inside)
                ):
                    walk.risks.append(GitRisk(key=key, file=path, kind="outside", detail=entry))
                    continue
                if file != "alternates" or depth >= _MAX_ALTERNATES:
                    continue  # git follows `alternates` only, and not deeper than that
                nested = lexical + "/info/alternates"
                if os.path.islink(nested):
                    self._link(place, os.path.relpath(nested, place), walk)
                elif os.path.lexists(nested):
                    pending.append((lexical, "alternates", depth + 1))

    def _check_commondir(self, gitdir: str, common: str, walk: _Walk) -> None:
        """A `commondir` is the repository of a linked worktree, whose git directory is
        `COMMON/worktrees/NAME`; one naming anything else makes git read (and print) the
        objects, refs and config of another repository (review BK1)."""
        if os.path.basename(os.path.dirname(gitdir.rstrip("/"))) == "worktrees":
            try:
                if os.path.samestat(os.stat(common), os.stat(gitdir + "/../..")):
                    return
            except (OSError, ValueError):
                pass
        walk.risks.append(
            GitRisk(key="commondir", file=gitdir + "/commondir", kind="outside", detail=common)
        )

    def _hooks(self, hooks: str, walk: _Walk) -> None:
        names = self._cached("hooks", hooks, _hook_candidates, missing=_NONE, probe=True)
        if names is None:
            walk.complete = False
            return
        for name in names:
            if name in _HOOKS_OF_CHANGES:
                continue
            path = f"{hooks}/{name}"
            if os.access(path, os.X_OK) and not os.path.isdir(path):
                walk.risks.append(GitRisk(key=f"hooks/{name}", file=path, kind="hook"))

    # -- config files -----------------------------------------------------------------

    def _collect(self, config: str, walk: _Walk, *, probe: bool = False) -> str | None:
        """Adds the risks of `config` and its includes; returns the last `core.worktree`.

        `probe`: `config` is often absent (a global configuration file): see `_cached`."""
        worktree: str | None = None
        seen: set[str] = set()
        pending = [config]
        while pending:
            path = pending.pop()
            if path in seen:
                continue  # an include cycle: git stops with an error
            seen.add(path)
            if len(seen) > _MAX_INCLUDES:
                walk.complete = False
                return worktree
            result = self._cached(
                "config",
                path,
                _read_config,
                missing=_MISSING,
                probe=path.endswith(".worktree") or (probe and path == config),
            )
            if result is None:
                walk.complete = False
                continue
            if result is _MISSING:
                if path != config:  # an include git may find where this module did not
                    walk.risks.append(GitRisk(key="include.path", file=f"{path}, unreadable"))
                continue
            walk.risks.extend(result.risks)
            walk.credentials.extend(result.credentials)
            walk.remotes.extend(result.remotes)
            walk.lazy.extend(result.lazy)
            walk.aliases.extend(result.aliases)
            walk.grep_wideners.extend(result.grep_wideners)
            walk.print_wideners.extend(result.print_wideners)
            walk.push_sources.extend(result.push_sources)
            walk.push_targets.extend(result.push_targets)
            walk.fetch_sources.extend(result.fetch_sources)
            walk.network_settings.extend(result.network_settings)
            if result.worktree is not None:
                worktree = result.worktree
            for var, raw, target in reversed(result.includes):
                if target is None:
                    target = _include_target(raw, os.path.dirname(path), walk.home)
                if target is None:
                    walk.risks.append(GitRisk(key=f"{var} = {raw}", file=path))
                    walk.grep_wideners.append(var)  # (it may set one: review EG3)
                    walk.print_wideners.append(var)  # (review EZ2)
                    walk.push_sources.append(var)  # (review FO6)
                    walk.fetch_sources.append(var)  # (review FQ7)
                    walk.network_settings.append(GitRisk(key=var, file=path))  # (GA1)
                else:
                    pending.append(target)
        return worktree

    def _cached(
        self,
        kind: str,
        path: str,
        load: Callable[[str, os.stat_result], _T | None],
        *,
        missing: _T,
        probe: bool = False,
    ) -> _T | None:
        """`load(path)` cached by the file's stamp; `missing` when it does not exist. Not
        kept when the file had changed less than 3 s before it was read (`_SETTLED_NS`).

        `probe`: the file is usually absent, and `access` is cheaper than a failing `stat`.
        """
        if probe and not os.access(path, os.F_OK):
            return missing  # (an unreadable git directory fails its `config` anyway)
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return missing
        except (OSError, ValueError):
            return None
        stamp = _file_stamp(st)
        key = (kind, path)
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]  # type: ignore[return-value]
        read_at = time.time_ns()
        result = load(path, st)
        if result is not None and _settled(st, read_at):
            with self._lock:
                self._cache[key] = (stamp, result)
        return result


def _environment_aliases(env: Mapping[str, str]) -> tuple[list[tuple[str, str]], bool]:
    """The aliases of git's environment configuration (`environment_config`), names
    lowercased as `_analyse` keeps them, and whether it could be read."""
    if "GIT_CONFIG_COUNT" not in env and "GIT_CONFIG_PARAMETERS" not in env:
        return [], True  # (the usual case: nothing to parse)
    entries, complete = environment_config(env)
    aliases = [
        (var[len("alias.") :], "" if value is None else value)
        for var, value in entries
        if var.startswith("alias.")
    ]
    return aliases, complete


def _repository_configs(gitdir: str, common: str) -> tuple[str, ...]:
    """The configuration files git reads in a git directory: the common directory's
    `config`, the per-worktree `config.worktree`, and a linked worktree's own `config`."""
    configs = (common + "/config", gitdir + "/config.worktree")
    return configs if common == gitdir else (*configs, gitdir + "/config")


# settings whose file git only reads, and may print (not a program it runs): said so in
# the reasons (review EK8: "so git may run a program" for `blame.ignoreRevsFile`)
PRINTED_FILE_KEYS: Final = frozenset(
    {"blame.ignorerevsfile", "core.attributesfile", "core.excludesfile", "mailmap.file",
     "mailmap.blob", "fsck.skiplist", "fetch.fsck.skiplist", "receive.fsck.skiplist",
     "gpg.ssh.allowedsignersfile", "gpg.ssh.revocationfile"}
)  # fmt: skip
# settings whose value names a file git reads (a relative one: in the work tree)
_FILE_KEYS: Final = frozenset(
    {"blame.ignorerevsfile", "core.hookspath", "core.attributesfile", "core.excludesfile",
     "mailmap.file", "fsck.skiplist", "fetch.fsck.skiplist", "receive.fsck.skiplist",
     "gpg.ssh.allowedsignersfile", "commit.template"}
)  # fmt: skip


# values of git settings that name the user's places, not the work tree's (review DG8:
# a global `core.editor = $HOME/bin/ed` made every git command ask)
_USER_PLACES = ("$HOME/", "${HOME}/", "$XDG_", "${XDG_")


def _chosen_by_repository(risk: GitRisk, workspace: tuple[str, ...]) -> bool:
    """Whether a risk of git's global configuration is the repository's to choose: its
    file is relative or in the workspace, or its value names a file by a relative path
    (a program by one with a `/`), which git looks up in the work tree."""
    file = risk.file.partition(", ")[0]
    if not file.startswith("/") or _names_work_tree(risk):
        return True
    if risk.key.lower().startswith(_SIGNATURE_KEYS):
        return True  # (verifies the signatures the repository's commits carry)
    # last, as it costs system calls: the file itself in the workspace, as written or
    # where its links lead (a `~/.gitconfig` linked into the workspace: review DG4)
    for form in dict.fromkeys((file, _real_path(file))):
        if any(form == r or form.startswith(r.rstrip("/") + "/") for r in workspace if r):
            return True
    return False


def _names_work_tree(risk: GitRisk) -> bool:
    """Whether a setting's value names a file by a relative path, or a program by one
    with a `/`, which git looks up in the work tree."""
    return _value_names_work_tree(risk.kind, risk.key, risk.detail)


# (memoised: the global configuration's settings are judged again on every git command,
# and splitting a value as the shell does is the costly part)
@functools.lru_cache(maxsize=512)
def _value_names_work_tree(kind: str, key: str, detail: str) -> bool:
    """`_names_work_tree` of a setting's kind, key and value."""
    value = detail.strip().strip("\"'").strip()
    if kind != "config" or not value or value.startswith("!"):
        return False
    if key.lower() in _FILE_KEYS:
        return not value.startswith(("/", "~", *_USER_PLACES))
    # a program, or a script handed to one (`sh .githooks/fsm`, `/bin/sh .githooks/fsm`:
    # reviews DK5, DL6), by a relative path; an option's value is its text after `=`
    # (`--lesskey-file=~/.lesskey` is home's: review DL5)
    return any(
        "/" in path and not path.startswith(("/", "~", *_USER_PLACES))
        for path in _command_paths(detail)
    )


def _command_paths(command: str) -> list[str]:
    """The words of a shell command a setting holds that may name a file: split as the
    shell splits it (`'/Applications/Visual Studio Code.app/…/code' --wait`: review DM2),
    its operators apart (`/bin/true;tools/ed`: review DO12); a program and its operands
    whole (`sh d=/x` runs the work tree's `d=/x`: DM3), an option's or an assignment's
    value after `=` (`--lesskey-file=~/.lesskey`: DL5), and the default of a `${X:-d}`."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        words = command.replace(";", " ; ").replace("|", " | ").replace("&", " & ").split()
    found: list[str] = []
    program = False
    after_option = False  # (`ssh -o UserKnownHostsFile=~/.ssh/kh`: the option's value)
    for word in words:
        if word and all(c in _OPERATOR_CHARS for c in word):
            program = after_option = False
            continue
        found.extend(_DEFAULT_VALUE.findall(word))
        if word.startswith("-") or after_option or (not program and _ASSIGNMENT.match(word)):
            found.append(word.partition("=")[2] if "=" in word else word)
        else:
            found.append(word)
            program = True
        after_option = word.startswith("-") and "=" not in word
    return found


_OPERATOR_CHARS: Final = frozenset(";&|()<>")
_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_DEFAULT_VALUE: Final = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=+?]([^}]*)\}")


def _real_path(path: str) -> str:
    # (`paths.real`: the kernel's answer in three system calls where the file exists, as
    # a global configuration file with a risk does; `os.path.realpath` `lstat`s each step)
    try:
        return real(path)
    except (Unresolvable, OSError, ValueError):
        return path


def _global_files(home: str, env: Mapping[str, str]) -> tuple[str, ...]:
    """The global and system configuration files git reads, in its order."""
    xdg = env.get("XDG_CONFIG_HOME") or f"{home}/.config"
    files = [env.get("GIT_CONFIG_GLOBAL") or f"{home}/.gitconfig", f"{xdg}/git/config"]
    files.append(env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig")
    return tuple(dict.fromkeys(files))


_NONE: tuple[str, ...] = ()
_MISSING = _FileResult(risks=(), includes=(), worktree=None)


_MAX_POINTER = 65536  # a `commondir` or `gitdir:` file: one path


def _read_alternates(path: str, st: os.stat_result) -> tuple[str, ...] | None:
    """The object stores an `objects/info/alternates` file names, as git splits it (one a
    line, empty lines and `#` comments skipped, nothing stripped); None if it is no regular
    file, unreadable or too large."""
    if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_POINTER:
        return None
    data = read_regular(path, _MAX_POINTER + 1)
    if data is None or len(data) > _MAX_POINTER:
        return None
    text = data.decode("utf-8", "surrogateescape")
    return tuple(line for line in text.split("\n") if line and not line.startswith("#"))


def read_regular(path: str, limit: int) -> bytes | None:
    """At most `limit` bytes of the regular file at `path` (links followed); None if it is
    anything else or cannot be read.

    WHY: the file is opened non-blocking and checked *after* the open, so a FIFO or device
    planted in a repository (`.git/HEAD`, `commondir`) can never block an evaluation: a
    hook that hangs is one the agent gives up on and lets the call through (review N2).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        size = 0
        while size < limit:
            chunk = os.read(fd, limit - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_config(path: str, st: os.stat_result) -> _FileResult | None:
    if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_CONFIG:
        return None  # a FIFO would block, a device lie; a huge file is not read whole
    data = read_regular(path, _MAX_CONFIG + 1)
    if data is None or len(data) > _MAX_CONFIG:
        return None
    entries, ok = _parse(data.decode("latin-1"))
    if not ok:
        return None
    return _analyse(entries, path)


# a URL with a user part: `https://x-access-token:TOKEN@host/…`, `https://TOKEN@host/…`
# (ssh's `ssh://git@host` names a user, not a secret)
_URL_USERINFO = re.compile(
    r"(?:https?|ftps?)://[^/@\s]+@|[a-z][a-z0-9+.-]*://[^/@\s:]*:[^/@\s]*@", re.IGNORECASE
)
# names of keys that hold secrets: `http.extraHeader` (actions/checkout's token),
# `sendemail.smtpPass`, `github.token`, `hub.oauthtoken`
_CREDENTIAL_NAME = re.compile(r"extraheader|pass|token|secret", re.I)
REWRITE_MARK = "\x00*"  # ends a remote that is the start of a rewritten URL
_HELPER_SECRET = re.compile(r"pass|token|secret", re.IGNORECASE)
# values of switches (`http.sslCertPasswordProtected = true`), not secrets
_SWITCH_VALUES = frozenset({"", "true", "false", "yes", "no", "on", "off", "1", "0"})


def _credential(var: str, value: str | None) -> bool:
    """Whether the entry `var = value` holds a credential: by its name, or a URL with a
    user part in its value or in its subsection (`url."https://u:p@h/".insteadOf`)."""
    section, sub, name = _split_var(var)
    if section == "credential" and value is not None and _HELPER_SECRET.search(value):
        return True  # `helper = "!f() { echo password=…; }; f"`
    if (
        value is not None
        and _CREDENTIAL_NAME.search(name)
        and value.strip().lower() not in _SWITCH_VALUES
    ):
        return True
    return bool(
        (value is not None and _URL_USERINFO.search(value))
        or (sub is not None and _URL_USERINFO.search(sub))
    )


def _analyse(entries: list[tuple[str, str | None]], path: str) -> _FileResult:
    risks: list[GitRisk] = []
    credentials: list[GitRisk] = []
    remotes: list[str] = []
    lazy: list[GitRisk] = []
    aliases: list[tuple[str, str]] = []
    includes: list[tuple[str, str, str | None]] = []
    worktree: str | None = None
    object_format: str | None = None
    wideners: list[str] = []
    printers: list[str] = []
    pushed: list[str] = []
    targets: list[str] = []
    names: list[str] = []
    fetched: list[str] = []
    network: list[GitRisk] = []
    for var, value in entries:
        if var == "extensions.objectformat":
            object_format = "\0" if value is None else value
        elif var in _GREP_WIDENERS:
            wideners.append(var)
        if _print_widener(var, value):
            printers.append(var)
        section, sub, name = _split_var(var)
        if section == "remote" and sub is not None and _push_source(name, value):
            pushed.append(var)
        elif _push_recursion(var, value):
            pushed.append(var)  # (the submodules' own remotes and refs: not inspected)
        if section == "remote" and sub is not None and value is not None:
            if name == "url":
                names.append(sub)
            elif name == "fetch" and _odd_fetch(value):
                fetched.append(var)
        if (section == "http" and name not in _HARMLESS_HTTP) or (
            section == "remote" and name in ("proxy", "proxyauthmethod")
        ):
            network.append(GitRisk(key=var, file=path))
        if section == "remotes":
            # a remote group (`remotes.origin = fixtures/up.git gh`), which `git fetch
            # origin` and `git pull origin` take before `remote.origin`: its members are
            # read as remotes or paths (review FY2)
            fetched.append(var)
        if value is not None and (
            (var == "remote.pushdefault")
            or (section == "branch" and sub is not None and name in ("pushremote", "remote"))
        ):
            targets.append(value)
        if section == "alias":
            # git compares everything after `alias.` without regard to case, so
            # `[alias "foo"] bar = push` is the alias of `git foo.bar` (review BT4)
            aliases.append((var[len("alias.") :].lower(), "" if value is None else value))
        if name == "path" and (
            (section == "include" and sub is None) or (section == "includeif" and sub is not None)
        ):
            if value is None:
                risks.append(GitRisk(key=f"{var} (no value)", file=path))
            elif value.startswith("~"):
                includes.append((var, value, None))  # expanded per call (the home may differ)
            else:
                target = _include_target(value, os.path.dirname(path), None)
                includes.append((var, value, target))
            continue
        if var == "core.worktree":
            worktree = value
        if _dangerous(var, value):
            risks.append(GitRisk(key=var, file=path, detail=value or ""))
        if _credential(var, value):
            credentials.append(GitRisk(key=var, file=path))
        if _lazy_fetch(section, sub, name, value):
            lazy.append(GitRisk(key=var, file=path))
        if value is not None and (
            (section == "remote" and name in ("url", "pushurl"))
            or (section == "submodule" and name == "url")
        ):
            remotes.append(value)
        elif section == "url" and sub is not None:
            # `url.BASE.insteadOf`: git glues BASE to the rest of a matching URL, so BASE
            # is a prefix (`local` + `host:x` is `localhost:x`, review AD1): marked `*`
            remotes.append(sub + REWRITE_MARK)
    return _FileResult(
        risks=tuple(risks),
        includes=tuple(includes),
        worktree=worktree,
        credentials=tuple(credentials),
        remotes=tuple(remotes),
        lazy=tuple(lazy),
        aliases=tuple(aliases),
        object_format=object_format,
        grep_wideners=tuple(wideners),
        print_wideners=tuple(printers),
        push_sources=tuple(pushed),
        push_targets=tuple(targets),
        remote_names=tuple(names),
        fetch_sources=tuple(fetched),
        network_settings=tuple(network),
    )


def _push_source(name: str, value: str | None) -> bool:
    """Whether `remote.X.NAME = VALUE` chooses what `git push` sends without the line
    naming it: a `push` refspec, or a true `mirror` (review FO6)."""
    if name == "push":
        return True
    return name == "mirror" and (value is None or value.strip().lower() not in _FALSE)


# `http.*` settings that change nothing of where git connects or what it trusts: the
# usual fixes for large pushes and old servers (review GB4), and `extraHeader`, which
# GitHub's checkout action writes (its token: the credential checks judge it; the header
# goes to the host the URL names, no other)
_HARMLESS_HTTP: Final = frozenset(
    {"postbuffer", "version", "lowspeedlimit", "lowspeedtime", "maxrequests", "minsessions",
     "extraheader"}
)  # fmt: skip


def _push_recursion(var: str, value: str | None) -> bool:
    """Whether `var = value` makes `git push` push more than the branches it is given: the
    submodules too (`on-demand`, `only`; `submodule.recurse` true means on-demand), whose
    own remotes and refs no push check reads, or the tags that point into what it pushes
    (`push.followTags`: a tag may be the stash's, review FW4)."""
    if var == "push.recursesubmodules":
        return value is not None and value.strip().lower() in ("on-demand", "only")
    true = value is None or value.strip().lower() not in _FALSE
    return var in ("submodule.recurse", "push.followtags") and true


# a fetch refspec's source that copies branches or tags only (a glob, a negative one too)
_ORDINARY_FETCH: Final = re.compile(r"\^?\+?refs/(?:heads|tags)/[^:]*(?::refs/[^:]*)?")


def _odd_fetch(value: str) -> bool:
    """Whether a `remote.X.fetch` refspec copies a ref that is no branch or tag of the
    remote (`+refs/stash:refs/remotes/up/main`, with `url = .git`: review FQ7)."""
    return not _ORDINARY_FETCH.fullmatch(value.strip())


def _print_widener(var: str, value: str | None) -> bool:
    """`diff.submodule = diff`: `git diff`, `git show`, `git log -p`, `git status -v` print
    the changes of the files of every submodule, whose tracked `.env` the superproject's
    index does not list (review EZ2; git takes `log` and `short` only besides, anything
    else counts); a true `stash.showIncludeUntracked`: `git stash show -p` prints the
    untracked files a stash holds (review EZ8)."""
    if var == "diff.submodule":
        return value is None or value.strip().lower() not in ("log", "short")
    if var == "stash.showincludeuntracked":
        return value is None or value.strip().lower() not in _FALSE
    return False


# settings that make plain `git grep` read more than the index's tracked files (git 2.39):
# `submodule.recurse` (whatever its value: the submodules' files), `grep.fallbackToNoIndex`
# (where git does not accept the repository the engine finds: the whole tree)
_GREP_WIDENERS: Final = frozenset({"submodule.recurse", "grep.fallbacktonoindex"})

_FALSE = frozenset({"false", "no", "off", "0", ""})


def _lazy_fetch(section: str, sub: str | None, name: str, value: str | None) -> bool:
    """Whether a key makes the repository a partial clone: `extensions.partialClone` (any
    value) or a true `remote.X.promisor` (a key without a value is true for git)."""
    if section == "extensions" and sub is None and name == "partialclone":
        return True
    promisor = section == "remote" and sub is not None and name == "promisor"
    return promisor and (value is None or value.strip().lower() not in _FALSE)


def _include_target(value: str, base: str, home: str | None) -> str | None:
    """The file git includes for `value` (git's `interpolate_path`), None if unknown."""
    if not value or value.startswith("%(prefix)/"):
        return None  # git's runtime prefix is not known here
    if value.startswith("~"):
        user, slash, rest = value[1:].partition("/")
        if user:
            try:
                directory = pwd.getpwnam(user).pw_dir
            except (KeyError, ValueError):
                return None
        else:
            directory = home if home is not None else os.environ.get("HOME", "")
            if not directory:
                return None
        value = directory.rstrip("/") + "/" + rest if slash else directory
    if not value.startswith("/"):
        value = base + "/" + value
    return value  # not normalised: the kernel resolves `..` after symlinks


# Hooks that only commands changing the repository run (commit, merge, rebase, push,
# checkout, am, gc --auto, receive): git's inspection commands never do, and the policy
# judges those commands on their own. `post-index-change` (which `git status` runs when it
# refreshes the index), `reference-transaction` and any unknown name remain risks. Without
# this, every repository with the pre-commit framework installed asked for `git status`.
_HOOKS_OF_CHANGES: Final = frozenset(
    {
        "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit",
        "pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase",
        "post-checkout", "post-merge", "pre-push", "pre-receive", "update", "proc-receive",
        "post-receive", "post-update", "push-to-checkout", "pre-auto-gc", "post-rewrite",
        "sendemail-validate",
    }
)  # fmt: skip


def _hook_candidates(path: str, st: os.stat_result) -> tuple[str, ...] | None:
    """Names in the hooks directory that git could run (everything but `*.sample`)."""
    if not stat.S_ISDIR(st.st_mode):
        return ()
    try:
        with os.scandir(path) as entries:
            return tuple(sorted(e.name for e in entries if not e.name.endswith(".sample")))
    except OSError:
        return None


def _index_bytes(path: str, st: os.stat_result) -> bytes | None:
    """The bytes of the index file `path`; None if not a regular file, too large or
    unreadable."""
    if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_INDEX:
        return None
    return read_regular(path, _MAX_INDEX + 1)


def _read_gitlinks(
    path: str, st: os.stat_result, *, hash_size: int
) -> tuple[str, ...] | None:
    """The gitlink (submodule) paths of an index; None if it cannot be parsed."""
    data = _index_bytes(path, st)
    if data is None:
        return None
    if _GITLINK_MODE not in data and b"link" not in data:
        return ()  # no entry has the gitlink mode, and no split index
    entries = _index_entries(data, os.path.dirname(path), 0, hash_size)
    if entries is None:
        return None
    return tuple(sorted({e.path for e in entries if e.mode & 0o170000 == 0o160000}))


def _read_symlinks(
    path: str, st: os.stat_result, *, hash_size: int
) -> tuple[str, ...] | None:
    """The symbolic link paths of an index (mode 120000); None if it cannot be parsed."""
    data = _index_bytes(path, st)
    if data is None:
        return None
    entries = _index_entries(data, os.path.dirname(path), 0, hash_size)
    if entries is None:
        return None
    return tuple(sorted({e.path for e in entries if e.mode & 0o170000 == 0o120000}))


class TrackedFile(NamedTuple):
    """An index entry: a path relative to the working tree, with the stat data git keeps
    to tell whether the file in the working tree changed since it was staged."""

    path: str
    mode: int
    mtime_ns: int
    size: int
    # what else git compares before it takes the file for the staged one without reading
    # it (review EW3: an edit with its size and mtime put back is still seen by git)
    ctime_ns: int
    ino: int  # (the low 32 bits, as the index keeps them)


def _read_tracked(
    path: str, st: os.stat_result, *, hash_size: int | None = None
) -> tuple[TrackedFile, ...] | None:
    """Every entry of the index file `path` (None: unreadable, too large or unparsable,
    or the repository's object format is not known); `hash_size` by default from the
    configuration of the repository whose git directory holds it."""
    if hash_size is None:
        hash_size = object_id_size(os.path.dirname(path))
        if hash_size is None:
            return None
    data = _index_bytes(path, st)
    if data is None:
        return None
    entries = _index_entries(data, os.path.dirname(path), 0, hash_size)
    return None if entries is None else tuple(entries)


def object_id_size(gitdir: str) -> int | None:
    """The size of the object ids of the repository of `gitdir`: 32 where its common
    directory's `config` sets `extensions.objectFormat = sha256`, 20 where it sets `sha1`
    or nothing; None where that cannot be told (an unreadable config, another value:
    git refuses the repository). (Uncached: see `GitConfigs.object_id_size`.)"""
    common = commondir(gitdir)
    if common is None:
        return None
    path = common + "/config"
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return 20
    except (OSError, ValueError):
        return None
    result = _read_config(path, st)
    return None if result is None else _id_size(result)


def _id_size(result: _FileResult) -> int | None:
    return {None: 20, "sha1": 20, "sha256": 32}.get(result.object_format)


def _index_entries(
    data: bytes, gitdir: str, depth: int, hash_size: int
) -> list[TrackedFile] | None:
    """The entries of an index (versions 2 to 4, split indexes followed), read as git
    2.39's `read-cache.c` reads them, with object ids of `hash_size` bytes (20: SHA-1, 32:
    SHA-256). None wherever git may read it otherwise (review EG1): an entry's name is
    as long as its flags say (up to the NUL only where they say 0xFFF) and must end with
    a NUL, with no NUL inside and NUL padding after; the entries and extensions must
    fill the file up to its checksum (right, or zeros), and the extensions git uses to
    read it with threads (`EOIE`, `IEOT`) must agree with the entries as read in turn."""
    limit = len(data) - hash_size
    if limit < 12 or data[:4] != b"DIRC":
        return None
    version, count = struct.unpack_from(">II", data, 4)
    if version not in (2, 3, 4):
        return None
    trailer = data[limit:]
    algorithm = "sha1" if hash_size == 20 else "sha256"
    if any(trailer) and trailer != hashlib.new(algorithm, data[:limit]).digest():
        return None
    entries: list[TrackedFile] = []
    offsets: list[int] = []  # where each entry starts
    fresh: list[bool] = []  # whether its name owes nothing to the entry before (v4)
    flags_at = 40 + hash_size
    pos = 12
    previous = b""
    try:
        for number in range(count):
            if pos + flags_at + 2 > limit:
                return None
            offsets.append(pos)
            changed_s, changed_ns, seconds, nanoseconds = struct.unpack_from(">IIII", data, pos)
            (ino,) = struct.unpack_from(">I", data, pos + 20)
            (mode,) = struct.unpack_from(">I", data, pos + 24)
            (size,) = struct.unpack_from(">I", data, pos + 36)
            (flags,) = struct.unpack_from(">H", data, pos + flags_at)
            start = pos + flags_at + 2
            if flags & 0x4000:  # extended: intent-to-add, skip-worktree, nothing else
                (extended,) = struct.unpack_from(">H", data, start)
                if extended & ~0x6000:
                    return None
                start += 2
            length = flags & 0xFFF
            copy = 0
            if version == 4:
                strip, start = _varint(data, start)
                if number > 0:  # (git ignores the first entry's)
                    if strip > len(previous):
                        return None
                    copy = len(previous) - strip
                if length == 0xFFF:
                    nul = data.find(b"\0", start, limit)
                    if nul < 0:
                        return None
                    length = nul - start + copy
                if length < copy:
                    return None
                end = start + length - copy
                following = end + 1
            else:
                if length == 0xFFF:
                    nul = data.find(b"\0", start, limit)
                    if nul < 0:
                        return None
                    length = nul - start
                end = start + length
                following = pos + ((start - pos + length + 8) & ~7)
            if following > limit or data[end] != 0 or any(data[end:following]):
                return None
            tail = data[start:end]
            if b"\0" in tail:
                return None
            name = previous[:copy] + tail
            if not name:
                return None  # a split index's entry that takes its shared entry's name
            fresh.append(copy == 0)
            previous = name
            pos = following
            entries.append(
                TrackedFile(
                    name.decode("utf-8", "surrogateescape"),
                    mode,
                    seconds * 1_000_000_000 + nanoseconds,
                    size,
                    changed_s * 1_000_000_000 + changed_ns,
                    ino,
                )
            )
        # extensions, up to the checksum: a split index keeps most entries in
        # `sharedindex.<hash>`
        entries_end = pos
        table: bytes | None = None
        last = b""
        while pos < limit:
            if pos + 8 > limit:
                return None
            signature = data[pos : pos + 4]
            (size,) = struct.unpack_from(">I", data, pos + 4)
            body = data[pos + 8 : pos + 8 + size]
            if pos + 8 + size > limit:
                return None
            if signature not in _INDEX_EXTENSIONS and not 0x41 <= signature[0] <= 0x5A:
                return None  # git stops: an extension it must understand and does not
            if signature == b"link":
                if depth > 0:
                    return None
                shared = _shared_index(gitdir, body[:hash_size])
                if shared is None:
                    return None
                more = _index_entries(shared, gitdir, depth + 1, hash_size)
                if more is None:
                    return None
                entries.extend(more)  # (entries the split index replaces stay listed)
            elif signature == b"IEOT":
                table = body
            last = signature
            pos += 8 + size
        # git reads the entries with threads from the blocks `IEOT` lists where the
        # `EOIE` at the end says where they end: both must agree with the reading above
        eoie = limit - 12 - hash_size
        if eoie >= 12 and data[eoie : eoie + 4] == b"EOIE":
            (size,) = struct.unpack_from(">I", data, eoie + 4)
            (offset,) = struct.unpack_from(">I", data, eoie + 8)
            if last != b"EOIE" or size != 4 + hash_size or offset != entries_end:
                return None
            if table is not None and not _blocks_agree(table, offsets, fresh):
                return None
    except (ValueError, IndexError, struct.error):
        return None
    return entries


# the index extensions git 2.39 knows; another whose name starts with a capital it skips
_INDEX_EXTENSIONS: Final = frozenset(
    {b"TREE", b"REUC", b"link", b"UNTR", b"FSMN", b"EOIE", b"IEOT", b"sdir"}
)


def _blocks_agree(table: bytes, offsets: list[int], fresh: list[bool]) -> bool:
    """Whether an `IEOT` extension's blocks (offset, count) cover the entries at
    `offsets` in turn, each block starting at an entry whose name owes nothing to the
    one before (a thread reads its block without it)."""
    if len(table) < 4 or (len(table) - 4) % 8 or int.from_bytes(table[:4], "big") != 1:
        return False
    number = 0
    for at in range(4, len(table), 8):
        offset, count = struct.unpack_from(">II", table, at)
        if number >= len(offsets) or offsets[number] != offset or not fresh[number]:
            return False
        number += count
    return number == len(offsets)


def _shared_index(gitdir: str, digest: bytes) -> bytes | None:
    hexdigest = digest.hex()
    if hexdigest == "0" * len(hexdigest):
        return b"DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + bytes(len(digest))  # none
    return read_regular(f"{gitdir}/sharedindex.{hexdigest}", _MAX_INDEX + 1)


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    c = data[pos]
    pos += 1
    value = c & 127
    while c & 128:
        value += 1
        c = data[pos]
        pos += 1
        value = (value << 7) + (c & 127)
    return value, pos


# -- discovery ----------------------------------------------------------------------


_HEAD_CACHE: dict[str, tuple[_FileStamp, bool]] = {}


def _valid_head(path: str) -> bool | None:
    """git's `validate_headref`: True valid, False invalid, None absent."""
    # `access` first: most folders a discovery walks up through hold no HEAD, and a failing
    # `lstat` costs a Python exception (a third of a bare `git status`'s walk up)
    if not lexists(path):
        return None
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    stamp = _file_stamp(st)
    cached = _HEAD_CACHE.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    read_at = time.time_ns()
    valid = _check_head(path, st)
    if _settled(st, read_at):
        if len(_HEAD_CACHE) > 4096:
            _HEAD_CACHE.clear()
        _HEAD_CACHE[path] = (stamp, valid)
    return valid


def _check_head(path: str, st: os.stat_result) -> bool:
    if stat.S_ISLNK(st.st_mode):
        try:
            return os.readlink(path).startswith("refs/")
        except OSError:
            return False
    data = read_regular(path, 255)
    if data is None:
        return False
    if data.startswith(b"ref:") and data[4:].lstrip(b" \t\n\r").startswith(b"refs/"):
        return True
    # a detached HEAD: a SHA-1 or SHA-256 object name (git checks only the hex prefix)
    return len(data) >= 40 and all(ch in _HEX for ch in data[:40])


def _ref_link(path: str) -> bool:
    """Whether the symbolic link `path` names a ref (`refs/heads/main`), which git reads
    as a symbolic ref without following it."""
    try:
        target = os.readlink(path)
    except OSError:
        return False
    return (
        _REF_LINK.fullmatch(target) is not None
        and ".." not in target
        and not any(part.endswith((".", ".lock")) for part in target.split("/"))
    )


def _gitdir_state(directory: str) -> int:
    """0: not a git directory; 1: maybe (git may accept it); 2: git accepts it."""
    head = _valid_head(directory + "/HEAD")
    if head is None:
        return 0
    if not head:
        return 1
    common = commondir(directory)
    if common is None:
        return 1
    if os.access(common + "/objects", os.X_OK) and os.access(common + "/refs", os.X_OK):
        return 2
    return 1


def _same_directory(st: os.stat_result, other: str) -> bool:
    """Whether `other` is the directory `st` describes (True where it cannot be told:
    the caller then judges as for a main worktree, the stricter case)."""
    try:
        there = os.stat(other)
    except (OSError, ValueError):
        return True
    return (there.st_dev, there.st_ino) == (st.st_dev, st.st_ino)


_SUBMODULE_GITDIR: Final = re.compile(r"/\.git/(?:worktrees/[^/]+/)?modules/")


def _submodule_gitdir(common: str) -> bool:
    """Whether `common` is a submodule's git directory, whose `core.worktree` git set to
    its checkout: `modules/NAME` of its superproject's `.git`, or of a linked worktree's
    `.git/worktrees/W/` (review GB6)."""
    return _SUBMODULE_GITDIR.search(common) is not None


def commondir(gitdir: str) -> str | None:
    """The common directory of a git directory (`commondir` file), None if unreadable."""
    path = gitdir + "/commondir"
    if not os.access(path, os.F_OK):
        return gitdir
    data = read_regular(path, _MAX_POINTER)
    if data is None:
        return None
    text = data.decode("utf-8", "surrogateescape").rstrip("\r\n")
    if not text or "\n" in text:
        return None
    return text if text.startswith("/") else gitdir + "/" + text


_MAX_PACKED_REFS: Final = 64_000_000  # bytes of `packed-refs` read (larger: not known)
_NO_KINDS: frozenset[str] = frozenset()


def _packed_kinds(path: str, st: os.stat_result) -> frozenset[str] | None:
    """Which of `replace` and `stash` (`special_refs`) a `packed-refs` file holds; None
    where it is no regular file, too large or unreadable."""
    if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_PACKED_REFS:
        return None
    data = read_regular(path, _MAX_PACKED_REFS + 1)
    if data is None or len(data) > _MAX_PACKED_REFS:
        return None
    kinds = {"replace"} if b" refs/replace/" in data else set()
    if b" refs/stash\n" in data or data.endswith(b" refs/stash"):
        kinds.add("stash")
    return frozenset(kinds)


# what `find_gitdirs` answers: the git directories, each with its working tree, and
# whether the walk was complete
GitDirs = tuple[list[tuple[str, str | None]], bool]


def gitdirs_of(directory: str, known: dict[str, GitDirs] | None) -> GitDirs:
    """`find_gitdirs(directory)`, asked once per line where the line's memo `known` is
    given: a write line asks it of the workspace for the configuration's includes and
    again for the index's links (two walks up to `/`, a `stat` per level each)."""
    if known is None:
        return find_gitdirs(directory)
    found = known.get(directory)
    if found is None:
        found = known[directory] = find_gitdirs(directory)
    return found


def find_gitdirs(directory: str) -> tuple[list[tuple[str, str | None]], bool]:
    """The git directories git may use for `directory`, each with its working tree.

    Walks up like git's discovery: at each level `DIR/.git` (a directory or a `gitdir:`
    file), then DIR itself as a bare git directory. A candidate git may reject (a `.git`
    without a valid HEAD, say) is kept and the walk goes on, so both are inspected.
    Returns `(candidates, complete)`.
    """
    current = directory
    if not current.startswith("/") or "/." in current or "//" in current:
        current = os.path.abspath(current)
    current = current.rstrip("/")  # `/` becomes "" and `/.git` is then "" + "/.git"
    found: list[tuple[str, str | None]] = []
    for _ in range(256):
        dot_git = current + "/.git"
        mode = 0
        # `access` first: on the hot path most levels have no `.git`, and a failing `stat`
        # costs a Python exception
        try:
            if os.access(dot_git, os.F_OK):
                mode = os.stat(dot_git).st_mode
        except (OSError, ValueError):  # ValueError: a NUL in the path
            mode = 0
        if stat.S_ISDIR(mode):
            state = _gitdir_state(dot_git)
            if state:
                found.append((dot_git, current or "/"))
            if state == 2:
                return found, True
        elif stat.S_ISREG(mode):
            target = _gitfile_target(dot_git)
            if target is None or _gitdir_state(target) != 2:
                return found, False  # git stops here with an error; we cannot tell
            found.append((target, current or "/"))
            return found, True
        # DIR itself as a (bare) git directory: an embedded bare repository
        state = _gitdir_state(current or "/")
        if state:
            found.append((current or "/", None))
        if state == 2:
            return found, True
        if not current:
            return found, True
        current = current.rpartition("/")[0]
    return found, False


def bare_levels(directory: str) -> list[str]:
    """The directories git's discovery from `directory` may take as a bare git directory
    before it reaches a `.git` it accepts: `directory` and each folder above it, up to
    (not including) the first holding a valid `.git` directory or `gitdir:` file.

    A line that writes `config`, `HEAD`, `objects/` … into one of them makes it a git
    directory (or changes one) that a later `git status` there reads (review BV1); at a
    repository's top, `.git` is found first and the list is empty. Where the walk cannot
    tell (a `.git` file git would reject), the rest of the way up is listed.
    """
    current = os.path.abspath(directory).rstrip("/")
    levels: list[str] = []
    for _ in range(256):
        dot_git = current + "/.git"
        try:
            mode = os.stat(dot_git).st_mode if os.access(dot_git, os.F_OK) else 0
        except (OSError, ValueError):
            mode = 0
        if stat.S_ISDIR(mode) and _gitdir_state(dot_git) == 2:
            return levels
        if stat.S_ISREG(mode):
            target = _gitfile_target(dot_git)
            if target is not None and _gitdir_state(target) == 2:
                return levels
        levels.append(current or "/")
        if not current:
            return levels
        current = current.rpartition("/")[0]
    return levels


# the entries of a git directory whose writing changes what git runs or reads there:
# its configuration, the `HEAD` that makes a folder one, its hooks and its info files
_GITDIR_FILES: Final = frozenset({"config", "config.worktree", "HEAD", "commondir"})
_GITDIR_FOLDERS: Final = frozenset({"hooks", "info"})


def git_directory_of(path: str) -> str | None:
    """The git directory outside any `.git` that writing `path` changes (review BV1): its
    `config`, `HEAD`, `commondir`, `config.worktree`, a file under `hooks/`, `info/` or
    `objects/info/` of a folder git takes for a git directory (`fixture.git/config`, a
    bare repository the line or a checkout made). None for any other path; paths under a
    `.git` are left to the rules that protect `.git` itself. Costs no file-system call
    unless the name is one of those."""
    parts = path.split("/")
    if ".git" in parts:
        return None
    candidates: list[str] = []
    if parts[-1] in _GITDIR_FILES:
        candidates.append("/".join(parts[:-1]))
    for index in range(1, len(parts) - 1):
        if parts[index] in _GITDIR_FOLDERS or parts[index : index + 2] == ["objects", "info"]:
            candidates.append("/".join(parts[:index]))
    for candidate in candidates:
        if candidate and _gitdir_state(candidate):
            return candidate
    return None


def is_git_directory(path: str) -> bool:
    """Whether git may take `path`, outside any `.git`, for a git directory (a bare
    repository: a valid `HEAD`, `objects/`, `refs/`)."""
    return ".git" not in path.split("/") and _gitdir_state(path) != 0


def find_config(directory: str) -> str | None:
    """The config file of the repository git uses for `directory`, if any."""
    found, _ = find_gitdirs(directory)
    for gitdir, _top in reversed(found):
        common = commondir(gitdir)
        return os.path.normpath((common or gitdir) + "/config")
    return None


def gitfile_target(path: str) -> str | None:
    """The git directory a `.git` file names, None if invalid (`_gitfile_target`)."""
    return _gitfile_target(path)


def _gitfile_target(path: str) -> str | None:
    """The git directory a `.git` file names (`gitdir: …`), None if invalid."""
    data = read_regular(path, _MAX_POINTER)
    if data is None:
        return None
    text = data.decode("utf-8", "surrogateescape").rstrip("\r\n")
    if not text.startswith("gitdir: ") or "\n" in text or "\0" in text:
        return None
    target = text[len("gitdir: ") :]
    if not target:
        return None
    return target if target.startswith("/") else os.path.dirname(path) + "/" + target
