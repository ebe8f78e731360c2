#!/bin/bash
# Builds TickerModel in release mode, compiles one timing program against it and runs it.
# Usage: scripts/model-timing.sh PROGRAM.swift [--with SOURCE.swift]… [ARGS…]   (from anywhere)
#   e.g. scripts/model-timing.sh scripts/frame-timing.swift \
#            --with Benchmarks/Benchmarks/FrameBenchmarks/MixedText.swift 100000
# --with compiles another file into the program (sample data shared with Benchmarks/); ARGS go to
# the program. RUNNER runs it under another tool, e.g. RUNNER="valgrind --tool=callgrind".
set -euo pipefail
cd "$(dirname "$0")/.."
program=${1:?usage: scripts/model-timing.sh PROGRAM.swift [--with SOURCE.swift]… [ARGS…]}
shift
sources=()
while [ $# -ge 2 ] && [ "$1" = "--with" ]; do
    sources+=("$2")
    shift 2
done
if [ -d /opt/swift/usr/bin ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build -c release --target TickerModel >/dev/null
BIN=$(swift build -c release --show-bin-path)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# With more than one file, the one with top-level code must be main.swift.
cp "$program" "$OUT/main.swift"
swiftc -O -module-name ModelTiming -I "$BIN/Modules" \
    "$OUT/main.swift" ${sources[@]+"${sources[@]}"} "$BIN"/TickerModel.build/*.o "$BIN"/HeapModule.build/*.o \
    "$BIN"/InternalCollectionsUtilities.build/*.o -o "$OUT/timing" 2>&1 | grep -v '^$' || true
${RUNNER:-} "$OUT/timing" "$@"
