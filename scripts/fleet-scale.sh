#!/bin/sh
# Fleet scale: N subscribing screens (tickerd + tickerd-sources each, own private bus and state,
# no panels) on one mosquitto on loopback. Publishes K fleet messages and measures, per screen,
# the time from publish to that screen's MessageStarted (dbus-monitor's own timestamps), then
# prints p50 and max over all screens and publishes, and p50/max of "the last screen" per publish.
#
#   scripts/fleet-scale.sh [N=100] [K=10] [BIN=.build/debug]
#
# Not part of `make test`: it starts 3N+1 processes. Everything stays on 127.0.0.1.
set -eu
N=${1:-100}
K=${2:-10}
BIN=${3:-.build/debug}
PATH=$PATH:/usr/sbin   # Debian's mosquitto
for tool in mosquitto mosquitto_pub dbus-daemon dbus-monitor python3; do
    command -v "$tool" >/dev/null || { echo "fleet-scale: needs $tool" >&2; exit 1; }
done
[ -x "$BIN/tickerd" ] && [ -x "$BIN/tickerd-sources" ] || { echo "fleet-scale: build first (swift build)" >&2; exit 1; }
BIN=$(cd "$BIN" && pwd)
WORK=$(mktemp -d /tmp/fleet-scale.XXXXXX)
PIDS=""
cleanup() {
    for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$WORK/mosquitto.conf" <<CONF
listener $PORT 127.0.0.1
allow_anonymous true
persistence false
max_queued_messages 10000
CONF
mosquitto -c "$WORK/mosquitto.conf" 2>"$WORK/mosquitto.log" &
PIDS="$PIDS $!"

echo "starting $N screens…" >&2
i=0
while [ "$i" -lt "$N" ]; do
    d="$WORK/s$i"
    mkdir -p "$d/state"
    dbus-daemon --session --nofork --print-address=3 3>"$d/address" 2>/dev/null &
    PIDS="$PIDS $!"
    while [ ! -s "$d/address" ]; do sleep 0.05; done
    address=$(head -n1 "$d/address")
    : > "$d/tickerd.toml"
    "$BIN/tickerd" --bus "$address" --state-dir "$d/state" --config "$d/tickerd.toml" 2>"$d/tickerd.log" &
    PIDS="$PIDS $!"
    cat > "$d/sources.toml" <<CONF
[[source]]
name = "fleet"
type = "mqtt"
host = "127.0.0.1"
port = $PORT
topic = "tickerd/scale"
client-id = "scale-$i"
template = "{text}"
CONF
    "$BIN/tickerd-sources" --bus "$address" --config "$d/sources.toml" --state "$d/sources-state" 2>"$d/sources.log" &
    PIDS="$PIDS $!"
    dbus-monitor --address "$address" "type='signal',interface='io.github.tickerd.Ticker1.Manager',member='MessageStarted'" >"$d/signals" 2>/dev/null &
    PIDS="$PIDS $!"
    i=$((i + 1))
done

# Every screen in step with the broker (its first read of the retained messages done).
deadline=$(( $(date +%s) + 300 ))
while [ "$(grep -l 'in step with the broker' "$WORK"/s*/sources.log 2>/dev/null | wc -l)" -lt "$N" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "fleet-scale: not every screen connected" >&2; exit 1; }
    sleep 0.5
done
echo "all $N screens in step; resident memory of one screen (kB):" \
    "$(ps -o rss= -p "$(pgrep -f "$WORK/s0/state" | head -n1)") tickerd," \
    "$(ps -o rss= -p "$(pgrep -f "$WORK/s0/sources.toml" | head -n1)") tickerd-sources" >&2

k=0
: > "$WORK/published"
while [ "$k" -lt "$K" ]; do
    printf 'p%s %s\n' "$k" "$(date +%s.%N)" >> "$WORK/published"
    mosquitto_pub -h 127.0.0.1 -p "$PORT" -q 1 -r -t "tickerd/scale/main/p$k" -m "{\"text\": \"Scale message $k\"}"
    # The next publish once every screen started this one (or 30 s).
    deadline=$(( $(date +%s) + 30 ))
    while [ "$(grep -l "src/fleet/main/p$k\"" "$WORK"/s*/signals 2>/dev/null | wc -l)" -lt "$N" ] \
          && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.2; done
    k=$((k + 1))
done

python3 - "$WORK" "$N" "$K" <<'PY'
import glob, re, statistics, sys
work, n, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
published = {line.split()[0]: float(line.split()[1]) for line in open(f"{work}/published")}
latencies, last, missing = [], [], 0
per = {p: [] for p in published}
for path in glob.glob(f"{work}/s*/signals"):
    text = open(path).read()
    for block in ("\n" + text).split("\nsignal ")[1:]:
        m = re.search(r"time=([0-9.]+)", block)
        ids = re.findall(r'string "src/fleet/main/(p[0-9]+)"', block)
        if m and ids and ids[0] in per:
            per[ids[0]].append(float(m.group(1)) - published[ids[0]])
for p, values in per.items():
    missing += n - len(values)
    latencies += values
    if values: last.append(max(values))
ms = lambda v: f"{v * 1000:.0f} ms"
print(f"screens {n}, publishes {k}, MessageStarted seen {len(latencies)} of {n * k}")
print(f"publish → one screen's MessageStarted: p50 {ms(statistics.median(latencies))}, max {ms(max(latencies))}")
print(f"publish → every screen's MessageStarted: p50 {ms(statistics.median(last))}, max {ms(max(last))}")
sys.exit(1 if missing else 0)
PY
