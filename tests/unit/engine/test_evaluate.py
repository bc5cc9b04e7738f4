from __future__ import annotations

import json
import logging
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from policylang import EvalContext, Verdict, load_policy
from policylang.decision import Decision, Retention
from policylang.engine.policy import Policy
from policylang.engine.rules import RuleView

Decide = Callable[[str], Decision]


def test_decision_shape(decide: Decide) -> None:
    decision = decide("git status && cat ~/.ssh/id_rsa")
    assert decision.verdict is Verdict.DENY
    assert [s.verdict for s in decision.segments] == [Verdict.ALLOW, Verdict.DENY]
    deny = [r for r in decision.reasons if r.verdict is Verdict.DENY]
    assert deny
    assert deny[0].rule_id == "secrets-home"
    assert deny[0].location is not None
    assert re.fullmatch(r".*rulesets/common\.policy:\d+:\d+", deny[0].location)
    assert deny[0].segment == "cat ~/.ssh/id_rsa"
    data = json.loads(decision.to_json())
    assert data["verdict"] == "deny"
    assert data["segments"][1]["verdict"] == "deny"


def test_read_only_line_is_requery_and_concurrency_safe(decide: Decide) -> None:
    decision = decide("ls -la | grep foo")
    assert decision.retention is Retention.REQUERY
    assert decision.concurrency_safe


def test_writer_is_durable_and_not_concurrency_safe(decide: Decide) -> None:
    decision = decide("ls > out.txt")
    assert decision.retention is Retention.DURABLE
    assert not decision.concurrency_safe


def test_parse_problem_fails_closed_with_unknown_retention(decide: Decide) -> None:
    decision = decide("ls && && ls")
    assert decision.verdict is Verdict.ASK
    assert decision.retention is None
    assert any("could not analyse" in r.message for r in decision.reasons)


def test_suggested_rule_is_arity_prefix(decide: Decide) -> None:
    assert decide("npm run build -- --watch").suggested_rule == "npm run build"
    assert decide("git commit -m wip").suggested_rule == "git commit"
    assert decide("make test").suggested_rule is not None


def test_suggested_rule_never_bare_interpreter(decide: Decide) -> None:
    # the script by where it is (review AF6): approved in one folder, not in every one
    assert decide("python3 script.py").suggested_rule == "python3 /nonexistent/workspace/script.py"
    assert decide("python3 -c 'print(1)'").suggested_rule is None
    assert decide("bash script.sh").suggested_rule is None


def test_no_suggestion_for_floors_or_deny(decide: Decide) -> None:
    assert decide("sudo ls").suggested_rule is None
    assert decide("echo x > ../out.txt").suggested_rule is None
    assert decide("PATH=/x ls").suggested_rule is None


def test_timeout_wrapper_suggests_inner_prefix(decide: Decide) -> None:
    assert decide("timeout 60 npm run build").suggested_rule == "npm run build"


