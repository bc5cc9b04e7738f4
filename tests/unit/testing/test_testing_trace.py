"""Reading strace lines into effects (policylang.testing._trace): pure, nothing runs."""

from __future__ import annotations

import pytest

from policylang.testing._trace import (
    SECRET_TRACED_CALLS,
    TRACED_CALLS,
    Effect,
    Event,
    parse_line,
    parse_log,
)

EROFS = "-1 EROFS (Read-only file system)"


@pytest.mark.parametrize(
    ("line", "effect", "target"),
    [
        (f'openat(AT_FDCWD</workspace>, "out", O_WRONLY|O_CREAT|O_TRUNC, 0666) = {EROFS}',
         Effect.WRITE, "/workspace/out"),
        ('openat(AT_FDCWD</workspace>, "log", O_RDWR|O_APPEND) = 3</workspace/log>',
         Effect.WRITE, "/workspace/log"),
        ('openat(3</workspace/src>, "x.py", O_WRONLY|O_CREAT, 0644) = -1 EROFS',
         Effect.WRITE, "/workspace/src/x.py"),
        ('open("/home/oracle/.ssh/known_hosts", O_WRONLY|O_CREAT, 0644) = -1 EROFS',
         Effect.WRITE, "/home/oracle/.ssh/known_hosts"),
        ('creat("/workspace/a", 0644) = -1 EROFS', Effect.WRITE, "/workspace/a"),
        ('unlinkat(AT_FDCWD</workspace>, "file", 0) = -1 EROFS', Effect.WRITE,
         "/workspace/file"),
        ('renameat2(AT_FDCWD</w>, "a", AT_FDCWD</w>, "b", RENAME_NOREPLACE) = -1 EROFS',
         Effect.WRITE, "/w/a"),
        ('mkdir("/home/oracle/.config/procps", 0700) = -1 EROFS', Effect.WRITE,
         "/home/oracle/.config/procps"),
        ('utimensat(AT_FDCWD</workspace>, "x", NULL, 0) = -1 ENOENT', Effect.WRITE,
         "/workspace/x"),
        ("utimensat(0</workspace/x>, NULL, NULL, 0) = -1 EROFS", Effect.WRITE,
         "/workspace/x"),
        ("fchmod(3</workspace/x>, 0755) = -1 EROFS", Effect.WRITE, "/workspace/x"),
        ('openat(AT_FDCWD</>, "/tmp/sortXYZ", O_RDWR|O_CREAT|O_EXCL, 0600) = 3</tmp/sortXYZ>',
         Effect.TMP_WRITE, "/tmp/sortXYZ"),
        ('execve("/usr/bin/git", ["git", "log"], 0x7ffd /* 5 vars */) = 0', Effect.EXEC,
         "/usr/bin/git"),
        ("socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) = 5<socket:[1]>", Effect.NETWORK,
         "AF_INET"),
        ('connect(5<socket:[1]>, {sa_family=AF_INET6, sin6_port=htons(443)}, 28) = -1 '
         "ENETUNREACH", Effect.NETWORK, "AF_INET6"),
        ('openat(AT_FDCWD</w>, "a\\"b", O_WRONLY) = -1 EROFS', Effect.WRITE, '/w/a"b'),
        ('sethostname("example", 7) = -1 EPERM (Operation not permitted)', Effect.SYSTEM,
         '"example", 7'),
        ("clock_settime(CLOCK_REALTIME, {tv_sec=1577836800, tv_nsec=0}) = -1 EPERM",
         Effect.SYSTEM, "CLOCK_REALTIME, {tv_sec=1577836800, tv_nsec=0}"),
        ('openat(AT_FDCWD</w>, "slow", O_WRONLY <unfinished ...>', Effect.WRITE, "/w/slow"),
    ],
)
def test_effects_are_recognised(line: str, effect: Effect, target: str) -> None:
    event = parse_line(line)
    assert event is not None
    assert (event.effect, event.target) == (effect, target)


