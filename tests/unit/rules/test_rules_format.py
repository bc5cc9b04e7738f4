"""The formatter: canonical layout, quoting, comments, idempotence; `policylang fmt`."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang.cli.main import main
from policylang.rules.format import format_ruleset, format_statement, format_text
from policylang.rules.parser import parse_ruleset

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("allow   git   status|log", "allow git status|log"),
        ("allow git unless -a -b|-c", "allow git unless -a|-b|-c"),
        ('allow echo "*" "when" "a b"', 'allow echo "*" "when" "a b"'),
        ('allow echo "plain"', "allow echo plain"),
        ("allow kubectl version", "allow kubectl version"),
        ("allow npm run test:*", "allow npm run test:*"),
        ('ask curl ** reason "say \\"hi\\""', 'ask curl ** reason "say \\"hi\\""'),
        ('protect  read  ~/.ssh/**  "deny"  deny', 'protect read ~/.ssh/** "deny" deny'),
        ("expansion * in * ask", "expansion * in * ask"),
        ("interpreter python inline -c|-m floor ask", "interpreter python inline -c|-m floor ask"),
        ('options "git log" value --output', 'options "git log" value --output'),
        ("allow git \\\n  status", "allow git status"),
        ('runner  acme-trace   "acme  exec"', 'runner acme-trace "acme  exec"'),
    ],
)
def test_canonical_form(text: str, expected: str) -> None:
    assert format_text(text + "\n") == expected + "\n"


def test_comments_and_blank_lines_are_kept() -> None:
    text = "# header\n\n\n\nallow ls   # listing\n   # indented comment\ndeny rm **\n\n"
    assert format_text(text) == (
        "# header\n\nallow ls  # listing\n# indented comment\ndeny rm **\n"
    )


def test_empty_file_formats_to_empty() -> None:
    assert format_text("") == ""
    assert format_text("\n\n") == ""


def _parses(path: Path) -> bool:
    return not parse_ruleset(path.read_text(), filename=path.name)[1]


# the shipped rulesets, and the golden cases whose errors are semantic (they parse)
SHIPPED = sorted(ROOT.glob("rulesets/**/*.policy")) + [
    p for p in sorted(ROOT.glob("tests/golden/rules/*.policy")) if _parses(p)
]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_round_trip_and_idempotence_on_real_files(path: Path) -> None:
    assert len(SHIPPED) > 20
    text = path.read_text()
    first, diagnostics = parse_ruleset(text, filename=path.name)
    assert diagnostics == ()
    formatted = format_text(text)
    second, again = parse_ruleset(formatted, filename=path.name)
    assert again == ()
    assert second.statements == first.statements
    assert format_text(formatted) == formatted


def test_fmt_cli_rewrites_checks_and_refuses_broken_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messy = tmp_path / "messy.policy"
    messy.write_text("allow   git  status\n")
    broken = tmp_path / "broken.policy"
    broken.write_text("alow git\n")
    assert main(["fmt", "--check", str(messy)]) == 1
    assert capsys.readouterr().out == f"would reformat {messy}\n"
    assert messy.read_text() == "allow   git  status\n"
    assert main(["fmt", str(messy)]) == 0
    assert messy.read_text() == "allow git status\n"
    assert main(["fmt", "--check", str(messy)]) == 0
    capsys.readouterr()
    assert main(["fmt", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "rules.unknown-directive" in out
    assert broken.read_text() == "alow git\n"


def test_fmt_cli_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"allow   ls\n")))
    assert main(["fmt", "-"]) == 0
    assert capsys.readouterr().out == "allow ls\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"allow   ls\n")))
    assert main(["fmt", "--check", "-"]) == 1
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"alow ls\n")))
    assert main(["fmt", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "alow ls\n"
    assert "rules.unknown-directive" in captured.err


_KEYWORD_TEMPLATES = (
    "allow git {}", "deny {} **", "allow git status unless --x {}", "protect write {} deny",
    "outside-workspace write ask except {}", "options {} value -x", "wrapper {} positionals 1",
    "shell {} x", "runner x {}", "interpreter x {} floor ask", "env ask X {}",
    "path-args read {}", "path-args write x {}", "path-args option x {} -o write",
    "path-args key dd {} write", "arity x {} 2", "allow x ** operand {}",
)  # fmt: skip


@pytest.mark.parametrize("template", _KEYWORD_TEMPLATES)
def test_a_quoted_keyword_stays_quoted_where_the_parser_would_take_it(template: str) -> None:
    # review AO10: `path-args read cat "read"` became `path-args read cat read`, which does
    # not parse, and `fmt` then refused the file
    from policylang.rules.format import _KEYWORDS

    for keyword in sorted(_KEYWORDS):
        text = template.format(f'"{keyword}"') + "\n"
        ruleset, diagnostics = parse_ruleset(text, filename="t.policy")
        if diagnostics:
            continue
        formatted = format_ruleset(ruleset)
        again, problems = parse_ruleset(formatted, filename="t.policy")
        assert problems == (), (text, formatted)
        assert format_ruleset(again) == formatted
        assert [format_statement(s) for s in again.statements] == [
            format_statement(s) for s in ruleset.statements
        ]


@pytest.mark.parametrize("text", ["\ufeff# note\nallow ls\n", "\ufeffallow ls\n"])
def test_a_byte_order_mark_is_dropped_before_a_comment_as_before_a_statement(text: str) -> None:
    # review AO14: it was kept (with two spaces) before a comment
    assert format_text(text) == text[1:]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "policylang" / "rulesets").rglob("*.policy")), ids=lambda p: p.name
)
def test_shipped_rulesets_are_already_in_canonical_form(path: Path) -> None:
    # what `policylang fmt --check` asks of an org's files, the shipped ones meet too
    assert format_text(path.read_text()) == path.read_text()
