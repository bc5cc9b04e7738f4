"""Findings of the twelfth session's own review of the approval oracle's open list:
`git clean` removes untracked protected files no word names (oracle run 2, H7). Real
runs with git and bash."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import bash_printed, bash_ran, copy_workspace, git_ok, judge, network_origin

from policylang import Decision, Verdict
from policylang.engine.gitstage import StagePlan, clean_plan


def _under_the_offer(asked: str, attack: str, workspace: Path) -> Decision:
    """The decision on `attack` under the approval the engine offers for `asked` (none
    when it offers nothing)."""
    offered = judge(asked, workspace).suggested_rule
    return judge(attack, workspace, *((offered,) if offered is not None else ()))


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository with a commit, untracked agent configuration at its top and deeper,
    and an untracked build folder."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "README").write_text("r\n")
    (workspace / ".gitignore").write_text(".env\n")
    git_ok(workspace, "add", "README", ".gitignore")
    git_ok(workspace, "commit", "-qm", "r")
    (workspace / "CLAUDE.md").write_text("Never run rm.\n")
    (workspace / "src" / "sub" / ".claude").mkdir(parents=True)
    (workspace / "src" / "sub" / ".claude" / "settings.json").write_text("{}\n")
    (workspace / "build").mkdir()
    (workspace / "build" / "a.o").write_text("o\n")
    (workspace / "build" / ".env").write_text("KEY=1\n")  # ignored: git clean keeps it
    return workspace


@pytest.mark.parametrize(
    "line",
    [
        "git clean -fd",
        "git clean -f",
        "git clean -fd src",  # `src/sub/.claude/settings.json`, deeper down
        "git clean -fd -n --no-dry-run",  # the last one wins
        "git clean -f 'C*'",  # a pathspec glob
        "git clean -f :/build",  # pathspec magic: read as the whole top
        "cd src && git clean -fd",
    ],
)
def test_an_approval_of_git_clean_does_not_remove_untracked_protected_files(
    repository: Path, line: str
) -> None:
    decision = judge(line, repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(reason.rule_id == "engine.git-clean" for reason in decision.reasons)


def test_git_clean_really_removes_them(repository: Path) -> None:
    """What the asks are for: git removes the untracked agent configuration."""
    bash_ran("git clean -fd", repository)
    assert not (repository / "CLAUDE.md").exists()
    assert not (repository / "src" / "sub" / ".claude").exists()
    assert (repository / "README").exists()


@pytest.mark.parametrize(
    "line",
    ["git clean -fd build", "git clean -f -- build", "git clean -n", "git clean -fdn",
     "git clean -fd --dry-run", "git -C build clean -f"],
)  # fmt: skip
def test_git_clean_of_a_folder_without_them_stays_approvable(repository: Path, line: str) -> None:
    decision = judge(line, repository, "git clean")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_tracked_and_ignored_protected_files_are_kept(repository: Path) -> None:
    """git keeps what it tracks and, without `-x`, what it ignores: no question then."""
    git_ok(repository, "add", "CLAUDE.md", "src")
    git_ok(repository, "commit", "-qm", "c")
    (repository / ".env").write_text("KEY=1\n")
    assert judge("git clean -fd", repository, "git clean").verdict is Verdict.ALLOW
    bash_ran("git clean -fd", repository)
    assert (repository / "CLAUDE.md").exists()
    assert (repository / ".env").exists()
    assert not (repository / "build" / "a.o").exists()


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ([], ["/ws/sub"]),
        (["-fd"], ["/ws/sub"]),
        (["-n"], None),
        (["-fdn"], None),
        (["--dry-run", "-f"], None),
        (["--dry", "-f"], None),  # git takes a unique prefix: `--dry` is `--dry-run`
        (["-n", "--no-dry-run"], ["/ws/sub"]),
        (["--no-dry-run", "-n"], None),
        (["-e", "--dry-run"], ["/ws/sub"]),
        (["-en"], ["/ws/sub"]),
        (["-fen"], ["/ws/sub"]),
        (["--exclude", "-n"], ["/ws/sub"]),
        (["--exclude=-n"], ["/ws/sub"]),
        (["-f", "--exc", "build"], ["/ws/sub"]),  # a pattern, not a pathspec
        (["-f", "--bogus", "build"], ["/ws"]),  # not known: the whole tree
        (["-f", "build", "../docs"], ["/ws/sub/build", "/ws/docs"]),
        (["-f", "--", "-n"], ["/ws/sub/-n"]),
        (["-f", "b*"], ["/ws"]),
        (["-f", None], ["/ws"]),
        (["-f", ":(top)x"], ["/ws"]),
        (["--pathspec-from-file", "list"], ["/ws"]),
        (["--pathspec-from-file=list", "docs"], ["/ws"]),
    ],
)
def test_clean_plan(words: list[str | None], expected: list[str] | None) -> None:
    plan = clean_plan(words, "/ws/sub", "/ws")
    assert (None if plan is None else list(plan.roots)) == expected


def test_clean_plan_counts_ignored_files_under_x() -> None:
    assert clean_plan(["-fdx"], "/ws", "/ws") == StagePlan(roots=("/ws",), force=True)
    assert clean_plan(["-fX"], "/ws", "/ws") == StagePlan(roots=("/ws",), force=True)
    assert clean_plan(["-fd"], "/ws", "/ws") == StagePlan(roots=("/ws",), force=False)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("docker cp . c:/x", Verdict.DENY),  # the workspace's `.env` goes into the container
        ("docker cp keys c:/x", Verdict.DENY),  # `keys/server.pem`
        ("podman cp -a keys c:/x", Verdict.DENY),
        ("docker container cp . c:/x", Verdict.DENY),
        ("docker cp c:/x/. .", Verdict.DENY),  # a folder's contents land here whole
        ("docker cp c:/ .", Verdict.DENY),
        ("docker cp c:.mcp.json .", Verdict.DENY),  # lands as `./.mcp.json`
        ("docker cp c:/x .vscode", Verdict.DENY),  # a new `.vscode` is the copied folder
        ("docker cp c:/x .", Verdict.ALLOW),  # lands as `./x`
        ("docker cp c:/app/out.txt ./", Verdict.ALLOW),
        ("docker cp c:/x .claude", Verdict.DENY),
        ("docker cp c:/app/log.txt log.txt", Verdict.ALLOW),
        ("docker cp dist c:/app", Verdict.ALLOW),
        ("docker cp c:/app/dist ./dist", Verdict.ALLOW),
    ],
)
def test_docker_cp_copies_folders_whole(tmp_path: Path, line: str, expected: Verdict) -> None:
    """The approval oracle, run 2: under an approval of `docker cp`, the host's side is a
    path like scp's (judged only: no container runtime here)."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("KEY=1\n")
    (workspace / "keys").mkdir()
    (workspace / "keys" / "server.pem").write_text("PEM\n")
    (workspace / "dist").mkdir()
    (workspace / "dist" / "app.js").write_text("1\n")
    approvals = ("docker cp", "podman cp", "docker container cp")
    decision = judge(line, workspace, *approvals)
    assert decision.verdict is expected, decision.explain()


