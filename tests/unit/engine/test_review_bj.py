"""Review BJ: read-write redirects, the approvals audit, translated strings.

BJ1 (HA2): tree-sitter-bash rejects the read-write redirect `<>`. `cat 3<>F` was read as
the read `3<F` and a stray `>`, so a protected file bash opens for writing (creating it
if missing) was judged as a read: `cat 3<>.git/hooks/pre-commit` asked where `cat
3>.git/hooks/pre-commit` is denied; `exec 3<>/tmp/x` asked only "could not parse `>`".
The analyser now reads `<>` where tree-sitter rejects it; the line still asks
(`shell.read-write-redirect`, naming the file), and a protected target gets what a write
redirect onto it gets.
BJ2 (GY2): `policylang check --approvals` flagged approvals the engine itself offers:
`go build` and `go test` (its probe workspace did not exist, so go's cgo check asked on
every compiling line and nothing was offered), `declare` (offered for `declare -p x`),
`unsquashfs` (for `unsquashfs -l x`), `crontab` (for `crontab -l`).
BJ3 (fuzz finding): `ls - $"~"` asked where `ls - '~'` is allowed: tree-sitter drops the
lone `-` before a translated string. And reading `$"…"` as the text it quotes holds only
where bash translates nothing: with TEXTDOMAIN in the environment bash replaces it by
its message catalog's text (from TEXTDOMAINDIR) and expands that, `$(…)` included.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import load_policy
from policylang.decision import Verdict
from policylang.engine.approvalaudit import Finding, judge
from policylang.engine.policy import Policy
from policylang.shell import parse_command

BASH = shutil.which("bash")


@pytest.fixture(scope="module")
def policy() -> Policy:
    return load_policy()


@pytest.fixture
def setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    (workspace / ".git" / "hooks").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _bash(line: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    assert BASH is not None
    done = subprocess.run(
        [BASH, "-c", line], cwd=cwd, env=env or {"PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


# -- BJ1: `<>` ---------------------------------------------------------------------------


def test_bj1_premise_bash_opens_the_target_for_writing(tmp_path: Path) -> None:
    if BASH is None:
        pytest.skip("bash is not installed")
    (tmp_path / "kept").write_text("abcdef\n")
    _bash(": 3<>made; [ a <> bracket ]; echo XY 1<>kept; exec {fd}<>named", tmp_path)
    assert (tmp_path / "made").exists()  # created if missing
    assert (tmp_path / "bracket").exists()  # `[` is a command: `<>` is its redirect
    assert (tmp_path / "named").exists()
    assert (tmp_path / "kept").read_text() == "XY\ndef\n"  # written through, not truncated


@pytest.mark.parametrize(
    "line",
    [
        "cat 3<>.git/hooks/pre-commit",
        "cat 3<>'.git/config'",
        "cat 3<>\\.git/config",
        "cat 3<> .git/config",
        'cat 3<>"$HOME/.bashrc"',
        "[ a <> .git/config ]",
        "exec 3<>notes 4<>.git/config",
        "bash -c 'exec 3<>.git/config'",
    ],
)
def test_bj1_a_read_write_redirect_onto_a_protected_path_is_a_write(
    setting: tuple[Path, dict[str, str]], line: str
) -> None:
    workspace, env = setting
    written = decide(line.replace("<>", ">"), workspace, env)
    assert written.verdict is Verdict.DENY, written.explain()
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any("writes protected path" in r.message for r in decision.reasons)


@pytest.mark.parametrize(
    ("line", "target"),
    [
        ("exec 3<>/tmp/x", "/tmp/x"),
        ("exec 3<>notes", "notes"),
        ("exec {fd}<>notes", "notes"),
        ('cat <> "a b" x', '"a b"'),
    ],
)
def test_bj1_an_ordinary_read_write_redirect_asks_and_names_its_file(
    setting: tuple[Path, dict[str, str]], line: str, target: str
) -> None:
    workspace, env = setting
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    found = [r for r in decision.reasons if r.rule_id == "shell.read-write-redirect"]
    assert found, decision.explain()
    assert f"bash opens `{target}` for reading and writing" in found[0].message


def test_bj1_the_model_reads_the_operator_as_bash_does() -> None:
    line = parse_command("exec {fd}<>f; cat 3<> g x; [ a <> b ]")
    redirects = [(r.op, r.fd, r.target.value if r.target else None)
                 for s in line.segments for r in s.redirects]  # fmt: skip
    assert redirects == [("<>", None, "f"), ("<>", 3, "g"), ("<>", None, "b")]
    assert [s.argv for s in line.segments] == [("exec",), ("cat", "x"), ("[", "a", "]")]
    assert [a.name for a in line.segments[0].assignments] == ["fd"]
    assert {p.code for p in line.problems} == {"shell.read-write-redirect"}
    assert line.segments[1].redirects[0].writes
    assert line.segments[1].redirects[0].reads


@pytest.mark.parametrize(
    "line",
    [
        "[[ a <> b ]]",  # bash: a syntax error in `[[ ]]`
        "(( a <> b ))",  # arithmetic: no redirect
        "cat <<>x",  # `<<` then `>`
        "cat <<<>x",  # `<<<` then `>`
    ],
)
def test_bj1_where_bash_reads_no_read_write_redirect_nothing_is_rewritten(line: str) -> None:
    codes = {p.code for p in parse_command(line).problems}
    assert codes, line  # still a problem: the line asks
    assert "shell.read-write-redirect" not in codes


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("echo x <>/dev/null", Verdict.ASK),  # (`>/dev/null` is allowed: still asks)
        ("echo x 3<>/tmp/x", Verdict.ASK),
        ("cat <notes", Verdict.ALLOW),
        ("cat 3< notes", Verdict.ALLOW),
        ("ls >|out", Verdict.ASK),
        ("cat x <> ~/.bashrc", Verdict.DENY),
    ],
)
def test_bj1_guards(setting: tuple[Path, dict[str, str]], line: str, verdict: Verdict) -> None:
    workspace, env = setting
    (workspace / "notes").write_text("n\n")
    decision = decide(line, workspace, env)
    assert decision.verdict is verdict, decision.explain()


# -- BJ2: the approvals audit ------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "line"),
    [
        ("go build", "go build"),
        ("go test", "go test ./..."),
        ("go vet", "go vet"),
        ("declare", "declare -p x"),
        ("unsquashfs", "unsquashfs -l x"),
        ("crontab", "crontab -l"),
        ("at", "at -l"),
        ("readonly", "readonly existing_variable"),
        ("systemctl edit", "systemctl edit unit --user"),
    ],
)
def test_bj2_an_approval_the_engine_offers_passes_the_audit(
    policy: Policy, setting: tuple[Path, dict[str, str]], rule: str, line: str
) -> None:
    workspace, env = setting
    offered = decide(line, workspace, env)
    assert offered.suggested_rule == rule, offered.explain()  # the engine offers it
    assert judge(policy, rule) is None


@pytest.mark.parametrize(
    ("rule", "finding", "offer"),
    [
        ("go", Finding.WIDER, "go $"),
        ("task", Finding.WIDER, "task $"),
        ("npm", Finding.WIDER, "npm $"),
        ("git remote", Finding.WIDER, "git remote x"),
        ("python3", Finding.WIDER, "python3 <workspace>/x"),
        ("git remote -v", Finding.NOT_OFFERED, None),
        ("git log", Finding.NOT_OFFERED, None),
        ("unzip", Finding.NOT_OFFERED, None),
        ("docker compose config", Finding.NOT_OFFERED, None),
        ("rm -rf /", Finding.DENIED, None),
    ],
)
def test_bj2_guard_approvals_wider_than_any_offer_are_still_found(
    policy: Policy, rule: str, finding: Finding, offer: str | None
) -> None:
    found = judge(policy, rule)
    assert found is not None
    assert (found.finding, found.offer) == (finding, offer), found.message()
    assert "policylang-audit-" not in found.message()  # (the probe folders are made up)


# -- BJ3: translated strings -------------------------------------------------------------


def test_bj3_a_lone_dash_before_a_translated_string_is_a_word(
    setting: tuple[Path, dict[str, str]],
) -> None:
    workspace, env = setting
    line = parse_command('ls a - $"~" b')
    assert line.problems == ()
    assert line.segments[0].argv == ("ls", "a", "-", "~", "b")
    for text in ('ls - $"~"', 'echo - $"x"', "printf '%s' - $\"x\""):
        decision = decide(text, workspace, env)
        assert decision.verdict is Verdict.ALLOW, decision.explain()
    assert decide('cat - $".git/config" >/dev/null', workspace, env).verdict is Verdict.ALLOW
    assert decide('cat - $".env"', workspace, env).verdict is Verdict.DENY
    if BASH is not None:  # (the premise: bash passes the `-`)
        assert _bash("printf '[%s]' a - $\"~\" b", workspace) == "[a][-][~][b]"


def _catalog(path: Path, messages: dict[str, str]) -> None:
    """A GNU message catalog (`.mo`) translating each key of `messages` to its value."""
    keys = sorted(messages)
    ids = texts = b""
    spans: list[tuple[int, int, int, int]] = []
    for key in keys:
        original, translated = key.encode(), messages[key].encode()
        spans.append((len(original), len(ids), len(translated), len(texts)))
        ids += original + b"\0"
        texts += translated + b"\0"
    start = 28 + 16 * len(keys)
    table = [n for size, at, _s, _a in spans for n in (size, at + start)]
    table += [n for _s, _a, size, at in spans for n in (size, at + start + len(ids))]
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + struct.pack(f"<{len(table)}I", *table) + ids + texts)


def test_bj3_a_translated_string_asks_where_the_environment_names_a_text_domain(
    setting: tuple[Path, dict[str, str]],
) -> None:
    workspace, env = setting
    catalogs = workspace / "locale"
    _catalog(
        catalogs / "C.UTF-8" / "LC_MESSAGES" / "evil.mo",
        {"x": "$(touch PWNED)y", "notes": str(Path(env["HOME"]) / ".ssh" / "id_rsa")},
    )
    translating = {**env, "TEXTDOMAIN": "evil", "TEXTDOMAINDIR": str(catalogs),
                   "LANG": "C.UTF-8"}  # fmt: skip
    for line in ('echo $"x"', 'cat $"notes"', "bash -c $'cat $\\x22notes\\x22'",
                 'echo $\\\n"x"'):  # fmt: skip
        decision = decide(line, workspace, translating)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert any(r.rule_id == "engine.translated-string" for r in decision.reasons)
    # guards: no translated string, or no text domain (bash then translates nothing)
    assert decide("ls x", workspace, translating).verdict is Verdict.ALLOW
    without = {k: v for k, v in translating.items() if k != "TEXTDOMAIN"}
    assert decide('echo $"x"', workspace, without).verdict is Verdict.ALLOW
    assert decide('cat $".env"', workspace, translating).verdict is Verdict.DENY
    if BASH is None:
        return
    # the premise (bash 5.2): the catalog's text replaces the string and is expanded
    printed = _bash('printf "[%s]" $"x" $"notes"', workspace, translating)
    if printed == "[x][notes]":
        pytest.skip("this system's C library does not translate in the C.UTF-8 locale")
    assert printed == f"[y][{Path(env['HOME']) / '.ssh' / 'id_rsa'}]"
    assert (workspace / "PWNED").exists()
    os.remove(workspace / "PWNED")
