"""Each importer on realistic files: what is converted, dropped, and reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from policylang.decision import Verdict
from policylang.importers import ImportFormatError, Severity, import_text, render_policy
from policylang.importers.opencode import strip_jsonc

from .conftest import Ours, fixture_text


def rules_of(fmt: str, text: str) -> list[str]:
    policy = render_policy(import_text(fmt, text, filename="f"))
    return [line for line in policy.splitlines() if line and not line.startswith(("#", "expect"))]


def messages(fmt: str, text: str) -> list[tuple[str, str]]:
    result = import_text(fmt, text, filename="f")
    return [(str(w.severity), w.message) for w in result.warnings]


# --- Claude Code ------------------------------------------------------------------------


def claude(allow: list[str] = [], ask: list[str] = [], deny: list[str] = [], **extra: str) -> str:  # noqa: B006
    return json.dumps({"permissions": {"allow": allow, "ask": ask, "deny": deny, **extra}})


def test_claude_code_rule_forms() -> None:
    text = claude(
        allow=["Bash(git status)", "Bash(git diff:*)", "Bash(ls *)", "Bash(docker * ps)"],
        deny=["Bash(curl:*)"],
    )
    assert rules_of("claude-code", text) == [
        'policy "imported-claude-code"',
        "default ask",
        "allow git status",
        "allow git diff **",
        "allow ls **",
        "allow docker * ps",
        "deny curl **",
    ]


def test_claude_code_allow_more_specific_than_ask_is_dropped() -> None:
    text = claude(allow=["Bash(npm run test:*)"], ask=["Bash(npm:*)"])
    assert rules_of("claude-code", text)[2:] == ["ask npm **"]
    assert any("never applies in Claude Code" in m for _, m in messages("claude-code", text))


def test_claude_code_bare_bash_is_the_default() -> None:
    assert rules_of("claude-code", claude(deny=["Bash"]))[1] == "default deny"
    assert rules_of("claude-code", claude(allow=["Bash(*)"], ask=["Bash(git push:*)"]))[1:] == [
        "default allow",
        "ask git push **",
    ]


def test_claude_code_default_modes() -> None:
    assert rules_of("claude-code", claude(defaultMode="dontAsk"))[1] == "default deny"
    text = claude(defaultMode="bypassPermissions")
    assert rules_of("claude-code", text)[1] == "default ask"
    assert any("bypassPermissions" in m for _, m in messages("claude-code", text))


def test_claude_code_other_tools_are_skipped_with_a_note() -> None:
    text = claude(allow=["Read(./src/**)", "WebFetch(domain:x.org)", "mcp__gh__list"])
    assert ("note", "skipped 3 rule(s) for tools other than Bash") in messages("claude-code", text)


def test_claude_code_unexpressible_deny_is_reported_unconverted() -> None:
    text = claude(deny=["Bash(* --force)"])
    severities = [s for s, _ in messages("claude-code", text)]
    assert "unconverted" in severities
    assert "Bash(* --force)" in render_policy(import_text("claude-code", text, filename="f"))


@pytest.mark.parametrize("text", ["[]", "{}", '{"permissions": []}', "not json"])
def test_claude_code_wrong_shape(text: str) -> None:
    with pytest.raises(ImportFormatError):
        import_text("claude-code", text, filename="settings.json")


def test_every_rule_cites_its_origin_line() -> None:
    policy = render_policy(
        import_text("claude-code", fixture_text("claude-settings.json"), filename="settings.json")
    )
    lines = policy.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(("allow ", "ask ", "deny ")):
            assert lines[index - 1].startswith("# from settings.json:") or lines[
                index - 2
            ].startswith("# from settings.json:")


# --- OpenCode ---------------------------------------------------------------------------


def opencode(bash: object) -> str:
    return json.dumps({"permission": {"bash": bash}})


def test_opencode_last_match_wins_drops_overridden_entries() -> None:
    text = opencode({"git log *": "allow", "git *": "ask"})
    assert rules_of("opencode", text)[2:] == ["ask git **"]
    assert any("never applies in OpenCode" in m for _, m in messages("opencode", text))


def test_opencode_order_that_agrees_with_ours_is_kept() -> None:
    text = opencode({"*": "ask", "git *": "allow", "git push *": "deny"})
    assert rules_of("opencode", text)[1:] == ["default ask", "allow git **", "deny git push **"]
    assert all(s == "note" for s, _ in messages("opencode", text))


def test_opencode_deny_before_a_later_allow_is_stricter_with_a_warning() -> None:
    text = opencode({"rm *": "deny", "rm -i *": "allow"})
    assert rules_of("opencode", text)[2:] == ["deny rm **"]
    warnings = messages("opencode", text)
    assert any("denies it" in m for _, m in warnings)


def test_opencode_string_shorthand_is_a_catch_all() -> None:
    assert rules_of("opencode", opencode("deny"))[1:] == ["default deny"]


def test_opencode_jsonc_comments_and_trailing_commas() -> None:
    text = '{\n // c\n "permission": {"bash": {"ls *": "allow", /* x */ }, },\n}'
    assert json.loads(strip_jsonc(text)) == {"permission": {"bash": {"ls *": "allow"}}}
    assert rules_of("opencode", text)[2:] == ["allow ls **"]


def test_opencode_unknown_action_is_reported() -> None:
    assert ("unconverted", "unknown action") in messages("opencode", opencode({"ls": "maybe"}))


# --- Gemini CLI -------------------------------------------------------------------------


def test_gemini_prefix_regex_and_priority() -> None:
    text = """
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "allow"
priority = 10

