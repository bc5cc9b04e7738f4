"""Reviews of the session of 4 December 2026, second half: BI5 (names listed in protected
folders) and the findings of reviews BK and BL. Each line here had a weaker verdict before
its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict
from policylang.engine.policy import Policy


def _verdict(policy: Policy, command: str, workspace: Path, **env: str) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin", **env}
    return policy.evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.fixture
def secrets_home(workspace: Path) -> Path:
    home = workspace.parent / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    (home / ".config" / "gcloud").mkdir(parents=True)
    (home / ".config" / "gcloud" / "credentials.db").write_text("db\n")
    return home


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        # listers that print the names in a protected folder, as `ls ~/.ssh` (denied)
        ("rg --files ~/.ssh", Verdict.DENY),
        ("rg --files ~", Verdict.DENY),
        ("rg --type-list ~/.ssh", Verdict.DENY),
        ("ag -g x ~/.ssh", Verdict.DENY),
        ("ag --filename-pattern=x ~/.ssh", Verdict.DENY),
        ("tree ~/.config", Verdict.DENY),  # tree lists `gcloud`'s files without `-a`
        ("tree -L 3 ~/.config", Verdict.DENY),
        # the same in the workspace stay allowed
        ("rg --files", Verdict.ALLOW),
        ("rg --files src", Verdict.ALLOW),
        ("ag -g x src", Verdict.ALLOW),
        ("tree", Verdict.ALLOW),
        ("tree src", Verdict.ALLOW),
        # the pattern operand is still a pattern without them
        ("rg -l ssh src", Verdict.ALLOW),
    ],
)
def test_listings_of_protected_folders_are_denied(
    default_policy: Policy, workspace: Path, secrets_home: Path, command: str, verdict: Verdict
) -> None:
    (workspace / "src").mkdir(exist_ok=True)
    assert _verdict(default_policy, command, workspace) is verdict
