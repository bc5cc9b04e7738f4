"""The compiled artefact: the decision tree and tables the engine consumes.

Stage: compiler output. Imports `span`, `diagnostics`, `decision`, the shell model, the
shell option view and wrapper table, and `compiler.tables` (whose types it re-exports:
import the whole artefact from here); never the engine or the rules front end. Every
leaf keeps the provenance (`RuleRef`) of the rule that produced it.

Lookup precedence (see docs/language.md, "Precedence")::

    deny candidate            -> always wins (the most specific deny names the reason)
    otherwise                 -> the most specific candidate; ties go to the stricter verdict
    locked rule, layer k      -> a floor for candidates from layers > k
    locked ask, any layer     -> replaces an unlocked winning ask (no approval lifts it)
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import assert_never

from policylang.compiler.paths import LazyRegex
from policylang.compiler.tables import (
    BUILTIN_LOCATION,
    Access,
    ArityTable,
    DisqualifierEntry,
    DisqualifierTable,
    EnvMatch,
    EnvTable,
    ExpansionAction,
    ExpansionPosition,
    InterpreterSpec,
    OperandRole,
    OutsideWorkspace,
    PathArgTable,
    PathRoles,
    ProtectedMatch,
    ProtectedRule,
    ProtectedTable,
    RuleRef,
    RunnerTable,
    builtin_ref,
)
from policylang.decision import Decision, Retention, Verdict
from policylang.diagnostics import Diagnostic
from policylang.shell.model import Word
from policylang.shell.options import Option, OptionSpec, OptionView, option_view
from policylang.shell.wrappers import WrapperTable
from policylang.span import SourceText, Span

__all__ = [
    "BUILTIN_LOCATION",
    "Access",
    "ArityTable",
    "CompiledPolicy",
    "CompiledRule",
    "Condition",
    "ConditionKind",
    "DisqualifierEntry",
    "DisqualifierTable",
    "EnvMatch",
    "EnvTable",
    "ExpansionAction",
    "ExpansionPosition",
    "Expectation",
    "InterpreterSpec",
    "OperandRole",
    "OutsideWorkspace",
    "PathArgTable",
    "PathRoles",
    "ProtectedMatch",
    "ProtectedRule",
    "ProtectedTable",
    "RuleMatch",
    "RuleRef",
    "RuleTree",
    "RunnerTable",
    "TrieNode",
    "builtin_ref",
    "check_expectations",
]


class ConditionKind(enum.StrEnum):
    WHEN = "when"
    UNLESS = "unless"
    ONLY = "only"
    OPERAND = "operand"
    FIRST_OPERAND = "first-operand"


@dataclass(frozen=True, slots=True, kw_only=True)
class Condition:
    """A clause. For OPERAND, `items` are path-style globs (`*` stays within one path
    component, `**` crosses them: `/*` is `/etc`, not `/etc/passwd`), compiled in `regex`.
    For option clauses, an item ending in `*` (`--config.*`) names every option that
    starts with what precedes it; the compiler lists those starts in `prefixes`."""

    kind: ConditionKind
    items: frozenset[str]
    regex: LazyRegex | None = field(default=None, compare=False, repr=False)
    prefixes: tuple[str, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledRule:
    """One command rule as the tree stores it (one per source rule, shared by its leaves)."""

    ref: RuleRef
    verdict: Verdict
    readonly: bool
    locked: bool
    pattern: str  # canonical text of the pattern, for dumps
    conditions: tuple[Condition, ...] = ()
    checks: tuple[str, ...] = ()
    # (leading literals, literals, globs, fixed words, exact=1/rest=0, clauses)
    specificity: tuple[int, ...] = ()
    # precomputed for the lookup's hot path: a rule without clauses or checks always hits
    # the same way, so its hit and its two possible matches are built once, here
    plain: bool = field(init=False, repr=False, compare=False)
    hit: _Hit = field(init=False, repr=False, compare=False)
    plain_match: RuleMatch = field(init=False, repr=False, compare=False)
    floor_match: RuleMatch = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        verdict = self.verdict
        hit: _Hit = (verdict, verdict.rank, False, None, self)
        object.__setattr__(self, "plain", not self.conditions and not self.checks)
        object.__setattr__(self, "hit", hit)
        object.__setattr__(self, "plain_match", _build_match(hit, floor=False))
        object.__setattr__(self, "floor_match", _build_match(hit, floor=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleMatch:
    """The rule that decided a segment, with the effective verdict.

    `verdict` can be stricter than `rule.verdict`: an undecidable ask/deny rule applies as
    ASK (`uncertain`), a failing check raises allow to ASK (`check_failure` says why), and a
    locked floor from an earlier layer replaces a looser winner (`locked` is then True).
    """

    verdict: Verdict
    readonly: bool
    locked: bool
    rule: RuleRef
    specificity: tuple[int, ...]
    uncertain: bool = False
    check_failure: str | None = None

    @property
    def retention(self) -> Retention:
        return (
            Retention.REQUERY
            if self.readonly and self.verdict is Verdict.ALLOW
            else (Retention.DURABLE)
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class TrieNode:
    """A trie node over literal command words. Built once by the compiler, then read-only."""

    children: Mapping[str, TrieNode] = field(default_factory=dict)
    # word globs (`test:*`): (glob, compiled regex, child); checked one by one
    globs: tuple[tuple[str, LazyRegex, TrieNode], ...] = ()
    # the alternation of the globs' regexes, where there are several: most words match
    # none (17 compiler names at the root: `*-gcc`, `clang-[0-9]*` …), found in one search
    any_glob: LazyRegex | None = None
    wildcard: TrieNode | None = None
    exact: tuple[CompiledRule, ...] = ()  # rules whose pattern ends here
    rest: tuple[CompiledRule, ...] = ()  # rules whose pattern ends here with `**`


CheckFunction = Callable[[Sequence[Word], OptionView], "str | None"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleTree:
    """The command-rule trie. `lookup` costs O(words), independent of the number of rules."""

    root: TrieNode
    option_specs: Mapping[str, OptionSpec]
    checks: Mapping[str, CheckFunction]
    rule_count: int = 0
    # the specs clauses use: every spec scans all words (see `_scan_all`)
    _clause_specs: Mapping[str, OptionSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        specs = {name: _scan_all(spec) for name, spec in self.option_specs.items()}
        object.__setattr__(self, "_clause_specs", specs)

    def candidates(self, words: Sequence[Word]) -> tuple[CompiledRule, ...]:
        """Every rule whose pattern (not clauses) matches `words`."""
        found: list[CompiledRule] = []
        active: list[TrieNode] = [self.root]
        for word in words:
            nxt: list[TrieNode] = []
            value = word.value
            for node in active:
                if node.rest:
                    found.extend(node.rest)
                if value is not None:
                    child = node.children.get(value)
                    if child is not None:
                        nxt.append(child)
                    if node.globs and (node.any_glob is None or node.any_glob.fullmatch(value)):
                        nxt.extend(c for _g, regex, c in node.globs if regex.fullmatch(value))
                if node.wildcard is not None:
                    nxt.append(node.wildcard)
            if not nxt:
                return tuple(found)
            active = nxt
        for node in active:
            found.extend(node.exact)
            found.extend(node.rest)
        return tuple(found)

    def knows(self, name: str) -> bool:
        """Whether some rule's pattern starts with the command name `name`."""
        root = self.root
        return name in root.children or any(regex.fullmatch(name) for _g, regex, _c in root.globs)

    def lookup(self, words: Sequence[Word]) -> RuleMatch | None:
        """The deciding rule for one simple command's words, or None when no rule matches.

        Args:
            words: the segment's argv (wrappers already removed by the engine).

        Returns:
            The winning `RuleMatch` per the precedence in the module docstring.
        """
        if not words:
            return None
        return self.decide(words, self.candidates(words))

    def decide(
        self,
        words: Sequence[Word],
        rules: Sequence[CompiledRule],
        views: dict[int, OptionView] | None = None,
    ) -> RuleMatch | None:
        """`lookup` for callers that already hold `candidates(words)` (computed once).

        `views`, if given, receives the option views the clauses needed, by start index
        (each made with `clause_spec(words, start)`), for the caller to reuse.
        """
        if not rules:
            return None
        if len(rules) == 1 and rules[0].plain:
            return rules[0].plain_match  # the common case: one rule, no clauses
        evaluator: _ClauseEvaluator | None = None
        hits: list[_Hit] = []
        for rule in rules:
            if rule.plain:
                hits.append(rule.hit)
                continue
            if evaluator is None:
                evaluator = _ClauseEvaluator(self, words, {} if views is None else views)
            hit = evaluator.match(rule)
            if hit is not None:
                hits.append(hit)
        return _decide(hits)

    def option_spec(self, command: str | None) -> OptionSpec:
        """The option spec used for `command` (policy `options` over the shell defaults)."""
        if command is not None:
            spec = self.option_specs.get(command)
            if spec is not None:
                return spec
        return _DEFAULT_SPEC

    def command_clause_spec(self, command: str) -> OptionSpec:
        """`clause_spec` for a one-word prefix: the spec clauses read `command`'s words with."""
        return self._clause_specs.get(command, _DEFAULT_SPEC)

    def clause_spec(self, words: Sequence[Word], start: int) -> OptionSpec:
        """The spec clauses read the words after `words[:start]` with (scanning every word)."""
        if start == 1:
            name = words[0].value
            return self._clause_specs.get(name, _DEFAULT_SPEC) if name else _DEFAULT_SPEC
        prefix = [w.value for w in words[:start]]
        if any(value is None for value in prefix):
            return _DEFAULT_SPEC
        spec = self._clause_specs.get(" ".join(v for v in prefix if v))
        if spec is None:
            # nopt (npm, pnpm) reads the options of every verb alike (`npm install
            # ---global x` is `--global`, review BT3)
            first = self._clause_specs.get(prefix[0] or "")
            spec = first if first is not None and first.any_dashes else _DEFAULT_SPEC
        return spec

    def iter_rules(self) -> Iterator[tuple[str, CompiledRule]]:
        """(path, rule) for every leaf, depth first, children sorted: what `dump` prints."""
        stack: list[tuple[str, TrieNode]] = [("", self.root)]
        while stack:
            path, node = stack.pop()
            for rule in node.exact:
                yield path.strip(), rule
            for rule in node.rest:
                yield f"{path} **".strip(), rule
            children = sorted(node.children.items(), reverse=True)
            if node.wildcard is not None:
                stack.append((f"{path} *", node.wildcard))
            stack.extend((f"{path} {glob}", child) for glob, _r, child in reversed(node.globs))
            stack.extend((f"{path} {_show(word)}", child) for word, child in children)


