"""Protected paths: glob translation, anchors, subtree matching, outside the workspace."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules.helpers import compile_text

from policylang.compiler.paths import glob_regex, literal_prefix, split_anchor
from policylang.compiler.tree import Access
from policylang.decision import Verdict

HOME, WS = "/home/u", "/work/repo"


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        (".ssh/**", ".ssh", True),
        (".ssh/**", ".ssh/id_rsa", True),
        (".ssh/**", ".ssh/a/b", True),
        (".ssh/**", ".sshx", False),
        ("**/.env*", ".env", True),
        ("**/.env*", "a/b/.env.local", True),
        ("**/.env*", "a/b/x.env", False),
        (".git/hooks/*", ".git/hooks/pre-commit", True),
        (".git/hooks/*", ".git/hooks/a/b", False),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("file?.[ch]", "file1.c", True),
        ("file?.[!ch]", "file1.c", False),
        ("/etc/**", "/etc/passwd", True),
        ("**", "anything/at/all", True),
    ],
)
def test_glob_regex(glob: str, path: str, matches: bool) -> None:
    assert bool(glob_regex(glob).fullmatch(path)) is matches


def test_anchor_and_prefix() -> None:
    assert split_anchor("~/.ssh/**") == ("home", ".ssh/**")
    assert split_anchor("~") == ("home", "")
    assert split_anchor("/etc/x") == ("absolute", "/etc/x")
    assert split_anchor("./.git/**") == ("workspace", ".git/**")
    assert literal_prefix(".git/hooks/*") == ".git/hooks"
    assert literal_prefix("**/.env") == ""


POLICY = """\
protect write ~/.ssh/** .git/** deny reason "keys and repository internals"
protect read ~/.ssh/** ask
protect read-write **/.env* /etc/shadow deny id secrets
protect write ~/.bashrc ask
outside-workspace write ask except /dev/null /tmp/**
outside-workspace read ask
"""


@pytest.mark.parametrize(
    ("path", "access", "verdict", "glob"),
    [
        ("/home/u/.ssh/id_rsa", Access.WRITE, Verdict.DENY, "~/.ssh/**"),
        ("/home/u/.ssh/id_rsa", Access.READ, Verdict.ASK, "~/.ssh/**"),
        ("/work/repo/.git/config", Access.WRITE, Verdict.DENY, ".git/**"),
        ("/work/repo/.git/config", Access.READ, None, None),
        ("/work/repo/app/.env.prod", Access.READ, Verdict.DENY, "**/.env*"),
        ("/etc/shadow", Access.READ, Verdict.DENY, "/etc/shadow"),
        ("/home/u/.bashrc", Access.WRITE, Verdict.ASK, "~/.bashrc"),
        ("/home/u/.bashrc.bak", Access.WRITE, None, None),
        ("/work/repo/src/main.py", Access.WRITE, None, None),
        ("/home/u/.env", Access.READ, None, None),  # `**/.env*` is workspace-relative
    ],
)
def test_match_protected(
    path: str, access: Access, verdict: Verdict | None, glob: str | None
) -> None:
    policy = compile_text(POLICY)
    match = policy.match_protected(path, access, home=HOME, workspace=WS)
    if verdict is None:
        assert match is None
        return
    assert match is not None
    assert match.verdict is verdict
    assert match.rule is not None
    assert match.rule.glob == glob


@pytest.mark.parametrize(
    ("path", "glob"),
    [
        ("/home/bob/.ssh/id_rsa", "/home/*/.ssh/**"),
        ("/root/.ssh/id_rsa", "/root/.ssh/**"),
        ("/Users/ann/.ssh/config", "/Users/*/.ssh/**"),
        ("/home/u/.ssh/id_rsa", "~/.ssh/**"),  # the own home keeps its own spelling
    ],
)
def test_a_home_glob_protects_the_same_files_in_every_home(path: str, glob: str) -> None:
    policy = compile_text(POLICY)
    match = policy.match_protected(path, Access.WRITE, home=HOME, workspace=WS)
    assert match is not None
    assert match.rule is not None
    assert match.rule.glob == glob
    assert match.ref.message == "keys and repository internals"  # the rule's own reason
    assert policy.match_protected("/home/bob/x", Access.WRITE, home=HOME, workspace=WS) is None


