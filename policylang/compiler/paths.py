"""Protected-path globs: translation to regular expressions and matching; compiler stage.

Imports `decision` and `compiler.tree` types only. Globs are anchored at the home directory
(`~/…`), the root (`/…`) or the workspace (anything else) and matched against absolute,
normalised paths made relative to that anchor:

>>> glob_regex(".ssh/**").pattern
'\\\\.ssh(?:/.*)?'
>>> bool(glob_regex(".ssh/**").fullmatch(".ssh"))
True
>>> bool(glob_regex("**/.env*").fullmatch("a/b/.env.local"))
True
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from policylang.decision import Verdict
from policylang.rules.globs import LazyRegex, glob_regex

__all__ = [
    "LazyRegex",
    "glob_regex",
    "literal_prefix",
    "match_outside",
    "match_rules",
    "prefilter",
    "split_anchor",
]

if TYPE_CHECKING:
    from policylang.compiler.tables import Access, OutsideWorkspace, ProtectedMatch, ProtectedRule

HOME = "home"
ABSOLUTE = "absolute"
WORKSPACE = "workspace"


def split_anchor(glob: str) -> tuple[str, str]:
    """(anchor, rest): `~/.ssh/**` -> (home, `.ssh/**`); `/etc/x` -> (absolute, `/etc/x`)."""
    if glob == "~":
        return HOME, ""
    if glob.startswith("~/"):
        return HOME, glob[2:].lstrip("/")
    if glob.startswith("/"):
        return ABSOLUTE, glob
    return WORKSPACE, glob[2:] if glob.startswith("./") else glob


def literal_prefix(rest: str) -> str:
    """The leading components without glob characters (`.git/hooks/*` -> `.git/hooks`)."""
    fixed: list[str] = []
    for part in rest.split("/"):
        if any(c in part for c in "*?["):
            break
        fixed.append(part)
    return "/".join(fixed)


def _relative(path: str, base: str) -> str | None:
    base = base.rstrip("/") or "/"
    if path == base:
        return ""
    prefix = base if base.endswith("/") else base + "/"
    return path[len(prefix) :] if path.startswith(prefix) else None


def _anchor_dir(anchor: str, home: str, workspace: str) -> str:
    return home if anchor == HOME else workspace if anchor == WORKSPACE else "/"


def rule_matches(
    rule: ProtectedRule,
    path: str,
    *,
    home: str,
    workspace: str,
    subtree: bool,
    removal: bool = False,
) -> bool:
    """Whether `path` is covered by the rule's glob (or contains it, with `subtree`: the
    rule's literal prefix lies at or below `path`, or, unless the write is a `removal`, a
    path below it can match a `**/X/…` glob through its own name: `below_regex`)."""
    if rule.anchor == ABSOLUTE:
        return _hits(rule, path, None, "/", subtree, removal)
    base = _anchor_dir(rule.anchor, home, workspace)
    return _hits(rule, path, _relative(path, base), base, subtree, removal)


def _hits(
    rule: ProtectedRule, path: str, rel: str | None, base: str, subtree: bool, removal: bool
) -> bool:
    """`rule_matches` with `path` already made relative to the rule's anchor `base`."""
    if rule.anchor == ABSOLUTE:
        if rule.regex.fullmatch(path):
            return True
    elif rel is not None and rule.regex.fullmatch(rel):
        return True
    if not subtree:
        return False
    fixed = rule.literal_prefix if rule.anchor == ABSOLUTE else _join(base, rule.literal_prefix)
    if _relative(fixed, path) is not None:
        return True
    if removal or not rel:
        return False
    below = below_regex(rule.glob, rule.regex.flags)
    return below is not None and below.fullmatch(rel.rstrip("/")) is not None