def test_npm_explore_is_never_approvable(tmp_path: Path) -> None:
    """`npm explore PKG -- CMD` runs CMD (the approval oracle, run 2: H11)."""
    workspace = copy_workspace(tmp_path)
    assert judge("npm explore lodash", workspace).suggested_rule is None
    decision = judge("npm explore lodash -- ./probe", workspace, "npm explore", "npm")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("asked", "offered", "reached"),
    [
        ("git maintenance register", "git maintenance register", "git maintenance start"),
        ("git checkout-index README", "git checkout-index", "git checkout-index -f -a"),  # (FE1)
        ("gcloud config set project p", "gcloud config set", "gcloud config set proxy/address x"),
        ("gcloud config set project p", "gcloud config set",
         "gcloud config set custom_ca_certs_file ./ca.crt"),
        ("systemctl edit x --user", "systemctl edit", "systemctl edit --full sshd"),
        ("systemctl restart nginx", "systemctl restart", "systemctl restart ./x.service"),
    ],
)  # fmt: skip
def test_what_an_approval_offered_for_one_use_does_not_reach(
    tmp_path: Path, asked: str, offered: str, reached: str
) -> None:
    """The approval oracle, run 2 (MEDIUM): the approval offered is taken, and a wider
    use of the same verb still asks."""
    workspace = copy_workspace(tmp_path)
    first = judge(asked, workspace)
    assert first.verdict is Verdict.ASK
    assert first.suggested_rule == offered
    decision = judge(reached, workspace, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("line", ["systemctl status nginx", "systemctl list-units"])
def test_systemctl_with_unit_names_keeps_its_suggestion(tmp_path: Path, line: str) -> None:
    """A regression of the oracle's run 2: the unit-file rule's glob (`*/**`) matched
    every word, so no systemctl line was offered an approval."""
    decision = judge(line, copy_workspace(tmp_path))
    assert decision.suggested_rule == " ".join(line.split()[:2])


# --------------------------------------------------------------------------- review CP


def _pushing_workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace with a commit and a hooked bare repository `bare.git` in it, and the
    marker its hook leaves (CP1, CR5, CS1, CT1)."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "x")
    marker = tmp_path / "marker"
    _hooked_bare(workspace / "bare.git", marker)
    return workspace, marker


def _hooked_bare(path: Path, marker: Path) -> None:
    """A bare repository at `path` whose `pre-receive` hook leaves `marker`."""
    git_ok(path.parent, "init", "-q", "--bare", path.name)
    hook = path / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\necho HOOK_RAN > {marker}\n")
    hook.chmod(0o755)


@pytest.mark.parametrize("layout", ["dot-git", "gitdir-file"])
def test_cp1_a_push_destination_git_finds_by_another_name(tmp_path: Path, layout: str) -> None:
    """`git push bare` opens `bare.git`, and `git push release` a file `release` holding
    `gitdir: …`: git runs that repository's hooks, under an approval of `git push`."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "x")
    marker = tmp_path / "marker"
    if layout == "dot-git":
        _hooked_bare(workspace / "bare.git", marker)
        line = "git push -q bare HEAD:main"
    else:
        (workspace / "vendor").mkdir()
        _hooked_bare(workspace / "vendor" / "data", marker)
        (workspace / "bare").write_text("gitdir: vendor/data\n")
        line = "git push -q bare HEAD:main"
    decision = judge(line, workspace, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran(line, workspace)
    assert marker.read_text() == "HOOK_RAN\n"


def test_cp1_a_remote_name_stays_approved(repository: Path) -> None:
    network_origin(repository)
    assert judge("git push origin HEAD:main", repository, "git push").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("asked", "attack"),
    [
        ("npm explo lodash", "npm explo lodash -- ./x.sh"),
        ("npm vers", "npm vers patch"),
        ("npm versio", "npm versio major"),
        ("npm veriso", "npm veriso minor"),
        ("npm runScript lint", "npm runScript evil"),
    ],
)
def test_cp2_npm_reads_its_verb_by_prefix_and_camel_case(
    tmp_path: Path, asked: str, attack: str
) -> None:
    """npm's `deref`: camelCase folded, any unique prefix, `verison`; the rules of the
    verb npm runs hold (the reviewer ran the scripts with npm 11; judged here)."""
    workspace = copy_workspace(tmp_path)
    decision = _under_the_offer(asked, attack, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_cp2_npm_explore_by_prefix_is_never_approvable(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    assert judge("npm explo lodash", workspace).suggested_rule is None
    decision = judge("npm explo lodash -- ./x.sh", workspace, "npm explo")
    assert decision.verdict is Verdict.ASK


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("ar rcs x.a f.o --p ./x.so", "ar rcs"),
        ("ranlib --p ./x.so h.a", "ranlib"),
        ("ranlib --plu=./x.so h.a", "ranlib"),
    ],
)
def test_cp3_binutils_plugin_by_any_prefix(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, copy_workspace(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_cp3_other_long_options_of_nm_stay_approved(tmp_path: Path) -> None:
    assert judge("nm --print-size x.o", copy_workspace(tmp_path), "nm").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "ignore",
    [
        "link",  # git does not follow a linked `.gitignore`
        " CLAUDE.md\n .claude/\n",  # a leading blank is part of the pattern
        "CLAUDE.md\t\n.claude/\t\n",  # so is a trailing tab
        "x\rCLAUDE.md\nx\r.claude/\n",  # a `\r` inside a line does not end it
    ],
)
def test_cp4_ignore_files_as_git_reads_them(repository: Path, ignore: str) -> None:
    (repository / "build" / ".env").unlink()  # (only CLAUDE.md and .claude/ are at stake)
    if ignore == "link":
        (repository / "ign.txt").write_text("CLAUDE.md\n.claude/\n")
        (repository / ".gitignore").unlink()
        (repository / ".gitignore").symlink_to("ign.txt")
    else:
        (repository / ".gitignore").write_text(ignore)
    (repository / "src" / "sub" / ".claude").rename(repository / ".claude")
    decision = judge("git clean -fd", repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any("CLAUDE.md" in r.message or ".claude" in r.message for r in decision.reasons), [
        r.message for r in decision.reasons
    ]
    bash_ran("git clean -fd", repository)
    assert not (repository / "CLAUDE.md").exists()
    assert not (repository / ".claude").exists()


def test_cp4_a_plain_ignore_file_still_counts(repository: Path) -> None:
    (repository / ".gitignore").write_text(".env\nCLAUDE.md  \n.claude/\r\n")  # trimmed
    (repository / "src" / "sub" / ".claude").rename(repository / ".claude")
    assert judge("git clean -fd", repository, "git clean").verdict is Verdict.ALLOW
    bash_ran("git clean -fd", repository)
    assert (repository / "CLAUDE.md").exists()


def test_cp4_git_add_reads_ignore_files_as_git_does(repository: Path) -> None:
    (repository / ".gitignore").write_text(" .env\n")
    (repository / ".env").write_text("TOKEN=SECRET\n")
    decision = judge("git add -A", repository, "git add")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("line", "approvals"),
    [
        ("git reset -q HEAD~ && git clean -f", ("git reset", "git clean")),
        ("git rm -rq --cached . && git clean -f", ("git rm", "git clean")),
        ("git clean -f; git read-tree HEAD~; git clean -f", ("git read-tree", "git clean")),
    ],
)
def test_cp5_untracked_earlier_in_the_line(
    repository: Path, line: str, approvals: tuple[str, ...]
) -> None:
    (repository / "build").rename(repository / "out")  # (only CLAUDE.md is at stake)
    (repository / "src" / "sub" / ".claude" / "settings.json").unlink()
    git_ok(repository, "add", "CLAUDE.md")
    git_ok(repository, "commit", "-qm", "c")
    assert judge("git clean -f", repository, "git clean").verdict is Verdict.ALLOW
    decision = judge(line, repository, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran(line, repository)
    assert not (repository / "CLAUDE.md").exists()


def test_cp6_a_git_folder_git_rejects_is_no_top(repository: Path) -> None:
    (repository / "sub" / ".git").mkdir(parents=True)
    (repository / "sub" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    decision = judge("git -C sub clean -f :/", repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran("git -C sub clean -f :/ || true", repository)  # (it warns about `sub`)
    assert not (repository / "CLAUDE.md").exists()


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("docker compose cp . web:/x", "docker compose cp"),
        ("docker compose -f x.yml cp keys web:/x", "docker compose"),
        ("docker compose cp web:/app/. .", "docker compose cp"),
        ("docker-compose cp . web:/x", "docker-compose cp"),
        ("podman-compose cp keys web:/x", "podman-compose cp"),
    ],
)
def test_cp7_compose_cp(tmp_path: Path, line: str, approval: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("KEY=1\n")
    (workspace / "keys").mkdir()
    (workspace / "keys" / "server.pem").write_text("PEM\n")
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_cp8_an_ignored_folder_is_not_walked(repository: Path) -> None:
    """git neither cleans nor stages inside a folder it ignores: its files do not count
    against the walk's budget (a large `node_modules/` made `git clean -f` ask)."""
    (repository / ".gitignore").write_text(".env\nnode_modules/\n")
    (repository / "CLAUDE.md").unlink()
    (repository / "src" / "sub" / ".claude" / "settings.json").unlink()
    modules = repository / "node_modules"
    modules.mkdir()
    for index in range(20_001):
        (modules / f"f{index}").touch()
    (modules / "CLAUDE.md").write_text("x\n")  # ignored: git keeps it
    assert judge("git clean -f", repository, "git clean").verdict is Verdict.ALLOW
    assert judge("git clean -fX", repository, "git clean").verdict is Verdict.ASK


# --------------------------------------------------------------------------- review CR


@pytest.mark.parametrize(
    ("ignore", "line", "removed"),
    [(".claude//\nCLAUDE.md\n", "git clean -fd", "src/sub/.claude"),
     ("//CLAUDE.md\n.claude/\n", "git clean -f", "CLAUDE.md")],
)  # fmt: skip
def test_cr1_slashes_of_an_ignore_pattern_as_git_reads_them(
    repository: Path, ignore: str, line: str, removed: str
) -> None:
    (repository / "build" / ".env").unlink()
    (repository / ".gitignore").write_text(ignore)
    decision = judge(line, repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran(line, repository)
    assert not (repository / removed).exists()


def test_cr1_git_add_stages_what_a_doubled_slash_does_not_ignore(repository: Path) -> None:
    (repository / "build" / ".env").unlink()
    (repository / ".gitignore").write_text("//.env\n")
    (repository / ".env").write_text("TOKEN=SECRET\n")
    decision = judge("git add -A", repository, "git add")
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran("git add -A", repository)
    assert "TOKEN=SECRET" in bash_printed("git diff --cached", repository)


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("git add --al", "git add"),
        ("git add --a", "git add"),
        ("git add --pathspec-fr=l.txt", "git add"),
        ("git add -n --no-dry-run .", "git add"),
        ("git add --dry-run --no-dry-r .", "git add"),
        ("git add -u --no-update .", "git add"),
        ("git add --refresh --no-refresh .", "git add"),
        ("git stage .", "git stage"),
        ("git stage -A", "git stage"),
        ("git stage -f .", "git stage"),
    ],
)
def test_cr2_git_add_options_by_prefix_and_negation(
    repository: Path, line: str, approval: str
) -> None:
    (repository / ".env").unlink(missing_ok=True)
    (repository / ".gitignore").write_text("")
    (repository / ".env").write_text("TOKEN=SECRET\n")
    (repository / "l.txt").write_text(".env\n")
    decision = judge(line, repository, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran(line, repository)
    assert "TOKEN=SECRET" in bash_printed("git diff --cached", repository)


@pytest.mark.parametrize("line", ["git clean -n --no-dry -f", "git clean -n --no-d -f"])
def test_cr3_an_abbreviated_no_dry_run_is_no_dry_run(repository: Path, line: str) -> None:
    decision = judge(line, repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran(line, repository)
    assert not (repository / "CLAUDE.md").exists()


@pytest.mark.parametrize(
    ("line", "approvals"),
    [
        ("git checkout -q old -- .gitignore && git clean -fd", ("git checkout", "git clean")),
        ("git restore -s old .gitignore && git clean -fd", ("git restore", "git clean")),
        ("git switch -q old && git clean -fd", ("git switch", "git clean")),
    ],
)
def test_cr4_ignore_files_rewritten_earlier_in_the_line(
    repository: Path, line: str, approvals: tuple[str, ...]
) -> None:
    """The committed `.gitignore` of branch `old` does not list `.env`; the working one
    does: a git segment that brings the old one back makes `git clean` remove `.env`."""
    (repository / ".gitignore").write_text("")
    git_ok(repository, "commit", "-qam", "no ignores")
    git_ok(repository, "branch", "old")
    (repository / ".gitignore").write_text(".env\nCLAUDE.md\n.claude/\n")
    git_ok(repository, "commit", "-qam", "ignore")
    (repository / "src" / "sub" / ".claude").rename(repository / ".claude")
    (repository / ".env").write_text("KEY=1\n")
    assert judge("git clean -fd", repository, "git clean").verdict is Verdict.ALLOW
    decision = judge(line, repository, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran(line, repository)
    assert not (repository / ".env").exists()


@pytest.mark.parametrize(
    "line",
    [
        "git push -q --recurse-submodules no bare HEAD:main",
        "git push -qo ci.skip bare HEAD:main",  # (judged only: push options are off)
        "git push -q --push-opt ci.skip bare HEAD:main",
    ],
)
def test_cr5_options_that_hid_the_push_destination(tmp_path: Path, line: str) -> None:
    workspace, marker = _pushing_workspace(tmp_path)
    decision = judge(line, workspace, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    if "--recurse" in line:
        bash_ran(line, workspace)
        assert marker.exists()


@pytest.mark.parametrize(
    "line", ["git push --rep=../x", "git push --bogus origin", "git push -q --rep /tmp/x"]
)
def test_cr5_a_destination_git_push_cannot_be_told(repository: Path, line: str) -> None:
    assert judge(line, repository, "git push").verdict is Verdict.ASK


@pytest.mark.parametrize("line", ["git push origin main", "git push -u origin main",
                                  "git push --force-with-lease=main origin main",
                                  "git push -o ci.skip origin main"])  # fmt: skip
def test_cr5_pushes_to_a_remote_stay_approved(repository: Path, line: str) -> None:
    network_origin(repository)
    decision = judge(line, repository, "git push")
    assert decision.verdict is not Verdict.ASK or all(
        r.rule_id != "engine.approved-push-destination" for r in decision.reasons
    ), decision.explain()


@pytest.mark.parametrize(
    ("line", "approval"),
    [("ranlib @opts x.a", "ranlib"), ("ranlib x.a @opts", "ranlib"),
     ("gcc-ranlib @opts x.a", "gcc-ranlib"), ("gcc-nm @o.txt f.o", "gcc-nm")],
)  # fmt: skip
def test_cr6_a_response_file_may_hold_the_plugin(
    tmp_path: Path, line: str, approval: str
) -> None:
    decision = judge(line, copy_workspace(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("asked", "attack"),
    [
        ("ip net", "ip net add crt && ip net exec crt sh x.sh"),
        ("ip netns list", "ip netns exec crt sh x.sh"),
        ("ip f", "ip f add port 5555 ipproto 4"),
        ("ip tunl", "ip tunl add t0 mode gre remote 1.2.3.4"),
        ("nerdctl compose ps", "nerdctl compose up -d"),  # (review CR9)
        ("finch compose ps", "finch compose exec web sh"),
    ],
)
def test_cr7_cr9_groups_of_verbs_by_any_prefix(tmp_path: Path, asked: str, attack: str) -> None:
    workspace = copy_workspace(tmp_path)
    decision = _under_the_offer(asked, attack, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("systemctl edit --user --system sshd", "systemctl edit"),
        ("systemctl edit sshd --user -M .host", "systemctl edit"),
        ("podman-compose up -d", "podman-compose up"),
        ("gcloud config set component_manager/snapshot_url https://e/x.json",
         "gcloud config set"),
    ],
)  # fmt: skip
def test_cr8_to_cr10_rules(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, copy_workspace(tmp_path), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("asked", "attack"),
    [
        ("npm config set browser true", "npm config set script-shell ./x.sh"),
        ("npm c set init-author-name x", "npm c set script-shell=./x.sh"),
        ("pnpm config set x 1", "pnpm config set registry https://evil.example"),
    ],
)
def test_cr_side_note_a_config_key_approved_reaches_no_other(
    tmp_path: Path, asked: str, attack: str
) -> None:
    """Review CR (side note): an approval of `npm config set` set `script-shell` to a
    workspace script, which every later approved `npm run` then ran."""
    workspace = copy_workspace(tmp_path)
    first = judge(asked, workspace)
    assert first.verdict is Verdict.ASK
    assert first.suggested_rule is None
    decision = judge(attack, workspace, " ".join(asked.split()[:3]))
    assert decision.verdict is Verdict.ASK, decision.explain()


# --------------------------------------------------------------------------- review CS


@pytest.mark.parametrize(
    "line",
    [
        "git push -q --repo=origin bare HEAD:main",
        "git push -q --rep=origin bare HEAD:main",
        "git push -q --repo origin bare HEAD:main",
    ],
)
def test_cs1_an_operand_after_repo_is_the_destination(tmp_path: Path, line: str) -> None:
    workspace, marker = _pushing_workspace(tmp_path)
    git_ok(workspace, "remote", "add", "origin", "https://example.invalid/x.git")
    decision = judge(line, workspace, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran(line, workspace)
    assert marker.exists()  # git pushed to `bare`, not to `origin`


@pytest.mark.parametrize(
    ("asked", "attack"),
    [
        ("ip vrf exec default ls", "ip vrf exec default sh x.sh"),
        ("ip vrf show", "ip v e default sh x.sh"),
        ("ld -o a f.o", "ld @opts -o a f.o"),
        ("pnpm c set foo 1", "pnpm c set script-shell ./x.sh"),
        ("npm config del x", "npm config del ignore-scripts"),
        ("yarn config unset x", "yarn config unset ignore-scripts"),
    ],
)
def test_cs2_to_cs5_what_the_offered_approval_must_not_reach(
    tmp_path: Path, asked: str, attack: str
) -> None:
    workspace = copy_workspace(tmp_path)
    decision = _under_the_offer(asked, attack, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()


# --------------------------------------------------------------------------- review CT


@pytest.mark.parametrize(
    "line", ["git push -q -ogo bare.git HEAD", "git push -q -uoxo bare.git HEAD"]
)
def test_ct1_an_o_inside_a_group_takes_the_rest_of_it(tmp_path: Path, line: str) -> None:
    workspace, _marker = _pushing_workspace(tmp_path)
    decision = judge(line, workspace, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_ct1_a_push_option_with_an_f_in_it_is_no_force(repository: Path) -> None:
    network_origin(repository)
    decision = judge("git push -ofoo origin main", repository, "git push")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("asked", "attack"),
    [("npm it", "npm it -g ./pkg"), ("npm install-test", "npm install-test --location=global x")],
)
def test_ct2_install_test_installs_globally_too(tmp_path: Path, asked: str, attack: str) -> None:
    workspace = copy_workspace(tmp_path)
    offered = judge(asked, workspace).suggested_rule
    assert offered is not None
    decision = judge(attack, workspace, offered)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_ct3_a_negation_decides_only_what_it_matches(repository: Path) -> None:
    """`!.env.example` beside `.env` (an everyday `.gitignore`): `.env` stays ignored,
    and git keeps it; only a file the negation matches counts as not ignored."""
    (repository / "CLAUDE.md").unlink()
    (repository / "src" / "sub" / ".claude" / "settings.json").unlink()
    (repository / ".gitignore").write_text(".env\n.env.*\n!.env.example\n")
    (repository / ".env").write_text("KEY=1\n")
    assert judge("git clean -fd", repository, "git clean").verdict is Verdict.ALLOW
    bash_ran("git clean -fd", repository)
    assert (repository / ".env").exists()
    (repository / ".gitignore").write_text(".env\n!.env\n")
    assert judge("git clean -fd", repository, "git clean").verdict is Verdict.ASK


@pytest.mark.parametrize("line", ["yarn version --new-version 2.0.0", "pnpm version patch"])
def test_ct_note_yarn_and_pnpm_version_are_never_approvable(tmp_path: Path, line: str) -> None:
    """Review CT (a note, not confirmed there): `yarn version` runs the package's version
    scripts and commits, as `npm version X` does."""
    workspace = copy_workspace(tmp_path)
    assert judge(line, workspace).suggested_rule is None
    decision = judge(line, workspace, " ".join(line.split()[:2]))
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("ignore", ["a/**\n!a/CLAUDE.md\n", "a/**/\n"])
def test_cu1_cu2_a_trailing_double_star_is_not_its_folder(repository: Path, ignore: str) -> None:
    (repository / "CLAUDE.md").unlink()
    (repository / "src" / "sub" / ".claude" / "settings.json").unlink()
    (repository / "a").mkdir()
    (repository / "a" / "CLAUDE.md").write_text("x\n")
    (repository / ".gitignore").write_text(".env\n" + ignore)
    decision = judge("git clean -f", repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    bash_ran("git clean -fd", repository)
    assert not (repository / "a" / "CLAUDE.md").exists()


def test_a_repository_that_cannot_be_found_asks(repository: Path) -> None:
    """A `.git` file whose git directory is not there: the work tree git would use is
    not known, so what `git clean` removes is not either (re-read of the session)."""
    (repository / "sub").mkdir()
    (repository / "sub" / ".git").write_text("gitdir: ../nowhere\n")
    decision = judge("git -C sub clean -f", repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any("could not be fully found" in r.message for r in decision.reasons)
