"""Glob translation: the same matches as a plain matcher, in time linear in the word."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.rules.globs import glob_problem, glob_regex

from .helpers import diagnostics_of


def reference(glob: str, text: str) -> bool:
    """A direct backtracking matcher of the documented semantics (no `**`): `*` any run of
    characters but `/`, `?` one character but `/`, `[ab]`/`[!ab]` one such character."""
    atoms: list[tuple[str, str]] = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        close = glob.find("]", i + 2) if ch == "[" else -1
        if ch == "[" and close > 0:
            atoms.append(("set", glob[i + 1 : close]))
            i = close + 1
            continue
        atoms.append(("star", "") if ch == "*" else ("any", "") if ch == "?" else ("lit", ch))
        i += 1

    @functools.cache
    def match(a: int, t: int) -> bool:
        if a == len(atoms):
            return t == len(text)
        kind, value = atoms[a]
        if kind == "star":
            return match(a + 1, t) or (t < len(text) and text[t] != "/" and match(a, t + 1))
        if t == len(text):
            return False
        ch = text[t]
        if kind == "lit":
            ok = ch == value
        elif kind == "any":
            ok = ch != "/"
        elif value.startswith(("!", "^")):  # bash negates with either
            ok = ch != "/" and ch not in value[1:]
        else:
            ok = ch in value
        return ok and match(a + 1, t + 1)

    return match(0, 0)


_GLOB_ATOMS = st.sampled_from(
    ["a", "b", "-", "/", "*", "?", "[ab]", "[!a]", "[^a]", "[!-b]", "[-a]", "ab"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_GLOB_ATOMS, max_size=7).map("".join), st.text("ab/-^", max_size=10))
def test_translation_matches_the_reference(glob: str, text: str) -> None:
    while "**" in glob:  # `**` components have their own meaning (the next test)
        glob = glob.replace("**", "*")
    assert bool(glob_regex(glob).fullmatch(text)) == reference(glob, text)


def reference_with_globstar(glob: str, text: str) -> bool:
    """Component by component: a `**` component matches any number of components (none
    included), any other component is matched by `reference`."""
    parts, names = glob.split("/"), text.split("/")

    @functools.cache
    def match(p: int, n: int) -> bool:
        if p == len(parts):
            return n == len(names)
        if parts[p] == "**":
            return any(match(p + 1, k) for k in range(n, len(names) + 1))
        return n < len(names) and reference(parts[p], names[n]) and match(p + 1, n + 1)

    return match(0, 0)


_COMPONENTS = st.one_of(
    st.just("**"),
    st.lists(st.sampled_from(["a", "b", "*", "?", "[ab]", "[!a]"]), max_size=3).map("".join),
)


@settings(max_examples=800, deadline=None)
@given(st.lists(_COMPONENTS, min_size=1, max_size=6).map("/".join), st.text("ab/", max_size=10))
def test_globstar_translation_matches_the_reference(glob: str, text: str) -> None:
    glob = "/".join(p if p == "**" else p.replace("**", "*") for p in glob.split("/"))
    assert bool(glob_regex(glob).fullmatch(text)) == reference_with_globstar(glob, text)


@pytest.mark.parametrize(
    ("glob", "text", "expected"),
    [
        ("**/**", "a/b", True),  # review M12: `**/**` matched nothing but ``
        ("**/**/.env", "x/y/.env", True),
        ("a/**/**/b", "a/x/b", True),
        ("**/**", "", True),
    ],
)
def test_runs_of_globstars_mean_one(glob: str, text: str, expected: bool) -> None:
    assert bool(glob_regex(glob).fullmatch(text)) is expected


DEEP = "/".join(["a"] * 2_000)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("glob", "text", "expected"),
    [
        ("**/a/**/a/**/a/**/b", DEEP, False),
        ("**/a/**/a/**/a/**/b", DEEP + "/b", True),
        ("a/**/a/**/a/**/a/**/c/**", DEEP + "/c/d", True),
        ("**/a/**/b/**", DEEP, False),
    ],
    ids=["no-match", "match", "trailing", "middle-missing"],
)
def test_many_globstars_against_a_deep_path_finish(glob: str, text: str, expected: bool) -> None:
    # review M12: three or more `**` backtracked polynomially (seconds on a deep path)
    assert bool(glob_regex(glob).fullmatch(text)) is expected


A_RUN = "a" * 20_000


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("glob", "text", "expected"),
    [
        ("a*a*a*a*a*a*a*b", A_RUN, False),
        ("a*a*a*a*a*a*a*b", A_RUN + "b", True),
        ("*a*a*a*a*a*a*", A_RUN, True),
        ("x/*a*a*a*a*b/y", f"x/{A_RUN}/y", False),
        ("x/*a*a*a*a*b/y", f"x/{A_RUN}b/y", True),
    ],
    ids=["no-match", "match", "stars-both-ends", "middle-no-match", "middle-match"],
)
def test_many_stars_against_a_long_word_finish(glob: str, text: str, expected: bool) -> None:
    # review K5: `a*a*a*a*a*a*b` against 160 `a`s took 95 s (polynomial backtracking)
    assert bool(glob_regex(glob).fullmatch(text)) is expected


@pytest.mark.parametrize(
    ("glob", "needle"),
    [
        ("[[:alpha:]]*.key", "character classes"),
        ("d/[[:digit:]]", "character classes"),
        ("[z-a]", "bad character range"),
    ],
)
def test_bracket_sets_the_translation_cannot_mean_are_refused(glob: str, needle: str) -> None:
    # review K6: `[[:alpha:]]` compiled to a set that needed a literal `]`: never matched
    problem = glob_problem(glob)
    assert problem is not None
    assert needle in problem


@pytest.mark.parametrize("glob", ["[!]", "x[]", "[]a]", "[!]a]", "*.py", "**/.env*", "[a-z]?"])
def test_good_globs_have_no_problem(glob: str) -> None:
    assert glob_problem(glob) is None


@pytest.mark.parametrize(
    "rule",
    [
        "allow x [z-a]",
        "deny cat ** operand d/[[:alpha:]]*.key",
        "protect read **/[[:alpha:]]*.key deny",
    ],
)
def test_bad_bracket_sets_are_diagnostics_everywhere(rule: str) -> None:
    diagnostics = diagnostics_of(f'policy "t"\ndefault ask\n{rule}\n')
    assert [d.code for d in diagnostics if d.severity == "error"] == ["rules.bad-glob"]


@pytest.mark.parametrize(
    ("glob", "text", "expected"),
    [
        ("[^0-7]*", "8x", True),  # `^` negates, as `!` does (review M5)
        ("[^0-7]*", "5x", False),
        ("[!-9]*", "-", False),  # a leading `-` is literal: not a range from `/`
        ("[!-9]*", "5", True),
        ("[^.]*.lock", ".lock", False),
        ("[!a]b", "/b", False),  # a negated set never matches `/`
    ],
)
def test_negated_sets_mean_what_bash_means(glob: str, text: str, expected: bool) -> None:
    assert bool(glob_regex(glob).fullmatch(text)) is expected


@pytest.mark.parametrize(
    "glob", ["$HOME/.ssh/**", "${HOME}/.kube/**", "~/.aws/", "a//b", ".git/hooks/", "a/./b", "a/."]
)
def test_globs_that_can_never_match_are_errors(glob: str) -> None:
    # review AO9: the natural first spellings of a deny, each dead without a word
    diagnostics = diagnostics_of(f'policy "t"\nprotect read {glob} deny\n')
    assert [d.code for d in diagnostics if d.severity == "error"] == ["rules.bad-glob"]


@pytest.mark.parametrize("glob", ["/", "~", "~/", "~/.aws/**", "/etc/*.conf"])
def test_root_and_home_are_good_globs(glob: str) -> None:
    diagnostics = diagnostics_of(f'policy "t"\nprotect write {glob} deny\n')
    assert [d.code for d in diagnostics if d.severity == "error"] == []


@pytest.mark.parametrize(
    ("rule", "severity"),
    [
        ("deny rm ** when -rf", "error"),  # the deny never fired: `rm -rf x` was allowed
        ("deny terraform apply ** when -auto-approve", "error"),  # review AP7
        ("ask curl ** only -sS", "error"),
        ("allow tar ** unless -xf", "error"),
        ("ask sqlite3 ** unless -version", "warning"),  # dead, but only stricter
        ("allow git branch ** only -vv", "warning"),
    ],
)
def test_a_clause_naming_a_bundle_of_short_options_is_reported(rule: str, severity: str) -> None:
    diagnostics = diagnostics_of(f'policy "t"\n{rule}\n')
    assert [(d.code, d.severity) for d in diagnostics] == [("rules.never-matches", severity)]


@pytest.mark.parametrize(
    "text",
    [
        "deny find ** when -exec|-delete",  # find never bundles
        "options mytool long -xy\nask mytool ** when -xy",
        'options "zig cc" long -wrapper\nask zig cc|c++ ** when -wrapper',
        "deny rm ** when -r|-f|--recursive",
    ],
)
def test_declared_or_unbundled_options_are_not_bundles(text: str) -> None:
    assert [d.code for d in diagnostics_of(f'policy "t"\n{text}\n')] == []


# ----------------------------------------------------------------- LazyRegex (start-up)


def test_a_lazy_regex_compiles_on_first_use_and_then_matches_as_re_does() -> None:
    import re

    from policylang.rules.globs import LazyRegex

    broken = LazyRegex("a[")  # not compiled yet: a broken pattern does not raise here
    with pytest.raises(re.error):
        broken.fullmatch("a")
    regex = LazyRegex(r"a.b", re.DOTALL)
    for text in ("a\nb", "axb", "ab", "xaxb"):
        expected = re.compile(r"a.b", re.DOTALL)
        assert bool(regex.fullmatch(text)) == bool(expected.fullmatch(text))
        assert bool(regex.search(text)) == bool(expected.search(text))
        assert bool(regex.match(text)) == bool(expected.match(text))


def test_a_lazy_regex_pickles_as_its_pattern_and_flags() -> None:
    import pickle
    import re

    from policylang.rules.globs import LazyRegex

    regex = LazyRegex("x+", re.IGNORECASE | re.DOTALL)
    assert regex.fullmatch("XX")  # compiled: the copy carries no compiled state
    copy = pickle.loads(pickle.dumps(regex))
    assert copy == regex
    assert hash(copy) == hash(regex)
    assert type(copy.flags) is int  # not `re.RegexFlag`: snapshots may not name it
    assert copy.fullmatch("xX")
    assert not copy.fullmatch("y")


@pytest.mark.parametrize("flags", ["DEBUG", "VERBOSE", "ASCII"])
def test_a_lazy_regex_refuses_flags_that_print_or_change_the_syntax(flags: str) -> None:
    import re

    from policylang.rules.globs import LazyRegex

    with pytest.raises(ValueError, match="unexpected flags"):
        LazyRegex("a+", getattr(re, flags))
    with pytest.raises(ValueError, match="unexpected flags or type"):
        LazyRegex(b"a+", 0)  # type: ignore[arg-type]
