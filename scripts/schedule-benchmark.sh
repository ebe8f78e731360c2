#!/bin/bash
# Builds TickerModel in release mode and measures Schedule.nextBoundary with 100k messages.
# Usage: scripts/schedule-benchmark.sh   (from the package root)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build -c release --target TickerModel >/dev/null
BIN=$(swift build -c release --show-bin-path)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
swiftc -O -module-name ScheduleBenchmark -I "$BIN/Modules" \
    scripts/schedule-benchmark.swift "$BIN"/TickerModel.build/*.o "$BIN"/HeapModule.build/*.o \
    "$BIN"/InternalCollectionsUtilities.build/*.o -o "$OUT/schedule-benchmark" 2>&1 | grep -v '^$' || true
"$OUT/schedule-benchmark"
