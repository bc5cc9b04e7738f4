"""Validated layers -> `CompiledPolicy`, as an ordered tuple of named passes (OPA style).

Stage: compiler. Imports `rules.ast`, the shell option/wrapper tables and `compiler.*`;
never the engine. Each pass is a small pure function reading the layers and the results
of earlier passes (`_State`) and returning its piece; `compile_layers(..., dump_after=NAME)`
logs the state after a named pass for debugging.

    build-header -> build-arity-table -> build-programs -> build-tree
    -> expand-path-globs -> build-disqualifiers -> build-env -> build-path-args
    -> collect-expectations

Include resolution and validation happen before (`rules.load`, `rules.validate`).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from policylang.compiler import paths
from policylang.compiler.arity import default_arity
from policylang.compiler.checks import CHECKS
from policylang.compiler.defaults import (
    DEFAULT_DISQUALIFIERS,
    DEFAULT_ENV,
    DEFAULT_INTERPRETERS,
    DEFAULT_PATH_ARGS,
    DEFAULT_RUNNERS,
)
from policylang.compiler.tree import (
    Access,
    ArityTable,
    CompiledPolicy,
    CompiledRule,
    Condition,
    ConditionKind,
    DisqualifierEntry,
    DisqualifierTable,
    EnvTable,
    ExpansionAction,
    ExpansionPosition,
    Expectation,
    InterpreterSpec,
    OperandRole,
    OutsideWorkspace,
    PathArgTable,
    PathRoles,
    ProtectedRule,
    ProtectedTable,
    RuleRef,
    RuleTree,
    RunnerTable,
    TrieNode,
    builtin_ref,
)
from policylang.decision import Retention, Verdict
from policylang.rules import ast
from policylang.rules.validate import MAX_PATTERN_PATHS
from policylang.shell.model import ExpansionKind
from policylang.shell.options import DEFAULT_OPTION_SPECS, OptionSpec
from policylang.shell.wrappers import (
    DEFAULT_WRAPPERS,
    Dialect,
    WrapperKind,
    WrapperSpec,
    WrapperTable,
)

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class Layer:
    """One file of the policy; `index` orders layers (includes before includers), and
    `layers[first : index + 1]` are the file with the files its includes brought in, and
    `parent` is the `first` of the file that includes it (-1: a file the caller named)."""

    index: int
    ruleset: ast.RuleSet
    first: int = 0
    parent: int = -1
    arity_files: Mapping[str, Mapping[tuple[str, ...], int]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.ruleset.source.name

    def location(self, node: Any) -> str:
        return self.ruleset.source.location(node.span)


@dataclass(slots=True)
class _State:
    layers: tuple[Layer, ...]
    parts: dict[str, Any] = field(default_factory=dict)


def _statements(layers: tuple[Layer, ...], kind: type[Any]) -> Iterator[tuple[Layer, Any]]:
    for layer in layers:
        for statement in layer.ruleset.statements:
            if isinstance(statement, kind):
                yield layer, statement


def _ref(layer: Layer, node: Any, rule_id: str | None, message: str) -> RuleRef:
    location = layer.location(node)
    line_id = location.rsplit(":", 1)[0]
    return RuleRef(id=rule_id or line_id, location=location, message=message, layer=layer.index)


# --------------------------------------------------------------------------- passes


def build_header(state: _State) -> dict[str, Any]:
    """Name and version of the last file that has a header; the strictest `default`."""
    name, version = state.layers[-1].name, None
    for _layer, header in _statements(state.layers, ast.Header):
        name, version = header.name, header.version
    default, default_ref = Verdict.ASK, builtin_ref("default", "no rule covers this command")
    found = False
    for layer, statement in _statements(state.layers, ast.Default):
        verdict = Verdict(statement.verdict)
        if not found or verdict.rank >= default.rank:
            ref = _ref(layer, statement, None, "no rule covers this command")
            default, default_ref, found = verdict, ref, True
    return {"name": name, "version": version, "default": default, "default_ref": default_ref}


def build_arity_table(state: _State) -> ArityTable:
    """The shipped table, then arity files, then `arity` lines (later layers override)."""
    entries: dict[tuple[str, ...], int] = dict(default_arity())
    for layer in state.layers:
        for statement in layer.ruleset.statements:
            if isinstance(statement, ast.ArityFile):
                entries.update(layer.arity_files.get(statement.path, {}))
            elif isinstance(statement, ast.Arity):
                entries[tuple(w.value for w in statement.words)] = int(statement.count.value)
    longest = max((len(k) for k in entries), default=1)
    return ArityTable(entries=MappingProxyType(entries), longest=longest)


def specificity(rule: ast.Rule) -> tuple[int, ...]:
    """(leading literals, literals, globs, fixed words, exact=1/rest=0, option clauses)."""
    kinds = [w.kind for w in rule.pattern]
    leading = 0
    while leading < len(kinds) and kinds[leading] is ast.WordKind.LITERAL:
        leading += 1
    literals = kinds.count(ast.WordKind.LITERAL)
    globs = kinds.count(ast.WordKind.GLOB)
    rest = kinds.count(ast.WordKind.REST)
    exact = 0 if kinds[-1] is ast.WordKind.REST else 1
    clauses = sum(1 for c in rule.clauses if c.kind not in _NAMING_CLAUSES)
    return (leading, literals, globs, len(kinds) - rest, exact, clauses)


# clauses that do not narrow which commands a rule is about: names, and checks (a check
# only keeps an allow rule from allowing; counted, it made `readonly git … checked-by …`
# outrank `ask git blame ** when -S`)
_NAMING_CLAUSES = frozenset({ast.ClauseKind.REASON, ast.ClauseKind.ID, ast.ClauseKind.CHECKED_BY})


def pattern_text(rule: ast.Rule) -> str:
    from policylang.rules.format import format_pattern

    return format_pattern(rule.pattern)


_CONDITION_KINDS = frozenset(k.value for k in ConditionKind)


def _condition(kind: ConditionKind, items: frozenset[str]) -> Condition:
    if kind not in (ConditionKind.OPERAND, ConditionKind.FIRST_OPERAND):
        # `--config.*`: validated to be one `*` at the end of a long option's start
        starts = tuple(sorted(item[:-1] for item in items if item.endswith("*")))
        return Condition(kind=kind, items=items, prefixes=starts)
    alternatives = "|".join(f"(?:{paths.glob_regex(item).pattern})" for item in sorted(items))
    return Condition(kind=kind, items=items, regex=paths.LazyRegex(alternatives, re.DOTALL))


def _compile_rule(layer: Layer, rule: ast.Rule) -> CompiledRule:
    conditions = tuple(
        _condition(ConditionKind(c.kind.value), frozenset(n.value for n in c.items))
        for c in rule.clauses
        if c.kind.value in _CONDITION_KINDS
    )
    explicit = rule.explicit_id
    text = pattern_text(rule)
    message = rule.reason or f"{rule.verdict} rule `{text}`"
    verdict = Verdict.ALLOW if rule.verdict is ast.RuleVerdict.READONLY else Verdict(rule.verdict)
    return CompiledRule(
        ref=_ref(layer, rule, explicit.value if explicit else None, message),
        verdict=verdict,
        readonly=rule.verdict is ast.RuleVerdict.READONLY,
        locked=rule.locked,
        pattern=text,
        conditions=conditions,
        checks=tuple(n.value for n in rule.clause_items(ast.ClauseKind.CHECKED_BY)),
        specificity=specificity(rule),
    )


@dataclass(slots=True)
class _Builder:
    children: dict[str, _Builder] = field(default_factory=dict)
    globs: dict[str, _Builder] = field(default_factory=dict)
    wildcard: _Builder | None = None
    exact: list[CompiledRule] = field(default_factory=list)
    rest: list[CompiledRule] = field(default_factory=list)

    def freeze(self) -> TrieNode:
        children = self.children
        globs = tuple(
            (glob, paths.glob_regex(glob), child.freeze())
            for glob, child in sorted(self.globs.items())
        )
        return TrieNode(
            children=MappingProxyType({k: v.freeze() for k, v in children.items()})
            if children
            else _NO_CHILDREN,
            globs=globs,
            any_glob=_alternation([regex for _glob, regex, _child in globs]),
            wildcard=self.wildcard.freeze() if self.wildcard is not None else None,
            exact=_order(self.exact),
            rest=_order(self.rest),
        )


_NO_CHILDREN: Mapping[str, TrieNode] = MappingProxyType({})


def _alternation(regexes: Sequence[paths.LazyRegex]) -> paths.LazyRegex | None:
    """One regex that full-matches what any of several word-glob regexes does (they have
    no capturing group and the same flags: `glob_regex`'s); None for fewer than two."""
    if len(regexes) < 2 or len({regex.flags for regex in regexes}) != 1:
        return None
    joined = "|".join(f"(?:{regex.pattern})" for regex in regexes)
    try:
        groups = re.compile(joined, regexes[0].flags).groups
    except re.error:
        return None
    # (a group could be referred to by number, which joining renumbers: tried one by one)
    return paths.LazyRegex(joined, regexes[0].flags) if groups == 0 else None


def _order(rules: list[CompiledRule]) -> tuple[CompiledRule, ...]:
    """Most specific (then strictest) first: the order `dump` lists a node's rules in."""
    if len(rules) < 2:
        return tuple(rules)
    return tuple(sorted(rules, key=lambda r: (r.specificity, r.verdict.rank), reverse=True))


def _insert(root: _Builder, pattern: tuple[ast.PatternWord, ...], rule: CompiledRule) -> None:
    fixed = [w for w in pattern if not w.is_rest]
    rest = bool(pattern) and pattern[-1].is_rest
    choices: list[tuple[tuple[str, bool] | None, ...]] = [
        (None,)
        if w.is_any
        else tuple((a, w.is_glob and ast.is_glob_text(a)) for a in w.alternatives)
        for w in fixed
    ]
    for path in itertools.islice(itertools.product(*choices), MAX_PATTERN_PATHS):
        node = root
        for step in path:
            if step is None:
                node.wildcard = node.wildcard or _Builder()
                node = node.wildcard
            elif step[1]:
                node = node.globs.setdefault(step[0], _Builder())
            else:
                node = node.children.setdefault(step[0], _Builder())
        (node.rest if rest else node.exact).append(rule)


def build_tree(state: _State) -> RuleTree:
    """The command-rule trie (alternatives expand into separate paths)."""
    root = _Builder()
    count = 0
    for layer, rule in _statements(state.layers, ast.Rule):
        _insert(root, rule.pattern, _compile_rule(layer, rule))
        count += 1
    return RuleTree(
        root=root.freeze(),
        option_specs=state.parts["build-programs"]["option_specs"],
        checks=CHECKS,
        rule_count=count,
    )


# the homes of other accounts, where a `~/…` glob protects the same files: an agent that
# runs as root reads `/home/bob/.my.cnf` as easily as its own `~/.my.cnf`
_OTHER_HOMES = ("/root", "/home/*", "/Users/*")


def _every_home(glob: str) -> tuple[str, ...]:
    """`~/.my.cnf` → itself, `/root/.my.cnf`, `/home/*/.my.cnf`, `/Users/*/.my.cnf`."""
    anchor, rest = paths.split_anchor(glob)
    if anchor != paths.HOME:
        return (glob,)
    return (glob, *(f"{home}/{rest}" if rest else home for home in _OTHER_HOMES))


def _protected_rule(glob: str, access: Access, verdict: Verdict, ref: RuleRef) -> ProtectedRule:
    anchor, rest = paths.split_anchor(glob)
    prefix = paths.literal_prefix(rest)
    return ProtectedRule(
        glob=glob,
        access=access,
        verdict=verdict,
        ref=ref,
        anchor=anchor,
        regex=paths.glob_regex(rest),
        literal_prefix=prefix,
    )


def expand_path_globs(state: _State) -> ProtectedTable:
    """Protected-path rules and the outside-workspace rule, globs compiled to regexes."""
    rules: list[ProtectedRule] = []
    for layer, statement in _statements(state.layers, ast.Protect):
        rule_id = statement.rule_id.value if statement.rule_id else None
        message = statement.reason or f"protected path ({statement.access})"
        ref = _ref(layer, statement, rule_id, message)
        for glob in statement.globs:
            for spelled in _every_home(glob.value):
                rules.append(
                    _protected_rule(
                        spelled, Access(statement.access), Verdict(statement.verdict), ref
                    )
                )
    outside = OutsideWorkspace()
    for layer, statement in _statements(state.layers, ast.OutsideWorkspace):
        access = Access(statement.access)
        ref = _ref(layer, statement, None, f"{access} outside the workspace")
        verdict = Verdict(statement.verdict)
        exceptions = tuple(
            _protected_rule(g.value, access, Verdict.ALLOW, ref) for g in statement.exceptions
        )
        changes: dict[str, Any] = {"exceptions": outside.exceptions + exceptions}
        if access.covers(Access.READ):
            changes.update(read=verdict, read_ref=ref)
        if access.covers(Access.WRITE):
            changes.update(write=verdict, write_ref=ref)
        outside = dataclasses.replace(outside, **changes)
    return ProtectedTable(rules=tuple(rules), outside=outside)


_ACTION_RANK = {
    ExpansionAction.ALLOW: 0,
    ExpansionAction.INSPECT: 1,
    ExpansionAction.ASK: 2,
    ExpansionAction.DENY: 3,
}


def build_disqualifiers(state: _State) -> DisqualifierTable:
    """Defaults, then directives: the most specific wins; equally specific -> the strictest."""
    entries = {
        key: DisqualifierEntry(action=a, ref=None) for key, a in DEFAULT_DISQUALIFIERS.items()
    }
    best: dict[tuple[ExpansionKind, ExpansionPosition], tuple[int, int]] = {}
    for layer, statement in _statements(state.layers, ast.Expansion):
        action = ExpansionAction(statement.action)
        ref = _ref(layer, statement, None, f"{action} for this expansion here")
        kinds = _kinds(statement.kinds)
        positions = _positions(statement.positions)
        weight = sum(
            1
            for names in (statement.kinds, statement.positions)
            if "*" not in {n.value for n in names}
        )
        for key in itertools.product(kinds, positions):
            rank = (weight, _ACTION_RANK[action])
            if key not in best or rank > best[key]:
                best[key] = rank
                entries[key] = DisqualifierEntry(action=action, ref=ref)
    return DisqualifierTable(entries=MappingProxyType(entries))


def _kinds(names: tuple[ast.Name, ...]) -> list[ExpansionKind]:
    if any(n.value == "*" for n in names):
        return list(ExpansionKind)
    return [ExpansionKind(n.value) for n in names]


def _positions(names: tuple[ast.Name, ...]) -> list[ExpansionPosition]:
    if any(n.value == "*" for n in names):
        return list(ExpansionPosition)
    return [ExpansionPosition(n.value) for n in names]


def _merge_spec(base: OptionSpec, decl: ast.OptionSpecDecl) -> OptionSpec:
    def names(items: tuple[ast.Name, ...]) -> frozenset[str]:
        return frozenset(n.value for n in items)

    return dataclasses.replace(
        base,
        takes_value=base.takes_value | names(decl.value),
        optional_value=base.optional_value | names(decl.optional),
        single_dash_long=base.single_dash_long | names(decl.long),
        flags=base.flags | names(decl.flag),
    )


def _option_specs(layers: tuple[Layer, ...]) -> dict[str, OptionSpec]:
    specs: dict[str, OptionSpec] = dict(DEFAULT_OPTION_SPECS)
    for _layer, statement in _statements(layers, ast.Options):
        name = statement.command.value
        specs[name] = _merge_spec(specs.get(name, OptionSpec()), statement.spec)
    return specs


def _wrapper_table(layers: tuple[Layer, ...]) -> tuple[WrapperTable, frozenset[str]]:
    """The shell analyser's table extended by `wrapper` and `shell` lines; the shell names."""
    table = DEFAULT_WRAPPERS
    for _layer, statement in _statements(layers, ast.Wrapper):
        name = statement.name.value
        base = table.get(name) or WrapperSpec(name=name, options=OptionSpec(stop_at_operand=True))
        positionals = statement.positionals
        spec = dataclasses.replace(
            base,
            options=_merge_spec(base.options, statement.spec),
            positionals=int(positionals.value) if positionals else base.positionals,
            assignments=base.assignments or statement.assignments,
        )
        table = table.extend([spec])
    shells = {s.name for s in table if s.kind is WrapperKind.SHELL}
    template = table.get("bash")
    for _layer, statement in _statements(layers, ast.Shells):
        for shell in statement.names:
            shells.add(shell.value)
            if template is not None and shell.value not in table:
                # a shell the analyser does not know may read its code otherwise than bash
                # does: its strings are still parsed (a deny holds) but always at least ask
                named = dataclasses.replace(template, name=shell.value, dialect=Dialect.FOREIGN)
                table = table.extend([named])
    return table, frozenset(shells)


def _interpreters(layers: tuple[Layer, ...]) -> dict[str, InterpreterSpec]:
    interpreters: dict[str, InterpreterSpec] = dict(DEFAULT_INTERPRETERS)
    for layer, statement in _statements(layers, ast.Interpreter):
        message = f"code run by an interpreter is at least {statement.floor}"
        ref = _ref(layer, statement, None, message)
        for name in statement.names:
            interpreters[name.value] = InterpreterSpec(
                name=name.value,
                floor=Verdict(statement.floor),
                inline=frozenset(n.value for n in statement.inline),
                program_operand=statement.program_operand,
                ref=ref,
            )
    return interpreters


def _runners(layers: tuple[Layer, ...]) -> RunnerTable:
    """The built-in runners extended by every layer's `runner` lines."""
    names = [n.value for _layer, s in _statements(layers, ast.Runners) for n in s.names]
    return DEFAULT_RUNNERS.extend(names)


def build_programs(state: _State) -> dict[str, Any]:
    """Option specs, the wrapper table, shells, runners and interpreters."""
    table, shells = _wrapper_table(state.layers)
    return {
        "runners": _runners(state.layers),
        "option_specs": MappingProxyType(_option_specs(state.layers)),
        "wrappers": table,
        "shells": shells,
        "interpreters": MappingProxyType(_interpreters(state.layers)),
    }


def build_env(state: _State) -> EnvTable:
    """Env rules; the built-in assignment table applies only when no layer says anything
    about assignments (`env secret` lines are not about assignments)."""
    every = list(_statements(state.layers, ast.Env))
    secrets = tuple(
        (n.value, _ref(layer, statement, None, "the value of this variable is a secret"))
        for layer, statement in every
        if statement.kind == "secret"
        for n in statement.names
    )
    statements = [(layer, s) for layer, s in every if s.kind != "secret"]
    if not statements:
        return dataclasses.replace(DEFAULT_ENV, secrets=secrets)
    rules: list[tuple[str, Verdict, RuleRef | None]] = []
    default, default_ref = Verdict.ASK, None
    for layer, statement in statements:
        if statement.kind == "default":
            default = Verdict(statement.verdict or "ask")
            default_ref = _ref(layer, statement, None, "environment variable not listed")
            continue
        verdict = Verdict.ALLOW if statement.kind == "free" else Verdict(statement.kind)
        ref = _ref(layer, statement, None, f"setting this variable is {statement.kind}")
        rules.extend((n.value, verdict, ref) for n in statement.names)
    return EnvTable(rules=tuple(rules), default=default, default_ref=default_ref, secrets=secrets)


def build_path_args(state: _State) -> PathArgTable:
    """The built-in path-argument roles, extended and overridden per command."""
    table: dict[str, PathRoles] = dict(DEFAULT_PATH_ARGS.commands)
    for _layer, statement in _statements(state.layers, ast.PathArgs):
        for command in statement.commands:
            roles = table.get(command.value, PathRoles())
            if statement.form == "operands":
                roles = dataclasses.replace(roles, operands=OperandRole(statement.role))
            elif statement.form == "option":
                options = {
                    **roles.options,
                    **{n.value: Access(statement.role) for n in statement.items},
                }
                roles = dataclasses.replace(roles, options=MappingProxyType(options))
            else:
                keys = {**roles.keys, **{n.value: Access(statement.role) for n in statement.items}}
                roles = dataclasses.replace(roles, keys=MappingProxyType(keys))
            table[command.value] = roles
    return PathArgTable(commands=MappingProxyType(table))


def collect_expectations(state: _State) -> tuple[Expectation, ...]:
    return tuple(
        Expectation(
            command=statement.command,
            verdict=Verdict(statement.verdict),
            retention=Retention(statement.retention.value) if statement.retention else None,
            rule=statement.rule.value if statement.rule else None,
            location=layer.location(statement),
            source=layer.ruleset.source,
            span=statement.span,
        )
        for layer, statement in _statements(state.layers, ast.Expect)
    )


PASSES: tuple[tuple[str, Callable[[_State], Any]], ...] = (
    ("build-header", build_header),
    ("build-arity-table", build_arity_table),
    ("build-programs", build_programs),  # build-tree reads its option specs
    ("build-tree", build_tree),
    ("expand-path-globs", expand_path_globs),
    ("build-disqualifiers", build_disqualifiers),
    ("build-env", build_env),
    ("build-path-args", build_path_args),
    ("collect-expectations", collect_expectations),
)


def compile_layers(layers: tuple[Layer, ...], *, dump_after: str | None = None) -> CompiledPolicy:
    """Run every pass over validated layers and assemble the `CompiledPolicy`.

    The layers must be free of validation errors (`rules.validate`); the passes assume
    every value converts.
    """
    state = _State(layers=layers)
    for name, function in PASSES:
        state.parts[name] = function(state)
        if name == dump_after:
            _log.info("after %s: %r", name, state.parts[name])
    header = state.parts["build-header"]
    programs = state.parts["build-programs"]
    return CompiledPolicy(
        name=header["name"],
        version=header["version"],
        default=header["default"],
        default_ref=header["default_ref"],
        sources=tuple(layer.name for layer in layers),
        arity=state.parts["build-arity-table"],
        tree=state.parts["build-tree"],
        protected=state.parts["expand-path-globs"],
        disqualifiers=state.parts["build-disqualifiers"],
        wrappers=programs["wrappers"],
        shells=programs["shells"],
        runners=programs["runners"],
        interpreters=programs["interpreters"],
        env=state.parts["build-env"],
        path_args=state.parts["build-path-args"],
        expectations=state.parts["collect-expectations"],
    )
