"""Forms a secret `.env` file takes beside its own name: an editor's backup (`.env~`,
Emacs's `#.env#`), a spelling with `-` or `_` (`.env-prod`, `.env_local`), the
`.envs/` folder of cookiecutter-django (`.envs/.production/.postgres`), a key's backup
(`server.pem~`). Each held the secret and was read by an allowed `cat`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_SECRET_FORMS = [".env~", "#.env#", ".env-prod", ".env_local", ".envs/.production/.postgres",
                 "server.pem~", "tls.key~", "sub/.env-staging"]  # fmt: skip
_PLAIN_NAMES = [".envoy.yaml", ".editorconfig", "environment.yml", "env.py", ".environment"]


def _workspace(tmp_path: Path, names: list[str]) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    for name in names:
        path = workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("PASSWORD=CANARY_FORMS\n")
    (tmp_path / "home").mkdir()
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize("name", _SECRET_FORMS)
def test_a_secret_s_other_forms_are_protected(tmp_path: Path, name: str) -> None:
    workspace, env = _workspace(tmp_path, [name])
    quoted = f"'{name}'"
    ran = subprocess.run(["bash", "-c", f"cat {quoted}"], cwd=workspace, capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert "CANARY_FORMS" in ran.stdout
    decision = decide(f"cat {quoted}", workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    if ".env" in name:  # (keys are protected in the workspace only, as before)
        elsewhere = decide(f"cat {workspace}/{quoted}", tmp_path, env)  # another workspace's
        assert elsewhere.verdict is Verdict.DENY, elsewhere.explain()


@pytest.mark.parametrize("name", _PLAIN_NAMES)
def test_names_that_only_begin_alike_stay_readable(tmp_path: Path, name: str) -> None:
    workspace, env = _workspace(tmp_path, [name])
    assert decide(f"cat {name}", workspace, env).verdict is Verdict.ALLOW
