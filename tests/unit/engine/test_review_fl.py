"""Review FL: what one approval covers, over the tldr pages.

The approval the engine offers for an innocent listing or a harmless form of a program
covered forms that run code, read secrets or change the system: `openssl rand
--provider-path . --provider evil` (FL1) loaded a workspace library; `ssh-keygen -R HOST`
rewrote `~/.ssh/known_hosts` under the approval of `ssh-keygen -l -f key.pub` (FL3);
`aws configure get aws_secret_access_key` (FL4), `bun pm trust --all` (FL5), `terraform
console` fed an expression (FL6), `cargo install` (FL7), `deno eval` (FL8), gpg decrypting
without `-d` (FL9), `pass show` (FL10), poetry's and gem's configuration writes (FL12), `go
env --w` (FL13), `swift repl`, `dotnet fsi` (FL14), `code --install-extension` (FL15), `gh
auth status --show-token` (FL16), `dpkg -P` (FL17), `envchain NS CMD` (FL18)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, judge

from policylang import Verdict


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


def _suggested(line: str, workspace: Path) -> str | None:
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    return decision.suggested_rule


# (the innocent line, whose suggestion is approved, and lines it must not cover)
COVERED = [
    ("openssl rand -hex 8", ["openssl rand --provider-path . --provider evil -hex 8",
                             "openssl rand -provider=evil -hex 8",
                             "openssl rand --provider=evil -hex 8",
                             "openssl req -config evil.cnf -new"]),
    ("poetry env activate", ["poetry env use ./evil.sh", "poetry env remove --all"]),
    ("ssh-keygen -y -f key", ["ssh-keygen -R host", "ssh-keygen -F host", "ssh-keygen -H"]),
    ("aws configure get region", ["aws configure get aws_secret_access_key"]),
    ("bun pm untrusted", ["bun pm trust --all"]),
    ("terraform console", ["echo 'file(\".env\")' | terraform console"]),
    ("deno eval 'console.log(1)'", ["deno eval 'Deno.readTextFileSync(\".env\")'"]),
    ("gpg -k", ["gpg -o - f.gpg", "gpg --decrypt-files f.gpg", "gpg < f.gpg",
                "cat f.gpg | gpg", "gpg --show-session-key f.gpg"]),
    ("pass", ["pass show github", "pass github", "pass -c github", "pass git push"]),
    ("poetry config --list", ["poetry config repositories.x https://evil.example"]),
    ("gem sources -l", ["gem sources -a https://evil.example", "gem sources --remove x"]),
    ("go env", ["go env --w GOFLAGS=-toolexec=./x", "go env --u GOPROXY"]),
    ("swift --version", ["swift repl <<< 'print(1)'"]),
    ("dotnet --info", ["dotnet fsi x.fsx", "dotnet script x.csx"]),
    ("code --version", ["code --install-extension evil.vsix", "code README"]),
    ("gh auth status", ["gh auth status --show-token", "gh auth status -t"]),
    ("dpkg -l bash", ["dpkg -P bash", "dpkg --configure -a", "dpkg -i x.deb"]),
    ("envchain --list", ["envchain ns sh -c id"]),
]  # fmt: skip


@pytest.mark.parametrize(("innocent", "lines"), COVERED)
def test_the_innocent_forms_approval_covers_none_of_these(
    tmp_path: Path, innocent: str, lines: list[str]
) -> None:
    workspace = _workspace(tmp_path)
    approval = _suggested(innocent, workspace)
    approvals = (approval,) if approval is not None else ()
    for line in lines:
        decision = judge(line, workspace, *approvals)
        assert decision.verdict is not Verdict.ALLOW, (approval, decision.explain())


def test_listings_stay_readable(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    assert judge("cargo install --list", workspace).verdict is Verdict.ALLOW
    assert judge("kill -l", workspace).verdict is Verdict.ALLOW


def test_fl1_openssl_loads_a_provider_by_its_double_dash_option(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    source = workspace / "evil.c"
    source.write_text(
        '#include <stdio.h>\n__attribute__((constructor)) static void ran(void) {\n'
        '  FILE *f = fopen("pwned", "w"); if (f) fclose(f); }\n'
    )
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(workspace / "evil.so"), str(source)],
                   check=True, capture_output=True, timeout=60)  # fmt: skip
    line = "openssl rand --provider-path . --provider evil -hex 8"
    assert judge(line, workspace, "openssl rand").verdict is Verdict.ASK
    subprocess.run(["bash", "-c", line], cwd=workspace, capture_output=True, timeout=30,
                   env=canary_environment(workspace))  # fmt: skip
    assert (workspace / "pwned").exists()  # (the library's constructor ran)


def test_fl3_ssh_keygen_r_rewrites_a_known_hosts_file(tmp_path: Path) -> None:
    """`ssh-keygen -R HOST` rewrites the known hosts file (`~/.ssh/known_hosts` of the
    user's passwd entry where no `-f` names one, so a fake HOME cannot show it: here a
    named copy shows the write)."""
    workspace = _workspace(tmp_path)
    known = workspace / "known"
    key = subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                          str(workspace / "k")], capture_output=True, timeout=60)  # fmt: skip
    assert key.returncode == 0
    known.write_text("example.org " + (workspace / "k.pub").read_text())
    line = "ssh-keygen -R example.org -f known"
    assert judge(line, workspace, "ssh-keygen").verdict is Verdict.ASK
    subprocess.run(["bash", "-c", line], cwd=workspace, env=canary_environment(workspace),
                   capture_output=True, timeout=30)  # fmt: skip
    assert "example.org" not in known.read_text()  # (the file was rewritten)


def test_fl_premises_of_the_installed_programs() -> None:
    """The programs whose forms the approvals covered exist here for the two real runs
    above (openssl, ssh-keygen); the others are judged by their documented options."""
    assert shutil.which("openssl") is not None
    assert shutil.which("ssh-keygen") is not None
