"""Open items left by review DX's fixers (closing 28, section 4): DX8's misses (Oracle's
`user/pw@alias` after sqlplus and its kin or before `host:port`, mysql's short `-p`
passwords) and its false asks (`owner/repo@branch`, JSON pagination tokens); a flag value
(`true`, `off`, `1`) of a `_PASSWORD=` is no password."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, git_ok, run_printed

from policylang import Verdict

# -- DX8's misses: credentials in variables' values --------------------------------------------

_CREDENTIAL_VALUES = [
    "sqlplus scott/tiger@orcl",
    "sqlplus -s scott/tiger@v2",
    "sqlplus -L system/manager@main",
    "sqlplus user/pass@host:1521/svc",
    "user/pass@host:1521/svc",
    "user/pass@db.example.com:1521/orclpdb1",
    "sqlldr userid=scott/tiger@orcl control=x.ctl",
    "userid=scott/tiger@v2",
    "expdp system/Manager1@prod directory=d dumpfile=x.dmp",
    "impdp hr/hr@XEPDB1",
    "rman target sys/pw@prod",
    "dgmgrl sys/pw@primary",
    "connect scott/tiger@v2",
    "sql scott/tiger@localhost/XEPDB1",
    "scott/tiger@localhost/XEPDB1",
    'sqlplus scott/"p@ss w"@orcl',
    "mysql -u root -p1234",
    "mysql -uroot -p12345",
    "mysql -h db -P 3306 -u app -p1234 shop",
    "mysqldump -u root -p0000 --all-databases",
    "mariadb -p1234 -u root",
    "mysqladmin -uroot -p99 status",
    "kubectl exec -it db -- mysql -uroot -p1234",
    "sudo mysql -p1234",
    "X_PASSWORD=hunter2",
    "X_PASSWORD=true1",
    "X_PASSWORD=offline-Secret",
    "PASSWORD=yesterday",
    '{"access_token": "0123456789abcdef"}',
    '{"refresh_token": "0123456789abcdef"}',
    '{"token": "0123456789abcdef"}',
]


@pytest.mark.parametrize("value", _CREDENTIAL_VALUES)
def test_credential_values_ask(tmp_path: Path, value: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, V=value)
    for line in ("echo $V", "printenv V"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, (line, value, decision.explain())
        assert "engine.secret-variable" in decision.explain(), decision.explain()


# -- DX8's false asks, and flag values ---------------------------------------------------------

_PLAIN_VALUES = [
    "gh repo clone owner/repo",
    "npx github:owner/repo@main",
    "npx github:owner/repo@feature-x",
    "pip install git+https://github.com/o/r@v1",
    "pip install git+https://github.com/o/r@feature",
    "uses: actions/checkout@v4",
    "uses: actions/checkout@feature",
    "uses: my-org/deploy@feature",
    "owner/repo@feature/login",
    "owner/my-repo@feature",
    "aws-actions/configure-aws-credentials@feature-x",
    "go install example.com/tool@feature",
    "owner/repo@release/1.2",
    "jq '.next_token' f.json",
    "jq .access_token",
    "jq -r .access_token f.json",
    '{"next_token": "0123456789abcdef"}',
    '{"nextPageToken": "0123456789abcdef"}',
    '{"NextToken": "0123456789abcdef"}',
    '{"continuationToken": "0123456789abcdef"}',
    '{"page_token": "0123456789abcdef"}',
    '{"cursor_token": "0123456789abcdef"}',
    '{"sync_token": "0123456789abcdef"}',
    "X_PASSWORD=true",
    "X_PASSWORD=off",
    "X_PASSWORD=1",
    "X_PASSWORD=0",
    "PASSWORD=yes",
    "password=no",
    'REQUIRE_PASSWORD="false"',
    "docker run -u root -p8080 img",
    "docker run -u mysql -p3306 mysql",
    "docker run --name mysql -p3306 mysql",
    "mysql -p3306:3306",
    "library/postgres@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "-u 1000 -p3000",
    "mysql -u root -p",
    "mysql -u root --protocol=tcp -P3306",
]


@pytest.mark.parametrize("value", _PLAIN_VALUES)
def test_plain_values_stay_allowed(tmp_path: Path, value: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, V=value)
    decision = decide("echo $V", workspace, env)
    assert decision.verdict is Verdict.ALLOW, (value, decision.explain())


# -- rg's ignore files: `--ignore-file F`, `.git/info/exclude`, git's global one ------------


def _rg_workspace(tmp_path: Path) -> Path:
    """A git repository with a protected `.env` beside a plain file, and two ignore files
    that `--ignore-file` may name: `plain` (no `!` line) and `reinclude` (`!.env`)."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / ".env").write_text("KEY=secret\n")
    (workspace / "a.txt").write_text("KEY=plain\n")
    (workspace / "plain").write_text("*.log\nbuild/\n")
    (workspace / "reinclude").write_text("*.log\n!.env\n")
    return workspace


