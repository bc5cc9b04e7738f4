"""What a repository's refs, as files on the disk, say about what git sends or prints.

Two questions, both answered from the files git itself reads (`HEAD`, loose refs under
`refs/`, `packed-refs`), never by running git, and both fail closed (anything not
positively established answers "not known", and the caller asks):

- whether a symbolic ref stands where git keeps none of its own (`HEAD` or a branch holding
  `ref: refs/stash`: `git log -p` printed the stash, review FR6), and
- whether a word given to an approved `git push` certainly names a local branch (git reads
  a name as `NAME`, `refs/NAME`, `refs/tags/NAME`, then `refs/heads/NAME`, the first that
  exists winning; a remote-tracking ref or a tag may hold the stash: reviews FQ7, FR6).
"""

from __future__ import annotations

import os
import re
import stat
from typing import Final

from policylang.engine.gitconfig import commondir, read_regular

_MAX_REF: Final = 4096  # bytes of a loose ref read (git's refs are a line)
_MAX_LOOSE: Final = 20_000  # loose refs looked at before the answer is "not known"
_MAX_PACKED: Final = 16_000_000  # bytes of `packed-refs` read for a branch's name
# a ref holding an object id (SHA-1 or SHA-256), as git writes it
_DIRECT: Final = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?\n?")
# a branch name as people write them; anything else (`..`, `@{`, `^`, `~`, a leading dot
# or dash) is not established, so it asks
_BRANCH: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._+-]*(?:/[A-Za-z0-9_][A-Za-z0-9._+-]*)*")
# pseudo-refs at the top of a git directory (`HEAD`, `ORIG_HEAD`, `FETCH_HEAD` …)
_PSEUDO: Final = re.compile(r"[A-Z_]+")


def odd_symref(gitdir: str) -> str | None:
    """The first symbolic ref of the repository of `gitdir` that git does not make itself,
    as `NAME -> TARGET`: only `HEAD` to a branch and `refs/remotes/R/HEAD` to a ref of
    `R` are git's own; any other `ref:` (or a ref that is a link) may stand in for the
    stash (review FR6). A reason where the refs could not be listed; None where there is
    none."""
    common = commondir(gitdir)
    if common is None:
        return f"the common directory of `{gitdir}` could not be read"
    # every linked worktree's own folder too: `worktrees/w/HEAD` is a revision any printer
    # takes (`git log -p worktrees/w/HEAD`: review FW1)
    linked = _linked_folders(common)
    if linked is None:
        return f"`{common}/worktrees` could not be listed"
    # and any ref but `refs/stash` that holds one of the stash's commits (`FETCH_HEAD`,
    # `refs/remotes/up/main`, `refs/prefetch/…` after a crafted fetch: review FZ4)
    stash = _stash_ids(common)
    packed = _packed_refs(common)
    if stash is None or packed is None:
        return "the stash's reflog or `packed-refs` could not be read"
    held = next((n for n, tip in sorted(packed.items()) if tip in stash and n != "refs/stash"),
                None)  # fmt: skip
    if held is not None:
        return f"{held} (holds a stash's commit)"
    for folder in dict.fromkeys((gitdir, common, *linked)):
        found = _odd_in(folder, stash)
        if found is not None:
            return found
    return None


def _linked_folders(common: str) -> list[str] | None:
    """The folders of the linked worktrees under `common/worktrees` (None: unlistable)."""
    place = common + "/worktrees"
    if os.path.islink(place):
        return None
    try:
        names = sorted(os.listdir(place)) if os.path.isdir(place) else []
    except OSError:
        return None
    return [f"{place}/{name}" for name in names[:_MAX_LOOSE]]


def _odd_in(folder: str, stash: frozenset[str]) -> str | None:
    """`odd_symref` over one git directory: its pseudo-refs and its `refs/` tree."""
    try:
        top = [n for n in os.listdir(folder) if _PSEUDO.fullmatch(n)]
    except OSError:
        return f"`{folder}` could not be listed"
    for name in top:
        found = _odd_ref(folder, name, stash)
        if found is not None:
            return found
    refs = folder + "/refs"
    if os.path.islink(refs):
        return f"`{refs}` is a link"
    if not os.path.isdir(refs):
        return None  # (a linked worktree's own directory often has none)
    try:
        return _odd_below(folder, refs, stash)
    except OSError:
        return f"`{refs}` could not be listed"


