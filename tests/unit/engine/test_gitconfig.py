from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from policylang.engine.gitconfig import GitConfigInspector, find_config


def _gitdir(path: Path, config: str | None = None) -> Path:
    """A minimal directory git accepts as a git directory (HEAD, objects/, refs/)."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "HEAD").write_text("ref: refs/heads/main\n")
    (path / "objects").mkdir(exist_ok=True)
    (path / "refs").mkdir(exist_ok=True)
    if config is not None:
        (path / "config").write_text(config)
    return path


def _repo(tmp_path: Path, config: str) -> Path:
    _gitdir(tmp_path / ".git", config)
    (tmp_path / "src").mkdir()
    return tmp_path


def test_plain_repository_has_no_risks(tmp_path: Path) -> None:
    repo = _repo(tmp_path, '[core]\n\tbare = false\n[remote "origin"]\n\turl = x\n')
    assert GitConfigInspector().risks_for(str(repo / "src")) == ((), True)


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ("[core]\n\tfsmonitor = ./evil\n", "core.fsmonitor"),
        ("[core]\n  pager = evil\n", "core.pager"),
        ("[core]\nsshCommand = evil\n", "core.sshcommand"),
        ("[core]\nhooksPath = /tmp/h\n", "core.hookspath"),
        ("[diff]\nexternal = evil\n", "diff.external"),
        ('[diff "bin"]\ntextconv = evil\n', "diff.bin.textconv"),
        ('[filter "lfs"]\nsmudge = evil\n', "filter.lfs.smudge"),
        ("[alias]\nst = !evil\n", "alias.st"),
        ("[pager]\nlog = evil\n", "pager.log"),
        ("[diff.x]\ntextconv = evil\n", "diff.x.textconv"),
        ("[core] fsmonitor = evil\n", "core.fsmonitor"),
    ],
)
def test_risky_keys_are_reported(tmp_path: Path, config: str, key: str) -> None:
    repo = _repo(tmp_path, config)
    risks, complete = GitConfigInspector().risks_for(str(repo))
    assert complete
    assert [r.key for r in risks] == [key]


def test_plain_alias_is_not_risky(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[alias]\nst = status\n")
    assert GitConfigInspector().risks_for(str(repo))[0] == ()


def test_includes_are_followed(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        '[include]\n\tpath = extra.cfg\n[includeIf "gitdir:/x/"]\n\tpath = "../other.cfg"\n',
    )
    (repo / ".git" / "extra.cfg").write_text("[core]\nfsmonitor = a\n")
    (repo / "other.cfg").write_text("[diff]\nexternal = b\n")
    risks, _ = GitConfigInspector().risks_for(str(repo))
    assert sorted(r.key for r in risks) == ["core.fsmonitor", "diff.external"]


def test_include_cycle_terminates(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[include]\npath = config\n")
    assert GitConfigInspector().risks_for(str(repo)) == ((), True)


def test_unparsable_config_is_incomplete(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "this is not = [git config\n")
    assert GitConfigInspector().risks_for(str(repo))[1] is False


def test_cache_notices_changes(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[core]\nbare = false\n")
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo))[0] == ()
    (repo / ".git" / "config").write_text("[core]\nbare = false\npager = less -evil\n")
    assert [r.key for r in inspector.risks_for(str(repo))[0]] == ["core.pager"]


def test_gitfile_worktree(tmp_path: Path) -> None:
    (tmp_path / "main").mkdir()
    main = _repo(tmp_path / "main", "[core]\nfsmonitor = x\n")
    wt_gitdir = main / ".git" / "worktrees" / "wt"
    wt_gitdir.mkdir(parents=True)
    (wt_gitdir / "HEAD").write_text("0123456789012345678901234567890123456789\n")
    (wt_gitdir / "commondir").write_text("../..\n")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {wt_gitdir}\n")
    assert find_config(str(wt)) == str(main / ".git" / "config")
    assert [r.key for r in GitConfigInspector().risks_for(str(wt))[0]] == ["core.fsmonitor"]


def test_no_repository(tmp_path: Path) -> None:
    found = find_config(str(tmp_path))
    assert found is None or not found.startswith(str(tmp_path))


def test_fifo_config_is_incomplete_not_a_hang(tmp_path: Path) -> None:
    _gitdir(tmp_path / ".git")
    os.mkfifo(tmp_path / ".git" / "config")
    assert GitConfigInspector().risks_for(str(tmp_path)) == ((), False)


# -- review B: F7-F10, F12-F14 ---------------------------------------------------------

_FSMONITOR = "[core]\n\tfsmonitor = /tmp/evil.sh\n"


def _keys(directory: Path) -> tuple[list[str], bool]:
    risks, complete = GitConfigInspector().risks_for(str(directory))
    return sorted(r.key for r in risks), complete


def _index(*entries: tuple[int, str]) -> bytes:
    """A version 2 index holding `(mode, path)` entries."""
    import hashlib
    import struct

    body = b"DIRC" + struct.pack(">II", 2, len(entries))
    for mode, name in entries:
        raw = name.encode()
        entry = struct.pack(">10I", 0, 0, 0, 0, 0, 0, mode, 0, 0, 0) + b"\x11" * 20
        entry += struct.pack(">H", len(raw)) + raw
        entry += b"\0" * (8 - len(entry) % 8)
        body += entry
    return body + hashlib.sha1(body).digest()


def test_plain_repository_with_sample_hooks_has_no_risks(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[core]\n\trepositoryformatversion = 0\n\tbare = false\n")
    hooks = repo / ".git" / "hooks"
    hooks.mkdir()
    for name in ("pre-commit.sample", "post-index-change.sample", "fsmonitor-watchman.sample"):
        (hooks / name).write_text("#!/bin/sh\n")
        (hooks / name).chmod(0o755)
    (repo / ".git" / "index").write_bytes(_index((0o100644, "src/a.py")))
    assert GitConfigInspector().risks_for(str(repo / "src")) == ((), True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_real_plain_repository_has_no_risks(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    (tmp_path / "f").write_text("x\n")
    _git(tmp_path, "add", "f")
    _git(tmp_path, "commit", "-qm", "one")
    assert GitConfigInspector().risks_for(str(tmp_path)) == ((), True)


def test_embedded_bare_repository_is_inspected(tmp_path: Path) -> None:
    # F7: git uses `ws/evil.git` itself as the git directory, not ws/.git
    ws = _repo(tmp_path, "[core]\n\tbare = false\n")
    _gitdir(ws / "evil.git", "[core]\n\tbare = true\n[diff]\n\texternal = /tmp/x.sh\n")
    assert _keys(ws / "evil.git") == (["diff.external"], True)
    assert _keys(ws / "evil.git" / "refs") == (["diff.external"], True)
    assert find_config(str(ws / "evil.git")) == str(ws / "evil.git" / "config")
    assert _keys(ws) == ([], True)


def test_invalid_nested_dot_git_does_not_hide_the_parent(tmp_path: Path) -> None:
    # git skips a `.git` directory that is no git directory and goes on upwards
    ws = _repo(tmp_path, _FSMONITOR)
    (ws / "src" / ".git").mkdir()
    (ws / "src" / ".git" / "config").write_text("[core]\n\tbare = false\n")
    assert _keys(ws / "src") == (["core.fsmonitor"], True)


def test_worktree_config_is_inspected(tmp_path: Path) -> None:
    # F8: extensions.worktreeConfig makes git read config.worktree
    repo = _repo(tmp_path, "[extensions]\n\tworktreeConfig = true\n")
    (repo / ".git" / "config.worktree").write_text(_FSMONITOR)
    assert _keys(repo) == (["core.fsmonitor"], True)


def test_linked_worktree_config_worktree_is_inspected(tmp_path: Path) -> None:
    (tmp_path / "main").mkdir()
    main = _repo(tmp_path / "main", "")
    wt_gitdir = main / ".git" / "worktrees" / "wt"
    wt_gitdir.mkdir(parents=True)
    (wt_gitdir / "HEAD").write_text("0123456789012345678901234567890123456789\n")
    (wt_gitdir / "commondir").write_text("../..\n")
    (wt_gitdir / "config.worktree").write_text("[core]\n\tpager = evil\n")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {wt_gitdir}\n")
    assert _keys(wt) == (["core.pager"], True)


@pytest.mark.parametrize(
    "include",
    [
        "path = evil.cfg ;c",
        "path = evil.cfg #c",
        'path = "evil".cfg',
        'path = ev"il.c"fg',
        "path = ev\\\nil.cfg",
        'path = e\\"vil.cfg',  # the file is named `e"vil.cfg`
    ],
)
def test_include_value_syntax(tmp_path: Path, include: str) -> None:
    # F9: git strips comments, toggles quotes, joins continuation lines
    repo = _repo(tmp_path, f"[include]\n\t{include}\n")
    (repo / ".git" / "evil.cfg").write_text(_FSMONITOR)
    (repo / ".git" / 'e"vil.cfg').write_text(_FSMONITOR)
    assert _keys(repo) == (["core.fsmonitor"], True)


def test_include_if_value_syntax(tmp_path: Path) -> None:
    repo = _repo(tmp_path, '[includeIf "onbranch:main"]\n\tpath = "ev"il.cfg ; why\n')
    (repo / ".git" / "evil.cfg").write_text(_FSMONITOR)
    assert _keys(repo) == (["core.fsmonitor"], True)


def test_include_tilde_user(tmp_path: Path) -> None:
    # F9: `~user/` is the home of `user`
    import pwd

    entry = pwd.getpwuid(os.getuid())
    repo = _repo(tmp_path, "")
    (repo / ".git" / "evil.cfg").write_text(_FSMONITOR)
    relative = os.path.relpath(repo / ".git" / "evil.cfg", entry.pw_dir)
    (repo / ".git" / "config").write_text(f"[include]\n\tpath = ~{entry.pw_name}/{relative}\n")
    assert _keys(repo) == (["core.fsmonitor"], True)


def test_include_tilde_home(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[include]\n\tpath = ~/evil.cfg\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / "evil.cfg").write_text(_FSMONITOR)
    risks, complete = GitConfigInspector().risks_for(str(repo), home=str(home))
    assert [r.key for r in risks] == ["core.fsmonitor"]
    assert complete


@pytest.mark.parametrize(
    "include",
    [
        "path = nothere.cfg",  # git ignores it, but this check may have misread the name
        "path = %(prefix)/etc/evil.cfg",
        "path = ~no-such-user-policylang/evil.cfg",
        "path",
        "path = ",
    ],
)
def test_unresolvable_include_is_a_risk(tmp_path: Path, include: str) -> None:
    repo = _repo(tmp_path, f"[include]\n\t{include}\n")
    risks, _ = GitConfigInspector().risks_for(str(repo))
    assert risks
    assert all(r.key.startswith("include.path") for r in risks)


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        # F10: a backslash-newline continues the value; `[x]` is part of core.note
        ("[core]\n\tnote = a \\\n[x]\n\tfsmonitor = /tmp/evil.sh\n", (["core.fsmonitor"], True)),
        ("[core]\n\tnote = a \\\r\n[x]\n\tfsmonitor = /tmp/evil.sh\n", (["core.fsmonitor"], True)),
        # …also inside quotes, where `]"` would otherwise end a section header
        (
            '[core]\n\tnote = "a \\\n[x]" x\n\tfsmonitor = /tmp/evil.sh\n',
            (["core.fsmonitor"], True),
        ),
        # git rejects a space before `]`: nothing runs, but the check cannot read it either
        ("[core ]\n\tfsmonitor = /tmp/evil.sh\n", ([], False)),
        # an unknown escape is an error for git
        ("[core]\n\tnote = a\\q\n", ([], False)),
    ],
)
def test_value_continuation_and_quotes(
    tmp_path: Path, config: str, expected: tuple[list[str], bool]
) -> None:
    repo = _repo(tmp_path, config)
    assert _keys(repo) == expected


def test_continuation_hides_no_section(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[core]\n\tnote = a \\\n[x]\n\tfsmonitor = /tmp/evil.sh\n")
    assert _keys(repo) == (["core.fsmonitor"], True)


def test_unterminated_quote_is_incomplete(tmp_path: Path) -> None:
    repo = _repo(tmp_path, '[core]\n\tnote = "a\n[x]\n\tfsmonitor = /tmp/evil.sh\n')
    assert _keys(repo)[1] is False


def test_oversized_config_is_incomplete(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[core]\n" + "\tnote = x\n" * 120_000 + _FSMONITOR)
    assert _keys(repo)[1] is False


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ("[man]\n\tviewer = man\n", "man.viewer"),
        ('[man "man"]\n\tpath = /tmp/evil.sh\n', "man.man.path"),
        ('[browser "ff"]\n\tpath = /tmp/evil.sh\n', "browser.ff.path"),
        ('[difftool "x"]\n\tpath = /tmp/evil.sh\n', "difftool.x.path"),
        ('[mergetool "x"]\n\tpath = /tmp/evil.sh\n', "mergetool.x.path"),
        ("[help]\n\tbrowser = ff\n", "help.browser"),
        ("[help]\n\tformat = web\n", "help.format"),
        ('[gpg "ssh"]\n\tdefaultKeyCommand = evil\n', "gpg.ssh.defaultkeycommand"),
        ('[trailer "sign"]\n\tcommand = evil\n', "trailer.sign.command"),
        ('[tar "tgz"]\n\tcommand = evil\n', "tar.tgz.command"),
        ('[submodule "s"]\n\tupdate = !evil\n', "submodule.s.update"),
        ("[imap]\n\ttunnel = evil\n", "imap.tunnel"),
        ("[sendemail]\n\tsendmailCmd = evil\n", "sendemail.sendmailcmd"),
    ],
)
def test_more_program_keys(tmp_path: Path, config: str, key: str) -> None:
    # F12
    repo = _repo(tmp_path, config)
    assert _keys(repo) == ([key], True)


def test_submodule_update_without_bang_is_not_risky(tmp_path: Path) -> None:
    repo = _repo(tmp_path, '[submodule "s"]\n\tupdate = rebase\n')
    assert _keys(repo) == ([], True)


def test_executable_hook_is_a_risk(tmp_path: Path) -> None:
    # F13: `git status` runs post-index-change when it refreshes the index
    repo = _repo(tmp_path, "")
    hooks = repo / ".git" / "hooks"
    hooks.mkdir()
    (hooks / "pre-push.sample").write_text("#!/bin/sh\n")
    (hooks / "pre-push.sample").chmod(0o755)
    (hooks / "post-index-change").write_text("#!/bin/sh\n")
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo)) == ((), True)  # not executable: git skips it
    (hooks / "post-index-change").chmod(0o755)
    risks, complete = inspector.risks_for(str(repo))
    assert [r.key for r in risks] == ["hooks/post-index-change"]
    assert risks[0].file == str(hooks / "post-index-change")
    assert complete


def test_hooks_only_changes_run_are_not_risks_for_inspection(tmp_path: Path) -> None:
    # the pre-commit framework installs an executable pre-commit hook in many
    # repositories; `git status`, `git log` and `git diff` never run it
    repo = _repo(tmp_path, "")
    hooks = repo / ".git" / "hooks"
    hooks.mkdir()
    for name in ("pre-commit", "pre-push", "commit-msg", "post-checkout"):
        (hooks / name).write_text("#!/bin/sh\n")
        (hooks / name).chmod(0o755)
    assert GitConfigInspector().risks_for(str(repo)) == ((), True)
    (hooks / "reference-transaction").write_text("#!/bin/sh\n")
    (hooks / "reference-transaction").chmod(0o755)
    risks, _ = GitConfigInspector().risks_for(str(repo))
    assert [r.key for r in risks] == ["hooks/reference-transaction"]


def test_absorbed_submodule_config_is_inspected(tmp_path: Path) -> None:
    # F14: `git status` runs git in every submodule
    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    _gitdir(repo / ".git" / "modules" / "lib" / "inner", _FSMONITOR)
    assert _keys(repo) == (["core.fsmonitor"], True)


def test_nested_submodule_hook_is_inspected(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "")
    sub = _gitdir(repo / ".git" / "modules" / "a" / "modules" / "b", "")
    (sub / "hooks").mkdir()
    (sub / "hooks" / "post-index-change").write_text("#!/bin/sh\n")
    (sub / "hooks" / "post-index-change").chmod(0o755)
    assert _keys(repo) == (["hooks/post-index-change"], True)


def test_embedded_submodule_of_the_index_is_inspected(tmp_path: Path) -> None:
    # F14: a gitlink whose checkout has its own `.git` directory (not under modules/)
    repo = _repo(tmp_path, "")
    (repo / ".git" / "index").write_bytes(_index((0o100644, "a.txt"), (0o160000, "vendor/lib")))
    _gitdir(repo / "vendor" / "lib" / ".git", _FSMONITOR)
    assert _keys(repo) == (["core.fsmonitor"], True)


def test_corrupt_index_with_gitlink_bytes_is_incomplete(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "")
    (repo / ".git" / "index").write_bytes(b"DIRC\x00\x00\x00\x02\x00\x00\x00\x05\x00\x00\xe0\x00")
    assert _keys(repo)[1] is False


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_real_submodule_is_inspected(tmp_path: Path, version: str) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    _git(lib, "init", "-q")
    (lib / "f").write_text("x\n")
    _git(lib, "add", "f")
    _git(lib, "commit", "-qm", "one")
    top = tmp_path / "top"
    top.mkdir()
    _git(top, "init", "-q")
    _git(top, "-c", "protocol.file.allow=always", "submodule", "-q", "add", str(lib), "deps/lib")
    _git(top, "update-index", "--index-version", version)
    assert _keys(top) == ([], True)
    with open(top / ".git" / "modules" / "deps" / "lib" / "config", "a") as handle:
        handle.write(_FSMONITOR)
    assert _keys(top) == (["core.fsmonitor"], True)
    # an embedded (non-absorbed) checkout: only the index names it
    shutil.rmtree(top / ".git" / "modules")
    shutil.rmtree(top / "deps" / "lib")
    shutil.copytree(lib, top / "deps" / "lib")
    with open(top / "deps" / "lib" / ".git" / "config", "a") as handle:
        handle.write(_FSMONITOR)
    assert _keys(top) == (["core.fsmonitor"], True)


def test_default_policy_asks_for_git_status_with_a_hook(tmp_path: Path) -> None:
    from policylang import load_policy

    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    policy = load_policy()
    assert policy.evaluate("git status", workspace=str(repo)).verdict.name == "ALLOW"
    hook = repo / ".git" / "hooks" / "post-index-change"
    hook.parent.mkdir()
    hook.write_text("#!/bin/sh\n")
    hook.chmod(0o755)
    assert policy.evaluate("git status", workspace=str(repo)).verdict.name == "ASK"


def _git(cwd: Path, *args: str) -> None:
    import subprocess

    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(cwd),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


# -- credentials (review Z5) ---------------------------------------------------------------

_HEADER = '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eC10b2s=\n'


@pytest.mark.parametrize(
    ("config", "key"),
    [
        (_HEADER, "http.https://github.com/.extraheader"),
        ("[http]\n\textraHeader = Authorization: Bearer x\n", "http.extraheader"),
        ('[remote "o"]\n\turl = https://x-access-token:ghs_1@github.com/a/b\n', "remote.o.url"),
        ('[remote "o"]\n\tpushurl = https://ghp_1@github.com/a/b\n', "remote.o.pushurl"),
        (
            '[url "https://u:p@git.example/"]\n\tinsteadOf = https://git.example/\n',
            "url.https://u:p@git.example/.insteadof",
        ),
        ("[sendemail]\n\tsmtpPass = hunter2\n", "sendemail.smtppass"),
        ("[github]\n\ttoken = ghp_2\n", "github.token"),
    ],
)
def test_credentials_in_the_config_are_reported(tmp_path: Path, config: str, key: str) -> None:
    repo = _repo(tmp_path, config)
    inspection = GitConfigInspector().inspect(str(repo / "src"))
    assert [c.key for c in inspection.credentials] == [key]
    assert inspection.risks == ()  # a credential runs nothing: git status stays read-only
    assert GitConfigInspector().credentials_in(str(repo / ".git" / "config")) != ()


@pytest.mark.parametrize(
    "config",
    [
        '[remote "o"]\n\turl = https://github.com/a/b\n',
        '[remote "o"]\n\turl = git@github.com:a/b.git\n',
        '[remote "o"]\n\turl = ssh://git@github.com/a/b\n',
        "[http]\n\tsslCertPasswordProtected = true\n",
        "[user]\n\tname = A\n\temail = a@b.example\n",
    ],
)
def test_no_credential_is_reported_where_there_is_none(tmp_path: Path, config: str) -> None:
    repo = _repo(tmp_path, config)
    assert GitConfigInspector().inspect(str(repo)).credentials == ()


def test_credentials_in_an_included_file_count_for_git_commands(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[include]\n\tpath = extra.inc\n")
    (repo / ".git" / "extra.inc").write_text(_HEADER)
    assert len(GitConfigInspector().inspect(str(repo)).credentials) == 1
    # `cat .git/config` prints that file only, not its includes
    assert GitConfigInspector().credentials_in(str(repo / ".git" / "config")) == ()


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git config --list", "ASK"),
        ("git config --get user.name", "ASK"),
        ("git remote -v", "ASK"),
        ("git remote get-url origin", "ASK"),
        ("git var -l", "ASK"),
        ("cat .git/config", "ASK"),
        ("cd .git && cat config", "ASK"),
        ("grep -r basic .", "ASK"),
        ("grep -r basic .git", "ASK"),
        ("rg -uu basic", "ASK"),
        ("git status", "ALLOW"),
        ("git log --oneline", "ALLOW"),
        ("git remote", "ALLOW"),
        ("rg basic", "ALLOW"),  # rg skips the hidden .git
        ("cat src/a.py", "ALLOW"),
    ],
)
def test_default_policy_asks_before_printing_a_credential(
    tmp_path: Path, command: str, expected: str
) -> None:
    from policylang import load_policy

    repo = _repo(tmp_path, _HEADER)
    (repo / "src" / "a.py").write_text("x = 1\n")
    decision = load_policy().evaluate(command, workspace=str(repo))
    assert decision.verdict.name == expected, decision.explain()
    if expected == "ASK":
        assert any(r.rule_id == "engine.git-credentials" for r in decision.reasons)


def test_a_credentials_file_a_config_includes_is_checked_when_read(tmp_path: Path) -> None:
    """actions/checkout v6 keeps the token in `$RUNNER_TEMP/git-credentials-*.config`,
    included from `.git/config` (review AA6)."""
    from policylang import load_policy

    runner = tmp_path / "rt"
    runner.mkdir()
    (runner / "creds.config").write_text(_HEADER)
    repo = _repo(
        tmp_path / "ws",
        f'[includeIf "gitdir:{tmp_path}/ws/.git"]\n\tpath = {runner}/creds.config\n',
    )
    policy = load_policy()
    for command in ("cat ../rt/creds.config", f"grep -r basic {runner}", "git config -l"):
        decision = policy.evaluate(command, workspace=str(repo))
        assert decision.verdict.name == "ASK", decision.explain()
        assert any(r.rule_id == "engine.git-credentials" for r in decision.reasons)
    (runner / "git-credentials-1234.config").write_text(_HEADER)
    decision = policy.evaluate("cat ../rt/git-credentials-1234.config", workspace=str(repo))
    assert decision.verdict.name == "DENY"  # the name actions/checkout gives it


def test_a_bare_clone_in_the_tree_is_a_git_config_too(tmp_path: Path) -> None:
    """`git clone --mirror https://x-access-token:T@…` leaves the URL in `NAME.git/config`
    (review AA7)."""
    from policylang import load_policy

    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    _gitdir(repo / "deps.git", '[remote "origin"]\n\turl = https://x-access-token:T@h/x\n')
    policy = load_policy()
    for command in ("cat deps.git/config", "grep -r x-access .", "rg -uu x-access"):
        decision = policy.evaluate(command, workspace=str(repo))
        assert decision.verdict.name == "ASK", decision.explain()
    assert policy.evaluate("cat src/../.git/config", workspace=str(repo)).verdict.name == "ALLOW"


def test_a_branch_remote_that_is_a_token_url_makes_git_ask(tmp_path: Path) -> None:
    """`git push -u https://u:T@h/x main` stores the URL as `branch.main.remote`, which
    `%(push:remotename)` prints (review AA8)."""
    from policylang import load_policy

    repo = _repo(tmp_path, '[branch "main"]\n\tremote = https://u:T@h/x\n')
    policy = load_policy()
    for command in ("git for-each-ref --format='%(push:remotename)'", "git status -sb"):
        decision = policy.evaluate(command, workspace=str(repo))
        assert decision.verdict.name == "ASK", decision.explain()
        assert any(r.rule_id == "engine.git-credentials" for r in decision.reasons)


@pytest.mark.parametrize(
    ("worktree", "module"), [("../..", False), ("../../../../elsewhere", True)]
)
def test_a_core_worktree_that_is_not_a_submodule_checkout_asks(
    tmp_path: Path, worktree: str, module: bool
) -> None:
    """A shipped bare repository with `core.worktree` makes its index print what it names,
    inside the workspace too (review AA9); a submodule's checkout outside it asks too."""
    from policylang import load_policy

    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    where = repo / ".git" / "modules" / "lib" if module else repo / "fixtures" / "r.git"
    _gitdir(where, f"[core]\n\tbare = false\n\tworktree = {worktree}\n")
    directory = where if module else repo / "fixtures" / "r.git"
    decision = load_policy().evaluate(f"git -C {directory} diff", workspace=str(repo))
    assert decision.verdict.name == "ASK", decision.explain()
    assert any(r.rule_id == "engine.git-worktree" for r in decision.reasons)


