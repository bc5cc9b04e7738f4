#!/usr/bin/env bash
# Install the Debian packages the test suite needs (bubblewrap for the sandbox tests,
# strace for the dynamic oracle, git for the repository tests, binutils' ar for the archive
# tests, the C preprocessor for the stdin-source tests, less, man-db, ripgrep and file for
# the review DD and DE tests, ruby for the environment loader tests, nasm and lsof for
# reviews DO and DR, valgrind for review EB, ltrace and perf for open items J, GNU info for
# review FG, tree for review EY). CI machines start bare and run as root.
set -euo pipefail
need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v strace >/dev/null 2>&1 || need+=(strace)
command -v git >/dev/null 2>&1 || need+=(git)
command -v ar >/dev/null 2>&1 || need+=(binutils)
command -v rsync >/dev/null 2>&1 || need+=(rsync)
command -v cpp >/dev/null 2>&1 || need+=(cpp)
command -v lesspipe >/dev/null 2>&1 || need+=(less)
command -v man >/dev/null 2>&1 || need+=(man-db)
command -v col >/dev/null 2>&1 || need+=(bsdextrautils)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v file >/dev/null 2>&1 || need+=(file)
command -v ruby >/dev/null 2>&1 || need+=(ruby)
command -v nasm >/dev/null 2>&1 || need+=(nasm)
command -v lsof >/dev/null 2>&1 || need+=(lsof)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
command -v ltrace >/dev/null 2>&1 || need+=(ltrace)
command -v perf >/dev/null 2>&1 || need+=(linux-perf)
command -v info >/dev/null 2>&1 || need+=(info)
command -v tree >/dev/null 2>&1 || need+=(tree)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps: missing ${need[*]}; install them (apt-get install ${need[*]}) or run as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq "${need[@]}" >/dev/null
