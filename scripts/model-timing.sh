#!/bin/bash
# Builds TickerModel in release mode, compiles one timing program against it and runs it.
# Usage: scripts/model-timing.sh scripts/frame-timing.swift [ARGS…]   (from anywhere)
#        scripts/model-timing.sh scripts/schedule-benchmark.swift
# RUNNER runs the program under another tool, e.g. RUNNER="valgrind --tool=callgrind".
set -euo pipefail
cd "$(dirname "$0")/.."
program=${1:?usage: scripts/model-timing.sh PROGRAM.swift [ARGS…]}
shift
if [ -d /opt/swift/usr/bin ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build -c release --target TickerModel >/dev/null
BIN=$(swift build -c release --show-bin-path)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
swiftc -O -module-name ModelTiming -I "$BIN/Modules" \
    "$program" "$BIN"/TickerModel.build/*.o "$BIN"/HeapModule.build/*.o \
    "$BIN"/InternalCollectionsUtilities.build/*.o -o "$OUT/timing" 2>&1 | grep -v '^$' || true
${RUNNER:-} "$OUT/timing" "$@"
