from __future__ import annotations

from pathlib import Path

import pytest

from policylang.engine.approvals import ApprovalError, Approvals


def test_session_approval_matches_longest_prefix() -> None:
    approvals = Approvals()
    approvals.add("npm run", persist=False)
    approvals.add("npm run build", persist=False)
    assert approvals.match(("npm", "run", "build", "--x")) == ("npm", "run", "build")
    assert approvals.match(("npm", "run", "test")) == ("npm", "run")
    assert approvals.match(("npm", "install")) is None
    assert approvals.match((None, "run")) is None
    assert approvals.match(("npm",)) is None


def test_persisted_approvals_keep_comments_and_order(tmp_path: Path) -> None:
    path = tmp_path / "approvals.toml"
    path.write_text(
        '# my approvals\nallow = [\n  "make test", # ok\n  "zz top",\n]\n\n[other]\nkeep = 1\n'
    )
    approvals = Approvals(path)
    assert approvals.match(("make", "test")) == ("make", "test")
    approvals.add("npm run build", persist=True)
    text = path.read_text()
    assert text.startswith("# my approvals\n")
    assert "# ok" in text
    assert "[other]" in text
    assert text.index("make test") < text.index("zz top") < text.index("npm run build")
    assert Approvals(path).match(("npm", "run", "build")) == ("npm", "run", "build")


def test_session_approval_not_persisted(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    approvals = Approvals(path)
    approvals.add("ls -la", persist=False)
    assert not path.exists()
    approvals.add("git commit", persist=True)
    assert Approvals(path).rules() == ("git commit",)


def test_remove(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    approvals = Approvals(path)
    approvals.add("git commit", persist=True)
    assert approvals.remove("git commit")
    assert approvals.match(("git", "commit")) is None
    assert Approvals(path).rules() == ()
    assert not approvals.remove("git commit")


def test_remove_forgets_every_spelling_in_the_file(tmp_path: Path) -> None:
    """review AF7: an equivalent spelling left in the file brought the approval back."""
    path = tmp_path / "a.toml"
    path.write_text(
        '# mine\nallow = ["npm run build", "npm  run   build", \'npm run "build"\', "make test"]\n'
    )
    approvals = Approvals(path)
    assert approvals.remove("npm run build")
    assert Approvals(path).rules() == ("make test",)
    assert path.read_text().startswith("# mine")  # the rest of the file is kept
    approvals.add("make  test", persist=True)  # the same rule: not written twice
    assert path.read_text().count("make") == 1


def test_quoted_words_round_trip() -> None:
    approvals = Approvals()
    approvals.add("echo 'a b'", persist=False)
    assert approvals.match(("echo", "a b")) == ("echo", "a b")
    assert approvals.rules() == ("echo 'a b'",)


@pytest.mark.parametrize("rule", ["", "   ", "'unclosed"])
def test_bad_rules_are_rejected(rule: str) -> None:
    with pytest.raises(ApprovalError):
        Approvals().add(rule, persist=False)


@pytest.mark.source  # compiled, `add` checks its argument's type itself, in its own words
def test_a_rule_that_is_not_text_is_a_type_error_naming_the_form() -> None:
    approvals = Approvals()
    with pytest.raises(TypeError, match="npm run build"):
        approvals.add(("git", "clone"), persist=False)  # type: ignore[arg-type]
    assert approvals.rules() == ()


def test_unreadable_file_is_ignored_with_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "a.toml"
    path.write_text("allow = [unclosed\n")
    assert Approvals(path).rules() == ()
    assert "cannot read approvals file" in caplog.text


def test_an_approved_read_only_name_does_not_approve_its_writes(tmp_path: Path) -> None:
    # review L3: `echo hi > notes.txt` suggested `echo`; approved, `echo x > ANY-FILE`
    # (a policy layer, a Makefile) was allowed from then on
    from policylang.decision import Verdict
    from policylang.engine.policy import load_policy

    approvals = tmp_path / "approvals.toml"
    approvals.write_text('allow = ["echo", "cat"]\n')
    policy = load_policy(approvals=approvals)
    workspace = str(tmp_path)
    first = policy.evaluate("echo hi > notes.txt", workspace=workspace)
    assert first.verdict is Verdict.ASK
    assert first.suggested_rule is None  # no prefix to "always allow" for a write
    for command in ("echo x > team.policy", "cat a > Makefile", "echo x >> .venv/bin/activate"):
        assert policy.evaluate(command, workspace=workspace).verdict is Verdict.ASK, command
    assert policy.evaluate("echo hi", workspace=workspace).verdict is Verdict.ALLOW


def test_the_temporary_file_is_never_followed(tmp_path: Path) -> None:
    # review L6: a fixed `approvals.toml.tmp` made a symbolic link was written through
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    store = tmp_path / "approvals.toml"
    (tmp_path / "approvals.toml.tmp").symlink_to(victim)
    Approvals(store).add("npm run build", persist=True)
    assert victim.read_text() == "precious\n"
    assert not store.is_symlink()
    assert Approvals(store).match(("npm", "run", "build")) == ("npm", "run", "build")
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".approvals")]
    assert leftovers == [".approvals.toml.lock"]  # the writers' lock stays; no temporary


