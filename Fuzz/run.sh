#!/usr/bin/env bash
# Runs the libFuzzer targets of tickerd-fuzz: usage  Fuzz/run.sh BINARY [TARGET...]
#
#   FUZZ_SECONDS   how long each target fuzzes (default 300; `make test` passes a short time)
#   FUZZ_WORK      where new corpus entries and crash files go (default .build-fuzz/work)
#
# Each target first replays its seed corpus (Fuzz/corpus/<target>) and everything it found
# before, then mutates for FUZZ_SECONDS. A property failure, crash, leak or hang (an input taking
# over 10 s) stops it; the input is kept as <work>/<target>/crash-* (or leak-*, timeout-*) and
# this script exits 1 after the remaining targets ran. Replay one:  FUZZ_TARGET=t BINARY FILE
set -uo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:?usage: Fuzz/run.sh BINARY [TARGET...]}
shift
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(calendar timespan timestamp sanitizer tzif config state template sources ics feed)
fi
SECONDS_EACH=${FUZZ_SECONDS:-300}
WORK=${FUZZ_WORK:-.build-fuzz/work}
# Swift's own crash reporter would hold a failing input for its backtrace; libFuzzer reports.
export SWIFT_BACKTRACE=enable=no
# Leaks are checked by libFuzzer per input; reports outside our code are suppressed (sanitizers/).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/sanitizers/lsan.supp:print_suppressions=0}

failed=()
printf '%-10s %10s %10s %8s %s\n' target runs exec/s corpus result
for target in "${TARGETS[@]}"; do
  mkdir -p "$WORK/$target"
  log="$WORK/$target.log"
  FUZZ_TARGET=$target "$BINARY" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$WORK/$target/" \
    "$WORK/$target" "Fuzz/corpus/$target" >"$log" 2>&1
  status=$?
  runs=$(grep -a -o '^stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  speed=$(grep -a -o '^stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  corpus=$(find "$WORK/$target" -maxdepth 1 -type f ! -name 'crash-*' ! -name 'leak-*' ! -name 'timeout-*' \
    ! -name 'oom-*' | wc -l)
  if [ $status -eq 0 ]; then result=ok; else result="FAILED (see $log)"; failed+=("$target"); fi
  printf '%-10s %10s %10s %8s %s\n' "$target" "${runs:-?}" "${speed:-?}" "$corpus" "$result"
  if [ $status -ne 0 ]; then
    grep -a -E 'PROPERTY FAILED|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|Fatal error|SUMMARY|Test unit written' "$log" | head -8 | sed 's/^/    /'
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
