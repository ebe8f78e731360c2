#!/usr/bin/env bash
# `make demo`: a private bus, tickerd with examples/demo.toml (scheduled messages, a counter
# counting up, busy dots), tickerd-sources with a command source (the clock, every second) and a
# calendar source (an all-day event every day), and
# `tickerctl follow` in this terminal. Ctrl-C stops everything this
# script started (by PID) and removes its temp folder.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-.build/release}
work=$(mktemp -d /tmp/tickerd-demo.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 0' INT TERM HUP

cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile 2>/dev/null &
pids+=($!)
address="unix:path=$work/bus"
for _ in $(seq 100); do [ -S "$work/bus" ] && break; sleep 0.05; done

now=$(date +%s)
perl -pe 's/\@NOW\+(\d+)\@/"\@".('"$now"'+$1)/ge' examples/demo.toml > "$work/demo.toml"

TICKERD_LOG=stderr "$bin/tickerd" --bus "$address" --config "$work/demo.toml" --state-dir "$work/state" \
    2> "$work/tickerd.log" &
daemon=$!
pids+=($daemon)
until busctl --address="$address" --timeout=1 status io.github.tickerd.Ticker1 >/dev/null 2>&1; do
    if ! kill -0 "$daemon" 2>/dev/null; then
        echo "demo: tickerd did not start:" >&2
        cat "$work/tickerd.log" >&2
        exit 1
    fi
    sleep 0.05
done

# The counter of "Builds today: {builds}": it counts up over the first half minute. The value
# first, then the message that shows it, so the message never shows the bare field.
"$bin/tickerctl" --bus "$address" set builds 0 --grouping
"$bin/tickerctl" --bus "$address" set builds 1280 --duration 30s --easing easeOutCubic
"$bin/tickerctl" --bus "$address" post --id counter --priority 5 'Builds today: {builds}' >/dev/null

# A source (docs/sources.md): a command whose output replaces its message every second.
cat > "$work/sources.toml" <<TOML
lease = "10s"

[[source]]
name = "clock"
type = "command"
command = "date +%H:%M:%S"
interval = "1s"
priority = 5
template = "The time is {output}"
TOML
# And a calendar source: an all-day event every day, so it is on whenever the demo runs.
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tickerd//demo//EN\r\nBEGIN:VEVENT\r\nUID:demo-day\r\nDTSTART;VALUE=DATE:%s\r\nRRULE:FREQ=DAILY\r\nSUMMARY:tickerd demo day\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' \
    "$(date +%Y%m%d)" > "$work/demo.ics"
cat >> "$work/sources.toml" <<TOML

[[source]]
name = "calendar"
type = "calendar"
file = "$work/demo.ics"
priority = 5
template = "It's {summary}!"
TOML
# Its own state folder: the user's (~/.local/state/tickerd-sources) holds the state of their real
# sources, which a service given only the demo's sources would remove.
"$bin/tickerd-sources" --bus "$address" --config "$work/sources.toml" --state "$work/state" 2> "$work/sources.log" &
pids+=($!)

# Every line printed between "Try in another terminal:" and "Ctrl-C to stop." is a command that
# works as printed, from any folder (DemoTests runs them): this bus is private, so each names its
# address.
echo "tickerd demo on a private bus ($address). Try in another terminal:"
tickerctl_path="$(cd "$bin" && pwd)/tickerctl"   # absolute: another terminal starts elsewhere
echo "  $tickerctl_path --bus $address post 'Hello from another terminal'"
echo "  busctl --address=$address call io.github.tickerd.Ticker1 /io/github/tickerd/Ticker1/channel/main io.github.tickerd.Ticker1.Channel Render ux 40 0"
echo "Ctrl-C to stop."
echo
"$bin/tickerctl" --bus "$address" follow --columns "${COLUMNS_DEMO:-60}" --format plain &
pids+=($!)
wait "${pids[-1]}"
