"""Residuals of review AG and AF, and reviews AH and AI (3 December 2026, fourth session):
approvals that let a renamed program, a runner's script or a program's own path syntax
do more than was approved, and what the reviews of that day found.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import scan_policy

from policylang.decision import Decision, Verdict
from policylang.engine.policy import load_policy

A, Q, D = Verdict.ALLOW, Verdict.ASK, Verdict.DENY


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / "src").mkdir(parents=True)
    (ws / "x.py").write_text("print(1)\n")
    (ws / "x.c").write_text("int main(void){return 0;}\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x.py").write_text("print(2)\n")
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=FAKE\n")
    (home / ".bashrc").write_text("# rc\n")
    return ws, home


def _decide(
    places: tuple[Path, Path], command: str, *approved: str, cwd: Path | None = None
) -> Decision:
    ws, home = places
    # (the policy that lets compilers be approved: the shipped one asks for any compile)
    policy = scan_policy()
    for rule in approved:
        policy.approvals.add(rule.replace("WS", str(ws)), persist=False)
    return policy.evaluate(
        command.replace("HOME", str(home)), workspace=ws, cwd=cwd or ws, env={"HOME": str(home)}
    )


@pytest.mark.parametrize(
    ("approved", "command", "expected"),
    [
        # AG2: a versioned, cross or standard-named compiler is the compiler it renames:
        # that compiler's asks hold under an approval of the new name
        ("gcc-12", "gcc-12 -wrapper sh,-c,'touch pwned' x.c", Q),
        ("gcc-12", "gcc-12 -O2 -c x.c", A),
        ("c99", "c99 -B./ev/ x.c", Q),
        ("c99", "c99 -o x x.c", A),
        ("c89-gcc", "c89-gcc @opts x.c", Q),
        ("x86_64-linux-gnu-gcc", "x86_64-linux-gnu-gcc -fplugin=./evil.so x.c", Q),
        ("x86_64-linux-gnu-gcc-12", "x86_64-linux-gnu-gcc-12 -Wl,-plugin,./e.so x.c", Q),
        ("arm-none-eabi-gcc", "arm-none-eabi-gcc --plugin=./e.so x.c", Q),
        ("clang-16", "clang-16 -fplugin=./evil.so x.c", Q),
        ("clang-16", "clang-16 -c x.c", A),
        ("go1.22.1 build", "go1.22.1 build -toolexec=./x .", Q),
        ("go1.22.1 build", "go1.22.1 build ./...", A),
    ],
)
def test_renamed_programs_keep_their_asks(
    places: tuple[Path, Path], approved: str, command: str, expected: Verdict
) -> None:
    decision = _decide(places, command, approved)
    assert decision.verdict is expected, decision.explain()


@pytest.mark.parametrize(
    "command",
    ["gcc-12 x.c", "c99 x.c", "x86_64-linux-gnu-gcc-12 x.c", "clang-16 -c x.c"],
)
def test_renamed_programs_are_suggested_by_their_own_name(
    places: tuple[Path, Path], command: str
) -> None:
    # a renamed program is not its base for allows: nothing of `gcc`'s readonly rules
    # reaches `gcc-12`, and the prefix offered is the name as run
    decision = _decide(places, command)
    assert decision.verdict is Q, decision.explain()
    assert decision.suggested_rule == command.split()[0]


def test_renamed_interpreter_is_not_a_renamed_allow(places: tuple[Path, Path]) -> None:
    # `diff3 --diff-program=PROG` runs PROG: `diff`'s read-only rule must not reach it
    decision = _decide(places, "diff3 --diff-program=./evil a b c")
    assert decision.verdict is not A, decision.explain()


@pytest.mark.parametrize(
    "command",
    [
        "uv run python3 x.py",
        "poetry run python x.py",
        "uv run x.py",
        "pdm run python x.py",
        "uv run ./x.py",
    ],
)
def test_runner_scripts_are_anchored(
    places: tuple[Path, Path], command: str, tmp_path: Path
) -> None:
    # AG4: approved in one folder, a runner's script was approved in every folder
    ws, _home = places
    first = _decide(places, command)
    assert first.verdict is Q, first.explain()
    assert first.suggested_rule is not None
    assert f"{ws}/x.py" in first.suggested_rule, first.suggested_rule
    assert _decide(places, command, first.suggested_rule).verdict is A
    # another folder of the workspace: another script, offered by where it is
    (ws / "src" / "x.py").write_text("print(3)\n")
    elsewhere = _decide(places, command, first.suggested_rule, cwd=ws / "src")
    assert elsewhere.verdict is Q, elsewhere.explain()
    assert elsewhere.suggested_rule is not None
    assert str(ws / "src" / "x.py") in elsewhere.suggested_rule
    # outside the workspace no approval holds, and none is offered (AH5)
    outside = _decide(places, command, first.suggested_rule, cwd=tmp_path / "other")
    assert outside.verdict is Q, outside.explain()
    assert outside.suggested_rule is None


def test_anchored_runner_approval_matches_as_written(places: tuple[Path, Path]) -> None:
    # an approval written with the absolute script matches the relative spelling there
    decision = _decide(places, "uv run python3 x.py", "uv run python3 WS/x.py")
    assert decision.verdict is A, decision.explain()


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # AF4: paths inside ffmpeg's own syntax (concat protocol, tee muxer)
        ("ffmpeg -f data -i 'concat:a.txt|HOME/.aws/credentials' -f data -", D),
        ("ffmpeg -f data -i 'concat:a.txt|~/.aws/credentials' -f data -", D),
        ("ffmpeg -i a.mp4 -f tee '[f=mp4]x.mp4|[f=data]HOME/.bashrc'", D),
        ("ffmpeg -i cache:HOME/.aws/credentials out.mp4", D),
        # separators of a program's syntax before a path that is not protected: no ask
        ("ffmpeg -i a.mp4 -vf 'scale=1:2,crop=2:2' out.mp4", A),
        # inside a word only protected paths count: `s|/usr/local|/opt|` names no file
        ("ffmpeg -i 'concat:a.mp4|/usr/share/b.mp4' out.mp4", A),
        ("ffmpeg -i a.mp4 -metadata 'comment=x|/usr/local|/opt' out.mp4", A),
    ],
)
def test_paths_in_a_programs_own_syntax(
    places: tuple[Path, Path], command: str, expected: Verdict
) -> None:
    decision = _decide(places, command, "ffmpeg")
    assert decision.verdict is expected, decision.explain()


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # AG8: the prefetch task fetches every remote, like `git fetch --all`
        ("git maintenance run --task=prefetch", D),
        ("git maintenance run --task=gc", D),  # the task may come from configuration
    ],
)
def test_git_maintenance_is_a_remote_verb(
    places: tuple[Path, Path], command: str, expected: Verdict
) -> None:
    ws, home = places
    (home / ".config" / "op").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    with open(ws / ".git" / "config", "a") as handle:
        handle.write(f'[remote "up"]\n\turl = {home}/.config/op\n')
    policy = load_policy()
    policy.approvals.add("git maintenance run", persist=False)
    decision = policy.evaluate(command, workspace=ws, env={"HOME": str(home)})
    assert decision.verdict is expected, decision.explain()
    (ws / ".git" / "config").write_text("[core]\n\tbare = false\n")
    assert policy.evaluate(command, workspace=ws, env={"HOME": str(home)}).verdict is A


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # AI1: the output of a substitution that bash evaluates as arithmetic or as a
        # variable name runs the `$(…)` of an array subscript it holds
        ("echo $(( $(tr x '$' <<< 'a[x(touch pwned)]') ))", Q),
        ("(( $(tr x '$' <<< 'a[x(touch pwned)]') ))", Q),
        ("for (( i=$(tr x '$' <<< 'a[x(touch pwned)]'); i<0; )); do :; done", Q),
        ("[[ 1 -lt $(tr x '$' <<< 'a[x(touch pwned)]') ]]", Q),
        ("[[ $(printf %s 'a') -eq 1 ]]", Q),
        ("[[ -v $(tr x '$' <<< 'a[x(touch pwned)]') ]]", Q),
        ("test -v \"$(tr x '$' <<< 'a[x(touch pwned)]')\"", Q),
        ('[ -v "$(printf a)" ]', Q),
        ("echo $[ $(tr x '$' <<< 'a[x(touch pwned)]') ]", Q),
        ("echo $(( `tr x '$' <<< 'a[x(touch pwned)]'` ))", Q),
        ('echo "$(( 1 + $(base64 -d <<< YQ==) ))"', Q),
        ("echo $(( $(< a.txt) ))", Q),
        ("let x=$(cat a.txt)", Q),
        # substitutions that can print nothing but a number
        ("echo $(( $(wc -l < a.txt) + 1 ))", A),
        ("echo $(( $(cat a.txt | wc -l) * 2 ))", A),
        ("echo $(( $(nproc) / 2 ))", A),
        ("[[ $(id -u) -eq 0 ]]", A),
        ("echo $(( (1 + 2) * 3 ))", A),
        ("echo $(( ($(date -ud '2003-08-02 17:24' +'%s') - $(date +%s)) / 60 ))", A),
        ('echo $(( $(date -d "$(cat a.txt)" +%s) ))', Q),
        # AI2: bash ends this here-document at `E\F`; tree-sitter read `EF`: the mismatch
        # asked; since review AZ6 the line's pieces are read on their own, so the `cat
        # ~/.aws/credentials` bash runs after the body is denied
        ("cat <<'E\\F'\nx\nE\\F\ncat ~/.aws/credentials\nEF", D),
        ("cat <<-'E\\aF'\nx\nE\\aF\nid\nEaF", Q),
        ("cat <<'EOF'\nx\nEOF", A),
        # AI3: bash drops NUL bytes from what it reads: `cat .e\0nv` reads `.env`
        ("cat .e\x00nv", D),
        ("cat ~/.a\x00ws/credentials", D),
        ("ls\x00", Q),
    ],
)
def test_what_bash_evaluates_or_reads_differently(
    places: tuple[Path, Path], command: str, expected: Verdict
) -> None:
    (places[0] / "a.txt").write_text("1\n")
    (places[0] / ".env").write_text("API_KEY=FAKE\n")
    decision = _decide(places, command)
    assert decision.verdict is expected, decision.explain()


def test_the_policys_own_files_are_not_writable(tmp_path: Path) -> None:
    # AH4: with `tee` approved, `tee -a approvals.toml` let the agent approve itself
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    (ws / "team.policy").write_text("allow cowsay **\n")
    approvals = ws / "state" / "approvals.toml"  # (`.policylang/**` is protected anyway)
    policy = load_policy(extra=[ws / "team.policy"], approvals=approvals)
    policy.approvals.add("tee", persist=True)
    env = {"HOME": str(home)}

    def verdict(command: str) -> Verdict:
        return policy.evaluate(command, workspace=ws, env=env).verdict

    assert approvals.exists()
    assert verdict("tee notes.txt") is A
    for command in (
        "tee -a state/approvals.toml",
        "echo '\"bash\",' | tee -a state/approvals.toml",
        "tee team.policy",
        "cowsay x > team.policy",
        "cowsay x > state/.approvals.toml.tmp",
        f"rm -rf {ws}/state",
        f"tee {policy.input_files[0]}",  # the shipped default ruleset itself
    ):
        assert verdict(command) is D, command
    # moving the folder that holds it away asks; reading it is fine
    assert verdict("mv state old") is Q
    assert verdict("cat state/approvals.toml") is A
    (ws / "link").symlink_to(ws / "state")
    assert verdict("tee -a link/approvals.toml") is D


_REVIEW_AH: list[tuple[str, str, Verdict]] = [
    # AH1: rustc names the linker to run and passes gcc's `-wrapper` on
    ("rustc", "rustc x.rs -C link-arg=-wrapper -C link-arg=sh,-c,id", Q),
    ("rustc", "rustc x.rs -Clink-args='-wrapper sh,-c,id'", Q),
    ("rustc", "rustc x.rs -C linker=sh", Q),
    ("rustc", "rustc x.rs -Z codegen-backend=./evil.so", Q),
    ("rustc", "rustc x.rs -o x", A),
    ("cargo rustc", "cargo rustc -- -C linker=sh", Q),
    ("cargo rustc", "timeout 5 cargo rustc -- -C link-arg=-wrapper", Q),
    ("zig cc", "zig cc -wrapper sh,-c,id x.c", Q),
    ("zig cc", "zig cc -fplugin=./evil.so x.c", Q),
    ("zig cc", "zig cc -O2 x.c", A),
    # the linker's external linker and its flags (AG5)
    ("go build", "go build -ldflags=-extld=./x.sh ./...", Q),
    ("go build", "go build -ldflags '-linkmode external -extld ./x.sh' .", Q),
    ("go build", "go build '-ldflags=-extldflags=-wrapper=sh,-c,id' .", Q),
    ("go build", "go build -ldflags=-extar=./x ./...", Q),  # review AP8
    ("go build", "go build -ldflags '-cpuprofile ~/.bashrc' .", Q),
    ("go build", "go build '-gcflags=all=-cpuprofile=/tmp/x' .", Q),
    ("go build", "go build -ldflags='-s -w -X main.v=1' ./...", A),
    ("go build", "go build -o bin/app -gcflags='all=-N -l' ./cmd", A),
    # review AP6: `-init FILE` runs the file's dot commands before `-version` prints
    ("sqlite3", "sqlite3 -init x.sql -version", Q),
    ("sqlite3", "sqlite3 -cmd '.shell id' --version", Q),
    # AH2: options and words that hand the approved program code to run
    ("exiftool", "exiftool -if 'system(\"id\")' x.jpg", Q),
    ("exiftool", "exiftool -p '${filename;system(\"id\")}' x.jpg", Q),
    ("exiftool", "exiftool -All= x.jpg", A),
    ("gs", "gs -dBATCH -sOutputFile='%pipe%id' x.pdf", Q),
    ("gs", "gs -dNOSAFER -c '(x) (r) file' -c quit", Q),
    ("gs", "gs -dBATCH -sOutputFile=out.pdf x.pdf", A),
    ("latexmk", "latexmk -e 'system(\"id\")' x.tex", Q),
    ("latexmk", 'latexmk -pdf -pdflatex="sh -c id" x.tex', Q),
    ("latexmk", "latexmk -pdf x.tex", A),
    ("pylint", "pylint --init-hook='import os; os.system(\"id\")' x.py", Q),
    ("pylint", "pylint x.py", A),
    ("sox", "sox '|sh -c id' out.wav", Q),
    ("sox", "sox x.wav y.wav", A),
    ("pdflatex", "pdflatex -shell-escape x.tex", Q),
    ("pdflatex", "pdflatex x.tex", A),
    ("rake", "rake -e 'system(\"id\")'", Q),
    ("convert", "convert '|sh -c id' out.png", Q),
    # AH3: verbs and options of build tools that run any command
    ("ctest", "ctest --build-and-test a b --build-generator Ninja --test-command sh -c id", Q),
    ("ctest", "ctest -j4", A),
    ("just", "just --command id", Q),
    ("just", "just --shell sh --shell-arg -c x", Q),
    ("just test", "just test", A),
    ("meson", "meson devenv sh -c id", Q),
    ("meson test", "meson test --wrapper='sh -c id'", Q),
    ("stack", "stack exec -- sh -c id", Q),
    ("opam", "opam exec -- sh -c id", Q),
    ("cabal", "cabal exec -- sh -c id", Q),
    ("stack build", "stack build --exec 'sh -c id'", Q),
    ("mix", "mix run -e 'System.cmd(\"id\",[])'", Q),
    ("mix", "mix eval 'x'", Q),
    ("sbt", "sbt 'eval 1'", Q),
    ("nim", "nim --eval:'exec \"id\"'", Q),
    ("pre-commit run", "pre-commit run -c other.yaml", Q),
    # AH7: shell builtins that load or run
    ("enable", "enable -f ./evil.so foo", Q),
    ("complete", "complete -C 'rm -rf ~' ls", Q),
    ("bind", "bind -x '\"\\C-a\":id'", Q),
    # AH6: an approved target is that target
    ("make test", "make test deploy", Q),
    ("make test", "make test -j 4", A),
    ("mvn compile", "mvn compile deploy", Q),
    ("mvn compile", "mvn compile exec:exec -Dexec.executable=sh", Q),
    ("mvn compile", "mvn compile -pl core -DskipTests", A),
    ("gradle test", "gradle test publish", Q),
    ("gradle test", "gradle test --tests Foo", A),
    ("gradle test", "gradle test --init-script init.gradle", Q),
    ("mvn install", "mvn install -s settings.xml", Q),
    # AH8: options that run a file the agent may have planted
    ("pandoc", "pandoc -L evil.lua in.md", Q),
    ("pandoc", "pandoc --filter=./evil in.md", Q),
    ("pandoc", "pandoc in.md -o out.html", A),
    ("ld", "ld -plugin ./evil.so x.o", Q),
    ("javac", "javac -processorpath . -processor Evil X.java", Q),
    ("javac", "javac -J-javaagent:evil.jar X.java", Q),
    ("javac", "javac -d out X.java", A),
    ("cmake ..", "cmake .. -P x.cmake", Q),
    ("ninja", "ninja -f other.ninja", Q),
    ("task", "task --taskfile other.yml", Q),
]


_REVIEW_AJ: list[tuple[str, str, Verdict]] = [
    # AJ4: renamed programs without a version in their name
    ("gmake test", "gmake test --eval='x:=${shell id}'", Q),
    ("gmake test", "gmake test SHELL=sh", Q),
    ("gmake test", "gmake test", A),
    ("cpp", "cpp -wrapper sh,-c,id x.c", Q),
    ("cpp", "cpp x.c", A),
    ("gfortran", "gfortran -fplugin=./e.so x.f", Q),
    ("clang-cpp-16", "clang-cpp-16 -fplugin=./e.so x.c", Q),
    ("x86_64-w64-mingw32-gcc-win32", "x86_64-w64-mingw32-gcc-win32 -wrapper sh,-c,id x.c", Q),
    ("x86_64-linux-gnu-cpp-12", "x86_64-linux-gnu-cpp-12 -wrapper sh,-c,id x.c", Q),
    # AJ5: other spellings of the options that run code
    ("exiftool", "exiftool -IF 'qx{id}' x.jpg", Q),
    ("exiftool", "exiftool -If6 x x.jpg", Q),
    ("exiftool", "exiftool -PrintFormat fmt x.jpg", Q),
    ("exiftool", "exiftool -CONFIG cfg x.jpg", Q),
    ("latexmk", "latexmk -pdf --pdflatex='touch x; false %O %S' d.tex", Q),
    ("latexmk", "latexmk --e 'qx{id}' -pdf d.tex", Q),
    ("pdflatex", "pdflatex -interaction=batchmode -shell-esc t.tex", Q),
    ("pdflatex", "pdflatex -cnf-line=shell_escape=t t.tex", Q),
    ("pdflatex", "pdflatex -interaction=batchmode t.tex", A),
    ("rustc", "rustc x.rs @args", Q),
    ("rustc", "rustc -Clinker=sh x.rs", Q),
    ("cargo rustc", "cargo rustc -- -C link-args=-x", Q),
    # AJ11: the everyday spellings stay approvable
    ("exiftool", "exiftool -gps:all= a.jpg", A),
    ("exiftool", "exiftool -progress a.jpg", A),
    ("rustc", "rustc -C opt-level=3 x.rs", A),
    ("cargo rustc", "cargo rustc -- -C target-cpu=native", A),
    # AJ7, AJ8
    ("pandoc", "pandoc -t w.lua in.md", Q),
    ("pandoc", "pandoc -d d.yaml in.md", Q),
    ("pandoc", "pandoc in.md -t html", A),
    ("ctest", "ctest -T memcheck --overwrite MemoryCheckCommand=./mc.sh", Q),
    ("cabal build", "cabal build --with-compiler=sh", Q),
    ("nim c", "nim c --passC:-wrapper x.nim", Q),
    ("meson setup", "meson setup build --native-file evil.ini", Q),
    ("mix do", "mix do eval 'x'", Q),
    ("sbt", "sbt test '< script.sbt'", Q),
    ("rake", "rake --rakelib D", Q),
    ("pylint", "pylint --output-format=evil.Reporter x.py", Q),
    ("mvn compile", "mvn compile -Dmaven.ext.class.path=evil.jar", Q),
    ("gradle test", "gradle test -Dorg.gradle.jvmargs=-javaagent:x.jar", Q),
    # AJ3: relative, quoted and escaped paths in a program's own syntax
    ("ffmpeg", "ffmpeg -f data -i 'concat:x.py|../home/.aws/credentials' -f data o.bin", D),
    ("ffmpeg", "ffmpeg -i a.wav -f tee '[f=u8]../home/.bashrc' -y", D),
    ("ffmpeg", "ffmpeg -i x -vf \"drawtext=textfile='HOME/.aws/credentials'\" o.png", D),
    ("ffmpeg", "ffmpeg -i a.wav -af 'amovie=..\\/home/.aws/credentials' o.mp4", D),
    ("ffmpeg", "ffmpeg -i a.wav -f tee '[f=data]file\\:HOME/.bashrc'", D),
    ("ffmpeg", "ffmpeg -i a.mp4 -vf \"subtitles='./subs/a.srt'\" o.mp4", A),
    # AJ9: `getconf` can print a name, which arithmetic evaluates
    ("getconf", "echo $(( $(getconf TZNAME_MAX) ))", Q),
    # AJ10: goals given together are offered and approved together
    ("mvn clean package", "mvn clean package -DskipTests", A),
    # (review GP8: `gradle dependencies` runs the build scripts and asks with no offer)
    ("gradle test", "gradle test --tests com.x.YTest", A),
    ("gradle dependencies", "gradle dependencies --configuration implementation", Q),
    ("make test", "make test -l 2.5", A),
    ("task build", "task build -- --x", A),
]


_REVIEW_AK: list[tuple[str, str, Verdict]] = [
    # AK1: exiftool builds output names from the input file's name or metadata
    ("exiftool", "exiftool -w! toml -b -Comment approvals.jpg", Q),
    ("exiftool", "exiftool -W! .%f/config -b -Comment git.jpg", Q),
    ("exiftool", "exiftool -o out.jpg a.jpg", A),
    ("exiftool", "exiftool -P -Comment=x a.jpg", A),  # `-P` keeps the date (AK10)
    ("exiftool", "exiftool -p- fmt a.jpg", Q),
    # AK2: the shorter forms of `-cnf-line`
    ("pdflatex", "pdflatex -cnf=shell_escape=t t.tex", Q),
    ("pdflatex", "pdflatex -cn=shell_escape=t t.tex", Q),
    ("xetex", "xetex -shell-escape t.tex", Q),
    # AK3: rustc reads `_` as `-` in its keys
    ("rustc", "rustc -C link_arg=-wrapper -C link_arg=/bin/sh,-c,id x.rs", Q),
    ("rustc", "rustc -C linker_flavor=gcc x.rs", Q),
    # AK5: `-D KEY=VALUE` as two words
    ("mvn compile", "mvn compile -D maven.ext.class.path=evil.jar", Q),
    ("mvn compile", "mvn compile --define maven.ext.class.path=evil.jar", Q),
    ("mvn compile", "mvn compile -Dmaven.compiler.executable=./w.sh", Q),
    ("gradle test", "gradle test -D org.gradle.jvmargs=-javaagent:x.jar", Q),
    ("gradle test", "gradle test --system-prop org.gradle.jvmargs=-x", Q),
    # AK6: a Lua writer by any name
    ("pandoc", "pandoc -t w.lua+smart in.md", Q),
    ("pandoc", "pandoc -t xlua in.md", Q),
    # AK8
    ("pylint", "pylint -f evil.Reporter x.py", Q),
    ("pylint", "pylint --output-format evil.Reporter x.py", Q),
    ("nim c", "nim c --pass_c:-wrapper x.nim", Q),
    ("nim c", "nim c --putenv:X=1 x.nim", Q),
    ("meson setup", "meson setup b -D c_args=-wrapper", Q),
    ("meson setup", "meson setup b --native=evil.ini", Q),
    ("rake", "rake --rakel=D", Q),
    ("sbt", "sbt -java-home /x test", Q),
    ("mix do", "mix do cmd id", Q),
]


_REVIEW_AL: list[tuple[str, str, Verdict]] = [
    # AL1: a value after `:` in an option word is a path too
    ("java", "java -Xloggc:HOME/.bashrc -version", D),
    ("nim c", "nim c --out:.git/hooks/pre-commit x.nim", D),
    ("nim c", "nim c -o:../home/.bashrc x.nim", D),
    ("dotnet build", "dotnet build --output:.git/hooks", D),
    ("dotnet build", "dotnet build -o:out", A),
    # AL2: programs that run the command in their operands
    ("logsave", "logsave log.txt sh -c id", Q),
    ("rustup run", "rustup run stable sh -c id", Q),
    ("pueue add", "pueue add -- sh -c id", Q),
    # AL3: tmux formats run shell commands
    ("tmux ls", "tmux ls -F '#(id)'", Q),
    ("tmux", "tmux display-message -p '#(id)'", Q),
    ("tmux", "tmux set-option -g default-command 'sh -c id'", Q),
    ("tmux ls", "tmux ls", A),
    # AL4: languages and REPLs the tables missed
    ("groff", "groff -U -ms x.ms", Q),
    ("groff", "groff -ms x.ms", A),
    ("mysql", "mysql -e 'system id'", Q),
    # (review BR11: database shells are never approvable, so even plain queries ask: the
    # client commands of a script on stdin or in a file cannot be read)
    ("mysql", "mysql -e 'select 1'", Q),
    ("psql", "psql db -c '\\! id'", Q),
    ("psql", "psql db -c 'select 1'", Q),
    ("mutt", "mutt -e 'set x' a@b.c", Q),
    ("crystal eval", "crystal eval 'puts 1'", Q),
    ("flask shell", "flask shell", Q),
]
_APPROVAL_CASES = _REVIEW_AH + _REVIEW_AJ + _REVIEW_AK + _REVIEW_AL


@pytest.mark.parametrize(("approved", "command", "expected"), _APPROVAL_CASES)
def test_approved_tools_do_not_run_what_they_are_handed(
    places: tuple[Path, Path], approved: str, command: str, expected: Verdict
) -> None:
    decision = _decide(places, command, approved)
    assert decision.verdict is expected, decision.explain()


@pytest.mark.parametrize(
    ("command", "offered"),
    [
        # AH3: a program no rule or arity entry knows is offered with its verb
        ("meson compile -C builddir", "meson compile"),
        ("opam install pkg", "opam install"),
        ("pre-commit run", "pre-commit run"),
        ("tldr tar", "tldr tar"),
        ("rustc main.rs", "rustc"),  # a file, not a verb
        ("mix eval 'x'", None),  # code: never approvable
        # false positives of review AH: verbs of an interpreter that has them
        ("bun pm ls", "bun pm ls"),  # a listing is offered with its verb
        ("bun install", "bun install"),
        ("bun x.ts", "bun WS/x.ts"),
        ("cmake --build build", "cmake --build"),
    ],
)
def test_suggestions_name_the_verb(
    places: tuple[Path, Path], command: str, offered: str | None
) -> None:
    decision = _decide(places, command)
    expected = None if offered is None else offered.replace("WS", str(places[0]))
    assert decision.suggested_rule == expected, decision.explain()


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # AH5: approvals hold in the workspace, and not in a folder the line just made
        ("make test", A),
        ("cd src && make test", A),
        ("cd src && git status && make test", A),
        ("cd OTHER && make test", Q),
        ("cd ~ && make test", Q),
        ("git clone https://example.com/r sub && cd sub && make test", Q),
        ("mkdir -p sub && cd sub && make test", Q),
    ],
)
def test_approvals_hold_in_the_workspace(
    places: tuple[Path, Path], command: str, expected: Verdict, tmp_path: Path
) -> None:
    command = command.replace("OTHER", str(tmp_path / "other"))
    decision = _decide(places, command, "make test", "git clone", "mkdir")
    assert decision.verdict is expected, decision.explain()
    if expected is Q:
        assert "engine.approved-elsewhere" in [r.rule_id for r in decision.reasons]


@pytest.mark.parametrize(
    "command", ["watch wc -l <filename>", "env - `cat ~/cronenv` /bin/sh", "watch"]
)
def test_a_segment_with_no_inner_words_is_judged(places: tuple[Path, Path], command: str) -> None:
    # found by calibration: the script lookup met a wrapper whose inner command is empty
    decision = _decide(places, command)
    assert decision.verdict is not A
    assert all("internal error" not in r.message for r in decision.reasons), decision.explain()


@pytest.mark.parametrize(
    "command",
    [
        # AG3: programs the tables miss, given code inline, are not offered by their name
        "rhino -e 1",
        "oksh -c id",
        "rc -c 'cat ~/.aws/credentials'",
        "toybox sh -c id",
        "gnome-terminal -- sh -c id",
        "alacritty -e id",
        "php-cgi -r 'system(1);'",
    ],
)
def test_inline_code_of_unknown_programs_is_not_suggested(
    places: tuple[Path, Path], command: str
) -> None:
    decision = _decide(places, command)
    assert decision.verdict is Q, decision.explain()
    assert decision.suggested_rule is None


def test_ssh_config_aliases_of_this_machine_are_not_approved(places: tuple[Path, Path]) -> None:
    # closing-8 residual: `Host box` / `HostName 127.0.0.1` makes `ssh box CMD` run here
    home = places[1]
    (home / ".ssh").mkdir()
    (home / ".ssh" / "config").write_text(
        "Host build box\n  HostName 127.0.0.1\n  User me\n\nHost far\n  HostName example.com\n"
        "Host *.lan\n  HostName localhost\n"
    )
    for command in (
        "ssh box 'cat ~/.aws/credentials'",
        "scp build:.aws/credentials k",
        "rsync -a BOX:.ssh/ k/",
    ):
        decision = _decide(places, command, "ssh", "scp", "rsync")
        assert decision.verdict is not A, decision.explain()
        assert "engine.approved-loopback" in [r.rule_id for r in decision.reasons]
    assert _decide(places, "ssh far uptime", "ssh").verdict is A
    (home / ".ssh" / "config").write_text("Host box\n  HostName example.com\n")
    assert _decide(places, "ssh box uptime", "ssh").verdict is A  # read again when changed


def test_a_later_wrapper_line_does_not_hide_an_earlier_deny(tmp_path: Path) -> None:
    # AF8: `wrapper git positionals 1` in a user layer made `git push --force` an ask
    org = Path(__file__).parents[3] / "policylang" / "rulesets" / "org-example" / "org.policy"
    layer = tmp_path / "user.policy"
    layer.write_text("wrapper git positionals 1\n")
    policy = load_policy(org, extra=[layer], check=False)
    decision = policy.evaluate("git push --force origin main", workspace=tmp_path)
    assert decision.verdict is D, decision.explain()
    # without the wrapper line it is the same deny
    assert load_policy(org).evaluate("git push -f origin main", workspace=tmp_path).verdict is D


@pytest.mark.parametrize(
    ("command", "offered"),
    [
        ("mvn clean package", "mvn clean package"),
        ("mvn clean package -DskipTests", "mvn clean package"),
        ("gradle clean build", "gradle clean build"),
        ("just test unit", "just test unit"),
        ("make test deploy", "make test deploy"),
    ],
)
def test_build_goals_are_offered_together(
    places: tuple[Path, Path], command: str, offered: str
) -> None:
    decision = _decide(places, command)
    assert decision.suggested_rule == offered, decision.explain()
    assert _decide(places, command, offered).verdict is A


def test_git_cannot_rewrite_the_policys_files_in_the_workspace(tmp_path: Path) -> None:
    # AJ1: a pathspec glob, a pathspec file or a whole-tree verb rewrote `team.policy`
    # or created `approvals.toml` from a commit the agent had made
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / "team.policy").write_text("allow cowsay **\n")
    policy = load_policy(extra=[ws / "team.policy"], approvals=ws / "approvals.toml")
    for rule in ("git checkout", "git restore", "git merge", "git clean", "git stash", "split"):
        policy.approvals.add(rule, persist=False)
    env = {"HOME": str(home)}
    for command in (
        "git checkout FETCH_HEAD -- '*.policy'",
        "git restore -s FETCH_HEAD 'approvals.tom?'",
        "git checkout --pathspec-from-file=list other",
        "git merge other",
        "git clean -f",
        "git stash",
        # AJ2: split and csplit add a suffix to the name they are given
        "split -a1 -n25 x.py team.polic",
    ):
        decision = policy.evaluate(command, workspace=ws, env=env)
        assert decision.verdict is not A, command
        assert "engine.policy-state" in [r.rule_id for r in decision.reasons], command
    # git commands that only read stay allowed
    assert policy.evaluate("git status", workspace=ws, env=env).verdict is A
    # with the policy's files elsewhere, the approvals hold as before
    plain = load_policy()
    plain.approvals.add("git merge", persist=False)
    assert plain.evaluate("git merge other", workspace=ws, env=env).verdict is A


def test_lualatex_is_an_interpreter(places: tuple[Path, Path]) -> None:
    # AK4: LuaTeX runs the Lua of the document it reads, which may write any file
    ws = places[0]
    first = _decide(places, "lualatex l.tex")
    assert first.suggested_rule == f"lualatex {ws}/l.tex", first.explain()
    assert _decide(places, "lualatex --lua=e.lua l.tex", "lualatex").verdict is Q


def test_policy_files_in_the_workspace_keep_everyday_approvals(tmp_path: Path) -> None:
    # AK9: the split prefix rule asked for any word a policy file's name starts with
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    (ws / "team.policy").write_text("allow cowsay **\n")
    policy = load_policy(extra=[ws / "team.policy"])
    for rule in ("git commit", "pytest", "touch", "git co", "split"):
        policy.approvals.add(rule, persist=False)
    env = {"HOME": str(home)}
    for command in ("git commit -m a", "pytest -k te", "touch t"):
        assert policy.evaluate(command, workspace=ws, env=env).verdict is A, command
    # AK7: an alias may be any verb; split's prefix names the layer
    for command in ("git co FETCH_HEAD -- '*.policy'", "split -n25 x.py team.polic"):
        decision = policy.evaluate(command, workspace=ws, env=env)
        assert "engine.policy-state" in [r.rule_id for r in decision.reasons], command


def test_other_tools_that_switch_the_work_tree(tmp_path: Path) -> None:
    # AK7: `gh pr checkout` rewrites the work tree where a policy layer lies
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    (ws / "team.policy").write_text("allow cowsay **\n")
    policy = load_policy(extra=[ws / "team.policy"])
    for rule in ("gh pr checkout", "gh pr view", "jj"):
        policy.approvals.add(rule, persist=False)
    env = {"HOME": str(home)}
    for command in ("gh pr checkout 12", "jj new main"):
        decision = policy.evaluate(command, workspace=ws, env=env)
        assert "engine.policy-state" in [r.rule_id for r in decision.reasons], command
    assert policy.evaluate("gh pr view 12", workspace=ws, env=env).verdict is A


@pytest.mark.parametrize(
    ("words", "reach"),
    [
        # AL10: a pathspec `:/x` of a verb that is no remote verb is no host
        (("git", "stash", "push", "--", ":/.env"), None),
        (("git", "log", "--", ":/x"), None),
        (("git", "push", "localhost:r"), "localhost"),
        (("git", "-C", "d", "fetch", "localhost:r"), "localhost"),
        (("git", "-c", "x=y", "clone", "127.0.0.1:r"), "127.0.0.1"),
        (("git", None, "push", "localhost:r"), "localhost"),  # an unreadable subcommand
    ],
)
def test_git_remote_verb_is_the_subcommand(
    words: tuple[str | None, ...], reach: str | None
) -> None:
    from policylang.engine.rules import loopback_reach

    assert loopback_reach(words) == reach


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("WS/bin:/usr/bin:/bin", Q),  # a folder of the workspace on PATH
        ("bin:/usr/bin:/bin", Q),  # a relative entry: where the command runs
        ("/usr/bin:/bin:", A),  # an empty entry is the working folder: no `rg` there
        ("/usr/bin:/bin", A),
    ],
)
def test_a_program_path_finds_in_the_workspace_asks(
    places: tuple[Path, Path], path: str, expected: Verdict
) -> None:
    # reviews AL7, AM1: PATH may run the repository's `rg` where the policy judged rg
    ws, home = places
    (ws / "bin").mkdir()
    (ws / "bin" / "rg").write_text("#!/bin/sh\necho planted\n")
    (ws / "bin" / "rg").chmod(0o755)
    env = {"HOME": str(home), "PATH": path.replace("WS", str(ws))}
    policy = load_policy()
    for command in ("rg foo", "timeout 5 rg foo"):
        decision = policy.evaluate(command, workspace=ws, env=env)
        assert decision.verdict is expected, decision.explain()
    assert policy.evaluate("echo hi", workspace=ws, env=env).verdict is A  # a builtin


def test_the_snapshot_folder_is_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # review AM2: a forged snapshot in `$POLICYLANG_CACHE_DIR` was loaded as the policy
    cache = tmp_path / "cache"
    monkeypatch.setenv("POLICYLANG_CACHE_DIR", str(cache))
    ws = tmp_path / "ws"
    ws.mkdir()
    policy = load_policy(snapshot=False)
    policy.approvals.add("cp", persist=False)
    decision = policy.evaluate(f"cp x.snap {cache}/snapshots/forged.snap", workspace=ws)
    assert decision.verdict is D, decision.explain()
    assert "engine.policy-state" in [r.rule_id for r in decision.reasons]


def test_an_activated_environment_keeps_its_programs(places: tuple[Path, Path]) -> None:
    # an activated `.venv/bin` or `node_modules/.bin`: installed programs, not planted ones
    ws, home = places
    for folder in (".venv/bin", "node_modules/.bin"):
        (ws / folder).mkdir(parents=True)
        (ws / folder / "rg").write_text("#!/bin/sh\n")
        (ws / folder / "rg").chmod(0o755)
    env = {"HOME": str(home), "PATH": f"{ws}/.venv/bin:{ws}/node_modules/.bin:/usr/bin"}
    assert load_policy().evaluate("rg foo", workspace=ws, env=env).verdict is A
