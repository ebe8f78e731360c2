#!/bin/bash
# CPU per printed line of `tickerctl follow` and of zscroll, side by side in one run: the same
# text, 48 columns, 8 cells a second, both running at once. After a warm-up, perf stat counts each
# process's CPU (task-clock: user and kernel) over a window while its printed lines are counted,
# so start-up is left out.
#
#   scripts/follow-vs-zscroll.sh ZSCROLL [BIN] [ROUNDS]
#
# ZSCROLL: the zscroll script (github.com/noctuid/zscroll, 2.0.1; it is not on PyPI).
# BIN: the folder with tickerd and tickerctl (default .build/release). Needs perf and dbus-daemon.
set -euo pipefail
ZSCROLL=$1
BIN=${2:-$(cd "$(dirname "$0")/.." && pwd)/.build/release}
ROUNDS=${3:-3}
WARMUP=${WARMUP:-3}
WINDOW=${WINDOW:-20}
TEXT="Breaking: tickerd scrolls the news on every panel, waybar polybar i3blocks and GNOME, at eight cells a second"
WORK=$(mktemp -d /tmp/follow-vs-zscroll.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
dbus-daemon --session --nofork --nopidfile --address="unix:path=$WORK/bus" --print-address=3 3>"$WORK/address" 2>/dev/null &
PIDS+=($!)
until [ -s "$WORK/address" ]; do sleep 0.05; done
ADDRESS=$(head -n 1 "$WORK/address")
: > "$WORK/tickerd.toml"
"$BIN/tickerd" --bus "$ADDRESS" --state-dir "$WORK/state" --config "$WORK/tickerd.toml" 2>/dev/null &
PIDS+=($!)
until "$BIN/tickerctl" --bus "$ADDRESS" status >/dev/null 2>&1; do sleep 0.05; done
"$BIN/tickerctl" --bus "$ADDRESS" configure main speed=8 >/dev/null
"$BIN/tickerctl" --bus "$ADDRESS" post "$TEXT" >/dev/null

# One round: both programs start, run WARMUP seconds, then perf stat counts each one's CPU
# (task-clock, user and kernel) over WINDOW seconds while their printed lines are counted.
lines() { wc -l < "$1"; }
for round in $(seq "$ROUNDS"); do
    "$BIN/tickerctl" --bus "$ADDRESS" follow --format polybar --columns 48 > "$WORK/follow.out" &
    follow=$!
    python3 "$ZSCROLL" -l 48 -d 0.125 -p "  •  " "$TEXT" > "$WORK/zscroll.out" &
    zscroll=$!
    # The floor: a loop that only sleeps 0.125 s and prints 48 cells (the cost of a wake-up here).
    python3 -c 'import sys, time
while True:
    time.sleep(0.125); sys.stdout.write("x" * 48 + "\n"); sys.stdout.flush()' > "$WORK/floor.out" &
    floor=$!
    PIDS+=($follow $zscroll $floor)
    sleep "$WARMUP"
    f0=$(lines "$WORK/follow.out"); z0=$(lines "$WORK/zscroll.out"); l0=$(lines "$WORK/floor.out")
    perf stat -x, -e task-clock -o "$WORK/follow.perf" -p "$follow" -- sleep "$WINDOW" &
    a=$!
    perf stat -x, -e task-clock -o "$WORK/zscroll.perf" -p "$zscroll" -- sleep "$WINDOW" &
    b=$!
    perf stat -x, -e task-clock -o "$WORK/floor.perf" -p "$floor" -- sleep "$WINDOW" &
    c=$!
    wait "$a" "$b" "$c"
    f1=$(lines "$WORK/follow.out"); z1=$(lines "$WORK/zscroll.out"); l1=$(lines "$WORK/floor.out")
    kill "$follow" "$zscroll" "$floor"; wait "$follow" "$zscroll" "$floor" 2>/dev/null || true
    per_line() {
        awk -F, -v n="$2" '/task-clock/ { printf "%.1f µs/line (%d lines, %.1f ms/s)", $1 * 1000 / n, n, $1 / '"$WINDOW"' }' "$1"
    }
    echo "round $round: follow $(per_line "$WORK/follow.perf" $((f1 - f0))); zscroll $(per_line "$WORK/zscroll.perf" $((z1 - z0)));" \
         "sleep-and-print floor $(per_line "$WORK/floor.perf" $((l1 - l0)))"
done
