"""Built-in checks named by `checked-by CHECK`: small pure functions over a command's words.

Stage: compiler (run by the rule tree at lookup). Imports the shell model and option view.
Each check takes the command's words (argv[0] first) and its option view and returns None
when the command passes, or a one-line reason why it does not. Anything a check cannot see
(a non-literal word, a script file) fails: checks only ever keep a rule from allowing.

>>> from policylang.shell.model import Word
>>> from policylang.shell.options import DEFAULT_OPTION_SPECS, option_view
>>> from policylang.span import Span
>>> def words(*values): return [Word(text=v, value=v, span=Span(0, 0)) for v in values]
>>> argv = words("sed", "-n", "s/a/b/w out.txt", "f")
>>> sed_script(argv, option_view(argv, DEFAULT_OPTION_SPECS["sed"]))
'sed script writes a file (`w` flag of `s`)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from policylang.shell.model import Word
from policylang.shell.options import DEFAULT_OPTION_SPECS, OptionSpec, OptionView, option_view

Check = Callable[[Sequence[Word], OptionView], "str | None"]


# --------------------------------------------------------------------------- sed


def sed_script(words: Sequence[Word], view: OptionView) -> str | None:
    """sed runs no commands and writes or reads no other files.

    Fails on the `e`, `w`, `W`, `r`, `R` commands, the `e` and `w` flags of `s`, `-f`
    script files, any non-literal script, any script with non-ASCII characters and any
    script this check cannot read to its end as GNU sed reads it (an address regex, `s` or
    `y` that does not end, a flag of `s` it does not know).
    """
    if view.unknown:
        return "sed has a non-literal word where an option could be"
    scripts: list[str | None] = []
    for option in view.options:
        if option.name in ("-f", "--file"):
            return "sed reads its script from a file"
        if option.name in ("-e", "--expression"):
            scripts.append(option.value)
    if not scripts and view.operands:
        scripts.append(words[view.operands[0]].value)
    for script in scripts:
        if script is None:
            return "sed script is not literal"
        if not script.isascii():
            # sed reads a script by bytes in the C locale and by characters in UTF-8: a
            # delimiter or an `s` part may end elsewhere than this check sees (review G2)
            return "sed script has non-ASCII characters, read differently by locale"
        problem = _sed_problem(script)
        if problem is not None:
            return problem
    return None


_SED_SIMPLE = frozenset("=dDgGhHlnNpPqQxzF{}!#")
_SED_LABEL = frozenset("bt:T")
_SED_TEXT = frozenset("aic")
# the flags of `s` besides `w` (which takes the rest of the line as a file name)
_SED_S_FLAGS = frozenset("gpiImMe0123456789 \t")


def _sed_problem(script: str) -> str | None:
    i, n = 0, len(script)
    while i < n:
        i = _skip_address(script, i)
        if i < 0:
            return "sed script has an unterminated address regex"
        if i >= n:
            break
        cmd = script[i]
        i += 1
        if cmd in " \t\n;":
            continue
        if cmd in "ewWrR":
            return f"sed script uses the `{cmd}` command"
        if cmd == "s":
            i = _skip_parts(script, i, regex=True)
            if i < 0:
                return "sed script has an unterminated `s` command"
            i, flags = _substitution_flags(script, i)
            if flags is None:
                return f"sed script has an unknown flag `{script[i]}` of `s`"
            for flag in "ew":
                if flag in flags:
                    effect = "runs a command" if flag == "e" else "writes a file"
                    return f"sed script {effect} (`{flag}` flag of `s`)"
        elif cmd == "y":
            i = _skip_parts(script, i, regex=False)
            if i < 0:
                return "sed script has an unterminated `y` command"
            i = _to_command_end(script, i)
        elif cmd in _SED_LABEL:
            i = _after_label(script, i)
            if i < 0:
                return f"sed `{cmd}` label is followed by more text (GNU sed runs it)"
        elif cmd in _SED_TEXT or cmd == "#":
            i = _to_line_end(script, i)
        elif cmd not in _SED_SIMPLE:
            return f"sed script has an unknown command `{cmd}`"
    return None


def _after_label(script: str, i: int) -> int:
    """Past the label of `:`, `b`, `t` or `T` and the blanks after it; -1 when something
    other than `;`, a newline, `}` or the end follows. GNU sed ends a label at a blank and
    reads what follows as the next command (`:a e touch x` runs `e touch x`, review G5),
    where other seds take the rest of the line for the label: such a script is refused."""
    n = len(script)
    while i < n and script[i] in " \t":
        i += 1
    while i < n and script[i] not in " \t\n;":
        i += 1
    while i < n and script[i] in " \t":
        i += 1
    # `bb }`: a block may close right after the label (`}` is then the next command)
    return i if i >= n or script[i] in "\n;}" else -1


def _to_line_end(script: str, i: int) -> int:
    while i < len(script) and script[i] != "\n":
        i += 1
    return i


def _to_command_end(script: str, i: int) -> int:
    while i < len(script) and script[i] not in ";\n}":
        i += 1
    return i


def _skip_address(script: str, i: int) -> int:
    """Past the addresses (and `!`) before a command; -1 when a regex address does not end:
    sed refuses the script, and what this check would read after it is not sed's reading."""
    n = len(script)
    while i < n:
        ch = script[i]
        if ch.isdigit() or ch in "$,~+! \t":
            i += 1
        elif ch in "/\\":
            if ch == "\\" and i + 1 >= n:
                return -1
            delim = script[i + 1] if ch == "\\" else "/"
            i = _skip_delimited(script, i + (2 if ch == "\\" else 1), delim, regex=True)
            if i < 0:
                return -1
            while i < n and script[i] in "IM":
                i += 1
        else:
            return i
    return i