@pytest.mark.parametrize(
    ("path", "access", "glob"),
    [
        ("/home/u/.SSH/id_rsa", Access.WRITE, "~/.ssh/**"),
        ("/HOME/U/.ssh/id_rsa", Access.WRITE, "~/.ssh/**"),
        ("/work/repo/.GIT/config", Access.WRITE, ".git/**"),
        ("/WORK/Repo/.git/config", Access.WRITE, ".git/**"),
        ("/work/repo/app/.ENV.prod", Access.READ, "**/.env*"),
        ("/ETC/Shadow", Access.READ, "/etc/shadow"),
        ("/home/u/.BashRC", Access.WRITE, "~/.bashrc"),
    ],
)
def test_rules_that_ask_or_deny_ignore_case(path: str, access: Access, glob: str) -> None:
    # review AL5: on a volume that ignores case (macOS's default) these are the protected
    # files themselves
    policy = compile_text(POLICY)
    match = policy.match_protected(path, access, home=HOME, workspace=WS)
    assert match is not None
    assert match.rule is not None
    assert match.rule.glob == glob
    subtree = policy.match_protected("/HOME/u", Access.WRITE, home=HOME, workspace=WS, subtree=True)
    assert subtree is not None
    assert subtree.verdict is Verdict.DENY


def test_a_protect_rule_that_allows_keeps_to_its_case() -> None:
    # an `allow` protect rule lifts the outside-workspace question: folding its case would
    # lift it for `/SCRATCH`, another folder where case matters
    policy = compile_text(POLICY + "protect write /scratch/** allow\n")
    allowed = policy.match_protected("/scratch/x", Access.WRITE, home=HOME, workspace=WS)
    assert allowed is not None
    assert allowed.verdict is Verdict.ALLOW
    assert policy.match_protected("/SCRATCH/x", Access.WRITE, home=HOME, workspace=WS) is None


def test_provenance_of_a_protected_match() -> None:
    policy = compile_text(POLICY)
    match = policy.match_protected("/etc/shadow", Access.WRITE, home=HOME, workspace=WS)
    assert match is not None
    assert (match.ref.id, match.ref.location) == ("secrets", "t.policy:3:1")
    first = policy.match_protected("/home/u/.ssh/x", Access.WRITE, home=HOME, workspace=WS)
    assert first is not None
    assert first.ref.message == "keys and repository internals"


def test_subtree_matches_ancestors_of_protected_paths() -> None:
    policy = compile_text(POLICY)
    assert policy.match_protected(HOME, Access.WRITE, home=HOME, workspace=WS) is None
    whole_home = policy.match_protected(HOME, Access.WRITE, home=HOME, workspace=WS, subtree=True)
    assert whole_home is not None
    assert whole_home.verdict is Verdict.DENY
    root = policy.match_protected("/", Access.WRITE, home=HOME, workspace=WS, subtree=True)
    assert root is not None
    src = policy.match_protected(f"{WS}/src", Access.WRITE, home=HOME, workspace=WS, subtree=True)
    assert src is None


def test_outside_workspace() -> None:
    policy = compile_text(POLICY)
    outside = policy.protected.match_outside
    inside = outside(f"{WS}/x", Access.WRITE, home=HOME, workspace=WS)
    assert inside is None
    assert outside("/dev/null", Access.WRITE, home=HOME, workspace=WS) is None
    assert outside("/tmp/a/b", Access.WRITE, home=HOME, workspace=WS) is None
    etc = outside("/etc/hosts", Access.WRITE, home=HOME, workspace=WS)
    assert etc is not None
    assert etc.verdict is Verdict.ASK
    assert etc.ref.location == "t.policy:5:1"
    read = outside("/etc/hosts", Access.READ, home=HOME, workspace=WS)
    assert read is not None
    assert read.ref.location == "t.policy:6:1"


def test_outside_workspace_defaults() -> None:
    policy = compile_text("allow ls\n")
    outside = policy.protected.match_outside
    assert outside("/etc/hosts", Access.READ, home=HOME, workspace=WS) is None
    write = outside("/etc/hosts", Access.WRITE, home=HOME, workspace=WS)
    assert write is not None
    assert write.verdict is Verdict.ASK
    assert write.ref.location == "<built-in>"


def test_match_rules_agrees_with_rule_by_rule_matching() -> None:
    # match_rules computes the path relative to each anchor once; the answer must be the
    # strictest matching rule, the first written among equals, exactly as one rule at a time
    from policylang.compiler.paths import match_rules
    from policylang.engine.policy import shipped_ruleset
    from policylang.rules.load import load_ruleset

    rules = load_ruleset(shipped_ruleset()).protected.rules
    tails = ("", "/.ssh", "/.ssh/id_rsa", "/.env", "/a/.env.local", "/.git/config", "/x.pem")
    tails += ("/.bashrc", "/.git/hooks/pre-commit", "/.claude/settings.json", "/src/a.py")
    roots = ("/", HOME, WS, f"{WS}/sub", "/etc", "/home", "/work")
    compared = 0
    for root in roots:
        for tail in tails:
            path = (root.rstrip("/") + tail) or "/"
            for access in (Access.READ, Access.WRITE):
                for subtree in (False, True):
                    best = _linear_match(
                        rules, path, access, home=HOME, workspace=WS, subtree=subtree
                    )
                    hit = match_rules(rules, path, access, home=HOME, workspace=WS, subtree=subtree)
                    assert (hit.rule if hit else None) == best, (path, access, subtree)
                    compared += 1
    assert compared > 300


