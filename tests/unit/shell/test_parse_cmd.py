"""`policylang parse`: text, summary and JSON output, and the exit status."""

from __future__ import annotations

import json

import pytest

from policylang.cli.main import main
from policylang.cli.parse_cmd import render_summary, render_text
from policylang.shell.parse import parse_command


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "sudo rm -rf $(pwd)/x && ls > out"]) == 0
    out = capsys.readouterr().out
    assert "segment 1: simple, then `&&`" in out
    assert "argv[3]  ⟨$(pwd)/x⟩ not literal: command-substitution `$(pwd)`" in out
    assert "wrappers sudo: runs rm -rf ⟨$(pwd)/x⟩" in out
    assert "inside $() in argument 3 of segment 1:" in out
    assert "redirect > out" in out


def test_problems_set_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "ls &&& ls"]) == 1
    assert "1:6: shell.syntax-error: cannot parse `&`" in capsys.readouterr().out


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--json", "A=1 echo $(id)"]) == 0
    data = json.loads(capsys.readouterr().out)
    segment = data["segments"][0]
    assert segment["assignments"][0]["name"] == "A"
    assert segment["words"][1]["value"] is None
    nested = segment["words"][1]["expansions"][0]["nested"]
    assert nested["segments"][0]["words"][0]["value"] == "id"
    assert segment["span"] == [0, 14]


def test_summary_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--summary", "cat <<'E' | sh -c \"rm x\"\nbody\nE"]) == 0
    assert capsys.readouterr().out == "[cat <<q:E]@pipeline | [sh -c \"rm x\"] =>sh:{[rm x]}\n"


def test_render_text_of_a_nested_shell_string() -> None:
    text = render_text("bash -c 'ls; rm x'")
    assert "wrappers bash: runs the nested command line below" in text
    assert "inside the command string of `bash` of segment 1:" in text


def test_render_summary_marks_kinds_and_problems() -> None:
    line = parse_command("for x in *; do echo ~; done; ls !(a)")
    assert render_summary(line).endswith("!! syntax-error,unhandled-node")
    assert render_summary(parse_command("")) == "∅"
