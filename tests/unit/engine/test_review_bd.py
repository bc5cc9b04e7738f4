"""Review BD: bash features that run code or read secrets behind a word-level analyser.

Each line here was allowed before the fix; where it is safe, real bash confirms the effect
(a marker file created by the command the line hides)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.engine.policy import Policy

BASH = shutil.which("bash")


def _verdict(policy: Policy, command: str, workspace: Path, **env: str) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin", **env}
    decision = policy.evaluate(command, workspace=str(workspace), env=environment)
    return decision.verdict


def _bash_creates_marker(command: str, cwd: Path, marker: Path) -> bool:
    assert BASH is not None
    subprocess.run([BASH, "-c", command], cwd=cwd, capture_output=True, timeout=10, check=False)
    return marker.exists()


@pytest.mark.parametrize(
    "command",
    [
        "for i in 1 2; do less LESSOPEN='|touch P %s' x; set -k; done",
        "while less LESSOPEN='|touch P %s' x; do set -k; done",
        "for i in 1 2; do ls PATH=bin; set -k; done",
        "for i in 1 2; do cat credentials; eval 'cd ~/.aws'; done",
        "for i in 1 2; do cat credentials; trap 'cd ~/.aws' DEBUG; done",
        "f() { less LESSOPEN='|touch P %s' x; set -k; }; f; f",
    ],
)
def test_a_poisoning_segment_in_a_loop_changes_the_segments_before_it(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BD1: the second pass runs the first segment after `set -k` (or a `cd` in `eval` or a
    trap): poison reached only the segments written after the poisoning one."""
    assert _verdict(default_policy, command, workspace) is not Verdict.ALLOW


def test_the_loop_poison_is_real(workspace: Path) -> None:
    marker = workspace / "P"
    script = workspace / "show"
    script.write_text("#!/bin/sh\nenv | grep -q '^LESSOPEN=' && touch P\n")
    script.chmod(0o755)
    line = "for i in 1 2; do ./show LESSOPEN=x; set -k; done"
    assert _bash_creates_marker(line, workspace, marker)
    marker.unlink()
    assert not _bash_creates_marker("./show LESSOPEN=x; set -k", workspace, marker)


