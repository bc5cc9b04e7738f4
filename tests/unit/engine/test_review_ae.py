"""Reviews AE and AF (3 December 2026): lines the default ruleset allowed, with or without
an approval, that bash turned into secret reads, writes or programs run.

Each layout is what a hostile repository or prompt can produce; the reviews checked the
leaks against real bash and real programs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang.decision import Decision, Verdict
from policylang.engine.policy import Policy, load_policy

A, Q, D = Verdict.ALLOW, Verdict.ASK, Verdict.DENY


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / "src").mkdir(parents=True)
    (ws / ".env").write_text("API_KEY=FAKE\n")
    (ws / "a.txt").write_text("a\n")
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=FAKE\n")
    return ws, home


def _decide(policy: Policy, places: tuple[Path, Path], command: str, *approved: str) -> Decision:
    ws, home = places
    if approved:
        policy = load_policy()
        for rule in approved:
            policy.approvals.add(rule, persist=False)
    env = {"HOME": str(home), "GITHUB_TOKEN": "ghp-x.y", "AWS_SECRET_ACCESS_KEY": "a/b+c"}
    return policy.evaluate(command.replace("HOME", str(home)), workspace=ws, env=env)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # AE5: `${f:=…}` assigns the loop variable, so its loop value says nothing
        ("for f in ''; do : ${f:=~/.aws/credentials}; cat $f; done", Q),
        ('for f in ""; do : "${f:=.env}"; cat "$f"; done', Q),
        ("for f in a; do : ${f[0]:=.env}; cat $f; done", Q),
        # (each loop's words are some of its values: cat reads the credentials, a deny)
        ("for f in a; do for f in HOME/.aws/credentials; do :; done; cat $f; done", D),
        ("for f in a.txt; do : ${f:-x}; cat $f; done", A),  # `:-` assigns nothing
        # AE1: subscripts and substring offsets are arithmetic, whose errors print values
        ("echo ${a[AWS_SECRET_ACCESS_KEY]}", Q),
        ('echo "${a[GITHUB_TOKEN]:-x}"', Q),
        ("echo ${#a[GITHUB_TOKEN]}", Q),
        ("echo ${x:0:GITHUB_TOKEN}", Q),
        ("echo ${x:GITHUB_TOKEN}", Q),
        ("read 'a[GITHUB_TOKEN]' <<< x", Q),
        ("printf -v 'a[GITHUB_TOKEN]' %s x", Q),
        ("test -v 'a[GITHUB_TOKEN]'", Q),
        ("[[ -v a[GITHUB_TOKEN] ]]", Q),
        ("echo ${a[i]} ${x:1:2}", A),
        ("[[ -v a[i] ]]", A),
        # AE8: bash expands the unquoted `~/` and reads the quoted literal rest
        ('cat ~/".aws/credentials"', D),
        ("cat ~/'.aws'/credentials", D),
        ('for f in ~/".aws/credentials"; do cat $f; done', D),
        ('cat ~""/.aws/credentials', Q),  # no expansion: a folder named `~`
    ],
)
def test_variables_bash_assigns_or_evaluates(
    default_policy: Policy, places: tuple[Path, Path], command: str, expected: Verdict
) -> None:
    decision = _decide(default_policy, places, command)
    assert decision.verdict is expected, decision.explain()


@pytest.mark.parametrize(
    ("first", "then"),
    [
        # AF1: versioned names of interpreters are those interpreters
        ("perl5.36.0 x.pl", "perl5.36.0 -e 'system(q{id})'"),
        ("ruby3.1 x.rb", "ruby3.1 -e 'system(1)'"),
        ("php8.2 x.php", "php8.2 -r 'system(1);'"),
        ("lua5.4 x.lua", "lua5.4 -e 'os.execute(1)'"),
        ("pypy3.10 x.py", "pypy3.10 -c 'import os'"),
        ("python3.12-dbg x.py", "python3.12-dbg -c 1"),
        ("nodejs18 x.js", "nodejs18 -e 1"),
        # shells and interpreters the tables missed
        ("rbash x.sh", "rbash -c 'rm -rf src'"),
        ("fish x.fish", "fish -c 'rm -rf src'"),
        ("tcsh x.csh", "tcsh -c 'rm -rf src'"),
        ("raku x.raku", "raku -e 'shell 1'"),
        ("dc x.dc", "dc -e '!id'"),
        ("xterm", "xterm -e 'id'"),
        # a program no table names, run on a script, is offered with its script
        ("yorick x.sh", "yorick -c id"),
    ],
)
def test_the_suggestion_for_code_is_never_a_bare_name(
    default_policy: Policy, places: tuple[Path, Path], first: str, then: str
) -> None:
    decision = _decide(default_policy, places, first)
    suggestion = decision.suggested_rule
    assert suggestion is None or " " in suggestion, suggestion
    if suggestion is not None:
        assert _decide(default_policy, places, then, suggestion).verdict is not A
    assert _decide(default_policy, places, then).verdict is not A


def test_a_versioned_name_of_a_plain_program_is_not_an_interpreter(
    default_policy: Policy, places: tuple[Path, Path]
) -> None:
    """Only names that run code are looked up without their version."""
    assert _decide(default_policy, places, "md5 a.txt").suggested_rule == "md5"


@pytest.mark.parametrize(
    ("approved", "command", "expected"),
    [
        # AF2: compilers run what some options name
        ("gcc", "gcc -wrapper sh,-c,'rm -rf ~' x.c", Q),
        ("gcc", "gcc -fplugin=./x.so x.c", Q),
        ("gcc", "gcc -B./bin x.c", Q),
        ("gcc", "gcc -specs=x x.c", Q),
        ("gcc", "gcc --specs=x x.c", Q),
        ("gcc", "gcc x.c -Wl,-plugin,./x.so", Q),
        ("gcc", "gcc @opts x.c", Q),
        ("clang", "clang -Xclang -load -Xclang x.so x.c", Q),
        ("gcc", "gcc -O2 -Wall x.c -o out", Q),  # (no approval covers compiling: DT)
        # Go's flags take `-flag=value` and `--flag` too
        ("go build", "go build -toolexec=./evil .", Q),
        ("go build", "go build --toolexec=./evil .", Q),
        ("go test", "go test -exec=./x ./...", Q),
        ("go build", "go build ./...", A),
    ],
)
def test_approved_compilers_do_not_run_other_programs(
    default_policy: Policy,
    places: tuple[Path, Path],
    approved: str,
    command: str,
    expected: Verdict,
) -> None:
    decision = _decide(default_policy, places, command, approved)
    assert decision.verdict is expected, decision.explain()


@pytest.mark.parametrize(
    ("approved", "command"),
    [
        # AF3: the approval's checks of later words cannot see the ones xargs adds
        ("gcc", "echo -o.git/hooks/pre-commit | xargs gcc x.c"),
        ("openssl enc", "echo -in HOME/.aws/credentials | xargs openssl enc -base64"),
        ("uv run pytest", "echo --basetemp=HOME | xargs uv run pytest"),
        ("poetry run pytest", "echo --basetemp=HOME | xargs poetry run pytest"),
        ("python3 -m json.tool", "echo .claude/settings.json | xargs python3 -m json.tool a"),
    ],
)
def test_approvals_do_not_cover_words_xargs_adds(
    default_policy: Policy, places: tuple[Path, Path], approved: str, command: str
) -> None:
    decision = _decide(default_policy, places, command, approved)
    assert decision.verdict is Q, decision.explain()
    assert decision.suggested_rule is None
    assert any(r.rule_id == "engine.xargs-arguments" for r in decision.reasons)


def test_an_allow_rule_with_stars_checks_its_words_like_an_approval(
    places: tuple[Path, Path], tmp_path: Path
) -> None:
    """AF5: a later layer's `allow X **` covered every word, protected files included."""
    ws, home = places
    layer = tmp_path / "team.policy"
    layer.write_text(
        'policy "team"\ninclude "'
        + str(Path(__file__).parents[3] / "policylang/rulesets/org-example/org.policy")
        + '"\nallow pytest -q ** id team-pytest\nallow relocate **\npath-args move relocate\n'
    )
    team = load_policy(layer, check=False)
    env = {"HOME": str(home)}

    def verdict(command: str) -> Verdict:
        return team.evaluate(command.replace("HOME", str(home)), workspace=ws, env=env).verdict

    assert verdict("pytest -q --junitxml=HOME/.bashrc") is D  # protected: shell start-up
    assert verdict("pytest -q --junitxml=.git/hooks/pre-commit") is D
    assert verdict("pytest -q --basetemp=/opt/elsewhere") is Q  # outside the workspace
    assert verdict("pytest -q src") is A
    assert verdict("relocate src a.txt") is A  # the path-role table's judgement stands


