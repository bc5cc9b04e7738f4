"""The rule tree: pattern matching, clauses, checks, precedence and layering."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules.helpers import compile_text, lookup, verdict_of, words

from policylang.compiler.tree import CompiledPolicy, RuleMatch, TrieNode
from policylang.decision import Retention, Verdict
from policylang.engine.policy import shipped_ruleset
from policylang.rules.load import load_ruleset
from policylang.shell.parse import parse_command


@pytest.mark.parametrize(
    ("rules", "command", "expected"),
    [
        # the worked table of docs/language.md, "Precedence"
        ("allow git **\ndeny git push ** when -f|--force", "git push -f origin", "deny"),
        ("allow git **\nask git push **", "git push origin", "ask"),
        ("ask git **\nallow git status", "git status", "allow"),
        ("ask git *\nallow git status", "git status", "allow"),
        ("allow npm * test\nask npm run *", "npm run test", "ask"),
        ("allow ls a|b\nask ls a|c", "ls a", "ask"),
        ("locked ask curl **\nallow curl --version", "curl --version", "allow"),
        ("allow ls", "make", "default"),
        # order never matters
        ("ask git push **\nallow git **", "git push origin", "ask"),
        ("deny git push ** when -f|--force\nallow git **", "git push --force", "deny"),
        # exact vs rest
        ("allow git status", "git status --short", "default"),
        ("allow git status **", "git status --short", "allow"),
        ("allow git status **", "git status", "allow"),
        ("allow git *", "git", "default"),
        ("allow **", "anything at all", "allow"),
        # alternatives and quoting
        ("allow git status|log|diff **", "git diff HEAD", "allow"),
        ("allow git status|log|diff **", "git push", "default"),
        ('allow "git" status', "'git' \"status\"", "allow"),
        ("readonly cat **", "cat a b", "readonly"),
    ],
)
def test_precedence_and_patterns(rules: str, command: str, expected: str) -> None:
    assert verdict_of(compile_text(rules + "\n"), command) == expected


def test_non_literal_word_never_matches_a_literal() -> None:
    policy = compile_text("allow git status\nallow echo *\n")
    assert verdict_of(policy, "git $X") == "default"
    assert verdict_of(policy, "$CMD status") == "default"
    assert verdict_of(policy, "echo $(date)") == "allow"  # wildcards match any word


def test_ansi_c_decoded_word_matches() -> None:
    policy = compile_text("deny rm **\n")
    assert verdict_of(policy, "$'\\x72\\x6d' -rf x") == "deny"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("rm -rf /", "deny"),
        ("rm -fr /", "deny"),
        ("rm -r -f /", "deny"),
        ("rm --recursive /", "deny"),
        ("rm -r build", "default"),
        ("rm -f /", "default"),
        ("rm /", "default"),
    ],
)
def test_option_conditions_are_spelling_insensitive(command: str, expected: str) -> None:
    policy = compile_text("deny rm ** when -r|--recursive operand /\n")
    assert verdict_of(policy, command) == expected


def test_unless_and_only() -> None:
    policy = compile_text(
        "readonly sort ** unless -o|--output|--compress-program\nallow tar ** only -t -v -f -z\n"
    )
    assert verdict_of(policy, "sort -u file") == "readonly"
    assert verdict_of(policy, "sort -uo out file") == "default"
    assert verdict_of(policy, "sort --output=out file") == "default"
    assert verdict_of(policy, "tar -tvzf a.tgz") == "allow"
    assert verdict_of(policy, "tar -xzf a.tgz") == "default"


def test_clauses_look_after_the_literal_prefix() -> None:
    policy = compile_text("allow git log|diff ** unless --output|--ext-diff\n")
    assert verdict_of(policy, "git log --oneline") == "allow"
    assert verdict_of(policy, "git log --output=/tmp/x") == "default"
    assert verdict_of(policy, "git diff --ext-diff") == "default"


def test_undecidable_clauses_never_loosen() -> None:
    policy = compile_text("allow rm ** unless -r\ndeny chmod ** when -R\nallow chmod **\n")
    assert verdict_of(policy, "rm $FLAGS x") == "default"  # allow does not apply
    match = lookup(policy, "chmod $FLAGS x")
    assert match is not None
    assert match.verdict is Verdict.ASK
    assert match.uncertain


def test_failing_check_raises_to_ask_with_the_reason() -> None:
    policy = compile_text("readonly sed ** unless -i|--in-place checked-by sed-script\n")
    ok = lookup(policy, "sed -n '1,5p' file")
    assert ok is not None
    assert ok.verdict is Verdict.ALLOW
    assert ok.retention is Retention.REQUERY
    bad = lookup(policy, "sed 's/a/b/w out' file")
    assert bad is not None
    assert bad.verdict is Verdict.ASK
    assert not bad.readonly
    assert bad.check_failure == "sed script writes a file (`w` flag of `s`) (check sed-script)"
    assert verdict_of(policy, "sed -i s/a/b/ file") == "default"


def test_provenance_names_id_location_and_reason() -> None:
    policy = compile_text('\nallow git status id st reason "inspect"\nask curl **\n')
    match = lookup(policy, "git status")
    assert match is not None
    assert (match.rule.id, match.rule.location, match.rule.message) == (
        "st",
        "t.policy:2:1",
        "inspect",
    )
    curl = lookup(policy, "curl x")
    assert curl is not None
    assert (curl.rule.id, curl.rule.message) == ("t.policy:3", "ask rule `curl **`")


def test_locked_floor_binds_later_layers_only(tmp_path: Path) -> None:
    (tmp_path / "org.policy").write_text("locked ask curl **\nallow curl --version\n")
    (tmp_path / "user.policy").write_text('include "org.policy"\nallow curl **\nallow curl -s x\n')
    policy = load_ruleset(tmp_path / "user.policy")
    assert verdict_of(policy, "curl --version") == "allow"  # same layer as the locked rule
    match = lookup(policy, "curl -s x")
    assert match is not None
    assert match.verdict is Verdict.ASK
    assert match.locked
    assert match.rule.location.endswith("org.policy:1:1")


def test_lookup_of_empty_words() -> None:
    assert compile_text("allow **\n").lookup(()) is None


def test_word_globs() -> None:
    policy = compile_text(
        'allow npm run test:*\nask npm run *\nallow curl http://localhost:*\nallow echo "a*"\n'
    )
    assert verdict_of(policy, "npm run test:unit") == "allow"
    assert verdict_of(policy, "npm run build") == "ask"
    assert verdict_of(policy, "curl http://localhost:8080") == "allow"
    assert verdict_of(policy, "curl http://example.com") == "default"
    assert verdict_of(policy, "echo abc") == "default"  # a quoted star is literal
    assert verdict_of(policy, "echo 'a*'") == "allow"


def test_glob_is_less_specific_than_a_literal() -> None:
    policy = compile_text("allow git st*\nask git status\n")
    assert verdict_of(policy, "git status") == "ask"
    assert verdict_of(policy, "git stash") == "allow"


def test_clauses_see_past_the_first_operand() -> None:
    # git's own spec stops at the subcommand; clauses must still see later options
    policy = compile_text("allow git ** unless --output|-c\ndeny git ** when --force\n")
    assert verdict_of(policy, "git log --oneline") == "allow"
    assert verdict_of(policy, "git log --output=/tmp/x") == "default"
    assert verdict_of(policy, "git push --force origin") == "deny"


def test_abbreviated_long_options_err_on_the_strict_side() -> None:
    policy = compile_text(
        "allow sort ** unless --output|--compress-program\n"
        "deny git push ** when --force\n"
        "allow ls ** only --color\n"
    )
    assert verdict_of(policy, "sort --outp=x f") == "default"
    assert verdict_of(policy, "sort --compress=gzip f") == "default"
    assert verdict_of(policy, "git push --forc") == "deny"
    assert verdict_of(policy, "ls --col") == "default"  # not listed for `only`
    assert verdict_of(policy, "ls --color") == "allow"


def test_an_option_start_pattern_names_every_option_that_starts_so() -> None:
    policy = compile_text(
        "allow pnpm **\n"
        "ask pnpm ** when --config.*\n"
        "allow tool ** only --ok.*|-v\n"
        "allow lint ** unless --rule.*\n"
    )
    assert verdict_of(policy, "pnpm test --config.script-shell=/x") == "ask"
    assert verdict_of(policy, "pnpm --config.registry http://x install") == "ask"
    assert verdict_of(policy, "pnpm test --configure") == "allow"  # not `--config.`
    assert verdict_of(policy, "pnpm test --config") == "ask"  # may abbreviate one
    assert verdict_of(policy, "pnpm test --reporter=x") == "allow"
    assert verdict_of(policy, "tool --ok.a=1 -v --ok.b x") == "allow"
    assert verdict_of(policy, "tool --ok.a=1 --other x") == "default"
    assert verdict_of(policy, "tool --ok x") == "default"  # `only` takes no abbreviation
    assert verdict_of(policy, "lint --rule.x=1 f") == "default"
    assert verdict_of(policy, "lint --fix f") == "allow"


def test_tie_between_allow_and_readonly_is_durable_in_any_order() -> None:
    for text in ("allow cat a|b\nreadonly cat a|c\n", "readonly cat a|c\nallow cat a|b\n"):
        match = lookup(compile_text(text), "cat a")
        assert match is not None
        assert match.verdict is Verdict.ALLOW
        assert not match.readonly


def test_tie_between_locked_and_unlocked_is_locked_in_any_order() -> None:
    for text in ("locked ask curl a|b\nask curl a|c\n", "ask curl a|c\nlocked ask curl a|b\n"):
        match = lookup(compile_text(text), "curl a")
        assert match is not None
        assert match.locked


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("rm -rf /", "deny"),
        ("rm -rf /etc", "deny"),
        ("rm -rf /tmp/build", "default"),  # `*` stays within one path component
        ("rm -rf ~/x", "ask"),  # a tilde word is not literal: the deny may match
        ("rm -rf build/secrets.key", "deny"),
        ("rm -rf a/b/c.key", "deny"),
    ],
)
def test_operand_globs_are_path_globs(command: str, expected: str) -> None:
    policy = compile_text("deny rm ** when -r operand /|/*|**/*.key\n")
    assert verdict_of(policy, command) == expected


def test_word_glob_star_stays_within_a_path_component() -> None:
    policy = compile_text("allow cat src/*.py\nallow cat docs/**\n")
    assert verdict_of(policy, "cat src/a.py") == "allow"
    assert verdict_of(policy, "cat src/../../etc/x.py") == "default"
    assert verdict_of(policy, "cat docs/a/b.md") == "allow"


def _reference_lookup(policy: CompiledPolicy, command: str) -> RuleMatch | None:
    """`lookup` without its fast paths: every candidate through the clause evaluator."""
    from policylang.compiler.tree import _build_match, _ClauseEvaluator, _strictness

    argv = words(command)
    evaluator = _ClauseEvaluator(policy.tree, argv)
    hits = [h for r in policy.tree.candidates(argv) if (h := evaluator.match(r)) is not None]
    if not hits:
        return None
    denies = [h for h in hits if h[0] is Verdict.DENY]
    winner = max(denies or hits, key=_strictness)
    layer = winner[4].ref.layer
    floors = [h for h in hits if h[4].locked and h[4].ref.layer != layer and h[1] > winner[1]]
    if floors:
        return _build_match(max(floors, key=lambda h: (h[1], h[4].specificity)), floor=True)
    maybe_denies = [h for h in hits if h[2] and h[4].verdict is Verdict.DENY]
    if winner[0] is Verdict.ALLOW and maybe_denies:
        return _build_match(max(maybe_denies, key=_strictness), floor=False)
    return _build_match(winner, floor=False)


def test_fast_lookup_agrees_with_the_clause_evaluator() -> None:
    # clause-free rules carry their hit and matches precomputed; lookup takes shortcuts
    # with them, which must never change a match
    policy = load_ruleset(shipped_ruleset())
    table = Path(__file__).parents[2] / "golden" / "commands" / "default.tsv"
    commands = [
        line.split("\t")[0]
        for line in table.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    commands += ["git status", "ls -la", "rm -rf /", "npm run build", "sudo rm x", "cat a b"]
    compared = 0
    for command in commands:
        line = parse_command(command)
        if not line.segments or not line.segments[0].words:
            continue
        assert policy.lookup(line.segments[0].words) == _reference_lookup(policy, command)
        compared += 1
    assert compared > 200


def test_clause_free_rules_carry_their_matches() -> None:
    policy = compile_text("allow ls **\nreadonly cat **\nask git push ** when -f\n")
    rules = {rule.pattern: rule for _path, rule in policy.tree.iter_rules()}
    assert rules["cat **"].plain
    assert rules["cat **"].plain_match.readonly
    assert not rules["cat **"].floor_match.readonly  # a floor is never read-only
    assert not rules["git push **"].plain  # it has a clause
    match = lookup(policy, "cat x")
    assert match is rules["cat **"].plain_match


def _one_by_one(node: TrieNode, value: str) -> list[TrieNode]:
    """The children a word reaches through a node's globs, each glob tried alone."""
    return [child for _glob, regex, child in node.globs if regex.fullmatch(value)]