_DEFAULT_SPEC = OptionSpec()


def _show(word: str) -> str:
    return word if word and re.fullmatch(r"[^\s\"#|*]+", word) else f'"{word}"'


# (effective verdict, its rank, uncertain, check failure, rule): cheap to build per candidate
_Hit = tuple[Verdict, int, bool, "str | None", CompiledRule]


def _strictness(hit: _Hit) -> tuple[object, ...]:
    """Specificity first; ties go to the stricter verdict, then to durable over read-only,
    locked over not, and to a match that cannot be approved (undecidable, or a failed
    check): the outcome never depends on the order rules are written in."""
    _verdict, rank, uncertain, failure, rule = hit
    return (rule.specificity, rank, not rule.readonly, rule.locked, uncertain, failure is not None)


def _decide(hits: Sequence[_Hit]) -> RuleMatch | None:
    """Apply the precedence: deny wins, then specificity (ties stricter), then locked floors."""
    if not hits:
        return None
    if len(hits) == 1:  # the usual case: no precedence to apply, no floor below it
        return _match(hits[0], floor=False)
    denies = [h for h in hits if h[0] is Verdict.DENY]
    winner = max(denies or hits, key=_strictness)
    layer = winner[4].ref.layer
    # a locked rule holds against every other file, before or after its own: a main file
    # that includes a helper before the org's file made the helper the earlier layer, and
    # its `allow curl https://evil.example/*` beat the org's locked ask (review CW1)
    floors = [h for h in hits if h[4].locked and h[4].ref.layer != layer and h[1] > winner[1]]
    if floors:
        return _match(max(floors, key=lambda h: (h[1], h[4].specificity)), floor=True)
    if winner[0] is Verdict.ALLOW:
        # a deny that may apply (`$X` may be `--force`) is an ask whatever is more
        # specific: a certain deny wins over every allow, so an uncertain one must not
        # lose to one (review CW4: `readonly git push origin *` allowed `git push origin
        # $X` beside the deny of `git push --force`)
        maybe_denies = [h for h in hits if h[2] and h[4].verdict is Verdict.DENY]
        if maybe_denies:
            return _match(max(maybe_denies, key=_strictness), floor=False)
    if winner[0] is Verdict.ASK and not winner[4].locked:
        # a locked ask that matches holds against approvals whatever wins by specificity:
        # `locked ask kubectl **` beside `ask kubectl delete **` (same file, or an earlier
        # one such as an included common file) left `kubectl delete` approvable, and the
        # approval then allowed `kubectl delete --all pods` (review AX1). The locked rule
        # decides, so the trace names the lock that refuses the approval.
        locks = [h for h in hits if h[4].locked and h[0] is Verdict.ASK]
        if locks and (winner[2] or winner[3] is not None):
            # an undecidable deny or a failed check: its reason says more; lock it
            return dataclasses.replace(_match(winner, floor=False), locked=True)
        if locks:
            return _match(max(locks, key=_strictness), floor=True)
    return _match(winner, floor=False)