_GLOB_PARTS = ("a", "b", ".s", "*", "a*", "?", "[ab]", "**", "")
_PATH_PARTS = ("a", "b", ".s", "ab", "x")


def _generated_rules(globs):  # type: ignore[no-untyped-def]
    """Protected rules from generated (anchor, parts, verdict, access); empty globs left out."""
    from policylang.compiler.paths import glob_regex, literal_prefix
    from policylang.compiler.tables import ProtectedRule, RuleRef

    rules = []
    for number, (anchor_text, parts, verdict, access) in enumerate(globs):
        glob = anchor_text + "/".join(parts)
        if not glob or glob in ("~/", "./"):
            continue
        anchor, rest = split_anchor(glob)
        ref = RuleRef(id=f"r{number}", location=f"t:{number}:1", message="")
        rules.append(
            ProtectedRule(
                glob=glob, access=access, verdict=verdict, ref=ref, anchor=anchor,
                regex=glob_regex(rest), literal_prefix=literal_prefix(rest),
            )
        )  # fmt: skip
    return tuple(rules)


def _linear_match(rules, path, access, *, home, workspace, subtree, removal=False):  # type: ignore[no-untyped-def]
    """The specification: every rule in written order, the strictest kept, first among equals."""
    from policylang.compiler.paths import rule_matches

    best = None
    for rule in rules:
        if not rule.access.covers(access):
            continue
        if best is not None and rule.verdict.rank <= best.verdict.rank:
            continue
        if rule_matches(
            rule, path, home=home, workspace=workspace, subtree=subtree, removal=removal
        ):
            best = rule
    return best


@settings(max_examples=400, deadline=None)
@given(
    globs=st.lists(
        st.tuples(
            st.sampled_from(("~/", "/", "", "./")),
            st.lists(st.sampled_from(_GLOB_PARTS), min_size=1, max_size=4),
            st.sampled_from((Verdict.ALLOW, Verdict.ASK, Verdict.DENY)),
            st.sampled_from(tuple(Access)),
        ),
        min_size=1,
        max_size=12,
    ),
    paths=st.lists(st.lists(st.sampled_from(_PATH_PARTS), max_size=5), min_size=1, max_size=6),
    home=st.sampled_from(("/h", "/", "/h/", "/w/h")),
    workspace=st.sampled_from(("/w", "/h/w", "/", "/w/")),
    trailing=st.booleans(),
)
def test_indexed_match_rules_equals_the_linear_specification(
    globs: list[tuple[str, list[str], Verdict, Access]],
    paths: list[list[str]],
    home: str,
    workspace: str,
    trailing: bool,
) -> None:
    # match_rules looks rules up through an index (one alternation per anchor, a map of
    # literal prefixes for subtree matches); it must answer exactly as the rule-by-rule
    # specification, whatever the globs, anchors, home, workspace and path spellings
    from policylang.compiler.paths import match_rules

    table = _generated_rules(globs)
    for parts in paths:
        for root in ("/", home, workspace):
            path = root.rstrip("/") + "/" + "/".join(parts) if parts else root
            path = path if trailing else (path.rstrip("/") or "/")
            for access in (Access.READ, Access.WRITE):
                for subtree, removal in ((False, False), (True, False), (True, True)):
                    want = _linear_match(
                        table, path, access, home=home, workspace=workspace, subtree=subtree,
                        removal=removal,
                    )  # fmt: skip
                    hit = match_rules(
                        table, path, access, home=home, workspace=workspace, subtree=subtree,
                        removal=removal,
                    )  # fmt: skip
                    assert (hit.rule if hit else None) == want, (path, access, subtree, removal)


def test_a_character_whose_lower_case_is_longer_still_matches() -> None:
    # review AP11: `İ`.lower() is two characters, which `?` did not match
    policy = compile_text("protect read **/?.sx deny\n")
    match = policy.match_protected(f"{WS}/\u0130.sx", Access.READ, home=HOME, workspace=WS)
    assert match is not None


