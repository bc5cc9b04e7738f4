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


def test_quoted_words_round_trip() -> None:
    approvals = Approvals()
    approvals.add("echo 'a b'", persist=False)
    assert approvals.match(("echo", "a b")) == ("echo", "a b")
    assert approvals.rules() == ("echo 'a b'",)


@pytest.mark.parametrize("rule", ["", "   ", "'unclosed"])
def test_bad_rules_are_rejected(rule: str) -> None:
    with pytest.raises(ApprovalError):
        Approvals().add(rule, persist=False)


def test_unreadable_file_is_ignored_with_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "a.toml"
    path.write_text("allow = [unclosed\n")
    assert Approvals(path).rules() == ()
    assert "cannot read approvals file" in caplog.text