def _match(hit: _Hit, *, floor: bool) -> RuleMatch:
    rule = hit[4]
    if hit is rule.hit:  # a clause-free hit: its matches were built with the rule
        return rule.floor_match if floor else rule.plain_match
    return _build_match(hit, floor=floor)


def _build_match(hit: _Hit, *, floor: bool) -> RuleMatch:
    verdict, _rank, uncertain, failure, rule = hit
    return RuleMatch(
        verdict=verdict,
        readonly=rule.readonly and failure is None and not floor and verdict is Verdict.ALLOW,
        locked=rule.locked,
        rule=rule.ref,
        specificity=rule.specificity,
        uncertain=uncertain,
        check_failure=failure,
    )


class _ClauseEvaluator:
    """Evaluates clauses of candidate rules against one command; option views are lazy.

    A rule's clauses see the words after its leading literal words (`git log **` looks at
    what follows `log`), through the spec for that prefix: `options "git log" …` if the
    policy has one, the command's spec for one-word prefixes, else a plain spec.
    """

    __slots__ = ("_tree", "_views", "_words")

    def __init__(
        self, tree: RuleTree, words: Sequence[Word], views: dict[int, OptionView] | None = None
    ) -> None:
        self._tree = tree
        self._words = words
        self._views: dict[int, OptionView] = {} if views is None else views

    def view(self, rule: CompiledRule) -> OptionView:
        start = max(1, min(rule.specificity[0] if rule.specificity else 1, len(self._words)))
        view = self._views.get(start)
        if view is None:
            spec = self._tree.clause_spec(self._words, start)
            view = option_view(self._words, spec, start=start)
            self._views[start] = view
        return view

    def match(self, rule: CompiledRule) -> _Hit | None:
        state: bool | None = True
        loose = rule.verdict is not Verdict.ALLOW
        for condition in rule.conditions:
            result = self._condition(condition, self.view(rule), loose=loose)
            if result is False:
                return None
            if result is None:
                state = None
        verdict = rule.verdict
        uncertain = state is None
        if uncertain:
            if verdict is Verdict.ALLOW:
                return None
            verdict = Verdict.ASK
        failure = self._run_checks(rule) if verdict is Verdict.ALLOW and rule.checks else None
        if failure is None and not uncertain:
            return rule.hit  # the rule applies as written: its matches are prebuilt
        if failure is not None:
            verdict = Verdict.ASK
        return (verdict, verdict.rank, uncertain, failure, rule)

    def _run_checks(self, rule: CompiledRule) -> str | None:
        for name in rule.checks:
            message = self._tree.checks[name](self._words, self.view(rule))
            if message is not None:
                return f"{message} (check {name})"
        return None

    def _condition(self, condition: Condition, view: OptionView, *, loose: bool) -> bool | None:
        """True, False, or None when a non-literal word makes it undecidable.

        Matching errs on the strict side: an abbreviation of a listed long option
        (`--outp` for `--output`) counts as that option for `unless`, and for `when` on
        ask/deny rules (`loose`); it never counts as listed for `only`, nor for a program
        that takes no abbreviation (`_EXACT_NAMES`). Where an option
        would make the command pass (`when` of an allow rule, `unless` of an ask or deny
        rule), one that git cancels again with a later `--no-NAME` does not count.
        """
        items = condition.items
        starts = condition.prefixes
        unknown = bool(view.unknown)
        exact = self._exact_names()
        match condition.kind:
            case ConditionKind.WHEN:
                options = view.options if loose else self._standing(view.options, items)
                if any(_listed(opt.name, items, starts, loose and not exact) for opt in options):
                    return True
                return None if unknown else False
            case ConditionKind.UNLESS:
                options = self._standing(view.options, items) if loose else view.options
                # an option the spec knows by that name is no abbreviation: getopt, argparse
                # and pflag take an exact name first (compose's global `--profile` had
                # counted as `config --profiles` and lifted its locked ask, review GM5)
                listed = [
                    o for o in options if _listed(o.name, items, starts, not o.known and not exact)
                ]
                if any(not _may_be_a_value(o, view) for o in listed):
                    return False
                # an exception's option right after an option the spec does not know may
                # be that option's value (`patch -B --help -i x.patch`, `dar -B --version`:
                # review CN6), so it lifts nothing
                return None if unknown or listed else True
            case ConditionKind.ONLY:
                if any(_listed(o.name, items, starts, False) is False for o in view.options):
                    return False
                return None if unknown else True
            case ConditionKind.OPERAND:
                assert condition.regex is not None  # INVARIANT: the compiler sets it
                return _operand_matches(self._words, view, condition.regex)
            case ConditionKind.FIRST_OPERAND:
                assert condition.regex is not None  # INVARIANT: the compiler sets it
                return _first_operand_matches(self._words, view, condition.regex)
            case _:
                assert_never(condition.kind)

    def _exact_names(self) -> bool:
        """Whether the program reads long options by their exact names only (pflag:
        `--user` is no `--userns`, `--init` no `--init-path`, `--use` no `--userns`; an
        abbreviation is an error there), so no word counts as an abbreviation."""
        name = self._words[0].value if self._words else None
        if name is None or name.rsplit("/", 1)[-1] not in _EXACT_NAMES:
            return False
        # `podman compose` hands its words to podman-compose, whose argparse takes them
        return len(self._words) < 2 or self._words[1].value != "compose"

    def _standing(self, options: tuple[Option, ...], items: frozenset[str]) -> tuple[Option, ...]:
        """The options still set when the parser has read them all.

        git's parse-options reads `--no-NAME`, and any unique prefix of it (`--no-lis`),
        as clearing NAME again: `git config --get --no-get KEY VALUE` sets KEY, `git
        branch --list --no-list NAME` creates NAME (review FG1, FG6), `git apply --check
        --no-check` applies (FG3). GNU getopt has no such negation: other programs keep
        every option they were given.
        """
        name = self._words[0].value if self._words else None
        if name is None or name.rsplit("/", 1)[-1] != "git":
            return options
        return tuple(
            option for i, option in enumerate(options)
            if not any(_negates(later.name, option.name, items) for later in options[i + 1:])
        )


