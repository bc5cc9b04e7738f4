"""Built-in tables used where a policy says nothing; compiler stage (data only).

Fail closed: an expansion kind or position not listed here is `ask`, an environment name
not listed is `ask`, an interpreter runs code at least at `ask`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from policylang.compiler.tree import (
    Access,
    EnvTable,
    ExpansionAction,
    ExpansionPosition,
    InterpreterSpec,
    OperandRole,
    PathArgTable,
    PathRoles,
    RunnerTable,
    builtin_ref,
)
from policylang.decision import Verdict
from policylang.shell.model import ExpansionKind

_A, _ASK, _DENY, _I = (
    ExpansionAction.ALLOW,
    ExpansionAction.ASK,
    ExpansionAction.DENY,
    ExpansionAction.INSPECT,
)
_P = ExpansionPosition
# per kind: command-name, argument, redirect-target, assignment-value, heredoc-body
_ROWS: dict[ExpansionKind, tuple[ExpansionAction, ...]] = {
    ExpansionKind.COMMAND_SUBSTITUTION: (_ASK, _I, _I, _I, _I),
    ExpansionKind.PROCESS_SUBSTITUTION: (_ASK, _I, _I, _I, _I),
    ExpansionKind.PARAMETER: (_ASK, _A, _ASK, _A, _A),
    ExpansionKind.ARITHMETIC: (_ASK, _A, _ASK, _A, _A),
    ExpansionKind.BRACE: (_ASK, _A, _ASK, _A, _A),
    ExpansionKind.GLOB: (_ASK, _A, _ASK, _A, _A),
    ExpansionKind.TILDE: (_ASK, _A, _ASK, _A, _A),
    ExpansionKind.EXTGLOB: (_ASK, _A, _ASK, _A, _A),
    ExpansionKind.ANSI_C: (_A, _A, _A, _A, _A),
    ExpansionKind.HISTORY: (_ASK, _ASK, _ASK, _ASK, _ASK),
}
_POSITIONS = (
    _P.COMMAND_NAME,
    _P.ARGUMENT,
    _P.REDIRECT_TARGET,
    _P.ASSIGNMENT_VALUE,
    _P.HEREDOC_BODY,
)

DEFAULT_DISQUALIFIERS: Mapping[tuple[ExpansionKind, ExpansionPosition], ExpansionAction] = (
    MappingProxyType(
        {
            (kind, position): _ROWS.get(kind, (_ASK,) * 5)[index]
            for kind in ExpansionKind
            for index, position in enumerate(_POSITIONS)
        }
    )
)

_ENV_FREE = (
    "LANG", "LANGUAGE", "LC_*", "TZ", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
    "TERM", "COLUMNS", "LINES", "CI", "DEBUG", "VERBOSE", "RUST_BACKTRACE", "RUST_LOG",
    "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "NODE_ENV", "GIT_PAGER_IN_USE", "TMPDIR",
)  # fmt: skip
_ENV_ASK = (
    "PATH", "LD_*", "DYLD_*", "GIT_*", "PAGER", "MANPAGER", "EDITOR", "VISUAL", "BASH_ENV",
    "ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "BASHOPTS", "IFS", "HOME", "PYTHONPATH",
    "PYTHONSTARTUP", "PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5LIB", "PERL5OPT",
    "RUBYLIB", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "LESSOPEN", "LESSCLOSE",
    "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_SSH", "GIT_SSH_COMMAND", "BROWSER", "CDPATH",
)  # fmt: skip
_FREE_REF = builtin_ref("env-free", "harmless environment variable")
_ASK_REF = builtin_ref("env-ask", "this variable changes what programs run")
DEFAULT_ENV = EnvTable(
    rules=tuple((name, Verdict.ALLOW, _FREE_REF) for name in _ENV_FREE)
    + tuple((name, Verdict.ASK, _ASK_REF) for name in _ENV_ASK),
    default=Verdict.ASK,
    default_ref=builtin_ref("env-default", "environment variable not listed"),
)


def _interpreters() -> dict[str, InterpreterSpec]:
    table: dict[str, InterpreterSpec] = {}
    ref = builtin_ref("interpreter", "code run by an interpreter")

    def add(names: str, inline: str = "", program_operand: bool = False) -> None:
        for name in names.split():
            table[name] = InterpreterSpec(
                name=name,
                floor=Verdict.ASK,
                inline=frozenset(inline.split()),
                program_operand=program_operand,
                ref=ref,
            )

    pythons = " ".join(f"python3.{minor}" for minor in range(6, 16))
    add(
        f"python python2 python2.7 python3 {pythons} pypy pypy3 graalpy jython pythonw ipython "
        "ipython3",
        "-c",
    )
    add("node nodejs bun ts-node tsx", "-e --eval -p --print")
    add("julia", "-e --eval -E --print")
    add("groovy scala clojure clj bb", "-e")
    add("R", "-e")
    add("elixir", "-e --eval")
    add("guile", "-c")
    add("racket", "-e --eval")
    add("sbcl", "--eval")
    add("erl", "-eval")
    add("deno", "eval")
    add("perl", "-e -E")
    add("ruby irb", "-e")
    add("php", "-r")
    add("lua luajit", "-e")
    add("Rscript", "-e")
    add("osascript", "-e")
    add("pwsh powershell", "-c -Command")
    add("tclsh wish expect", "-c")
    add("awk gawk mawk nawk busybox-awk", program_operand=True)
    # review AF1: approving the bare name of any of these approved its inline code
    add("raku rakudo perl6", "-e")
    add("dc", "-e --expression")
    add("octave octave-cli", "--eval")
    add("ghci ghc", "-e")
    add("runghc runhaskell ocaml java jshell kotlin kotlinc", "")
    add("xterm uxterm konsole", "-e")
    add("vim vi nvim gvim ex view", "-c --cmd")
    add("emacs", "--eval --execute -eval -execute")
    add("socat capsh", "")
    add("micropython", "-c")  # review AG3
    add("jruby truffleruby", "-e")
    add("qjs", "-e --eval")
    add("php-cgi", "-r")
    # review FL14: script runners the table missed, offered by their bare name, whose
    # approval ran any other script or code (`janet -e CODE` under `janet x.janet`)
    add("janet", "-e")
    add("crystal", "eval")
    add("coffee d8", "-e --eval")
    add("dart bpython ptpython", "")
    return table


DEFAULT_INTERPRETERS: Mapping[str, InterpreterSpec] = MappingProxyType(_interpreters())


def _path_args() -> dict[str, PathRoles]:
    table: dict[str, PathRoles] = {}
    read = (
        "cat tac head tail less more grep egrep fgrep rg ag wc sort uniq cut paste diff cmp comm "
        "file stat md5sum sha1sum sha256sum sha512sum b2sum cksum xxd od hexdump strings nl "
        "base64 jq yq bat source . column fold fmt expand unexpand iconv"
    )
    write = "tee touch mkdir rmdir rm shred truncate chmod chown chgrp unlink mkfifo"
    copy = "cp ln install rsync scp"
    for name in read.split():
        table[name] = PathRoles(operands=OperandRole.READ)
    for name in write.split():
        table[name] = PathRoles(operands=OperandRole.WRITE)
    for name in copy.split():
        table[name] = PathRoles(operands=OperandRole.COPY)
    table["mv"] = PathRoles(operands=OperandRole.MOVE)
    out = MappingProxyType({"-o": Access.WRITE, "--output": Access.WRITE})
    table["sort"] = PathRoles(operands=OperandRole.READ, options=out)
    table["curl"] = PathRoles(options=out)
    table["wget"] = PathRoles(
        options=MappingProxyType({"-O": Access.WRITE, "--output-document": Access.WRITE})
    )
    table["dd"] = PathRoles(keys=MappingProxyType({"of": Access.WRITE, "if": Access.READ}))
    return table


DEFAULT_PATH_ARGS = PathArgTable(commands=MappingProxyType(_path_args()))


# programs whose operands are a command they run (review R2, S1, T); `poetry run` and the
# like by their verbs. `sudo`, `env`, `timeout` … are wrappers the shell model sees through.
# A policy adds more with `runner NAME…`.
_RUNNER_PROGRAMS = (
    "strace", "ltrace", "valgrind", "gdb", "lldb", "xvfb-run", "hyperfine",
    "unshare", "ssh-agent", "screen", "script", "firejail", "faketime",
    "unbuffer", "chronic", "proxychains", "proxychains4", "torsocks", "prlimit",
    "numactl", "setpriv", "runuser", "dbus-run-session", "entr", "watchexec", "parallel",
    "systemd-run", "dotenv", "catchsegv", "sem", "rr", "bwrap", "fakeroot",
    "nsenter", "setarch", "linux32", "linux64", "cgexec", "bear", "ccache", "distcc",
    "torify", "tsocks", "flatpak-spawn", "npx", "pnpx", "pnx", "bunx", "uvx", "heaptrack",
    "memusage", "gtime", "cpulimit", "trickle", "with-contenv", "dumb-init", "tini",
    "catatonit", "s6-setuidgid", "chpst", "envdir", "softlimit", "setlock", "lckdo", "sg",
    "rlwrap", "corepack", "cross-env", "concurrently", "nodemon", "npm-run-all", "run-p",
    "run-s", "nix-shell", "env-cmd",
    # review AL2
    "logsave", "retry", "reflex", "daemon", "daemonize", "runlim", "ifne", "boxxy",
    "mirrord", "with-env", "timeout-cli", "caffeinate", "doas-keepenv",
    # review CM5: their names were offered with the command they run (`eatmydata ar`)
    "eatmydata", "nocache", "gosu", "su-exec", "setuidgid", "run-one", "run-this-one",
    "keep-one-running", "run-one-constantly", "run-one-until-success",
    "run-one-until-failure", "timelimit", "mpirun", "mpiexec", "orterun", "srun", "tsp",
    "nq", "fakechroot", "dtach", "abduco", "proot", "vglrun", "optirun", "primusrun",
    "prime-run", "gamemoderun", "pkexec",
    "toybox",  # (a multi-call program whose `sh` is toybox's own shell, no bash)
    "sshpass",  # review CN8: `sshpass -p x sh x.sh` was offered as `sshpass`
    # review DX6: macOS's `arch -x86_64 CMD`, setarch's `i386 CMD` and `x86_64 CMD`
    "arch", "i386", "x86_64",
    # review FV-widen W3-W5: a pty wrapper, the analyser's build wrapper, a chroot runner
    "sequin", "scan-build", "intercept-build", "schroot",
    # the widening scan after review FY: `gamescope … -- CMD` runs CMD in its compositor
    "gamescope",
    # review BH-VM: programs that run their command in a virtual machine or a container that
    # mounts the user's home (and the workspace, at the same path): lima's `lima CMD`
    # and its scripts that run one, distrobox, WSL, OrbStack (`orb CMD`, `orbctl CMD`:
    # a first word that is none of their verbs is a command run in the machine)
    "lima", "toolbox.lima", "run-singularity.lima", "distrobox-enter",
    "distrobox-ephemeral", "wsl", "wsl.exe", "orb", "orbctl",
    # review BS-host: flatpak's `flatpak-spawn --host CMD` runs CMD on this machine, outside
    # the sandbox; systemd-nspawn runs it in a container of a folder (`-D /`: this system)
    "systemd-nspawn",
)  # fmt: skip
# (program, verb, …): the words that run a command; tmux and npm take abbreviations,
# which `RunnerTable.length` allows for every verb (any prefix counts)
_RUNNER_VERBS = (
    "poetry run", "pipenv run", "conda run", "mamba run", "micromamba run", "uv run",
    "uv tool run", "pdm run", "hatch run", "hatch shell", "rye run", "pixi run",
    "pixi exec", "pipx run", "npm exec", "npm x", "pnpm exec", "pnpm dlx", "yarn exec",
    # pnpm's `recursive` (`m`, `multi`) prefix runs its verb in every package (review HB1)
    "pnpm recursive exec", "pnpm m exec", "pnpm multi exec",
    # pnpm 11's second name (`pnx` is `pnpx`): its verbs run as pnpm's do (review HH3)
    "pn exec", "pn dlx", "pn recursive exec", "pn m exec", "pn multi exec",
    "yarn dlx", "yarn node",
    # yarn's other name (Debian's, and yarn 1's second bin): its verbs run as yarn's do
    "yarnpkg exec", "yarnpkg dlx", "yarnpkg node",
    "bun x", "bun run", "bun exec", "deno run", "nix develop",
    "nix shell", "nix run", "mise exec", "mise x", "asdf exec", "rtx exec", "op run",
    "doppler run", "aws-vault exec", "devbox run", "direnv exec", "infisical run",
    "dotenvx run", "sops exec-env", "sops exec-file",
    "tmux new-session", "tmux new-window", "tmux neww", "tmux split-window", "tmux splitw",
    "tmux run-shell", "tmux respawn-pane", "tmux respawnp", "tmux respawn-window",
    "tmux respawnw", "tmux if-shell", "tmux send-keys", "tmux display-popup", "tmux popup",
    "tmux pipe-pane", "tmux pipep", "tmux command-prompt", "tmux confirm-before",
    "tmux display-menu", "tmux menu", "tmux bind-key", "tmux set-hook", "tmux source-file",
    "perf stat", "perf record", "perf trace", "perf ftrace", "perf iostat", "perf kvm",
    "perf lock record", "perf sched record", "perf kmem record", "perf kwork record",
    "perf mem record", "perf c2c record", "perf script record", "perf timechart record",
    "volta run", "pyenv exec", "rbenv exec", "nodenv exec", "goenv exec", "jenv exec",
    "fnm exec", "proto run", "tox exec", "bundle exec", "lerna exec",
    "rails runner", "firebase emulators:exec", "nx exec",
    # review AH3: build tools' verbs that run any command
    "stack exec", "opam exec", "cabal exec", "meson devenv", "dune exec", "esy x",
    "cargo watch",
    # review AL2
    "rustup run", "nvm exec", "nvm run", "pueue add", "foreman run", "apptainer exec",
    "apptainer run", "singularity exec", "singularity run", "mirrord exec", "jj bisect",
    "fnm use", "asdf shell", "mise run",
    # review FV-widen W6, W12: n's node runners, toolbox's container shell and command
    "n run", "n use", "n as", "n exec", "toolbox run", "toolbox enter",
    # review GH2: Procfile and platform runners that load `.env` (or inject the app's
    # secrets) and run any command, as `foreman run` does
    "honcho run", "nf run", "forego run", "overmind run", "heroku local:run", "railway run",
    "netlify dev:exec",
    # review BH-VM: the verbs that run a command in a machine that mounts the user's home
    # (lima's `limactl shell INSTANCE CMD`; colima's `ssh`, `exec`, `x` and `nerdctl`,
    # which runs `sudo nerdctl` there; multipass, podman machine, distrobox, Rancher
    # Desktop, minikube and docker-machine, whose VirtualBox and HyperKit machines mount it)
    "limactl shell", "colima ssh", "colima exec", "colima x", "colima nerdctl",
    "multipass exec", "podman machine ssh", "distrobox enter", "distrobox ephemeral",
    "rdctl shell", "minikube ssh", "docker-machine ssh",
    # review BS-host: `machinectl shell .host CMD` runs CMD on this machine, `devcontainer
    # exec` in the container that mounts the workspace read-write
    "machinectl shell", "devcontainer exec",
    # review BW: `vagrant ssh -c CMD` runs CMD in the machine whose synced folder is the
    # workspace (`MACHINES`)
    "vagrant ssh",
    # review HR1 (fixer BY): `vagrant docker-exec NAME -- CMD`, `vagrant docker-run NAME --
    # CMD` run CMD in the container that mounts the project at /vagrant
    "vagrant docker-exec", "vagrant docker-run",
)  # fmt: skip
# the runners whose command starts at their first operand after their own options, and
# whose later words are all the command's (they stop reading options there): an
# approval may name that command (`strace ls`, `uv run pytest`). Every other runner's
# command cannot be told, so no approval covers a use of it (review U).
_EXACT_RUNNERS = (
    "strace", "ltrace", "valgrind", "gtime", "uv run", "uv tool run", "uvx", "pipenv run",
    "poetry run", "pdm run", "bundle exec", "perf record", "perf lock record",
    "perf sched record", "perf kmem record", "perf kwork record", "perf mem record",
    "perf c2c record", "perf script record", "perf timechart record", "eatmydata",
    "nocache", "run-one", "run-this-one", "keep-one-running", "run-one-constantly",
    "run-one-until-success", "run-one-until-failure",
    "lima",  # (review BH-VM: `lima [OPTIONS] [NAME=VALUE…] CMD…`, each word passed quoted)
)  # fmt: skip
DEFAULT_RUNNERS = RunnerTable(
    programs=frozenset(_RUNNER_PROGRAMS),
    verbs=frozenset(tuple(entry.split()) for entry in _RUNNER_VERBS),
    exact=frozenset(tuple(entry.split()) for entry in _EXACT_RUNNERS),
)

# Words that make a network client send a file's contents (review FV-widen W13, W14): an
# approved `curl URL` (a GET) covered `curl -T notes.txt URL`, `-d @notes.txt`, `-F
# f=@notes.txt`; an approved `http URL`, `http -f POST URL cv@notes.txt`. curl reads a
# file from a `@` value (`-d`, `--data-*`, `--json`, `-H`, `-K`), `=@`/`=<` in a form
# field, `NAME@FILE` in `--data-urlencode` and `--url-query`, `--variable NAME@FILE`, and
# uploads `-T FILE` (in a short bundle too); curl 7 takes a unique prefix of a long
# option (`--upl F`, `--data-url N@F`), so those are matched by their prefixes. httpie and
# xh read `FIELD@FILE`, `FIELD=@FILE`, `FIELD:=@FILE`, `HEADER:@FILE`. Matched on each word
# after an approved prefix, as `HANDED_CODE` is.
_CURL_SENDS = (
    r"@.*|.*=[@<].*|-[A-Za-z0-9#:]*T.*|--up.*|--data-u.*|--url-q.*|--va.*|--exp.*"
    r"|-[^-].*@.*"
    r"|.*%output\{.*"  # (curl 8.3's `-w '%output{FILE}…'` writes FILE: review FX5)
)
# (httpie splits an item at its first separator: `email=a@b.example` is text)
_HTTPIE_SENDS = r"[^:=@]*(?:@|=@|==@|:=@|:@).*"  # (`q==@FILE`, a query from a file: FX4)
SENT_FILES: Mapping[str, str] = MappingProxyType(
    {"curl": _CURL_SENDS, **dict.fromkeys(("http", "https", "xh", "xhs"), _HTTPIE_SENDS)}
)
# clients that send their standard input as a request's body: fed by the line (`< F`, a
# pipe), an approved one sends whatever is fed (review FV-widen W14: `lwp-request -m POST
# URL < notes.txt`, `http POST URL < notes.txt`)
STDIN_SENDERS: frozenset[str] = frozenset(
    {"http", "https", "xh", "xhs", "lwp-request", "POST", "PUT"}
)

# Words that make a program run code, or a program or file of code they name, matched on
# each word after an approved prefix (`--opt=value` and `-opt value` spellings both: the
# value of a separate word is matched too). The policy's clause asks catch the common
# spelling; these catch what clauses cannot say: case (`exiftool -IF`), prefixes of
# getopt_long_only options (`pdflatex -shell-esc`), keys inside a value (`rustc -C
# linker=sh`), files by their kind (`pandoc -t w.lua`). Reviews AH and AJ.
_TEX = r"--?(?:shell-e[a-z-]*|enable-w[a-z0-9]*|cn(?:f[a-z-]*)?(?:=.*)?)"  # `-cnf=`, `-cn=`
_TEX_ENGINES = (
    "pdflatex", "xelatex", "lualatex", "latex", "tex", "etex", "pdftex", "luatex", "xetex",
    "luahbtex", "uplatex", "platex", "uptex", "ptex", "eptex", "mpost", "pdflatex-dev",
    "lualatex-dev", "xelatex-dev", "luajittex", "luajitlatex",
)  # fmt: skip
# rustc reads `_` and `-` alike in `-C` keys (`link_arg`, review AK3)
_RUSTC = (
    r"(?:-C|--codegen=?)?(?:linker|linker[-_]flavor|link[-_]args?|link[-_]self[-_]contained"
    r"|llvm[-_]args|passes|codegen[-_]backend|profile[-_]generate|profile[-_]use|dlltool"
    r"|ar)(?:=.*)?|-Z.*|@.*"
)
# `-D KEY=VALUE` may be two words (review AK5): the key is matched with or without `-D`
# the JVM options that open a debugger port, load an agent or run a command, in any value
# (`-DargLine=-agentlib:jdwp=…,address=*:5005`, `-XX:OnOutOfMemoryError=…`: review CV7)
_JVM_AGENT = r".*(?:javaagent|agentlib|agentpath|jdwp|OnOutOfMemoryError|OnError|Xrunjdwp).*"
_MVN = (
    r"(?:-D|--define=?)?(?:maven\.ext\.class\.path|exec\.[\w.]+|maven\.compiler\.executable"
    r"|maven\.compiler\.fork|maven\.repo\.local|maven\.multiModuleProjectDirectory"
    r"|[\w.]*argLine|maven\.(?:surefire|failsafe)\.debug|(?:surefire\.|failsafe\.)?jvm"
    r"|[\w.]*\.jvm(?:Args|Arguments)?)(?:=.*)?"
    r"|-(?:s|gs|f|t)|--(?:settings|global-settings|file|toolchains)(?:=.*)?|" + _JVM_AGENT
)
_GRADLE = (
    r"(?:-D|--system-prop=?)?(?:org\.gradle\.(?:jvmargs|java\.home|debug|java\.installations"
    r"\.[\w.]+)|kotlin\.daemon\.jvm\.options|gradle\.user\.home)(?:=.*)?|-(?:I|b|c|p|g).*"
    r"|--(?:init-script|build-file|settings-file|project-dir|gradle-user-home|debug-jvm"
    r"|include-build)(?:=.*)?|" + _JVM_AGENT
)
_JAVA_TOOL_CODE = (
    r"-XD.*|--system.*|-bootclasspath.*|--boot-class-path.*|-extdirs.*|-endorseddirs.*"
    r"|--upgrade-module-path.*|--module-path.*|-p|--processor-path.*|-processorpath.*"
    r"|--processor-module-path.*|-processor.*|-Xplugin.*|-J.*|@.*"
)
# the other programs rustup's proxies run, which take a toolchain (`+…`) first
_RUSTUP_PROXIES = (
    "rustfmt", "cargo-fmt", "cargo-clippy", "clippy-driver", "rust-analyzer", "rust-gdb",
    "rust-gdbgui", "rust-lldb", "rls",
)  # fmt: skip
HANDED_CODE: Mapping[str, str] = MappingProxyType(
    {
        # `-w`/`-W` build output names from the input file's (review AK1); `-p`, not `-P`
        "exiftool": r"-p-?|(?i:-(?:if\d*|printformat|config|api|userparam|@|w[!+]*|srcfile"
        r"|tagsfromfile)|.*%[a-z].*)",
        "latexmk": r"--?(?:e|r|(?:pdf|lua|xe|dvilua)?latex|dvipdf|ps2pdf|pdfdvi|pv|pvc|view"
        r"|usepretex|pretex|print|makeindex|bibtex|biber|lpr|dvips|xdvipdfmx)(?:=.*)?|" + _TEX,
        **dict.fromkeys(_TEX_ENGINES, _TEX),
        # a crate found by `--extern` or `-L` may be a procedural macro, which runs at
        # compile time (review DF6: an approved `rustc --extern evil=libevil.so m.rs`)
        # rustup's proxies take a toolchain first, `+/path` one of the workspace (review
        # DP4: an approved `rustc +/ws/tc --version` ran `tc/bin/rustc`)
        "rustc": _RUSTC + r"|--extern.*|-L.*|--sysroot.*|\+.*",
        # `--test` compiles and runs the documentation's examples, `--runtool` runs them
        # under a program it names (review DH5)
        "rustdoc": _RUSTC + r"|--extern.*|-L.*|--sysroot.*|--test.*|--runtool.*|--persist.*|\+.*",
        **dict.fromkeys(_RUSTUP_PROXIES, r"\+.*"),
        "cargo": _RUSTC,
        # options read from a file (review DF7: `-@ resp` held `-iinc/`); a line of code
        # to assemble first (`--before '%include "conf"'`: review DO7)
        "nasm": r"-@.*|--before.*|--pragma.*",
        # javac's options that load code from a folder they name or by a class's name: a
        # processor or plugin path, `-XD-processor=P`, another JDK's image (`--system`,
        # whose `jrt-fs.jar` it loads), a boot or module path, more options from a file
        # (review DQ3); javadoc's doclets and taglets (DQ4)
        "javac": _JAVA_TOOL_CODE,
        "javadoc": _JAVA_TOOL_CODE + r"|--?doclet.*|--?docletpath.*|--doclet-path.*|--?taglet.*"
        r"|--?tagletpath.*|--taglet-path.*",
        # GNU as reads options from `@file` too (review DO10: `-al` and a secret)
        "as": r"@.*",
        "gas": r"@.*",
        # a custom reader or writer is a Lua file, named as pandoc likes (`-t w.lua+smart`)
        "pandoc": r".*lua.*|-[dLF].*|--(?:defaults|data-dir|pdf-engine|pdf-engine-opt"
        r"|lua-filter|filter|template)(?:=.*)?",
        "ctest": r"--(?:overwrite|build-and-test|test-command|build-makeprogram|script"
        r"|script-new-process|extra-submit).*|-S[PR]?|.*(?:Memory|Coverage|Update|Build"
        r"|Configure)Command.*",
        "cabal": r"--(?:with-[a-z-]+|ghc-options|ghcjs-options|gcc-options|ld-options"
        r"|configure-option|project-file)(?:=.*)?|-w.*",
        "stack": r"--(?:with-[a-z-]+|ghc-options|exec|stack-yaml|nix-shell-file)(?:=.*)?",
        "nim": r"(?i)--?(?:pass_?[cl]|putenv|[a-z0-9_]+\.(?:exe|linkerexe|options\.[a-z]+)"
        r"|eval|e|import|include)(?::.*|=.*)?",
        "meson": r"--(?:nat|cro|wra|gdb)[a-z-]*(?:=.*)?|(?:-D)?\w*args=.*",
        "mix": r"eval|cmd|-e|--eval|-r|--require",
        "sbt": r"(?:eval|console|consoleQuick|consoleProject|set|apply)\b.*|<.*|-J.*|--?script.*"
        r"|-(?:java-home|sbt-jar|sbt-boot|ivy|jvm-debug|sbt-dir).*",
        "rake": r"--?(?:e|execute|p|execute-print|E|execute-continue|r|require|f|rakefile"
        r"|I|libdir|R|g)(?:=.*)?|--(?:rakel|sys|exec|req|libd|rakef)[a-z-]*(?:=.*)?",
        # a reporter class (`-f mod.Class`) is imported
        "pylint": r"--(?:init-hook|load-plugins|rcfile)(?:=.*)?|--output-format=.*\..*"
        r"|[a-z_][\w.]*\.[A-Z]\w*",
        "just": r"--(?:command|shell|shell-arg|shell-command|justfile|dotenv-path"
        r"|dotenv-filename|working-directory)(?:=.*)?|-[cdf]",
        "mvn": _MVN,
        "mvnw": _MVN,
        "gradle": _GRADLE,
        "gradlew": _GRADLE,
        "gs": r"(?i)-[ds](?:NOSAFER|DELAYSAFER|NOSAFETY|WRITESYSTEMDICT|SAFER=false).*|-c",
        "zig": r"-wrapper|-fplugin.*|-B.*|-specs.*|-fuse-ld.*|-Wl,.*|-Xlinker|-Xclang|@.*",
        # tmux runs the shell command of a `#(…)` format and of its command options (AL3)
        "tmux": r".*#\(.*|default-(?:command|shell)|set-hook|run-shell|run|if-shell|if"
        r"|pipe-pane|pipep|respawn.*|new.*|split.*|send-keys|send|source-file|source",
        "groff": r"-[a-zA-Z]*U.*",  # unsafe mode: `.sy`, `.pso` run shell commands (AL4)
        "m4": r".*(?:e?syscmd|include|sinclude).*",
        "mutt": r"-[eF].*|--?(?:command|config)(?:=.*)?",
        "neomutt": r"-[eF].*",
        "psql": r".*\\!.*|-f.*|--file(?:=.*)?|.*\\(?:o|out|copy|i|include|ir|w|write).*",
        "mysql": r"(?i).*(?:\b(?:system|source|tee|pager)\b|\\!).*",
        "mariadb": r"(?i).*(?:\b(?:system|source|tee|pager)\b|\\!).*",
        "sqlite3": r"\..*",
        "gnuplot": r"-e.*|--?eval.*|-c.*",
        # the linker's `-extld PROG` and `-extar PROG` run PROG; `-extldflags` hands the C
        # compiler options such as `-wrapper sh,-c,CMD` (AG5, AP8); inside a flags value
        # (`-ldflags "-cpuprofile ~/.bashrc"`) the compiler's and linker's file options
        # write any file, unseen by the path checks
        "go": r".*-ext(?:ld|ar).*|(?=.*(?:\s|flags=)).*-(?:cpuprofile|memprofile|blockprofile"
        r"|mutexprofile|trace|tmpdir|importcfg|dumpdep|pluginpath|o|D|I|buildid)(?:[=\s].*|$)",
    }
)
