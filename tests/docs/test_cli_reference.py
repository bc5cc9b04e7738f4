"""docs/cli.md is generated from the argparse parser and kept in sync with it."""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import types
from pathlib import Path

import pytest
from doc_examples import ROOT


def _load_generator() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("gen_cli_docs", ROOT / "scripts/gen_cli_docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


def test_docs_cli_md_is_up_to_date() -> None:
    page = gen.policylang_page()
    current = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    if current != page:
        diff = "".join(
            difflib.unified_diff(
                current.splitlines(keepends=True),
                page.splitlines(keepends=True),
                "docs/cli.md (committed)",
                "docs/cli.md (from the parser)",
            )
        )
        pytest.fail(
            f"docs/cli.md is out of date with the parser; regenerate it with\n"
            f"    {gen.REGENERATE}\nand commit the result.\n\n{diff}",
            pytrace=False,
        )


def _toy_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toy", description="A toy <tool> for *tests*.")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = subs.add_parser(
        "run", help="run a `thing`", description="Run it.\n\n  Second paragraph.", epilog="Bye."
    )
    run.add_argument("target", help="what to run")
    run.add_argument("-n", "--times", type=int, default=3, help="repeat (default: %(default)s)")
    run.add_argument("--secret", help=argparse.SUPPRESS)
    nested = subs.add_parser("rules", help="rule tools", aliases=["r"])
    inner = nested.add_subparsers(dest="sub")
    inner.add_parser("check", help="check a | b")
    return parser


def test_render_lists_every_command_with_anchors_tables_and_help() -> None:
    page = gen.render(_toy_parser())
    assert page.startswith("# CLI reference\n")
    assert "A toy \\<tool\\> for \\*tests\\*." in page
    assert "| [`toy run`](#toy-run) | run a `thing` |" in page
    assert "| [`toy rules`](#toy-rules) | rule tools |" in page
    assert "| [`toy rules check`](#toy-rules-check) | check a \\| b |" in page
    assert page.count("## `toy rules`") == 1  # the alias `r` is not a second section
    assert "| `-n TIMES, --times TIMES` | repeat (default: 3) |" in page
    assert "| `target` | what to run |" in page
    assert "--secret" not in page
    assert "| `-h, --help` |" not in page  # every command has it; the help text shows it
    assert "Run it.\n\nSecond paragraph.\n\n" in page
    assert "\nBye.\n```" in page  # the epilog only inside the verbatim help text
    assert "```text\nusage: toy run [-h] [-n TIMES] target\n" in page


def test_raw_descriptions_keep_only_their_first_paragraph_as_prose() -> None:
    parser = argparse.ArgumentParser(
        prog="raw",
        description="One line.\n\n    indented example\n      more",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    page = gen.render(parser)
    assert "## `raw`\n\nOne line.\n\n```text\n" in page
    assert "    indented example\n      more\n" in page  # verbatim in the help text


def test_render_is_independent_of_the_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    narrow = gen.render(_toy_parser())
    monkeypatch.setenv("COLUMNS", "250")
    assert gen.render(_toy_parser()) == narrow
    assert gen.HELP_WIDTH == 100


def test_exit_codes_come_from_exit_constants() -> None:
    main = types.ModuleType("policylang.cli.main")
    main.EXIT_USAGE = 2  # type: ignore[attr-defined]
    one = types.ModuleType("policylang.cli.eval_cmd")
    one.EXIT_OK = 0  # type: ignore[attr-defined]
    one.EXIT_POLICY_DENIED = 3  # type: ignore[attr-defined]
    one.EXIT_FLAG = True  # type: ignore[attr-defined]
    two = types.ModuleType("policylang.cli.check_cmd")
    two.EXIT_OK = 0  # type: ignore[attr-defined]
    two.EXIT_USAGE = 2  # type: ignore[attr-defined]
    assert gen.exit_code_rows([main, one, two]) == [
        "| 0 | ok | `check`, `eval` |",
        "| 2 | usage | every command |",
        "| 3 | policy denied | `eval` |",
    ]
    assert "## Exit codes" in gen.render(_toy_parser(), [one])


def test_escape_markdown_keeps_code_spans() -> None:
    assert gen.escape_markdown("a_b `x_y|z` <c>") == "a\\_b `x_y|z` \\<c\\>"


def test_check_mode_reports_a_stale_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    monkeypatch.setattr(gen, "OUTPUT", tmp_path / "cli.md")
    monkeypatch.setattr(gen, "policylang_page", lambda: "# page\n")
    assert gen.main(["--check"]) == 1
    assert "cli.md is out of date; run:" in capsys.readouterr().out
    assert gen.main([]) == 0
    assert (tmp_path / "cli.md").read_text() == "# page\n"
    assert gen.main(["--check"]) == 0
