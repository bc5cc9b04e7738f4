"""Review FO, of the FL, FM and FN fixes.

FO1: openssl loads a library by `openssl engine dynamic -pre SO_PATH:x.so`, `s_client
-ssl_client_engine x.so` and `fipsinstall -module x.so`. FO2: gpg's `--fingerprint` is a
modifier beside another command (`--fingerprint --decrypt-files`), and `--agent-program`
runs a program: every gpg is locked. FO3: an rpm query runs code (`--eval '%(sh x)'`,
`--pipe`). FO4: ssh-keygen without `-f` rewrites the default `~/.ssh/id_*` (`-p`, `-c`,
`-t`). FO5: a push refspec's source in other id spellings (`ID^3:`, `ID~0:`, `ID@{0}:`)
published a stash. FO7: the org example's `git maintenance run --task=prefetch` fetched.
FO8: `tofu` had no arity, so `tofu plan` offered bare `tofu`. FO9: bare `gopass` reads
commands from its input."""

from __future__ import annotations

import importlib.resources
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, decide, judge

from policylang import Verdict, load_policy


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


# (the approval the engine offered for an innocent form, lines it must not cover)
COVERED = [
    ("openssl engine", ["openssl engine dynamic -pre SO_PATH:./evil.so -pre LOAD"]),
    ("openssl s_client", ["openssl s_client -ssl_client_engine ./evil.so -connect x:443",
                          "openssl s_client -ssl_client_engine=./evil.so"]),
    ("openssl fipsinstall", ["openssl fipsinstall -module ./fips.so -out f.cnf"]),
    ("gpg", ["gpg -k", "gpg --fingerprint --decrypt-files notes.gpg",
             "gpg --show-session-key --decrypt-files notes.gpg",
             "gpg -K --agent-program ./evil.sh", "gpg --homedir g -K"]),
    ("rpm", ["rpm -qa", "rpm -qa --eval '%(sh evil.sh)'", "rpm -q --pipe 'sh evil.sh' bash"]),
    ("dpkg", ["dpkg -P bash", "dpkg --configure -a", "dpkg-reconfigure x"]),
    ("ssh-keygen", ["ssh-keygen -p -N x -P ''", "ssh-keygen -c -C pwned -P x",
                    "ssh-keygen -t rsa -N ''", "ssh-keygen -l -p", "ssh-keygen -y"]),
    ("tofu", ["tofu -chdir=. console"]),
    ("gopass", ["gopass", "gopass <<< 'show github'", "echo 'show github' | gopass"]),
]  # fmt: skip


@pytest.mark.parametrize(("approval", "lines"), COVERED)
def test_no_approval_covers_these(tmp_path: Path, approval: str, lines: list[str]) -> None:
    workspace = _workspace(tmp_path)
    for line in lines:
        decision = judge(line, workspace, approval)
        assert decision.verdict is Verdict.ASK, decision.explain()


def test_fo4_ssh_keygen_p_rewrites_a_key(tmp_path: Path) -> None:
    """The premise, on a named key (without `-f` it is the passwd entry's `~/.ssh/id_*`,
    which a fake HOME cannot show): `-p` re-encrypts the key with a new passphrase."""
    workspace = _workspace(tmp_path)
    key = workspace / "k"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
                   check=True, capture_output=True, timeout=60)  # fmt: skip
    before = key.read_bytes()
    subprocess.run(["bash", "-c", "ssh-keygen -p -N newpass -P '' -f k"], cwd=workspace,
                   capture_output=True, timeout=60, env=canary_environment(workspace))  # fmt: skip
    assert key.read_bytes() != before
    assert judge("ssh-keygen -p -N newpass -P '' -f k", workspace, "ssh-keygen").verdict is (
        Verdict.ASK
    )


