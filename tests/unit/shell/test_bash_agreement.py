"""Word values agree with a real bash, on the spellings where tree-sitter goes wrong.

Each spelling is placed after `printf '%s\\0' ` and run by one restricted bash batch
(policylang.testing.bashcheck); the analyser must give the same argv. The list holds the
cases a differential run found (escaped blanks tree-sitter drops, `$"…"` next to other
text, a `#` that only looks like a comment, …) plus the classic quoting forms.
"""

from __future__ import annotations

from policylang.shell.parse import parse_command
from policylang.testing.bashcheck import printf_words

SPELLINGS = (
    "'a'b\"c\"",
    "r\\m",
    '"r""m"',
    "$'\\x72\\x6d'",
    "$'\\162\\155' $'\\xc3\\xa9' $'\\303'$'\\251' $'\\cA' $'\\e'",
    '$"q"',
    '-$"q" -\\#',
    '@$"q"z$\'\\101\'=',
    "''\\ ''",
    "'' \\ b",
    "}\\ @{\"\"\\\"",
    "\\  \\$'\\n'$'\\cA'",
    "-}\\ \t$'\\''-\\q",
    "a\\\nb",
    '"$\'\\e\'"\\$"$\'\\x41\'\\"!"',
    "\\ #x",
    "a\\ #b c",
    "\"a\\$b\" 'a\\$b' \"a\\qb\"",
    "-\\i \"-i\" '-i'",
    "{}",
    "\\  ",
    "q \\ ",
    "{\\ ",
    "\\;q\\;",
    "$'\\\\' x $'a\\\\'b",  # `$'\\'` ends at its second quote (tree-sitter runs on)
    "$'\\\\'$'\\\\' $'\\\\\\'' y",
    # `\c\\` is one escape using both backslashes (review EJ1); `\c\` before other text
    "$'\\c\\\\00' $'\\c\\\\x41' $'\\c\\x41' $'\\c\\\\\\\\x41' $'\\c' $'a\\c' $'\\c?'",
)


def test_analyser_agrees_with_bash() -> None:
    expected = printf_words(SPELLINGS)
    disagreements = []
    for spelling, bash_words in zip(SPELLINGS, expected, strict=True):
        assert bash_words is not None, f"bash rejected {spelling!r}"
        segment = parse_command(f"printf '%s\\0' {spelling}").segments[0]
        ours = tuple(w.value for w in segment.words[2:])
        if ours != bash_words:
            disagreements.append(f"{spelling!r}: ours {ours!r}, bash {bash_words!r}")
    assert not disagreements, "\n".join(disagreements)


def test_a_hash_after_an_escaped_blank_does_not_hide_code() -> None:
    line = parse_command("echo \\ #x; rm -rf /")
    assert [s.argv for s in line.segments] == [("echo", " #x"), ("rm", "-rf", "/")]
    assert [p.code for p in line.problems] == ["shell.comment-mismatch"]
    assert parse_command("echo a # real; rm -rf /").problems == ()
    assert [s.argv for s in parse_command("echo a # real; rm -rf /").segments] == [("echo", "a")]


def test_a_word_tree_sitter_fails_to_split_is_a_problem() -> None:
    line = parse_command("printf x ]  ]--/x")
    assert [p.code for p in line.problems] == ["shell.word-mismatch"]
    assert line.segments[0].words[2].value is None


def test_text_tree_sitter_drops_between_statements_is_a_problem() -> None:
    # bash runs the command ` ` (which fails, so `&&` skips printf y); tree-sitter drops it
    line = parse_command("printf x \\;\n\\ && printf y")
    assert [p.code for p in line.problems] == ["shell.dropped-text"]
    crlf = parse_command("ls\r\necho x")
    assert [p.code for p in crlf.problems] == ["shell.dropped-text"]


def test_escaped_blank_after_the_last_word_is_a_word() -> None:
    line = parse_command("find . -exec rm {} \\ ;")
    assert line.problems == ()
    assert line.segments[0].argv[-1] == " "


def test_a_command_continued_past_a_newline_is_a_problem() -> None:
    line = parse_command("printf x q\n\\ $'\\n'z")
    assert "shell.newline-mismatch" in {p.code for p in line.problems}


def test_a_lone_dash_tree_sitter_drops_inside_a_command_is_taken_back() -> None:
    # tree-sitter has no node for the `-` before `$"…"`; bash passes it (`printf '[%s]'
    # x -  $"q"}''~` prints `[x][-][q}~]`): it was a problem, and now is the word bash
    # reads (fuzz finding, review BJ3)
    line = parse_command("printf x -  $\"q\"}''~")
    assert line.problems == ()
    assert line.segments[0].argv == ("printf", "x", "-", "q}~")
