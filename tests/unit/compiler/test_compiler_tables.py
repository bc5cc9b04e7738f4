"""The compiled tables: arity, disqualifiers, env, programs, path-args, dump, expectations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rules.helpers import compile_text, lookup, words

from policylang.compiler.arity import (
    ArityFileError,
    add_arity_entry,
    default_arity,
    parse_arity_toml,
)
from policylang.compiler.tree import (
    Access,
    ExpansionAction,
    ExpansionPosition,
    OperandRole,
    check_expectations,
)
from policylang.decision import Decision, Reason, Retention, Verdict
from policylang.shell.model import ExpansionKind
from policylang.shell.wrappers import WrapperKind, unwrap

CORPORA = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpora"


def test_shipped_arity_table_holds_the_opencode_facts() -> None:
    facts = CORPORA / "opencode_arity.tsv"
    if not facts.exists():
        pytest.skip("../shared/corpora is absent")
    table = default_arity()
    rows = [line.split("\t") for line in facts.read_text().splitlines()[1:]]
    assert len(rows) == 136
    for prefix, arity in rows:
        assert table[tuple(prefix.split())] == int(arity)
    assert len(table) > 136


def test_arity_prefix_longest_entry_wins() -> None:
    policy = compile_text("arity docker compose 4\n")
    prefix = policy.arity.prefix
    assert prefix(["docker", "compose", "up", "-d", "web"]) == ("docker", "compose", "up", "-d")
    assert prefix(["docker", "run", "x"]) == ("docker", "run")
    assert prefix(["unknowncmd", "a"]) == ("unknowncmd",)
    assert prefix(["npm"]) == ("npm",)
    assert prefix([]) == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[arity", "invalid TOML"),
        ("x = 1\n", "expected an `[arity]` table"),
        ("[arity]\ngit = true\n", "arity of `git` must be a positive integer"),
        ('[arity]\n"" = 1\n', "empty command prefix"),
    ],
)
def test_arity_toml_errors(text: str, message: str) -> None:
    with pytest.raises(ArityFileError, match=re.escape(message)):
        parse_arity_toml(text)


def test_arity_toml_edit_keeps_comments_and_order() -> None:
    text = '# top\n[arity]\n"b" = 2  # why b\n"a" = 3\n'
    edited = add_arity_entry(text, ("c", "d"), 3)
    assert edited == '# top\n[arity]\n"b" = 2  # why b\n"a" = 3\n"c d" = 3\n'
    assert add_arity_entry(edited, ("b",), 4).splitlines()[2] == '"b" = 4  # why b'
    assert parse_arity_toml(add_arity_entry("", ("x",), 1)) == {("x",): 1}


def test_default_disqualifiers_fail_closed() -> None:
    table = compile_text("allow ls\n").disqualifiers
    for kind in ExpansionKind:
        for position in ExpansionPosition:
            assert isinstance(table.action(kind, position), ExpansionAction)
    argument = ExpansionPosition.ARGUMENT
    name = ExpansionPosition.COMMAND_NAME
    assert table.action(ExpansionKind.COMMAND_SUBSTITUTION, argument) is ExpansionAction.INSPECT
    assert table.action(ExpansionKind.PARAMETER, name) is ExpansionAction.ASK
    assert table.action(ExpansionKind.HISTORY, argument) is ExpansionAction.ASK
    assert table.entry(ExpansionKind.GLOB, argument).ref is None


def test_disqualifier_directives_most_specific_then_strictest() -> None:
    policy = compile_text(
        "expansion * in * deny\n"
        "expansion parameter in argument allow\n"
        "expansion glob|brace in argument ask\n"
        "expansion glob in argument deny\n"
    )
    table = policy.disqualifiers
    argument = ExpansionPosition.ARGUMENT
    assert table.action(ExpansionKind.PARAMETER, argument) is ExpansionAction.ALLOW
    assert table.action(ExpansionKind.GLOB, argument) is ExpansionAction.DENY
    assert table.action(ExpansionKind.BRACE, argument) is ExpansionAction.ASK
    assert table.action(ExpansionKind.TILDE, ExpansionPosition.HEREDOC_BODY) is ExpansionAction.DENY
    entry = table.entry(ExpansionKind.PARAMETER, argument)
    assert entry.ref is not None
    assert entry.ref.location == "t.policy:2:1"
    assert ExpansionAction.DENY.floor is Verdict.DENY
    assert ExpansionAction.INSPECT.floor is Verdict.ALLOW


def test_env_defaults_and_directives() -> None:
    builtin = compile_text("allow ls\n").env
    assert builtin.floor("LC_ALL") is Verdict.ALLOW
    assert builtin.floor("LD_PRELOAD") is Verdict.ASK
    assert builtin.floor("WHATEVER") is Verdict.ASK
    env = compile_text("env free FOO_* LANG\nenv deny FOO_SECRET\nenv default allow\n").env
    assert env.floor("FOO_X") is Verdict.ALLOW
    assert env.floor("FOO_SECRET") is Verdict.DENY  # the strictest matching glob
    assert env.floor("OTHER") is Verdict.ALLOW
    assert env.floor("LD_PRELOAD") is Verdict.ALLOW  # the policy replaced the built-ins
    match = env.match("FOO_SECRET")
    assert match.glob == "FOO_SECRET"
    assert match.ref is not None


def test_env_secret_globs_ignore_case_and_leave_assignments_alone() -> None:
    env = compile_text("allow ls\nenv secret *TOKEN* AWS_*\n").env
    glob, ref = env.secret("gh_token") or ("", None)
    assert glob == "*TOKEN*"
    assert ref is not None
    assert ref.location.endswith(":2:1")
    assert env.secret("AWS_PROFILE") is not None
    assert env.secret("HOME") is None
    assert env.secret("TOKENS_DIR") is not None  # `*` matches nothing too
    # `env secret` says nothing about assignments: the built-in assignment table stays
    assert env.floor("LC_ALL") is Verdict.ALLOW
    assert env.floor("LD_PRELOAD") is Verdict.ASK
    assert compile_text("allow ls\n").env.secret("GITHUB_TOKEN") is None
    assert "env secret: *TOKEN* AWS_*" in compile_text("env secret *TOKEN* AWS_*\n").dump()


def test_programs_wrappers_shells_interpreters_options() -> None:
    policy = compile_text(
        "wrapper mywrap value -t positionals 1\n"
        "shell fish\n"
        "interpreter python3 inline -c floor deny\n"
        'options "git log" value --format\n'
        "allow git log ** unless --output\n"
    )
    assert "fish" in policy.shells
    fish = policy.wrappers.get("fish")
    assert fish is not None
    assert fish.kind is WrapperKind.SHELL
    unwrapped = unwrap(words("mywrap -t 5 DUR rm -rf x"), policy.wrappers)
    assert [w.value for w in unwrapped.words] == ["rm", "-rf", "x"]
    assert policy.interpreters["python3"].floor is Verdict.DENY
    assert policy.interpreters["node"].inline >= {"-e"}
    assert policy.interpreters["awk"].program_operand
    # `--format --output` : the value of --format is not an option
    match = lookup(policy, "git log --format --output")
    assert match is not None
    assert match.verdict is Verdict.ALLOW
    assert lookup(policy, "git log --output x") is None


def test_path_args() -> None:
    table = compile_text(
        "path-args write mytool\npath-args option mytool -o write\npath-args key dd of read\n"
    ).path_args
    mytool = table.roles("mytool")
    assert mytool is not None
    assert mytool.operands is OperandRole.WRITE
    assert mytool.options == {"-o": Access.WRITE}
    dd = table.roles("dd")
    assert dd is not None
    assert dd.keys["of"] is Access.READ  # the policy overrode the built-in
    cp = table.roles("cp")
    assert cp is not None
    assert cp.operands is OperandRole.COPY
    assert table.roles("nosuchcommand") is None


def test_expectations_and_check_expectations() -> None:
    policy = compile_text(
        'allow ls ** id list\nexpect allow "ls"\nexpect ask "ls -l" retention durable\n'
        'expect allow "ls -a" by list\n'
    )
    assert [(e.command, e.verdict, e.retention, e.rule) for e in policy.expectations] == [
        ("ls", Verdict.ALLOW, None, None),
        ("ls -l", Verdict.ASK, Retention.DURABLE, None),
        ("ls -a", Verdict.ALLOW, None, "list"),
    ]
    assert [e.location for e in policy.expectations] == [
        "t.policy:2:1", "t.policy:3:1", "t.policy:4:1"
    ]

    def decided(verdict: Verdict, retention: Retention | None, rule: str) -> Decision:
        reason = Reason(rule_id=rule, message="m", verdict=verdict)
        return Decision(command="x", verdict=verdict, retention=retention,
                        concurrency_safe=False, reasons=(reason,))

    def evaluate(command: str) -> Decision:
        match = lookup(policy, command)
        if match is None or command == "ls -l":
            return decided(policy.default, Retention.DURABLE, "default")
        return decided(match.verdict, match.retention, match.rule.id)

    assert check_expectations(policy, evaluate) == ()

    def wrong(command: str) -> Decision:
        return decided(Verdict.ASK, Retention.REQUERY, "other")

    failures = check_expectations(policy, wrong)
    assert [d.underlined for d in failures] == [
        'expect allow "ls"',
        'expect ask "ls -l" retention durable',
        'expect allow "ls -a" by list',
    ]

    def other_rule(command: str) -> Decision:  # the right verdict, from another rule
        return decided(Verdict.ALLOW, None, "other")

    failures = check_expectations(policy, other_rule)
    assert [d.message for d in failures][1:] == [
        "expected `allow by list` for `ls -a`, got `allow by other`"
    ]


def test_dump_lists_every_table() -> None:
    dump = compile_text(
        'policy "d" version "2"\nlocked readonly git log ** unless --output id g\n'
        'protect write ~/.ssh/** deny\nexpect allow "git log"\n'
    ).dump()
    for needle in (
        "policy d version 2",
        "git log ** -> readonly locked unless --output  [g @ t.policy:2:1]",
        "write ~/.ssh/** -> deny",
        "outside-workspace: read allow, write ask",
        "command-substitution   ask      inspect",
        "interpreters:",
        "env (default ask):",
        "arity: ",
        "allow 'git log'",
    ):
        assert needle in dump