def _skip_parts(script: str, i: int, regex: bool) -> int:
    """Past the two delimited parts of `s` (a regex, then a replacement) or of `y` (two
    lists, no regex: `[` is a character there, review BK2); -1 when one does not end."""
    if i >= len(script) or script[i] in "\\\n":
        return -1
    delim = script[i]
    i = _skip_delimited(script, i + 1, delim, regex)
    if i < 0:
        return -1
    # the replacement of `s` is text: a `[` there opens nothing
    return _skip_delimited(script, i, delim, regex=False)


def _skip_delimited(script: str, i: int, delim: str, regex: bool) -> int:
    """Past the `delim` that ends the part starting at `i`, as GNU sed's `match_slash`
    reads it; -1 when the part does not end (the script end or an unescaped newline first).

    In a regex, a bracket expression is read whole: GNU sed does not end a regex at a
    delimiter inside one, so `s/[/]/;/e` is the regex `[/]`, the replacement `;` and the
    flag `e`, which runs the pattern space with sh (review BK2)."""
    n = len(script)
    while i < n:
        ch = script[i]
        if ch == "\n":
            return -1  # sed stops at a newline before it looks for the delimiter
        if ch == delim:
            return i + 1
        if ch == "\\":
            i += 2  # `\/`, `\\`, an escaped newline: the next character is the part's
        elif ch == "[" and regex:
            i = _skip_bracket(script, i + 1)
            if i < 0:
                return -1
        else:
            i += 1
    return -1


# where `_skip_bracket` is: in the list, after a `[` (a class may open), inside a
# `[:`, `[.` or `[=` class, after its closing `:`, `.` or `=` (a `]` closes the class)
_LIST, _OPENING, _CLASS, _CLOSING = 0, 1, 2, 3


def _skip_bracket(script: str, i: int) -> int:
    """Past the `]` that ends the bracket expression whose `[` is just before `i`; -1 when
    it does not end. GNU sed's `snarf_char_class`: a `^` and then a `]` first are part of
    the list, a `]` inside `[:alpha:]`, `[.x.]` or `[=x=]` ends only that class, and a
    backslash is a plain character (`[\\/]` is a backslash and a slash)."""
    n = len(script)
    if i < n and script[i] == "^":
        i += 1
    if i < n and script[i] == "]":
        i += 1
    state, opener = _LIST, ""
    while i < n:
        ch = script[i]
        i += 1
        if ch == "\n":
            return -1
        if ch in ".:=" and state == _OPENING:
            state, opener = _CLASS, ch
            continue
        if ch in ".:=" and state == _CLASS and ch == opener:
            state = _CLOSING
            continue
        if ch == "[":
            if state == _LIST:
                state = _OPENING
            continue  # sed keeps any other state on a `[`
        if ch == "]":
            if state in (_LIST, _OPENING):
                return i
            if state == _CLOSING:
                state = _LIST
        # any other character: after `[` back to the list, after a class's `:` back in it
        if state == _OPENING:
            state = _LIST
        elif state == _CLOSING:
            state = _CLASS
    return -1


def _substitution_flags(script: str, i: int) -> tuple[int, str | None]:
    """The flags of `s` from `i` up to `;`, a newline, `}` or `#` (GNU sed reads those two
    as the next command); a `w` ends them, its file name runs to the end of the line. None
    (and `i` at it) for a character GNU sed does not take as a flag: this check no longer
    reads the script as sed does."""
    n, start = len(script), i
    while i < n and script[i] not in ";\n}#":
        if script[i] == "w":
            return _to_line_end(script, i), script[start : i + 1]
        if script[i] not in _SED_S_FLAGS:
            return i, None
        i += 1
    return i, script[start:i]


