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


# --------------------------------------------------------------------------- review BR3
# The floors followed only the files given after the main one (`extra`, `--layer`). The
# shipped org example is the other layout: the team file *includes* the org's and is
# loaded as the main file; there (and when an extra file includes the org's) the team's
# table lines loosened the org's denies and locked asks.

TEAM_TABLES = "options rm value -v\nwrapper timeout positionals 2\n"

# (command, verdict, locked) under the org base alone: what a team file must keep
BR3_CASES = [
    ("timeout 5 sudo id", "deny", False),  # team reading: `id` (system-info), allowed
    ("rm -vrf ~", "deny", False),  # team reading: `-v` takes `rf` as its value: ask
    ("rm -vrf /home", "deny", False),
    ("timeout 5 curl http://x", "ask", True),  # team reading: the org's *default* ask
]


@pytest.fixture
def org_example(tmp_path: Path) -> Path:
    """A copy of the shipped org example (`org-example/org.policy` includes
    `../common.policy`), with a team file beside it that includes the org's."""
    rulesets = tmp_path / "rulesets"
    (rulesets / "org-example").mkdir(parents=True)
    (rulesets / "common.policy").write_text(shipped_ruleset("common").read_text())
    org = shipped_ruleset("org-example/org")
    (rulesets / "org-example" / "org.policy").write_text(org.read_text())
    team = rulesets / "org-example" / "team.policy"
    team.write_text('policy "team" version "1"\ninclude "org.policy"\n' + TEAM_TABLES)
    (tmp_path / "ws").mkdir()
    (tmp_path / "home").mkdir()
    return rulesets


def _layouts(rulesets: Path) -> dict[str, tuple[Path, list[Path]]]:
    team = rulesets / "org-example" / "team.policy"
    return {
        # the shipped layout: `--policy team.policy`, which includes the org's
        "team includes org, loaded as main": (team, []),
        # an extra file that includes the org's on top of the org's own base
        "common main, extra team includes org": (rulesets / "common.policy", [team]),
        # the org's file named first: the team's include of it is a repeat
        "org main, extra team includes org": (rulesets / "org-example" / "org.policy", [team]),
    }


@pytest.mark.parametrize(
    "layout",
    [
        "team includes org, loaded as main",
        "common main, extra team includes org",
        "org main, extra team includes org",
    ],
)
@pytest.mark.parametrize(("command", "verdict", "locked"), BR3_CASES)
def test_a_file_that_includes_the_org_cannot_loosen_it_through_tables(
    org_example: Path, tmp_path: Path, layout: str, command: str, verdict: str, locked: bool
) -> None:
    main, extra = _layouts(org_example)[layout]
    workspace, env = tmp_path / "ws", {"HOME": str(tmp_path / "home")}
    org = load_policy(org_example / "org-example" / "org.policy", check=False, snapshot=False)
    alone = org.evaluate(command, workspace=workspace, env=env)
    assert (alone.verdict, alone.locked) == (verdict, locked), alone.explain()
    layered = load_policy(main, extra=extra, check=False, snapshot=False)
    assert len(layered.compiled.floors) == 1
    decision = layered.evaluate(command, workspace=workspace, env=env)
    assert decision.verdict == verdict, decision.explain()
    assert decision.locked is locked, decision.explain()
    assert decision.suggested_rule is None


def test_the_team_files_own_reading_still_decides_what_the_org_leaves_open(
    org_example: Path, tmp_path: Path
) -> None:
    team = org_example / "org-example" / "team.policy"
    layered = load_policy(team, check=False, snapshot=False)
    workspace, env = tmp_path / "ws", {"HOME": str(tmp_path / "home")}
    # `timeout 5 10 ls` reads as `ls` under the team's wrapper line (org: `10 ls`, asks)
    assert layered.evaluate("timeout 5 10 ls", workspace=workspace, env=env).verdict == "allow"


def test_every_file_that_changes_the_reading_is_floored_by_the_files_before_it(
    tmp_path: Path,
) -> None:
    # org <- team (includes org; wrapper lines) <- user (extra; a wrapper line): the
    # team's floor is the org, the user's is the org and the team, whose rules hold under
    # the team's own reading
    (tmp_path / "org.policy").write_text(ORG)
    (tmp_path / "team.policy").write_text(
        'include "org.policy"\nwrapper timeout positionals 2\nwrapper mywrap positionals 1\n'
        "deny tar ** id team-tar\n"
    )
    (tmp_path / "user.policy").write_text("wrapper mywrap positionals 2\nallow ls **\n")
    (tmp_path / "ws").mkdir()
    layered = load_policy(
        tmp_path / "team.policy", extra=[tmp_path / "user.policy"], check=False, snapshot=False
    )
    assert len(layered.compiled.floors) == 2
    workspace = tmp_path / "ws"
    # the org's reading: `timeout 5 sudo id` runs sudo (the team's reads `id`)
    assert layered.evaluate("timeout 5 sudo id", workspace=workspace).verdict == "deny"
    # the team's reading: `mywrap 5 tar ls` runs tar, `mywrap 5 sudo id` sudo (the
    # user's reads `ls` and `id`; the org does not know `mywrap` and asks)
    assert layered.evaluate("mywrap 5 tar ls", workspace=workspace).verdict == "deny"
    assert layered.evaluate("mywrap 5 sudo id", workspace=workspace).verdict == "deny"
    # the user's reading decides what the layers before it leave open
    assert layered.evaluate("mywrap 5 6 ls", workspace=workspace).verdict == "allow"


