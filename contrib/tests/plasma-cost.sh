#!/bin/bash
# The Plasma widget's drawing cost (docs/benchmarks.md, the plasmoidviewer rows); a measurement, not a test.
# plasmoidviewer (panel containment, Xvfb, software rendering) is measured over WINDOW seconds in
# each case: the widget absent (a panel spacer instead), the widget at start-up with no channel,
# with the channel emptied, with still text, scrolling 40 columns at 8 cells a second, and a counter
# counting (a new number every display frame) in still text on a tape of 1000 messages of ~61
# characters, the pointer away from the widget (its tooltip closed) and over it. For each:
# CPU of plasmoidviewer and of Xvfb (ms of CPU per second, from /proc/PID/stat) and plasmoidviewer's
# context switches per second (all threads, /proc/PID/task/*/status).
# Usage: plasma-cost.sh PACKAGE_DIR [WINDOW]   (make plasmoid assembles PACKAGE_DIR)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/.build/debug}
PACKAGE=$(cd "${1:?usage: plasma-cost.sh PACKAGE_DIR [WINDOW]}" && pwd)
WINDOW=${2:-20}
WORK=$(mktemp -d /tmp/tickerd-plasma-cost.XXXXXX)
PIDS=()
VIEWER=""
cleanup() {
    for pid in $VIEWER "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in $VIEWER "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# wait_for, write_bus_config
source "$ROOT/contrib/tests/lib.sh"

write_bus_config "$WORK/bus.conf" "$WORK/bus"
dbus-daemon --config-file="$WORK/bus.conf" --nofork --nopidfile --print-address=3 3>"$WORK/address" 2>/dev/null &
PIDS+=($!)
wait_for 10 test -s "$WORK/address" || fail "dbus-daemon printed no address"
export DBUS_SESSION_BUS_ADDRESS
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$WORK/address")
ctl() { "$BIN/tickerctl" --bus "$DBUS_SESSION_BUS_ADDRESS" "$@"; }
: > "$WORK/tickerd.toml"
"$BIN/tickerd" --bus "$DBUS_SESSION_BUS_ADDRESS" --state-dir "$WORK/state" --config "$WORK/tickerd.toml" 2>/dev/null &
PIDS+=($!)
wait_for 20 ctl status >/dev/null 2>&1 || fail "tickerd did not come up"

Xvfb -displayfd 4 -noreset -screen 0 660x180x24 -nolisten tcp 4>"$WORK/display" 2>/dev/null &
XVFB=$!
PIDS+=($XVFB)
wait_for 10 test -s "$WORK/display" || fail "Xvfb did not start"
export DISPLAY=":$(head -n 1 "$WORK/display")"
export HOME=$WORK/home XDG_CONFIG_HOME=$WORK/home/.config XDG_DATA_HOME=$WORK/home/.local/share \
       XDG_CACHE_HOME=$WORK/home/.cache XDG_RUNTIME_DIR=$WORK/runtime PATH=$BIN:$PATH
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {n += $2} END {print n}'; }
hz=$(getconf CLK_TCK)

# viewer APPLET: (re)starts plasmoidviewer with APPLET and waits until it has settled.
viewer() {
    [ -n "$VIEWER" ] && { kill "$VIEWER"; wait "$VIEWER" 2>/dev/null || true; }
    plasmoidviewer -c org.kde.panel -a "$1" -f horizontal -l bottomedge -x 0 -y 0 -s 640x160 >"$WORK/viewer.log" 2>&1 &
    VIEWER=$!
    wait_for 60 grep -q "New Containment" "$WORK/viewer.log" || fail "plasmoidviewer did not start"
}
# measure LABEL: CPU and switches over WINDOW seconds (after a 3 s settle).
measure() {
    sleep 3   # the state under measure settles (start-up, the last frame of a change)
    local v0 x0 s0 v1 x1 s1
    v0=$(ticks "$VIEWER"); x0=$(ticks "$XVFB"); s0=$(switches "$VIEWER")
    sleep "$WINDOW"
    v1=$(ticks "$VIEWER"); x1=$(ticks "$XVFB"); s1=$(switches "$VIEWER")
    printf '%-34s plasmoidviewer %6.1f ms/s  Xvfb %6.1f ms/s  switches %6.1f /s\n' "$1" \
        "$(echo "($v1 - $v0) * 1000 / $hz / $WINDOW" | bc -l)" "$(echo "($x1 - $x0) * 1000 / $hz / $WINDOW" | bc -l)" \
        "$(echo "($s1 - $s0) / $WINDOW" | bc -l)"
}

viewer org.kde.plasma.panelspacer
measure "widget absent (panel spacer)"
viewer "$PACKAGE"
measure "widget, start-up, no channel"
ctl post --id m "a still message" >/dev/null
ctl remove m >/dev/null
measure "widget, channel emptied"
ctl configure main mode=continuous speed=8 >/dev/null
ctl post --id m "still text" >/dev/null
measure "widget, still text"
ctl update m --text "tickerd in Plasma: pixel-smooth from the Timeline, no bus per frame" >/dev/null
measure "widget, scrolling 8 cells/s"
# The counter in the first message, in view; 999 more messages from the configuration file.
ctl remove m >/dev/null
python3 -c '
print("[[message]]\nid = \"count\"\ntext = \"builds today: {builds}\"\n")
for i in range(999):
    print(f"[[message]]\nid = \"m{i:04d}\"\ntext = \"Headline number {i}: markets, weather and the news of the day\"\n")
' > "$WORK/tickerd.toml"
ctl configure main mode=static >/dev/null
ctl reload >/dev/null
wait_for 60 grep -q "tickerd-plasma: timeline online messages=1000" "$WORK/viewer.log" ||
    fail "the widget did not take the 1000 messages"
xdotool mousemove 655 175   # off plasmoidviewer's window (640x160 at 0,0)
ctl set builds 1000000000 --from 0 --duration "$((2 * WINDOW + 30))s" --grouping >/dev/null
measure "widget, counting, 1000 msgs, away"
read -r gx gy gw gh <<<"$(grep "tickerd-plasma: geometry" "$WORK/viewer.log" | tail -n 1 | awk '{print $4, $5, $6, $7}')"
xdotool mousemove $((gx + gw / 2)) $((gy + gh / 2))
measure "widget, counting, 1000 msgs, over"