# --------------------------------------------------------------------------- find


FIND_ACTIONS = frozenset(
    {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}
)


def find_expr(words: Sequence[Word], view: OptionView) -> str | None:
    """find's expression runs nothing and writes nothing; every word is literal."""
    for word in words[1:]:
        if word.value is None:
            return "find has a non-literal word"
        if word.value in FIND_ACTIONS:
            return f"find expression uses `{word.value}`"
    return None


# --------------------------------------------------------------------------- git


# whole sections whose every key only formats output
SAFE_GIT_CONFIG_SECTIONS: tuple[str, ...] = ("color.", "column.", "advice.", "i18n.")
# single keys, matched whole: `diff.renames` is harmless, but `diff.renames.textconv` is
# the textconv program of a diff driver *named* `renames`, which `.gitattributes` in the
# repository can select (`* diff=renames`): a prefix match ran it (review AW1)
SAFE_GIT_CONFIG_KEYS: frozenset[str] = frozenset({
    "core.quotepath", "core.abbrev", "init.defaultbranch", "user.name", "user.email",
    "status.short", "status.branch", "grep.linenumber", "diff.noprefix", "diff.renames",
    "diff.algorithm", "diff.context", "diff.interhunkcontext", "log.decorate",
    "log.abbrevcommit", "log.date", "log.follow",
})  # fmt: skip
# keys whose value is a format: harmless unless it verifies signatures (`%G?` runs gpg)
_GIT_FORMAT_KEYS = ("format.pretty", "pretty.")


def harmless_git_setting(setting: str) -> bool:
    """Whether `git -c KEY=VALUE` sets a key known to run nothing and read no other file
    (not `log.showSignature`, not `blame.ignoreRevsFile`, no `%G` in a format).

    >>> [harmless_git_setting(s) for s in ("color.ui=always", "core.fsmonitor=x",
    ...     "log.showSignature=true", "pretty.x=%h %s", "format.pretty=%G?")]
    [True, False, False, True, False]
    >>> [harmless_git_setting(s) for s in ("diff.renames=true", "diff.renames.textconv=sh")]
    [True, False]
    """
    key, _, value = setting.partition("=")
    key = key.lower()
    if key.startswith(_GIT_FORMAT_KEYS):
        plain = value.replace("%%", "")
        return "%G" not in plain and "%(signature" not in plain
    if key in SAFE_GIT_CONFIG_KEYS:
        return True
    # a section's keys, but no subsection of a driver-like name (`color.x.y` is a slot)
    return key.startswith(SAFE_GIT_CONFIG_SECTIONS)


def git_config_keys(words: Sequence[Word], view: OptionView) -> str | None:
    """Every `git -c KEY=VALUE` sets a harmless key; no `--config-env`, no `--exec-path`."""
    spec = DEFAULT_OPTION_SPECS.get("git", OptionSpec())
    git_view = option_view(words, spec, start=1)
    if git_view.unknown:
        return "git has a non-literal word where an option could be"
    for option in git_view.options:
        if option.name in ("--config-env", "--exec-path"):
            return f"git option `{option.name}` can run programs"
        if option.name != "-c":
            continue
        if option.value is None:
            return "git -c value is not literal"
        if not harmless_git_setting(option.value):
            key = option.value.partition("=")[0].lower()
            return f"git -c sets `{key}`, which is not known to be harmless"
    return None


# --------------------------------------------------------------------------- xargs


XARGS_SAFE_TARGETS = frozenset(
    {"grep", "egrep", "fgrep", "rg", "cat", "head", "tail", "wc", "ls", "file", "stat",
     "echo", "printf", "basename", "dirname", "du", "md5sum", "sha1sum", "sha256sum",
     "realpath", "readlink", "test", "true", "false"}
)  # fmt: skip


def xargs_target(words: Sequence[Word], view: OptionView) -> str | None:
    """The command xargs runs is a read-only tool (no command means `echo`)."""
    spec = DEFAULT_OPTION_SPECS.get("xargs", OptionSpec())
    xargs_view = option_view(words, spec, start=1)
    if xargs_view.unknown:
        return "xargs has a non-literal word where an option could be"
    if xargs_view.rest >= len(words):
        return None
    target = words[xargs_view.rest].value
    if target is None:
        return "xargs runs a non-literal command"
    if target not in XARGS_SAFE_TARGETS:
        return f"xargs runs `{target}`, which is not a read-only tool"
    if target in ("grep", "egrep", "fgrep", "rg") and any(
        w.value in ("--pre", "--pre-glob") or w.value is None for w in words[xargs_view.rest :]
    ):
        return "xargs runs a search with a preprocessor"
    return None


