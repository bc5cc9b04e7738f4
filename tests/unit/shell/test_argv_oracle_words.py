"""Words the argv oracle (`policylang.testing.argvcheck`) found read otherwise than bash
reads them."""

from __future__ import annotations

import pytest

from policylang.shell.parse import parse_command


@pytest.mark.parametrize("text", ["[ ~ ]]", "[ -- ~ ]]"])
def test_a_tilde_tree_sitter_reads_as_an_operator_of_a_test_expands(text: str) -> None:
    # found by the argv oracle: bash ran `[ -- /tmp ]]` (home is /tmp there) where the
    # model held the literal `~` (tree-sitter's arithmetic `~` inside `[ ]`)
    (segment,) = parse_command(text).segments
    tilde = next(word for word in segment.words if word.text == "~")
    assert tilde.value is None


@pytest.mark.parametrize("text", ["git log {PATH}$1<<E\nx\nE\n", "echo {PATH}$1<<E\nx\nE\n"])
def test_digits_ending_a_word_before_a_here_document_are_reported(text: str) -> None:
    # bash reads the word `{PATH}$1` and a here-document on standard input; tree-sitter
    # read `1` as the here-document's descriptor and the word as the literal `{PATH}$`
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize(
    "text",
    [
        "echo {PATH}\\\n>/dev/null; ls",
        "echo a {\\\nPATH}>/dev/null; ls",
        "echo {PA\\\nTH}>/dev/null; ls",
        ": >&-\\\n{PATH}>/dev/null; ls",
    ],
)
def test_a_variable_redirect_split_by_line_continuations_is_reported(text: str) -> None:
    # review BX1: bash removes `\⏎` before reading the word, so `{PATH}` assigns PATH
    line = parse_command(text)
    names = [a.name for segment in line.segments for a in segment.assignments]
    codes = [problem.code for problem in line.problems]
    assert "PATH" in names or "shell.syntax-mismatch" in codes


@pytest.mark.parametrize(
    ("text", "word"),
    [("cat 2147483648>/dev/null", "2147483648"), ("cat 99999999999999999999>x", "9" * 20)],
)
def test_digits_too_large_for_a_descriptor_are_an_argument(text: str, word: str) -> None:
    # review BX5: bash reads digits that do not fit an `int` as a word of the command
    (segment,) = parse_command(text).segments
    assert [w.value for w in segment.words] == ["cat", word]
    assert segment.redirects[0].fd is None


def test_the_largest_descriptor_is_a_descriptor() -> None:
    (segment,) = parse_command("cat 2147483647>/dev/null").segments
    assert [w.value for w in segment.words] == ["cat"]
    assert segment.redirects[0].fd == 2147483647


@pytest.mark.parametrize(
    "text", ["cat <<<w\\\nb -i", "cat <<<w{PA\\\nTH} -i", "sort<<<wa\\\nb", "printf <<<w\\\t\\$x"]
)
def test_a_here_string_word_continued_on_the_next_line_is_reported(text: str) -> None:
    # found by the argv oracle (and review BX, minor): bash joins `w\⏎b` into one word;
    # tree-sitter ends the here-string at the continuation and makes `b` an argument
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize(
    "text", ["cat <<<w b", 'cat <<<"a" b', 'grep x <<<"$v" -c', "cat <<<w\\  x"]
)
def test_a_here_string_followed_by_arguments_is_clean(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("echo 2>&1 \\ >(ls)", ["echo", None]),  # bash: one word ` /dev/fd/63`
        ("echo 2>&1 \\ <(ls) y", ["echo", None, "y"]),
        ("echo 2>&1 \\  >(ls)", ["echo", " ", None]),  # a blank between: two words
    ],
)
def test_an_escaped_blank_glued_to_a_process_substitution_is_one_word(
    text: str, words: list[str | None]
) -> None:
    # found by the argv oracle: after a redirect the escaped blank became a word of its
    # own, after the substitution's word
    segment = parse_command(text).segments[0]
    assert [word.value for word in segment.words] == words


@pytest.mark.parametrize("text", ["eval echo a\v\\;", "eval echo a\fb", "builtin eval a\rb"])
def test_a_control_character_in_the_words_of_eval_is_reported(text: str) -> None:
    # found by the argv oracle: the nested line of `eval` is its words joined by blanks,
    # where tree-sitter split a word bash keeps whole; the safety net skipped the words
    # as the nested line's text, which no longer holds the character
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.control-blank" in codes


@pytest.mark.parametrize(
    "text",
    [
        "LC_X=(a)#; rm -rf ~",
        "export LC_X=(a)#; rm -rf ~",
        "LC_X+=(a)#x; rm -rf ~",
        "echo $(ls)\\\n#; rm -rf ~",
        "echo <(ls)\\\n\\\n#; rm -rf ~",
        "echo $((1))\\\n#; rm -rf ~",
    ],
)
def test_a_hash_glued_to_the_parenthesis_closing_part_of_a_word_is_no_comment(text: str) -> None:
    # found by the argv oracle: bash reads on into the word after the `)` of `a=(…)`,
    # `$(…)`, `<(…)`, `$((…))` (a line continuation between them vanishes), so the `#`
    # is text and `rm` runs; tree-sitter started a comment there and the model held none
    line = parse_command(text)
    assert ["rm", "-rf", None] in [[w.value for w in s.words] for s in line.segments]
    assert "shell.comment-mismatch" in [problem.code for problem in line.problems]