def _negates(later: str, name: str, items: frozenset[str]) -> bool:
    """Whether git may read the option word `later` as clearing the earlier option `name`.

    Errs towards "cleared" (review FG1): either name may be an abbreviation, so a prefix
    either way counts; a short option (`-l`) is cleared by a negation that starts with
    its letter (`--no-list`) or that names a listed long option (its long spelling).
    """
    if later.startswith("--no-") and len(later) > 5:
        negated = later[5:]
        if name.startswith("--"):
            return _prefix_either(name[2:], negated)
        if len(name) == 2 and name.startswith("-"):
            return negated.startswith(name[1]) or any(
                _prefix_either(item[2:], negated) for item in items if item.startswith("--")
            )
        return False
    # `--no-contains X --contains Y`: the plain form clears a `--no-` option in turn
    if name.startswith("--no-") and later.startswith("--") and len(later) > 2:
        return _prefix_either(name[5:], later[2:])
    return False


def _prefix_either(one: str, other: str) -> bool:
    return bool(one) and bool(other) and (one.startswith(other) or other.startswith(one))


def _may_be_a_value(option: Option, view: OptionView) -> bool:
    """Whether `option` may be the value of an option the spec does not know, in the word
    before it or earlier in its own bundle (whose value the view could not tell)."""
    before = option.word_index - 1
    for other in view.options:
        if other is option:
            # (an unknown letter earlier in its own bundle may take the rest as its value:
            # `at -ql` is queue `l`, review CO2)
            return False
        if not other.known and other.value is None and not other.arg_indexes and (
            other.word_index in (before, option.word_index)
        ):
            return True
    return False