[[rule]]
toolName = "run_shell_command"
commandRegex = "git (push|reset)$"
decision = "deny"
priority = 500
denyMessage = "no"

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "ask_user"
priority = 5
"""
    assert rules_of("gemini", text)[2:] == ["allow git **", 'deny git push|reset reason "no"']
    assert any("never applies in Gemini CLI" in m for _, m in messages("gemini", text))


def test_gemini_conditional_allow_is_dropped_conditional_deny_kept() -> None:
    text = """
[[rule]]
commandPrefix = "npm test"
decision = "allow"
priority = 1
modes = ["yolo"]

[[rule]]
commandPrefix = "npm publish"
decision = "deny"
priority = 1
interactive = false
"""
    assert rules_of("gemini", text)[2:] == ["deny npm publish **"]


def test_gemini_equal_priority_conflict_keeps_the_stricter() -> None:
    text = """
[[rule]]
commandPrefix = "git"
decision = "ask_user"
priority = 10

[[rule]]
commandPrefix = "git log"
decision = "allow"
priority = 10
"""
    assert rules_of("gemini", text)[2:] == ["ask git **"]


def test_gemini_not_toml() -> None:
    with pytest.raises(ImportFormatError):
        import_text("gemini", "[[rule]\n", filename="p.toml")


# --- Codex ------------------------------------------------------------------------------


def test_codex_rules_and_expectations(workdir: Path) -> None:
    ours = Ours("codex", fixture_text("codex-default.rules"), workdir)
    assert ours("git log -n 5") is Verdict.ALLOW
    assert ours("git push origin") is Verdict.ASK
    assert ours("git push -f origin") is Verdict.DENY
    assert ours("npm install --no-save x") is Verdict.ASK  # the allow never applies in Codex
    commands = [e.command for e in ours.result.expectations]
    assert "git push --force-with-lease origin main" in commands


def test_codex_file_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f'prefix_rule(pattern=["ls"])\n__import__("os").system("touch {marker}")\n'
    result = import_text("codex", text, filename="evil.rules")
    assert not marker.exists()
    assert [str(w.severity) for w in result.warnings] == ["unconverted"]


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        ('prefix_rule(pattern=[], decision="allow")', "non-empty list"),
        ('prefix_rule(pattern=["x"], decision="maybe")', "unknown decision"),
        ('prefix_rule(pattern=["x"], decision=DECISION)', "not a literal"),
        ('prefix_rule(pattern=["x"], color="red")', "unknown argument"),
    ],
)
def test_codex_bad_calls_are_reported(call: str, problem: str) -> None:
    result = import_text("codex", call, filename="r.rules")
    assert result.rules == ()
    assert problem in result.warnings[0].message


def test_codex_syntax_error() -> None:
    with pytest.raises(ImportFormatError, match=r"r\.rules:1"):
        import_text("codex", "prefix_rule(\n", filename="r.rules")


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        import_text("cursor", "{}", filename="x")


@pytest.mark.parametrize(
    ("fmt", "name"),
    [
        ("claude-code", "claude-settings.json"),
        ("opencode", "opencode.jsonc"),
        ("gemini", "gemini-policy.toml"),
        ("codex", "codex-default.rules"),
    ],
)
def test_fixtures_compile_and_carry_their_warnings(fmt: str, name: str, workdir: Path) -> None:
    ours = Ours(fmt, fixture_text(name), workdir, filename=name)
    text = render_policy(ours.result)
    for warning in ours.result.warnings:
        assert warning.render().split(": ")[0] in text
    assert Severity.NOTE in {w.severity for w in ours.result.warnings}


def test_settle_expectations_keeps_a_looser_verdict_failing() -> None:
    from policylang.importers.common import settle_expectations

    result = import_text("codex", 'prefix_rule(["ls"], match=["ls"])', filename="r.rules")
    looser = settle_expectations(result, lambda command: Verdict.ALLOW)
    assert looser == result
    stricter_view = import_text(
        "codex", 'prefix_rule(["ls"], decision="prompt", match=["ls"])', filename="r.rules"
    )
    settled = settle_expectations(stricter_view, lambda command: Verdict.ALLOW)
    assert settled.expectations[0].verdict is Verdict.ASK  # the peer's verdict stays
    assert settled.warnings[-1].severity is Severity.UNCONVERTED
    denied = settle_expectations(result, lambda command: Verdict.DENY)
    assert denied.expectations[0].verdict is Verdict.DENY
    assert denied.warnings[-1].severity is Severity.STRICTER


def test_codex_examples_that_contradict_their_rule_are_reported() -> None:
    text = 'prefix_rule(["git", "status"], match=["git log"], not_match=["git status -s"])'
    found = [w.message for w in import_text("codex", text, filename="r.rules").warnings]
    assert "the match example `git log` does not match its rule (Codex rejects this)" in found
    assert "the not_match example `git status -s` matches its rule (Codex rejects this)" in found
