"""Review DX7: more variables name credential files (and agents' folders): a file one of
them names is protected where it lies, as `KUBECONFIG`'s is."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Policy, Verdict

# (variable, what it names below its value: "" the value itself)
_NAMED = [
    ("SOPS_AGE_KEY_FILE", ""),
    ("REGISTRY_AUTH_FILE", ""),
    ("RCLONE_CONFIG", ""),
    ("HELM_REGISTRY_CONFIG", ""),
    ("AWS_WEB_IDENTITY_TOKEN_FILE", ""),
    ("HF_TOKEN_PATH", ""),
    ("TALOSCONFIG", ""),
    ("BOTO_CONFIG", ""),
    ("HF_HOME", "token"),
    ("GRADLE_USER_HOME", "gradle.properties"),
    ("COMPOSER_HOME", "auth.json"),
    ("KAGGLE_CONFIG_DIR", "kaggle.json"),
    ("CLAUDE_CONFIG_DIR", ".credentials.json"),
    ("CLAUDE_CONFIG_DIR", "settings.json"),
    ("CODEX_HOME", "auth.json"),
    ("CODEX_HOME", "config.toml"),
]


@pytest.mark.parametrize(("variable", "below"), _NAMED)
def test_a_file_such_a_variable_names_is_protected(
    default_policy: Policy, tmp_path: Path, variable: str, below: str
) -> None:
    workspace = tmp_path / "ws"
    place = workspace / "secrets" / "held"
    target = place / below if below else place
    target.parent.mkdir(parents=True)
    target.write_text("SECRET-1\n")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    plain = default_policy.evaluate(f"cat {target}", workspace=str(workspace), env=env)
    assert plain.verdict is Verdict.ALLOW, plain.explain()  # (the control)
    env[variable] = str(place)
    for command in (f"cat {target}", "grep -r SECRET .", f"cp /dev/null {target}"):
        decision = default_policy.evaluate(command, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.DENY, (command, decision.explain())
        assert any(variable in r.message for r in decision.reasons), decision.explain()


def test_an_agent_folder_is_named_as_such(default_policy: Policy, tmp_path: Path) -> None:
    folder = tmp_path / "cc"
    folder.mkdir()
    env = {"HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(folder)}
    decision = default_policy.evaluate(
        f"echo '{{}}' > {folder}/settings.json", workspace=str(tmp_path / "ws"), env=env
    )
    assert decision.verdict is Verdict.DENY
    assert any("an agent's configuration folder" in r.message for r in decision.reasons)