# programs built on pflag (cobra), which takes no abbreviation of a long option: the
# container engines, whose rules list `--userns`, `--init-path`, `--network-cmd-path`
# beside their everyday `--user`, `--init`, `--network` (review HF4)
_EXACT_NAMES: frozenset[str] = frozenset({"docker", "podman", "nerdctl", "finch", "buildah"})


def _listed(name: str, items: frozenset[str], starts: tuple[str, ...], abbreviations: bool) -> bool:
    """`name` is one of `items`, starts with one of `starts` (`--config.*`), or (with
    `abbreviations`) is a `--` prefix of one of them."""
    if name in items:
        return True
    if starts and name.startswith(starts):
        return True
    # any prefix past `--` counts: git takes `--w` for `--web` when it is unique
    if not abbreviations or not name.startswith("--") or len(name) < 3:
        return False
    return any(item.startswith(name) for item in items)


@functools.lru_cache(maxsize=512)
def _scan_all(spec: OptionSpec) -> OptionSpec:
    """The spec without POSIX "options end at the first operand": clauses see every word
    (`git ** unless --output` must see `git log --output=x`), and less's options after a
    file too (the stricter reading for an `unless`)."""
    if not spec.stop_at_operand and not spec.options_first:
        return spec
    return dataclasses.replace(spec, stop_at_operand=False, options_first=False)