# --------------------------------------------------------------------------- tar


def tar_local(words: Sequence[Word], view: OptionView) -> str | None:
    """tar's archive is a local file: no `HOST:FILE` archive name without `--force-local`.

    GNU tar opens an archive named `HOST:FILE` (a `:` before any `/`) on HOST through
    `rsh` (often `ssh`) and `rmt`: a DNS lookup, the network and another program. Fails on
    such a name and on an archive name or option that is not literal.
    """
    if view.unknown:
        return "tar has a non-literal word where an option could be"
    if view.has("--force-local"):
        return None
    for option in view.find("-f", "--file"):
        value = option.value
        if not option.literal:
            # `~/x.tar`, `"$DIR"/x.tar`: local if a `/` comes before any `:` or expansion
            value = _literal_start(words[option.arg_indexes[0]].text) if option.arg_indexes else ""
            if "/" not in value or ":" in value.partition("/")[0]:
                return "tar archive name is not literal"
        if value is not None and is_remote_archive(value):
            return f"tar archive `{value}` is on a remote host (tar runs rsh for it)"
    return None


def _literal_start(text: str) -> str:
    """The start of a word's text before anything that expands (`~/` read as `/`)."""
    if text.startswith("~/"):
        return "/"
    for index, char in enumerate(text):
        if char in "$`*?[{\\\"'~":
            return text[:index]
    return text


def is_remote_archive(name: str) -> bool:
    """Whether GNU tar (and cpio, mt) read `name` as `[USER@]HOST:FILE` (rmt.h `_remdev`).

    >>> [is_remote_archive(n) for n in ("localhost:x.tar", "u@h:x", "./a:b.tar", ":x", "x.tar")]
    [True, True, False, False, False]
    """
    colon = name.find(":")
    return colon > 0 and "/" not in name[:colon]


# --------------------------------------------------------------------------- git formats


def git_signatures(words: Sequence[Word], view: OptionView) -> str | None:
    """git verifies no signature: no `%G` placeholder in a format (`%G?`, `%GS`, `%GK` …
    run `gpg.program`, `gpg.ssh.program` or `gpg.x509.program` on each signed commit, as
    `--show-signature` does; so do ref-filter's `%(signature)` and `%(*signature)` in
    `for-each-ref`, `branch` and `tag` listings, and a `--sort` key that names it, which
    computes it: review DT3). Fails on such a placeholder in any word, on a sort key of
    `signature` and on a non-literal word.

    >>> from policylang.span import Span
    >>> def run(*values):
    ...     argv = [Word(text=v, value=v, span=Span(0, 0)) for v in values]
    ...     return git_signatures(argv, option_view(argv, OptionSpec()))
    >>> run("git", "log", "--format=%h %s"), run("git", "log", "--pretty=format:%G?")
    (None, 'git format `--pretty=format:%G?` verifies signatures (runs gpg)')
    >>> run("git", "log", "--format=%%G")  # an escaped percent sign
    >>> run("git", "tag", "-l", "--sort", "-*signature:grade")
    'git sorts by `-*signature:grade`, which verifies signatures (runs gpg)'
    >>> run("git", "for-each-ref", "--sor=signature"), run("git", "for-each-ref", "--so", "x")
    ('git sorts by `signature`, which verifies signatures (runs gpg)', None)
    """
    sorting = False
    for word in words[1:]:
        text = word.value
        if text is None:
            return "git has a non-literal word (a format could verify signatures)"
        key = text if sorting else _sort_key(text)
        sorting = _is_sort_option(text)
        if _SIGNATURE_SORT.match(key):
            return f"git sorts by `{key}`, which verifies signatures (runs gpg)"
        plain = text.replace("%%", "")
        # `%+GS`, `%-GK`, `% G?`: a `+`, `-` or space may stand between (review BC8)
        if _SIGNATURE_PLACEHOLDER.search(plain):
            return f"git format `{text}` verifies signatures (runs gpg)"
    return None


def _sort_key(text: str) -> str:
    """The key of a `--sort=KEY` word, `--sor=KEY` too ("" for any other word)."""
    option, equals, key = text.partition("=")
    return key if equals and _is_sort_option(option) else ""


def _is_sort_option(text: str) -> bool:
    """Whether `text` is `--sort` or a prefix git's parse-options takes for it (`--so`,
    `--sor`: review DW4; an ambiguous one fails, so taking it costs nothing)."""
    return len(text) >= 3 and "--sort".startswith(text)