def test_bad_entries_are_skipped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # review L8: `""` or an unclosed quote raised out of the loader (a traceback in `run`)
    store = tmp_path / "approvals.toml"
    store.write_text('allow = ["", "a \'b", "make test"]\n')
    approvals = Approvals(store)
    assert approvals.rules() == ("make test",)
    assert caplog.text.count("ignored") == 2


@pytest.mark.timeout(30)  # opening a FIFO used to wait for a writer forever
def test_an_approvals_file_that_is_not_a_regular_file_is_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import os

    fifo = tmp_path / "approvals.toml"
    os.mkfifo(fifo)
    assert Approvals(fifo).rules() == ()
    assert "not a regular file" in caplog.text


def test_a_script_run_by_path_is_approved_by_that_path(tmp_path: Path) -> None:
    # review L7: `./build.sh` suggested `build.sh`, which then allowed every `build.sh`;
    # review M7: approved as written, `./build.sh` was then approved in every folder
    from policylang.decision import Verdict
    from policylang.engine.policy import load_policy

    approvals = tmp_path / "approvals.toml"
    policy = load_policy(approvals=approvals)
    workspace = str(tmp_path)
    script = f"{tmp_path}/build.sh"
    decision = policy.evaluate("./build.sh --fast", workspace=workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == script
    approvals.write_text(f'allow = ["{script}"]\n')
    policy = load_policy(approvals=approvals)
    assert policy.evaluate("./build.sh --fast", workspace=workspace).verdict is Verdict.ALLOW
    assert policy.evaluate(script, workspace=workspace).verdict is Verdict.ALLOW
    for other in ("/tmp/evil/build.sh", "../x/build.sh", "sub/build.sh", "cd /tmp && ./build.sh"):
        assert policy.evaluate(other, workspace=workspace).verdict is Verdict.ASK, other
    approvals.write_text('allow = ["build.sh", "./build.sh"]\n')
    policy = load_policy(approvals=approvals)
    assert policy.evaluate("./build.sh", workspace=workspace).verdict is Verdict.ASK


def test_an_approval_that_cannot_be_saved_is_not_kept_for_the_session(tmp_path: Path) -> None:
    # review M11: the tool reported "granted once", but the session had kept it
    folder = tmp_path / "ro"
    folder.mkdir()
    store = folder / "approvals.toml"
    store.write_text("allow = [\n")  # not TOML: cannot be appended to
    approvals = Approvals(store)
    with pytest.raises(Exception):  # noqa: B017, PT011 - whatever the writer raises
        approvals.add("make test", persist=True)
    assert approvals.match(("make", "test")) is None


def test_a_byte_order_mark_does_not_drop_the_file(tmp_path: Path) -> None:
    # review AL8: an editor's BOM made the file unreadable, so every approval was lost
    store = tmp_path / "approvals.toml"
    store.write_bytes('\ufeffallow = ["make test"]\n'.encode())
    approvals = Approvals(store)
    assert approvals.match(("make", "test", "-j4")) == ("make", "test")
    approvals.add("npm test", persist=True)
    assert Approvals(store).rules() == ("make test", "npm test")


@pytest.mark.parametrize(
    "content", ['allow = "make test"\n', "[allow]\nmake = true\n", "allow.x = ['make']\n"]
)
def test_an_allow_that_is_not_a_list_is_never_overwritten(tmp_path: Path, content: str) -> None:
    # review AL8: the next persisted approval replaced what the user had written there
    store = tmp_path / "approvals.toml"
    store.write_text(content)
    approvals = Approvals(store)
    with pytest.raises(ApprovalError, match="not a list"):
        approvals.add("npm test", persist=True)
    assert store.read_text() == content
    assert approvals.match(("npm", "test")) is None


def _add_many(store: str, worker: int) -> None:
    approvals = Approvals(store)
    for index in range(10):
        approvals.add(f"tool{worker} verb{index}", persist=True)


def test_concurrent_writers_lose_no_approval(tmp_path: Path) -> None:
    # review AO15: 8 processes adding 80 approvals had left 13 on disk, each reported saved
    import multiprocessing

    store = str(tmp_path / "approvals.toml")
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_add_many, args=(store, n)) for n in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert len(Approvals(store).rules()) == 80


def test_a_change_to_the_file_by_another_process_reaches_a_running_store(tmp_path: Path) -> None:
    """review AX12: a long-lived server kept allowing an approval revoked on disk."""
    path = tmp_path / "a.toml"
    path.write_text('allow = ["make test"]\n')
    running = Approvals(path)
    generation = running.generation
    assert running.match(("make", "test")) == ("make", "test")
    assert Approvals(path).remove("make test")  # another process revokes it
    running.refresh()
    assert running.match(("make", "test")) is None
    assert running.generation > generation
    path.write_text('allow = ["npm run build"]\n')  # and the user adds one by hand
    running.refresh()
    assert running.match(("npm", "run", "build")) == ("npm", "run", "build")
    running.add("ls -la", persist=False)  # session approvals survive a re-read
    path.unlink()
    running.refresh()
    assert running.match(("npm", "run", "build")) is None
    assert running.match(("ls", "-la")) == ("ls", "-la")
