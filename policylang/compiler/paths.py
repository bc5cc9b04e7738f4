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

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from policylang.rules.globs import glob_regex

__all__ = [
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
    rule: ProtectedRule, path: str, *, home: str, workspace: str, subtree: bool
) -> bool:
    """Whether `path` is covered by the rule's glob (or contains it, with `subtree`)."""
    if rule.anchor == ABSOLUTE:
        return _hits(rule, path, None, "/", subtree)
    base = _anchor_dir(rule.anchor, home, workspace)
    return _hits(rule, path, _relative(path, base), base, subtree)


def _hits(rule: ProtectedRule, path: str, rel: str | None, base: str, subtree: bool) -> bool:
    """`rule_matches` with `path` already made relative to the rule's anchor `base`."""
    if rule.anchor == ABSOLUTE:
        if rule.regex.fullmatch(path):
            return True
    elif rel is not None and rule.regex.fullmatch(rel):
        return True
    if not subtree:
        return False
    fixed = rule.literal_prefix if rule.anchor == ABSOLUTE else _join(base, rule.literal_prefix)
    return _relative(fixed, path) is not None


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
) -> ProtectedMatch | None:
    """The strictest rule covering `path` for `access` (first written wins a tie)."""
    from policylang.compiler.tables import ProtectedMatch

    best: ProtectedRule | None = None
    # the path relative to each anchor, computed once rather than once per rule
    relative = {ABSOLUTE: None, HOME: _relative(path, home), WORKSPACE: _relative(path, workspace)}
    bases = {ABSOLUTE: "/", HOME: home, WORKSPACE: workspace}
    for rule in rules:
        if not rule.access.covers(access):
            continue
        if best is not None and rule.verdict.rank <= best.verdict.rank:
            continue
        anchor = rule.anchor
        if _hits(rule, path, relative[anchor], bases[anchor], subtree):
            best = rule
    if best is None:
        return None
    return ProtectedMatch(rule=best, verdict=best.verdict, ref=best.ref, path=path)


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
        last = parts[-1]
        if rule.glob.rstrip("/").endswith("/**") or rule.glob == "**":
            if any(c in last for c in "*?["):
                return lambda path: True
            directories.add(re.escape(last))
        elif any(c in last for c in "*?["):
            names.append(glob_regex(last).pattern)
        else:
            exact.add(last)
    # one search each, in C: a directory component, or the base name
    folder = re.compile("/(?:" + ("|".join(sorted(directories)) or "(?!)") + ")(?:/|$)")
    pattern = re.compile("|".join(f"(?:{n})" for n in names) or "(?!)")
    exact_names = frozenset(exact)

    def could_match(path: str) -> bool:
        name = path.rpartition("/")[2]
        return (
            name in exact_names
            or folder.search(path) is not None
            or pattern.fullmatch(name) is not None
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
    if any(
        rule_matches(rule, path, home=home, workspace=workspace, subtree=False)
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
