"""Review AW: `git -c` driver keys, programs PATH finds through wrappers and helpers, and
files that grep's other names and `git grep` read patterns from."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict, load_policy
from policylang.compiler.checks import harmless_git_setting


@pytest.mark.parametrize(
    "setting",
    [
        "diff.renames.textconv=touch /tmp/x; cat",
        "diff.context.command=sh",
        "diff.algorithm.textconv=sh",
        "diff.noprefix.command=sh",
        "diff.interhunkcontext.textconv=sh",
        "log.date.x=1",
    ],
)
def test_a_diff_driver_named_like_a_harmless_key_is_not_harmless(setting: str) -> None:
    """AW1: `diff.renames` matched as a prefix, so the textconv of a driver *named*
    `renames` (which `.gitattributes` selects) passed as harmless."""
    assert not harmless_git_setting(setting)


@pytest.mark.parametrize("setting", ["diff.renames=copies", "color.diff.meta=red", "core.abbrev=9"])
def test_the_harmless_keys_stay_harmless(setting: str) -> None:
    assert harmless_git_setting(setting)


def test_git_c_with_a_driver_key_is_not_read_only(tmp_path: Path) -> None:
    decision = load_policy(snapshot=False).evaluate(
        "git -c 'diff.renames.textconv=touch /tmp/PWN; cat' log -p", workspace=str(tmp_path)
    )
    assert decision.verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "env echo x",
        "timeout 5 echo x",
        "nohup echo x",
        "exec echo x",
        "echo a | xargs",
        "timeout 5 nice ls",
        "tar -tzf x.tgz",
        "tar -tf y.tar.gz",
        "zgrep hi y.tar.gz",
    ],
)
def test_programs_path_finds_in_the_workspace_through_wrappers_and_helpers(
    tmp_path: Path, command: str
) -> None:
    """AW2: only the segment's own name and its innermost command were looked up, and a
    builtin's name never, though `env echo` execs the `echo` PATH finds."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("echo", "nice", "gzip"):
        program = bin_dir / name
        program.write_text("#!/bin/sh\ntouch /tmp/PWN\n")
        program.chmod(0o755)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{bin_dir}:/usr/bin:/bin"}
    policy = load_policy(snapshot=False)
    decision = policy.evaluate(command, workspace=str(tmp_path), env=env)
    assert decision.verdict is Verdict.ASK
    assert "engine.path-program" in [r.rule_id for r in decision.reasons]
    # with the same PATH, bash's own builtin and a program not in the folder are fine
    for plain in ("echo x", "command echo x", "ls"):
        assert policy.evaluate(plain, workspace=str(tmp_path), env=env).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "egrep -f{secret} x",
        "fgrep -f{secret} x",
        "zgrep -f{secret} x.gz",
        "zgrep -hf{secret} x.gz",
        "zgrep --file={secret} x.gz",
        "git grep -f {secret} -- README",
        "git grep -E -f{secret} -- README",
    ],
)
def test_pattern_files_of_greps_other_names_and_git_grep_are_checked(
    tmp_path: Path, command: str
) -> None:
    """AW3: `egrep`, `fgrep` and `zgrep` had no option table, so `-fFILE` was a flag
    bundle; `git grep -f FILE` echoes the lines it cannot compile."""
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    secret = home / ".aws" / "credentials"
    secret.write_text("aws_secret_access_key = x[\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    decision = load_policy(snapshot=False).evaluate(
        command.format(secret=secret), workspace=str(workspace), env={"HOME": str(home)}
    )
    assert decision.verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "command", ["((rm -rf ~) )", "((rm -rf /) )", "((cat ~/.aws/credentials) )", "((rm -rf ~);)"]
)
def test_nested_subshells_the_parser_reads_as_arithmetic_keep_their_denies(
    tmp_path: Path, command: str
) -> None:
    """AW5: bash reads `((…) )` as two subshells (no `))` closes it); tree-sitter does not
    parse it, and the recovery's pieces kept the parentheses (`rm -rf ~)`), so no rule
    matched and the line asked instead of being denied."""
    decision = load_policy(snapshot=False).evaluate(command, workspace=str(tmp_path))
    assert decision.verdict is Verdict.DENY


def test_the_globs_of_a_line_share_one_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AW6: each glob had its own 20,000-entry budget, so 640 globs in a 10 KB line read
    for 30 s; the line's globs now read from one budget, and past it they ask."""
    from policylang.engine import checks

    for index in range(30):
        (tmp_path / f"f{index}").write_text("x")
    monkeypatch.setattr(checks, "LINE_GLOB_VISITS", 70)
    monkeypatch.setattr(checks, "GLOB_FLOOR", 5)
    monkeypatch.setattr(checks, "GLOBS_PAST_BUDGET", 1)
    policy = load_policy(snapshot=False)
    two = policy.evaluate("cat f1* f2*", workspace=str(tmp_path))
    assert two.verdict is Verdict.ALLOW  # 60 entries read: within the budget
    three = policy.evaluate("cat f1* f2* f3*", workspace=str(tmp_path))
    assert three.verdict is Verdict.ASK
    assert any("have read 70 directory entries" in r.message for r in three.reasons)


