"""Review DF: exact approvals and an approved compiler's include folders.

DF1, DF2 an option before the verb hides the verb from the rules (`ip -4 vrf exec …`,
`ip -b -`): no exact rule is offered for a line with an option; DF3 a bare program fed
commands on its input (`echo … | redis-cli`) is not covered by its exact approval; DF4
headers named by `-include` and by macros are looked for in the include folders; DF5 a
system root asks; DF6 an approved `rustc` loading crates (`--extern`, `-L`) asks: a
procedural macro runs at compile time; DF7 nasm's `-@` file of options; DF8 a system
folder's headers are checked, not scanned; DF9 `tmux` gets no exact rule."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, canary_environment, copy_workspace, scan_judge, scan_policy

from policylang import Verdict


@pytest.mark.parametrize(
    "line",
    ["ip -4 vrf exec default sh run.sh", "ip -c netns exec x id", "ip -b cmds", "ip -b -",
     "gem -q build x.gemspec", "pnpm --silent version", "yarn -s config set x y",
     "tmux -2 saveb x", "kubectl -n x get secret y", "make -j4 -k", "tmux"],
)  # fmt: skip
# (make's job limits alone hide no target from make's rules, which match `**` with their
# option clauses: `make -j4` is offered `make -j4 $`, open items A3)
def test_df1_df2_df9_no_exact_rule_for_an_option_before_the_verb(
    tmp_path: Path, line: str
) -> None:
    workspace = copy_workspace(tmp_path)
    rule = scan_judge(line, workspace).suggested_rule
    assert rule is None or not rule.endswith(" $"), rule


@pytest.mark.parametrize(
    ("rule", "line"),
    [("redis-cli $", "echo 'CONFIG SET dir /tmp' | redis-cli"),
     ("openssl $", "printf 'enc -in x' | openssl"), ("redis-cli $", "redis-cli < cmds"),
     ("redis-cli $", "redis-cli <<< PING"), ("redis-cli $", "cat f | { redis-cli; }"),
     ("redis-cli $", "cat f | while read l; do redis-cli; done"),
     ("make $", "echo x | make")],
)  # fmt: skip
def test_df3_an_exact_approval_does_not_cover_fed_input(
    tmp_path: Path, rule: str, line: str
) -> None:
    workspace = copy_workspace(tmp_path)
    decision = scan_judge(line, workspace, rule)
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("line", ["make", "make 2>&1 | tail -5", "time make", "make && make"])
def test_df3_an_exact_approval_still_covers_its_line(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, "make $").verdict is Verdict.ALLOW


def _headers(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "inc").mkdir()
    (workspace / "inc" / "config.h").symlink_to(secret)
    (workspace / "src").mkdir()
    (workspace / "src" / "ok.c").write_text("int main(void) { return 0; }\n")
    (workspace / "src" / "mac.c").write_text('#define H "config.h"\n#include H\n')
    (workspace / "src" / "mac2.c").write_text("#define H <config.h>\n#include H\n")
    (workspace / "src" / "a.c").write_text("#include <config.h>\n")
    triplet = workspace / "sys" / "usr" / "include" / "x86_64-linux-gnu"
    triplet.mkdir(parents=True)
    (triplet / "config.h").symlink_to(secret)
    (workspace / "resp").write_text("-iinc/\n")
    (workspace / "src" / "n.asm").write_text('incbin "config.h"\n')
    return workspace


@pytest.mark.parametrize(
    ("approval", "line"),
    [("cpp", "cpp -Iinc -include config.h src/ok.c"),
     ("cpp", "cpp -Iinc --include=config.h src/ok.c"),
     ("cpp", "cpp -Iinc -includeconfig.h src/ok.c"), ("cpp", "cpp -Iinc src/mac.c"),
     ("cpp", "cpp -iquoteinc src/mac.c"), ("gcc", "gcc -E -Iinc src/mac.c"),
     ("cpp", "cpp --include-directory=inc src/mac.c"), ("cpp", "cpp -Iinc src/mac2.c"),
     ("cpp", "cpp --sysroot=sys src/a.c"), ("cpp", "cpp -isysrootsys src/a.c"),
     ("cpp", "cpp --sysroot=. -I'$SYSROOT/inc' src/a.c"),
     ("cpp", "cpp --include-prefix=inc/ --include-with-prefix=. src/mac.c"),
     ("nasm", "nasm -@ resp -f bin -o o.bin src/n.asm")],
)  # fmt: skip
def test_df4_df5_df7_headers_the_compiler_finds(tmp_path: Path, approval: str, line: str) -> None:
    workspace = _headers(tmp_path)
    decision = scan_judge(line, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_df4_a_real_preprocessor_prints_the_header_an_option_names(tmp_path: Path) -> None:
    workspace = _headers(tmp_path)
    for line in ("cpp -Iinc -include config.h src/ok.c", "cpp -Iinc src/mac.c"):
        done = subprocess.run(
            ["bash", "-c", line], cwd=workspace, capture_output=True, text=True,
            env=canary_environment(workspace), check=False,
        )  # fmt: skip
        assert "AKIASECRET" in done.stdout + done.stderr, line


@pytest.mark.parametrize(
    "line",
    ["rustc --extern evil=libevil.so m.rs", "rustc -L . m.rs", "rustc --sysroot . m.rs",
     "rustdoc --extern evil=libevil.so m.rs"],
)  # fmt: skip
def test_df6_an_approved_rustc_loading_crates(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, line.split()[0]).verdict is Verdict.ASK


def test_df6_an_ordinary_rustc_stays_approved(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "m.rs").write_text("fn main() {}\n")
    assert scan_judge("rustc m.rs -o m", workspace, "rustc").verdict is Verdict.ALLOW


@pytest.mark.source  # patches the engine's list of system folders
def test_df8_system_headers_are_checked_not_scanned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (the system's folders are `/usr/` and its like: one is played here by a temporary
    # folder, as review DH3 had a folder outside the workspace read in turn again)
    from policylang.engine import evaluate

    workspace = copy_workspace(tmp_path)
    system = tmp_path / "sysinc"
    monkeypatch.setattr(evaluate, "_SYSTEM_HEADERS", (str(system), "/usr/"))
    system.mkdir()
    for index in range(40):  # more than the scan's budget, each naming the next
        (system / f"h{index}.h").write_text(f'#include "h{index + 1}.h"\n')
    (workspace / "py.c").write_text('#include "h0.h"\n')
    env = {**canary_environment(workspace), "C_INCLUDE_PATH": str(system)}
    policy = scan_policy("gcc")
    decision = policy.evaluate("gcc -c py.c -o p.o", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
