"""Open items left by review DX's fixers (closing 28, section 4): DX8's misses (Oracle's
`user/pw@alias` after sqlplus and its kin or before `host:port`, mysql's short `-p`
passwords) and its false asks (`owner/repo@branch`, JSON pagination tokens); a flag value
(`true`, `off`, `1`) of a `_PASSWORD=` is no password."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

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