@pytest.mark.parametrize("text", ["(ls)#; rm -rf ~", "(( 1 ))#; rm", "LC_X=(a) #; rm"])
def test_a_hash_after_a_closing_parenthesis_of_a_command_is_a_comment(text: str) -> None:
    # (bash: `#` begins a word after a subshell's or arithmetic command's `)`, or a blank)
    line = parse_command(text)
    assert "rm" not in [w.value for s in line.segments for w in s.words]
    assert line.problems == ()


@pytest.mark.parametrize(
    "text", ["LC_X=(a)\\ echo rm -rf ~", "LC_X=(a)x ls", "LC_X=(a)'x' ls", "LC_X=(a)\\\nx ls"]
)
def test_an_array_assignment_glued_to_what_follows_is_reported(text: str) -> None:
    # found by the argv oracle: bash reads `LC_X=(a)\ echo` as one word, the string
    # `(a) echo`, and runs `rm -rf ~`; tree-sitter ended the array at the `)` and made
    # `echo` the command
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize("text", ["LC_X[1] =a echo", "LC_X[1]\t=a", "LC_X[1] \\\n+=a ls"])
def test_a_blank_between_a_subscript_and_its_equals_sign_is_reported(text: str) -> None:
    # found by the argv oracle: bash runs the command `LC_X[1]` with the words `=a echo`;
    # tree-sitter read an assignment across the blank and the model held `echo`
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize("text", ["LC_X[1]=a echo", "LC_X[1]\\\n=a echo", "LC_X[ 1 ]=a"])
def test_a_subscripted_assignment_bash_reads_as_one_word_is_clean(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("cat <& \\\n--i", ["cat", "-i"]),
        ("cat <&\\\n\\\n-x", ["cat", "x"]),
        ("cat >& \\\n-\\\n-i", ["cat", "-i"]),
    ],
)
def test_a_closing_dash_after_a_line_continuation_passes_the_rest(
    text: str, words: list[str]
) -> None:
    # found by the argv oracle: `<& \⏎-x` is `<& -x` for bash (close, and pass `x`);
    # the model read a descriptor named `-x` and lost the argument
    (segment,) = parse_command(text).segments
    assert [word.value for word in segment.words] == words
    assert [redirect.op for redirect in segment.redirects] == [text[4:6] + "-"]


@pytest.mark.parametrize(
    "text", ["cat <<E\n$\nE\nrm -rf ~", "cat <<E\n$(\necho q\n)$\nE\nrm -rf ~", "cat <<E\n$\nE\n"]
)
def test_a_here_document_tree_sitter_ends_at_another_line_is_reported(text: str) -> None:
    # found by the argv oracle: tree-sitter reads `$⏎E` as `$E` and takes the next line
    # for the terminator; bash ends the body at `E` and runs `rm -rf ~`
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize(
    "text", ["cat <<E\nx\nE\nls", "cat <<-E\n\tx\n\t\tE\nls", "cat <<'E'\n$\nE\nls"]
)
def test_a_here_document_ending_at_its_terminator_is_clean(text: str) -> None:
    assert parse_command(text).problems == ()


@pytest.mark.parametrize("text", ["[[= -v x ]] || ls", "[[$ a ]]", "[[\\ a ]]"])
def test_a_bracket_glued_to_the_next_word_is_reported(text: str) -> None:
    # found by the argv oracle: bash runs the command `[[=` (`[[ a` for `[[\ a`);
    # tree-sitter read a test
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.syntax-mismatch" in codes


@pytest.mark.parametrize(
    ("text", "fd"), [("test 2\\\n> /dev/null", 2), ("echo a 1\\\n\\\n>&2", 1)]
)
def test_digits_continued_onto_a_redirect_are_its_descriptor(text: str, fd: int) -> None:
    # found by the argv oracle: bash removes `\⏎` first and reads `2>`; the model held
    # the argument `2` and a redirect of standard output
    (segment,) = parse_command(text).segments
    assert "2" not in [word.value for word in segment.words]
    assert [redirect.fd for redirect in segment.redirects] == [fd]


@pytest.mark.parametrize(
    "text",
    [
        "case a in a) :\n\\\t;; esac",
        "case a in a) \\\t;; esac",
        "case a in a) : <<E\nE\n\\\t;& b) ls;; esac",
    ],
)
def test_an_escaped_blank_before_a_case_terminator_is_reported(text: str) -> None:
    # found by the argv oracle: bash runs the command `⇥` (an escaped tab); tree-sitter
    # dropped it, and the gap before the item's `;;` was never checked
    codes = [problem.code for problem in parse_command(text).problems]
    assert "shell.dropped-text" in codes
