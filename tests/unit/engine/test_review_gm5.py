"""Review GM5: compose's locked `config` rules matched the word `config` as any operand, so
a service or a file named `config` (`logs config`, `exec web cat config`, `-f config ps`,
`-p config ps`) was a locked ask, even under the approval `docker compose logs`. They now
match `config` only in compose's verb position, the first operand after its global
options (the language's `first-operand` clause); a global option the spec does not know
may take the next word as its value, and the line keeps the locked ask. With it: the
listing exception (`config --services`) holds only beside no option of `config` that
prints more (`--services --environment` prints the interpolated environment).

Real podman-compose runs where the review installed it (/tmp/review-GL/venv), with a fake
`podman` that answers its version check: `config` prints `.env`'s value, `logs config`
and `-p config ps` do not. The engine's verdicts are asserted always."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_CANARY = "CANARY_GM5"
_PODMAN_COMPOSE = Path("/tmp/review-GL/venv/bin/podman-compose")
_COMPOSES = ["docker compose", "podman compose", "docker-compose", "podman-compose"]


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / ".env").write_text(f"SECRET={_CANARY}\n")
    (workspace / "compose.yml").write_text(
        "services:\n  config:\n    image: x\n    env_file: [.env]\n    environment:\n"
        "      S2: ${SECRET}\n"
    )
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


def _plain(workspace: Path) -> None:
    """A compose file that interpolates nothing and names no file (review GS1)."""
    (workspace / "compose.yml").write_text("services:\n  config:\n    image: x\n")


def _podman_compose(tmp_path: Path, workspace: Path, line: str) -> str:
    """What the real podman-compose printed for `line` (after its name)."""
    shim = tmp_path / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "podman").write_text("#!/bin/sh\necho 'podman version 4.3.1'\n")
    (shim / "podman").chmod(0o755)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{shim}{os.pathsep}/usr/bin:/bin"}
    done = subprocess.run(
        [str(_PODMAN_COMPOSE), *line.split()], cwd=workspace, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("logs config", "logs"),
        ("logs -f config", "logs"),
        ("logs --tail 5 config", "logs"),
        ("-p config ps", "-p config ps"),  # (`-f`, `--project-directory`: asks, GS1)
        ("exec web cat config", "exec web cat config"),
    ],
)
@pytest.mark.parametrize("compose", _COMPOSES)
def test_gm5_config_outside_the_verb_position_is_approvable(
    tmp_path: Path, compose: str, line: str, approval: str
) -> None:
    workspace, env = _workspace(tmp_path)
    if compose == "podman-compose" and _PODMAN_COMPOSE.is_file() and "exec" not in line:
        assert _CANARY in _podman_compose(tmp_path, workspace, "config")  # (the premise)
        assert _CANARY not in _podman_compose(tmp_path, workspace, line)
    _plain(workspace)  # (a compose file that interpolates gets no approval: review GS1)
    decision = decide(f"{compose} {line}", workspace, env, f"{compose} {approval}")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    [
        "config",
        "convert",
        "-f compose.yml config",
        "-p x --profile y config",
        "--dry-run config",
        "--unknown x config",  # (`--unknown` may take `x`: `config` is the verb then)
        "--unknown x logs config",
        "config --services --environment",
        "config --images --variables",
        "config --volumes --format json",
        "config --services -q",
        "config --profiles -o out.yml",
    ],
)
@pytest.mark.parametrize("compose", _COMPOSES)
def test_gm5_config_in_the_verb_position_stays_locked(
    tmp_path: Path, compose: str, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    approvals = (compose, f"{compose} {line}", f"{compose} config --services $")
    decision = decide(f"{compose} {line}", workspace, env, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.locked, decision.explain()
    assert any(r.rule_id.startswith("compose-config-prints") for r in decision.reasons)


@pytest.mark.parametrize(
    "listing", ["--services", "--volumes", "--networks"]  # (not `--images`: review GS2)
)
@pytest.mark.parametrize("compose", _COMPOSES)
def test_gm5_a_listing_alone_is_offered_exactly(
    tmp_path: Path, compose: str, listing: str
) -> None:
    workspace, env = _workspace(tmp_path)
    line = f"{compose} config {listing}"
    if compose == "podman-compose" and listing == "--services" and _PODMAN_COMPOSE.is_file():
        assert _CANARY not in _podman_compose(tmp_path, workspace, f"config {listing}")
    _plain(workspace)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == f"{line} $"
    assert decide(line, workspace, env, f"{line} $").verdict is Verdict.ALLOW
