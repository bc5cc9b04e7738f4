"""Engine stage: learned "always allow" approvals; imports only the stdlib and tomlkit.

An approval is a command prefix (`npm run build`) a human agreed to allow. It ranks as
an allow rule of that prefix: the engine lets it turn an *unlocked ask* decided by a rule
no more specific than the prefix into allow, and nothing else. A deny, a protected path,
an expansion disqualifier, a poisoned environment, a parse problem or a locked ask are
floors an approval never lifts.

Approvals live in memory for the session, and optionally in a TOML file (edited with
tomlkit so the user's comments and ordering survive):

```toml
# approvals learned by policylang
allow = [
  "npm run build",
  "make test",
  "make $",
]
```

A rule ending in a `$` of its own (`make $`) is exact: it approves the line of those
words and no longer one (`make`, not `make deploy`). It is offered where the line is
shorter than the arity prefix a prefix rule needs (bare `make`, `npm run`, `ip a`), which
a prefix rule would widen to every verb.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import shlex
import stat
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

# tomlkit is imported where a file is read or written: a process without an approvals file
# (most hook calls, which are one process each) never pays for it
if TYPE_CHECKING:
    import tomlkit

_log = logging.getLogger(__name__)

# Names that are never approvable on their own: the word after them decides everything.
_MIN_WORDS = 1

# The last word of an exact rule's words (`make $` is `("make", EXACT_END)`): no word of a
# command can hold a NUL, so it never stands for one, and a prefix never matches it.
EXACT_END = "\0"


class ApprovalError(ValueError):
    """An approval rule that cannot be stored (empty, or not a plain word prefix)."""


def rule_words(rule: str) -> tuple[str, ...]:
    """The words of an approval rule, split like the shell would (quotes honoured).

    >>> rule_words("npm run 'build all'")
    ('npm', 'run', 'build all')
    """
    if not isinstance(rule, str):  # shlex would fail inside, on `.read`
        raise TypeError(f"an approval rule is a str such as 'npm run build', not {rule!r}")
    if "\0" in rule:
        raise ApprovalError("an approval rule cannot hold a NUL character")
    try:
        words = tuple(shlex.split(rule, comments=False, posix=True))
    except ValueError as error:
        raise ApprovalError(f"cannot split approval rule `{rule}`: {error}") from None
    if len(words) < _MIN_WORDS:
        raise ApprovalError("an approval rule needs at least one word")
    if len(words) > 1 and words[-1] == "$" and _unquoted_end(rule, words):
        return (*words[:-1], EXACT_END)
    return words


def _unquoted_end(rule: str, words: tuple[str, ...]) -> bool:
    """Whether the rule's last word is a `$` of its own, unquoted (`make $`, not `make
    '$'`, `make \\$` or `make \\ $`): the text without its last character splits into
    the words before it."""
    text = rule.rstrip()
    if not text.endswith("$"):
        return False
    try:
        return tuple(shlex.split(text[:-1], comments=False, posix=True)) == words[:-1]
    except ValueError:
        return False


def is_exact(words: Sequence[str]) -> bool:
    """Whether an approval's words are an exact rule's (`make $`)."""
    return bool(words) and words[-1] == EXACT_END


def covered_words(words: Sequence[str]) -> int:
    """How many of a command's words an approval covers as its prefix: the rule's words,
    or, for an exact rule, the program's name alone, so that the words after it are
    checked as those after any approved prefix are (paths, inline code, unknown words)."""
    return 1 if is_exact(words) else len(words)


def format_rule(words: Sequence[str]) -> str:
    """The approval rule text for a word prefix.

    >>> format_rule(("git", "commit", "-m"))
    'git commit -m'
    >>> format_rule(("make", EXACT_END))
    'make $'
    """
    if is_exact(words):
        return f"{shlex.join(words[:-1])} $"
    return shlex.join(words)


class Approvals:
    """Session and persisted approvals; implements the tool's `ApprovalSink`.

    Thread-safe. `add(rule, persist=True)` writes the TOML file immediately (and creates
    it if needed); without a file, a persistent approval is kept for the session and a
    warning is logged.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        # `~` expanded here: a path from a JSON config or an environment variable reaches
        # us unexpanded, and `<cwd>/~/.config/…` put the file in the workspace (review L5)
        self._path = None if path is None else Path(path).expanduser().absolute()
        self._lock = threading.Lock()
        self._session: set[tuple[str, ...]] = set()
        self._persisted: set[tuple[str, ...]] = set()
        self._by_first: dict[str, list[tuple[str, ...]]] = {}
        # bumped on every change, so a cached decision knows the approvals it saw
        self.generation = 0
        self._signature: tuple[int, int, int, int, int] | None = None  # of the file last read
        if self._path is not None:
            self._signature = _signature(self._path)
            if self._signature is not None:
                self._read_file(self._path)

    @property
    def path(self) -> Path | None:
        return self._path

    def refresh(self) -> None:
        """Read the file again if it changed since it was last read (another process added
        or revoked an approval): a long-lived server kept allowing what the user had
        revoked on disk until it restarted (review AX12). One `stat` when unchanged."""
        if self._path is None:
            return
        signature = _signature(self._path)
        if signature == self._signature:
            return
        with self._lock:
            self._signature = signature
            self.generation += 1
            self._persisted.clear()
            self._by_first = {}
            for words in self._session:
                self._by_first.setdefault(words[0], []).append(words)
            if signature is not None:
                self._read_file(self._path)

    def _read_file(self, path: Path) -> None:
        for rule in _read_rules(path):
            try:
                words = rule_words(rule)
            except ApprovalError as error:  # one bad entry costs only itself
                _log.warning("approvals file %s: entry %r ignored: %s", path, rule, error)
                continue
            self._insert(words, persisted=True)

    def add(self, rule: str, *, persist: bool) -> None:
        """Approve `rule` (a command prefix) for this session, and on disk if `persist`."""
        words = rule_words(rule)
        # written first: a file that cannot be written must leave nothing granted beyond
        # this one call, which is what the tool then reports (review M11); and outside the
        # in-memory lock, which every evaluation takes, so that waiting for another
        # process's file lock stalls no evaluation (review AP9)
        if persist and self._path is not None:
            _append_rule(self._path, format_rule(words))
        with self._lock:
            self.generation += 1
            self._insert(words, persisted=persist and self._path is not None)
        if persist and self._path is None:
            _log.warning("no approvals file configured; `%s` is approved for this session", rule)

    def remove(self, rule: str) -> bool:
        """Forget `rule` in memory and on disk; whether it was there."""
        words = rule_words(rule)
        with self._lock:
            self.generation += 1
            found = words in self._session or words in self._persisted
            self._session.discard(words)
            self._persisted.discard(words)
            bucket = self._by_first.get(words[0], [])
            if words in bucket:
                bucket.remove(words)
            if self._path is not None and self._path.exists():
                found = _remove_rule(self._path, words) or found
        return found

    def rules(self) -> tuple[str, ...]:
        with self._lock:
            every = sorted(self._session | self._persisted)
        return tuple(format_rule(words) for words in every)

    def match(self, words: Sequence[str | None]) -> tuple[str, ...] | None:
        """The longest approved prefix of `words` (literal values; None never matches),
        or the exact rule of those words (returned with its `EXACT_END`)."""
        if not words or words[0] is None:
            return None
        best: tuple[str, ...] | None = None
        with self._lock:
            candidates = tuple(self._by_first.get(words[0], ()))
        for prefix in candidates:
            size = len(prefix) - 1 if is_exact(prefix) else len(prefix)
            if size > len(words) or (is_exact(prefix) and size != len(words)):
                continue
            if all(words[i] == prefix[i] for i in range(size)) and (
                best is None or len(prefix) > len(best)
            ):
                best = prefix
        return best

    def _insert(self, words: tuple[str, ...], *, persisted: bool) -> None:
        target = self._persisted if persisted else self._session
        if words in self._session or words in self._persisted:
            target.add(words)
            return
        target.add(words)
        self._by_first.setdefault(words[0], []).append(words)


MAX_FILE_BYTES = 1 << 20  # an approvals file is a short list; a bigger one is refused


def _signature(path: Path) -> tuple[int, int, int, int, int] | None:
    """What tells a changed file: device, inode (a file replaced by rename), mtime, size,
    and ctime (a rewrite of the same size within one mtime tick, or an mtime set back with
    `utime`, still changes it: review BA11); None when there is none (or it cannot be
    seen: then it is read as absent)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size, info.st_ctime_ns)


def _load(path: Path) -> tomlkit.TOMLDocument:
    import tomlkit

    return tomlkit.parse(read_text(path))


def read_text(path: Path) -> str:
    """The approvals file's text, read without blocking and bounded; OSError when it is
    not a regular file, too large or not UTF-8 (`policylang check` reads it the same way:
    a FIFO had hung it and /dev/zero exhausted its memory, review GY5)."""
    # O_NONBLOCK: opening a FIFO for reading would wait for a writer forever
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"not a regular file: {path}")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise OSError(f"larger than {MAX_FILE_BYTES} bytes: {path}")
    try:
        # `utf-8-sig`: an editor's byte-order mark had made the whole file unreadable, so
        # every approval in it was dropped with only a warning (review AL8)
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        # its errno tells it apart (`policylang check` reports the file as unreadable, not
        # as one it cannot open: review GY3); compiled code sets no `__cause__`
        raise OSError(errno.EILSEQ, "not UTF-8", str(path)) from error


def _read_rules(path: Path) -> Iterable[str]:
    import tomlkit

    try:
        document = _load(path)
    except (OSError, tomlkit.exceptions.TOMLKitError) as error:
        _log.warning("cannot read approvals file %s: %s", path, error)
        return ()
    allow = document.get("allow", [])
    if not isinstance(allow, list):
        _log.warning("approvals file %s: `allow` is not a list; ignored", path)
        return ()
    rules: list[str] = []
    for item in allow:
        if isinstance(item, str):
            rules.append(str(item))
        else:  # (fails closed, but the user is told why an approval is missing: HD6)
            _log.warning(
                "approvals file %s: entry %s ignored: not a string", path, _shown_entry(item)
            )
    return tuple(rules)


def _shown_entry(item: object) -> str:
    """A non-string entry of `allow` as a log line shows it (a table as TOML, cut short)."""
    unwrap = getattr(item, "unwrap", None)
    shown = repr(unwrap() if callable(unwrap) else item)
    return shown if len(shown) <= 80 else shown[:77] + "..."


_LOCK_WAIT_S = 5.0  # how long a writer waits for another process's lock


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold the approvals file's lock (a sibling `.NAME.lock`) for a read-modify-write.

    Without it, two processes that add at once each read the old list and the last write
    wins: 8 processes adding 80 approvals had left 13, all reported as saved, and an add
    racing a removal brought a revoked approval back (review AO15)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = path.parent / f".{path.name}.lock"
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        deadline = time.monotonic() + _LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:  # a stuck writer: refuse, do not hang
                    raise OSError(f"approvals file {path} is locked by another process") from None
                time.sleep(0.01)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _append_rule(path: Path, rule: str) -> None:
    real = _through_links(path)
    with _locked(real):
        _append_unlocked(real, rule)


def _through_links(path: Path) -> Path:
    """The file a symbolic link at `path` leads to, which a write changes: replacing the
    link by a regular file (a dotfile manager's, stow's or chezmoi's) had left the file it
    names, which other processes may read, with an approval revoked here (review HD5).
    Its lock is beside that file, so that a process given either name takes the same."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _append_unlocked(path: Path, rule: str) -> None:
    import tomlkit
    from tomlkit.items import Array

    if path.exists():
        document = _load(path)
    else:
        document = tomlkit.document()
        document.add(tomlkit.comment("approvals learned by policylang: command prefixes to allow"))
    allow = document.get("allow")
    if allow is None:
        allow = tomlkit.array()
        allow.multiline(True)
        document["allow"] = allow
    elif not isinstance(allow, Array):
        # replacing it would lose what the user wrote there (review AL8)
        raise ApprovalError(f"{path}: `allow` is not a list; not rewriting the file")
    words = rule_words(rule)
    if not any(_spells(item, words) for item in allow):
        allow.append(rule)
    _write(path, tomlkit.dumps(document))


def _spells(item: object, words: tuple[str, ...]) -> bool:
    """Whether a file's entry spells the rule of `words` (by its words, not its text)."""
    if not isinstance(item, str):
        return False
    try:
        return rule_words(str(item)) == words
    except ApprovalError:
        return False


def _remove_rule(path: Path, words: tuple[str, ...]) -> bool:
    real = _through_links(path)
    with _locked(real):
        return _remove_unlocked(real, words)


def _remove_unlocked(path: Path, words: tuple[str, ...]) -> bool:
    import tomlkit
    from tomlkit.items import Array

    document = _load(path)
    allow = document.get("allow")
    if not isinstance(allow, Array):
        return False
    # every spelling of the rule goes (`"npm  run build"`, `'npm run "build"'`): one left
    # behind brought the revoked approval back at the next load (review AF7)
    removed = False
    for index in reversed(range(len(allow))):
        if _spells(allow[index], words):
            del allow[index]
            removed = True
    if removed:
        _write(path, tomlkit.dumps(document))
    return removed


def _write(path: Path, text: str) -> None:
    """Replace the file atomically through a temporary file of a fresh, unguessable name.

    A fixed name (`approvals.toml.tmp`) was followed if someone had made it a symbolic
    link, overwriting the file it pointed to (review L6); two writers also raced on it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
