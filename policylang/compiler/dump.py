"""Readable listing of a `CompiledPolicy` (`policylang compile --dump`); compiler stage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from policylang.shell.model import ExpansionKind

if TYPE_CHECKING:
    from policylang.compiler.tree import CompiledPolicy, CompiledRule, RuleRef


def _rule_line(path: str, rule: CompiledRule) -> str:
    verdict = "readonly" if rule.readonly else str(rule.verdict)
    flags = " locked" if rule.locked else ""
    clauses = " ".join(f"{c.kind} {'|'.join(sorted(c.items))}" for c in rule.conditions)
    checks = " ".join(f"checked-by {name}" for name in rule.checks)
    extra = " ".join(x for x in (clauses, checks) if x)
    extra = f" {extra}" if extra else ""
    return f"  {path or '(empty)'} -> {verdict}{flags}{extra}  [{_where(rule.ref)}]"


def _where(ref: RuleRef) -> str:
    """`id @ file:line:col`, or just the location when the id is the default `file:line`."""
    if ref.location.startswith(f"{ref.id}:"):
        return ref.location
    return f"{ref.id} @ {ref.location}"


def dump_policy(policy: CompiledPolicy) -> str:
    """Every table of the policy, one section each, in a stable order."""
    from policylang.compiler.tree import ExpansionPosition

    version = f" version {policy.version}" if policy.version else ""
    lines = [f"policy {policy.name}{version}", f"default {policy.default}", "layers:"]
    lines.extend(f"  {index}: {name}" for index, name in enumerate(policy.sources))
    lines.append(f"rule tree ({policy.tree.rule_count} rules):")
    lines.extend(_rule_line(path, rule) for path, rule in policy.tree.iter_rules())
    lines.append("protected paths:")
    for prot in policy.protected.rules:
        lines.append(f"  {prot.access} {prot.glob} -> {prot.verdict}  [{_where(prot.ref)}]")
    outside = policy.protected.outside
    excepted = " ".join(e.glob for e in outside.exceptions)
    lines.append(
        f"outside-workspace: read {outside.read}, write {outside.write}"
        + (f" except {excepted}" if excepted else "")
    )
    lines.append("expansion disqualifiers (" + ", ".join(p.value for p in ExpansionPosition) + "):")
    for kind in ExpansionKind:
        row = " ".join(
            f"{policy.disqualifiers.action(kind, p).value:<8}" for p in ExpansionPosition
        )
        lines.append(f"  {kind.value:<22} {row.rstrip()}")
    lines.append("shells: " + " ".join(sorted(policy.shells)))
    verbs = sorted(f'"{" ".join(entry)}"' for entry in policy.runners.verbs)
    runners = [*sorted(policy.runners.programs), *verbs]
    lines.append("runners: " + " ".join(runners))
    lines.append("interpreters:")
    for name, spec in sorted(policy.interpreters.items()):
        inline = " inline " + "|".join(sorted(spec.inline)) if spec.inline else ""
        program = " program-operand" if spec.program_operand else ""
        lines.append(f"  {name}{inline}{program} floor {spec.floor}")
    lines.append(f"env (default {policy.env.default}):")
    lines.extend(
        f"  {glob} -> {'free' if v.rank == 0 else v}" for glob, v, _ref in policy.env.rules
    )
    lines.append("env secret: " + " ".join(glob for glob, _ref in policy.env.secrets))
    lines.append(f"path-args: {len(policy.path_args.commands)} commands")
    lines.append(f"arity: {len(policy.arity.entries)} entries")
    lines.append("expectations:")
    lines.extend(
        f"  {e.verdict} {e.command!r}" + (f" retention {e.retention}" if e.retention else "")
        for e in policy.expectations
    )
    return "\n".join(lines) + "\n"
