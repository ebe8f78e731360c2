#!/bin/bash
# `make deb`: builds the Debian package from the working tree into .build-deb/ (dpkg-buildpackage
# writes its results beside the source tree, so the tree is copied there first).
#
#   scripts/build-deb.sh [VERSION]
#
# Needs dpkg-dev and debhelper (`make deb` installs them).
# TICKERD_BUILT=DIR packages release binaries already built in DIR. VERSION, when given, is put
# at the top of debian/changelog of the copy (the package test builds an "upgrade" this way).
# Prints the path of the .deb on its last line.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${DEB_OUT:-$ROOT/.build-deb}
version=${1:-}
name=tickerd-${version:-$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)}
rm -rf "$OUT/$name"
mkdir -p "$OUT/$name"
# The tracked and new (not ignored) files of the tree: no .build*/ folders, no artifacts.
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -xf - -C "$OUT/$name"
if [ -n "$version" ]; then
    entry="tickerd ($version) unstable; urgency=medium

  * Rebuilt as version $version.

 -- $(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Maintainer)  $(date -R)
"
    { printf '%s\n' "$entry"; cat "$ROOT/debian/changelog"; } > "$OUT/$name/debian/changelog"
fi
if [ -z "${TICKERD_BUILT:-}" ]; then
    # Build in the real tree, so its .build/ cache is reused, and package those binaries.
    (cd "$ROOT" && swift build -c release --static-swift-stdlib --product tickerd >&2 &&
        swift build -c release --static-swift-stdlib --product tickerctl >&2 &&
        swift build -c release --static-swift-stdlib --product tickerd-sources >&2)
    TICKERD_BUILT=$(cd "$ROOT" && swift build -c release --static-swift-stdlib --show-bin-path)
fi
export TICKERD_BUILT
# DEB_LOG=FILE keeps dpkg-buildpackage's long output there instead of on stderr.
if [ -n "${DEB_LOG:-}" ]; then
    (cd "$OUT/$name" && dpkg-buildpackage -b -us -uc > "$DEB_LOG" 2>&1) ||
        { tail -n 30 "$DEB_LOG" >&2; exit 1; }
else
    (cd "$OUT/$name" && dpkg-buildpackage -b -us -uc >&2)
fi
deb=$(ls "$OUT"/tickerd_"${name#tickerd-}"_*.deb)
rm -rf "$OUT/$name"
echo "$deb"
