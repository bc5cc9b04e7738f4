#!/usr/bin/env bash
# Install the npm-family programs the review tests run for real into build/real-tools (or
# $POLICYLANG_REAL_TOOLS), once: yarn 1 and pnpm 9 at the top, pnpm 10 under p10/, yarn 4
# (berry) under berry/, and bin/pnpm (pnpm 10), bin/yarn (yarn 1) and bin/uv as programs
# to put on a PATH.
# The tests find them through tests/unit/engine/realrun.py; where this fails (no node, no
# registry) those tests still assert every verdict and skip only the real program's part.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${POLICYLANG_REAL_TOOLS:-build/real-tools}
stamp="$dest/.installed-2"
if [ -f "$stamp" ]; then exit 0; fi
command -v node >/dev/null 2>&1 || { echo "real-tools: node is not installed" >&2; exit 1; }
command -v npm >/dev/null 2>&1 || { echo "real-tools: npm is not installed" >&2; exit 1; }
install() {  # install PREFIX PACKAGE@VERSION…
  local prefix=$1; shift
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error "$@" >/dev/null
}
install "$dest" pnpm@9.15.9 yarn@1.22.22
install "$dest/p10" pnpm@10.34.9
install "$dest/berry" @yarnpkg/cli-dist@4.18.1
mkdir -p "$dest/bin"
root=$(cd "$dest" && pwd)
node=$(command -v node)
# WHY absolute paths: the tests run these under a PATH of /usr/bin:/bin and a fake home
printf '#!/bin/sh\nexec %s %s/p10/node_modules/pnpm/bin/pnpm.cjs "$@"\n' "$node" "$root" > "$dest/bin/pnpm"
printf '#!/bin/sh\nexec %s %s/node_modules/yarn/bin/yarn.js "$@"\n' "$node" "$root" > "$dest/bin/yarn"
chmod +x "$dest/bin/pnpm" "$dest/bin/yarn"
# uv (a dev dependency, in the project's venv) beside them for the uv runner tests
if [ -x .venv/bin/uv ]; then ln -sf "$(pwd)/.venv/bin/uv" "$dest/bin/uv"; fi
"$dest/bin/pnpm" --version >/dev/null
"$dest/bin/yarn" --version >/dev/null
touch "$stamp"
echo "real-tools: pnpm $("$dest/bin/pnpm" --version), yarn $("$dest/bin/yarn" --version) in $dest"
