#!/bin/bash
# Instructions tickerd spends on one Post and its Remove on a channel holding 999 other messages,
# counted by callgrind. Unlike CPU time on a shared machine, the counts do not depend on load; they
# do depend on where the probe goes, which depends on how far the stream has scrolled when the
# pairs begin: at the tape's end while the stream continues with its first message, else next to
# the message it continues with, mid-tape, and then every later offset of the edited tape moves.
# The daemon runs under valgrind with instrumentation off while it starts; it is switched on for N
# Post + Remove pairs made with tickerctl on a private bus, and the totals are divided by N.
#
#   [WAIT=S] scripts/change-instructions.sh [TICKERD] [N]
#
# WAIT: seconds between the daemon's start and the pairs (default 0: the probe mostly goes to the
# tape's end; 12: mid-tape, the usual case of a daemon that has been running).
# TICKERD: the daemon (default .build/release/tickerd), built by `swift build -c release --product
# tickerd` (the counts of a --static-swift-stdlib build varied from run to run); its DWARF is
# stripped into a copy, which valgrind 3.19 cannot read from Swift 6 binaries (the symbol table
# stays). N: pairs (default 200).
# Needs valgrind, dbus-daemon, python3; tickerctl from the same folder as TICKERD (or $TICKERCTL).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TICKERD=${1:-$ROOT/.build/release/tickerd}
PAIRS=${2:-200}
TICKERCTL=${TICKERCTL:-$(dirname "$TICKERD")/tickerctl}
WORK=$(mktemp -d /tmp/change-instructions.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
cp "$TICKERD" "$WORK/tickerd"
strip --strip-debug "$WORK/tickerd"
python3 -c '
for i in range(999):
    print(f"[[message]]\nid = \"m{i:04d}\"\ntext = \"Headline number {i}: markets, weather and the news of the day\"\n")
' > "$WORK/tickerd.toml"
dbus-daemon --session --nofork --nopidfile --address="unix:path=$WORK/bus" --print-address=3 3>"$WORK/address" 2>/dev/null &
PIDS+=($!)
until [ -s "$WORK/address" ]; do sleep 0.05; done
ADDRESS=$(head -n 1 "$WORK/address")
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/callgrind.out" \
    "$WORK/tickerd" --bus "$ADDRESS" --state-dir "$WORK/state" --config "$WORK/tickerd.toml" 2>"$WORK/valgrind.log" &
DAEMON=$!
PIDS+=($DAEMON)
CTL=("$TICKERCTL" --bus "$ADDRESS")
for _ in $(seq 300); do "${CTL[@]}" status >/dev/null 2>&1 && break; sleep 0.2; done
for _ in 1 2 3; do "${CTL[@]}" post --id warm "warming up" >/dev/null; "${CTL[@]}" remove warm; done
sleep "${WAIT:-0}"
callgrind_control -i on "$DAEMON" >/dev/null 2>&1
for _ in $(seq "$PAIRS"); do
    "${CTL[@]}" post --id probe "A new headline arrives on the tape" >/dev/null
    "${CTL[@]}" remove probe
done
callgrind_control -i off "$DAEMON" >/dev/null 2>&1
callgrind_control -d "$DAEMON" >/dev/null 2>&1
# The dump is the largest of the files callgrind wrote.
profile=$(ls -S "$WORK"/callgrind.out* | head -n 1)
callgrind_annotate --inclusive=yes "$profile" 2>/dev/null | swift demangle --simplified \
    | grep -E 'PROGRAM TOTALS|closure #1 in BusSurface.controlInterface|closure #3 in BusSurface.controlInterface|Tape.init\(messages|TapeArrangement.ordered|MessageTable.activeMessages|ChangeCommitter.announce|Manager.evaluate|StateStore.store|Manager.unstoredChange' \
    | grep -v 'partial apply' | awk -v n="$PAIRS" '!seen[$0]++ { gsub(",", "", $1); printf "%8.2f M  %s\n", $1 / n / 1e6, substr($0, index($0, $2)) }' \
    | sed -e 's/ \[[^]]*\]$//' -e 's/???://' -e 's/closure #1 in BusSurface.controlInterface()/Post (call)/' -e 's/closure #3 in BusSurface.controlInterface()/Remove (call)/'  | awk '!seen[$0]++'
echo "(instructions per Post + Remove pair, $PAIRS pairs)"