def _operand_matches(
    words: Sequence[Word], view: OptionView, regex: LazyRegex
) -> bool | None:
    # a word that may be an option may be an operand too (`ps x$(echo e)`, review CF4)
    uncertain = bool(view.unknown)
    for index in view.operands:
        value = words[index].value
        if value is None:
            uncertain = True
        elif regex.fullmatch(value) or (
            "/" in value and regex.fullmatch(_tidy_path(value)) is not None
        ):
            return True
    return None if uncertain else False


def _first_operand_matches(
    words: Sequence[Word], view: OptionView, regex: LazyRegex
) -> bool | None:
    """Whether the first operand matches: the verb position of a tool whose options come
    before its verb (`docker compose -f a.yml config`, review GM5). An option the spec
    does not know, with no value of its own, may take the next word as its value (`--foo
    x config`): a later operand may then be that first operand, and if one matches (or
    is not literal) the clause may match."""
    operands = view.operands
    if not operands:
        return None if view.unknown else False
    first = operands[0]
    if view.unknown and min(view.unknown) < first:
        return None  # a word that may be an option, a value or the operand itself
    value = words[first].value
    if value is None:
        return None
    if _operand_value_matches(value, regex):
        return True
    if not any(_may_take(option, first) for option in view.options):
        return False
    later = [words[index].value for index in operands[1:]]
    return None if any(v is None or _operand_value_matches(v, regex) for v in later) else False


def _may_take(option: Option, first: int) -> bool:
    """Whether an option before the word `first` is one the spec does not know that could
    have taken a separate value word (pflag and argparse take it even after `--foo`)."""
    return (
        option.word_index < first
        and not option.known
        and option.value is None
        and not option.arg_indexes
    )


def _operand_value_matches(value: str, regex: LazyRegex) -> bool:
    return regex.fullmatch(value) is not None or (
        "/" in value and regex.fullmatch(_tidy_path(value)) is not None
    )


_SLASHES = re.compile(r"/(?:\.?/)+")


