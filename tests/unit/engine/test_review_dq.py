"""Review DQ: bypasses of the day's fixes (the environment's loaders, javac, the include
scan, shims).

DQ1 a bare `NODE_OPTIONS` preload resolved through the workspace's `package.json` or a
`node_modules/NAME.js`; DQ2, DQ3 javac's plugins, a jar manifest's `Class-Path`, the last
`-proc:`, `-XD`, `--system`, `JDK_JAVAC_OPTIONS`; DQ4 javadoc's doclets; DQ5 a class the
JVM loads by name from the working folder, every `OnError` command; DQ6 string escapes in
inline assembly; DQ7 a `#define` that names the directive in a `.S` file; DQ8 Rust's
`mod` in inline modules and built by a macro; DQ9 Debian venvs' `dist-packages`; DQ10
`OPENSSL_CONF`; DQ11 rustc's `-l` through `LIBRARY_PATH`; DQ12, DQ13 false asks; DQ14 a
shell wrapper that execs npm."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, printed, scan_judge, scan_policy

from policylang import Verdict
from policylang.engine.evaluate import _jvm_option_paths


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", **more}


def _decide(line: str, workspace: Path, env: dict[str, str], *approved: str) -> Verdict:
    policy = scan_policy()  # (compilers approvable, as a ruleset may let them be)
    for rule in approved:
        policy.approvals.add(rule, persist=False)
    return policy.evaluate(line, workspace=str(workspace), env=env).verdict


def _write(workspace: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize(
    ("files", "options"),
    [({"package.json": '{"name": "dotenv", "exports": {"./config": "./evil.js"}}'},
      "--require dotenv/config"),
     ({"package.json": '{"name": "app", "imports": {"#pre": "./evil.js"}}'}, "--import #pre"),
     ({"node_modules/pre.js": "require('./../evil.js')\n"}, "--require pre")],
)  # fmt: skip
def test_dq1_a_bare_preload_the_workspace_resolves(
    tmp_path: Path, files: dict[str, str], options: str
) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    _write(workspace, {**files, "evil.js": f"require('fs').writeFileSync({str(marker)!r}, 'x')\n"})
    env = _env(tmp_path, NODE_OPTIONS=options)
    if shutil.which("npm") is not None:
        subprocess.run(
            ["npm", "--version"], cwd=workspace, env=env, capture_output=True, check=False
        )
        assert marker.exists()  # the real npm ran the workspace's module
    assert _decide("npm --version", workspace, env) is Verdict.ASK


@pytest.mark.parametrize(
    ("files", "line", "approval", "env"),
    [({"META-INF/services/com.sun.source.util.Plugin": "G\n"}, "javac X.java", "javac", {}),
     ({"META-INF/services/com.sun.source.util.Plugin": "G\n"}, "javac -proc:none X.java",
      "javac", {}),
     ({"META-INF/services/javax.annotation.processing.Processor": "P\n"},
      "javac -proc:none -proc:only X.java", "javac", {}),
     ({}, "javac -XD-processor=P X.java", "javac", {}),
     ({}, "javac --system sys X.java", "javac", {}),
     ({}, "javac -Xplugin:G X.java", "javac", {}),
     ({}, 'javac -cp "$CP" X.java', "javac", {}),
     ({}, "javac X.java", "javac", {"JDK_JAVAC_OPTIONS": "-cp lib/proc.jar"}),
     ({}, "javadoc -docletpath tools -doclet D src/X.java", "javadoc", {}),
     ({}, "javadoc -taglet T src/X.java", "javadoc", {})],
)  # fmt: skip
def test_dq2_dq3_dq4_what_an_approved_javac_or_javadoc_loads(
    tmp_path: Path, files: dict[str, str], line: str, approval: str, env: dict[str, str]
) -> None:
    workspace = copy_workspace(tmp_path)
    _write(workspace, {**files, "X.java": "class X {}\n", "src/X.java": "class X {}\n"})
    verdict = _decide(line, workspace, _env(tmp_path, **env), approval)
    assert verdict is Verdict.ASK, line
    # a plain compile, without what loads code, stays approved
    clean = tmp_path / "clean"
    clean.mkdir()
    assert _decide("javac X.java", copy_workspace(clean), _env(tmp_path), "javac") is Verdict.ALLOW


def test_dq3_a_jar_whose_manifest_adds_jars(tmp_path: Path) -> None:
    if shutil.which("jar") is None:
        pytest.skip("`jar` is not installed")
    workspace = copy_workspace(tmp_path)
    _write(workspace, {"X.java": "class X {}\n", "m.txt": "Class-Path: proc.jar\n"})
    (workspace / "lib").mkdir()
    subprocess.run(["jar", "cfm", "lib/wrapper.jar", "m.txt"], cwd=workspace, check=True)
    env = _env(tmp_path)
    assert _decide("javac -cp lib/wrapper.jar X.java", workspace, env, "javac") is Verdict.ASK
    subprocess.run(["jar", "cf", "lib/plain.jar", "X.java"], cwd=workspace, check=True)
    assert _decide("javac -cp lib/plain.jar X.java", workspace, env, "javac") is Verdict.ALLOW


def test_dq5_a_class_the_jvm_loads_by_name_and_every_on_error_command() -> None:
    assert _jvm_option_paths("-Djava.system.class.loader=Evil") == ["."]
    assert _jvm_option_paths("-Djava.security.manager=allow -Dx=y") == []
    assert _jvm_option_paths("-XX:OnError=/bin/true;./evil") == ["/bin/true", "./evil"]


@pytest.mark.parametrize(
    ("name", "text", "approval", "line"),
    [("e1.c", '__asm__(".incb\\x69n \\"{secret}\\""); int main(void) {{ return 0; }}\n', "gcc",
      "gcc -c e1.c -o e1.o"),
     ("e2.c", '__asm__(".incb\\151n \\"{secret}\\""); int main(void) {{ return 0; }}\n', "gcc",
      "gcc -c e2.c -o e2.o"),
     ("r1.rs", 'std::arch::global_asm!(".incb\\x69n \\"{secret}\\""); fn main() {{}}\n', "rustc",
      "rustc --emit=obj r1.rs -o r1.o"),
     ("d1.S", '#define I .incbin\nI "{secret}"\n', "gcc", "gcc -c d1.S -o d1.o"),
     ("b.rs", "macro_rules! m {{ ($n:ident) => {{ mod $n; }} }} m!(evil); fn main() {{}}\n",
      "rustc", "rustc b.rs")],
)  # fmt: skip
def test_dq6_dq7_dq8_directives_the_scan_must_not_miss(
    tmp_path: Path, name: str, text: str, approval: str, line: str
) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    _write(workspace, {name: text.format(secret=secret)})
    decision = scan_judge(line, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_dq7_gcc_really_assembles_a_define_built_incbin(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    _write(workspace, {"d1.S": f'#define I .incbin\nI "{secret}"\n'})
    shown = printed(["bash", "-c", "gcc -c d1.S -o d1.o && strings d1.o"], workspace)
    assert "AKIASECRET" in shown


def test_dq8_a_module_file_below_an_inline_module(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    _write(workspace, {
        "a.rs": "mod foo { pub mod bar; } fn main() {}\n", "bar.rs": "pub fn f() {}\n",
        "foo/bar.rs": f'pub fn f() {{ let _x: u8 = include!("{secret}"); }}\n',
    })  # fmt: skip
    assert scan_judge("rustc a.rs", workspace, "rustc").verdict is not Verdict.ALLOW
    (workspace / "foo" / "bar.rs").write_text("pub fn f() {}\n")
    assert scan_judge("rustc a.rs", workspace, "rustc").verdict is Verdict.ALLOW


def test_dq9_a_debian_venvs_dist_packages(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "printf 'import os\\n' | tee .venv/lib/python3.11/dist-packages/x.pth"
    assert scan_judge(line, workspace, "tee").verdict is Verdict.ASK
    assert scan_judge("echo x | tee .venv/notes.txt", workspace, "tee").verdict is Verdict.ALLOW


def test_dq10_an_openssl_configuration_of_the_workspace(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    for conf in ("./o.cnf", f"{workspace}/o.cnf"):
        assert _decide("npm --version", workspace, _env(tmp_path, OPENSSL_CONF=conf)) is Verdict.ASK
    outside = _env(tmp_path, OPENSSL_CONF="/etc/ssl/openssl.cnf")
    assert _decide("npm --version", workspace, outside) is Verdict.ALLOW


def test_dq11_rustc_l_through_a_library_path_of_the_workspace(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "rustc -l dylib:+verbatim=z.ld main.rs"
    env = _env(tmp_path, LIBRARY_PATH=str(workspace))
    assert _decide(line, workspace, env, "rustc") is Verdict.ASK
    assert _decide(line, workspace, _env(tmp_path, LIBRARY_PATH="/usr/lib"), "rustc") is (
        Verdict.ALLOW
    )


def test_dq12_dq13_ordinary_compiles_stay_approved(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _write(workspace, {"v2.c": '#include <stdio.h>\n#define CONF "/etc/myapp/config.ini"\n'
                               "int main(void) { puts(CONF); }\n"})  # fmt: skip
    for line in ("gcc -O2 -o v2 v2.c", "gcc v2.c -c -DNDEBUG", "gcc -DBUILD=1 -UDEBUG -c v2.c"):
        decision = scan_judge(line, workspace, "gcc")
        assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_dq14_a_shell_wrapper_that_execs_npm(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    wrapper = tmp_path / "wrapbin" / "npm"
    wrapper.parent.mkdir()
    wrapper.write_text('#!/bin/sh\nexec /usr/bin/npm "$@"\n')
    wrapper.chmod(0o755)
    env = _env(tmp_path, PATH=f"{wrapper.parent}:/usr/bin:/bin", NODE_OPTIONS="--require ./x.js")
    assert _decide("npm --version", workspace, env) is Verdict.ASK
