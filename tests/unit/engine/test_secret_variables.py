"""Variables that hold secrets (`env secret`): expanding or printing one asks.

An agent's environment often holds tokens (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`); what a
command prints reaches the model, and from there any later allowed command. So a secret
is as protected in a variable as in `~/.aws/credentials`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policylang.decision import Decision, Verdict
from policylang.engine.envpoison import printed_variables
from policylang.engine.policy import load_policy

A, Q, D = Verdict.ALLOW, Verdict.ASK, Verdict.DENY

CASES = [
    ("echo $GITHUB_TOKEN", Q),
    ('echo "${AWS_SECRET_ACCESS_KEY:0:4}"', Q),
    ("echo ${#NPM_TOKEN}", Q),
    ("printf %s $db_password", Q),  # in any case
    ("cat <<EOF\n$OPENAI_API_KEY\nEOF", Q),  # an unquoted heredoc expands
    ("X=$API_KEY ls", Q),  # the value travels on
    ("echo $(echo $SLACK_TOKEN)", Q),
    ("bash -c 'echo $GH_TOKEN'", Q),
    ("echo $((GITHUB_TOKEN))", Q),  # bash prints a value that is no number in its error
    ("((API_KEY + 1))", Q),
    ("[[ GITHUB_TOKEN -eq 1 ]]", Q),
    ('echo "${@:-$GITHUB_TOKEN}"', Q),  # the default word of `${@:-…}` is expanded
    ("echo ${!X}", Q),  # the variable X names
    ("for v in GITHUB_TOKEN; do echo ${!v}; done", Q),
    ("echo $key; for key in a; do :; done", Q),  # before the loop: the environment's
    # review AA1: a loop may not run, or run in another shell, so its name is no exception
    ("(for GITHUB_TOKEN in x; do :; done); echo $GITHUB_TOKEN", Q),
    ("false && for GITHUB_TOKEN in x; do :; done; echo $GITHUB_TOKEN", Q),
    ("(for API_KEY in x; do :; done); echo $((API_KEY))", Q),
    ("for key in a b; do echo $key; done", Q),  # (the price: a loop named like a secret)
    # review AA2: inside double quotes the word of `${X:-…}` is expanded, quotes and all
    ("echo \"${X:-'$GITHUB_TOKEN'}\"", Q),
    ("echo \"${X+'$GITHUB_TOKEN'}\"", Q),
    ("echo \"${X:-$'$GITHUB_TOKEN'}\"", Q),
    (": GITHUB_TOKEN; echo \"${X:-'${!_}'}\"", Q),
    ("cat <<E\n${X:-'$GITHUB_TOKEN'}\nE", Q),
    # review AA3: `-u` takes a value, so `-ui` unsets `i` and empties nothing
    ("env -ui", Q),
    ("env -u -i", Q),
    ("env -ui | grep TOKEN", Q),
    # review AA4: xargs adds the names
    ("echo GITHUB_TOKEN | xargs -I{} printenv {}", Q),
    ("echo GITHUB_TOKEN | xargs printenv HOME", Q),
    # review AA5: jq allows blanks and comments between `$` and `ENV`
    ("jq -n '$ ENV.GITHUB_TOKEN'", Q),
    ("jq -n '$#c\nENV'", Q),
    ("printenv GITHUB_TOKEN", Q),
    ("printenv", Q),
    ("printenv -0", Q),
    ("env", Q),
    ("env | grep PATH", Q),
    ("env -0", Q),
    ("timeout 5 env", Q),
    ("set", Q),
    ("export", Q),
    ("export -p", Q),
    ("jq -n env", Q),
    ("jq -n '$ENV.GITHUB_TOKEN'", Q),
    # what stays allowed
    ("echo $HOME", A),
    ("sleep 1 & echo ${!}", A),  # the background job's process id, no indirection
    ("echo $PATH", A),
    ("echo ${!BASH*}", A),  # names, not values
    ("printenv HOME", A),
    ("printenv PATH LANG", A),
    ("env ls", A),  # `env` that runs a command prints nothing
    ("set -x", A),
    ("env -i", A),  # an empty environment
    ("env -vi", A),
    ("env -iu X", A),
    ("echo ${X:-$HOME}", A),
    ("echo $((x + 1))", A),
    ('read -p "Press [Enter] key to go on"', A),  # a prompt, not a variable
    ("cat <<'EOF'\n$GITHUB_TOKEN\nEOF", A),  # a quoted heredoc expands nothing
    ("echo '$GITHUB_TOKEN'", A),  # single quotes: no expansion
    ("jq .env.url x.json", A),  # a field called env; the program is no path (x.json is)
    ("jq '.[] | .name' x.json", A),
    ("jq .env.url .env", D),  # the input file is a secret
]


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_secret_variables_under_the_default_policy(
    decide: Callable[[str], Decision], command: str, expected: Verdict
) -> None:
    decision = decide(command)
    assert decision.verdict is expected, decision.explain()
    if expected is Q:
        assert any(
            r.rule_id in ("engine.secret-variable", "jq") and "secret" in r.message
            for r in decision.reasons
        ), decision.explain()


def test_the_reason_names_the_glob_and_where_it_is_written(
    decide: Callable[[str], Decision],
) -> None:
    reason = next(
        r for r in decide("echo $GITHUB_TOKEN").reasons if r.rule_id == "engine.secret-variable"
    )
    assert "`env secret *TOKEN*`" in reason.message
    assert reason.location is not None
    assert "common.policy" in reason.location


def test_a_policy_without_secret_names_lets_them_through(tmp_path: Path) -> None:
    path = tmp_path / "p.policy"
    path.write_text("readonly echo|env|printenv **\ndefault ask\n")
    policy = load_policy(path)
    for command in ("echo $GITHUB_TOKEN", "env", "printenv GITHUB_TOKEN"):
        assert policy.evaluate(command, workspace=tmp_path).verdict is A, command
    path.write_text("readonly echo|env|printenv **\ndefault ask\nenv secret GITHUB_*\n")
    policy = load_policy(path)
    for command in ("echo $GITHUB_TOKEN", "env", "printenv GITHUB_TOKEN"):
        assert policy.evaluate(command, workspace=tmp_path).verdict is Q, command
    assert policy.evaluate("echo $NPM_TOKEN", workspace=tmp_path).verdict is A


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (("env",), ()),
        (("/usr/bin/env", "-0"), ()),
        (("env", "-i"), None),  # an empty environment
        (("env", "-", "A=1"), None),
        (("env", "-0i"), None),
        (("env", "-ui"), ()),  # unsets `i`
        (("env", "-u", "-i"), ()),
        (("env", "--unset", "-i"), ()),
        (("env", "-C", "/", "-i"), None),
        (("env", "A=1", "-i"), ()),  # options end at the assignment
        (("env", "-u", "HOME"), ()),
        (("printenv",), ()),
        (("printenv", "-0", "A", "B"), ("A", "B")),
        (("printenv", None), (None,)),
        (("set",), ()),
        (("set", "-x"), None),
        (("export",), ()),
        (("export", "-p"), ()),
        (("export", "A=1"), None),
        (("declare", "-p", "A", "B=2"), ("A",)),
        (("declare", "-px"), ()),
        (("declare", "-f"), None),
        (("typeset", "-p", None), (None,)),
        (("echo", "x"), None),
        ((None,), None),
    ],
)
def test_printed_variables(
    words: tuple[str | None, ...], expected: tuple[str | None, ...] | None
) -> None:
    assert printed_variables(words) == expected


_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True)


@given(name=_NAME)
def test_expanding_a_variable_asks_exactly_when_its_name_marks_a_secret(name: str) -> None:
    policy = _POLICY
    secret = policy.compiled.env.secret(name) is not None
    decision = policy.evaluate(f'echo "${{{name}}}"', workspace="/nonexistent/ws")
    flagged = any(r.rule_id == "engine.secret-variable" for r in decision.reasons)
    assert flagged is secret
    if secret:
        assert decision.verdict is not A


_POLICY = load_policy()
