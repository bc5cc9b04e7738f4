"""The secrets oracle: canary secrets in the dynamic oracle's sandbox, and every command
a policy allows that reads one.

The pure parts (tokens, the scanner, the generated lines) run here without a sandbox;
the rest runs commands for real, inside bubblewrap under strace, never outside.
"""

from __future__ import annotations

import base64
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from policylang import load_policy
from policylang.decision import Verdict
from policylang.testing import _secrets, bashcheck
from policylang.testing import oracle as oracle_mod
from policylang.testing.oracle import HOME, WORKSPACE, Oracle, check_policy, policy_labels

ROOT = Path(__file__).resolve().parents[3]
DEFAULT = ROOT / "policylang" / "rulesets" / "default.policy"
MISLABELLED = ROOT / "docs" / "examples" / "secrets-mislabelled.policy"

sandboxed = pytest.mark.skipif(
    shutil.which("bwrap") is None or shutil.which("strace") is None,
    reason="needs bubblewrap and strace (scripts/system-deps.sh installs them)",
)


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    with Oracle(timeout_s=5.0, secrets=True) as sandbox:
        yield sandbox


# --- pure parts ---------------------------------------------------------------------------

def test_tokens_are_found_in_any_chunking_and_encoding() -> None:
    token = _secrets.canary_token(3, "0123456789abcdef")
    for before in (b"", b"x", b"xy"):
        text = before + b"KEY=" + token.encode() + b"\n"
        for shown in (text, text.hex().encode(), base64.encodebytes(text * 4)):
            for size in (1, 7, 64):
                scanner = _secrets.TokenScanner({token: "/workspace/.env"})
                for start in range(0, len(shown), size):
                    scanner.feed(shown[start:start + size])
                assert list(scanner.found) == ["/workspace/.env"], (before, shown, size)


def test_a_token_cut_short_is_not_found() -> None:
    token = _secrets.canary_token(3, "0123456789abcdef")
    scanner = _secrets.TokenScanner({token: "/workspace/.env"})
    scanner.feed(token[:-1].encode() + b" " + token[1:].encode())
    assert not scanner.found


def test_corpus_lines_replace_the_last_path_operand() -> None:
    lines = _secrets.corpus_lines(["grep -rn pattern path/to/directory", "ls -la | wc -l",
                                   "head -n 5 file.txt"], operands=(".", "~"))
    assert lines == ["grep -rn pattern .", "grep -rn pattern ~", "head -n 5 .", "head -n 5 ~"]


def test_option_value_lines_put_a_glob_where_a_value_goes() -> None:
    lines = _secrets.option_value_lines(["rg -f patterns.txt src", "ls -la", "grep -m 1 x f"],
                                        values=("*",))
    assert lines == ["rg -f * src", "grep -m * x f"]


def test_operand_lines_cover_readers_operands_and_prefixes() -> None:
    lines = _secrets.operand_lines(readers=("cat {}",), operands=(".*",), prefixes=("cd ~ && ",),
                                   relative=("*",))
    assert lines == ["cat .*", "cd ~ && cat *"]


def test_the_secret_seeking_lines_are_valid_bash() -> None:
    lines = [*_secrets.SECRET_PROBES, *_secrets.operand_lines()[::7]]
    assert all(bashcheck.syntax_ok(lines))


def test_every_planted_secret_is_read_protected_by_the_default_ruleset(tmp_path: Path) -> None:
    # the canaries stand for what the shipped ruleset protects: ask it about each one
    with Oracle(secrets=True) as sandbox:
        labels = policy_labels(load_policy(DEFAULT), sandbox)
        files = [path for path in sandbox.secrets if not path.startswith("$")]
        names = [*files, *(f"{WORKSPACE}/{n}" for n in _secrets.WORKSPACE_LINKS)]
        for path in names:
            for reader in ("cat", "head -n 1", "grep -h .", "base64"):
                decision = labels.evaluate(f"{reader} {sandbox.spelled(path)}")
                assert decision.verdict is Verdict.DENY, (reader, path, decision.verdict)
        # and the variables are secrets for it: printing one asks
        for name in _secrets.ENV_SECRETS:
            assert labels.evaluate(f"echo ${name}").verdict is Verdict.ASK, name
    assert len(names) == len(_secrets.HOME_SECRETS) + len(_secrets.WORKSPACE_SECRETS) + 1


# --- in the sandbox -----------------------------------------------------------------------

@sandboxed
def test_the_secrets_are_planted_with_their_tokens(oracle: Oracle) -> None:
    assert f"{HOME}/.ssh/id_rsa" in oracle.secrets
    assert f"{WORKSPACE}/certs/server.pem" in oracle.secrets
    assert len(set(oracle.secrets.values())) == len(oracle.secrets)
    for path, token in oracle.secrets.items():
        if not path.startswith("$"):
            assert token in oracle.host_path(path).read_text()
    link = oracle.workspace / "docs" / "credentials.txt"
    assert link.resolve() == oracle.host_path(f"{HOME}/.aws/credentials").resolve()


