#!/usr/bin/env bash
# Build bash 5.3 into build/bash-5.3/bash, for the tests that show its parser differences
# from bash 5.2 (tests/unit/engine/test_bash53_funsub.py: `${ cmd; }` runs commands in 5.3,
# where 5.2 refuses a bad substitution). Debian 12 ships 5.2 and Debian's 5.3 package needs
# a newer C library, so it is built from Debian's source tarball (digest pinned), once.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bash-5.3
if [ -x "$out/bash" ]; then exit 0; fi
url=http://deb.debian.org/debian/pool/main/b/bash/bash_5.3.orig.tar.xz
digest=a70de6bb41f5e192534a5a1836b1d7fad9a8d4818a6e1506d70f38441552c17a
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -c 'import sys, urllib.request; open(sys.argv[2], "wb").write(urllib.request.urlopen(sys.argv[1], timeout=120).read())' "$url" "$work/bash.tar.xz"
echo "$digest  $work/bash.tar.xz" | sha256sum -c --quiet
tar -C "$work" -xf "$work/bash.tar.xz"
(cd "$work/bash-5.3" && ./configure --without-bash-malloc --disable-nls >/dev/null && make -j2 >/dev/null 2>&1)
mkdir -p "$out"
cp "$work/bash-5.3/bash" "$out/bash"
[ "$("$out/bash" -c 'echo ${ echo 5.3; }')" = "5.3" ]
echo "built $out/bash ($("$out/bash" -c 'echo $BASH_VERSION'))"