def test_a_submodule_checkout_inside_the_workspace_does_not_ask(tmp_path: Path) -> None:
    from policylang import load_policy

    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    (repo / "lib").mkdir()
    _gitdir(
        repo / ".git" / "modules" / "lib", "[core]\n\tbare = false\n\tworktree = ../../../lib\n"
    )
    (repo / "lib" / ".git").write_text("gitdir: ../.git/modules/lib\n")
    decision = load_policy().evaluate("git -C lib diff", workspace=str(repo))
    assert not any(r.rule_id == "engine.git-worktree" for r in decision.reasons), decision.explain()


def test_credentials_in_the_global_config_make_printers_ask(tmp_path: Path) -> None:
    """A global `url."https://x-access-token:T@github.com/".insteadOf` rewrites every
    remote URL, so `git remote -v` prints the token (review AB2)."""
    from policylang import load_policy

    home = tmp_path / "home"
    home.mkdir()
    repo = _repo(tmp_path / "ws", '[remote "origin"]\n\turl = https://github.com/a/b\n')
    env = {"HOME": str(home)}
    policy = load_policy()
    assert policy.evaluate("git remote -v", workspace=str(repo), env=env).verdict.name == "ALLOW"
    (home / ".gitconfig").write_text(
        '[url "https://x-access-token:T@github.com/"]\n\tinsteadOf = https://github.com/\n'
    )
    for command in ("git remote -v", "git config -l", "git var -l"):
        decision = policy.evaluate(command, workspace=str(repo), env=env)
        assert decision.verdict.name == "ASK", decision.explain()
    assert policy.evaluate("git status", workspace=str(repo), env=env).verdict.name == "ALLOW"
    (home / ".gitconfig").unlink()
    xdg = home / "xdg" / "git"
    xdg.mkdir(parents=True)
    (xdg / "config").write_text(_HEADER)
    env["XDG_CONFIG_HOME"] = str(home / "xdg")
    assert policy.evaluate("git config -l", workspace=str(repo), env=env).verdict.name == "ASK"