def _rg(line: str, workspace: Path, env: dict[str, str]) -> tuple[Verdict, str]:
    return decide(line, workspace, env).verdict, run_printed(line, workspace, env)


@pytest.mark.parametrize(
    "line",
    ["rg --ignore-file plain KEY", "rg --ignore-file=plain KEY", "rg --ignore-file ./plain KEY",
     "rg --ignore-file missing KEY"],
)  # fmt: skip
def test_an_ignore_file_without_reinclusions_keeps_hidden_files_skipped(
    tmp_path: Path, line: str
) -> None:
    workspace = _rg_workspace(tmp_path)
    env = env_beside(tmp_path)
    verdict, out = _rg(line, workspace, env)
    assert "secret" not in out, out
    assert "plain" in out, out
    assert verdict is Verdict.ALLOW, decide(line, workspace, env).explain()


@pytest.mark.parametrize(
    "line",
    ["rg --ignore-file reinclude KEY", "rg --ignore-file=reinclude KEY",
     "rg --ignore-file plain --ignore-file reinclude KEY",
     "cd cfg && rg --ignore-file ../reinclude KEY .."],
)  # fmt: skip
def test_an_ignore_file_that_reincludes_a_protected_file_is_read(
    tmp_path: Path, line: str
) -> None:
    workspace = _rg_workspace(tmp_path)
    env = env_beside(tmp_path)
    verdict, out = _rg(line, workspace, env)
    assert "secret" in out, out
    assert verdict is Verdict.DENY, decide(line, workspace, env).explain()


@pytest.mark.parametrize(
    "line",
    ['rg --ignore-file "$F" KEY', "rg --ignore-file - KEY",
     "printf '!.env\\n' > plain; rg --ignore-file plain KEY",
     "cp reinclude plain && rg --ignore-file plain KEY"],
)  # fmt: skip
def test_an_ignore_file_not_read_ahead_counts_every_hidden_file(tmp_path: Path, line: str) -> None:
    workspace = _rg_workspace(tmp_path)
    env = env_beside(tmp_path, F="reinclude")
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_git_info_exclude_reinclusion_is_read(tmp_path: Path) -> None:
    workspace = _rg_workspace(tmp_path)
    env = env_beside(tmp_path)
    assert _rg("rg KEY", workspace, env)[0] is Verdict.ALLOW
    (workspace / ".git" / "info" / "exclude").write_text("!.env\n")
    verdict, out = _rg("rg KEY", workspace, env)
    assert "secret" in out, out
    assert verdict is Verdict.DENY
    # below the top, and for a repository in the tree
    inner = workspace / "cfg"
    git_ok(inner, "init", "-q", ".")
    (inner / ".env").write_text("KEY=inner-secret\n")
    (workspace / ".git" / "info" / "exclude").write_text("")
    (inner / ".git" / "info" / "exclude").write_text("!.env\n")
    verdict, out = _rg("rg KEY", workspace, env)
    assert "inner-secret" in out, out
    assert verdict is Verdict.DENY


def test_a_worktree_reads_the_common_info_exclude(tmp_path: Path) -> None:
    workspace = _rg_workspace(tmp_path)
    git_ok(workspace, "add", "a.txt")
    git_ok(workspace, "commit", "-qm", "x")
    git_ok(workspace, "worktree", "add", "-q", str(tmp_path / "wt"))
    tree = tmp_path / "wt"
    (tree / ".env").write_text("KEY=wt-secret\n")
    env = env_beside(tmp_path)
    assert _rg("rg KEY", tree, env)[0] is Verdict.ALLOW
    (workspace / ".git" / "info" / "exclude").write_text("!.env\n")
    verdict, out = _rg("rg KEY", tree, env)
    assert "wt-secret" in out, out
    assert verdict is Verdict.DENY


@pytest.mark.parametrize("configured", [False, True])
def test_git_global_ignore_reinclusion_is_read(tmp_path: Path, configured: bool) -> None:
    workspace = _rg_workspace(tmp_path)
    home = tmp_path / "home"
    if configured:
        (home / ".gitconfig").write_text("[core]\n\texcludesFile = ~/global-ignore\n")
        ignore = home / "global-ignore"
    else:
        ignore = home / ".config" / "git" / "ignore"
        ignore.parent.mkdir(parents=True)
    env = env_beside(tmp_path)
    assert _rg("rg KEY", workspace, env)[0] is Verdict.ALLOW
    ignore.write_text("!.env\n")
    verdict, out = _rg("rg KEY", workspace, env)
    assert "secret" in out, out
    assert verdict is Verdict.DENY
