"""Probe commands for the dynamic oracle: pure data, imports nothing.

Lines a policy might label read-only although the program can change something through
one of its options (an output file, a lock, the clock, the host name, a program to run:
`./oracle-probe` is an executable in the workspace). The oracle runs
those a policy labels read-only, next to the corpus commands; each is written against
the oracle's scratch workspace (`file`, `file1`, `file2`, `archive.tar`, a git repository).
Several of them are known to write: that is the point of a probe.
"""

from __future__ import annotations

PROBES: tuple[str, ...] = (
    # output-file options of reading tools
    "sdiff -o merged file1 file2",
    "sdiff --diff-program=./oracle-probe file1 file2",
    "diff3 --diff-program=./oracle-probe file file1 file2",
    "sort -o sorted file",
    "uniq file out",
    "xxd file out",
    "tree -o listing .",
    "find . -fprint listing",
    "find . -fls listing",
    "tar -tf archive.tar --index-file=listing",
    "tar -t -g snapshot -f archive.tar",
    "tar -tf archive.tar --volno-file=volno",
    "tar -tf example.invalid:archive.tar",
    "file -C -m magic",
    "cat file | less -o log",
    "less -o log file",
    "sed -n 'w out' file",
    "awk '{print > \"out\"}' file",
    "md5sum file > sums",
    "base64 file -o out",
    # git: reads that take locks, refresh the index or rewrite logs
    "git status",
    "git status --porcelain",
    "git diff",
    "git describe --dirty",
    "git describe --always",
    "git log --output=log",
    "git diff --output=diff",
    "git reflog",
    "git reflog expire --all",
    "git reflog delete HEAD@{1}",
    "git stash list",
    "git branch",
    "git branch -v",
    "git tag",
    "git config --get user.name",
    "git ls-files -m",
    "git diff-files",
    "git rev-parse HEAD",
    "git blame README",
    "git grep -n alpha",
    # the system itself
    "date -s 2020-01-01",
    "date --set=2020-01-01",
    "date 010100002020",
    "hostname example",
    "hostname -F file",
    "top -b -n 1",
    "ps aux",
    "uptime",
    "free",
    "locale",
    "man ls",
    "man -t ls",
    "apropos ls",
    "ulimit -c unlimited",
)