@settings(max_examples=400, deadline=None)
@given(
    globs=st.lists(
        st.tuples(
            st.sampled_from(("~/", "/", "", "./")),
            st.lists(st.sampled_from(_GLOB_PARTS), min_size=1, max_size=4),
        ),
        min_size=1,
        max_size=8,
    ),
    paths=st.lists(st.lists(st.sampled_from(_PATH_PARTS), max_size=5), min_size=1, max_size=6),
)
def test_the_prefilter_lets_through_every_path_a_rule_covers(
    globs: list[tuple[str, list[str]]], paths: list[list[str]]
) -> None:
    # `prefilter` skips paths no rule can cover; a path it skips must match no rule
    # (it let every path through when one glob ended in `*/**`: `**/node_modules/*/**`)
    from policylang.compiler.paths import prefilter, rule_matches

    rules = _generated_rules([(a, p, Verdict.DENY, Access.READ_WRITE) for a, p in globs])
    could_match = prefilter(rules, Access.READ)
    for parts in paths:
        for root in ("/", "/h", "/w"):
            path = (root.rstrip("/") + "/" + "/".join(parts)).rstrip("/") or "/"
            if not could_match(path):
                for rule in rules:
                    assert not rule_matches(rule, path, home="/h", workspace="/w", subtree=False)


def test_a_base_whose_lower_case_is_longer_still_ignores_case_below_it() -> None:
    # review BW3: with `İ` in the home or workspace path the path is matched as written,
    # and the literal components of the rules (`.aws`, `.git`) were looked up as written
    policy = compile_text("protect read ~/.aws/** deny\nprotect write .git/** deny\n")
    home, workspace = "/home/h\u0130", "/w/\u0130x"
    cases = ((f"{home}/.AWS/credentials", Access.READ), (f"{workspace}/.GIT/config", Access.WRITE))
    for path, access in cases:
        match = policy.match_protected(path, access, home=home, workspace=workspace)
        assert match is not None, path
        below = policy.match_protected(
            path.rsplit("/", 2)[0], access, home=home, workspace=workspace, subtree=True
        )
        assert below is not None, path


@pytest.mark.parametrize(
    "path",
    [f"{HOME}/.\u017f\u017fh/id_rsa", f"{WS}/.ba\u017fhrc", f"{WS}/.\u212aube/config"],
)
def test_the_prefilter_lets_through_a_path_the_rules_fold_into_a_protected_one(path: str) -> None:
    # review BW: the rules ignore case through the regex flag, which folds `ſ` into `s` and
    # the Kelvin sign into `k`; the prefilter's `str.lower()` does not, and skipped them
    from policylang.compiler.paths import prefilter

    policy = compile_text(
        "protect read ~/.ssh/** deny\nprotect read **/.bashrc deny\nprotect read **/.kube/** deny\n"
    )
    # the rules themselves cover it, so the prefilter must let it through
    assert policy.match_protected(path, Access.READ, home=HOME, workspace=WS) is not None
    assert prefilter(policy.protected.rules, Access.READ)(path)


@pytest.mark.parametrize(
    ("path", "hit"),
    [
        (f"{WS}/.cargo", "**/.cargo/config.toml"),
        (f"{WS}/sub/.cargo", "**/.cargo/config.toml"),
        (f"{WS}/.mvn", "**/.mvn/jvm.config"),
        (f"{WS}/.venv", "**/.venv*/bin/**"),
        (f"{WS}/.venv-x/lib", "**/.venv*/lib*/*/site-packages/**"),
        (f"{WS}/docs", None),
        (f"{WS}/cargo", None),
    ],
)
def test_a_double_star_glob_is_reached_below_a_folder_of_its_name(
    path: str, hit: str | None
) -> None:
    """Review BX9: `**/X/Y` globs have no literal prefix, so no subtree write found them:
    `cp -r cg .cargo` wrote `.cargo/config.toml`. A folder whose own name matches X holds
    a match below it; a removal (`rm -rf .venv`) is not such a write."""
    policy = compile_text(
        "protect write **/.cargo/config.toml **/.mvn/jvm.config **/.venv*/bin/** ask\n"
        "protect write **/.venv*/lib*/*/site-packages/** ask\n"
        "protect write **/CLAUDE.md deny\n"
    )
    match = policy.match_protected(path, Access.WRITE, home=HOME, workspace=WS, subtree=True)
    assert (match.rule.glob if match and match.rule else None) == hit
    removed = policy.match_protected(
        path, Access.WRITE, home=HOME, workspace=WS, subtree=True, removal=True
    )
    assert removed is None
    assert policy.match_protected(path, Access.WRITE, home=HOME, workspace=WS) is None