@sandboxed
@pytest.mark.parametrize(("command", "secret"), [
    ("cat ~/.ssh/id_rsa", f"{HOME}/.ssh/id_rsa"),
    ("cat config/.env.local", f"{WORKSPACE}/config/.env.local"),
    ("cat docs/credentials.txt", f"{HOME}/.aws/credentials"),  # through a link
    ("wc -l < certs/server.pem", f"{WORKSPACE}/certs/server.pem"),  # read, not printed
])
def test_a_read_of_a_secret_is_flagged(oracle: Oracle, command: str, secret: str) -> None:
    seen = oracle.observe(command)
    assert seen.categories == ("secret",), seen.render()
    assert {e.target for e in seen.flags} == {secret}
    assert "read" in {e.syscall for e in seen.flags}


@sandboxed
def test_a_printed_token_is_flagged_without_a_read(oracle: Oracle) -> None:
    path, token = next(iter(oracle.secrets.items()))
    assert not path.startswith("$")
    seen = oracle.observe(f"echo x{token}x >&2")  # on stderr, never opened
    assert [(e.syscall, e.target) for e in seen.flags] == [("output", path)], seen.render()


@sandboxed
@pytest.mark.parametrize("command", [
    "cat README", "ls -la ~/.ssh config certs", "stat ~/.ssh/id_rsa .env",
    "find ~ . -name 'id_*' -o -name '.env*'", "echo ~/.ssh/* .env*", "test -r .env",
    "git status --porcelain", "du -a ~", "ls -laL docs",
    # these open the files, only to fstat them
    "df .* certs/* docs/*", "wc -c .env ~/.netrc certs/server.pem",
])
def test_names_and_metadata_are_not_reads(oracle: Oracle, command: str) -> None:
    seen = oracle.observe(command)
    assert seen.returncode == 0, seen.render()
    assert not seen.flagged, seen.render()


@sandboxed
@pytest.mark.parametrize("command", [
    "echo $GITHUB_TOKEN", "printenv AWS_SECRET_ACCESS_KEY", "env", "echo \"$GITHUB_TO\\\nKEN\"",
])
def test_a_printed_secret_variable_is_flagged(oracle: Oracle, command: str) -> None:
    # (review CC8's `$GITHUB_TO\⏎KEN` runs no command the argv oracle could see)
    seen = oracle.observe(command)
    assert "secret" in seen.categories, seen.render()
    assert {e.target for e in seen.flags} & {"$GITHUB_TOKEN", "$AWS_SECRET_ACCESS_KEY"}


@sandboxed
@pytest.mark.parametrize("command", ["printenv HOME; echo ${#GITHUB_TOKEN}", "ps aux", "ps -ef"])
def test_the_secret_variables_are_only_in_the_commands_environment(
    oracle: Oracle, command: str
) -> None:
    # (not on bubblewrap's command line, which `ps aux` in the sandbox prints)
    assert {"$GITHUB_TOKEN", "$AWS_SECRET_ACCESS_KEY"} <= set(oracle.secrets)
    seen = oracle.observe(command)
    assert not seen.flagged, seen.render()


@sandboxed
def test_write_flags_still_hold_with_secrets(oracle: Oracle) -> None:
    seen = oracle.observe("echo x >> .env")
    assert seen.categories == ("write",), seen.render()


@sandboxed
def test_a_mislabelled_ruleset_is_caught() -> None:
    report = check_policy(MISLABELLED, secrets=True, budget_s=60, timeout_s=5, commands=[
        "cat ~/.ssh/id_rsa", "cat README", "cat .env", "cat ~/.aws/credentials",
        "ls -la ~/.ssh"])
    assert report.candidates == 3  # `.env` and `~/.aws` are protected: never run
    flagged = {o.command: o.categories for o in report.flagged}
    assert flagged == {"cat ~/.ssh/id_rsa": ("secret",)}, report.render()
    text = report.render()
    assert "3 of 3 allowed command(s)" in text
    assert "secrets the policy itself lets `cat` read: /home/oracle/.ssh/id_rsa" in text


@sandboxed
def test_the_default_ruleset_on_clean_commands() -> None:
    report = check_policy(DEFAULT, secrets=True, budget_s=60, timeout_s=5, commands=[
        "cat README", "ls -la", "grep -n alpha file", "cat ~/.ssh/id_rsa", "cat .env"])
    assert report.candidates == 3  # the secrets themselves are denied
    assert not report.flagged, report.render()
    assert "secrets the policy itself" not in report.render()


@sandboxed
def test_command_line_and_baseline(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = [str(MISLABELLED), "--secrets", "--command", "cat ~/.ssh/id_rsa"]
    assert oracle_mod.main(args) == 1
    out = capsys.readouterr().out
    assert "secret: 1 command(s)" in out
    assert "secret: read(/home/oracle/.ssh/id_rsa) = " in out
    known = tmp_path / "known.txt"
    known.write_text("secret /home/oracle/.ssh/*  # this ruleset lets agents read keys\n")
    assert oracle_mod.main([*args, "--known", str(known)]) == 0
    assert "known: 1 command(s)" in capsys.readouterr().out
    # without --secrets nothing is planted, and a read is no effect
    assert oracle_mod.main([str(MISLABELLED), "--command", "cat ~/.ssh/id_rsa"]) == 0
