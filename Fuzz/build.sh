#!/usr/bin/env bash
# Builds Fuzz/Targets into one libFuzzer binary, tickerd-fuzz, against the package's own modules.
#
# The package is built in its own scratch path (.build-fuzz) with AddressSanitizer and the
# coverage instrumentation libFuzzer reads (Swift code and the C++ of toml++), so normal builds
# are untouched. The fuzz targets are then compiled by swiftc with -sanitize=fuzzer,address and
# linked with the objects of the tickerd executable target (its entry point is renamed
# tickerd_main by SwiftPM, so libFuzzer's main is the one that runs), which is how they reach the
# daemon's internal parsers (config, state) through @testable import. The sources service's
# library (TickerSources: templates, sources.toml) is linked in beside it; the modules it uses
# (DBus, TOMLConfig, TickerModel, Logging) are the daemon's too.
#
# Prints the binary's path on the last line of stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi

SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
COVERAGE=edge,trace-cmp,inline-8bit-counters,pc-table
for product in tickerd tickerd-sources; do
  swift build --product "$product" --scratch-path "$SCRATCH" --sanitize=address \
    -Xswiftc -sanitize-coverage="$COVERAGE" -Xcxx -fsanitize=fuzzer-no-link >&2
done
BIN=$(swift build --scratch-path "$SCRATCH" --show-bin-path)
OUT="$BIN/tickerd-fuzz"

# The same module maps and include paths SwiftPM gives a target that imports tickerd.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -warnings-as-errors -g \
  -module-name TickerdFuzz -I "$BIN/Modules" \
  -Xcc -fmodule-map-file="$BIN/CTOMLPlusPlus.build/module.modulemap" -Xcc -I -Xcc Sources/CTOMLPlusPlus/include \
  -Xcc -fmodule-map-file=Sources/CSystemd/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CMalloc/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CDBus/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CICal/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CMosquitto/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CLibXML2/module.modulemap \
  -Xcc -fmodule-map-file="$BIN/CCurl.build/module.modulemap" -Xcc -I -Xcc Sources/CCurl/include \
  $(pkg-config --cflags-only-I dbus-1 libxml-2.0 | sed 's/-I/-Xcc -I/g') \
  Fuzz/Targets/*.swift \
  $(pkg-config --libs libsystemd dbus-1 libical libmosquitto libcurl libxml-2.0) -lstdc++ \
  "@$BIN/tickerd.product/Objects.LinkFileList" "$BIN"/TickerSources.build/*.o \
  "$BIN"/Calendars.build/*.o "$BIN"/Feeds.build/*.o "$BIN"/SourceFetch.build/*.o "$BIN"/CCurl.build/*.o \
  -o "$OUT" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
echo "$OUT"