def test_word_globs_are_first_tried_as_one_alternation() -> None:
    """A node with several word globs (the shipped root has the compiler names `*-gcc`,
    `clang-[0-9]*` …) tries their alternation first: a word it does not match reaches no
    glob child, and one it matches reaches the same children as before."""
    policy = compile_text("allow *-gcc **\nallow clang-[0-9]* **\nallow g?? **\nallow ls **\n")
    root = policy.tree.root
    assert root.any_glob is not None
    for value in ("x86_64-linux-gnu-gcc", "clang-15", "gcc", "ls", "cat", "-gcc", "clang-x"):
        reached = _one_by_one(root, value)
        assert bool(root.any_glob.fullmatch(value)) == bool(reached), value
    assert verdict_of(policy, "x86_64-linux-gnu-gcc -c a.c") == "allow"
    assert verdict_of(policy, "clang-15 a.c") == "allow"
    assert verdict_of(policy, "cat a") == "default"
    # one glob alone needs no alternation
    assert compile_text("allow *-gcc **\n").tree.root.any_glob is None


@functools.cache
def _shipped_root() -> TrieNode:
    return load_ruleset(shipped_ruleset()).tree.root


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcgl-+0159x_.[]*?/", max_size=14))
def test_the_alternation_agrees_with_each_glob(value: str) -> None:
    """Property: the root's alternation matches a word exactly when one of its globs does
    (the shipped ruleset's root)."""
    root = _shipped_root()
    assert root.any_glob is not None
    assert bool(root.any_glob.fullmatch(value)) == bool(_one_by_one(root, value))
