"""Review BS-host (fixer BS): VM and system-container runners that run their command, or
the workspace's configuration, on this machine.

`machinectl shell .host CMD` and `flatpak-spawn --host CMD` run CMD on this machine,
`systemd-nspawn -D / CMD` in a container of this system's own tree, and `devcontainer
exec` in a container that mounts the workspace read-write: their command was not judged
(`machinectl shell .host /bin/rm -rf ~` asked), and `devcontainer exec` was offered as a
prefix that covered any command. `vagrant up|provision|reload|resume` run the Vagrantfile's
provisioners and triggers (commands that may run here), `vagrant plugin install` installs
Ruby gems that every vagrant command loads here, and `devcontainer up` runs
devcontainer.json's initializeCommand here: each was offered an approval (`vagrant up`,
`vagrant plugin`, `devcontainer up`) that covered them; the Vagrantfile (Ruby, run by
every vagrant command) could be written without a question.

None of these programs is installed here (no machine or container may be started): the
premise is their documented behaviour, and the findings are judged on the engine alone.
"""

from __future__ import annotations

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
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README.md").write_text("hi\n")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    "line",
    [
        "machinectl shell .host /bin/rm -rf ~",
        "machinectl shell --uid=root .host /bin/cat ~/.ssh/id_rsa",
        "flatpak-spawn --host rm -rf ~",
        "flatpak-spawn --host --clear-env cat ~/.ssh/id_rsa",
        "systemd-nspawn -D / rm -rf ~",
        "devcontainer exec --workspace-folder . rm -rf ~",
    ],
)
def test_host_runners_command_is_judged(setting: tuple[Path, dict[str, str]], line: str) -> None:
    workspace, env = setting
    assert decide(line, workspace, env).verdict is Verdict.DENY


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("devcontainer exec --workspace-folder . ls", "devcontainer exec"),
        ("devcontainer exec --workspace-folder . ls", "devcontainer"),
        ("devcontainer up --workspace-folder .", "devcontainer up"),
        ("devcontainer build --workspace-folder .", "devcontainer build"),
        ("vagrant up --provision", "vagrant up"),
        ("vagrant up", "vagrant"),
        ("vagrant provision", "vagrant provision"),
        ("vagrant reload --provision", "vagrant reload"),
        ("vagrant plugin install vagrant-foo", "vagrant plugin"),
        ("machinectl shell .host /bin/ls", "machinectl shell"),
        ("machinectl shell .host /bin/ls", "machinectl"),
        ("flatpak-spawn --host ls", "flatpak-spawn"),
        ("systemd-nspawn -D /srv/box ls", "systemd-nspawn"),
    ],
)
def test_no_approval_covers_host_commands(
    setting: tuple[Path, dict[str, str]], line: str, approval: str
) -> None:
    workspace, env = setting
    assert decide(line, workspace, env).suggested_rule is None
    assert decide(line, workspace, env, approval).verdict is Verdict.ASK


def test_vagrantfile_write_asks(setting: tuple[Path, dict[str, str]]) -> None:
    workspace, env = setting
    decision = decide("echo 'system(\"id\")' > Vagrantfile", workspace, env)
    assert decision.verdict is Verdict.ASK
    assert any(reason.rule_id == "repo-automation" for reason in decision.reasons)


@pytest.mark.parametrize(
    ("line", "verdict", "offer"),
    [
        # guards: ordinary lines keep their verdicts and offers
        ("cat Vagrantfile", Verdict.ALLOW, None),
        # (review HR7: vagrant evaluates the Vagrantfile for every command: no offer)
        ("vagrant status", Verdict.ASK, None),
        ("vagrant halt", Verdict.ASK, None),
        ("vagrant plugin list", Verdict.ASK, None),
        ("machinectl list", Verdict.ASK, "machinectl list"),
        ("lxc list", Verdict.ASK, "lxc list"),
        ("toolbox run ls", Verdict.ASK, None),
        ("machinectl shell .host /bin/ls", Verdict.ASK, None),
        ("flatpak-spawn --host ls", Verdict.ASK, None),
        ("devcontainer exec --workspace-folder . ls", Verdict.ASK, None),
    ],
)
def test_ordinary_lines_keep_their_verdicts(
    setting: tuple[Path, dict[str, str]], line: str, verdict: Verdict, offer: str | None
) -> None:
    workspace, env = setting
    decision = decide(line, workspace, env)
    assert decision.verdict is verdict
    assert decision.suggested_rule == offer