@pytest.mark.source  # patches a method to fail
def test_internal_error_becomes_ask(
    default_policy: Policy, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def boom(self: RuleView, segment: object) -> object:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(RuleView, "segment_rules", boom)
    with caplog.at_level(logging.ERROR):
        decision = default_policy.evaluate("ls", workspace="/w")
    assert decision.verdict is Verdict.ASK
    assert decision.retention is None
    assert decision.reasons[0].message.startswith("internal error: RuntimeError: kaboom")
    assert "internal error while evaluating" in caplog.text


@pytest.mark.source  # patches a method to fail
def test_bad_context_becomes_ask(default_policy: Policy, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(**kwargs: object) -> EvalContext:
        raise OSError("no cwd")

    monkeypatch.setattr(EvalContext, "build", staticmethod(boom))
    decision = default_policy.evaluate("ls")
    assert decision.verdict is Verdict.ASK
    assert "internal error" in decision.reasons[0].message


def test_explain_names_segments_and_rules(decide: Decide) -> None:
    text = decide("ls && sudo rm -rf /").explain()
    assert "segment 1" in text
    assert "segment 2" in text
    assert "privilege" in text
    assert "verdict: deny" in text


def test_context_defaults(tmp_path: Path) -> None:
    ctx = EvalContext.build(workspace=tmp_path, env={"HOME": "/h"})
    assert ctx.cwd == str(tmp_path)
    assert ctx.home == "/h"
    ctx = EvalContext.build(cwd="sub", workspace=tmp_path)
    assert ctx.cwd == str(tmp_path / "sub")


# --- file-system aware checks -------------------------------------------------------


def test_symlink_into_protected_dir_is_caught(workspace: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("secret")
    (workspace / "innocent").symlink_to(home / ".ssh")
    policy = load_policy()
    env = {"HOME": str(home)}
    decision = policy.evaluate("cat innocent/id_rsa", workspace=workspace, env=env)
    assert decision.verdict is Verdict.DENY
    assert any("resolves to" in r.message for r in decision.reasons)
    decision = policy.evaluate("cd innocent && cat id_rsa", workspace=workspace, env=env)
    assert decision.verdict is Verdict.DENY
    assert policy.evaluate("cat src/main.py", workspace=workspace, env=env).verdict is Verdict.ALLOW


def test_symlinked_file_onto_bashrc(workspace: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("")
    (workspace / "notes.txt").symlink_to(home / ".bashrc")
    policy = load_policy()
    decision = policy.evaluate("echo x >> notes.txt", workspace=workspace, env={"HOME": str(home)})
    assert decision.verdict is Verdict.DENY


def _git_repo(path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(path)], check=True)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("core.fsmonitor", "./evil"),
        ("core.pager", "evil"),
        ("diff.external", "evil"),
        ("diff.bin.textconv", "evil"),
        ("filter.x.smudge", "evil"),
        ("alias.st", "!evil"),
        ("core.hooksPath", "/tmp/h"),
        ("core.sshCommand", "evil"),
    ],
)
def test_repository_config_that_runs_programs_makes_git_ask(
    workspace: Path, key: str, value: str
) -> None:
    _git_repo(workspace)
    policy = load_policy()
    assert policy.evaluate("git status", workspace=workspace).verdict is Verdict.ALLOW
    assert policy.evaluate(f"git -C {workspace} status", workspace="/").verdict is Verdict.ALLOW
    subprocess.run(["git", "-C", str(workspace), "config", key, value], check=True)
    decision = policy.evaluate("git status", workspace=workspace)
    assert decision.verdict is Verdict.ASK
    assert any(key.lower() in r.message.lower() for r in decision.reasons)
    assert decision.retention is Retention.DURABLE
    # from a subdirectory, and through -C
    assert policy.evaluate("git log", cwd=workspace / "src", workspace=workspace).verdict is (
        Verdict.ASK
    )
    assert policy.evaluate(f"git -C {workspace} status", workspace="/").verdict is Verdict.ASK


def test_git_config_include_is_followed(workspace: Path) -> None:
    _git_repo(workspace)
    (workspace / "extra.cfg").write_text("[core]\n\tfsmonitor = evil\n")
    subprocess.run(
        ["git", "-C", str(workspace), "config", "include.path", "../extra.cfg"], check=True
    )
    decision = load_policy().evaluate("git diff", workspace=workspace)
    assert decision.verdict is Verdict.ASK


def test_a_home_include_resolves_in_the_evaluated_home(workspace: Path, tmp_path: Path) -> None:
    # `~/` in an include is the home of the command's environment, not policylang's own
    home = tmp_path / "home"
    home.mkdir()
    (home / "evil.cfg").write_text("[core]\n\tfsmonitor = evil\n")
    _git_repo(workspace)
    subprocess.run(
        ["git", "-C", str(workspace), "config", "include.path", "~/evil.cfg"], check=True
    )
    decision = load_policy().evaluate("git status", workspace=workspace, env={"HOME": str(home)})
    assert decision.verdict is Verdict.ASK
    assert any("core.fsmonitor" in r.message for r in decision.reasons), decision.reasons


def test_an_executable_hook_is_named_as_a_hook(workspace: Path) -> None:
    _git_repo(workspace)
    hook = workspace / ".git" / "hooks" / "post-index-change"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\n")
    hook.chmod(0o755)
    decision = load_policy().evaluate("git status", workspace=workspace)
    assert decision.verdict is Verdict.ASK
    assert any("executable hook `hooks/post-index-change`" in r.message for r in decision.reasons)


# --- approvals -----------------------------------------------------------------------


def test_approval_allows_its_prefix_only(tmp_path: Path) -> None:
    policy = load_policy(approvals=tmp_path / "approvals.toml")
    assert policy.evaluate("npm run build", workspace="/w").verdict is Verdict.ASK
    policy.approvals.add("npm run build", persist=True)
    decision = policy.evaluate("npm run build -- --prod", workspace="/w")
    assert decision.verdict is Verdict.ALLOW
    assert any(r.rule_id == "approval" for r in decision.reasons)
    assert policy.evaluate("npm run deploy", workspace="/w").verdict is Verdict.ASK
    # persisted: a new policy with the same file sees it
    again = load_policy(approvals=tmp_path / "approvals.toml")
    assert again.evaluate("npm run build", workspace="/w").verdict is Verdict.ALLOW


def test_approval_never_beats_deny_protected_or_floors() -> None:
    policy = load_policy()
    policy.approvals.add("sudo ls", persist=False)
    assert policy.evaluate("sudo ls", workspace="/w").verdict is Verdict.DENY
    policy.approvals.add("cat", persist=False)
    env = {"HOME": "/h"}
    assert policy.evaluate("cat /h/.ssh/id_rsa", workspace="/w", env=env).verdict is Verdict.DENY
    policy.approvals.add("touch", persist=False)
    assert policy.evaluate("touch x", workspace="/w").verdict is Verdict.ALLOW
    assert policy.evaluate("touch ../x", cwd="/w/a", workspace="/w").verdict is Verdict.ALLOW
    assert policy.evaluate("touch /opt/x", workspace="/w").verdict is Verdict.ASK
    assert policy.evaluate("touch $X", workspace="/w").verdict is Verdict.ASK
    assert policy.evaluate("PATH=/x touch y", workspace="/w").verdict is Verdict.ASK


def test_approving_script_does_not_approve_inline_code() -> None:
    policy = load_policy()
    policy.approvals.add("python3 /w/x.py", persist=False)
    assert policy.evaluate("python3 x.py --flag", workspace="/w").verdict is Verdict.ALLOW
    assert policy.evaluate("python3 -c 'import os'", workspace="/w").verdict is Verdict.ASK
    assert policy.evaluate("python3 y.py", workspace="/w").verdict is Verdict.ASK
    # the script is approved where it is (review AF6): not x.py of another folder
    assert policy.evaluate("python3 x.py", workspace="/v").verdict is Verdict.ASK
    relative = load_policy()
    relative.approvals.add("python3 x.py", persist=False)  # (as approved before AF6)
    assert relative.evaluate("python3 x.py", workspace="/w").verdict is Verdict.ASK


def test_approval_never_beats_locked_ask(tmp_path: Path) -> None:
    org = tmp_path / "org.policy"
    org.write_text('policy "org"\nlocked ask curl ** reason "network"\nreadonly ls **\n')
    policy = load_policy(org)
    policy.approvals.add("curl", persist=False)
    decision = policy.evaluate("curl https://x", workspace="/w")
    assert decision.verdict is Verdict.ASK
    assert decision.locked
    assert decision.suggested_rule is None


def test_session_approvals_are_per_policy_object() -> None:
    first, second = load_policy(), load_policy()
    first.approvals.add("make test", persist=False)
    assert first.evaluate("make test", workspace="/w").verdict is Verdict.ALLOW
    assert second.evaluate("make test", workspace="/w").verdict is Verdict.ASK


def test_layers_add_rules(tmp_path: Path) -> None:
    team = tmp_path / "team.policy"
    team.write_text('policy "team"\nallow make test\n')
    policy = load_policy(extra=[team])
    assert policy.evaluate("make test", workspace="/w").verdict is Verdict.ALLOW
    assert policy.evaluate("make deploy", workspace="/w").verdict is Verdict.ASK


@pytest.mark.parametrize(
    "command",
    [
        " && ".join(["ls"] * 3000),
        "echo " + "$(" * 600 + "ls" + ")" * 600,
        "ls " + "a" * 150_000,
        "bash -c " + "'bash -c " * 40 + "ls" + "'" * 40,
    ],
    ids=["segments", "depth", "length", "nested-shells"],
)
def test_limits_fail_closed(decide: Decide, command: str) -> None:
    decision = decide(command)
    assert decision.verdict is not Verdict.ALLOW
    assert decision.retention is None


def test_very_long_chain_with_a_deny_at_the_end(decide: Decide) -> None:
    assert decide(" ; ".join(["ls"] * 500) + " ; sudo id").verdict is Verdict.DENY


@pytest.mark.parametrize(
    ("approved", "command"),
    [
        ("find", "find . -exec rm {} +"),
        ("find", "find / -delete"),
        ("sed", "sed -i s/a/b/ f"),
        ("rg", "rg --pre ./x foo"),
        ("sort", "sort -o out in"),
        ("find", "find . $ARGS"),
    ],
)
def test_approval_never_lifts_an_option_exception(approved: str, command: str) -> None:
    policy = load_policy()
    policy.approvals.add(approved, persist=False)
    decision = policy.evaluate(command, workspace="/w")
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


def test_reasons_are_not_repeated(decide: Decide) -> None:
    decision = decide("$'\\x72\\x6d' -rf ~/.ssh")
    assert len(decision.reasons) == len(set(decision.reasons))


def test_parse_cache_is_bounded_and_does_not_change_decisions(tmp_path: Path) -> None:
    cached = load_policy(parse_cache=2)
    plain = load_policy(parse_cache=0)
    commands = ["ls", "git status", "cat .env", "ls", "sudo id", "ls"]
    for command in commands:
        assert cached.evaluate(command, workspace="/w") == plain.evaluate(command, workspace="/w")
    assert len(cached._view._parsed) == 2
    assert plain._view._parsed == {}
    # the walk still runs afresh: a symlink made after the first evaluation is seen
    (tmp_path / "ws").mkdir()
    secret = tmp_path / "home" / ".ssh"
    secret.mkdir(parents=True)
    env = {"HOME": str(tmp_path / "home")}
    ws = tmp_path / "ws"
    assert cached.evaluate("cat link/k", workspace=ws, env=env).verdict is Verdict.ALLOW
    (ws / "link").symlink_to(secret)
    assert cached.evaluate("cat link/k", workspace=ws, env=env).verdict is Verdict.DENY


def test_decision_cache_keeps_only_file_system_independent_decisions() -> None:
    policy = load_policy(decision_cache=8)
    first = policy.evaluate("npm run build", workspace="/w")
    assert policy.evaluate("npm run build", workspace="/w") is first
    assert policy.evaluate("npm run build", workspace="/other") is not first
    # an approval changes the generation: the cached ask is not reused
    policy.approvals.add("npm run build", persist=False)
    assert policy.evaluate("npm run build", workspace="/w").verdict is Verdict.ALLOW
    # path checks and git config read the file system: never cached
    assert policy.evaluate("cat x", workspace="/w") is not policy.evaluate("cat x", workspace="/w")
    assert policy.evaluate("git status", workspace="/w") is not policy.evaluate(
        "git status", workspace="/w"
    )
    for index in range(20):
        policy.evaluate(f"npm run t{index}", workspace="/w")
    assert len(policy._evaluator._cache) <= 8


def test_globs_are_checked_against_what_they_match(workspace: Path) -> None:
    policy = load_policy()
    assert policy.evaluate("cat *", workspace=workspace).verdict is Verdict.ALLOW
    assert policy.evaluate("cat src/*", workspace=workspace).verdict is Verdict.ALLOW
    (workspace / "server.key").write_text("secret")
    decision = policy.evaluate("cat *", workspace=workspace)
    assert decision.verdict is Verdict.DENY
    assert any("server.key" in r.message for r in decision.reasons)
    assert policy.evaluate("cat s*", workspace=workspace).verdict is Verdict.DENY
    for index in range(300):
        (workspace / "src" / f"f{index}.txt").write_text("")
    decision = policy.evaluate("cat src/*.txt", workspace=workspace)
    assert decision.verdict is Verdict.ASK
    assert any("more files than can be checked" in r.message for r in decision.reasons)


def test_a_glob_walk_is_bounded_by_the_entries_it_reads(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review H4: `cat /sys/*/*/*/*/*/*/*/*/*/*/x` matches nothing but reads without end;
    # the walk stops after a budget of directory entries and the command asks
    from policylang.engine import checks

    for index in range(30):
        (workspace / f"d{index}" / "sub").mkdir(parents=True)
    policy = load_policy()
    whole = policy.evaluate("cat */x", workspace=workspace)
    assert not any("directory entries" in r.message for r in whole.reasons)
    monkeypatch.setattr(checks, "_GLOB_VISITS", 20)
    decision = policy.evaluate("cat */x", workspace=workspace)
    assert decision.verdict is Verdict.ASK
    assert any("directory entries" in r.message for r in decision.reasons), decision.explain()


@pytest.mark.parametrize(
    "command",
    ["rm -rf ~", "while :; do while :; do break 2; done; done", "ls; ls; ls", "cat x | cat x"],
)
def test_each_reason_is_listed_once(decide: Decide, command: str) -> None:
    decision = decide(command)
    assert decision.reasons
    assert len(set(decision.reasons)) == len(decision.reasons)
    # the segments keep their own reasons: the same text twice is two segments
    assert sum(len(s.reasons) for s in decision.segments) >= len(
        [r for r in decision.reasons if r.segment in {s.text for s in decision.segments}]
    )


def test_the_start_directory_follows_the_context(default_policy: Policy) -> None:
    # the evaluator keeps the last context's starting directory: a new context (even an
    # equal-looking one elsewhere) must never see the old one
    inside = EvalContext(cwd="/w", workspace="/w", home="/h")
    outside = EvalContext(cwd="/h/.ssh", workspace="/w", home="/h")
    assert default_policy.evaluate_in("cat config", inside, approvals=False).verdict is (
        Verdict.ALLOW
    )
    assert default_policy.evaluate_in("cat config", outside, approvals=False).verdict is (
        Verdict.DENY
    )
    assert default_policy.evaluate_in("cat config", inside, approvals=False).verdict is (
        Verdict.ALLOW
    )


# --- review fixes: `..` after links, /proc, variables set by builtins, data as arithmetic ---


def _linked_home(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """HOME/work/proj is the workspace; its `lnk` points four levels below HOME, so only
    a physical `..` (not a lexical one, nor one from the workspace) reaches HOME."""
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("secret")
    (home / "a" / "b" / "c" / "d").mkdir(parents=True)
    workspace = home / "work" / "proj"
    workspace.mkdir(parents=True)
    (workspace / "lnk").symlink_to(home / "a" / "b" / "c" / "d")
    return workspace, {"HOME": str(home)}


@pytest.mark.parametrize(
    "command",
    [
        "cat lnk/../../../../.aws/credentials",
        "cd lnk && cat ../../../../.aws/credentials",
        "cd -P lnk/../../../.. && cat .aws/credentials",
        "cd lnk/../../../.. && cat .aws/credentials",
        "cd lnk && cd ../../../.. && cat .aws/credentials",
    ],
)
def test_dotdot_after_a_link_reaches_protected_files(tmp_path: Path, command: str) -> None:
    workspace, env = _linked_home(tmp_path)
    decision = load_policy().evaluate(command, workspace=workspace, env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_link_to_proc_self_asks(tmp_path: Path) -> None:
    workspace, env = _linked_home(tmp_path)
    (workspace / "me").symlink_to("/proc/self")
    policy = load_policy()
    for command in ("cat me/cwd/../.aws/credentials", "cat /proc/self/cwd/../x", "cd me/cwd"):
        decision = policy.evaluate(command + " && ls", workspace=workspace, env=env)
        assert decision.verdict is not Verdict.ALLOW, command
    decision = policy.evaluate("cat me/cwd/x", workspace=workspace, env=env)
    assert any(r.rule_id == "engine.process-path" for r in decision.reasons)
    assert policy.evaluate("cat /proc/cpuinfo", workspace=workspace, env=env).verdict is (
        Verdict.ALLOW
    )


def test_fd_write_is_a_file_write(decide: Decide) -> None:
    assert decide("echo x &>1").verdict is Verdict.ASK
    assert decide("echo x &>1").retention is Retention.DURABLE
    assert decide("echo x >&1").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("read PATH <<< .; ls", None),
        ("printf -v HOME %s /tmp; cat ~/x", None),
        ("read $name", "engine.unknown-variable"),
        ("read x < f; echo $((x))", "engine.data-evaluated"),
        ("read x < f; echo ${!x}", "engine.data-evaluated"),
        ("read x < f; [[ x -eq 1 ]]", "engine.data-evaluated"),
    ],
)
def test_builtin_assignments_ask(decide: Decide, command: str, rule: str | None) -> None:
    decision = decide(command)
    assert decision.verdict is Verdict.ASK
    if rule is not None:
        assert any(r.rule_id == rule for r in decision.reasons)


def test_data_arithmetic_really_runs_commands(tmp_path: Path) -> None:
    # the shape the engine asks about: bash runs the subscript of a value read from data
    (tmp_path / "f").write_text("a[$(touch MARK)]\n")
    subprocess.run(
        ["bash", "-c", "read x < f; echo $((x))"], cwd=tmp_path, check=False, capture_output=True
    )
    assert (tmp_path / "MARK").exists()
    policy = load_policy()
    decision = policy.evaluate("read x < f; echo $((x))", workspace=tmp_path)
    assert decision.verdict is Verdict.ASK
    assert policy.evaluate("echo $((1+2))", workspace=tmp_path).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "read -r TAR_OPTIONS <<< x; tar -tf x.tar",
        "printf -v TAR_OPTIONS %s x; tar -tf x.tar",
        ": ${TAR_OPTIONS:=x}; tar -tf x.tar",
        "for TAR_OPTIONS in x; do tar -tf x.tar; done",
    ],
)
def test_assigning_a_variable_the_environment_exports(
    default_policy: Policy, tmp_path: Path, command: str
) -> None:
    # review E17: bash keeps the export attribute, so `read NAME` of a variable the agent's
    # environment has is an environment assignment, judged by the env rules
    def verdict(env: dict[str, str]) -> Verdict:
        return default_policy.evaluate(command, workspace=tmp_path, env=env).verdict

    home = {"HOME": str(tmp_path / "home")}
    assert verdict(home) is Verdict.ALLOW
    assert verdict({**home, "TAR_OPTIONS": "-v"}) is Verdict.ASK
    # a name the env rules let through stays allowed even when exported
    # (not a locale variable: one assigned a value not known asks, review CG1)
    allowed = command.replace("TAR_OPTIONS", "COLUMNS")
    decision = default_policy.evaluate(allowed, workspace=tmp_path, env={**home, "COLUMNS": "80"})
    assert decision.verdict is Verdict.ALLOW