@functools.cache
def below_regex(glob: str, flags: int) -> LazyRegex | None:
    """What a folder's path (relative to the anchor) matches when a glob that starts with
    `**/` can match a path strictly below it through the folder's own last components:
    `**/.cargo/config.toml` below `.cargo` or `sub/.cargo`, `**/.venv*/bin/**` below
    `.venv` (review BX9). None for other globs: those with a literal prefix are found by
    it, and a `**/NAME` glob (`**/CLAUDE.md`) can fall below any folder, which only the
    names actually written can tell. Globs anchored at `/` are left out (their literal
    prefix is their subtree match, as before).

    >>> below = below_regex("**/.cargo/config.toml", 0)
    >>> [bool(below.fullmatch(p)) for p in (".cargo", "a/.cargo", "a")]
    [True, True, False]
    >>> below_regex("**/CLAUDE.md", 0) is None, below_regex(".git/hooks/*", 0) is None
    (True, True)
    """
    anchor, rest = split_anchor(glob)
    if anchor == ABSOLUTE:
        return None
    parts = rest.split("/")
    lead = 0
    while lead < len(parts) and parts[lead] == "**":
        lead += 1
    if lead == 0 or lead + 1 >= len(parts):
        return None
    pieces = [glob_regex("/".join(parts[:end])).pattern for end in range(lead + 1, len(parts))]
    return LazyRegex("|".join(f"(?:{piece})" for piece in pieces), flags)


def _join(base: str, rest: str) -> str:
    if not rest:
        return base
    return base.rstrip("/") + "/" + rest


def match_rules(
    rules: Sequence[ProtectedRule],
    path: str,
    access: Access,
    *,
    home: str,
    workspace: str,
    subtree: bool = False,
    removal: bool = False,
) -> ProtectedMatch | None:
    """The strictest rule covering `path` for `access` (first written wins a tie);
    `subtree` and `removal` as in `rule_matches`.

    The rules are indexed once per rule list (`_RuleIndex`), so the cost depends on the
    path and on the rules that may match it, not on how many rules there are: a path no
    glob covers costs a lookup per component and one search of the few globs without a
    literal component, per anchor.
    """
    from policylang.compiler.tables import ProtectedMatch

    index = _index_of(rules, access)
    best: tuple[int, int] | None = None  # (-rank, order): the smallest wins
    folded = path.lower()
    for anchor, base in ((ABSOLUTE, "/"), (HOME, home), (WORKSPACE, workspace)):
        group = index.groups.get(anchor)
        if group is None:
            continue
        # (the rules that allow are few: most anchors have none, and no alternation)
        orders = group.hits(path, base, subtree, removal) if group.orders else []
        if group.folded is not None:
            lowered = base.lower()
            if len(folded) == len(path) and len(lowered) == len(base):
                orders.extend(group.folded.hits(folded, lowered, subtree, removal))
            else:
                # `İ`.lower() is two characters, which `?` and `[…]` would not match:
                # as written, with the rules' own case folding (review AP11)
                orders.extend(group.folded.hits(path, base, subtree, removal))
        for order in orders:
            key = (-rules[order].verdict.rank, order)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    rule = rules[best[1]]
    return ProtectedMatch(rule=rule, verdict=rule.verdict, ref=rule.ref, path=path)