def test_approved_ordinary_vagrant_verb_still_asks(setting: tuple[Path, dict[str, str]]) -> None:
    # (review HR7: `vagrant status` evaluates the Vagrantfile too; no approval covers it)
    workspace, env = setting
    assert decide("vagrant status", workspace, env, "vagrant status").verdict is Verdict.ASK


# item 2: rsync reads a relative receiver folder from the destination (rules'
# `_rsync_folders`); an approval's checks read it from the working folder too, so an
# ordinary line asked for a folder rsync never touches. The workspace here lies under
# /tmp (where writes are allowed): a value with as many `..` as the workspace has folders
# reaches `/x` from the working folder, and `/tmp/x` from `dst/`.


def _ups(workspace: Path, extra: int = 0) -> str:
    return "../" * (len(workspace.parts) - 1 + extra) + "bs-x"


@pytest.mark.parametrize("option", ["--backup-dir=", "--backup-dir ", "--partial-dir=", "-T "])
def test_rsync_receiver_folder_is_read_from_the_destination_only(
    setting: tuple[Path, dict[str, str]], option: str
) -> None:
    workspace, env = setting
    (workspace / "src").mkdir()
    (workspace / "dst").mkdir()
    line = f"rsync -a -b {option}{_ups(workspace)} src/ dst/"
    assert decide(line, workspace, env, "rsync").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        # guards: from the destination it is outside the workspace and /tmp
        "rsync -a -b --backup-dir={far} src/ dst/",
        "rsync -a -b --backup-dir {far} src/ dst/",
        # a remote destination: the folder is the other host's, the working folder's
        # reading stays
        "rsync -a -b --backup-dir={near} src/ host:dst/",
        # an abbreviated option keeps the stricter reading
        "rsync -a -b --backup-d={near} src/ dst/",
    ],
)
def test_rsync_receiver_folder_guards(setting: tuple[Path, dict[str, str]], line: str) -> None:
    workspace, env = setting
    (workspace / "src").mkdir()
    (workspace / "dst").mkdir()
    filled = line.format(far=_ups(workspace, 1), near=_ups(workspace))
    assert decide(filled, workspace, env, "rsync").verdict is Verdict.ASK


def test_rsync_receiver_folder_into_git_still_denied(setting: tuple[Path, dict[str, str]]) -> None:
    workspace, env = setting
    (workspace / "src").mkdir()
    (workspace / "dst").mkdir()
    line = "rsync -a -b --backup-dir=../.git/hooks src/ dst/"
    assert decide(line, workspace, env, "rsync").verdict is Verdict.DENY


def test_rsync_receiver_folder_premise(tmp_path: Path) -> None:
    """Real rsync puts `--backup-dir=../old` beside the destination, not beside the
    working folder (the premise of the verdicts above)."""
    rsync = shutil.which("rsync")
    if rsync is None:
        pytest.skip("rsync is not installed")
    work = tmp_path / "top" / "ws"
    (work / "src").mkdir(parents=True)
    (work / "dst" / "in").mkdir(parents=True)
    (work / "src" / "f").write_text("new\n")
    (work / "dst" / "in" / "f").write_text("old\n")
    subprocess.run(
        [rsync, "-r", "-b", "--backup-dir=../old", "-I", "src/", "dst/in/"],
        cwd=work, check=True, capture_output=True,
    )
    assert (work / "dst" / "old" / "f").read_text() == "old\n"
    assert not (work / "old").exists()
    assert not (tmp_path / "top" / "old").exists()