def test_fo8_tofu_offers_its_verb(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    # (`tofu plan` offers nothing since review GP1: `graph` shows the arity)
    assert judge("tofu graph", workspace).suggested_rule == "tofu graph"
    assert judge("tofu -chdir=infra graph", workspace).suggested_rule is None


def _stashed(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    workspace = _workspace(tmp_path)
    env = {**canary_environment(workspace), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}  # fmt: skip
    remote = tmp_path / "origin.git"
    script = (
        f"git init -q --bare {remote} && git init -q -b main . && echo hi > README"
        f" && git add README && git commit -qm init && git remote add origin {remote}"
        " && echo SECRET=CANARY_FO5 > .env && git stash -q -u"
    )
    subprocess.run(["bash", "-c", script], cwd=workspace, env=env, check=True,
                   capture_output=True, timeout=60)  # fmt: skip
    return workspace, remote, env


@pytest.mark.parametrize("source", ["{S3}~0", "{S3}^0", "{S3}^{{commit}}", "{s}^3"])
def test_fo5_a_pushed_stash_by_any_id_spelling_asks(tmp_path: Path, source: str) -> None:
    workspace, remote, env = _stashed(tmp_path)
    ids = {
        "S3": subprocess.run(["git", "rev-parse", "stash^3"], cwd=workspace, env=env,
                             capture_output=True, text=True, check=True).stdout.strip(),
        "s": subprocess.run(["git", "rev-parse", "--short", "stash"], cwd=workspace, env=env,
                            capture_output=True, text=True, check=True).stdout.strip(),
    }  # fmt: skip
    line = f"git push -q origin {source.format(**ids)}:refs/heads/leak"
    approval = "git push"  # (offered for `git push origin main`: test_fo6_a_plain_remote…)
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.approved-push-source" in decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, capture_output=True,
                   timeout=60)  # fmt: skip
    shown = subprocess.run(["git", "--git-dir", str(remote), "log", "-p", "leak"], env=env,
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert "CANARY_FO5" in shown.stdout  # (the remote got the stashed `.env`)


def test_fo7_the_org_locks_git_maintenance(tmp_path: Path) -> None:
    team = Path(str(importlib.resources.files("policylang") / "rulesets" / "org-example"
                    / "team.policy"))  # fmt: skip
    policy = load_policy(team)
    policy.approvals.add("git maintenance run", persist=False)
    decision = policy.evaluate("git maintenance run --task=prefetch",
                               workspace=str(tmp_path), env={"HOME": str(tmp_path)})  # fmt: skip
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("setting", "after", "shown"),
    [("remote.origin.push refs/stash:refs/heads/wip", "log -p wip", True),
     ("remote.origin.mirror true", "branch --list other", False)],
)  # fmt: skip
def test_fo6_the_configuration_chooses_what_push_sends(
    tmp_path: Path, setting: str, after: str, shown: bool
) -> None:
    workspace, remote, env = _stashed(tmp_path)
    approval = "git push"  # (offered for `git push origin main`: test_fo6_a_plain_remote…)
    prepare = ("git push -q origin main && git push -q origin main:other"
               f" && git config {setting}")  # fmt: skip
    subprocess.run(["bash", "-c", prepare], cwd=workspace, env=env, check=True,
                   capture_output=True)  # fmt: skip
    decision = decide("git push origin", workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.approved-push-source" in decision.explain()
    subprocess.run(["bash", "-c", "git push -q origin"], cwd=workspace, env=env,
                   capture_output=True, timeout=60)  # fmt: skip
    remote_says = subprocess.run(["git", "--git-dir", str(remote), *after.split()], env=env,
                                 capture_output=True, text=True, timeout=60)  # fmt: skip
    if shown:
        assert "CANARY_FO5" in remote_says.stdout  # (the stash was published)
    else:
        assert "other" not in remote_says.stdout  # (the mirror deleted the remote's branch)


def test_fo6_a_plain_remote_stays_approved(tmp_path: Path) -> None:
    workspace, _remote, env = _stashed(tmp_path)
    subprocess.run(["git", "remote", "set-url", "origin", "https://example.invalid/x.git"],
                   cwd=workspace, env=env, check=True)  # fmt: skip
    assert decide("git push origin main", workspace, env).suggested_rule == "git push"
    decision = decide("git push origin main", workspace, env, "git push")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_fr1_a_describe_spelling_of_the_stash_asks(tmp_path: Path) -> None:
    workspace, remote, env = _stashed(tmp_path)
    short_id = subprocess.run(["git", "rev-parse", "--short", "stash"], cwd=workspace, env=env,
                              capture_output=True, text=True, check=True).stdout.strip()
    line = f"git push -q origin x-g{short_id}:refs/heads/leak"
    decision = decide(line, workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.approved-push-source" in decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, capture_output=True,
                   timeout=60)  # fmt: skip
    shown = subprocess.run(["git", "--git-dir", str(remote), "log", "-p", "leak^3"], env=env,
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert "CANARY_FO5" in shown.stdout  # (git read the describe spelling as the id)


@pytest.mark.parametrize("line", ["git log -p @{u}", "git show @{u}^3", "git diff main @{U}^3"])
def test_fr2_an_upstream_made_the_stash_asks(tmp_path: Path, line: str) -> None:
    workspace, _remote, env = _stashed(tmp_path)
    subprocess.run(["bash", "-c", "git config branch.main.remote . && "
                    "git config branch.main.merge refs/stash"], cwd=workspace, env=env,
                   check=True, capture_output=True)  # fmt: skip
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    shown = subprocess.run(["bash", "-c", line], cwd=workspace, env=env, capture_output=True,
                           text=True, timeout=60)  # fmt: skip
    assert "CANARY_FO5" in shown.stdout  # (`@{u}` is the stash)
    push = decide("git push origin @{u}:refs/heads/leak", workspace, env, "git push")
    assert "engine.approved-push-source" in push.explain()


def test_fr3_a_remote_on_this_machine_asks_under_the_approval(tmp_path: Path) -> None:
    workspace, remote, env = _stashed(tmp_path)
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\ntouch \"$GIT_DIR/../pwned\"\n")
    hook.chmod(0o755)
    subprocess.run(["git", "config", "remote.origin.pushurl", str(remote)], cwd=workspace,
                   env=env, check=True)  # fmt: skip
    decision = decide("git push origin main", workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run(["bash", "-c", "git push -q origin main"], cwd=workspace, env=env,
                   capture_output=True, timeout=60)  # fmt: skip
    assert (tmp_path / "pwned").exists()  # (the remote's hook ran)


@pytest.mark.parametrize(
    "setting", ["remote.pushDefault evil.git", "branch.main.pushRemote evil.git"]
)
def test_fs1_a_push_target_that_names_no_remote_asks(tmp_path: Path, setting: str) -> None:
    """Review FS1: git reads a push remote that names no `remote.X` section as a path:
    `evil.git` in the workspace, whose hook the push runs."""
    workspace, _remote, env = _stashed(tmp_path)
    script = (
        "git remote set-url origin https://example.invalid/x.git && git init -q --bare evil.git"
        " && printf '#!/bin/sh\\ntouch ../pwned\\n' > evil.git/hooks/pre-receive"
        f" && chmod +x evil.git/hooks/pre-receive && git config {setting}"
    )
    subprocess.run(["bash", "-c", script], cwd=workspace, env=env, check=True,
                   capture_output=True)  # fmt: skip
    decision = decide("git push", workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.approved-push-remote" in decision.explain()
    subprocess.run(["bash", "-c", "git push -q"], cwd=workspace, env=env, capture_output=True,
                   timeout=60)  # fmt: skip
    assert (workspace / "pwned").exists()  # (git pushed to evil.git and ran its hook)


def test_fs2_an_earlier_checkout_made_the_stash_asks(tmp_path: Path) -> None:
    workspace, _remote, env = _stashed(tmp_path)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=workspace, env=env,
                          capture_output=True, text=True, check=True).stdout.strip()
    entry = (f"{head} {head} t <t@example.invalid> 1765000000 +0000"
             "\tcheckout: moving from stash to main\n")  # fmt: skip
    with (workspace / ".git" / "logs" / "HEAD").open("a") as log:
        log.write(entry)
    for line in ("git log -p @{-1}", "git show @{-1}^3"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, decision.explain()
    shown = subprocess.run(["bash", "-c", "git log -p @{-1}"], cwd=workspace, env=env,
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert "CANARY_FO5" in shown.stdout  # (`@{-1}` is the stash)


def _evil_bare(workspace: Path, env: dict[str, str]) -> None:
    script = (
        "git remote set-url origin https://example.invalid/x.git && git init -q --bare evil.git"
        " && printf '#!/bin/sh\\ntouch ../pwned\\n' > evil.git/hooks/pre-receive"
        " && chmod +x evil.git/hooks/pre-receive"
    )
    subprocess.run(["bash", "-c", script], cwd=workspace, env=env, check=True,
                   capture_output=True)  # fmt: skip


def test_ft1_a_remote_git_does_not_count_is_read_as_a_path(tmp_path: Path) -> None:
    """Review FT1: `[remote "evil.git"]` with no `url` is no remote for git, so
    `branch.main.remote = evil.git` pushes to the folder `evil.git`, whose hook runs."""
    workspace, _remote, env = _stashed(tmp_path)
    _evil_bare(workspace, env)
    subprocess.run(["bash", "-c", "git config remote.evil.git.skipDefaultUpdate true"
                    " && git config branch.main.remote evil.git"
                    " && git config branch.main.merge refs/heads/main"], cwd=workspace, env=env,
                   check=True, capture_output=True)  # fmt: skip
    decision = decide("git push", workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run(["bash", "-c", "git push -q"], cwd=workspace, env=env, capture_output=True,
                   timeout=60)  # fmt: skip
    assert (workspace / "pwned").exists()


def test_ft2_a_legacy_remotes_file_asks(tmp_path: Path) -> None:
    """Review FT2: git still reads `.git/remotes/NAME` (`URL: …`) where no `remote.NAME`
    section exists."""
    workspace, _remote, env = _stashed(tmp_path)
    _evil_bare(workspace, env)
    subprocess.run(["git", "remote", "remove", "origin"], cwd=workspace, env=env, check=True)
    (workspace / ".git" / "remotes").mkdir()
    (workspace / ".git" / "remotes" / "origin").write_text(
        f"URL: {workspace / 'evil.git'}\nPush: refs/heads/main:refs/heads/main\n"
    )
    decision = decide("git push origin main", workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run(["bash", "-c", "git push -q origin main"], cwd=workspace, env=env,
                   capture_output=True, timeout=60)  # fmt: skip
    assert (workspace / "pwned").exists()


@pytest.mark.parametrize(
    "line", ["git show @{1}^3", "git show HEAD@{1}^3", "git log -p main@{1}^3"]
)
def test_ft3_a_reflog_entry_may_be_the_stash(tmp_path: Path, line: str) -> None:
    """Review FT3: a crafted reflog makes any entry the stash, as `logs/HEAD` made `@{-1}`
    (FS2, whose test shows git reading it): where a stash exists these ask."""
    workspace, _remote, env = _stashed(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
