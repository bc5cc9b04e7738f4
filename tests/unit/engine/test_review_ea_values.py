"""Review EA, credential shapes in variables' values: EA4 the check takes linear time on long
adversarial values (the verdicts are tested here, the time in
`benchmarks/bench_secret_values.py`); EA6 passphrases that start with a flag word and Oracle
logons with `-` or `.` after sqlplus and its kin ask again; EA7 quoted mysql and Oracle
logons after their programs, a logon without `@`."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict
from policylang.engine.evaluate import has_credential

_SIZE = 64 * 1024


def _long(unit: str, tail: str = "") -> str:
    return unit * (_SIZE // len(unit)) + tail


# -- EA4: long adversarial values keep their verdicts -------------------------------------------

_LONG_PLAIN = [
    "sql ", "sqlplus ", "mysql ", "x mysql ", "/mysql ", "sql a/", " a/b@", "0123456789abcdef",
    "x:", ",x:", ",a:b", "-u x ", "=", '"', "'", "a", "-p", "sk-.", "a.", "sql =a/",
    "mysql a/", "userid=,a:",
]


@pytest.mark.parametrize("unit", _LONG_PLAIN)
def test_long_plain_values(unit: str) -> None:
    assert not has_credential(_long(unit)), unit
    assert not has_credential(_long(unit, "@sha256:")), unit


@pytest.mark.parametrize(
    ("unit", "tail"),
    [
        ("sql ", "scott/tiger@orcl"),
        ("mysql ", "-pS3cret"),
        ("x mysql ", "-pS3cret"),
        ("0123456789abcdef", " https://u:pw@host/"),
        (",a:b", "@host"),
        ("-u x ", "-pS3cret"),
        ("a", " X_PASSWORD=hunter2"),
        ("=", " ghp_0123456789abcdefghij0123"),
    ],
)
def test_long_values_still_find_the_credential(unit: str, tail: str) -> None:
    assert has_credential(_long(unit, tail)), (unit, tail)


@pytest.mark.parametrize(
    "head", ["sqlplus scott/tiger@orcl ", "mysql -pS3cret ", "https://u:pw@host/ ", "u:pw@proxy "]
)
@pytest.mark.parametrize("unit", ["sql ", "mysql ", "0123456789abcdef", ",a:b", "a"])
def test_a_credential_before_a_long_value(head: str, unit: str) -> None:
    assert has_credential(head + _long(unit)), (head, unit)


def test_long_value_through_evaluate(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    for value, verdict in (
        (_long("sql "), Verdict.ALLOW),
        (_long("mysql "), Verdict.ALLOW),
        (_long("sql ", "scott/tiger@orcl"), Verdict.ASK),
    ):
        env = env_beside(tmp_path, NOTES=value)
        assert decide('echo "$NOTES"', workspace, env).verdict is verdict


# -- EA6, EA7: credentials that print ------------------------------------------------------------

_CREDENTIALS = [
    # EA6
    'X_PASSPHRASE="no pain no gain"',
    "DB_PASSWORD='yes I am 42'",
    "PASSWORD=yes,S3cret",
    "password=on;S3cret",
    "sqlplus app-user/S3cret@prod",
    "sqlplus scott/Tiger-1@prod",
    "sqlplus scott/tiger.2024@prod",
    "userid=app-user/S3cret@prod",
    # EA7
    "sh -c 'mysql -pS3cret'",
    'alias db="mysql -pS3cret"',
    "`mysql -pS3cret`",
    "x=$(mysql -pS3cret -e q)",
    "'mysql' -pS3cret",
    "mysql -e 'SELECT 1;' -pS3cret",
    "mysql -p-S3cret",
    "sqlplus 'scott/tiger@orcl'",
    'sqlplus -s "scott/tiger"@orcl',
    "userid='scott/tiger@orcl'",
    "sqlplus scott/tiger",
    "expdp scott/tiger directory=d",
    "userid=scott/tiger",
    '{"refresh_token": "0123456789abcdef"}',
    '{"restart_token": "0123456789abcdef"}',
    '{"homepage_token": "0123456789abcdef"}',
    '{"api.continue_token": "0123456789abcdef"}',
    '{"page_access_token": "0123456789abcdef"}',
]


@pytest.mark.parametrize("value", _CREDENTIALS)
def test_credentials_ask(tmp_path: Path, value: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, CONF=value)
    decision = decide('echo "$CONF"', workspace, env)
    assert decision.verdict is Verdict.ASK, (value, decision.explain())
    assert "engine.secret-variable" in decision.explain(), decision.explain()


_PLAIN = [
    'REQUIRE_PASSWORD="false"',
    "X_PASSWORD=true",
    "X_PASSWORD=off Y=1",
    "sqlplus /nolog",
    "sqlplus / as sysdba",
    "sqlplus -s @script.sql",
    "rman target /",
    "sqlldr control=load/x.ctl data=in/x.dat",
    "docker run --name=mysql -p3306 mysql",
    "docker run -u mysql -p3306 mysql",
    "owner/my-repo@feature",
    '{"nextPageToken": "0123456789abcdef"}',
    '{"StartingToken": "0123456789abcdef"}',
    '{"prev_page_token": "0123456789abcdef"}',
]


@pytest.mark.parametrize("value", _PLAIN)
def test_plain_values_allow(tmp_path: Path, value: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, CONF=value)
    decision = decide('echo "$CONF"', workspace, env)
    assert decision.verdict is Verdict.ALLOW, (value, decision.explain())


# -- review ED: what the linear rewrite had lost -----------------------------------------------

_ED_CREDENTIALS = [
    "-https://deploy:S3cretPassw0rd@git.example.com/repo.git",  # ED1: a `-` before the scheme
    "1.https://deploy:S3cretPassw0rd@git.example.com/repo.git",
    "v2+git://deploy:S3cret@git.example.com",
    "mirror1,deploy:pa,ss@mirror2.example.com",  # ED2: a `,` in the password after a `,`
    "a,b,deploy:p,a,s,s@host",
]
_ED_PLAIN = ["a,redis:6379@0", "x,mailto:a,b@c.com", "a,b:c:@d", "1.https://example.com/x"]


@pytest.mark.parametrize("value", _ED_CREDENTIALS)
def test_ed_credentials_are_seen(tmp_path: Path, value: str) -> None:
    assert has_credential(value)
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, NOTES=value)
    assert decide('echo "$NOTES"', workspace, env).verdict is Verdict.ASK


@pytest.mark.parametrize("value", _ED_PLAIN)
def test_ed_plain_values_stay_plain(value: str) -> None:
    assert not has_credential(value)


@pytest.mark.parametrize("unit", [",a:b", ",a:", ",mailto:", "1.", "a://", ",a:x,", "-h"])
@pytest.mark.parametrize("tail", ["@x", "@-", ":@x"])
def test_ed_long_values_keep_their_verdicts(unit: str, tail: str) -> None:
    # (in linear time: benchmarks/bench_secret_values.py)
    expected = unit in (",a:b", ",a:x,") and tail == "@x"
    assert has_credential(_long(unit, tail)) is expected, (unit, tail)