class _AnchorGroup:
    """The rules of one anchor that cover one access, with what finds them fast.

    Most globs name a literal component (`.ssh` in `~/.ssh/**`, `.tool-versions` in
    `**/.tool-versions`, `etc` and `shadow` in `/etc/shadow`) that every path they match
    holds as a whole component: `keyed` maps one such component of each (its longest) to
    the rule, so a path tries only the rules keyed by its own components. The others
    (`**/*.pem`, `**/.env*`) are `loose`: `any_loose`, the alternation of their regexes,
    is tried first, and the rules one by one only when it matched. Keys are ASCII (in
    lower case where the group ignores case); a path that is not ASCII tries every rule,
    since case folding may make another character match one (`ſ` and `s`). `below` maps
    each literal prefix of the rules' globs, and every ancestor of one, to the rules whose
    prefix lies at or below it: the subtree matches of a path under the anchor.
    """

    __slots__ = (
        "anchor",
        "any_glob",
        "any_loose",
        "below",
        "deep",
        "fold",
        "folded",
        "joined",
        "keyed",
        "loose",
        "orders",
        "regexes",
    )  # fmt: skip

    def __init__(
        self, anchor: str, members: list[tuple[int, ProtectedRule]], *, fold: bool = False
    ) -> None:
        self.anchor = anchor
        self.fold = fold
        self.orders = tuple(order for order, _ in members)
        flags = re.IGNORECASE if fold else 0
        self.regexes = tuple(
            LazyRegex(rule.regex.pattern, rule.regex.flags | flags) if fold else rule.regex
            for _, rule in members
        )
        # the alternations, made when first needed: a path outside the anchor never needs
        # them, and a one-shot process (a hook call) may never meet a path inside it
        self.any_glob: re.Pattern[str] | None = None  # every rule (paths not ASCII)
        self.any_loose: re.Pattern[str] | None = None  # the rules without a key
        self.joined = False  # whether they were made (None: the rules cannot be joined)
        keyed: dict[str, list[int]] = {}
        loose: list[int] = []
        below: dict[str, list[int]] = {}
        for position, (order, rule) in enumerate(members):
            key = _key_component(rule.glob, fold=fold)
            if key is None:
                loose.append(position)
            else:
                keyed.setdefault(key, []).append(position)
            prefix = rule.literal_prefix.lower() if fold else rule.literal_prefix
            for ancestor in _ancestors(prefix, absolute=anchor == ABSOLUTE):
                below.setdefault(ancestor, []).append(order)
        self.keyed = {key: tuple(positions) for key, positions in keyed.items()}
        self.loose = tuple(loose)
        self.below = {key: tuple(orders) for key, orders in below.items()}
        # the `**/X/…` globs a folder named X (or matching it) holds a match below
        deep: list[tuple[int, LazyRegex]] = []
        for order, rule in members:
            found = below_regex(rule.glob, rule.regex.flags | flags)
            if found is not None:
                deep.append((order, found))
        self.deep = tuple(deep)
        self.folded: _AnchorGroup | None = None

    def hits(self, path: str, base: str, subtree: bool, removal: bool = False) -> list[int]:
        """The orders of the rules in this group that cover `path` (see `_hits`)."""
        rel = path if self.anchor == ABSOLUTE else _relative(path, base)
        found: list[int] = []
        if rel is not None:
            if not self.joined:
                self.any_glob = _alternation(self.regexes)
                self.any_loose = _alternation([self.regexes[i] for i in self.loose])
                self.joined = True
            if rel.isascii():
                found = self._keyed_hits(rel)
                found.extend(self._tried(rel, self.loose, self.any_loose))
            else:
                found = self._tried(rel, range(len(self.orders)), self.any_glob)
        if subtree:
            found.extend(self._subtree(path.rstrip("/") or "/", base, removal))
        return found

    def _keyed_hits(self, rel: str) -> list[int]:
        """The keyed rules that match `rel`: those keyed by one of its components."""
        found: list[int] = []
        keyed = self.keyed
        # (lower case where the group ignores case: a path is passed as written when
        # its base changes length in lower case, `/home/hİ/.AWS`: review BW3)
        for component in set((rel.lower() if self.fold else rel).split("/")):
            positions = keyed.get(component)
            if positions is not None:
                regexes = self.regexes
                found.extend(self.orders[i] for i in positions if regexes[i].fullmatch(rel))
        return found

    def _tried(
        self, rel: str, positions: Sequence[int], joined: re.Pattern[str] | None
    ) -> list[int]:
        """The rules at `positions` that match `rel`, tried after their alternation."""
        if not positions or (joined is not None and not joined.fullmatch(rel)):
            return []
        return [self.orders[i] for i in positions if self.regexes[i].fullmatch(rel)]

    def _subtree(self, path: str, base: str, removal: bool) -> Sequence[int]:
        """Rules whose literal prefix (joined to the anchor) lies at or below `path`, and
        the `**/X/…` rules whose `below_regex` the path matches."""
        if self.anchor == ABSOLUTE:
            return self.below.get(path.lower() if self.fold else path, ())
        if _relative(base, path) is not None:  # the anchor itself lies at or below `path`
            return self.orders
        rel = _relative(path, base)
        if not rel:
            return ()  # outside the anchor
        # (the keys are in lower case: review BW3; the regexes ignore case themselves)
        found = self.below.get(rel.lower() if self.fold else rel, ())
        if removal or not self.deep:
            return found
        deep = [order for order, regex in self.deep if regex.fullmatch(rel)]
        return [*found, *deep] if deep else found


