"""Review BT (BT2, BT3, BT5, BT6): each line here had a weaker verdict, or a wider
suggestion, before its fix. bash, npm, scalar, split, csplit, rename.ul and git run for
real where the effect is shown."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import approved, printed, run_real

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import Policy, load_policy, shipped_ruleset


def _decide(policy: Policy, command: str, workspace: Path, cwd: Path | None = None) -> Decision:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return policy.evaluate(
        command, cwd=str(cwd or workspace), workspace=str(workspace), env=environment
    )


@pytest.fixture
def home(workspace: Path) -> Path:
    """A home with a key; the workspace's `sub/deep/k` links to its `.ssh`."""
    folder = workspace.parent / "home"
    (folder / ".ssh").mkdir(parents=True)
    (folder / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    (workspace / "sub" / "deep").mkdir(parents=True)
    (workspace / "sub" / "deep" / "k").symlink_to(folder / ".ssh")
    return folder


# -- BT2: the word list of `for NAME in WORDS` is globbed as arguments are -------------------


@pytest.mark.parametrize(
    "command",
    [
        "for f in ~/.ssh/*; do echo $f; done",
        "for f in ~/.ssh/*; do :; done; echo $f",
        'for f in ~/.ssh/*; do :; done; printf "%s\\n" "$f"',
        "for f in sub/*/*/*; do echo $f; done",  # through the workspace's link to ~/.ssh
        "for f in sub/deep/k/*; do echo $f; done",
        "for f in ~/.ss?/*; do echo $f; done",
        "select f in ~/.ssh/*; do echo $f; done",
    ],
)
def test_a_for_list_glob_lists_a_protected_folder(
    default_policy: Policy, workspace: Path, home: Path, command: str
) -> None:
    assert _decide(default_policy, command, workspace).verdict is Verdict.DENY


def test_bash_prints_the_names_a_for_list_expands_to(workspace: Path, home: Path) -> None:
    for command in ("for f in ~/.ssh/*; do echo $f; done", "for f in sub/*/*/*; do echo $f; done"):
        assert "id_rsa" in printed(["bash", "-c", command], workspace), command


@pytest.mark.parametrize(
    "command",
    [
        "for f in src/*.py; do echo $f; done",
        "for f in a b; do echo $f; done",
        "for f in *; do echo $f; done",
    ],
)
def test_for_lists_of_workspace_files_stay_allowed(
    default_policy: Policy, workspace: Path, home: Path, command: str
) -> None:
    assert _decide(default_policy, command, workspace).verdict is Verdict.ALLOW


# -- BT3: npm reads a long option with any number of dashes --------------------------------


@pytest.fixture
def package(workspace: Path) -> Path:
    """A package whose `build` script echoes; `./x` is a "shell" that prints a marker."""
    (workspace.parent / "home").mkdir(exist_ok=True)
    scripts = '{"name":"p","version":"1.0.0","scripts":{"build":"echo BUILD_RAN"}}\n'
    (workspace / "package.json").write_text(scripts)
    shell = workspace / "x"
    shell.write_text('#!/bin/sh\necho "EVIL_SHELL_RAN $*"\n')
    shell.chmod(0o755)
    (workspace / "npmrc").write_text("script-shell=./x\n")
    return workspace


_NPM_OTHER_PROGRAM = [
    "npm run build -script-shell=./x",
    "npm run build ---script-shell ./x",
    "npm run build ---script-shell=./x",
    "npm run build -userconfig=./npmrc",
    "npm run build ---userconfig=./npmrc",
    "npm run build -node-options=--require=./e.js",
    "npm run build -globalconfig=./npmrc",
    "npm run build -prefix=node_modules/pkg",
    "npm run build -script-shel ./x",  # an abbreviation, as with two dashes
]


@pytest.mark.parametrize("command", _NPM_OTHER_PROGRAM)
def test_an_approved_npm_script_does_not_cover_another_shell(
    package: Path, command: str
) -> None:
    policy = approved("npm run build")
    assert _decide(policy, command, package).verdict is Verdict.ASK
    assert _decide(load_policy(), command, package).suggested_rule is None


def test_npm_reads_every_verb_s_options_with_any_dashes(
    default_policy: Policy, workspace: Path
) -> None:
    for command in ("npm install ---global x", "pnpm install -config.script-shell=./x"):
        decision = _decide(default_policy, command, workspace)
        assert decision.verdict is Verdict.ASK, command
        assert decision.suggested_rule is None, command


def test_plain_npm_options_stay_covered(package: Path) -> None:
    policy = approved("npm run build")
    for command in ("npm run build", "npm run build -s", "npm run build --silent"):
        assert _decide(policy, command, package).verdict is Verdict.ALLOW, command


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_npm_runs_the_script_through_a_single_dash_shell(package: Path) -> None:
    for option in (["-script-shell=./x"], ["---script-shell", "./x"], ["-userconfig=./npmrc"]):
        output = printed(["npm", "run", "build", *option], package)
        assert "EVIL_SHELL_RAN" in output, option


# -- BT5: scalar is git's, with git's -c and -C ---------------------------------------------


def test_scalar_asks_and_is_offered_by_its_verb(default_policy: Policy, workspace: Path) -> None:
    for command, offered in (
        ("scalar --version", None),
        ("scalar", None),
        ("scalar -C src list", "scalar list"),
        ("scalar list", "scalar list"),
        ("scalar run all", "scalar run"),
    ):
        decision = _decide(default_policy, command, workspace)
        assert decision.verdict is Verdict.ASK, command
        assert decision.suggested_rule == offered, command


def test_an_approved_scalar_does_not_cover_its_git_config_or_delete(workspace: Path) -> None:
    policy = approved("scalar", "scalar run")
    fetch = (
        "scalar -c protocol.ext.allow=always "
        "-c 'remote.evil.url=ext::sh -c touch% /tmp/x' run fetch"
    )
    assert _decide(policy, fetch, workspace).verdict is Verdict.ASK
    for command in (
        f"scalar -C /tmp delete {workspace}",
        f"scalar -C /tmp delete {workspace}/src",
        "scalar delete src",
        "/usr/bin/scalar -C /tmp delete src",
    ):
        assert _decide(policy, command, workspace).verdict is Verdict.DENY, command
    assert _decide(policy, "scalar run fetch", workspace).verdict is Verdict.ALLOW


def test_ci_denies_scalar(workspace: Path) -> None:
    policy = load_policy(shipped_ruleset("ci"))
    assert _decide(policy, "scalar list", workspace).verdict is Verdict.DENY


@pytest.mark.skipif(shutil.which("scalar") is None, reason="scalar is not installed")
def test_scalar_delete_removes_the_repository_around_a_folder(workspace: Path) -> None:
    (workspace.parent / "home").mkdir(exist_ok=True)
    assert run_real(["git", "init", "-q"], workspace).returncode == 0
    assert run_real(["git", "commit", "-q", "--allow-empty", "-m", "x"], workspace).returncode == 0
    run_real(["scalar", "-C", "/tmp", "delete", str(workspace / "src")], workspace / "src")
    assert not workspace.exists()


# -- BT6: names joined from a prefix --------------------------------------------------------


_JOINED_NAMES = [
    "split -n 4 -a 1 README.md CLAUDE.m",  # the 4th piece is CLAUDE.md
    "split -n 4 -a 1 README.md AGENTS.m",
    "split -n 14 -a 1 README.md .mcp.jso",
    "split -n 3 -a 1 README.md .envr",
    "split -n 19 -a 1 --additional-suffix=.json README.md .vscode/task",
    "split -b 10 -a 1 README.md .gi",  # a file `.git`
    "split -n 4 README.md .git/hooks/pre-commi",
    "gsplit -n 4 -a 1 README.md CLAUDE.m",
    "csplit -f CLAUDE.m -b %x README.md 1",
    "csplit --prefix=.envr --suffix-format=%x README.md 1",
    "rename.ul .txt .md CLAUDE.txt",
    "rename.ul x .vscode/ xtasks.json",
    "rename.ul .txt .json .vscode/tasks.txt",
    "rename.ul -l a .mcp.json a",
]


@pytest.mark.parametrize("command", _JOINED_NAMES)
def test_a_protected_name_joined_from_a_prefix_is_denied(workspace: Path, command: str) -> None:
    policy = approved("split", "gsplit", "csplit", "rename.ul")
    assert _decide(policy, command, workspace).verdict is Verdict.DENY
    assert _decide(load_policy(), command, workspace).verdict is Verdict.DENY


@pytest.mark.parametrize(
    "command",
    [
        "rename s/txt/md/ CLAUDE.txt",  # perl's rename: the names are code's
        "prename s/x/y/ notes.txt",
        "file-rename s/x/y/ notes.txt",
        "csplit -f .gi -b t/hooks/pre-commit%.0d README.md 1",  # a format with a folder
        "split -n 4 -a 1 README.md $P",
        "rename.ul -s a b link",
    ],
)
def test_names_that_cannot_be_told_ask_whatever_is_approved(
    workspace: Path, command: str
) -> None:
    policy = approved("rename", "prename", "file-rename", "csplit", "split", "rename.ul")
    decision = _decide(policy, command, workspace)
    assert decision.verdict is Verdict.ASK
    assert _decide(load_policy(), command, workspace).suggested_rule is None


@pytest.mark.parametrize(
    "command",
    [
        "split -n 4 README.md CLAUDE.m",  # two-letter suffixes never spell CLAUDE.md
        "split -l 100 README.md part_",
        "split -l 100 README.md",
        "csplit -f CLAUDE.m -n 1 README.md 1",  # decimal digits
        "csplit -f part_ -b %03d.txt README.md 1",
        "rename.ul .txt .md notes.txt",
    ],
)
def test_plain_pieces_and_renames_stay_covered(workspace: Path, command: str) -> None:
    policy = approved("split", "csplit", "rename.ul")
    assert _decide(policy, command, workspace).verdict is Verdict.ALLOW


def test_split_csplit_and_rename_write_the_protected_names(workspace: Path) -> None:
    """What the denies above are for, with the real programs."""
    (workspace / "p2").write_text("a" * 30 + "EVIL\n")
    printed(["split", "-n", "4", "-a", "1", "p2", "CLAUDE.m"], workspace)
    assert "EVIL" in (workspace / "CLAUDE.md").read_text()  # the 4th quarter
    (workspace / "lines").write_text("".join(f"{n}\n" for n in range(20)))
    cuts = [str(n) for n in range(2, 16)]
    printed(["csplit", "-s", "-f", ".envr", "-b", "%x", "lines", *cuts], workspace)
    assert (workspace / ".envrc").exists()
    if shutil.which("rename.ul") is not None:
        (workspace / ".vscode").mkdir()
        (workspace / "xtasks.json").write_text("{}\n")
        printed(["rename.ul", "x", ".vscode/", "xtasks.json"], workspace)
        assert (workspace / ".vscode" / "tasks.json").exists()


@pytest.fixture
def tracked(workspace: Path) -> Path:
    """A repository that tracks a hook at `t/hooks/pre-commit` and a `code/tasks.json`."""
    (workspace.parent / "home").mkdir(exist_ok=True)
    hook = workspace / "t" / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True)
    hook.write_text("#!/bin/sh\necho HOOK_RAN\n")
    hook.chmod(0o755)
    (workspace / "code").mkdir()
    (workspace / "code" / "tasks.json").write_text("{}\n")
    (workspace / "tasks.json").write_text("{}\n")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        assert run_real(["git", *args], workspace).returncode == 0, args
    return workspace