@pytest.mark.parametrize(
    "line",
    [
        'openat(AT_FDCWD</workspace>, "README", O_RDONLY) = 3</workspace/README>',
        'openat(AT_FDCWD</>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3',
        'openat(AT_FDCWD</w>, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null>',
        'openat(AT_FDCWD</w>, "/dev/tty", O_RDWR|O_NONBLOCK) = -1 ENXIO',
        'open("/proc/self/fd/1", O_WRONLY) = 3',
        'execve("/usr/local/bin/cat", ["cat"], 0x1 /* 3 vars */) = -1 ENOENT (No such file)',
        "socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, 0) = 3<socket:[9]>",
        "socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE) = 3<socket:[9]>",
        'connect(3<socket:[9]>, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) '
        "= -1 ENOENT",
        'mkdir("/home/oracle/.config", 0700) = -1 EEXIST (File exists)',
        "+++ exited with 0 +++",
        "wait4(-1, <unfinished ...>",
        "",
    ],
)
def test_reads_and_harmless_calls_are_not_effects(line: str) -> None:
    assert parse_line(line) is None


def test_parse_log_keeps_order() -> None:
    lines = [
        'execve("/usr/bin/sort", ["sort", "-o", "out"], 0x1 /* 3 vars */) = 0',
        'openat(AT_FDCWD</workspace>, "file", O_RDONLY) = 3</workspace/file>',
        f'openat(AT_FDCWD</workspace>, "out", O_WRONLY|O_CREAT|O_TRUNC, 0666) = {EROFS}',
    ]
    events = parse_log(lines)
    assert [e.effect for e in events] == [Effect.EXEC, Effect.WRITE]
    assert events[1].render() == f"write: openat(/workspace/out) = {EROFS}"


def test_traced_calls_cover_each_kind() -> None:
    calls = {name.lstrip("?") for name in TRACED_CALLS.split(",")}
    assert {"openat", "execve", "socket", "connect", "renameat2", "unlinkat",
            "utimensat", "sethostname", "clock_settime"} <= calls
    assert all(name.startswith("?") for name in TRACED_CALLS.split(","))


def test_event_render_without_result() -> None:
    event = Event(effect=Effect.EXEC, syscall="execve", target="/usr/bin/ls")
    assert event.render() == "exec: execve(/usr/bin/ls)"


SECRETS = frozenset({"/home/oracle/.ssh/id_rsa", "/workspace/.env"})


@pytest.mark.parametrize(
    ("line", "syscall", "target"),
    [
        ('read(3</home/oracle/.ssh/id_rsa>, "-----BEGIN OPENSSH"..., 131072) = 98', "read",
         "/home/oracle/.ssh/id_rsa"),
        # the data read may hold `) = `: the result is the last one
        ('read(0</workspace/.env>, "f(x) = 1\\n", 4096) = 9', "read", "/workspace/.env"),
        ('pread64(4</workspace/.env>, "API", 3, 0) = 3', "pread64", "/workspace/.env"),
        ("mmap(NULL, 31, PROT_READ, MAP_PRIVATE, 3</workspace/.env>, 0) = 0x7f6d2f238000",
         "mmap", "/workspace/.env"),
        ("sendfile(1<pipe:[7]>, 3</workspace/.env>, NULL, 131072) = 31", "sendfile",
         "/workspace/.env"),
        ("copy_file_range(3</workspace/.env>, NULL, 1</tmp/x>, NULL, 9223372035781033984, 0)"
         " = 31", "copy_file_range", "/workspace/.env"),
        ("splice(3</workspace/.env>, NULL, 1<pipe:[7]>, NULL, 131072, 0) = 31", "splice",
         "/workspace/.env"),
        ("read(3</workspace/.env>,  <unfinished ...>", "read", "/workspace/.env"),
        # the kernel read it, and refused it as a program
        ('execve("/workspace/.env", [".env"], 0x1 /* 3 vars */) = -1 ENOEXEC (Exec format '
         "error)", "execve", "/workspace/.env"),
    ],
)
def test_reads_of_secrets_are_recognised(line: str, syscall: str, target: str) -> None:
    event = parse_line(line, SECRETS)
    assert event is not None
    assert (event.effect, event.syscall, event.target) == (Effect.SECRET, syscall, target)
    assert parse_line(line) is None  # only when the secrets are named