@pytest.mark.parametrize(
    "command",
    [
        "for x in {a,b}\\[\\$\\(touch\\ P\\)\\]; do echo $((x)); done",
        "for x in a$((0))\\[\\$\\(touch\\ P\\)\\]; do echo $((x)); done",
        "for x in {,}$'a[\\x24(touch P)]'; do echo $((x)); done",
        "for x in {a,b}\\[\\$\\(touch\\ P\\)\\]; do [[ $x -eq 1 ]]; done",
        "test -v {a,b}[{$,x}\"(touch P)]\"",
        "read -a a <<< 1; unset a[{$,x}'(touch P)]'",
        "printf -v {a,b}[{$,x}'(touch P)]' x",
    ],
)
def test_a_brace_expansion_that_builds_a_subscript_asks(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BD2: braces and escapes build `a[$(touch P)]`, which bash evaluates."""
    assert _verdict(default_policy, command, workspace) is Verdict.ASK


def test_the_brace_subscript_is_real(workspace: Path) -> None:
    marker = workspace / "P"
    line = "for x in {a,b}\\[\\$\\(touch\\ P\\)\\]; do echo $((x)); done"
    assert _bash_creates_marker(line, workspace, marker)


@pytest.mark.parametrize(
    "command",
    [
        "test -v a?*",
        "[ -v a?* ]",
        "[[ -v a?* ]]",
        "unset a?*",
        "read -a a <<< 1; unset a?*",
        "cd a?*; echo $(( ${PWD##*/} ))",
        "cd a?*; [[ ${PWD##*/} -eq 1 ]]",
        "cd a?*; cd ..; echo $(( ${OLDPWD##*/} ))",
        "pushd a?*; echo $(( ${DIRSTACK##*/} ))",
        "cd a?*; for x in ~+; do echo $(( ${x##*/} )); done",
    ],
)
def test_file_names_evaluated_as_names_ask(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BD3: a repository folder named `a[$(cmd)]` reaches name or arithmetic evaluation
    through a glob operand or the directory variables `cd` sets."""
    assert _verdict(default_policy, command, workspace) is Verdict.ASK


def test_the_file_name_subscript_is_real(workspace: Path) -> None:
    marker = workspace / "P"
    (workspace / "a[$(touch P)]").mkdir()
    assert _bash_creates_marker("test -v a?*", workspace, marker)


@pytest.mark.parametrize(
    "command",
    [
        "for x in MY_API_KEY; do echo $((x)); done",
        "for x in MY_API_KEY; do [[ $x -eq 1 ]]; done",
        "for x in MY_API_KEY; do echo ${a[x]}; done",
        "for x in MY_{API,}_KEY; do echo $((x)); done",
        "y=MY_API_KEY; x=y; echo $((x))",
        '[[ GITHUB_TO""KEN -eq 1 ]]',
        "[[ GITHUB_TO\\KEN -eq 1 ]]",
        'echo ${z[GITHUB_TO""KEN]}',
        "test -v 'a[GITHUB_TO\"\"KEN]'",
    ],
)
def test_a_secret_named_through_an_alias_or_quotes_asks(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BD4, BD5: bash prints a secret that is no number in its arithmetic error; the name
    reached it through a loop variable or was split by quotes for the engine."""
    secrets = {"MY_API_KEY": "sk-ant-api03-x", "GITHUB_TOKEN": "ghp-abc"}
    verdict = _verdict(default_policy, command, workspace, **secrets)
    assert verdict is not Verdict.ALLOW


def test_the_aliased_secret_is_printed_by_bash(workspace: Path) -> None:
    assert BASH is not None
    done = subprocess.run(
        [BASH, "-c", "for x in MY_API_KEY; do echo $((x)); done"],
        env={"MY_API_KEY": "sk-ant-api03-8Xyz", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    assert "sk-ant-api03-8Xyz" in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        "read ab < payload.txt; [[ a\"\"b -eq 1 ]]",
        "read ab < payload.txt; echo ${z[a\"\"b]}",
        "read ab < payload.txt; [[ -v z[a\"\"b] ]]",
    ],
)
def test_data_named_through_quotes_asks(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BD5: `a""b` is the variable `ab` that `read` filled from the repository."""
    assert _verdict(default_policy, command, workspace) is Verdict.ASK


@pytest.mark.parametrize(
    "command",
    [
        "for f in *.py; do wc -l \"$f\"; done",
        "for i in {1..10}; do echo $((i * 2)); done",
        "for i in 1 2 3; do echo $((i + 1)); done",
        "cd src && ls",
        "test -f a.txt && cat a.txt",
        "unset x y",
        "unset array[2]",  # a glob of one plain character set: only a file `array2`
        "read -r line < a.txt; echo \"$line\"",
        "for d in */; do echo \"$d\"; done",
        "[[ -v HOME ]] && echo set",
    ],
)
def test_everyday_loops_and_names_stay_allowed(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    (workspace / "a.txt").write_text("x\n")
    assert _verdict(default_policy, command, workspace) is Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "bash <<< 'rm -rf ~'",
        "bash <<'EOF'\nrm -rf ~\nEOF",
        "sh -s <<< 'rm -rf ~'",
        "echo 'rm -rf ~' | sh",
        "echo -n 'rm -rf ~' | bash",
        "printf 'rm -rf ~\\n' | bash",
        "bash <<EOF\nrm -rf ~\nEOF",
    ],
)
def test_literal_code_a_shell_reads_on_its_standard_input_is_judged(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BD6: the code was in the line, yet the shell reading it was only opaque (ask), so a
    deny rule did not hold against an approver who says yes."""
    assert _verdict(default_policy, command, workspace) is Verdict.DENY


@pytest.mark.parametrize(
    "command",
    ["bash <<< 'ls'", "echo ls | bash", "bash < script.sh", "cat x | bash", "echo -e 'x' | bash"],
)
def test_a_shell_reading_its_standard_input_still_asks(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    assert _verdict(default_policy, command, workspace) is Verdict.ASK


@pytest.fixture
def home(workspace: Path) -> Path:
    """The fake home of `_verdict`, holding fake AWS credentials."""
    folder = workspace.parent / "home"
    (folder / ".aws").mkdir(parents=True)
    (folder / ".aws" / "credentials").write_text("[default]\n")
    return folder


def test_a_path_through_the_process_root_meets_the_rules_of_the_place_it_names(
    default_policy: Policy, workspace: Path, home: Path
) -> None:
    """BD7: `/proc/self/root/X` is `/X` for the usual process; it asked only."""
    for command in (
        f"cat /proc/self/root{home}/.aws/credentials",
        f"echo x >/proc/self/root{home}/.bashrc",
        f"cat /proc/thread-self/root{home}/.aws/credentials",
        "cat /proc/self/cwd/.env",
    ):
        assert _verdict(default_policy, command, workspace) is Verdict.DENY, command
    assert _verdict(default_policy, "cat /proc/self/root/etc/hostname", workspace) is Verdict.ASK


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("xargs -a ~/.aws/credentials echo", Verdict.DENY),
        ("xargs --arg-file=.env echo", Verdict.DENY),
        ("xargs -a.env echo", Verdict.DENY),
        ("time -o ~/.bashrc ls", Verdict.DENY),
        ("time --output=.git/hooks/pre-commit ls", Verdict.DENY),
        ("xargs -a notes.txt echo", Verdict.ASK),
        ("time -o out.txt ls", Verdict.ASK),
    ],
)
def test_the_files_a_wrapper_option_names_are_checked(
    default_policy: Policy, workspace: Path, command: str, verdict: Verdict
) -> None:
    """BD8: `xargs -a FILE` printed a protected file under an ask (`shell.wrapper-effect`)."""
    assert _verdict(default_policy, command, workspace) is verdict


# ----------------------------------------------------------------- review BF (of the above)


@pytest.mark.parametrize(
    "command",
    [
        "builtin export LESSOPEN='|touch P %s'; less a.txt",
        "command export LESSOPEN='|touch P %s'; less a.txt",
        "builtin set -k; less LESSOPEN='|touch P %s' a.txt",
        "command -p set -k; less LESSOPEN='|touch P %s' a.txt",
        "command -- set -k; less LESSOPEN='|touch P %s' a.txt",
        "time set -k; less LESSOPEN='|touch P %s' a.txt",
        "for i in 1 2; do less LESSOPEN='|touch P %s' a.txt; command set -k; done",
        "builtin eval 'cd ~/.aws'; cat credentials",
        "command trap 'cd ~/.aws' DEBUG; cat credentials",
    ],
)
def test_builtin_command_and_time_do_not_hide_a_poisoning_builtin(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BF1: the poison check looked at the first word only (`builtin`, `command`, `time`)."""
    decision = default_policy.evaluate(command, workspace=str(workspace))
    assert decision.verdict is not Verdict.ALLOW


def test_command_v_is_a_lookup_and_poisons_nothing(default_policy: Policy, workspace: Path) -> None:
    decision = default_policy.evaluate("command -v set; ls", workspace=str(workspace))
    assert decision.verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "[[ GITHUB_TO$''KEN -eq 1 ]]",
        '[[ GITHUB_TO$""KEN -eq 1 ]]',
        "[[ GITHUB_TO$'\\x4b'EN -eq 1 ]]",
        "[[ GITHUB_TO${z}KEN -eq 1 ]]",
        "echo ${q[GITHUB_TO${z}KEN]}",
        "read ab < payload.txt; [[ a$\"\"b -eq 1 ]]",
        "read ab < payload.txt; [[ a${q:-}b -eq 1 ]]",
        "read ab < payload.txt; echo ${z[a${q}b]}",
    ],
)
def test_names_joined_by_empty_quotes_or_expansions_ask(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BF2: `$''`, `$""`, ANSI-C escapes and empty expansions join a name bash evaluates."""
    env = {"GITHUB_TOKEN": "ghp-abc", "HOME": str(workspace.parent / "home")}
    decision = default_policy.evaluate(command, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK


def test_the_joined_name_is_real(workspace: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", "[[ GITHUB_TO${z}KEN -eq 1 ]]"],
        env={"GITHUB_TOKEN": "ghp-9abcSECRET", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    assert "ghp-9abcSECRET" in done.stderr


@pytest.mark.parametrize(
    "command", ['[[ "$count" -eq 0 ]]', "(( total += $n ))", "echo $((i + 1))", "[[ $x -gt 2 ]]"]
)
def test_plain_arithmetic_on_expansions_stays_allowed(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    assert default_policy.evaluate(command, workspace=str(workspace)).verdict is Verdict.ALLOW


def test_process_roots_followed_by_dot_dot_or_nested_meet_the_rules(
    default_policy: Policy, workspace: Path, home: Path
) -> None:
    """BF3: `..` right after a process's root stays at the root; roots may be nested."""
    for command in (
        f"cat /proc/self/root/../..{home}/.aws/credentials",
        f"cat /proc/self/root/..{home}/.aws/credentials",
        f"cat /proc/self/root/proc/self/root{home}/.aws/credentials",
        f"cat /dev/fd/../root{home}/.aws/credentials",
    ):
        assert _verdict(default_policy, command, workspace) is Verdict.DENY, command


@pytest.mark.parametrize(
    "command",
    [
        "echo rm -rf ~ | bash",
        "echo 'rm -rf ~' |& bash",
        "cat <<'EOF' | bash\nrm -rf ~\nEOF",
        "cat <<< 'rm -rf ~' | bash",
        "bash - <<< 'rm -rf ~'",
        "bash /dev/stdin <<< 'rm -rf ~'",
        "".join(f"bash <<< 'echo {i}'; " for i in range(20)) + "bash <<< 'rm -rf ~'",
    ],
)
def test_more_spellings_of_code_fed_to_a_shell_are_judged(
    default_policy: Policy, workspace: Path, command: str
) -> None:
    """BF4: the tilde of `echo rm -rf ~`, `|&`, `cat` passing a here-document on, `bash -`
    and `/dev/stdin`, and fed code that no longer spends the recovery's budget."""
    assert _verdict(default_policy, command, workspace) is Verdict.DENY


def test_a_script_after_dash_is_still_a_script(default_policy: Policy, workspace: Path) -> None:
    verdict = _verdict(default_policy, "bash - script.sh <<< 'rm -rf ~'", workspace)
    assert verdict is Verdict.ASK  # bash runs script.sh; the here-string is its input


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("set -k", Verdict.ASK),
        ("set -o keyword", Verdict.ASK),
        ("set -a", Verdict.ASK),
        ("set -H", Verdict.ASK),
        ("command set -k", Verdict.ASK),
        ("trap 'cd ~/.aws' DEBUG", Verdict.ASK),
        ("trap 'echo hi' EXIT", Verdict.ASK),
        ("set -e", Verdict.ALLOW),
        ("set -euo pipefail", Verdict.ALLOW),
        ("set -x", Verdict.ALLOW),
        ("set -- a b", Verdict.ALLOW),
        ("set +f", Verdict.ALLOW),
        ("set -o noclobber", Verdict.ALLOW),
        ("trap '' HUP", Verdict.ALLOW),
    ],
)
def test_a_lasting_change_of_the_shell_asks_on_its_own(
    default_policy: Policy, workspace: Path, command: str, verdict: Verdict
) -> None:
    """BD ("not covered"): a runtime that keeps one shell between tool calls carries
    `set -k` or a DEBUG trap into the next call, which is judged on its own."""
    assert _verdict(default_policy, command, workspace) is verdict
