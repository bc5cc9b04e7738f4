"""Node, Ruby and the JVM in the environment an agent's runtime passes: variables that
make every program of a language load a file the workspace holds (`NODE_OPTIONS`'s
preloads, `NODE_PATH`, `RUBYOPT`, `RUBYLIB`, gem folders, `JAVA_TOOL_OPTIONS`' agents).
`npm --version`, which the default ruleset allows, ran `NODE_OPTIONS=--require ./x.js`
of the working folder; `java --version` a `-javaagent:` jar of the workspace.

Each case shows the effect with the real program first, then the decision; the same
setting pointing outside the workspace (the user's own) stays allowed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace

from policylang import Verdict, load_policy
from policylang.engine.evaluate import _jvm_option_paths, _node_preloads, _ruby_option_paths


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", **more}


def _run(line: str, workspace: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line], cwd=workspace, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip


def _verdict(line: str, workspace: Path, env: dict[str, str], *approved: str) -> Verdict:
    policy = load_policy()
    for rule in approved:
        policy.approvals.add(rule, persist=False)
    decision = policy.evaluate(line, workspace=str(workspace), env=env)
    return decision.verdict


def _need(program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"`{program}` is not installed (scripts/system-deps.sh installs it)")


def _marker_code(marker: Path) -> str:
    return f"require('fs').writeFileSync({str(marker)!r}, 'x')\n"


# ------------------------------------------------------------------------------- node


@pytest.mark.parametrize(
    ("options", "planted"),
    [("--require ./x.js", "x.js"), ("-r ./x.js", "x.js"),
     ("--import=./x.mjs", "x.mjs"), ("--require={ws}/x.js", "x.js"),
     ("--import file://{ws}/x.mjs", "x.mjs"), ("--experimental_loader ./x.mjs", "x.mjs"),
     ("--require pre", "node_modules/pre/index.js"),
     ("--require @org/pre/register", "node_modules/@org/pre/register.js")],
)  # fmt: skip
def test_node_options_preloading_a_module_of_the_workspace(
    tmp_path: Path, options: str, planted: str
) -> None:
    _need("npm")
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    module = workspace / planted
    module.parent.mkdir(parents=True, exist_ok=True)
    code = _marker_code(marker)
    if planted.endswith(".mjs"):
        code = f"import fs from 'fs'; fs.writeFileSync({str(marker)!r}, 'x');\n"
    module.write_text(code)
    env = _env(tmp_path, NODE_OPTIONS=options.format(ws=workspace))
    if "loader" not in options:  # (a loader runs in its own thread, maybe after exit)
        result = _run("npm --version", workspace, env)
        assert marker.exists(), result.stderr  # the real npm ran the workspace's module
    assert _verdict("npm --version", workspace, env) is Verdict.ASK
    assert _verdict("node --version", workspace, env) is Verdict.ASK
    # not a node program; and the same options without the workspace's module
    assert _verdict("ls", workspace, env) is Verdict.ALLOW
    outside = _env(tmp_path, NODE_OPTIONS="--require /opt/pre.js --max-old-space-size=4096")
    assert _verdict("npm --version", workspace, outside) is Verdict.ALLOW
    assert _verdict("npm --version", workspace, _env(tmp_path)) is Verdict.ALLOW


def test_a_bare_preload_the_workspace_does_not_hold_is_the_users(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    env = _env(tmp_path, NODE_OPTIONS="--require some-global-tool/register")
    assert _verdict("npm --version", workspace, env) is Verdict.ALLOW
    (workspace / "node_modules" / "some-global-tool").mkdir(parents=True)
    assert _verdict("npm --version", workspace, env) is Verdict.ASK
    # a later `cd` moves the folders node looks in
    (workspace / "sub").mkdir()
    assert _verdict("cd sub && npm --version", workspace, env) is Verdict.ASK


def test_node_path_into_the_workspace(tmp_path: Path) -> None:
    _need("npm")
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    (workspace / "np" / "pre").mkdir(parents=True)
    (workspace / "np" / "pre" / "index.js").write_text(_marker_code(marker))
    env = _env(tmp_path, NODE_PATH="np", NODE_OPTIONS="--require pre")
    _run("npm --version", workspace, env)
    assert marker.exists()
    assert _verdict("npm --version", workspace, env) is Verdict.ASK
    for node_path in ("np", f"/opt/x:{workspace}/np"):
        env = _env(tmp_path, NODE_PATH=node_path)
        assert _verdict("npm --version", workspace, env) is Verdict.ASK, node_path
    # an entry without modules, and one outside the workspace, hold
    (workspace / "empty").mkdir()
    env = _env(tmp_path, NODE_PATH=f"empty:/usr/lib/node_modules:{tmp_path}/np")
    assert _verdict("npm --version", workspace, env) is Verdict.ALLOW


def test_node_preloads_are_read_as_node_reads_them() -> None:
    assert _node_preloads("--max-old-space-size=4096 --enable-source-maps") == []
    assert _node_preloads("-r a --require=b --import c --loader=d --openssl-config e") == [
        "a", "b", "c", "d", "e"
    ]  # fmt: skip
    assert _node_preloads("--experimental_loader=./l.mjs") == ["./l.mjs"]
    assert _node_preloads("--import file:///w/a%20b.mjs --import data:text/javascript,1") == [
        "/w/a b.mjs"
    ]  # fmt: skip
    # node's own quoting is not read: the value is one relative entry (which asks)
    assert _node_preloads('--require "./a b.js"') == ['--require "./a b.js"']


# ------------------------------------------------------------------------------- ruby


def test_rubyopt_and_rubylib_into_the_workspace(tmp_path: Path) -> None:
    _need("ruby")
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    code = f"File.write({str(marker)!r}, 'x')\n"
    (workspace / "evil.rb").write_text(code)
    (workspace / "rl").mkdir()
    (workspace / "rl" / "rubygems.rb").write_text(code)
    for setting in ({"RUBYOPT": "-w -r./evil"}, {"RUBYOPT": "-wIrl"}, {"RUBYLIB": "rl"}):
        env = _env(tmp_path, **setting)
        marker.unlink(missing_ok=True)
        _run("ruby -e 1", workspace, env)
        assert marker.exists(), setting  # the real ruby ran the workspace's file
        assert _verdict("ruby --version", workspace, env) is Verdict.ASK, setting
        assert _verdict("gem list", workspace, env, "gem list") is Verdict.ASK, setting
        assert _verdict("ls", workspace, env) is Verdict.ALLOW
    for setting in ({"RUBYOPT": "-w -rjson --disable-gems"}, {"RUBYLIB": "/usr/lib/ruby:"}):
        env = _env(tmp_path, **setting)
        assert _verdict("ruby --version", workspace, env) is Verdict.ALLOW, setting
        assert _verdict("gem list", workspace, env, "gem list") is Verdict.ALLOW, setting


def test_a_gem_folder_of_the_workspace(tmp_path: Path) -> None:
    _need("ruby")
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    folder = workspace / "vendor" / "gems"
    (folder / "specifications").mkdir(parents=True)
    (folder / "specifications" / "did_you_mean-99.0.gemspec").write_text(
        f"File.write({str(marker)!r}, 'x')\n"
        'Gem::Specification.new { |s| s.name = "did_you_mean"; s.version = "99.0" }\n'
    )
    for variable in ("GEM_PATH", "GEM_HOME"):
        env = _env(tmp_path, **{variable: "vendor/gems"})
        marker.unlink(missing_ok=True)
        _run("ruby -e 1", workspace, env)
        assert marker.exists(), variable  # rubygems evaluated the workspace's gemspec
        assert _verdict("gem list", workspace, env, "gem list") is Verdict.ASK, variable
        env = _env(tmp_path, **{variable: f"{tmp_path}/elsewhere:/var/lib/gems/3.1.0"})
        assert _verdict("gem list", workspace, env, "gem list") is Verdict.ALLOW, variable


def test_rubyopt_is_read_as_ruby_reads_it() -> None:
    assert _ruby_option_paths("-w -W2 --disable-gems -rjson") == []
    found = _ruby_option_paths("-I lib -Isrc -wIx -r./a -r /w/b")
    assert found == ["lib", "src", "x", "./a", "/w/b"]
    assert _ruby_option_paths("Ilib -E utf-8") == []  # (no dash: ruby ignores it)


# -------------------------------------------------------------------------------- JVM


def test_a_java_agent_of_the_workspace(tmp_path: Path) -> None:
    _need("javac")
    _need("jar")
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    source = workspace / "A.java"
    source.write_text(
        "public class A { public static void premain(String a) throws Exception {"
        f' new java.io.File("{marker}").createNewFile(); }} }}\n'
    )
    (workspace / "m.txt").write_text("Premain-Class: A\n")
    subprocess.run(["javac", "A.java"], cwd=workspace, check=True, timeout=120)
    subprocess.run(["jar", "cfm", "a.jar", "m.txt", "A.class"], cwd=workspace, check=True)
    env = _env(tmp_path, JAVA_TOOL_OPTIONS="-Xmx512m -javaagent:a.jar")
    _run("java --version", workspace, env)
    assert marker.exists()  # the real JVM ran the workspace's agent
    assert _verdict("java --version", workspace, env) is Verdict.ASK
    for setting in ({"JDK_JAVA_OPTIONS": f"-javaagent:{workspace}/a.jar=x"},
                    {"_JAVA_OPTIONS": "@opts"}, {"JAVA_TOOL_OPTIONS": "-cp :/opt/x"}):  # fmt: skip
        verdict = _verdict("java --version", workspace, _env(tmp_path, **setting))
        assert verdict is Verdict.ASK, setting
    outside = _env(tmp_path, JAVA_TOOL_OPTIONS="-Xmx1g -javaagent:/opt/agent.jar -Dx=y")
    assert _verdict("java --version", workspace, outside) is Verdict.ALLOW
    assert _verdict("ls", workspace, env) is Verdict.ALLOW


def test_jvm_options_are_read_for_the_files_they_load() -> None:
    assert _jvm_option_paths("-Xmx1g -XX:+UseG1GC -Dfile.encoding=UTF-8") == []
    assert _jvm_option_paths(
        "-javaagent:a.jar=opt -agentpath:/l/x.so -Xbootclasspath/a:b:c @f "
        "-XX:Flags=.hotspotrc -cp :d -Djava.library.path=/e"
    ) == ["a.jar", "/l/x.so", "b", "c", "f", ".hotspotrc", ".", "d", "/e"]
    assert _jvm_option_paths("-Dx='a b'") == ["-Dx='a b'"]  # (quoting: taken whole)


_PROCESSOR = """\
import java.util.Set;
import javax.annotation.processing.*;
import javax.lang.model.element.TypeElement;
@SupportedAnnotationTypes("*")
public class P extends AbstractProcessor {
    public boolean process(Set<? extends TypeElement> a, RoundEnvironment r) {
        try { new java.io.File("MARKER").createNewFile(); } catch (Exception e) { }
        return false;
    }
}
"""


def test_an_approved_javac_runs_the_processors_its_class_path_holds(tmp_path: Path) -> None:
    # javac runs the annotation processors a folder or jar of its class path (the working
    # folder by default) names in its service file, Lombok's way, unless `-proc:none`
    _need("javac")
    _need("jar")
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    build = tmp_path / "build"
    build.mkdir()
    (build / "P.java").write_text(_PROCESSOR.replace("MARKER", str(marker)))
    subprocess.run(["javac", "P.java"], cwd=build, check=True, timeout=120)
    services = workspace / "META-INF" / "services"
    services.mkdir(parents=True)
    (services / "javax.annotation.processing.Processor").write_text("P\n")
    (workspace / "P.class").write_bytes((build / "P.class").read_bytes())
    (workspace / "Foo.java").write_text("public class Foo {}\n")
    env = _env(tmp_path)
    _run("javac Foo.java", workspace, env)
    assert marker.exists()  # the real javac ran the workspace's processor
    exact = f"javac {workspace}/Foo.java"  # (the suggestion: the file's absolute path)
    assert _verdict("javac Foo.java", workspace, env, exact) is Verdict.ASK
    # in a jar on the class path, named or by a folder's `*`
    (workspace / "lib").mkdir()
    subprocess.run(["jar", "cf", "lib/proc.jar", "META-INF", "P.class"], cwd=workspace, check=True)
    for files in ("META-INF", "P.class"):
        shutil.rmtree(workspace / files) if files == "META-INF" else (workspace / files).unlink()
    policy = load_policy()
    policy.approvals.add(exact, persist=False)
    decision = policy.evaluate("javac Foo.java", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    for line in ("javac -cp lib/proc.jar Foo.java", "javac --class-path=lib/* Foo.java"):
        assert _verdict(line, workspace, env, "javac") is Verdict.ASK, line
    assert _verdict("javac Foo.java", workspace, {**env, "CLASSPATH": "lib/proc.jar"}, "javac") is (
        Verdict.ASK
    )
    # (`-proc:none` stops processors, not plugins, which a jar's services name too:
    # review DQ2; and the last `-proc:` counts)
    line = "javac -proc:none -cp lib/proc.jar Foo.java"
    assert _verdict(line, workspace, env, "javac") is Verdict.ASK
    # a file of more options may name a processor path or JVM options
    assert _verdict("javac @opts Foo.java", workspace, env, "javac") is Verdict.ASK


# ------------------------------------------------------------------ shell wrappers


def test_a_shell_wrapper_that_execs_python_is_a_python_program(tmp_path: Path) -> None:
    # gcloud's `bin/gcloud` is a `#!/bin/sh` script that ends in `exec "$CLOUDSDK_PYTHON"
    # … lib/gcloud.py`: the environment's PYTHONPATH reaches it as any Python program
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    (workspace / "src").mkdir()
    (workspace / "src" / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    sdk = tmp_path / "sdk"
    (sdk / "lib").mkdir(parents=True)
    (sdk / "lib" / "tool.py").write_text("print('tool ran')\n")
    wrapper = sdk / "bin" / "cloudtool"
    wrapper.parent.mkdir()
    wrapper.write_text(
        "#!/bin/sh\n# a launcher\nCLOUDSDK_PYTHON=python3\n"
        f'exec "$CLOUDSDK_PYTHON" "{sdk}/lib/tool.py" "$@"\n'
    )
    wrapper.chmod(0o755)
    env = _env(tmp_path, PATH=f"{sdk}/bin:/usr/bin:/bin", PYTHONPATH="src")
    result = _run("cloudtool config list", workspace, env)
    assert "tool ran" in result.stdout
    assert marker.exists()
    assert _verdict("cloudtool config list", workspace, env, "cloudtool config") is Verdict.ASK
    env.pop("PYTHONPATH")
    assert _verdict("cloudtool config list", workspace, env, "cloudtool config") is (Verdict.ALLOW)