def test_git_printers_by_other_spellings(places: tuple[Path, Path]) -> None:
    """AE7: `-vv` and `--verb` print remote URLs; AE3: `git help ALIAS` prints the alias."""
    import subprocess

    ws, home = places
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://x-access-token:T@github.com/o/r.git\n'
        "[alias]\n\tdeploy = push https://u:T@github.com/o/r.git\n"
    )
    policy = load_policy()
    policy.approvals.add("git remote", persist=False)
    env = {"HOME": str(home)}
    for command in ("git remote -vv", "git remote --verb", "git help deploy", "git deploy --help"):
        decision = policy.evaluate(command, workspace=ws, env=env)
        assert decision.verdict is Q, decision.explain()
    assert policy.evaluate("git remote", workspace=ws, env=env).verdict is A
    assert policy.evaluate("git help", workspace=ws, env=env).verdict is A


def test_recursive_reads_follow_links_to_git_config(places: tuple[Path, Path]) -> None:
    """AE6: shipped links `docs/n.txt -> ../.git/config` and `docs/gd -> ../.git` took
    `grep -R` to the credential actions/checkout leaves in `.git/config`."""
    import subprocess

    ws, home = places
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    with open(ws / ".git" / "config", "a") as config:
        config.write('[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic Zm9v\n')
    (ws / "docs").mkdir()
    (ws / "docs" / "a.md").write_text("a\n")
    policy = load_policy()
    env = {"HOME": str(home)}
    assert policy.evaluate("grep -R x docs", workspace=ws, env=env).verdict is A
    for link, target in (("n.txt", "../.git/config"), ("gd", "../.git")):
        (ws / "docs" / link).symlink_to(target)
        decision = policy.evaluate("grep -R x docs", workspace=ws, env=env)
        assert decision.verdict is Q, decision.explain()
        assert any(r.rule_id == "engine.git-credentials" for r in decision.reasons)
        (ws / "docs" / link).unlink()


