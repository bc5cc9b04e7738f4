"""An approved compiler's sources name headers that its include folders supply (`-I inc`,
`-iquote`, `-isystem`, `CPATH`): the include scan of review CY8 looked beside the source
only, so a header in an include folder that is a link to a secret was printed by an
approved `cpp` (an item the fourteenth session's note left open)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, canary_environment, copy_workspace, scan_judge

from policylang import Verdict, load_policy
from policylang.engine.approvals import Approvals


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "inc").mkdir()
    (workspace / "inc" / "config.h").symlink_to(secret)
    (workspace / "clean").mkdir()
    (workspace / "clean" / "ok.h").write_text("#define OK 1\n")
    (workspace / "inc" / "chain.h").write_text('#include "config.h"\n')
    (workspace / "sys" / "usr" / "include").mkdir(parents=True)
    (workspace / "sys" / "usr" / "include" / "config.h").symlink_to(secret)
    (workspace / "src").mkdir()
    (workspace / "src" / "m.c").write_text('#include "config.h"\nint main(void) { return 0; }\n')
    (workspace / "src" / "a.c").write_text("#include <config.h>\nint main(void) { return 0; }\n")
    (workspace / "src" / "c.c").write_text('#include "chain.h"\nint main(void) { return 0; }\n')
    (workspace / "src" / "ok.c").write_text('#include "ok.h"\nint main(void) { return OK; }\n')
    return workspace


@pytest.mark.parametrize(
    "line",
    ["cpp -I inc src/m.c", "cpp -Iinc src/m.c", "cpp -iquote inc src/m.c",
     "cpp -isystem inc src/a.c", "cpp -idirafter inc src/a.c",
     "cpp --include-directory=inc src/m.c",
     "cpp -I inc src/c.c", "cpp -I ./inc/ src/m.c", "cpp -iprefix inc/ -iwithprefix . src/m.c",
     "cpp --sysroot=sys src/a.c"],
)  # fmt: skip
def test_a_header_from_an_include_folder_is_checked(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    done = subprocess.run(
        ["bash", "-c", line], cwd=workspace, capture_output=True, text=True,
        env=canary_environment(workspace), check=False,
    )  # fmt: skip
    assert "AKIASECRET" in done.stdout + done.stderr  # the real preprocessor prints it
    decision = scan_judge(line, workspace, "cpp")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_include_folders_of_the_environment_are_checked(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    approvals = Approvals()
    approvals.add("cpp", persist=False)
    policy = load_policy(approvals=approvals)
    for variable in ("CPATH", "C_INCLUDE_PATH"):
        env = {**canary_environment(workspace), variable: f"/nonexistent:{workspace}/inc"}
        decision = policy.evaluate("cpp src/a.c", workspace=str(workspace), env=env)
        assert decision.verdict is not Verdict.ALLOW, (variable, decision.explain())


def test_ordinary_include_folders_stay_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    lines = (
        "cpp -I clean src/ok.c",
        "gcc -Iclean -c src/ok.c -o ok.o",
        "cpp -I clean -I clean src/ok.c",
        "cpp --include-directory=clean src/ok.c",
    )
    for line in lines:
        decision = scan_judge(line, workspace, line.split()[0])
        assert decision.verdict is Verdict.ALLOW, decision.explain()
