"""Semantic checks across a policy's files (`policylang.rules.validate`)."""

from __future__ import annotations

import pytest

from .helpers import diagnostics_of


@pytest.mark.parametrize("rule_id", ["org.policy:3", "a\x1bb", "-x", "a/b"])
def test_a_rule_id_that_could_mislead_is_an_error(rule_id: str) -> None:
    # review AO13: `id org.policy:3` in a user layer read as the org's rule in `explain`
    diagnostics = diagnostics_of(f'policy "t"\nallow ls ** id {rule_id}\n')
    assert [d.code for d in diagnostics] == ["rules.bad-id"]


@pytest.mark.parametrize("rule_id", ["git-inspect", "org.rm_root", "R2", "_x"])
def test_plain_rule_ids_are_accepted(rule_id: str) -> None:
    assert diagnostics_of(f'policy "t"\nallow ls ** id {rule_id}\n') == ()


@pytest.mark.parametrize("word", ["ls\x00", '"a\x1b[2Jb"', "git|st\x07atus"])
def test_a_control_character_in_a_pattern_word_is_a_warning(word: str) -> None:
    diagnostics = diagnostics_of(f'policy "t"\nallow {word} **\n')
    assert ("rules.control-character", "warning") in [(d.code, d.severity) for d in diagnostics]


@pytest.mark.parametrize("rule", ["deny cat ~/secret.txt", "deny cat ** operand ~/x/**",
                                  "deny rm $HOME/x"])
def test_a_word_bash_expands_is_a_warning(rule: str) -> None:
    # review AR4: `deny cat ~/secret.txt` matched only `cat "~/secret.txt"`
    diagnostics = diagnostics_of(f'policy "t"\n{rule}\n')
    assert [(d.code, d.severity) for d in diagnostics] == [("rules.expanded-word", "warning")]


@pytest.mark.parametrize(("rule", "warned"), [("deny rm -rf /srv", True),
                                              ("ask git push --force **", True),
                                              ("ask python3 -m venv **", False),
                                              ("allow rm -rf build", False)])
def test_an_option_in_a_deny_or_ask_pattern_is_a_warning(rule: str, warned: bool) -> None:
    # review AR5: `deny rm -rf /srv` does not cover `rm -fr /srv`
    codes = [d.code for d in diagnostics_of(f'policy "t"\n{rule}\n')]
    assert ("rules.option-in-pattern" in codes) is warned


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("allow curl ** id net \r# disabled until review\n", 22),
        ("# note\u2028allow rm **\n", 7),
        ("allow ls ** # a\x0cb\n", 16),
        ('allow echo ** reason "a\u202eb"\n', 24),
    ],
)
def test_a_character_that_moves_text_on_screen_is_a_warning(text: str, column: int) -> None:
    """review AX11: a `\\r` before a comment showed a live rule as a comment only; a line
    separator showed a comment's rest as a line of its own."""
    diagnostics = diagnostics_of('policy "t"\n' + text)
    found = [d for d in diagnostics if d.code == "rules.invisible-character"]
    assert [(d.location.rsplit(":", 2)[1:], d.severity) for d in found] == [
        (["2", str(column)], "warning")
    ]


def test_crlf_line_ends_and_tabs_are_not_invisible_characters() -> None:
    assert diagnostics_of('policy "t"\r\nallow ls\t**\r\n# c\r\n') == ()


@pytest.mark.parametrize(
    ("name", "message"),
    [("pen", "no rule has the id `pen`"), ("t.policy:2", "names a rule by its location")],
)
def test_expect_by_names_a_rule_by_its_id(name: str, message: str) -> None:
    """review AX6 (`by`), BA8: a rule named by location matched only the path the policy
    was loaded by, so the same file passed from one folder and failed from another."""
    diagnostics = diagnostics_of(
        f'policy "t"\nprotect read **/*.pem deny id pem\nexpect deny "cat x.pem" by {name}\n'
    )
    assert [d.code for d in diagnostics] == ["rules.unknown-rule"]
    assert message in diagnostics[0].message


def test_expect_by_a_known_id_or_a_built_in_check_is_accepted() -> None:
    text = 'policy "t"\nprotect read **/*.pem deny id pem\nexpect deny "cat x.pem" by pem\n'
    assert diagnostics_of(text) == ()
    assert diagnostics_of('policy "t"\nexpect ask "$X" by engine.non-literal-command\n') == ()


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("deny 'sudo' **\n", 6),
        ("protect read '~/secret.txt' deny\n", 14),
        ("deny rm ** when -r operand '/srv'\n", 28),
    ],
)
def test_a_single_quoted_word_is_named(text: str, column: int) -> None:
    """Review BJ2: only double quotes quote in a policy; `'sudo'` silently matched nothing
    and `check` said ok."""
    diagnostics = diagnostics_of('policy "t"\n' + text)
    found = [d for d in diagnostics if d.code == "rules.single-quote"]
    assert [(d.location.rsplit(":", 2)[1:], d.severity) for d in found] == [
        (["2", str(column)], "warning")
    ]


def test_quotes_inside_double_quotes_and_comments_are_fine() -> None:
    text = 'policy "t"\nallow echo "it\'s" id e reason "don\'t"\n# it\'s fine\n'
    assert [d.code for d in diagnostics_of(text)] == []
