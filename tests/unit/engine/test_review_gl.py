"""Review GL, of the approvals fixes of reviews GH and GJ.

GL1: `podman-compose -f a.yml ps` was offered the bare `podman-compose` (no verb in the
arity table), which approved `podman-compose -f a.yml config` (past the `config` rule,
whose verb came after an option: the project's `.env` printed) and `up`. GL2: `python3 -m
pipenv --venv` was offered `python3 -m pipenv`, which approved `python3 -m pipenv run
printenv SECRET`. GL3: `invoke --complete` was offered `invoke`, every task of the
project's `tasks.py`. GL4: compose v2's `convert` is its `config` under another name. GL6:
make's `-l` is a load limit, not a listing. Real podman-compose and pipenv are not
installed here: the reviewer's runs (in /tmp/review-GL) are the premise; the engine is
tested."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import canary_workspace, decide

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    files = {
        "a.yml": "services:\n  web:\n    image: x\n    env_file: [.env]\n    environment:\n"
        "      S2: ${SECRET}\n",
        "tasks.py": "from invoke import task\n",
        # (the project compose finds by itself interpolates nothing: review GS1)
        "compose.yaml": "services:\n  web:\n    image: x\n",
    }
    return canary_workspace(tmp_path, "SECRET=CANARY_GL\n", files)


@pytest.mark.parametrize(
    "line",
    [
        "podman-compose -f a.yml ps",
        "docker-compose -f a.yml ps",
        "python3 -m pipenv --venv",
        "invoke --complete",
        "python3 -m invoke --complete",
        "celery -q inspect",
    ],
)
def test_gl1_gl2_gl3_an_option_where_the_verb_would_be_is_offered_nothing(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None, decision.suggested_rule


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("podman-compose ps", "podman-compose ps"),
        ("invoke build", "invoke build"),
        ("docker compose config --services", "docker compose config --services $"),
        ("docker compose convert --services", "docker compose convert --services $"),
    ],
)
def test_gl_verbs_are_still_offered(tmp_path: Path, line: str, offered: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).suggested_rule == offered


@pytest.mark.parametrize(
    "line",
    [
        "podman-compose -f a.yml config",
        "docker-compose -p proj config",
        "docker compose -f a.yml config",
        "docker compose convert",
        "docker compose convert --environment",
        "podman compose -p x convert",
    ],
)
def test_gl1_gl4_compose_config_is_locked_after_options_and_as_convert(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    approvals = ("podman-compose", "docker-compose", "docker compose convert", "podman compose")
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id.startswith("compose-config-prints") for r in decision.reasons)


def test_gl2_pipenv_under_python_m_is_pipenv(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    offered = decide("python3 -m pipenv run pytest", workspace, env).suggested_rule
    assert offered == "python3 -m pipenv run pytest"
    line = "python3 -m pipenv run printenv SECRET"
    assert decide(line, workspace, env, offered).verdict is Verdict.ASK


def test_gl6_makes_load_limit_is_no_listing(tmp_path: Path) -> None:
    from policylang.engine.rules import _listish

    assert not _listish("-l", "make")
    assert not _listish("-l", "ninja")
    assert _listish("-l", "just")
    assert _listish("-T", "rake")
    assert _listish("--list", "anything")


def test_gl5_compose_alpha_has_a_verb(tmp_path: Path) -> None:
    # suspected (no compose v2 here): `alpha` groups verbs that build, start and publish
    workspace, env = _workspace(tmp_path)
    offered = decide("docker compose alpha viz", workspace, env).suggested_rule
    assert offered == "docker compose alpha viz $"  # (exactly: `--image` prints, GS3)
    for line in ("docker compose alpha watch", "docker compose alpha publish --with-env r"):
        assert decide(line, workspace, env, offered).verdict is Verdict.ASK, line
