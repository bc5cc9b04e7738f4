"""Review Z: lines the default ruleset allowed with no approval that bash turned into
secret reads or writes: loop values split into words, globs that match option names or
stand for several operands, and a repository whose work tree is elsewhere.

Each layout is what a hostile repository can ship (a file named `-r`, a bare repository
with a `core.worktree`); the expected verdicts were checked against bash by the review.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import pushable_repository

from policylang.decision import Decision, Verdict
from policylang.engine.policy import Policy, load_policy

A, Q, D = Verdict.ALLOW, Verdict.ASK, Verdict.DENY


@pytest.fixture(scope="module")
def policy() -> Policy:
    return load_policy()


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "a.py").write_text("x = 1\n")
    (ws / ".env").write_text("API_KEY=FAKE\n")
    (ws / "README.md").write_text("readme\n")
    (ws / "a.txt").write_text("a\n")
    (ws / "b.txt").write_text("b\n")
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=FAKE\n")
    return ws, home


def _decide(policy: Policy, places: tuple[Path, Path], command: str) -> Decision:
    ws, home = places
    return policy.evaluate(command, workspace=ws, env={"HOME": str(home)})


@pytest.mark.parametrize(
    ("command", "expected", "rule"),
    [
        # Z1: an unquoted loop variable is split on blanks; a value may be an option
        ('for f in ".env ../README.md"; do cat $f; done', Q, "engine.unknown-path"),
        ('for f in "README.md HOME/.aws/credentials"; do cat $f; done', Q, "engine.unknown-path"),
        ('for f in "-r fake ."; do grep $f; done', Q, "engine.unknown-path"),
        ('for f in -r; do grep x "$f" .; done', Q, "engine.unknown-path"),
        ('for f in "--from-file=.env README.md"; do diff $f; done', Q, "engine.unknown-path"),
        ('for f in "a.txt b.txt"; do cat "$f"; done', A, None),  # quoted: one word
        ("for f in a.txt b.txt; do cat $f; done", A, None),
        ("for f in src/*.py; do wc -l $f; done", A, None),
        # Z2: a glob may stand for the two operands that make uniq and xxd write
        ("uniq *.txt", Q, "engine.operand-count"),
        ("xxd *.txt", Q, "engine.operand-count"),
        ("uniq a.txt", A, None),
        ("xxd a.txt", A, None),
    ],
)
def test_loop_values_and_operand_counts(
    policy: Policy,
    places: tuple[Path, Path],
    command: str,
    expected: Verdict,
    rule: str | None,
) -> None:
    decision = _decide(policy, places, command.replace("HOME", str(places[1])))
    assert decision.verdict is expected, decision.explain()
    if rule is not None:
        assert any(r.rule_id == rule for r in decision.reasons), decision.explain()


@pytest.mark.parametrize(
    ("name", "command"),
    [
        ("-r", "grep aws_secret *"),
        ("-r", "diff *"),
        ("--from-file=.env", "diff -u *"),
        ("-r", "for f in *; do grep x $f; done"),
    ],
)
def test_a_glob_that_matches_an_option_name_asks(
    policy: Policy, places: tuple[Path, Path], name: str, command: str
) -> None:
    ws, home = places
    (ws / name).write_text("")
    (ws / "h").symlink_to(home)
    decision = _decide(policy, places, command)
    assert decision.verdict is not A, decision.explain()
    assert any(r.rule_id == "engine.glob-option" for r in decision.reasons)
    # the idiom that keeps names from being options stays allowed
    assert _decide(policy, places, "grep -n x ./*.txt").verdict is A


def _git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


def test_a_bare_repository_aimed_at_another_tree_asks(
    policy: Policy, places: tuple[Path, Path]
) -> None:
    ws = places[0]
    bare = ws / "fixtures" / "repo.git"
    _git("init", "-q", "--bare", str(bare))
    _git("--git-dir", str(bare), "config", "core.bare", "false")
    _git("--git-dir", str(bare), "config", "core.worktree", "../../../home")
    for command in ("cd fixtures/repo.git && git diff", "git -C fixtures/repo.git diff"):
        decision = _decide(policy, places, command)
        assert decision.verdict is Q, decision.explain()
        assert any(r.rule_id == "engine.git-worktree" for r in decision.reasons)
    # inside the workspace too: a shipped index may name `.env` there (review AA9)
    _git("--git-dir", str(bare), "config", "core.worktree", "../..")
    decision = _decide(policy, places, "git -C fixtures/repo.git diff")
    assert any(r.rule_id == "engine.git-worktree" for r in decision.reasons)
    # the workspace's own repository is not affected
    assert _decide(policy, places, "git status").verdict is not Q


@pytest.mark.parametrize("command", ["jq --run-tests t.jq", "jq --run-tests=t.jq"])
def test_jq_running_test_programs_from_a_file_asks(
    policy: Policy, places: tuple[Path, Path], command: str
) -> None:
    assert _decide(policy, places, command).verdict is Q


# -- review AB: a second look at the same day's fixes ----------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "jq -R '-0,.' .env",  # jq takes `-0,.` for its program, so `.env` is its input
        "jq -R '-0,.' -- .env",
        "jq '-.' HOME/.aws/credentials",
    ],
)
def test_jq_programs_that_look_like_options_leave_every_operand_a_path(
    policy: Policy, places: tuple[Path, Path], command: str
) -> None:
    decision = _decide(policy, places, command.replace("HOME", str(places[1])))
    assert decision.verdict is D, decision.explain()


def test_tildes_read_as_bash_reads_them(policy: Policy, places: tuple[Path, Path]) -> None:
    ws, home = places
    (ws / "x=").symlink_to("/")
    (ws / "~").symlink_to("/")
    rel = str(home).lstrip("/")
    for command in (
        "cat x=~/.aws/credentials",  # bash expands `~` after the `=`
        "grep -r aws x=~/.aws",
        f'cat "~/{rel}/.aws/credentials"',  # quoted: a directory named `~` here
        f"cat \\~/{rel}/.aws/credentials",
    ):
        decision = _decide(policy, places, command)
        assert decision.verdict is D, decision.explain()
    decision = _decide(policy, places, "for f in x=~/.aws/credentials; do cat $f; done")
    assert decision.verdict is not A, decision.explain()
    assert _decide(policy, places, "cat ~/.gitconfig").verdict is A  # a plain tilde path


@pytest.mark.parametrize(
    ("approved", "command"),
    [
        ("git archive HEAD", "git archive --remote=localhost:/srv/r HEAD"),
        ("git archive HEAD", "git archive --remote=ssh://127.0.0.1/x HEAD"),
        ("git push origin main", "git push --repo=localhost:/srv/r --all"),
    ],
)
def test_a_git_url_glued_to_an_option_reaching_this_machine_asks(
    policy: Policy, places: tuple[Path, Path], approved: str, command: str, tmp_path: Path
) -> None:
    ws, home = places
    if approved.startswith("git push"):
        ws = tmp_path / "ws"  # (`git push` is approvable in a repository with a remote)
        pushable_repository(ws)
    where = {"workspace": ws, "env": {"HOME": str(home)}}
    fresh = load_policy()
    suggested = fresh.evaluate(approved, **where).suggested_rule  # type: ignore[arg-type]
    assert suggested is not None
    fresh.approvals.add(suggested, persist=False)
    decision = fresh.evaluate(command, **where)  # type: ignore[arg-type]
    assert decision.verdict is Q, decision.explain()
    assert any(r.rule_id == "engine.approved-loopback" for r in decision.reasons)


# -- review AC: a third look -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cd {~/.aws,} && cat credentials", Q),  # AC1: brace expansion in `cd`
        ("cd {..,} && cat x", Q),
        ('cd "~/x" && cat y', Q),  # AC3: a quoted `~` is a directory named `~`
        ("cd x=~/.aws && cat credentials", Q),
        ("cd ~/.aws && cat credentials", D),
        ("cd src && ls", A),
        ('for f in "~/x"; do cat $f; done', Q),  # AC4: the loop's quoted `~` stays one
        ("diff --from-file=~/.aws/credentials a.txt", D),  # AC5: a glued value is read
        ("diff --from-file=~/notes.txt a.txt", A),
    ],
)
def test_cd_loops_and_glued_values_read_tildes_and_braces_as_bash(
    policy: Policy, places: tuple[Path, Path], command: str, expected: Verdict
) -> None:
    decision = _decide(policy, places, command)
    assert decision.verdict is expected, decision.explain()


def test_more_assignment_shapes_expand_their_tilde(
    policy: Policy, places: tuple[Path, Path]
) -> None:
    ws = places[0]
    (ws / "x+=").symlink_to("/")
    assert _decide(policy, places, "cat x+=~/.aws/credentials").verdict is D  # AC2
    assert _decide(policy, places, "cat x=~nobody/.my.cnf").verdict is not A


def test_remotes_from_configuration_are_judged_like_written_ones(
    policy: Policy, places: tuple[Path, Path]
) -> None:
    """AC6: `git fetch up` reaches what `remote.up.url` says, and `git submodule update`
    what `.gitmodules` says, under approvals a person gives for `git fetch`."""
    ws, home = places
    (home / ".config" / "op").mkdir(parents=True)
    bare = ws / "fixtures" / "dep.git"
    _git("init", "-q", "--bare", str(bare))
    _git("--git-dir", str(bare), "remote", "add", "up", str(home / ".aws"))
    where = {"workspace": ws, "env": {"HOME": str(home)}}
    fresh = load_policy()
    fresh.approvals.add("git fetch", persist=False)
    decision = fresh.evaluate("git -C fixtures/dep.git fetch up", **where)  # type: ignore[arg-type]
    assert decision.verdict is D, decision.explain()
    _git("--git-dir", str(bare), "remote", "set-url", "up", "localhost:.config/op")
    decision = fresh.evaluate("git -C fixtures/dep.git fetch up", **where)  # type: ignore[arg-type]
    assert decision.verdict is Q, decision.explain()
    _git("--git-dir", str(bare), "remote", "set-url", "up", "https://example.com/r")
    decision = fresh.evaluate("git -C fixtures/dep.git fetch up", **where)  # type: ignore[arg-type]
    assert decision.verdict is A, decision.explain()
    # `.gitmodules` of the workspace's own repository
    _git("init", "-q", str(ws))
    (ws / ".gitmodules").write_text('[submodule "op"]\n\tpath = v\n\turl = localhost:.config/op\n')
    fresh.approvals.add("git submodule update", persist=False)
    decision = fresh.evaluate("git submodule update --init", **where)  # type: ignore[arg-type]
    assert decision.verdict is Q, decision.explain()


def test_git_configuration_from_the_environment_makes_printers_ask(
    policy: Policy, places: tuple[Path, Path]
) -> None:
    """AC7: `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` give git configuration the engine does
    not read."""
    ws, home = places
    env = {"HOME": str(home), "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "a.b"}
    for command in ("git remote -v", "git config -l"):
        assert policy.evaluate(command, workspace=ws, env=env).verdict is Q
    assert policy.evaluate("git status", workspace=ws, env=env).verdict is A


# -- review AD: a fourth look -----------------------------------------------------------------


def _fetch_with(places: tuple[Path, Path], config: str, command: str = "git fetch up") -> Decision:
    ws, home = places
    (home / ".config" / "op").mkdir(parents=True, exist_ok=True)
    _git("init", "-q", str(ws))
    with open(ws / ".git" / "config", "a") as handle:
        handle.write(config.replace("HOME", str(home)))
    fresh = load_policy()
    fresh.approvals.add("git fetch", persist=False)
    return fresh.evaluate(command, workspace=ws, env={"HOME": str(home)})


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        # AD1: an insteadOf base is glued to the rest of the URL
        (
            '[remote "up"]\n\turl = https://b.example/host:.config/op\n'
            '[url "local"]\n\tinsteadOf = https://b.example/\n',
            Q,
        ),
        (
            '[remote "up"]\n\turl = https://g.example/acme/p\n'
            '[url "HOME/.config/o"]\n\tinsteadOf = https://g.example/acme/\n',
            Q,
        ),
        (
            '[remote "up"]\n\turl = https://g.example/acme/p\n'
            '[url "https://mirror.example/"]\n\tinsteadOf = https://g.example/\n',
            A,
        ),
        # AD2: ext:: runs a command once protocol.ext.allow lets it
        ('[protocol "ext"]\n\tallow = always\n[remote "up"]\n\turl = ext::sh -c id\n', Q),
        ('[remote "up"]\n\turl = ext::sh -c id\n', Q),
        # AD4: git reads file://localhost/abs as /abs
        ('[remote "up"]\n\turl = file://localhost/HOME/.config/op\n', D),
        ('[remote "up"]\n\turl = https://example.com/r\n', A),
    ],
)
def test_remote_urls_as_git_reads_them(
    places: tuple[Path, Path], config: str, expected: Verdict
) -> None:
    decision = _fetch_with(places, config)
    assert decision.verdict is expected, decision.explain()


def test_a_relative_remote_is_read_from_the_top_of_the_work_tree(places: tuple[Path, Path]) -> None:
    """AD3: `git -C sub fetch rel` resolves `../home/.config/op` from the top, not `sub`."""
    ws = places[0]
    (ws / "sub").mkdir()
    rel = "../" * (len(ws.parts) - 1) + str(places[1]).lstrip("/") + "/.config/op"
    config = f'[remote "rel"]\n\turl = {rel}\n'
    decision = _fetch_with(places, config, "git -C sub fetch rel")
    assert decision.verdict is D, decision.explain()


def test_environment_configuration_makes_remote_verbs_ask(places: tuple[Path, Path]) -> None:
    """AD7: a remote given in `GIT_CONFIG_*` is not read by the engine."""
    ws, home = places
    _git("init", "-q", str(ws))
    fresh = load_policy()
    fresh.approvals.add("git fetch", persist=False)
    env = {"HOME": str(home), "GIT_CONFIG_COUNT": "1"}
    assert fresh.evaluate("git fetch origin", workspace=ws, env=env).verdict is Q


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        # a global `insteadOf` to a local base turns a repository's remote into a path
        ('[url "HOME/"]\n\tinsteadOf = home:\n', Q),
        ('[remote "up"]\n\turl = HOME/.config/op\n', D),
        ('[url "localhost:"]\n\tinsteadOf = https://b.example/\n', Q),
        ('[url "git@github.com:"]\n\tinsteadOf = https://github.com/\n', A),
        ('[url "https://x-access-token:T@github.com/"]\n\tinsteadOf = https://github.com/\n', A),
    ],
)
def test_remotes_of_the_global_configuration_are_judged_for_remote_verbs(
    places: tuple[Path, Path], config: str, expected: Verdict
) -> None:
    """AD7 residual: `git fetch` also goes where the global configuration sends it."""
    ws, home = places
    (home / ".gitconfig").write_text(config.replace("HOME", str(home)))
    decision = _fetch_with(places, '[remote "up"]\n\turl = home:.config/op\n')
    assert decision.verdict is expected, decision.explain()
    if expected is Q:
        assert "global configuration" in decision.explain()
    # a command that neither fetches nor prints configuration does not read it
    status = load_policy().evaluate("git status", workspace=ws, env={"HOME": str(home)})
    assert status.verdict is A, status.explain()


def test_short_glued_values_and_plain_tilde_names(
    policy: Policy, places: tuple[Path, Path]
) -> None:
    ws = places[0]
    (ws / "=~").symlink_to("/")
    # AD6: `-f=~/x` gives `-f` the value `=~/x`, a path through a directory `=~`
    decision = _decide(policy, places, f"grep -f=~{places[1]}/.aws/credentials a.txt")
    assert decision.verdict is not A, decision.explain()
    (ws / "a~b").mkdir()
    assert _decide(policy, places, "cd a~b && ls").verdict is A  # a `~` inside a name