def test_a_modules_folder_outside_dot_git_is_no_submodule(tmp_path: Path) -> None:
    """review AB3: `fixtures/modules/repo.git` is not `.git/modules/NAME`."""
    from policylang import load_policy

    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    shipped = repo / "fixtures" / "modules" / "repo.git"
    _gitdir(shipped, "[core]\n\tbare = false\n\tworktree = ../../..\n")
    decision = load_policy().evaluate(f"git -C {shipped} diff", workspace=str(repo))
    assert any(r.rule_id == "engine.git-worktree" for r in decision.reasons), decision.explain()


@pytest.mark.parametrize(
    ("name", "config"),
    [
        ("checkout-creds.inc", _HEADER),
        ("work.conf", _HEADER),  # review AC8
        ("config.local", "[github]\n\ttoken = ghp_1\n"),
        (".gitconfig.local", "[github]\n\ttoken = ghp_1\n"),
        (".gitconfig-secrets", '[url "https://x-access-token:T@h/"]\n\tinsteadOf = https://h/\n'),
        ("config", '[credential]\n\thelper = "!f() { echo password=P; }; f"\n'),
    ],
)
def test_other_files_git_reads_as_configuration_are_checked(
    tmp_path: Path, name: str, config: str
) -> None:
    """review AB4: include targets with their own names, and inline credential helpers."""
    from policylang import load_policy

    repo = _repo(tmp_path / "ws", "[core]\n\tbare = false\n")
    (tmp_path / name).write_text(config)
    decision = load_policy().evaluate(f"cat {tmp_path / name}", workspace=str(repo))
    assert decision.verdict.name == "ASK", decision.explain()
    assert any(r.rule_id == "engine.git-credentials" for r in decision.reasons)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_partial_clone_makes_object_reading_verbs_ask(tmp_path: Path) -> None:
    # review AN1: in a blobless clone `git log -p`, `git show` and `git blame` fetch the
    # blobs they lack from the promisor remote (seen with a listener)
    from policylang.engine.policy import load_policy

    source = tmp_path / "src"
    source.mkdir()
    _git(source, "init", "-q")
    _git(source, "config", "uploadpack.allowfilter", "true")
    (source / "a.txt").write_text("one\n")
    _git(source, "add", "a.txt")
    _git(source, "commit", "-qm", "one")
    _git(tmp_path, "clone", "-q", "--filter=blob:none", "--no-local", f"file://{source}", "ws")
    workspace = str(tmp_path / "ws")
    inspection = GitConfigInspector().inspect(workspace)
    assert "remote.origin.promisor" in {risk.key for risk in inspection.lazy_fetch}
    policy = load_policy()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    for command in ("git log -p", "git show HEAD:a.txt", "git blame a.txt", "git diff HEAD~0",
                    "git rev-parse HEAD:a.txt", "git ls-files --with-tree=HEAD", "git reflog -p"):
        decision = policy.evaluate(command, workspace=workspace, env=env)
        assert decision.verdict == "ask", command
        assert any("partial clone" in reason.message for reason in decision.reasons)
    for command in ("git status", "git branch -v", "git remote -v"):
        assert policy.evaluate(command, workspace=workspace, env=env).verdict == "allow", command
    assert policy.evaluate("git log -p", workspace=str(source), env=env).verdict == "allow"


