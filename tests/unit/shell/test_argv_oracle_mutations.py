"""Lines the argv oracle's mutation sweep (`mutated_lines`) found read otherwise than bash
reads them: each was allowed while bash ran a command its model lacked."""

from __future__ import annotations

import pytest

from policylang.shell.parse import parse_command


@pytest.mark.parametrize(
    "text",
    [
        "cat <<E &&\\ ls\nx\nE\n",
        "cat <<E && true &&\\ ls\nx\nE\n",
        "cat <(ls) &&\\ ls >/dev/null",
        "[[ 1 -lt 2 ]] &&\\ jobs && pwd </dev/null",
        "true |\\ git status >/dev/null",
    ],
)
def test_an_escape_tree_sitter_drops_after_an_operator_under_a_redirect_is_reported(
    text: str,
) -> None:
    # bash runs the command `␠ls`; tree-sitter put the list under a redirect's node (or
    # inside the here-document's) and dropped the `\`, leaving `ls`
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.dropped-text" in codes


@pytest.mark.parametrize(
    "text",
    ["cat <<E && ls\nx\nE\n", "cat <(ls) && ls >/dev/null", "cat <<E | wc -l &&\\\n ls\nx\nE\n"],
)
def test_operators_under_a_redirect_without_dropped_text_are_clean(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize(
    "text",
    [
        'LC_X=$(ls)\\ echo "$LC_X"',
        "LC_X=$(ls)\\;echo x",
        "LC_X=`ls`\\|echo x",
        'LC_X="a"\\ echo x',
        "LC_X='a'\\&echo x",
        "LC_X=$x\\>y echo",
        "LC_X[1]=${x}\\;echo x",
        "LC_X+=$((1))\\ echo x",
    ],
)
def test_an_escape_glued_to_an_assignment_value_is_reported(text: str) -> None:
    # bash assigns `… echo` (the escape and what follows are more of the value) and runs
    # the next word; tree-sitter ended the value at the `\` and made `echo` the command
    codes = [problem.code for problem in parse_command(text).problems]
    assert codes, codes


@pytest.mark.parametrize(
    "text", ["LC_X=a\\ b ls", "echo a\\ b", 'LC_X="$(ls)" echo a\\;b', "LC_X=$(ls)>x echo"]
)
def test_escapes_bash_reads_as_tree_sitter_does_are_clean(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize(
    "text",
    ["time -v ls", "time '-p' ls", "time \\-p ls", "time -p -p ls", "time -- -p ls", "! time -q"],
)
def test_an_option_of_gnu_time_after_the_time_keyword_is_reported(text: str) -> None:
    # bash's keyword takes a plain `-p` and `--` only: `time -v ls` runs the command `-v`;
    # the wrapper table (GNU time's options) had unwrapped `ls`
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize(
    "text", ["time -p ls", "time -- ls", "time -p -- ls", "\\time -v ls", "echo a | time -v ls"]
)
def test_the_time_keyword_s_own_options_and_the_time_program_are_clean(text: str) -> None:
    assert parse_command(text).problems == ()


def test_a_reserved_word_continued_into_the_next_word_is_reported() -> None:
    # `if\⏎env -i` runs the command `ifenv -i` in bash (the mutation sweep, seed 2)
    for text in ("if\\\nenv -i\nthen :\nfi", "while\\\ntrue; do :; done", "{\\\nls; }"):
        assert any(p.code == "shell.syntax-mismatch" for p in parse_command(text).problems), text
    for text in ("if \\\n true; then :; fi", "for i in 1; do\\\n echo; done", "ls \\\n -l"):
        assert not parse_command(text).problems, text


@pytest.mark.parametrize(
    "text",
    [
        "echo $(if\\\nenv -i\nthen :\nfi)",  # a substitution's word spans the nested line
        "x=$(while\\\ntrue; do :; done)",
        "cat <(if\\\nenv -i\nthen :\nfi)",
    ],
)
def test_a_reserved_word_continued_inside_a_substitution_is_reported(text: str) -> None:
    assert any(p.code == "shell.syntax-mismatch" for p in parse_command(text).problems)


@pytest.mark.parametrize(
    ("text", "value"),
    [("echo fi\\\nx", "fix"), ("echo a done\\\nx", "donex"), ('echo "a if\\\nenv"', "a ifenv")],
)
def test_a_reserved_word_continued_inside_an_argument_is_the_word_bash_reads(
    text: str, value: str
) -> None:
    # tree-sitter read one word across the continuation, as bash does: nothing to report
    line = parse_command(text)
    assert line.problems == ()
    assert line.segments[0].words[-1].value == value


def test_words_with_nothing_between_them_are_one_word_for_bash() -> None:
    # no line of the corpora gives such a pair without another problem; the check guards
    # the model against a tree-sitter that splits a word bash reads whole. The segment of
    # `echo rm -rf x` is moved onto the text `echorm -rf x`
    import dataclasses

    from policylang.shell.parse import _segment_misjoins
    from policylang.span import Span

    segment = parse_command("echo rm -rf x").segments[0]
    echo, rm, *rest = segment.words
    moved = dataclasses.replace(
        segment,
        words=(
            echo,
            dataclasses.replace(rm, span=Span(4, 6)),
            *(dataclasses.replace(w, span=Span(w.span.start - 1, w.span.end - 1)) for w in rest),
        ),
        span=Span(0, 12),
    )
    found = _segment_misjoins("echorm -rf x", moved)
    assert [(p.code, p.span) for p in found] == [("shell.word-mismatch", Span(0, 6))]
    assert _segment_misjoins("echo rm -rf x", segment) == []


@pytest.mark.parametrize("text", ['!$"ec"ho x', '!"echo" x', "!'echo' x", "!$'echo' x"])
def test_a_bang_glued_to_a_quoted_word_is_part_of_it(text: str) -> None:
    # bash runs the command `!echo` (the mutation sweep with replacements, seed 3);
    # tree-sitter read a negated `echo x`
    import subprocess

    done = subprocess.run(["bash", "-c", text], capture_output=True, text=True, check=False)
    assert "!echo: command not found" in done.stderr
    assert any(p.code == "shell.syntax-mismatch" for p in parse_command(text).problems)


@pytest.mark.parametrize("text", ["! ls", "!(ls)", "ls && ! grep x f", "! ls | wc -l", "!\tls"])
def test_a_bang_of_its_own_is_a_negation(text: str) -> None:
    assert parse_command(text).problems == ()