def _odd_below(folder: str, refs: str, stash: frozenset[str]) -> str | None:
    seen = 0
    for root, dirs, files in os.walk(refs, onerror=_raise):
        dirs.sort()
        for name in sorted(files):
            seen += 1
            if seen > _MAX_LOOSE:
                return f"`{refs}` holds more than {_MAX_LOOSE} loose refs"
            found = _odd_ref(folder, os.path.relpath(os.path.join(root, name), folder), stash)
            if found is not None:
                return found
        for name in dirs:
            if os.path.islink(os.path.join(root, name)):
                return f"`{os.path.join(root, name)}` is a link"
    return None


def _raise(error: OSError) -> None:
    raise error  # (os.walk skips a folder it cannot list unless told otherwise)


def _odd_ref(folder: str, name: str, stash: frozenset[str]) -> str | None:
    """`NAME -> TARGET` where the loose ref `name` is a symbolic ref git does not make
    itself, or a link; `NAME (…)` where it holds a commit of the stash (any line of
    `FETCH_HEAD`) and is not `refs/stash`; None otherwise (a missing or unreadable file is
    no ref)."""
    path = f"{folder}/{name}"
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode):
        return f"{name} -> {os.readlink(path)} (a link)"
    if not stat.S_ISREG(mode):
        return None
    data = read_regular(path, _MAX_PACKED if name == "FETCH_HEAD" else _MAX_REF)
    if data is None:
        return None
    if not data.startswith(b"ref:"):
        if name == "refs/stash" or not stash:
            return None
        ids = {line.split(b"\t")[0].split(b" ")[0].decode("ascii", "replace")
               for line in data.split(b"\n")}  # fmt: skip
        return f"{name} (holds a stash's commit)" if ids & stash else None
    target = data[4:].strip().decode("utf-8", "replace")
    if name == "HEAD" and target.startswith("refs/heads/"):
        return None
    remote = name.removesuffix("/HEAD")
    if name.startswith("refs/remotes/") and remote != name and target.startswith(remote + "/"):
        return None
    return f"{name} -> {target}"


def head_branch(gitdir: str) -> str | None:
    """The branch `HEAD` of `gitdir` names (`ref: refs/heads/B` → `B`), or None (detached,
    a link, anything else)."""
    path = gitdir + "/HEAD"
    if os.path.islink(path):
        return None
    data = read_regular(path, _MAX_REF)
    if data is None or not data.startswith(b"ref: refs/heads/"):
        return None
    branch = data[len(b"ref: refs/heads/") :].strip().decode("utf-8", "replace")
    return branch if _BRANCH.fullmatch(branch) else None


def sends_branch(gitdir: str, source: str) -> bool:
    """Whether `git push R SOURCE[:DEST]` in the repository of `gitdir` certainly sends a
    local branch, whose ref holds an object id: `HEAD` (`@`) on a branch, `refs/heads/B`,
    or a name that git's lookup finds first as `refs/heads/NAME` (no `.git/NAME`,
    `refs/NAME` or `refs/tags/NAME` before it)."""
    common = commondir(gitdir)
    if common is None or os.path.lexists(common + "/reftable"):
        return False  # (a reftable repository keeps no loose refs to read)
    if source in ("HEAD", "@"):
        branch = head_branch(gitdir)
        return branch is not None and _holds_id(common, branch)
    if source.startswith("refs/heads/"):
        branch = source[len("refs/heads/") :]
        return bool(_BRANCH.fullmatch(branch)) and _holds_id(common, branch)
    if not _BRANCH.fullmatch(source) or source.endswith(".lock"):
        return False
    packed = _packed_names(common)
    if packed is None:
        return False
    for earlier in (source, f"refs/{source}", f"refs/tags/{source}"):
        if earlier in packed or any(
            os.path.isfile(f"{folder}/{earlier}") for folder in dict.fromkeys((gitdir, common))
        ):
            return False  # (git takes this one, which is no branch)
    return _holds_id(common, source, packed)


