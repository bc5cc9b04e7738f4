"""Recursive reads in the workspace: the tree is looked at, not only the text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from policylang.decision import Verdict
from policylang.engine import checks, subtree
from policylang.engine.policy import Policy


def _tree(root: Path) -> None:
    (root / "src" / "deep").mkdir(parents=True)
    (root / "src" / "deep" / "util.py").write_text("x = 1\n")
    (root / ".cache").mkdir()
    (root / ".cache" / "blob").write_text("")


def test_scan_lists_every_entry_and_its_links(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / "link").symlink_to(tmp_path / "src")
    found = subtree.scan(str(tmp_path), hidden=True, budget=100)
    names = sorted(os.path.relpath(p, tmp_path) for p in found.entries)
    assert names == [".cache", ".cache/blob", "link", "src", "src/deep", "src/deep/util.py"]
    assert found.links == ((str(tmp_path / "link"), str(tmp_path / "src")),)
    assert found.complete


def test_scan_skips_hidden_names_when_asked(tmp_path: Path) -> None:
    _tree(tmp_path)
    found = subtree.scan(str(tmp_path), hidden=False, budget=100)
    assert sorted(os.path.relpath(p, tmp_path) for p in found.entries) == [
        "src",
        "src/deep",
        "src/deep/util.py",
    ]


def test_scan_stops_at_its_budget(tmp_path: Path) -> None:
    _tree(tmp_path)
    found = subtree.scan(str(tmp_path), hidden=True, budget=3)
    assert len(found.entries) == 3
    assert not found.complete


def test_scan_of_a_missing_directory_is_empty(tmp_path: Path) -> None:
    found = subtree.scan(str(tmp_path / "absent"), hidden=True, budget=10)
    assert found.entries == ()
    assert found.complete


@pytest.fixture
def secret_workspace(workspace: Path) -> Path:
    (workspace / "src" / "config").mkdir()
    (workspace / "src" / "config" / ".env").write_text("TOKEN=hunter2\n")
    (workspace / "docs").mkdir()
    (workspace / "docs" / "guide.md").write_text("hello\n")
    return workspace


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        # reads that reach the .env deep in src
        ("grep -r TOKEN .", Verdict.DENY),
        ("grep -rn TOKEN src", Verdict.DENY),
        ("grep -R TOKEN", Verdict.DENY),
        ("grep -r -e TOKEN", Verdict.DENY),
        ("rg --hidden TOKEN", Verdict.DENY),
        ("rg -uu TOKEN src", Verdict.DENY),
        ("ag --hidden TOKEN", Verdict.DENY),
        ("ack TOKEN", Verdict.DENY),
        ("ack --match TOKEN", Verdict.DENY),
        ("grep -d recurse TOKEN .", Verdict.DENY),
        ("grep --directories=recurse TOKEN .", Verdict.DENY),
        ("grep --dereference-recursive TOKEN .", Verdict.DENY),
        ("rg -nuu TOKEN", Verdict.DENY),
        ("rg -u -u TOKEN", Verdict.DENY),
        ("rg --unrestricted --unrestricted TOKEN", Verdict.DENY),
        ("rg -g .env TOKEN", Verdict.DENY),  # a glob override reaches hidden files
        ("rg -L TOKEN", Verdict.DENY),
        ("ag -f TOKEN", Verdict.DENY),  # ag's -f follows links
        ("git grep TOKEN", Verdict.DENY),  # a committed .env is printed too
        ("git grep --no-index TOKEN", Verdict.DENY),
        # reads that do not: rg and ag skip hidden files; docs holds none; listings
        ("rg TOKEN", Verdict.ALLOW),
        ("ag TOKEN", Verdict.ALLOW),
        ("grep -r TOKEN docs", Verdict.ALLOW),
        ("grep TOKEN docs/guide.md", Verdict.ALLOW),
        ("ls -R", Verdict.ALLOW),
        ("ls -R src", Verdict.ALLOW),
        ("rg -u TOKEN", Verdict.ALLOW),  # one -u: ignore files off, hidden files still skipped
        ("rg -e TOKEN", Verdict.ALLOW),
        ("rg --files", Verdict.ALLOW),  # names, not contents
        ("grep -d skip TOKEN .", Verdict.ALLOW),
        ("less -R docs/guide.md", Verdict.ALLOW),  # -R: raw control characters
        ("sort -R docs/guide.md", Verdict.ALLOW),  # -R: random order
    ],
)
def test_recursive_reads_do_not_reach_workspace_secrets(
    default_policy: Policy, secret_workspace: Path, command: str, verdict: Verdict
) -> None:
    decision = default_policy.evaluate(command, workspace=str(secret_workspace))
    assert decision.verdict is verdict, decision.explain()
    if verdict is Verdict.DENY:
        assert any(".env" in r.message for r in decision.reasons)


def test_a_link_out_of_the_tree_is_checked_where_it_points(
    default_policy: Policy, workspace: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    (workspace / "src" / "keys").symlink_to(home)
    decision = default_policy.evaluate(
        "grep -r BEGIN src", workspace=str(workspace), env={"HOME": str(home)}
    )
    assert decision.verdict is Verdict.DENY
    assert any("keys" in r.message and ".ssh" in r.message for r in decision.reasons)


def test_a_workspace_that_is_home_exposes_home_secrets(
    default_policy: Policy, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("[default]\n")
    decision = default_policy.evaluate(
        "grep -r aws_secret .", workspace=str(home), env={"HOME": str(home)}
    )
    assert decision.verdict is Verdict.DENY


def test_a_tree_too_large_to_check_asks(
    default_policy: Policy, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for index in range(5):
        (workspace / "src" / f"m{index}.py").write_text("")
    monkeypatch.setattr(checks, "TREE_BUDGET", 3)
    decision = default_policy.evaluate("grep -r x src", workspace=str(workspace))
    assert decision.verdict is Verdict.ASK
    assert [r.rule_id for r in decision.reasons if r.verdict is Verdict.ASK] == [
        "engine.tree-budget"
    ]
    monkeypatch.setattr(checks, "TREE_BUDGET", 100)
    assert default_policy.evaluate("grep -r x src", workspace=str(workspace)).verdict is (
        Verdict.ALLOW
    )


def test_an_ignore_file_that_re_includes_makes_rg_read_hidden_files(
    default_policy: Policy, secret_workspace: Path
) -> None:
    assert default_policy.evaluate("rg TOKEN", workspace=str(secret_workspace)).verdict is (
        Verdict.ALLOW
    )
    (secret_workspace / "src" / ".ignore").write_text("*.log\n!.env\n")
    decision = default_policy.evaluate("rg TOKEN", workspace=str(secret_workspace))
    assert decision.verdict is Verdict.DENY


def test_an_ignore_file_that_is_a_fifo_fails_closed(
    default_policy: Policy, secret_workspace: Path
) -> None:
    os.mkfifo(secret_workspace / ".rgignore")  # reading it would block: never read
    decision = default_policy.evaluate("rg TOKEN", workspace=str(secret_workspace))
    assert decision.verdict is Verdict.DENY


def test_a_ripgrep_config_the_engine_cannot_read_counts_as_hidden(
    default_policy: Policy, secret_workspace: Path
) -> None:
    env = {"HOME": "/nonexistent/home", "RIPGREP_CONFIG_PATH": "/somewhere/rgrc"}
    decision = default_policy.evaluate("rg TOKEN", workspace=str(secret_workspace), env=env)
    assert decision.verdict is Verdict.DENY


def test_a_blob_path_is_checked_below_every_directory_that_may_be_the_root(
    default_policy: Policy, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / "proj").mkdir()
    env = {"HOME": str(home)}
    decision = default_policy.evaluate(
        "git show HEAD:.aws/credentials", cwd=str(home / "proj"), workspace=str(home), env=env
    )
    assert decision.verdict is Verdict.DENY


@pytest.mark.source  # spies on the scan
def test_a_read_that_already_reaches_a_denied_folder_does_not_list_the_tree(
    default_policy: Policy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`grep -r x ~` with `~/.ssh` present is denied whatever else the tree holds: listing a
    home or `/` (up to the whole budget, 33 ms for `grep -Ril x /`) cannot change that."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    (home / "notes").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    listed: list[str] = []
    real_scan = subtree.scan

    def spying_scan(
        root: str,
        *,
        hidden: bool,
        budget: int,
        admit: tuple[str, ...] = (),
        cwds: tuple[str, ...] = (),
    ) -> subtree.TreeScan:
        listed.append(root)
        return real_scan(root, hidden=hidden, budget=budget, admit=admit, cwds=cwds)

    monkeypatch.setattr(subtree, "scan", spying_scan)
    env = {"HOME": str(home)}
    decision = default_policy.evaluate("grep -r BEGIN ~", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any(r.rule_id == "secrets-home" for r in decision.reasons)
    assert not any(r.rule_id == "engine.tree-budget" for r in decision.reasons)
    assert listed == []
    # a folder with nothing denied at its fixed places is still listed
    decision = default_policy.evaluate("grep -r BEGIN ~/notes", workspace=str(workspace), env=env)
    assert listed == [str(home / "notes")]
    assert decision.verdict is not Verdict.DENY, decision.explain()


def test_a_recursive_read_stops_looking_at_its_first_denied_file(
    default_policy: Policy, workspace: Path
) -> None:
    """Once a file the read reaches is denied, nothing later in the tree can make the
    read stricter: the rest of the tree is not matched (a Python project's `.venv`, whose
    certificate bundles are `*.pem`, had cost 80 ms per `grep -r`)."""
    for name in ("a", "b", "c"):
        (workspace / name).mkdir()
        (workspace / name / ".env").write_text("TOKEN=x\n")
    decision = default_policy.evaluate("grep -r TOKEN .", workspace=str(workspace))
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert sum(".env" in r.message for r in decision.reasons) == 1