@pytest.mark.source
def test_a_kept_config_follows_a_rewrite_with_its_time_set_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A config file is kept between calls by its stamp: rewritten with the same size and
    its modification time set back (`touch -d`), its change time still moves."""
    from policylang.engine import gitconfig

    monkeypatch.setattr(gitconfig, "_SETTLED_NS", -(10**18))  # every file counts as settled
    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    config = repo / ".git" / "config"
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo)) == ((), True)
    before = config.stat()
    time.sleep(0.02)  # a clock tick later (the guard is off)
    config.write_text("[core]\n\tpager = evil\n")  # the same size
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert config.stat().st_size == before.st_size
    risks, _complete = inspector.risks_for(str(repo))
    assert [r.key for r in risks] == ["core.pager"]


def test_a_config_changed_just_before_it_was_read_is_not_kept(tmp_path: Path) -> None:
    # a change within the same timestamp tick would give the same stamp
    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo)) == ((), True)
    assert not [key for key in inspector._cache if key[1].endswith("/config")]


@pytest.mark.source
def test_a_kept_head_follows_a_rewrite_with_its_time_set_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from policylang.engine import gitconfig

    monkeypatch.setattr(gitconfig, "_SETTLED_NS", -(10**18))
    repo = _repo(tmp_path, "[core]\n\tbare = false\n")
    head = repo / ".git" / "HEAD"
    assert gitconfig._valid_head(str(head)) is True
    assert str(head) in gitconfig._HEAD_CACHE
    before = head.stat()
    time.sleep(0.02)
    head.write_text("garbage: refs/heads/main\n"[: before.st_size])  # the same size
    os.utime(head, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert gitconfig._valid_head(str(head)) is False


@pytest.mark.source  # (counts calls of a module function of the source)
def test_a_line_walks_up_for_git_directories_once_per_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a write asks for the configuration's includes and for the index's links, a git
    # command for what its configuration runs: one walk up to `/` serves them all
    from policylang import Verdict, load_policy
    from policylang.engine import gitconfig

    workspace = tmp_path / "ws"
    (workspace / ".git").mkdir(parents=True)
    asked: list[str] = []
    real = gitconfig.find_gitdirs

    def counted(directory: str) -> gitconfig.GitDirs:
        asked.append(directory)
        return real(directory)

    monkeypatch.setattr(gitconfig, "find_gitdirs", counted)
    policy = load_policy(snapshot=False, decision_cache=0)
    asked.clear()  # (loading checked the policy's own expectations)
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    decision = policy.evaluate("mkdir out && git status", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK
    assert asked
    assert len(asked) == len(set(asked))
    asked.clear()
    policy.evaluate("mkdir out", workspace=str(workspace), env=env)
    assert asked == [str(workspace)]  # and asked again on the next line
