"""Review HO: vagrant's and devcontainer's verbs after their own options.

vagrant reads the words before its verb as its own options (`vagrant --debug up`), and the
devcontainers CLI (yargs) takes its command from the first operand, after any option
(`devcontainer --log-level trace up`): the rules of review BS-host named the verb right
after the program only, so `devcontainer --log-level trace up` was offered `devcontainer`,
under which `devcontainer --workspace-folder . up` (initializeCommand run on this machine)
was allowed, as were `vagrant --debug up` and `vagrant --debug plugin install evil` under a
`vagrant` approval (HO1). The rules' `--help` lines were offered `vagrant up`, `devcontainer
up` and `vagrant plugin`, approvals the rules honoured for help alone (HO2); and `machinectl
login .host` (a login session on this machine) was offered and allowed as `machinectl
login`.

Neither vagrant nor devcontainer is installed here: the premise is their documented
behaviour, and the findings are judged on the engine alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide

from policylang.decision import Verdict


@pytest.fixture
def setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    home.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README.md").write_text("hi\n")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("devcontainer --workspace-folder . up", "devcontainer"),
        ("devcontainer --log-level=trace up", "devcontainer"),
        ("devcontainer --log-level trace up", "devcontainer"),
        ("devcontainer --config x.json set-up", "devcontainer"),
        ("devcontainer --log-level trace build .", "devcontainer"),
        ("devcontainer --unknown-option up", "devcontainer"),
        ("vagrant --debug up", "vagrant"),
        ("vagrant --no-tty provision", "vagrant"),
        ("vagrant --debug plugin install evil", "vagrant"),
        ("vagrant --unknown-option up", "vagrant"),
        ("machinectl login .host", "machinectl login"),
        ("machinectl -q login .host", "machinectl"),
    ],
)
def test_verb_after_options_is_not_approved(
    setting: tuple[Path, dict[str, str]], line: str, approval: str
) -> None:
    workspace, env = setting
    assert decide(line, workspace, env, approval).verdict is Verdict.ASK
    assert decide(line, workspace, env).suggested_rule is None


@pytest.mark.parametrize(
    "line",
    [
        "devcontainer --log-level trace up",
        "devcontainer --log-level trace read-configuration",
        "vagrant up --help",
        "devcontainer up --help",
        "vagrant plugin install --help",
        "machinectl login .host",
    ],
)
def test_no_dishonest_offer(setting: tuple[Path, dict[str, str]], line: str) -> None:
    workspace, env = setting
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    ("line", "verdict", "offer"),
    [
        # guards: ordinary lines keep their verdicts and offers
        # (review HR7: vagrant evaluates the Vagrantfile for every command: no offer)
        ("vagrant status", Verdict.ASK, None),
        ("vagrant halt", Verdict.ASK, None),
        ("vagrant plugin list", Verdict.ASK, None),
        # (review HQ: an exact help offer where the arity names a verb is not made, as
        # poetry, hardhat, nx, turbo, rails and vagrant load project code for `--help`)
        ("devcontainer --help", Verdict.ASK, None),
        (
            "devcontainer read-configuration --workspace-folder .",
            Verdict.ASK,
            "devcontainer read-configuration",
        ),
        ("machinectl list", Verdict.ASK, "machinectl list"),
    ],
)
def test_ordinary_lines_keep_their_verdicts(
    setting: tuple[Path, dict[str, str]], line: str, verdict: Verdict, offer: str | None
) -> None:
    workspace, env = setting
    decision = decide(line, workspace, env)
    assert decision.verdict is verdict
    assert decision.suggested_rule == offer


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("devcontainer read-configuration --workspace-folder .", "devcontainer read-configuration"),
        ("devcontainer --log-level trace read-configuration", "devcontainer"),
        ("machinectl list", "machinectl list"),
    ],
)
def test_approved_ordinary_lines_still_allow(
    setting: tuple[Path, dict[str, str]], line: str, approval: str
) -> None:
    workspace, env = setting
    assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("line", "approval"),
    [("vagrant status", "vagrant status"), ("vagrant --debug status", "vagrant")],
)
def test_approved_vagrant_lines_still_ask(
    setting: tuple[Path, dict[str, str]], line: str, approval: str
) -> None:
    # (review HR7: every vagrant command evaluates the Vagrantfile; no approval covers it)
    workspace, env = setting
    assert decide(line, workspace, env, approval).verdict is Verdict.ASK