def test_a_glob_after_the_budget_is_spent_is_still_checked_in_a_small_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BA6: expensive globs placed first had left `cat .en*` unchecked: it asked where it
    is denied alone. Past the line's budget a glob still reads a small budget of its own."""
    from policylang.engine import checks

    big = tmp_path / "big"
    big.mkdir()
    for index in range(40):
        (big / f"q{index}").write_text("x")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("SECRET=1\n")
    monkeypatch.setattr(checks, "LINE_GLOB_VISITS", 100)
    line = " ".join(f"{big}/q{i}*" for i in range(4))
    decision = load_policy(snapshot=False).evaluate(
        f"ls {line}; cat .en*", workspace=str(workspace)
    )
    assert decision.verdict is Verdict.DENY


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("git log -L1,1:.env", Verdict.DENY),
        ("git log -L '/X/,+1:.env'", Verdict.DENY),
        ("git log -L :main:.env", Verdict.DENY),
        ("git log -L1,5:src/a.py", Verdict.ALLOW),
        ("git log -L1,1:$F", Verdict.ASK),
    ],
)
def test_the_file_of_git_log_line_ranges_is_read_like_a_path(
    tmp_path: Path, command: str, verdict: Verdict
) -> None:
    """AW4: `git log -L1,1:.env` printed a `.env` whose removal was staged, where
    `git show HEAD:.env` is denied."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    decision = load_policy(snapshot=False).evaluate(command, workspace=str(tmp_path))
    assert decision.verdict is verdict


@pytest.mark.parametrize(
    "command",
    [
        "cat $'\\x{2e}env'",
        "cat /etc/sh$'\\x{61}'dow",
        "cat id_$'\\x{72}'sa",
        "cat $'\\x{12e}env'",
        "bash -c $'cat \\x{2e}env'",
        "watch -x bash -c 'cat .env'",
        "watch --exe bash -c 'cat .env'",
        "watch -tx bash -c 'cat .env'",
    ],
)
def test_review_az_spellings_of_a_protected_read_are_denied(tmp_path: Path, command: str) -> None:
    """Review AZ1: `$'\\x{2e}env'` is `.env` to bash; AZ2: `watch -x` runs its words as
    they are, not joined into a `sh -c` string (which had made it a bare `bash -c cat`)."""
    decision = load_policy(snapshot=False).evaluate(command, workspace=str(tmp_path))
    assert decision.verdict is Verdict.DENY


@pytest.mark.parametrize(
    "command",
    [
        "find . -name '*.py' | xargs --max-lines rm echo",
        "xargs --max-l shred true",
        "watch -x bash -c 'find ~ -delete'",
        "git push $'\\x{2d}-force'",
    ],
)
def test_review_az_commands_with_effects_are_not_allowed(tmp_path: Path, command: str) -> None:
    """Review AZ3: GNU xargs's `--max-lines` takes a value only as `--max-lines=N`, so in
    `xargs --max-lines rm echo` xargs runs `rm`; the engine had judged `echo`."""
    decision = load_policy(snapshot=False).evaluate(command, workspace=str(tmp_path))
    assert decision.verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    ["env 'A=1' cat .env", 'env "A=1" cat .env', "env A\\=1 cat .env", "env 'FOO=1' rm -rf /",
     "dd if=~/.aws/credentials", "dd of=~/.bashrc"],
)
def test_review_az_quoted_env_assignments_and_tilde_after_a_key_are_seen(
    tmp_path: Path, command: str
) -> None:
    """Review AZ14: quotes mean nothing to env, which received `A=1` and ran `cat .env`;
    the quoted word had been taken for the program. AZ10: bash expands `~` after the `=`
    of `if=~/…`, so dd reads the home folder's file."""
    home = tmp_path / "home"
    decision = load_policy(snapshot=False).evaluate(
        command, workspace=str(tmp_path / "ws"), env={"HOME": str(home)}
    )
    assert decision.verdict is Verdict.DENY


@pytest.mark.parametrize(
    "command",
    [
        "! { cat /etc/shadow; }",
        "if ! { cat /etc/shadow; }; then :; fi",
        "ls\n\\rm -rf /",
        "ls > !(x); cat $'.env'",
        'ls <<E;\n"$X\nE\necho x >| ~/.bashrc',
    ],
)
def test_review_az_lines_tree_sitter_misreads_keep_their_denies(
    tmp_path: Path, command: str
) -> None:
    """Review AZ13 (`{` after `!` read as a word), AZ6 (a newline inside a word), AZ7 (a
    syntax error's neighbourhood misread), AZ11 (`>|` cut at its `|`): each asked where
    its part alone is denied; the line's pieces are now read on their own."""
    decision = load_policy(snapshot=False).evaluate(command, workspace=str(tmp_path))
    assert decision.verdict is Verdict.DENY


def test_programs_path_entry_linked_into_the_workspace_after_a_system_entry(
    tmp_path: Path,
) -> None:
    """Where a PATH entry leads is looked up only for the entry that holds the program
    (a speed-up of 5 December 2026): a link outside the workspace that leads into it is
    still the workspace's, however it is spelt, and a system folder earlier on PATH that
    holds the name still wins."""
    workspace = tmp_path / "ws"
    (workspace / "tools").mkdir(parents=True)
    program = workspace / "tools" / "ls"
    program.write_text("#!/bin/sh\ntouch /tmp/PWN\n")
    program.chmod(0o755)
    link = tmp_path / "bin"
    link.symlink_to(workspace / "tools")
    (tmp_path / "x").mkdir()
    policy = load_policy(snapshot=False)
    for entries, planted in (
        (f"{link}:/usr/bin:/bin", True),
        (f"{tmp_path}/x/../bin:/usr/bin:/bin", True),
        (f"/usr/bin:/bin:{link}", False),
    ):
        env = {"HOME": str(tmp_path / "home"), "PATH": entries}
        decision = policy.evaluate("echo a && ls", workspace=str(workspace), env=env)
        reasons = [r.rule_id for r in decision.reasons]
        if planted:
            assert decision.verdict is Verdict.ASK, entries
            assert "engine.path-program" in reasons, entries
        else:
            assert decision.verdict is Verdict.ALLOW, (entries, reasons)