def _tidy_path(value: str) -> str:
    """`value` as the same path without doubled `/`, `/./` or a trailing `/` or `/.`:
    `rm -rf /usr/` deletes what `rm -rf /usr` does, and only the second had matched
    `operand /usr` (review AN4). `..` is left alone: it may cross a link."""
    tidy = _SLASHES.sub("/", value)
    if tidy.endswith("/."):
        tidy = tidy[:-2] or "/"
    return tidy.rstrip("/") or "/"


# --------------------------------------------------------------------------- expectations


@dataclass(frozen=True, slots=True, kw_only=True)
class Expectation:
    command: str
    verdict: Verdict
    retention: Retention | None
    location: str
    rule: str | None = None  # `by ID`: a reason of the verdict must name this rule
    source: SourceText = field(compare=False, repr=False)
    span: Span = field(compare=False, repr=False)


def check_expectations(
    policy: CompiledPolicy,
    evaluate: Callable[[str], Decision],
) -> tuple[Diagnostic, ...]:
    """Evaluate every inline expectation; one `rules.expectation-failed` diagnostic per miss.

    `evaluate` is the engine's (the compiler cannot import it). With `by ID`, a reason of
    the decision's own verdict must name rule ID: `expect deny "cat deploy-keys/k" by
    org-keys` fails when another rule denies it and the org's own is broken (review AX6).
    """
    diagnostics: list[Diagnostic] = []
    for expect in policy.expectations:
        decision = evaluate(expect.command)
        verdict, retention = decision.verdict, decision.retention
        deciding = [r.rule_id for r in decision.reasons if r.verdict is verdict]
        got = f"{verdict}" + (f" retention {retention}" if expect.retention else "")
        want = f"{expect.verdict}" + (f" retention {expect.retention}" if expect.retention else "")
        if expect.rule is not None:
            got += f" by {', '.join(deciding) or 'no rule'}"
            want += f" by {expect.rule}"
        if (
            verdict is expect.verdict
            and (expect.retention is None or retention is expect.retention)
            and (expect.rule is None or expect.rule in deciding)
        ):
            continue
        diagnostics.append(
            Diagnostic(
                code="rules.expectation-failed",
                message=f"expected `{want}` for `{expect.command}`, got `{got}`",
                source=expect.source,
                span=expect.span,
                help="run `policylang explain` on the command to see which rules decided",
            )
        )
    return tuple(diagnostics)


# --------------------------------------------------------------------------- the policy


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledPolicy:
    """Everything the engine needs, immutable. Built by `policylang.compiler.compile_ruleset`."""

    name: str
    version: str | None
    default: Verdict
    default_ref: RuleRef | None
    sources: tuple[str, ...]  # file names, in layer order (index = layer)
    arity: ArityTable
    tree: RuleTree
    protected: ProtectedTable
    disqualifiers: DisqualifierTable
    wrappers: WrapperTable
    shells: frozenset[str]
    interpreters: Mapping[str, InterpreterSpec]
    runners: RunnerTable = field(default_factory=RunnerTable)
    env: EnvTable
    path_args: PathArgTable
    expectations: tuple[Expectation, ...] = ()
    # the policies of the earlier layers alone, where a later layer changes how commands
    # are read (wrappers, option specs, path roles, interpreters, expansion, environment
    # or outside-workspace settings): their denies and locked asks hold under their own
    # reading, whatever the later layer says (review AO1-AO7)
    floors: tuple[CompiledPolicy, ...] = ()

    def lookup(self, words: Sequence[Word]) -> RuleMatch | None:
        """Shorthand for `self.tree.lookup(words)`."""
        return self.tree.lookup(words)

    def match_protected(
        self,
        path: str,
        access: Access,
        *,
        home: str,
        workspace: str,
        subtree: bool = False,
        removal: bool = False,
    ) -> ProtectedMatch | None:
        """Shorthand for `self.protected.match_protected(...)`."""
        return self.protected.match_protected(
            path, access, home=home, workspace=workspace, subtree=subtree, removal=removal
        )

    def dump(self) -> str:
        """A readable listing of the compiled policy (`policylang compile --dump`)."""
        from policylang.compiler.dump import dump_policy

        return dump_policy(self)