def branch_at_stash(gitdir: str) -> str | None:
    """A local branch whose commit is one of the stash's (`refs/stash` or an entry of its
    reflog), which any push of that branch publishes: a pull from a crafted folder had
    fast-forwarded `main` to the stash (review FW2). The branch's name, a reason where the
    refs could not be read, or None."""
    common = commondir(gitdir)
    if common is None:
        return f"the common directory of `{gitdir}` could not be read"
    stash = _stash_ids(common)
    if stash is None:
        return "the stash's reflog could not be read"
    if not stash:
        return None
    packed = _packed_refs(common)
    if packed is None:
        return "`packed-refs` could not be read"
    tips = {name[len("refs/heads/") :]: tip for name, tip in packed.items()
            if name.startswith("refs/heads/")}  # fmt: skip
    heads = common + "/refs/heads"
    try:
        for root, _dirs, files in os.walk(heads, onerror=_raise):
            for name in files:
                data = read_regular(os.path.join(root, name), _MAX_REF) or b""
                branch = os.path.relpath(os.path.join(root, name), heads)
                tips[branch] = data.strip().decode("ascii", "replace")
    except OSError:
        return f"`{heads}` could not be listed"
    return next((branch for branch, tip in sorted(tips.items()) if tip in stash), None)


def _stash_ids(common: str) -> frozenset[str] | None:
    """The commits the stash holds: `refs/stash` (loose or packed) and both ids of each
    line of its reflog; None where a file could not be read."""
    ids: set[str] = set()
    packed = _packed_refs(common)
    if packed is None:
        return None
    if "refs/stash" in packed:
        ids.add(packed["refs/stash"])
    for path in (common + "/refs/stash", common + "/logs/refs/stash"):
        if not os.path.lexists(path):
            continue
        data = read_regular(path, _MAX_PACKED + 1)
        if data is None or len(data) > _MAX_PACKED:
            return None
        for line in data.split(b"\n"):
            ids.update(w.decode("ascii") for w in line.split(b" ")[:2] if _DIRECT.fullmatch(w))
    return frozenset(ids)


def _holds_id(common: str, branch: str, packed: frozenset[str] | None = None) -> bool:
    """Whether `refs/heads/BRANCH` holds an object id: its loose file does (a link or a
    `ref:` does not), or, where there is no loose file, `packed-refs` lists it."""
    if not _BRANCH.fullmatch(branch) or branch.endswith(".lock"):
        return False
    path = f"{common}/refs/heads/{branch}"
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        if packed is None:
            packed = _packed_names(common)
        return packed is not None and f"refs/heads/{branch}" in packed
    except OSError:
        return False
    if not stat.S_ISREG(mode):
        return False
    data = read_regular(path, _MAX_REF)
    return data is not None and bool(_DIRECT.fullmatch(data))


def _packed_names(common: str) -> frozenset[str] | None:
    """The ref names `packed-refs` lists (none where there is no such file); None where it
    could not be read."""
    packed = _packed_refs(common)
    return None if packed is None else frozenset(packed)


def _packed_refs(common: str) -> dict[str, str] | None:
    """The refs `packed-refs` lists, each with its id (none where there is no such file);
    None where it could not be read."""
    path = common + "/packed-refs"
    if not os.path.lexists(path):
        return {}
    data = read_regular(path, _MAX_PACKED + 1)
    if data is None or len(data) > _MAX_PACKED:
        return None
    refs: dict[str, str] = {}
    for line in data.split(b"\n"):
        if line[:1] in (b"#", b"^", b""):
            continue
        tip, _space, name = line.partition(b" ")
        refs[name.strip().decode("utf-8", "replace")] = tip.decode("ascii", "replace")
    return refs