# `%(*signature)`: the peeled object's (review DT3)
_SIGNATURE_PLACEHOLDER = re.compile(r"%[-+ ]?(?:G|\(\*?signature)")
# a sort key of ref-filter's `signature` atom (`-*signature:grade`), in any case
_SIGNATURE_SORT = re.compile(r"(?i)-?\*?signature\b")


# --------------------------------------------------------------------------- ulimit

# bash's `ulimit` letters; each takes its limit attached (`-cunlimited`) or as the next word
_ULIMIT_LETTERS = frozenset("abcdefiklmnpqrstuvxPRT")


def ulimit_query(words: Sequence[Word], view: OptionView) -> str | None:
    """`ulimit` only prints limits: every word is `-` and letters (`-a`, `-Sn`, `-H -c`).

    bash reads what follows a resource letter in the same word as the new limit
    (`ulimit -cunlimited` sets it: review BC7), and an operand is a limit too.

    >>> from policylang.span import Span
    >>> def run(*values):
    ...     argv = [Word(text=v, value=v, span=Span(0, 0)) for v in values]
    ...     return ulimit_query(argv, option_view(argv, OptionSpec()))
    >>> run("ulimit", "-a"), run("ulimit", "-Hn"), run("ulimit", "-cunlimited")
    (None, None, 'ulimit sets a limit (`-cunlimited`)')
    """
    for word in words[1:]:
        text = word.value
        if text is None:
            return "ulimit has a non-literal word (it could be a limit)"
        letters = text[1:]
        if not text.startswith("-") or not letters:
            return f"ulimit sets a limit (`{text}`)"
        resources = [c for c in letters if c not in "HS"]
        if len(resources) > 1 or any(c not in _ULIMIT_LETTERS for c in resources):
            return f"ulimit sets a limit (`{text}`)"
        if resources and letters.index(resources[0]) != len(letters) - 1:
            return f"ulimit sets a limit (`{text}`)"
    return None


# --------------------------------------------------------------------------- ps


# UNIX-style ps options whose value may be the next word (`-o pid,etime`, `-p 1`)
_PS_VALUED = frozenset("oOpqsuUgGCtkN")
_PS_LONG_VALUED = frozenset(
    {"--format", "--sort", "--pid", "--ppid", "--quick-pid", "--sid", "--user", "--User",
     "--group", "--Group", "--cols", "--columns", "--width", "--rows", "--lines", "--tty"}
)  # fmt: skip


def ps_environment(words: Sequence[Word], view: OptionView) -> str | None:
    """ps prints no process's environment.

    procps reads `e` as "show the environment" in BSD syntax: in a word without a dash
    (`ps eww`), and also in `-e` once `x` or `t` switches the line to BSD parsing:
    `ps -ex`, `ps -e -x`, `ps -auxe`, `ps -et` all print every process's environment
    (review G3), while `ps -ef` and `ps -eo …` list all processes; BSD's `-E` prints
    them too (review DR7). lsof looks up no host (`_lsof_host`); nothing else is checked.

    >>> from policylang.span import Span
    >>> def run(*values):
    ...     argv = [Word(text=v, value=v, span=Span(0, 0)) for v in values]
    ...     return ps_environment(argv, option_view(argv, OptionSpec()))
    >>> run("ps", "-ef"), run("ps", "-e", "-o", "pid,etime,args"), run("ps", "aux")
    (None, None, None)
    >>> run("ps", "-auxe") == run("ps", "-e", "-x") == "ps -e with BSD options prints environments"
    True
    >>> run("ps", "eww"), run("pgrep", "-x", "e")
    ('ps BSD option `e` or `E` prints environments', None)
    """
    if words and words[0].value == "lsof":
        return _lsof_host(words)
    if not words or words[0].value != "ps":
        return None
    dash_e = bsd = skip = False
    for word in words[1:]:
        text = word.value
        if skip:  # an option's value (`-p "$pid"`)
            skip = False
            if word.may_split:
                # `ps -o a*` is `ps -o args axe` beside files named so (review CH8)
                return "ps has an option value bash may make several words of"
            continue
        if text is None:
            return "ps has a non-literal word where an option could be"
        if text.startswith("--"):
            skip = "=" not in text and text in _PS_LONG_VALUED
        elif text.startswith("-") and len(text) > 1:
            if "E" in text.partition("=")[0]:
                # BSD's and macOS's `-E`: every process's environment (review DR7)
                return "ps -E prints environments"
            dash_e = dash_e or "e" in text
            bsd = bsd or "x" in text or "t" in text
            skip = text[-1] in _PS_VALUED  # its value is the next word
        elif "e" in text or "E" in text:
            # (BSD's ps reads a first word without a dash as options: `ps auxE`, DT13)
            return "ps BSD option `e` or `E` prints environments"
        else:
            bsd = True
    if dash_e and bsd:
        return "ps -e with BSD options prints environments"
    return None