class _RuleIndex:
    __slots__ = ("groups", "rules")

    def __init__(self, rules: Sequence[ProtectedRule], access: Access) -> None:
        self.rules = rules  # kept alive, so that its id is not reused while cached
        # WHY two groups per anchor: a volume may ignore case (macOS's default), where
        # `~/.AWS/credentials` and `.GIT/config` are the protected files (review AL5). So
        # rules that ask or deny match without regard to case (on a volume that respects
        # case this costs at most a needless question); a rule that allows does not, since
        # there it would wave through a path it does not name.
        exact: dict[str, list[tuple[int, ProtectedRule]]] = {}
        folded: dict[str, list[tuple[int, ProtectedRule]]] = {}
        for order, rule in enumerate(rules):
            if rule.access.covers(access):
                side = exact if rule.verdict is Verdict.ALLOW else folded
                side.setdefault(rule.anchor, []).append((order, rule))
        self.groups: dict[str, _AnchorGroup] = {}
        for anchor in (*exact, *(a for a in folded if a not in exact)):
            group = self.groups[anchor] = _AnchorGroup(anchor, exact.get(anchor, []))
            if anchor in folded:
                group.folded = _AnchorGroup(anchor, folded[anchor], fold=True)


_INDEXES: dict[tuple[int, str], _RuleIndex] = {}


def _index_of(rules: Sequence[ProtectedRule], access: Access) -> _RuleIndex:
    """The index of `rules` for `access`, built on first use (a policy's rules never change:
    they are a tuple of frozen rules)."""
    key = (id(rules), access.value)
    index = _INDEXES.get(key)
    if index is None or index.rules is not rules:
        if len(_INDEXES) >= 64:
            _INDEXES.clear()
        index = _INDEXES[key] = _RuleIndex(rules, access)
    return index


def _key_component(glob: str, *, fold: bool) -> str | None:
    """The longest component of `glob` without glob characters, which every path it
    matches holds whole (in lower case with `fold`); None when it has none, or the
    component is not ASCII (case folding could then match other characters)."""
    literal = [
        part
        for part in split_anchor(glob)[1].split("/")
        if part and part not in (".", "..") and not any(c in part for c in "*?[")
    ]
    if not literal:
        return None
    key = max(literal, key=len)
    if not key.isascii():
        return None
    return key.lower() if fold else key


def _alternation(patterns: Sequence[LazyRegex]) -> re.Pattern[str] | None:
    """One regex that full-matches what any of `patterns` full-matches, or None when they
    cannot be joined (a capturing group could be referred to by number). The patterns
    themselves stay uncompiled until one is tried (`LazyRegex`)."""
    parts: list[str] = []
    for pattern in patterns:
        flags = "s" if pattern.flags & re.DOTALL else ""
        flags += "i" if pattern.flags & re.IGNORECASE else ""
        parts.append(f"(?{flags}:{pattern.pattern})" if flags else f"(?:{pattern.pattern})")
    try:
        joined = re.compile("|".join(parts) or "(?!)")
    except re.error:
        return None
    # the joined groups are the members' groups: none, or a member has one
    return None if joined.groups else joined


def _ancestors(prefix: str, *, absolute: bool) -> list[str]:
    """`prefix` and each directory above it, as `_AnchorGroup.below` keys: relative to the
    anchor (`a/b`, `a`) or, for an absolute glob, absolute (`/a/b`, `/a`, `/`)."""
    if absolute:
        if not prefix.startswith("/"):
            return []  # `_relative` never places it below any path
        keys = []
        current = prefix
        while current not in ("", "/"):
            keys.append(current)
            current = current.rpartition("/")[0]
        keys.append("/")
        return keys
    keys = []
    current = prefix
    while current:
        keys.append(current)
        current = current.rpartition("/")[0]
    return keys