@pytest.mark.parametrize(
    "line",
    [
        # opening is not reading: `df FILE` and `wc -c FILE` open a file to fstat it
        'openat(AT_FDCWD</workspace>, ".env", O_RDONLY|O_NOCTTY) = 3</workspace/.env>',
        'openat(AT_FDCWD</home/oracle>, ".ssh", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 3',
        'read(3</workspace/.env>, "", 131072) = 0',
        'read(3</workspace/.env>, 0x7ffd, 4096) = -1 EISDIR (Is a directory)',
        "mmap(NULL, 31, PROT_READ, MAP_PRIVATE, 3</workspace/.env>, 0) = -1 ENODEV",
        'read(3</workspace/README>, "see 4</workspace/.env> here", 4096) = 27',
        'read(3</workspace/README>, "policylang", 4096) = 10',
        'execve("/workspace/.env", [".env"], 0x1 /* 3 vars */) = -1 EACCES (Permission denied)',
    ],
)
def test_what_reads_no_secret_is_not_a_secret_read(line: str) -> None:
    event = parse_line(line, SECRETS)
    assert event is None or event.effect is not Effect.SECRET


def test_opening_a_secret_for_writing_stays_a_write() -> None:
    line = f'openat(AT_FDCWD</workspace>, ".env", O_RDWR) = {EROFS}'
    event = parse_line(line, SECRETS)
    assert event is not None
    assert event.effect is Effect.WRITE
    log = [line, 'read(3</workspace/.env>, "API_KEY=", 4096) = 8']
    assert [e.effect for e in parse_log(log, SECRETS)] == [Effect.WRITE, Effect.SECRET]
    assert [e.effect for e in parse_log(log)] == [Effect.WRITE]


def test_the_secrets_trace_list_adds_the_reads() -> None:
    calls = {name.lstrip("?") for name in SECRET_TRACED_CALLS.split(",")}
    assert calls == {n.lstrip("?") for n in TRACED_CALLS.split(",")} | {
        "read", "pread64", "readv", "preadv", "preadv2", "mmap", "sendfile", "sendfile64",
        "copy_file_range", "splice"}
    assert "read" not in {name.lstrip("?") for name in TRACED_CALLS.split(",")}


@pytest.mark.parametrize(
    ("line", "targets"),
    [
        ('renameat2(AT_FDCWD</w>, "a", AT_FDCWD</w>, "b", RENAME_NOREPLACE) = -1 EROFS',
         ["/w/a", "/w/b"]),
        ('rename("/w/x", "/w/.git/hooks/pre-commit") = -1 EROFS',
         ["/w/x", "/w/.git/hooks/pre-commit"]),
        ('symlinkat("/etc/passwd", 3</w/d>, "link") = -1 EROFS', ["/etc/passwd", "/w/d/link"]),
        ('linkat(AT_FDCWD</w>, "a", AT_FDCWD</w>, "b", 0) = -1 EROFS', ["/w/a", "/w/b"]),
        ('unlinkat(AT_FDCWD</w>, "a", 0) = -1 EROFS', ["/w/a"]),
    ],
)
def test_a_two_path_call_writes_both(line: str, targets: list[str]) -> None:
    # `mv x .git/hooks/pre-commit` writes its destination: the approval oracle needs it
    assert [e.target for e in parse_log([line])] == targets


@pytest.mark.parametrize(
    ("call", "argv"),
    [
        ('execve("/usr/bin/git", ["git", "config", "-z"], 0x1 /* 3 vars */) = 0',
         ("git", "config", "-z")),
        ('execve("/usr/bin/x", ["x", "a \\"b\\" c", "d\\ne"], 0x1 /* 3 vars */) = 0',
         ("x", 'a "b" c', "d\ne")),
        ('execve("/usr/bin/x", [], 0x1 /* 3 vars */) = 0', ()),
        # cut short by strace (a long string, a long array), or escaped past reading back
        ('execve("/usr/bin/x", ["x", "aaaa"...], 0x1 /* 3 vars */) = 0', None),
        ('execve("/usr/bin/x", ["x", ...], 0x1 /* 3 vars */) = 0', None),
        ('execve("/usr/bin/x", ["caf\\303\\251"], 0x1 /* 3 vars */) = 0', None),
    ],
)
def test_an_exec_keeps_its_arguments_where_the_trace_shows_them_whole(
    call: str, argv: tuple[str, ...] | None
) -> None:
    (event,) = parse_log([call])
    assert event.effect is Effect.EXEC
    assert event.argv == argv
