"""The analyser's lexical safety net: substitutions bash may run that tree-sitter hides."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policylang.shell import _exposure, parse_command
from policylang.shell._exposure import unseen_substitutions

NET = {"shell.unseen-substitution", "shell.control-blank", "shell.syntax-mismatch"}

# every line here made bash run `touch PWNED` (or split a word) while the analyser showed
# no substitution (review A, 2 December 2026)
HIDDEN = [
    "echo ${a['$(touch PWNED)']}",
    "echo ${a[$'$(touch PWNED)']}",
    "echo ${!a['$(touch PWNED)']}",
    "echo \"${x:-'$(touch PWNED)'}\"",
    "echo \"$(( '$(touch PWNED)' ))\"",
    "(( '$(touch PWNED)' ))",
    "echo ${HOME#$(touch PWNED)}",
    "echo ${HOME,,$(touch PWNED)}",
    "echo ${HOME/*$(touch PWNED)}",
    "echo ${x=`touch PWNED`}",
    "echo ${x:-<(touch PWNED)}",
    "echo ${x#{a,b}$(touch PWNED)}",
    ": \"${HOME#$(touch PWNED)}\"",
    "ls <<E $(touch PWNED)\nE\n",
    "ls <<E `touch PWNED`\nE",
    "ls <<E <(touch PWNED)\nE",
    "cat <<E\n`touch PWNED`\nE",
    "cat <<E\n$x`touch PWNED`\nE",
    "cat <<E\n\t$(touch PWNED)\nE",
    "cat <<-E\n\t$(touch PWNED)\n\tE",
    "cat <<E\n\\\\$(touch PWNED)\nE",
    "cat <<E\n\\\n$(touch PWNED)\nE",
    "cat <<E\n${a['$(touch PWNED)']}\nE",
    "test -v 'a[$(touch PWNED)]'",
    "[ -v 'a[$(touch PWNED)]' ]",
    'test -v "a[\\$(touch PWNED)]"',
    "test -v 'a[`touch PWNED`]'",
    "[[ 'a[$(touch PWNED)]' -eq 1 ]]",
    "[[ 1 -eq $'a[$(touch PWNED)]' ]]",
    "printf -v 'a[$(touch PWNED)]' x",
    "read 'a[$(touch PWNED)]' <<< x",
    "unset 'GROUPS[$(touch PWNED)]'",
    "LANG['$(touch PWNED)']=1",
    "read x <<< 'a[$(touch PWNED)]'",
    # review C: a line continuation between `$` and `(`, nested brackets in a subscript
    "echo ${x:-$\\\n(touch PWNED)}",
    "echo \"$\\\n(touch PWNED)\"",
    "cat <<E\n$\\\n(touch PWNED)\nE",
    "test -v 'a[b[1]+$(touch PWNED)]'",
    "[[ 'a[b[1]+$(touch PWNED)]' -eq 1 ]]",
    "echo x >&1\rPWNED",
    "echo x >&1\x0bPWNED",
    "ls >&2\x0c.bashrc",
]

SEEN = [
    "echo $(ls) `date` \"$(pwd)\"",
    "echo $(ls $(id))",
    "diff <(ls a) <(ls b)",
    "echo $(( 1 + 2 )) $[3]",
    "for ((i=0;i<3;i++)); do echo $i; done",
    "[[ \"$(wc -l < f)\" -eq 1 ]]",
    "cat <<E\n$(date)\nE",
    "unset array[`shuf -n1`]",
    "echo ${HOME:-/tmp} ${x#a} ${a[1]}",
    "grep '[a-z]$' f",
]


@pytest.mark.parametrize("line", HIDDEN)
def test_hidden_substitutions_are_problems(line: str) -> None:
    codes = {p.code for p in parse_command(line).problems}
    assert codes & NET, codes


@pytest.mark.parametrize("line", SEEN)
def test_substitutions_the_analyser_records_are_not(line: str) -> None:
    assert not [p for p in parse_command(line).problems if p.code in NET]


def test_a_problem_names_the_place() -> None:
    line = parse_command("echo ${HOME#$(touch PWNED)}")
    problem = next(p for p in line.problems if p.code == "shell.unseen-substitution")
    assert line.text[problem.span.start : problem.span.end] == "$("
    assert "cannot see" in problem.message


# literal for bash, reported all the same: the scan honours no quoting, because every way
# of misjudging where a literal ends hid a substitution (review C); the corpora hold one
# allowed line of this kind in 42,368
LITERAL_BUT_REPORTED = [
    "echo '$(literal)' $'$(literal)'",
    "cat <<'E'\n$(literal) `literal`\nE",
    "cat <<\"E\"\n$(literal)\nE",
    "cat <<\\E\n$(literal)\nE",
    "echo \\$(literal)",
    "ls # $(in a comment)",
    "echo \"a\rb\" 'c\rd'",
]

# review C: each made the quote-aware scan take live text for a literal
DESYNCHRONISING = [
    "echo ${x:-'}' `touch PWNED`}",
    "echo ${HOME#'} #'$(touch PWNED)}",
    "echo $(( ')) #' + '$(touch PWNED)' ))",
    "echo ${a[ ']} #''$(touch PWNED)' ]}",
    "cat <<E'\nE\n' $(touch PWNED)",
    "(\\\n( echo '$(touch PWNED)' ))",
    "echo $(\\\n( echo '`touch PWNED`' ))",
    "cat <<ls\nx\\\nls\necho ' $(touch PWNED)\n'\nls\n",
    "ls;#'\necho ${HOME#$(touch PWNED)}\n#'",
    "(ls)#'\necho ${HOME#$(touch PWNED)}\n#'",
    "echo $$'\\' ${HOME#$(touch PWNED)} ''",
    # here-documents that bash ends at another line than tree-sitter: what follows is
    # commands for bash (no substitution needed)
    "cat <<$'E'\nE\ntouch PWNED\n$'E'\n",
    'cat <<$"E"\nE\ntouch PWNED\n$"E"\n',
    "cat <<E$'x'\nEx\ntouch PWNED\nE$'x'\n",
    'cat <<"$\'E\'"\n$\'E\'\ntouch PWNED\n$\'E\'\n',
    "cat <<ls\nx\\\nls\ntouch PWNED\nls\n",
]


@pytest.mark.parametrize("line", LITERAL_BUT_REPORTED + DESYNCHRONISING)
def test_quoting_never_hides_an_opener(line: str) -> None:
    # a problem of any kind makes the engine ask (`echo \$(x)` is one for tree-sitter)
    assert parse_command(line).problems


def test_the_scan_alone() -> None:
    # offsets of openers that are not recorded; a recorded backquote's closer is its own
    assert unseen_substitutions("echo ${x:-$(a)}", {}) == [(10, "$(")]
    assert unseen_substitutions("echo $(a) `b`", {5: 9, 10: 13}) == []
    assert unseen_substitutions("echo '$(b)'", {}) == [(6, "$(")]
    assert unseen_substitutions("echo $((1+2))", {}, frozenset({5})) == []
    assert unseen_substitutions("echo $\\\n(b)", {}) == [(5, "$\\\n")]
    assert unseen_substitutions("a\rb", {}) == [(1, "\r")]


def test_a_substitution_after_a_blank_in_double_quotes_starts_at_its_dollar() -> None:
    # tree-sitter's `$(` token takes the blank before it along; the nested line was
    # `(jobs -pr` and the safety net saw an unrecorded `$(` one character later
    line = parse_command('x=" $(jobs -pr)"')
    assert not line.problems
    expansion = line.segments[0].assignments[0].value.expansions[0]  # type: ignore[union-attr]
    assert expansion.text == "$(jobs -pr)"
    assert expansion.span.start == 4
    assert expansion.nested is not None
    assert expansion.nested.text == "jobs -pr"


_PLAIN_SUBSCRIPT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[")
_PLAIN_SUBSCRIPT_START = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[\\'\"]*\[")


@given(st.text(alphabet="a9_[\\'\"x $(Z0", max_size=16), st.integers(0, 16))
def test_subscript_patterns_end_where_the_plain_ones_do(text: str, last: int) -> None:
    # review DN: the plain patterns were tried from every letter of a run, each reading to
    # the run's end (70 s for a 70 KB line); the linear ones must find the same ends
    for plain, linear in (
        (_PLAIN_SUBSCRIPT_NAME, _exposure._SUBSCRIPT_NAME),
        (_PLAIN_SUBSCRIPT_START, _exposure._SUBSCRIPT_START),
    ):
        expected, found = plain.search(text), linear.search(text)
        assert (expected and expected.end()) == (found and found.end())
    expected = _PLAIN_SUBSCRIPT_NAME.search(text, 0, last)
    found = _exposure._SUBSCRIPT_NAME.search(text, 0, last)
    assert (expected and expected.end()) == (found and found.end())


def test_a_subscript_after_a_long_run_of_name_characters() -> None:
    # the shape of review DN's lines: 54 KB of `x` not followed by a bracket (the plain
    # pattern was tried from each of them; 19 s), then the word that matters
    run = "x" * 54_000 + "s "
    assert _exposure.code_subscript(run + "a[1]", None, {}) is False
    assert _exposure.code_subscript(run + "a['$(id)']", None, {}) is True
    assert _exposure.code_subscript("9" * 50 + run + "a[\\$(id)]", None, {}) is True