def prefilter(rules: Sequence[ProtectedRule], access: Access) -> Callable[[str], bool]:
    """A quick test that is False only for paths none of `rules` can cover for `access`
    (not subtree matching), to skip `match_rules` over many paths (a git index).

    A glob ending in `/**` covers paths holding its last literal component as a directory
    (`~/.ssh/**`: `/.ssh/` or a path ending in `/.ssh`); any other glob covers paths whose
    base name matches its last component (`**/*.pem`: `*.pem`). A glob this cannot reduce
    (`**`, `/home/*/**`) lets every path through.

    >>> from policylang.compiler.tables import Access, ProtectedRule, RuleRef
    >>> from policylang.decision import Verdict
    >>> def rule(glob):
    ...     anchor, rest = split_anchor(glob)
    ...     return ProtectedRule(glob=glob, access=Access.READ_WRITE, verdict=Verdict.DENY,
    ...         ref=RuleRef(id="r", message="", location="x"), anchor=anchor,
    ...         regex=glob_regex(rest), literal_prefix=literal_prefix(rest))
    >>> test = prefilter([rule("~/.ssh/**"), rule("**/.env.*"), rule("**/*.pem")], Access.READ)
    >>> [test(p) for p in ("/w/a.py", "/h/.ssh/id", "/w/.env.local", "/w/x/k.pem", "/w/.ssh")]
    [False, True, True, True, True]
    >>> test = prefilter([rule("**/node_modules/*/**")], Access.READ)
    >>> [test(p) for p in ("/w/a.py", "/w/node_modules/x/y.js")]
    [False, True]
    """
    directories: set[str] = set()
    exact: set[str] = set()
    names: list[str] = []
    for rule in rules:
        if not rule.access.covers(access):
            continue
        parts = [part for part in rule.glob.split("/") if part not in ("", "~", ".")]
        while parts and parts[-1] == "**":
            parts.pop()
        if not parts:
            return lambda path: True
        last = parts[-1].lower()  # the rules match without regard to case (`_RuleIndex`)
        if rule.glob.rstrip("/").endswith("/**") or rule.glob == "**":
            # a path below it holds its last literal component (`node_modules` for
            # `**/node_modules/*/**`: a single wildcard there let every path through)
            literal = [p.lower() for p in parts if p != "**" and not any(c in p for c in "*?[")]
            if not literal:
                return lambda path: True
            directories.add(literal[-1])
        elif any(c in last for c in "*?["):
            names.append(glob_regex(last).pattern)
        else:
            exact.add(last)
    # set lookups for the literal names (their number does not matter), one regex for the
    # base-name globs
    pattern = LazyRegex("|".join(f"(?:{n})" for n in names) or "(?!)")
    exact_names = frozenset(exact)
    folders = frozenset(directories)

    def could_match(path: str) -> bool:
        if not path.isascii():
            # the rules ignore case through the regex flag, which also folds `ſ` into `s`,
            # the Kelvin sign into `k` and `İ` into `i̇`: `str.lower()` does not (review BW)
            return True
        parts = path.lower().split("/")
        return (
            parts[-1] in exact_names
            or not folders.isdisjoint(parts[1:])
            or pattern.fullmatch(parts[-1]) is not None
        )

    return could_match


def match_outside(
    outside: OutsideWorkspace, path: str, access: Access, *, home: str, workspace: str
) -> ProtectedMatch | None:
    """The outside-workspace verdict for `path`, or None (inside, excepted, or allowed)."""
    from policylang.compiler.tables import Access, ProtectedMatch
    from policylang.decision import Verdict

    if _relative(path, workspace) is not None:
        return None
    # an exception that does not name home does not reach into it: with HOME under /tmp
    # (a container's user), `except /tmp/**` had let an approved `cp` write `~/.curlrc`
    # and `~/bin/ls` (review EK)
    in_home = home != "/" and _relative(path, home) is not None
    if any(
        rule_matches(rule, path, home=home, workspace=workspace, subtree=False)
        and (rule.anchor == HOME or not in_home)
        for rule in outside.exceptions
    ):
        return None
    if access is Access.READ:
        verdict, ref = outside.read, outside.read_ref
    else:
        verdict, ref = outside.write, outside.write_ref
    if verdict is Verdict.ALLOW:
        return None
    return ProtectedMatch(rule=None, verdict=verdict, ref=ref, path=path)
