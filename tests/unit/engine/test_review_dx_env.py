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


# -- review DZ: huggingface's stored_tokens, `~` and `$HOME` in values, places that are not there


@pytest.mark.parametrize(
    ("variable", "value", "read"),
    [
        ("HF_HOME", "{h}/hf", "{h}/hf/stored_tokens"),
        ("HF_TOKEN_PATH", "{h}/hf/token", "{h}/hf/stored_tokens"),
        ("HF_STORED_TOKENS_PATH", "{h}/hf/st", "{h}/hf/st"),
        ("HF_HOME", "~/hf", "{h}/hf/token"),
        ("HF_HOME", "$HOME/hf", "{h}/hf/token"),
        ("HF_TOKEN_PATH", "${HOME}/hf/token", "{h}/hf/token"),
        ("HF_TOKEN_PATH", "~/hf/token", "{h}/hf/stored_tokens"),
    ],
)
def test_huggingface_tokens_are_protected_however_named(
    default_policy: Policy, tmp_path: Path, variable: str, value: str, read: str
) -> None:
    home = tmp_path / "home"
    env = {"HOME": str(home), variable: value.replace("{h}", str(home))}
    line = f"cat {read.format(h=home)}"
    decision = default_policy.evaluate(line, workspace=str(tmp_path / "ws"), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_huggingface_stored_tokens_at_its_usual_place(
    default_policy: Policy, tmp_path: Path
) -> None:
    env = {"HOME": str(tmp_path / "home")}
    for line in ("cat ~/.cache/huggingface/stored_tokens", "head ~/.huggingface/stored_tokens"):
        decision = default_policy.evaluate(line, workspace=str(tmp_path / "ws"), env=env)
        assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    ("variable", "value"),
    [("GRADLE_USER_HOME", "{ws}/.gradle"), ("HF_HOME", ".cache/hf"), ("CODEX_HOME", "{ws}/.codex")],
)
def test_a_recursive_read_is_denied_only_where_the_named_place_is(
    default_policy: Policy, tmp_path: Path, variable: str, value: str
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    env = {"HOME": str(tmp_path / "home"), variable: value.format(ws=workspace)}
    line = "grep -r TODO ."
    assert default_policy.evaluate(line, workspace=str(workspace), env=env).verdict is (
        Verdict.ALLOW
    )
    named = {
        "GRADLE_USER_HOME": workspace / ".gradle" / "gradle.properties",
        "HF_HOME": workspace / ".cache" / "hf" / "token",
        "CODEX_HOME": workspace / ".codex",
    }[variable]
    named.parent.mkdir(parents=True, exist_ok=True)
    if variable == "CODEX_HOME":
        named.mkdir()
    else:
        named.write_text("SECRET\n")
    decision = default_policy.evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(("variable", "value"), [("CLAUDE_CONFIG_DIR", "."),
                                                 ("CODEX_HOME", "/"), ("CLAUDE_CONFIG_DIR", "~")])
def test_a_value_holding_the_workspace_or_home_names_no_place(
    default_policy: Policy, tmp_path: Path, variable: str, value: str
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README").write_text("hi\n")
    env = {"HOME": str(tmp_path / "home"), variable: value}
    for line in ("ls", "cat README", "ls ~"):
        decision = default_policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.ALLOW, (line, decision.explain())