def test_path_args_move_writes_the_sources(tmp_path: Path) -> None:
    # review M13: with `copy` roles, `mv .git old` only read `.git`, and a write-protected
    # path could be moved away on an ask; `move` writes the sources too (they are removed)
    from policylang.engine.policy import load_policy

    path = tmp_path / "p.policy"
    path.write_text(
        'policy "t"\ndefault ask\nallow relocate|duplicate **\n'
        "path-args move relocate\npath-args copy duplicate\n"
        "protect write keep/** deny\n"
    )
    policy = load_policy(path, check=False)
    ws = str(tmp_path)
    assert policy.evaluate("relocate keep/a elsewhere", workspace=ws).verdict.value == "deny"
    assert policy.evaluate("duplicate keep/a elsewhere", workspace=ws).verdict.value == "allow"
    assert policy.evaluate("relocate a keep/b", workspace=ws).verdict.value == "deny"


def test_a_cached_decision_is_not_reused_under_another_environment(tmp_path: Path) -> None:
    # the cache key had no environment: `rg foo` allowed under one PATH was reused under a
    # PATH that finds the repository's own `rg` (and `man` under a PATH into the workspace)
    workspace = tmp_path / "ws"
    (workspace / "bin").mkdir(parents=True)
    planted = workspace / "bin" / "rg"
    planted.write_text("#!/bin/sh\necho planted\n")
    planted.chmod(0o755)
    policy = load_policy(decision_cache=64)
    home = str(tmp_path / "home")
    plain = {"HOME": home, "PATH": "/usr/bin:/bin"}
    into_workspace = {"HOME": home, "PATH": f"{workspace}/bin:/usr/bin:/bin"}
    for command in ("rg foo", "man ls"):
        assert policy.evaluate(command, workspace=workspace, env=plain).verdict == "allow"
        decision = policy.evaluate(command, workspace=workspace, env=into_workspace)
        assert decision.verdict == "ask", command
        assert any(r.rule_id == "engine.path-program" for r in decision.reasons)
    # review AN2: man-db reads `D/share/man` for a PATH entry `D/bin`, an activated
    # environment's too, and a page there can `.so ../.env`
    venv = {"HOME": home, "PATH": f"{workspace}/.venv/bin:/usr/bin:/bin"}
    assert policy.evaluate("man ls", workspace=workspace, env=venv).verdict == "ask"
    assert policy.evaluate("ls", workspace=workspace, env=venv).verdict == "allow"
    # review AP3: the entry spelled with `..` or through a link; AP4: `git help` runs man
    (tmp_path / "link").symlink_to(workspace)
    for entry in (f"{tmp_path}/x/../ws/bin", f"{tmp_path}/link/bin"):
        spelled = {"HOME": home, "PATH": f"{entry}:/usr/bin:/bin"}
        for command in ("man ls", "git log --help", "git help log"):
            assert policy.evaluate(command, workspace=workspace, env=spelled).verdict == "ask"