def _git(*args: str, cwd: Path | None = None) -> str:
    import subprocess

    identity = ["-c", "user.email=a@example.com", "-c", "user.name=a", "-c", "init.defaultBranch=m"]
    done = subprocess.run(
        ["git", *identity, *args], cwd=cwd, check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


def test_repositories_whose_files_cannot_be_placed_ask(places: tuple[Path, Path]) -> None:
    """AE4: a bare dotfiles repository in home tracks `.aws/credentials`; `git grep . HEAD`
    there, or through a workspace `.git` file pointing at it, printed it."""
    ws, home = places
    dotfiles = home / ".dotfiles"
    _git("init", "-q", "--bare", str(dotfiles))
    _git("--git-dir", str(dotfiles), "--work-tree", str(home), "add", "-f", ".aws/credentials")
    _git("--git-dir", str(dotfiles), "--work-tree", str(home), "commit", "-qm", "x")
    (ws / "sub").mkdir()
    (ws / "sub" / ".git").write_text(f"gitdir: {dotfiles}\n")
    (ws / "sub2").mkdir()
    (ws / "sub2" / ".git").symlink_to(dotfiles)  # review AG7
    policy = load_policy()
    env = {"HOME": str(home)}
    for command in (
        f"git -C {dotfiles} grep -h . HEAD",
        f"git -C {dotfiles} log -p",
        f"git -C {dotfiles} cat-file -p HEAD",
        "git -C sub show HEAD:.aws/credentials",
        "git -C sub grep -h . HEAD",
        "git -C sub2 grep -h . HEAD",
    ):
        decision = policy.evaluate(command, workspace=ws, env=env)
        assert decision.verdict is not A, decision.explain()
    assert policy.evaluate(f"git -C {dotfiles} log --oneline", workspace=ws, env=env).verdict is A


def test_a_blob_id_names_no_path_and_linked_work_trees_are_placed(
    places: tuple[Path, Path],
) -> None:
    """AE4: `git cat-file -p BLOB` printed a committed `.env`; a linked work tree (whose
    `.git` file points into the main repository) is still an ordinary checkout."""
    ws, home = places
    _git("init", "-q", str(ws))
    _git("add", "-f", ".env", "a.txt", cwd=ws)
    _git("commit", "-qm", "x", cwd=ws)
    blob = _git("rev-parse", "HEAD:.env", cwd=ws)
    policy = load_policy()
    env = {"HOME": str(home)}
    assert policy.evaluate(f"git cat-file -p {blob}", workspace=ws, env=env).verdict is Q
    assert policy.evaluate(f"git cat-file -t {blob}", workspace=ws, env=env).verdict is A
    linked = ws.parent / "linked"
    _git("worktree", "add", "-q", str(linked), cwd=ws)
    for command in ("git show HEAD:a.txt", "git log --oneline"):
        decision = policy.evaluate(command, workspace=linked, env=env)
        assert decision.verdict is A, decision.explain()


@pytest.mark.parametrize(
    ("first", "elsewhere"),
    [
        ("python3 x.py", "cd OTHER && python3 x.py"),
        ("node x.js", "cd OTHER && node x.js"),
        ("source x.sh", "cd OTHER && source x.sh"),
    ],
)
def test_a_script_is_approved_where_it_is(
    default_policy: Policy, places: tuple[Path, Path], first: str, elsewhere: str
) -> None:
    """AF6: approved in one folder, `python3 x.py` ran any `x.py` of any folder."""
    ws = places[0]
    other = ws.parent / "other"
    other.mkdir()
    decision = _decide(default_policy, places, first)
    assert decision.suggested_rule is not None
    assert str(ws) in decision.suggested_rule, decision.suggested_rule
    assert _decide(default_policy, places, first, decision.suggested_rule).verdict is A
    then = elsewhere.replace("OTHER", str(other))
    assert _decide(default_policy, places, then, decision.suggested_rule).verdict is Q


def test_files_git_configuration_includes_are_git_configuration(
    places: tuple[Path, Path],
) -> None:
    """AE2: `include.path = ~/.work-creds` makes that file git configuration, whatever
    its name; `cat` of it printed the token URL it holds."""
    ws, home = places
    _git("init", "-q", str(ws))
    (home / ".gitconfig").write_text("[include]\n\tpath = ~/.work-creds\n")
    (home / ".work-creds").write_text(
        '[url "https://x-access-token:T@github.com/"]\n\tinsteadOf = https://github.com/\n'
    )
    _git("config", "include.path", "secrets/tokenfile", cwd=ws)
    (ws / ".git" / "secrets").mkdir()
    (ws / ".git" / "secrets" / "tokenfile").write_text(
        "[http]\n\textraheader = AUTHORIZATION: basic Zm9v\n"
    )
    policy = load_policy()
    env = {"HOME": str(home)}
    for command in (
        f"cat {home}/.work-creds",
        "cat .git/secrets/tokenfile",
        "grep -r AUTH .git/secrets",
    ):
        decision = policy.evaluate(command, workspace=ws, env=env)
        assert decision.verdict is Q, decision.explain()
        assert any(r.rule_id == "engine.git-credentials" for r in decision.reasons)
    assert policy.evaluate("cat a.txt", workspace=ws, env=env).verdict is A


@pytest.mark.parametrize(
    ("approved", "command", "expected"),
    [
        # review AG1: gcc reads an unknown `--NAME` as `-fNAME`, and has long spellings
        ("gcc", "gcc --plugin=./evil.so x.c", Q),
        ("gcc", "gcc --for-linker=-plugin=./e.so x.c", Q),
        # AG6: pytest takes arguments and configuration from files
        ("pytest", "pytest -q @opts", Q),
        ("pytest", "pytest --config-file=evil.ini", Q),
        ("pytest", "pytest -q tests", A),
        # AG5: go's other program-naming flags
        ("go vet", "go vet -vettool=./x ./...", Q),
        ("go build", "go build -gccgoflags=-fplugin=x.so .", Q),
        ("go vet", "go vet ./...", A),
        # AG3: free-threaded builds and interpreters the tables missed
        ("python3.13t /W/x.py", "python3.13t -c 1", Q),
        ("micropython /W/x.py", "micropython -c 1", Q),
    ],
)
def test_review_ag(
    default_policy: Policy,
    places: tuple[Path, Path],
    approved: str,
    command: str,
    expected: Verdict,
) -> None:
    decision = _decide(default_policy, places, command, approved.replace("/W", str(places[0])))
    assert decision.verdict is expected, decision.explain()


def test_linters_without_rules_are_still_offered_bare(
    default_policy: Policy, places: tuple[Path, Path]
) -> None:
    """The script-file net is for programs that run code, not `mypy src/a.py` (AG FP1)."""
    assert _decide(default_policy, places, "mypy src/a.py").suggested_rule == "mypy"
    assert _decide(default_policy, places, "pytest tests/test_x.py").suggested_rule == "pytest"