def _lsof_host(words: Sequence[Word]) -> str | None:
    """lsof names no host to look up: an internet address (`-i @HOST:port`) whose host
    is a name, not a numeric address, is resolved, `-n` or not, and a DNS query for
    `DATA.evil.example` sends the data out (review DR1).

    >>> from policylang.span import Span
    >>> def run(*values):
    ...     return _lsof_host([Word(text=v, value=v, span=Span(0, 0)) for v in values])
    >>> run("lsof", "-i", ":8080"), run("lsof", "-i", "@127.0.0.1:22"), run("lsof", "-i@[::1]")
    (None, None, None)
    >>> run("lsof", "-n", "-i", "@x.evil.example")
    'lsof looks up the host `x.evil.example` (a DNS query)'
    """
    for word in words[1:]:
        text = word.value
        if text is None:
            return "lsof has a non-literal word, which may name a host to look up"
        host = text.partition("@")[2] if "@" in text else None
        if host is None:
            continue
        host = host[1:].partition("]")[0] if host.startswith("[") else host.partition(":")[0]
        if host and not _NUMERIC_HOST.fullmatch(host):
            return f"lsof looks up the host `{host}` (a DNS query)"
    return None


# a numeric address: IPv4, or IPv6 (which lsof takes in brackets; a name of hex letters,
# `bad.cafe`, is no address)
_NUMERIC_HOST = re.compile(r"[0-9.]+|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*")


# --------------------------------------------------------------------------- unzip

_UNZIP_LISTING = frozenset("ltvZ")
_UNZIP_TO_OUTPUT = frozenset("pc")


def unzip_listing(words: Sequence[Word], view: OptionView) -> str | None:
    """unzip only lists or tests: `-l`, `-t`, `-v` or `-Z` comes before the archive name.

    UnZip reads its options only before the archive; after it, every word but `-x` and
    `-d` is a member name, so `unzip x.zip '*' -l` extracts everything (and `-l` is a
    name that matches nothing). Fails when no listing flag precedes the archive, and on a
    word that is not literal before it. The letters are read as unzip reads them
    (`unzip_options`): `-Pt` is the password `t`, and a `-` inside a word negates the
    next letter (`-l-l` lists nothing, and extracts).

    >>> from policylang.span import Span
    >>> def run(*values):
    ...     argv = [Word(text=v, value=v, span=Span(0, 0)) for v in values]
    ...     return unzip_listing(argv, option_view(argv, OptionSpec()))
    >>> run("unzip", "-l", "x.zip"), run("unzip", "-qql", "x.zip", "a", "-d", "out")
    (None, None)
    >>> run("unzip", "x.zip", "*", "-l")
    'unzip takes options only before the archive name: it would extract'
    >>> run("unzip", "-lp", "x.zip"), run("unzip", "-Zp", "x.zip")
    ('unzip -p or -c extracts the members to standard output', None)
    >>> run("unzip", "-Pt", "x.zip"), run("unzip", "-l", "-d", "out", "x.zip")
    ('unzip takes options only before the archive name: it would extract', None)
    >>> run("unzip", "-l-l", "x.zip")
    'unzip reads a `-` inside an option word as negating the next letter: it may extract'
    """
    letters = unzip_options([w.value for w in words[1:]])
    if isinstance(letters, tuple):
        return letters[0]
    zipinfo = letters.startswith("Z")  # `-Z` first: zipinfo's options, which only list
    if not zipinfo and set(letters) & _UNZIP_TO_OUTPUT:
        # `-p` and `-c` win over `-l`, `-t`, `-v`: `unzip -lp x.zip` prints every member
        # (review BC5)
        return "unzip -p or -c extracts the members to standard output"
    if not zipinfo and "T" in letters:
        # `-T` sets the archive's time stamp even while it lists (review FF9)
        return "unzip -T rewrites the archive's time stamp"
    if set(letters) & _UNZIP_LISTING:
        return None
    return "unzip takes options only before the archive name: it would extract"