def test_files_that_hold_only_rules_add_no_floor_of_their_own(tmp_path: Path) -> None:
    # a team file of rules between the org and a user file with a table line: one floor,
    # the org and the team, not one per file
    (tmp_path / "org.policy").write_text(ORG)
    (tmp_path / "team.policy").write_text('include "org.policy"\nallow git status\n')
    (tmp_path / "user.policy").write_text("wrapper timeout positionals 2\n")
    (tmp_path / "ws").mkdir()
    team_only = load_policy(tmp_path / "team.policy", check=False, snapshot=False)
    assert team_only.compiled.floors == ()
    layered = load_policy(
        tmp_path / "team.policy", extra=[tmp_path / "user.policy"], check=False, snapshot=False
    )
    assert len(layered.compiled.floors) == 1
    assert layered.compiled.floors[0].sources == layered.compiled.sources[:2]
    workspace = tmp_path / "ws"
    assert layered.evaluate("timeout 5 sudo id", workspace=workspace).verdict == "deny"
    assert layered.evaluate("timeout 5 10 git status", workspace=workspace).verdict == "allow"


@pytest.mark.parametrize("name", ["default", "ci", "readonly", "org-example/team"])
def test_the_shipped_rulesets_have_no_floor(name: str) -> None:
    # ci.policy's interpreter and env lines over common.policy only tighten
    policy = load_policy(shipped_ruleset(name), check=False, snapshot=False)
    assert policy.compiled.floors == ()


# (later file, command, verdict under the org alone and the stack, floors of the stack):
# interpreter and env lines that can only tighten make no floor; the others do
TIGHTENING_CASES = [
    ("interpreter python3 inline -c|-m floor deny\n", "python3 -c 'print(1)'", "deny", 0),
    ("env deny FOO\n", "FOO=1 ls", "deny", 0),
    ("env default deny\n", "FOO=1 ls", "deny", 0),
    ("env secret *TOKEN*\n", "FOO=1 ls", "deny", 0),
    ("protect read **/keys/** deny\n", "cat deploy-keys/k", "deny", 0),
    # it drops `-c`: without a floor `python3 -c …` would only ask (the org's default)
    ("interpreter python3 inline -m floor deny\n", "python3 -c 'print(1)'", "deny", 1),
    ("interpreter python3 inline -c floor ask\n", "python3 -c 'print(1)'", "deny", 1),
    # a glob wins over the default: `env ask FOO` under `env default deny` would ask
    ("env ask FOO\n", "FOO=1 ls", "deny", 1),
    ("env free FOO\n", "FOO=1 ls", "deny", 1),
    ("env default ask\n", "FOO=1 ls", "deny", 1),
]


@pytest.mark.parametrize(("layer", "command", "verdict", "floors"), TIGHTENING_CASES)
def test_lines_that_only_tighten_need_no_floor(
    org: Path, tmp_path: Path, layer: str, command: str, verdict: str, floors: int
) -> None:
    user = tmp_path / "user.policy"
    user.write_text(layer)
    workspace = tmp_path / "ws"
    alone = load_policy(org, check=False, snapshot=False)
    assert alone.evaluate(command, workspace=workspace).verdict == verdict
    for main, extra in ((org, [user]), (_including(tmp_path, layer), [])):
        layered = load_policy(main, extra=extra, check=False, snapshot=False)
        assert len(layered.compiled.floors) == floors, layer
        decision = layered.evaluate(command, workspace=workspace)
        assert decision.verdict == verdict, decision.explain()


def _including(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "team.policy"
    path.write_text('include "org.policy"\n' + text)
    return path


def test_env_lines_over_the_built_in_table_make_a_floor(tmp_path: Path) -> None:
    # the first `env` line replaces the built-in table (`PATH` asks), so even a deny does
    base = tmp_path / "base.policy"
    base.write_text('policy "b"\ndefault allow\n')
    (tmp_path / "ws").mkdir()
    user = tmp_path / "user.policy"
    user.write_text("env deny FOO\n")
    layered = load_policy(base, extra=[user], check=False, snapshot=False)
    assert len(layered.compiled.floors) == 1
    workspace = tmp_path / "ws"
    assert layered.evaluate("FOO=1 ls", workspace=workspace).verdict == "deny"
    assert layered.evaluate("PATH=/tmp ls", workspace=workspace).verdict == "ask"
