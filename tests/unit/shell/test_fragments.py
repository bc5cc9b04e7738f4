"""The pieces of text that did not parse: found in linear time, quoting ignored on purpose
(reviews AR10, AS1, AS2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from policylang.shell.fragments import MAX_BODIES, command_pieces, list_pieces, substitution_bodies


def test_pieces_are_cut_at_every_operator() -> None:
    assert command_pieces("a | b && c; d & e\nf") == ["a", "b", "c", "d", "e", "f"]


def test_quotes_do_not_protect_an_operator() -> None:
    # where the parser failed, bash's quoting is not known for sure: err the strict way
    # (the quote inside backquotes below would hide `ls .env` from a quote-aware cut)
    assert command_pieces("ls < `ls ''\\\\'''`; ls .env") == ["ls < `ls ''\\\\'''`", "ls .env"]
    assert command_pieces("printf 'a; b'") == ["printf 'a", "b'"]


def test_a_line_without_operators_has_no_pieces() -> None:
    assert command_pieces("echo 'a b' $x") == []
    # a parenthesis cuts too (review AW5: `((rm -rf ~) )` is two subshells to bash)
    assert command_pieces("echo $(((") == ["echo $"]


def test_nested_and_unclosed_bodies() -> None:
    assert substitution_bodies("a $(b $(c) (d)) $(e") == ["b $(c) (d)", "c", "e"]


def test_backquoted_bodies() -> None:
    assert substitution_bodies("a `b` c `d") == ["b", "d"]


def test_arithmetic_parentheses_close_their_own() -> None:
    assert substitution_bodies("echo $((( i = $(sudo id) ))\n)") == [
        "(( i = $(sudo id) ))\n",
        "sudo id",
    ]


def test_many_openings_give_a_bounded_list() -> None:
    text = "echo " + "$(" * 10_000
    bodies = substitution_bodies(text)
    assert len(bodies) == MAX_BODIES
    assert bodies[0] == text[7:]
    assert command_pieces("a;" * 10_000) == ["a"]
    assert len(command_pieces("".join(f"c{i};" for i in range(1_000)))) == MAX_BODIES


@given(st.text(alphabet="ab $()`'\"\\;|&\n", max_size=60))
def test_every_piece_and_body_is_a_slice_of_the_text(text: str) -> None:
    for found in (*command_pieces(text), *substitution_bodies(text)):
        assert found in text
        assert found.strip()


def test_a_quoted_parenthesis_does_not_hide_the_rest_of_a_body() -> None:
    # review AT3: closed only without regard to quotes, the body was `rm -rf '`
    assert substitution_bodies("echo $(rm -rf ')' ~)") == ["rm -rf '", "rm -rf ')' ~"]


def test_many_unclosed_openings_cost_little_memory() -> None:
    # review AT1: every body was cut out of the text before the first sixteen were kept,
    # 2.4 GB for a 98 KB line
    import tracemalloc

    text = "echo $((( " + "$(" * 49_000
    tracemalloc.start()
    try:
        bodies = substitution_bodies(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(bodies) == MAX_BODIES
    assert peak < 64 * 1024 * 1024


def test_pieces_drop_a_leading_reserved_word() -> None:
    # (review EF1: `then cat .env` had been read as a command named `then`)
    text = "if true; then cat .env; elif x; then y; else cat ~/.ssh/id_rsa; fi"
    assert command_pieces(text) == ["true", "cat .env", "x", "y", "cat ~/.ssh/id_rsa", "fi"]
    assert command_pieces("while :; do cat .env; done") == [":", "cat .env", "done"]


def test_list_pieces_keep_a_loop_whole() -> None:
    text = 'ls <<E &&\nE\nfor f in .env; do cat "$f"; done\nthen cat x || while :; do y; done'
    assert list_pieces(text) == ['for f in .env; do cat "$f"; done']
    text = "a\ndo for f in x; do :; done || b; select f in y; do :; done"
    assert list_pieces(text) == ["for f in x; do :; done", "b; select f in y; do :; done"]
