"""`policylang run` as a real process: exit codes, output, the terminal prompt."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from policylang.cli.run_cmd import prompt
from policylang.decision import Reason, Verdict
from policylang.tool import ApprovalRequest

POLICY = Path(__file__).parent / "data" / "hook.policy"
RUN = [sys.executable, "-m", "policylang.cli.main", "run", "--policy", str(POLICY)]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUN, "--workspace", str(cwd), *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )


def test_allowed_command_runs_with_its_output_and_exit_code(tmp_path: Path) -> None:
    proc = run("--", "echo out; echo err >&2; exit 7", cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (7, "out\n", "err\n")


def test_denied_command_exits_125_with_reasons(tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    proc = run("--", "rm", "-rf", "keep", cwd=tmp_path)
    assert proc.returncode == 125
    assert "recursive delete" in proc.stderr
    assert (tmp_path / "keep").is_dir()


def test_ask_without_terminal_exits_126_and_runs_nothing(tmp_path: Path) -> None:
    proc = run("--", "touch", "made", cwd=tmp_path)
    assert proc.returncode == 126
    assert "--yes" in proc.stderr
    assert "suggested rule" in proc.stderr
    assert not (tmp_path / "made").exists()


def test_yes_approves_an_ask_once(tmp_path: Path) -> None:
    proc = run("--yes", "--", "touch", "made", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "made").exists()


def test_yes_never_lifts_a_deny(tmp_path: Path) -> None:
    assert run("--yes", "--", "curl", "https://example.com", cwd=tmp_path).returncode == 125


def test_timeout_exits_124(tmp_path: Path) -> None:
    proc = run("--yes", "--timeout", "0.5", "--", "sleep 5", cwd=tmp_path)
    assert proc.returncode == 124
    assert "timed out" in proc.stderr


def test_json_report(tmp_path: Path) -> None:
    proc = run("--json", "--", "echo", "hi", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert (report["status"], report["exit_code"], report["stdout"]) == ("ok", 0, "hi\n")
    assert report["decision"]["verdict"] == "allow"


def test_broken_policy_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.policy"
    bad.write_text("alow ls\n")
    proc = subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", "run", "--policy", str(bad), "--", "ls"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "did not load" in proc.stderr


@pytest.mark.parametrize(("answer", "ran"), [("o\n", True), ("d\n", False), ("\n", False)])
def test_terminal_prompt(tmp_path: Path, answer: str, ran: bool) -> None:
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [*RUN, "--workspace", str(tmp_path), "--", "touch", "made"],
            stdin=slave,
            stderr=slave,
            stdout=subprocess.PIPE,
        )
        seen = b""
        while b"[d]eny?" not in seen:
            chunk = os.read(master, 4096)
            assert chunk, "the prompt never came"
            seen += chunk
        os.write(master, answer.encode())
        assert proc.wait(timeout=60) == (0 if ran else 125)
        assert proc.stdout is not None
        proc.stdout.close()
    finally:
        os.close(master)
        os.close(slave)
    assert b"touch made" in seen
    assert (tmp_path / "made").exists() is ran


def request(*, locked: bool = False, rule: str | None = "touch") -> ApprovalRequest:
    reason = Reason(rule_id="r", message="no rule covers this command", verdict=Verdict.ASK)
    return ApprovalRequest(
        command="touch x",
        description=None,
        reasons=(reason,),
        suggested_rule=rule,
        workdir="/w",
        verdict=Verdict.ASK,
        locked=locked,
    )


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("o\n", "once"),
        ("s\n", "session"),
        ("ALWAYS\n", "always"),
        ("d\n", "deny"),
        ("", "deny"),
        ("x\n", "deny"),
        ("yes\n", "deny"),
    ],
)
def test_prompt_answers(typed: str, expected: str) -> None:
    err = io.StringIO()
    assert prompt(request(), io.StringIO(typed), err) == expected
    assert "[o]nce / [s]ession / [a]lways / [d]eny? " in err.getvalue()


def test_prompt_offers_only_once_for_a_locked_rule() -> None:
    err = io.StringIO()
    assert prompt(request(locked=True), io.StringIO("a\n"), err) == "deny"
    assert "[o]nce / [d]eny? " in err.getvalue()


def test_sandbox_confines_writes_to_the_workspace(tmp_path: Path) -> None:
    from policylang.executor import BubblewrapBackend

    outside = Path("/var/tmp") / f"policylang-run-test-{os.getpid()}"
    script = f"echo inside > ok.txt; echo hi > {outside}; true"
    proc = run("--yes", "--sandbox", "bubblewrap", "--", script, cwd=tmp_path)
    try:
        assert not outside.exists()
        if BubblewrapBackend(str(tmp_path)).probe().ok:
            assert proc.returncode == 0, proc.stderr
            assert (tmp_path / "ok.txt").read_text() == "inside\n"
            assert "Read-only file system" in proc.stderr
        else:  # no usable bubblewrap here: refused, and nothing ran unconfined
            assert proc.returncode != 0
            assert "no usable execution backend" in proc.stderr
            assert not (tmp_path / "ok.txt").exists()
    finally:
        outside.unlink(missing_ok=True)


def test_an_approvals_file_inside_the_workspace_is_refused(tmp_path: Path) -> None:
    # review L5: a sandboxed command could add approvals to a file it can write
    inside = tmp_path / "approvals.toml"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "policylang.cli.main",
            "run",
            "--workspace",
            str(tmp_path),
            "--approvals",
            str(inside),
            "--yes",
            "touch",
            str(tmp_path / "ran"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "inside the workspace" in proc.stderr
    assert not (tmp_path / "ran").exists()


def test_approvals_paths_expand_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from policylang.engine.approvals import Approvals

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path / "..")
    assert Approvals("~/.config/policylang/approvals.toml").path == (
        tmp_path / ".config" / "policylang" / "approvals.toml"
    )


def test_the_sandbox_keeps_the_snapshot_folder_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review M3: with the cache inside the workspace, a sandboxed script rewrote a snapshot
    from policylang.engine.policy import load_policy
    from policylang.integrations._common import policy_files

    monkeypatch.setenv("POLICYLANG_CACHE_DIR", str(tmp_path / "cache"))
    files = policy_files(load_policy(), None)
    assert str(tmp_path / "cache" / "snapshots") in files


def test_the_sandbox_keeps_every_file_the_policy_read(tmp_path: Path) -> None:
    # review M9: an `arity-file` in the workspace stayed writable inside the sandbox
    from policylang.engine.policy import load_policy
    from policylang.integrations._common import policy_files

    (tmp_path / "arity.toml").write_text('[arity]\n"tool" = 2\n')
    main = tmp_path / "team.policy"
    main.write_text('policy "t"\narity-file "arity.toml"\ndefault ask\n')
    for snapshot in (False, True, True):  # compiled, then written and read back
        files = policy_files(load_policy(main, snapshot=snapshot), None)
        assert str(tmp_path / "arity.toml") in files
        assert str(main) in files


def test_output_longer_than_the_cap_is_marked_where_it_was_cut(tmp_path: Path) -> None:
    # review AQ8: the head and the tail were spliced without a marker, cutting a line in
    # the middle, and the status was the command's success
    proc = run("--yes", "--", "seq 1 400000", cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    marker = next(i for i, line in enumerate(lines) if line.startswith("[policylang run:"))
    assert lines[marker].endswith("bytes not kept here]")
    assert lines[0] == "1"
    assert lines[-1] == "400000"
    assert "cut" in proc.stderr


def test_several_words_are_kept_as_words(tmp_path: Path) -> None:
    # review AQ17: the words were joined with blanks, so `rm "my file"` ran `rm my file`
    (tmp_path / "my file").write_text("x\n")
    proc = run("--yes", "--", "ls", "my file", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "my file\n")
    assert "pass it as one argument" in proc.stderr  # the word has a blank (review AS5)


def test_several_plain_words_run_without_a_hint(tmp_path: Path) -> None:
    proc = run("--yes", "--", "echo", "hi", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "hi\n")
    assert "one argument" not in proc.stderr


def test_an_operator_among_several_words_is_a_word_and_named(tmp_path: Path) -> None:
    proc = run("--yes", "--", "echo", "hi", "&&", "echo", "x", cwd=tmp_path)
    assert proc.stdout == "hi && echo x\n"
    assert "pass it as one argument" in proc.stderr


def test_a_command_that_starts_with_a_dash_is_not_read_as_bash_options(tmp_path: Path) -> None:
    # review AQ15: `bash -c -v` read the text as its own options
    proc = run("--yes", "--", "-v", cwd=tmp_path)
    assert proc.returncode == 127
    assert "-v: command not found" in proc.stderr
