"""bash 5.3's command substitution in the current shell: `${ cmd; }`, `${| cmd; }`.

A `${` followed by a blank, a newline or `|` runs commands in bash 5.3, where bash 5.2
refuses it ("bad substitution") and tree-sitter reads a parameter expansion. With a
newline after `${`, tree-sitter parses the line cleanly, and `echo ${⏎touch F⏎}` was
allowed as the `echo` of a parameter, while bash 5.3 made the file.

The premise runs where a bash 5.3 is at hand: `POLICYLANG_TEST_BASH53=/path/to/bash`, or
the one `make test` builds (scripts/bash53.sh: Debian 12 has 5.2, and Debian's 5.3 package
needs a newer C library). The engine's verdicts are asserted always.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from policylang import Verdict, load_policy
from policylang.shell import _exposure

_BUILT = Path(__file__).parents[3] / "build" / "bash-5.3" / "bash"
_BASH53 = os.environ.get("POLICYLANG_TEST_BASH53") or (str(_BUILT) if _BUILT.is_file() else "")

RUNS = [
    "echo ${\ntouch F\n}",
    'echo "${\ntouch F\n}"',
    "x=${\ntouch F\n}",
    "cat <<E\n${\ntouch F\n}\nE",
    "echo ${|\ntouch F\n}",
    "[[ ${\ntouch F\n} ]]",
    ": ${x:-${\ntouch F\n}}",
    "case ${\ntouch F\n} in *) ;; esac",
    "for i in ${\ntouch F\n}; do :; done",
    "echo ${\n\ntouch F\n}",
    "echo ${ touch F; }",
    "echo ${\ttouch F;}",
    "echo ${|touch F;}",
]
# the pattern of `${v/…}` and its kin, a `=~` group, a quoted array subscript that a test
# evaluates, single quotes bash ignores in a subscript: tree-sitter makes no expansion node
# there, and the lexical net had known only `$(` and backquotes (review GQ1-GQ3)
RUNS += [
    "echo ${PWD/${ touch F;}/}",
    "echo ${PWD//${\ntouch F\n}/}",
    "echo ${PWD#${|touch F;}}",
    "echo ${HOME%%${ touch F;}}",
    "echo ${PWD,,${ touch F;}}",
    "echo ${PWD^${ touch F;}}",
    "cat <<E\nw: ${PWD#${ touch F;}}\nE",
    "[[ $PWD =~ (a|${ touch F;}) ]]",
    "case $PWD in ${PWD#${ touch F;}}) ;; esac",
    'echo "${PWD:+${PWD#${ touch F;}}}"',
    "test -v 'a[${ touch F;}]'",
    "[ -v 'a[${ touch F;}]' ]",
    "[[ -v 'a[${ touch F;}]' ]]",
    "[[ 'a[${ touch F;}]' -eq 1 ]]",
    "[[ 1 -eq 'a[${ touch F;}]' ]]",
    'test -v "a[\\${ touch F;}]"',
    "test -v a\\[\\$\\{\\ touch\\ F\\;\\}\\]",
    "[[ -v 'a[${|touch F;}]' && -n 1 ]]",
    "echo ${a['${ touch F;}']}",
]
# bash takes out each `\⏎` before it reads the line, so a run of them anywhere in the
# opener still makes one; the lexical net had matched `${` and the blank side by side only,
# and every GQ1 position was allowed again (review GX1; bash 5.2 refuses these)
RUNS += [
    # the review's lines, the canaries made a file
    "echo ${PWD/${\\\n touch F;}/}",
    "[[ $PWD =~ (a|${\\\n touch F;}) ]]",
    "echo ${HOME#${\\\n\ttouch F;}}",
    'git status; echo "${PWD%${\\\n touch F;}}"',
    "ls && echo ${PWD%${\\\n touch F;}}",
    "echo ${PWD#${\\\n touch F;}} | cat",
    # each spelling, and `\⏎` runs in the other places of the opener
    "echo ${PWD#${\\\n\\\n touch F;}}",
    "echo ${PWD#${\\\n|touch F;}}",
    "echo ${PWD#${\\\n\\\n|touch F;}}",
    "echo ${PWD#${\\\n\\\n\ttouch F;}}",
    "echo ${PWD#$\\\n{ touch F;}}",
    "echo ${PWD#$\\\n{\\\n touch F;}}",
    "echo ${PWD#$\\\n\\\n{\\\n\\\n\ntouch F\n}}",
    "echo ${\\\n touch F;}",
    "echo ${\\\n\ntouch F\n}",
    'echo "${\\\n touch F;}"',
    "x=${PWD#${\\\n touch F;}}",
    "cd ${PWD#${\\\n touch F;}}",
    'test -n "${PWD#${\\\n touch F;}}"',
    'test -v "a[\\${\\\n touch F;}]"',
    'test -v "a[$\\\n{\\\n touch F;}]"',
    "test -v a\\[\\$\\{\\\n\\ touch\\ F\\;\\}\\]",
    # a sample of the review's fuzz (60 contexts x 5 spellings, 100 of them allowed)
    "echo ${PWD/${\\\n touch F;}}",
    "echo ${PWD//${\\\n\ttouch F;}}",
    "echo ${PWD/#${\\\n\ntouch F\n}}",
    "echo ${PWD/%${\\\n\\\n touch F;}}",
    "echo ${PWD##${\\\n touch F;}}",
    "echo ${PWD%${\\\n\ttouch F;}}",
    "echo ${PWD%%${\\\n\ntouch F\n}}",
    "echo ${PWD,${\\\n\\\n touch F;}}",
    "echo ${PWD^${\\\n touch F;}}",
    "echo ${PWD^^${\\\n\ttouch F;}}",
    "[[ $PWD =~ (${\\\n\ntouch F\n}) ]]",
    "case $PWD in ${PWD#${\\\n\\\n touch F;}}) ;; esac",
    'echo $"${PWD#${\\\n touch F;}}"',
    'echo ${PWD#"$x"${\\\n\ttouch F;}}',
    "echo ${PWD/[${\\\n\ntouch F\n}]}",
    "echo ${PWD/+(${\\\n\\\n touch F;})}",
    "echo ${PWD#$'a'${\\\n touch F;}}",
    "echo ${PWD#~${\\\n\ttouch F;}}",
    "printf %s ${PWD%${\\\n\ntouch F\n}}",
    "echo ${PWD:+${PWD#${\\\n\\\n touch F;}}}",
]
# everyday continued lines: no opener, so the net is quiet and they stay allowed (GX1)
CONTINUED = [
    "ls \\\n -la",
    "echo ${HOME}\\\n -n x",
    "echo ${HOME} \\\n | cat",
    "git log \\\n  --oneline \\\n  -5",
    "cat README.md \\\n| grep x",
    "echo {\\\n a,b}",
]
QUOTED = [  # text, not a substitution, for every bash
    "echo '${\ntouch F\n}'",
    "echo $'${\ntouch F\n}'",
    "cat <<'E'\n${\ntouch F\n}\nE",
]


def _bash53_made_file(line: str, tmp_path: Path) -> bool:
    target = tmp_path / "F"
    subprocess.run(
        [_BASH53, "-c", line.replace("touch F", f"touch {target}")],
        cwd=tmp_path, capture_output=True, timeout=10, check=False,
    )
    return target.exists()


@pytest.mark.parametrize("line", RUNS)
def test_a_funsub_is_never_allowed(line: str, tmp_path: Path) -> None:
    if _BASH53:
        assert _bash53_made_file(line, tmp_path), "bash 5.3 ran no command here"
    policy = load_policy()
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    # the absolute name is the spelling that tree-sitter parsed cleanly
    for spelled in (line, line.replace("touch F", f"touch {tmp_path}/F")):
        decision = policy.evaluate(spelled, workspace=str(tmp_path), env=env)
        assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_the_reason_names_bash_53(tmp_path: Path) -> None:
    line = f"echo ${{\ntouch {tmp_path}/F\n}}"
    decision = load_policy().evaluate(line, workspace=str(tmp_path), env={"HOME": str(tmp_path)})
    assert decision.verdict is Verdict.ASK
    assert any("bash 5.3 runs" in reason.message for reason in decision.reasons)


@pytest.mark.parametrize("line", QUOTED)
def test_quoted_text_asks_as_a_quoted_dollar_paren_does(line: str, tmp_path: Path) -> None:
    """Quoted, these are text for every bash. The lexical net honours no quoting (bash
    ignores quotes in some places, such as a subscript: GQ3), so they ask like
    `echo '$(touch F)'`: a false ask, on purpose."""
    if _BASH53:
        assert not _bash53_made_file(line, tmp_path)
    policy = load_policy()
    env = {"HOME": str(tmp_path)}
    decision = policy.evaluate(line, workspace=str(tmp_path), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    dollar_paren = line.replace("${\ntouch F\n}", "$(touch F)")
    assert policy.evaluate(dollar_paren, workspace=str(tmp_path), env=env).verdict is Verdict.ASK


@pytest.mark.parametrize("line", CONTINUED)
def test_an_everyday_continued_line_is_no_funsub(line: str, tmp_path: Path) -> None:
    assert not _exposure.may_substitute(line)
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    decision = load_policy().evaluate(line, workspace=str(tmp_path), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_the_net_finds_a_continued_opener() -> None:
    """The lexical net on its own, where tree-sitter's reading hides the opener (GX1)."""
    for opener in ("${\\\n ", "${\\\n\\\n\t", "$\\\n{\\\n\n", "${\\\n|"):
        text = f"echo ${{PWD#{opener}x;}}}}"
        assert [where for where, _ in _exposure.unseen_substitutions(text, {})] == [11]
        assert _exposure.code_subscript(f"'a[{opener}x;}}]'", f"a[{opener}x;}}]", {})
    assert not _exposure.unseen_substitutions("echo ${\\\\\n x}", {})  # `\\⏎`: no run