def test_git_checkout_index_writes_the_prefix_joined_to_the_path(tracked: Path) -> None:
    policy = approved("git checkout-index")
    for command in (
        "git checkout-index --prefix=.gi t/hooks/pre-commit",
        "git checkout-index --prefix=.vs code/tasks.json",
        "git checkout-index --prefix=.vscode/ tasks.json",
        "git checkout-index --pre=.gi t/hooks/pre-commit",
        "git -C code checkout-index --prefix=.vscode/ ../tasks.json",
    ):
        assert _decide(policy, command, tracked).verdict is Verdict.DENY, command
    for command in (
        "git checkout-index -f --prefix=.gi -a",  # every tracked file
        "git checkout-index --prefix=out/ tasks.json",  # approved by nothing
    ):
        assert _decide(policy, command, tracked).verdict is Verdict.ASK, command
    # from a subfolder the path is the repository's: `code/` + `.vscode/` is not written
    moved = "git checkout-index --prefix=.vscode/ tasks.json"
    assert _decide(policy, moved, tracked, tracked / "code").verdict is Verdict.ASK
    assert _decide(policy, "git checkout-index -f tasks.json", tracked).verdict is Verdict.ALLOW
    # the effect: the hook lands in .git/hooks and runs on the next commit
    run_real(["git", "checkout-index", "--prefix=.gi", "t/hooks/pre-commit"], tracked)
    assert "HOOK_RAN" in printed(["git", "commit", "--allow-empty", "-m", "y"], tracked)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # two letters, then `z` + three, `zz` + four …: never three letters
        ("split -l 1 - out.", Verdict.ALLOW),
        ("split -l 1 -a 3 - out.", Verdict.DENY),  # `out.pem`, `out.key`, `out.env`
        ("split -l 1 - CLAUDE.", Verdict.DENY),  # `CLAUDE.md`
    ],
)
def test_split_s_suffixes_widen_as_gnu_split_widens_them(
    workspace: Path, command: str, expected: Verdict
) -> None:
    """A prefix and the suffixes split can make without `-a`: `ls | split -l 500 -
    outputXYZ.` was denied as if it could write `outputXYZ.pem` (the nl2bash corpus)."""
    verdict = _decide(approved("split"), command, workspace).verdict
    assert verdict is expected
    run_real(["bash", "-c", "seq 700 | split -l 1 - out."], workspace)
    lengths = {len(p.name) - len("out.") for p in workspace.glob("out.*")}
    assert lengths == {2, 4}  # (the widening the model follows: 650 of 2, 50 of 4)
