"""A later layer cannot weaken an earlier layer's deny by changing how commands are read.

Review AO: wrappers, option specs, path roles, interpreters, expansion, environment and
outside-workspace settings are tables, merged last-wins or most-specific-wins; a team or
user layer that rewrote one turned the org's denies into allows. The earlier layers'
policy is now a floor: its denies and locked asks hold under its own reading.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import load_policy
from policylang.engine.policy import shipped_ruleset

ORG = """\
policy "org"
default ask
readonly id ls cat echo
readonly sed ** unless -i|--in-place id sed-print
allow touch **
deny sudo ** id org-sudo
deny rm ** when -r|-R|--recursive operand /|/*|~|~/* id org-rm-root
locked ask curl ** when -d|--data id org-curl-data
protect read-write **/deploy-keys/** deny id org-keys
outside-workspace write deny
env default deny
interpreter python3 inline -c floor deny
expansion * in command-name deny
"""

# (user layer, command): the org alone denies (or asks, locked) each command
CASES = [
    ("wrapper timeout positionals 2\n", "timeout 5 sudo id", "deny"),
    ("wrapper env value -i\n", "env -i sudo id", "deny"),
    ("wrapper xargs positionals 1\n", "echo x | xargs sudo id", "deny"),
    ("options sed value -n\n", "sed -n -i s/a/b/ deploy-keys/k", "deny"),
    ("options rm value -v\nreadonly rm **\n", "rm -r -v /", "deny"),
    ("options rm value -v\nreadonly rm **\n", "rm -v deploy-keys/prod.pem", "deny"),
    ("path-args read tee\nreadonly tee **\n", "tee /etc/passwd", "deny"),
    ("outside-workspace write allow\n", "touch /usr/x", "deny"),
    ("outside-workspace write deny except /**\n", "touch /usr/x", "deny"),
    ("env default allow\n", "FOO=1 ls", "deny"),
    ("interpreter python3 floor allow\nallow python3 **\n", "python3 -c 'print(1)'", "deny"),
    ("shell python3\n", "python3 -c 'ls'", "deny"),
    ("expansion parameter in command-name allow\n", "$X foo", "deny"),
    ("options curl value -v\nallow curl **\n", "curl -v -d @notes.txt https://example.com", "ask"),
    # review AP1: a later `protect … allow` lifted the org's outside-workspace deny
    ("protect write /usr/** allow\n", "touch /usr/local/x", "deny"),
]


@pytest.fixture
def org(tmp_path: Path) -> Path:
    path = tmp_path / "org.policy"
    path.write_text(ORG)
    (tmp_path / "ws").mkdir()
    return path


@pytest.mark.parametrize(("layer", "command", "floor"), CASES)
def test_an_earlier_layers_deny_holds_under_its_own_reading(
    org: Path, tmp_path: Path, layer: str, command: str, floor: str
) -> None:
    user = tmp_path / "user.policy"
    user.write_text(layer)
    workspace = tmp_path / "ws"
    alone = load_policy(org, check=False, snapshot=False)
    layered = load_policy(org, extra=[user], check=False, snapshot=False)
    assert alone.evaluate(command, workspace=workspace).verdict == floor, command
    decision = layered.evaluate(command, workspace=workspace)
    assert decision.verdict == floor, decision.explain()
    assert decision.suggested_rule is None
    assert any("earlier layers' own reading" in r.message for r in decision.reasons) or (
        decision.verdict == "deny" and layered.compiled.floors == ()
    )


def test_a_later_layer_may_still_relax_what_the_org_only_asks(org: Path, tmp_path: Path) -> None:
    # an unlocked ask of an earlier layer is a later layer's to relax, as with rules
    user = tmp_path / "user.policy"
    user.write_text("wrapper mytimeout positionals 1\nallow git status\n")
    layered = load_policy(org, extra=[user], check=False, snapshot=False)
    workspace = tmp_path / "ws"
    assert layered.evaluate("git status", workspace=workspace).verdict == "allow"
    assert layered.evaluate("mytimeout 5 git status", workspace=workspace).verdict == "allow"


def test_rules_alone_in_a_later_layer_need_no_floor(org: Path, tmp_path: Path) -> None:
    user = tmp_path / "user.policy"
    user.write_text("allow git status\nallow sudo ls\n")
    layered = load_policy(org, extra=[user], check=False, snapshot=False)
    assert layered.compiled.floors == ()
    assert layered.evaluate("sudo ls", workspace=tmp_path / "ws").verdict == "deny"
    assert load_policy(check=False, snapshot=False).compiled.floors == ()


def test_the_shipped_org_example_holds_against_a_rewritten_wrapper(tmp_path: Path) -> None:
    user = tmp_path / "user.policy"
    user.write_text("wrapper timeout positionals 2\n")
    default = shipped_ruleset("default")
    layered = load_policy(default, extra=[user], check=False, snapshot=False)
    assert len(layered.compiled.floors) == 1
    workspace = tmp_path / "ws"
    workspace.mkdir()
    for command in ("timeout 5 sudo id", "timeout -s 9 5 sudo id"):
        assert layered.evaluate(command, workspace=workspace).verdict == "deny", command
    # the later layer's reading still decides what the earlier layers leave open
    assert layered.evaluate("timeout 5 10 ls", workspace=workspace).verdict == "allow"


def test_a_protect_ask_does_not_lift_a_stricter_outside_workspace_verdict(
    tmp_path: Path,
) -> None:
    # review AP5: a matching `protect … ask` had replaced `outside-workspace write deny`
    org = tmp_path / "org.policy"
    org.write_text(
        'policy "o"\nallow touch **\noutside-workspace write deny\n'
        "protect write ~/.mozilla/** ask\n"
    )
    (tmp_path / "ws").mkdir()
    policy = load_policy(org, check=False, snapshot=False)
    env = {"HOME": str(tmp_path / "home")}
    for command in ("touch ~/.mozilla/x", "touch ~/.MOZILLA/x"):
        decision = policy.evaluate(command, workspace=tmp_path / "ws", env=env)
        assert decision.verdict == "deny", command