def unzip_options(values: Sequence[str | None]) -> str | tuple[str]:
    """The option letters UnZip 6 reads before its archive name (`values`: the words after
    `unzip`), without the values of `-d` and `-P` (the rest of their word, else the next
    word: `-Pt` is the password `t`, `-d.git/hooks` the folder to extract to); or, as a
    1-tuple, why they cannot be told: a word that is not literal, or a `-` inside an
    option word or doubled before it, which negates the next letter (`-l-l`, `-l --l`
    list nothing, and extract: review EY3).

    >>> unzip_options(["-qql", "-d", "out", "x.zip"]), unzip_options(["-dl", "x.zip"])
    ('qqld', 'd')
    """
    letters = ""
    taken = False  # the word is the value of the `-d` or `-P` before it
    for value in values:
        if value is None:
            return ("unzip has a non-literal word before its archive name",)
        if taken:
            taken = False
            continue
        if not value.startswith("-") or value == "-":
            break
        word = value[1:]
        cut = min((i for i in (word.find("d"), word.find("P")) if i >= 0), default=-1)
        if cut >= 0:
            taken = cut == len(word) - 1
            word = word[: cut + 1]
        if "-" in word:
            return (
                "unzip reads a `-` inside an option word as negating the next letter: "
                "it may extract",
            )
        letters += word
    return letters


# --------------------------------------------------------------------------- one file

# GNU uniq's getopt string is "-0123456789Dcdf:is:uw:z" (the leading `-` returns operands in
# order, so options may follow them); its long options, those that take a value marked
_UNIQ_FLAGS = frozenset("0123456789Dcdiuz")
_UNIQ_VALUED = frozenset("fsw")
_UNIQ_LONG = {
    "count": False, "repeated": False, "all-repeated": False, "group": False,
    "ignore-case": False, "unique": False, "zero-terminated": False, "help": False,
    "version": False, "skip-fields": True, "skip-chars": True, "check-chars": True,
}  # fmt: skip
# xxd (vim's, 2022) reads an option by its first letter (`-len` is `-l`, `--ps` is `-p`);
# these take a value, from the next word when the letter stands alone
_XXD_VALUED = frozenset("cglnos")
_XXD_FLAGS = frozenset("abCEehiprduv")


def one_file(words: Sequence[Word], view: OptionView) -> str | None:
    """`uniq` and `xxd` are given at most one file: a second operand is the file they
    write (`uniq IN OUT`, `xxd IN OUT`: review EY6).

    The words are read as each program reads them: uniq's options may follow its first
    file, and with `POSIXLY_CORRECT` in the environment every word after the first file
    is a file (both readings count); xxd takes options only before its files, by their
    first letter, a valued one taking the next word when alone, or digits or a sign
    glued to it (`-l16`, `-s-8`); one with letters after it (`-len 4`, `-cols 8`, `-name
    x`) may take the next word, and fails. A word that is not
    literal, an option not known and `+N` (a file where uniq is strict POSIX) fail.

    >>> from policylang.span import Span
    >>> def run(*values):
    ...     argv = [Word(text=v, value=v, span=Span(0, 0)) for v in values]
    ...     return one_file(argv, option_view(argv, OptionSpec()))
    >>> run("uniq", "-c", "a.txt"), run("uniq", "-f", "2", "a.txt"), run("xxd", "-l", "16", "a")
    (None, None, None)
    >>> run("uniq", "a.txt", "-c")
    'uniq writes its second operand (`-c`)'
    >>> run("xxd", "-pl", "16", "a.txt")
    'xxd writes its second operand (`a.txt`)'
    """
    name = (words[0].value or "").rpartition("/")[2] if words else ""
    values = [word.value for word in words[1:]]
    if any(value is None for value in values):
        return f"{name} has a non-literal word (it may be a second operand, which {name} writes)"
    texts = [value for value in values if value is not None]
    if name == "uniq":
        operands = _uniq_operands(texts)
    elif name == "xxd":
        operands = _xxd_operands(texts)
    else:
        return f"the one-file check does not know `{name}`"
    if isinstance(operands, tuple):
        return operands[0]
    if len(operands) > 1:
        return f"{name} writes its second operand (`{operands[1]}`)"
    return None


def _uniq_operands(values: Sequence[str]) -> list[str] | tuple[str]:
    """uniq's operands among `values` (the words after `uniq`), the more of its two
    readings (options anywhere; with `POSIXLY_CORRECT`, none after the first file), or
    as a 1-tuple why they cannot be told."""
    anywhere: list[str] = []
    in_order: list[str] = []
    options_done = taken = False
    for value in values:
        if taken:
            taken = False
            continue
        if options_done or value == "-" or not value.startswith("-"):
            anywhere.append(value)
            in_order.append(value)
            continue
        if in_order:  # (POSIXLY_CORRECT: a word after the first file is a file)
            in_order.append(value)
        if value == "--":
            options_done = True
        elif value.startswith("--"):
            found = _uniq_long(value[2:])
            if found is None:
                return (f"uniq option `{value}` is not one this check knows",)
            taken = found
        else:
            for at, letter in enumerate(value[1:], start=1):
                if letter in _UNIQ_VALUED:
                    taken = at == len(value) - 1
                    break
                if letter not in _UNIQ_FLAGS:
                    return (f"uniq option `{value}` is not one this check knows",)
    if taken:
        return ("uniq option takes a value that is missing",)
    return anywhere if len(anywhere) >= len(in_order) else in_order


def _uniq_long(text: str) -> bool | None:
    """Whether uniq's long option `--TEXT` takes the next word as its value (False when
    glued with `=` or taking none); None for one not known or ambiguous."""
    name, eq, _value = text.partition("=")
    if name in _UNIQ_LONG:
        found = [name]
    else:
        found = [option for option in _UNIQ_LONG if name and option.startswith(name)]
    if len(found) != 1:
        return None
    return _UNIQ_LONG[found[0]] and not eq


def _xxd_operands(values: Sequence[str]) -> list[str] | tuple[str]:
    """xxd's operands among `values` (the words after `xxd`), or as a 1-tuple why they
    cannot be told."""
    at = 0
    while at < len(values):
        value = values[at]
        option = value[1:] if value.startswith("--") and len(value) > 2 else value
        if option == "--":
            at += 1
            break
        if not option.startswith("-") or option == "-":
            break
        letter = option[1]
        if letter in _XXD_VALUED and len(option) == 2:
            at += 1  # (its value is the next word)
        elif letter in _XXD_VALUED and option[2].isalpha():
            # `-len`, `-cols`, `-name`, `-seek` take the next word, `-lx` its rest: a
            # flag read here would let a later `-c` take the file (review FM1)
            return (f"xxd option `{value}` may take the next word as its value",)
        elif letter not in _XXD_VALUED and letter not in _XXD_FLAGS:
            return (f"xxd option `{value}` is not one this check knows",)
        at += 1
    return list(values[at:])


# --------------------------------------------------------------------------- jq


_JQ_MODULES = re.compile(r"\b(?:import|include|modulemeta)\b")
# jq's `env` builtin and `$ENV` hold the whole environment (`.env`, a field, does not)
# (`$ ENV` and `$#c⏎ENV` too: jq allows blanks and comments after `$`, review AA5)
_JQ_ENVIRONMENT = re.compile(r"\$(?:\s|#[^\n]*(?:\n|$))*ENV\b|(?<![.\w$])env\b")


def jq_program(words: Sequence[Word], view: OptionView) -> str | None:
    """jq reads no file but its operands and `--rawfile`/`--slurpfile` files.

    A module search path (`-L DIR`, `--library-path`) or a module path in the program
    (`import "../../home/u/.docker/config" as $c`: jq appends `.json` and looks in
    `$ORIGIN/../lib` too, so `..` climbs out of it) reads and prints any JSON or jq file, so
    the check fails on `-L`, on `import`, `include` or `modulemeta` in any word, on a
    program read from a file (`-f`, `--from-file`, `--run-tests`) and on any word that is
    not literal.
    It fails on `env` and `$ENV` too: they print the environment, tokens included.
    jq reads a short option from every letter of a word that starts with one dash
    (`-nf` is `-n -f`).
    """
    options = True
    for word in words[1:]:
        text = word.value
        if text is None:
            return "jq has a non-literal word"
        if text == "--":
            options = False
        if not options:
            continue
        if text in ("--library-path", "--from-file", "--run-tests") or text.startswith(
            ("--library-path=", "--run-tests=")
        ):
            return f"jq option `{text.partition('=')[0]}` reads modules or a program from files"
        if text.startswith("-") and not text.startswith("--"):
            if "L" in text:
                return "jq option `-L` adds a module search path"
            if "f" in text:
                return "jq option `-f` reads the program from a file"
    for word in words[1:]:
        if word.value is not None and _JQ_MODULES.search(word.value):
            return "jq program imports a module (it can read any JSON file)"
        if word.value is not None and _JQ_ENVIRONMENT.search(word.value):
            return "jq program reads the environment (`env`, `$ENV`), secrets included"
    return None


CHECKS: Mapping[str, Check] = MappingProxyType(
    {
        "sed-script": sed_script,
        "find-expr": find_expr,
        "git-config-keys": git_config_keys,
        "xargs-target": xargs_target,
        "tar-local": tar_local,
        "jq-program": jq_program,
        "unzip-listing": unzip_listing,
        "git-signatures": git_signatures,
        "ps-environment": ps_environment,
        "ulimit-query": ulimit_query,
        "one-file": one_file,
    }
)
