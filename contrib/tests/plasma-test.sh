#!/bin/bash
# `make test-plasma` (part of `make test-panels`): the Plasma 5 widget in plasmoidviewer under Xvfb,
# against tickerd on a private bus. Screenshots (in artifacts/plasma/) show that
#  1. the widget appears with a constant width (columns × the font's cell width), scrolls the
#     channel at the Timeline's speed (±2%) over a whole cycle, each shot matching Render's frame
#     at its instant drawn in the same font (one copy, no overlap, right phase), and no message
#     reaches or leaves the daemon meanwhile (dbus-monitor);
#  2. hovering shows a tooltip (artifacts/plasma/tooltip.png); a middle click pauses the channel
#     (xdotool): the text stands still; a left click on the message then runs `tickerctl activate`:
#     its link reaches the $BROWSER stand-in (through xdg-open) and `Activated` is seen on the bus
#     (dbus-monitor); a second middle click resumes it;
#  3. the daemon restarted while the text scrolls (SIGTERM, a new tickerd on the same bus and state
#     folder): the widget draws on through it (the 2 s grace of docs/DESIGN.md), every shot across
#     the restart shows Render's frame, none is blank, and it never asks for 0 px; the daemon killed
#     for good, the widget asks for 0 px and draws nothing, not before the grace is over and within
#     it plus a 3 s margin; after a restart (same state folder) it comes back by itself at the right
#     phase; an urgent message comes and expires mid-scroll; Hebrew, Arabic, mixed-direction, very
#     long and one-word texts show Render's frames (an emoji text is kept for a look); after a 3 s
#     SIGSTOP of plasmoidviewer every shot from its first paint on shows the frame of its instant;
#     then a text of CJK and emoji: a wide character cut by either edge shows its part in view as
#     its glyph does there wholly in view, not blank (plasma-shots.py --edges);
#  4. a counter counting in still text shows the digits Render gives at each shot's instant; with
#     the pointer away from the widget the count (a new number every display frame) gives the
#     tooltip at most 2 texts, not one per frame, and hovering mid-count gives it the number of
#     that moment; the open tooltip follows a count and ends on the final value, and the frame
#     clock stops once it has counted;
#  5. an emptied channel hides it (width 0, nothing drawn) and its frame clock stops;
#  and with nothing moving (4, 5) plasmoidviewer spends at most 2 CPU ticks in 3 s;
#  6. the settings page (configGeneral.qml, in a window of its own: plasma-config.py) lists the
#     daemon's channels in its Channel row, a pick from it is the setting, a bad name is said to be
#     so, and without a daemon the list says tickerd is not running (config-list.png).
# Usage: plasma-test.sh PACKAGE_DIR (make test-plasma assembles it). Needs plasma-sdk,
# plasma-desktop, xvfb, xdotool, imagemagick, python3-pil, python3-numpy, fonts-dejavu-core and the
# debug build (.build/debug/tickerd, tickerctl).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/.build/debug}
PYTHON=/usr/bin/python3   # Debian's python3-pil and python3-numpy are its modules
PACKAGE=$(cd "${1:?usage: plasma-test.sh PACKAGE_DIR}" && pwd)
ARTIFACTS=$ROOT/artifacts/plasma
rm -rf "$ARTIFACTS" && mkdir -p "$ARTIFACTS"
WORK=$(mktemp -d /tmp/tickerd-plasma.XXXXXX)
PIDS=()
DAEMON=""
VIEWER=""
START=$SECONDS

cleanup() {
    for pid in $VIEWER $DAEMON "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in $VIEWER $DAEMON "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*" >&2
    [ -f "$WORK/viewer.log" ] && cp "$WORK/viewer.log" "$ARTIFACTS/plasmoidviewer.log"
    exit 1
}

# wait_for, write_bus_config
source "$ROOT/contrib/tests/lib.sh"
now_us() { date +%s%6N; }

# A private session bus; the widget's tickerctl finds it through DBUS_SESSION_BUS_ADDRESS.
write_bus_config "$WORK/bus.conf" "$WORK/bus"
dbus-daemon --config-file="$WORK/bus.conf" --nofork --nopidfile --print-address=3 3>"$WORK/address" 2>/dev/null &
PIDS+=($!)
wait_for 10 test -s "$WORK/address" || fail "dbus-daemon printed no address"
export DBUS_SESSION_BUS_ADDRESS
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$WORK/address")
ctl() { "$BIN/tickerctl" --bus "$DBUS_SESSION_BUS_ADDRESS" "$@"; }

: > "$WORK/tickerd.toml"
start_daemon() {
    "$BIN/tickerd" --bus "$DBUS_SESSION_BUS_ADDRESS" --state-dir "$WORK/state" --config "$WORK/tickerd.toml" \
        2>>"$WORK/tickerd.log" &
    DAEMON=$!
    wait_for 20 ctl status >/dev/null 2>&1 || fail "tickerd did not come up: $(cat "$WORK/tickerd.log")"
}
start_daemon

# A tape of 71 cells (with the gap) in 40 columns at 12 cells a second: a cycle takes 5.9 s.
ctl configure main mode=continuous speed=12 >/dev/null
LINK="https://example.org/plasma?from=widget&x=1"
ctl post --id first --link "$LINK" "tickerd in Plasma: pixel-smooth from the Timeline, no bus per frame" >/dev/null

# A private X server, home and configuration; the widget finds tickerctl on PATH. -noreset keeps
# the server up when a screenshot is its last client (a reset drops a client connecting meanwhile).
Xvfb -displayfd 4 -noreset -screen 0 660x300x24 -nolisten tcp 4>"$WORK/display" 2>"$WORK/xvfb.log" &
PIDS+=($!)
wait_for 10 test -s "$WORK/display" || fail "Xvfb did not start: $(cat "$WORK/xvfb.log")"
export DISPLAY=":$(head -n 1 "$WORK/display")"
export HOME=$WORK/home XDG_CONFIG_HOME=$WORK/home/.config XDG_DATA_HOME=$WORK/home/.local/share \
       XDG_CACHE_HOME=$WORK/home/.cache XDG_RUNTIME_DIR=$WORK/runtime PATH=$BIN:$PATH
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
# xdg-open outside a desktop hands http(s) links to $BROWSER: a stand-in that records them.
export BROWSER=$WORK/browser XDG_CURRENT_DESKTOP="" KDE_FULL_SESSION=""
printf '#!/bin/sh\nprintf "%%s\\n" "$1" >> "%s"\n' "$WORK/opened" > "$BROWSER"
chmod 755 "$BROWSER"
plasmoidviewer -c org.kde.panel -a "$PACKAGE" -f horizontal -l bottomedge -x 0 -y 0 -s 640x160 >"$WORK/viewer.log" 2>&1 &
VIEWER=$!

logged() { grep -q "$1" "$WORK/viewer.log"; }
wait_for 60 logged "tickerd-plasma: timeline online messages=1" ||
    fail "the widget never read the channel: $(tail -n 20 "$WORK/viewer.log")"
wait_for 20 logged "tickerd-plasma: clock running" || fail "the widget's frame clock did not start"

# Where the ticker is: the last geometry logged (window pixels; the window is at 0,0).
geometry() { grep "tickerd-plasma: geometry" "$WORK/viewer.log" | tail -n 1 | awk '{print $4, $5, $6, $7, $9}'; }
placed() { geometry | awk '$3 > 0 && $5 > 0 {found = 1} END {exit !found}'; }
wait_for 20 placed || fail "the widget was never placed: $(grep tickerd-plasma "$WORK/viewer.log" | tail -n 5)"
read -r GX GY GW GH CELL <<<"$(geometry)"
EXPECTED_WIDTH=$($PYTHON -c "import math; print(math.ceil(40 * $CELL))")
[ "$GW" = "$EXPECTED_WIDTH" ] || fail "the widget is $GW px wide, 40 cells of $CELL px make $EXPECTED_WIDTH"
FONT=$(fc-match -f '%{file}' monospace)

# shots DIR COUNT: COUNT screenshots with the instants around each.
shots() {
    local dir=$1 count=$2 i before after
    mkdir -p "$dir"
    : > "$dir/times.txt"
    for ((i = 0; i < count; i++)); do
        before=$(now_us)
        import -window root "$dir/shot-$(printf %03d "$i").png" 2>/dev/null
        after=$(now_us)
        echo "$(printf %03d "$i") $before $after" >> "$dir/times.txt"
    done
}
shots_more() { # shots_more DIR COUNT: COUNT more shots in DIR
    local dir=$1 count=$2 i n before after
    n=$(wc -l < "$dir/times.txt")
    for ((i = n; i < n + count; i++)); do
        before=$(now_us)
        import -window root "$dir/shot-$(printf %03d "$i").png" 2>/dev/null
        after=$(now_us)
        echo "$(printf %03d "$i") $before $after" >> "$dir/times.txt"
    done
}
check() { # check DIR SPEED: the shots against Render's frames at their instants
    "$PYTHON" "$ROOT/contrib/tests/plasma-shots.py" "$1" "$FONT" "$CELL" "$GX" "$GY" "$GW" "$GH" 40 "$2" \
        -- "$BIN/tickerctl" --bus "$DBUS_SESSION_BUS_ADDRESS" > "$1/verdict.txt" ||
        { cat "$1/verdict.txt"; cp -R "$1" "$ARTIFACTS/failed-$(basename "$1")"; fail "$(tail -n 1 "$1/verdict.txt")"; }
    tail -n 1 "$1/verdict.txt"
}

# 1. A whole cycle of scrolling.
# Warm-up: the first frames after start may come late (QML compiling, glyph caches); wait until
# a few shots in a row show Render's frames, then shoot a whole cycle of the tape.
warm() {
    rm -rf "$WORK/warm" && shots "$WORK/warm" 4
    "$PYTHON" "$ROOT/contrib/tests/plasma-shots.py" "$WORK/warm" "$FONT" "$CELL" "$GX" "$GY" "$GW" "$GH" 40 12 \
        -- "$BIN/tickerctl" --bus "$DBUS_SESSION_BUS_ADDRESS" --strict >/dev/null 2>&1
}
wait_for 30 warm || fail "the widget never showed Render's frames on time"
CYCLE=$(ctl timeline | "$PYTHON" -c 'import json, sys; t = json.load(sys.stdin)["timeline"]; print(t["width"] / t["speed"])')
deadline=$("$PYTHON" -c "import time; print(int((time.time() + $CYCLE + 0.3) * 1e6))")
# dbus-monitor (an independent peer) watches the daemon's traffic while the shots are taken.
owner=$(busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus GetNameOwner s io.github.tickerd.Ticker1 | awk '{print $2}' | tr -d '"')
dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" --profile > "$WORK/monitor" 2>&1 &
MONITOR=$!
PIDS+=($MONITOR)
monitoring() { grep -q NameLost "$WORK/monitor"; }
wait_for 10 monitoring || fail "dbus-monitor did not start"
shots "$WORK/scroll" 30
while [ "$(now_us)" -lt "$deadline" ]; do shots_more "$WORK/scroll" 10; done
kill "$MONITOR"; wait "$MONITOR" 2>/dev/null || true
traffic=$(awk -F'\t' -v o="$owner" '!/^#/ && ($4 == o || $5 == o)' "$WORK/monitor" | wc -l)
[ "$traffic" -eq 0 ] || fail "the daemon saw $traffic messages while the widget scrolled: $(head -n 5 "$WORK/monitor")"
check "$WORK/scroll" 12
[ "$(geometry | awk '{print $3}')" = "$GW" ] || fail "the widget's width changed while scrolling"
grep "tickerd-plasma: geometry" "$WORK/viewer.log" | awk '$11 > 0 {print $11}' | sort -u > "$WORK/widths"
[ "$(cat "$WORK/widths")" = "$EXPECTED_WIDTH" ] || fail "the widget asked for widths $(tr '\n' ' ' < "$WORK/widths")"
cp "$WORK/scroll"/shot-00[0-4].png "$WORK/scroll/verdict.txt" "$ARTIFACTS/" 2>/dev/null || true
for f in "$ARTIFACTS"/shot-*.png; do mv "$f" "$ARTIFACTS/scroll-$(basename "$f")"; done
convert "$WORK/scroll/shot-000.png" -crop "${GW}x${GH}+${GX}+${GY}" +repage "$ARTIFACTS/scroll-region-000.png"

# The tooltip: hovering shows a window below the panel with the channel's text (artifact).
hover_x=$((GX + GW / 2)); hover_y=$((GY + GH / 2))
tooltip_shown() {
    xdotool mousemove "$hover_x" "$hover_y"
    hover_x=$((hover_x + 1))
    import -window root "$WORK/tooltip.png" 2>/dev/null &&
        [ "$(convert "$WORK/tooltip.png" -crop 660x130+0+165 +repage -format %k info:)" -gt 8 ]
}
wait_for 20 tooltip_shown || fail "hovering the widget shows no tooltip"
cp "$WORK/tooltip.png" "$ARTIFACTS/tooltip.png"

# 2. A middle click pauses, a second one resumes.
xdotool mousemove $((GX + GW / 2)) $((GY + GH / 2)) click 2
paused() { ctl timeline | grep -q '"paused":'; }
wait_for 10 paused || fail "a middle click on the widget did not pause the channel"
wait_for 10 logged "paused=true" || fail "the widget did not take the pause"
shots "$WORK/paused" 8
check "$WORK/paused" 0
cp "$WORK/paused/shot-000.png" "$ARTIFACTS/paused.png"
# A left click on a letter of the message (the paused frame is Render's of now): tickerctl activate
# opens its link and the daemon announces the click.
dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" \
    "type='signal',interface='io.github.tickerd.Ticker1.Manager',member='Activated'" > "$WORK/activated" 2>&1 &
MONITOR=$!
PIDS+=($MONITOR)
watching() { grep -q NameAcquired "$WORK/activated"; }
wait_for 10 watching || fail "dbus-monitor did not start"
CLICK_X=$(ctl render --columns 40 --json | "$PYTHON" -c '
import json, sys
frame = json.load(sys.stdin)
x0, cell = float(sys.argv[1]), float(sys.argv[2])
column = next(k for k in range(10, 40) if frame["text"][k].isalnum())
print(round(x0 + (column + 0.5 - frame["offset"]) * cell))' "$GX" "$CELL")
xdotool mousemove "$CLICK_X" $((GY + GH / 2)) click 1
opened() { [ "$(cat "$WORK/opened" 2>/dev/null)" = "$LINK" ]; }
wait_for 20 opened || fail "a click on the message did not open its link (opened: '$(cat "$WORK/opened" 2>/dev/null)'; $(grep -E 'tickerd-plasma: (click|exec .* failed)' "$WORK/viewer.log" | tail -n 2))"
# The click asks about the frame it saw: `--at` names that frame's instant (µs; at most a few seconds
# before the click, never after it).
CLICKED_AT=$(date +%s%6N)
DRAWN_AT=$(grep -o -- '--at @[0-9]*us' "$WORK/viewer.log" | tail -n 1 | tr -dc 0-9)
[ -n "$DRAWN_AT" ] && [ "$DRAWN_AT" -le "$CLICKED_AT" ] && [ $((CLICKED_AT - DRAWN_AT)) -lt 20000000 ] \
  || fail "the click's tickerctl activate did not name the drawn frame's instant with --at: $(grep 'tickerd-plasma: click' "$WORK/viewer.log" | tail -n 1)"
announced() { grep -A2 'member=Activated' "$WORK/activated" | grep -q 'string "first"'; }
wait_for 10 announced || fail "a click on the message was not announced (Activated): $(cat "$WORK/activated")"
kill "$MONITOR"; wait "$MONITOR" 2>/dev/null || true
xdotool click 2
resumed() { ! paused; }
wait_for 10 resumed || fail "a second middle click did not resume the channel"
# The pointer leaves the widget: its tooltip (a long text's is taller than the panel and may be
# placed over it) must not cover the text the shots below read. Later steps hover again.
tooltip_region_ink() { import -window root "$1" 2>/dev/null && convert "$1" -crop 660x130+0+165 +repage -format %k info:; }
no_tooltip() { [ "$(tooltip_region_ink "$WORK/no-tooltip.png")" -le 8 ]; }
xdotool mousemove 655 295   # off plasmoidviewer's window (640x160 at 0,0)
wait_for 10 no_tooltip || fail "the tooltip stayed open with the pointer away from the widget"

# 3. A daemon restart (SIGTERM, then a new tickerd on the same bus with the same state folder, as
# an upgrade or `systemctl restart` does) while the text scrolls: the daemon's name goes away for a
# moment and the widget keeps drawing the Timeline it has (the grace, docs/DESIGN.md): every shot
# taken across the restart shows Render's frame at its instant, none is blank, and the widget never
# asks the panel for 0 px. The shots run in the background from before the SIGTERM until the widget
# has read the restarted daemon's Timeline and a few more; the new daemon starts half a second after
# the widget noticed the old one gone, so several shots fall in the absence.
GRACE=2    # s: how long a client keeps its Timeline once the daemon's name goes (docs/DESIGN.md)
MARGIN=3   # s: this suite's margin for the widget to notice, hide and repaint
ink_of() { convert "$1" -crop "${EXPECTED_WIDTH}x${GH}+${GX}+${GY}" +repage -format %k info:; }
shoot_until() { # shoot_until DIR FLAG: shots in DIR, one after another, until the file FLAG exists
    shots "$1" 1
    until [ -e "$2" ]; do shots_more "$1" 1; done
}
taken() { [ -s "$WORK/across/times.txt" ] && [ "$(wc -l < "$WORK/across/times.txt")" -ge "$1" ]; }
counted_log() { grep -c "$1" "$WORK/viewer.log" || true; }
geometry_mark=$(counted_log "tickerd-plasma: geometry")
away_mark=$(counted_log "tickerd-plasma: daemon away")
offline_mark=$(counted_log "tickerd-plasma: timeline offline")
lines_before=$(counted_log "tickerd-plasma: timeline online messages=1")
shoot_until "$WORK/across" "$WORK/across-done" &
SHOOTER=$!
PIDS+=($SHOOTER)
wait_for 20 taken 5 || fail "no screenshot was taken before the restart"
kill -TERM "$DAEMON"; wait "$DAEMON" 2>/dev/null || true; DAEMON=""
# The widget logs either line when the daemon leaves: away (drawing on) or offline (hidden).
noticed() { [ "$(counted_log "tickerd-plasma: daemon away")" -gt "$away_mark" ] ||
            [ "$(counted_log "tickerd-plasma: timeline offline")" -gt "$offline_mark" ]; }
wait_for 10 noticed || fail "the widget did not notice the daemon leaving: $(grep tickerd-plasma "$WORK/viewer.log" | tail -n 3)"
noticed_at=$(now_us)
sleep 0.5   # the daemon away a moment (a unit's restart delay, an upgrade unpacking): not a synchronisation
start_daemon
on_bus_at=$(now_us)
back() { [ "$(counted_log "tickerd-plasma: timeline online messages=1")" -gt "$lines_before" ]; }
wait_for 20 back || fail "the widget did not read the restarted daemon's Timeline"
n=$(wc -l < "$WORK/across/times.txt")
wait_for 20 taken $((n + 5)) || fail "the screenshots stopped during the restart"
touch "$WORK/across-done"; wait "$SHOOTER"
# Shots taken wholly while the widget knew the daemon gone and before the new one was on the bus.
during=$(awk -v a="$noticed_at" -v b="$on_bus_at" '$2 >= a && $3 <= b' "$WORK/across/times.txt" | wc -l)
[ "$during" -ge 1 ] || fail "no screenshot was taken while the daemon was away (restart too quick to see)"
for f in "$WORK"/across/shot-*.png; do
    [ "$(ink_of "$f")" -gt 1 ] || { cp "$f" "$ARTIFACTS/across-blank-$(basename "$f")"; fail "a shot across the restart is blank ($(basename "$f"))"; }
done
tail -n +"$((geometry_mark + 1))" <(grep "tickerd-plasma: geometry" "$WORK/viewer.log") | awk '$11 == 0 {exit 1}' ||
    fail "the widget asked the panel for 0 px across a restart (the panel re-laid out)"
check "$WORK/across" 12
[ "$(counted_log "tickerd-plasma: timeline offline")" -eq "$offline_mark" ] ||
    fail "the widget went offline across a restart: $(grep "tickerd-plasma: timeline offline" "$WORK/viewer.log" | tail -n 1)"
echo "plasma: $(wc -l < "$WORK/across/times.txt") shots across a daemon restart, $during of them while it was away, none blank"
mid=$(awk -v a="$noticed_at" -v b="$on_bus_at" '$2 >= a && $3 <= b {print $1; exit}' "$WORK/across/times.txt")
cp "$WORK/across/shot-$mid.png" "$ARTIFACTS/restart-away.png"
# Every shot's text line, top to bottom, for a look (restart-across.png).
convert "$WORK"/across/shot-*.png -crop "${GW}x${GH}+${GX}+${GY}" +repage -append "$ARTIFACTS/restart-across.png"

# 3a. The daemon killed for good (SIGKILL): once the grace has passed the widget hides (nothing
# frozen in its place), within the grace plus the margin; it comes back by itself at the right
# phase when a daemon is started again.
killed_at=$(now_us)
kill -KILL "$DAEMON"; wait "$DAEMON" 2>/dev/null || true; DAEMON=""
layout_width() { grep "tickerd-plasma: geometry" "$WORK/viewer.log" | tail -n 1 | awk '{print $11}'; }
hidden() { [ "$(layout_width)" = "0" ]; }
wait_for $((GRACE + MARGIN)) hidden ||
    fail "$((GRACE + MARGIN)) s after the daemon was killed the widget still asks the panel for $(layout_width) px"
hid_after=$(( ($(now_us) - killed_at) / 1000 ))
# Measured from before the kill to after the log line, so never shorter than the widget's wait.
[ "$hid_after" -ge $((GRACE * 1000)) ] || fail "the widget hid $hid_after ms after the daemon was killed, before the ${GRACE} s grace"
echo "plasma: the daemon killed for good, the widget asked for 0 px $hid_after ms later (grace ${GRACE} s)"
[ "$(counted_log "tickerd-plasma: timeline offline")" -gt "$offline_mark" ] || fail "the widget hid without going offline"
ink() { # ink FILE: colours where the text was
    import -window root "$1" && ink_of "$1"
}
blank_shot() { [ "$(ink "$1")" -le 1 ]; }
wait_for "$MARGIN" blank_shot "$ARTIFACTS/away.png" || fail "with the daemon away the widget still draws (away.png)"
for i in 1 2 3 4 5; do
    blank_shot "$WORK/away-$i.png" || { cp "$WORK/away-$i.png" "$ARTIFACTS/"; fail "the widget drew again while the daemon was away (away-$i.png)"; }
done
lines_before=$(counted_log "tickerd-plasma: timeline online messages=1")
start_daemon
wait_for 30 back || fail "the widget did not come back after the daemon restart"
read -r GX GY GW GH CELL <<<"$(geometry)"
shots "$WORK/restart" 20
check "$WORK/restart" 12
cp "$WORK/restart/shot-000.png" "$ARTIFACTS/after-restart.png"

# 3b. The channel's content changes while the text scrolls: an urgent message comes in at once
# and reaches the end of its window (ttl) mid-scroll; every shot is Render's frame at its instant.
# The widget logs a Timeline as it takes it and draws it from its next paint on; Render answers an
# instant before that from the new Timeline too, so the shots start once the scrolling text has
# painted twice since the log line.
pixels() { convert "$1" rgb:- 2>/dev/null | md5sum; }
screen_changed() { import -window root "$WORK/paint.png" 2>/dev/null && [ "$(pixels "$WORK/paint.png")" != "$LAST_PAINT" ]; }
painted_twice() {
    import -window root "$WORK/paint.png" 2>/dev/null
    LAST_PAINT=$(pixels "$WORK/paint.png")
    for _ in 1 2; do
        wait_for 10 screen_changed || return 1
        LAST_PAINT=$(pixels "$WORK/paint.png")
    done
}
ctl post --urgent --ttl 3s --id brief "brief: gone in three seconds" >/dev/null
digest=$(ctl timeline | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/')
wait_for 20 logged "digest=$digest" || fail "the widget did not take the urgent message"
painted_twice || fail "the widget did not paint the urgent message's Timeline"
shots "$WORK/expiry" 10
gone() { ! ctl list | grep -q brief; }
for _ in $(seq 40); do gone && break; shots_more "$WORK/expiry" 5; done
gone || fail "the message with a 3 s ttl is still listed: $(ctl list)"
shots_more "$WORK/expiry" 10
check "$WORK/expiry" 12
cp "$WORK/expiry/shot-000.png" "$ARTIFACTS/expiry.png"

# 3c. Texts people write, each the channel's only message: right-to-left and mixed-direction text
# (drawn a letter per cell, left to right, as Render gives them), CJK, a very long message and a
# single word. Each shot is Render's frame drawn in the fonts fontconfig gives each character.
# Emoji come from a colour font the reference cannot draw: their shot is kept for a look (the
# edges step below reads emoji cut by an edge against their own look).
text_step() { # text_step NAME TEXT [look]: with `look` the shots are only kept, not read
    ctl remove "$PREVIOUS" >/dev/null 2>&1 || true
    ctl post --urgent --id "$1" "$2" >/dev/null
    PREVIOUS=$1
    local digest
    digest=$(ctl timeline | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/')
    wait_for 20 logged "digest=$digest" || fail "the widget did not take the $1 text"
    # The removal may have emptied the channel a moment: the widget shows again a frame later.
    wait_for 10 inked || fail "the widget draws nothing for the $1 text"
    shots "$WORK/text-$1" 10
    [ "${3:-}" = look ] || check "$WORK/text-$1" 12
    cp "$WORK/text-$1/shot-003.png" "$ARTIFACTS/text-$1.png"
}
inked() { ! blank_shot "$WORK/inked.png"; }
PREVIOUS=first
text_step hebrew "שלום עולם, חדשות הערב: הכול עובד כמו שצריך"
text_step arabic "مرحبا بالعالم، أخبار المساء: كل شيء يعمل"
text_step mixed "Build 42 עבר בהצלחה in 3 min — مرحبا 東京 ok"
text_step emoji "🚀 launch ✅ done ⭐ ☕ ❤️ 👍🏽 ok 🇫🇷 France" look
text_step long "$(printf 'word%d ' $(seq 1 120))"
text_step short "Hi"
ctl remove short >/dev/null

# 3d. plasmoidviewer stopped for 3 s (SIGSTOP, what a suspend does to its main loop), then
# resumed: from its first paint on it shows the frame of the real time, not a catch-up.
ctl post --urgent --id first --link "$LINK" "tickerd in Plasma: pixel-smooth from the Timeline, no bus per frame" >/dev/null
digest=$(ctl timeline | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/')
wait_for 20 logged "digest=$digest" || fail "the widget did not take the text before the stop"
kill -STOP "$VIEWER"
import -window root "$WORK/stopped.png" 2>/dev/null
sleep 3   # the length of the modelled suspend, not a synchronisation
kill -CONT "$VIEWER"
# The screen keeps the stopped frame until the widget paints again: the shots start once it has
# (the text scrolls, so its first paint differs), and from then on must show the real time.
stopped_pixels=$(pixels "$WORK/stopped.png")
repainted() { import -window root "$WORK/now.png" 2>/dev/null && [ "$(pixels "$WORK/now.png")" != "$stopped_pixels" ]; }
wait_for 10 repainted || fail "the widget did not paint again within 10 s of a resume"
rm -rf "$WORK/resumed" && shots "$WORK/resumed" 10
"$PYTHON" "$ROOT/contrib/tests/plasma-shots.py" "$WORK/resumed" "$FONT" "$CELL" "$GX" "$GY" "$GW" "$GH" 40 12 \
    -- "$BIN/tickerctl" --bus "$DBUS_SESSION_BUS_ADDRESS" --strict > "$WORK/resumed/verdict.txt" ||
    { cp -R "$WORK/resumed" "$ARTIFACTS/failed-resumed"; fail "after a stop: $(tail -n 1 "$WORK/resumed/verdict.txt")"; }
cp "$WORK/resumed/shot-000.png" "$ARTIFACTS/resumed.png"

# Wide characters cut by an edge: a slow text full of them (each cut for a third of a second), shot
# until each edge has been caught cutting one for sure a few times.
# (The urgent post switches at once, to the messages as they are: without the one removed.)
ctl remove first >/dev/null
ctl post --urgent --id wide "東京 中文 🚀 launch 大阪 한국어 🎉 北京 日本語" >/dev/null
ctl configure main speed=3 >/dev/null
only_wide() { ! ctl render --columns 200 | grep -q "Plasma"; }
wait_for 30 only_wide || fail "the channel did not change to the wide text: $(ctl render --columns 200)"
digest=$(ctl timeline | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/')
wait_for 20 logged "digest=$digest" || fail "the widget did not take the wide text"
read -r GX GY GW GH CELL <<<"$(geometry)"
edges() {
    "$PYTHON" "$ROOT/contrib/tests/plasma-shots.py" --edges "$WORK/edges" "$CELL" "$GX" "$GY" "$GW" "$GH" 40 3 \
        -- "$BIN/tickerctl" --bus "$DBUS_SESSION_BUS_ADDRESS" > "$WORK/edges/verdict.txt"
}
# Rounds of 6 s of shots (18 cells of motion: 6 wide characters past each edge), read after each;
# at most four.
shots "$WORK/edges" 10
for _ in 1 2 3 4; do
    until="$(( $(now_us) + 6000000 ))"
    while [ "$(now_us)" -lt "$until" ]; do shots_more "$WORK/edges" 10; done
    status=0; edges || status=$?
    [ "$status" -eq 2 ] || break
done
[ "$status" -eq 0 ] ||
    { cp -R "$WORK/edges" "$ARTIFACTS/failed-edges"; fail "$(tail -n 1 "$WORK/edges/verdict.txt")"; }
tail -n 1 "$WORK/edges/verdict.txt"
for edge in left right; do
    n=$(awk -v e="$edge" '$7 == e {sub(":", "", $2); print $2; exit}' "$WORK/edges/verdict.txt")
    convert "$WORK/edges/shot-$n.png" -crop "$((GW + 20))x${GH}+$((GX - 10))+${GY}" +repage -scale 400% "$ARTIFACTS/edge-$edge.png"
done

# 4. Counters: a number counting up in still text shows Render's digits in every shot, and the
# tooltip, open over the widget meanwhile, follows the count.
clock_stopped() { grep "tickerd-plasma: clock" "$WORK/viewer.log" | tail -n 1 | grep -q stopped; }
ctl configure main mode=static >/dev/null   # changes apply at once (no seam to wait for)
ctl remove wide >/dev/null
ctl post --id count "builds today: {builds}" >/dev/null
digest=$(ctl timeline | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/')
wait_for 20 logged "digest=$digest" || fail "the widget did not take the counting message"
# 4a. With the pointer away from the widget (its tooltip cannot show) a count going on costs the
# tooltip nothing: the widget logs each new full text, and while the count changes every display
# frame it logs at most 2 (a Timeline taken), not one per frame; the widget still draws the count.
# The moment the pointer comes over it mid-count, the tooltip's text is the count of that moment
# (between Render's numbers just before the hover and just after the text came).
xdotool mousemove 655 295   # off plasmoidviewer's window (640x160 at 0,0)
wait_for 10 no_tooltip || fail "the tooltip stayed open with the pointer away from the widget"
tooltip_lines() { grep -c "tickerd-plasma: tooltip" "$WORK/viewer.log" || true; }
render_number() { ctl render --columns 40 | tr -dc 0-9; }
lines_before=$(tooltip_lines)
ctl set builds 7654321 --from 0 --duration 10s --grouping >/dev/null
digest=$(ctl timeline | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/')
wait_for 20 logged "digest=$digest" || fail "the widget did not take the counter (pointer away)"
# The widget draws a Timeline from its next paint on (see 3b): the shots start once it has painted.
painted_twice || fail "the widget did not paint the counting Timeline (pointer away)"
until="$(( $(now_us) + 2500000 ))"
shots "$WORK/away-count" 5
while [ "$(now_us)" -lt "$until" ]; do shots_more "$WORK/away-count" 5; done
away_lines=$(( $(tooltip_lines) - lines_before ))
low=$(render_number)
[ "$low" -lt 7654321 ] || fail "the count was over before the hover (the machine is too slow for this step)"
lines_before_hover=$(tooltip_lines)
xdotool mousemove "$hover_x" "$hover_y"
hover_line() { [ "$(tooltip_lines)" -gt "$lines_before_hover" ]; }
wait_for 10 hover_line || fail "hovering mid-count gave the tooltip no new text"
high=$(render_number)
at_hover=$(grep "tickerd-plasma: tooltip" "$WORK/viewer.log" | sed -n "$((lines_before_hover + 1))p" | cut -d' ' -f4-)
hover_number=$(printf '%s' "$at_hover" | tr -dc 0-9)
[ "$away_lines" -le 2 ] ||
    fail "with the pointer away the widget recomputed the tooltip's text $away_lines times in 2.5 s of counting"
[ -n "$hover_number" ] && [ "$hover_number" -ge "$low" ] && [ "$hover_number" -le "$high" ] ||
    fail "hovering mid-count the tooltip said '$at_hover', Render counted $low just before and $high after"
echo "plasma: pointer away, $away_lines tooltip texts over 2.5 s of counting; at the hover it said '$at_hover' (Render: $low .. $high)"
check "$WORK/away-count" 0
cp "$WORK/away-count/shot-002.png" "$ARTIFACTS/counting-away.png"
wait_for 10 tooltip_shown || fail "hovering mid-count shows no tooltip"
cp "$WORK/tooltip.png" "$ARTIFACTS/tooltip-mid-count.png"
final() { [ "$(render_number)" = 7654321 ]; }
wait_for 20 final || fail "the count did not end (Render: $(ctl render --columns 40))"
wait_for 20 tooltip_shown || fail "hovering the widget shows no tooltip before the count"
tooltip_mark=$(tooltip_lines)
ctl set builds 1234567 --from 0 --duration 3s --grouping >/dev/null
digest=$(ctl timeline | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/')
wait_for 20 logged "digest=$digest" || fail "the widget did not take the counter"
painted_twice || fail "the widget did not paint the counting Timeline"
shots "$WORK/counter" 30
check "$WORK/counter" 0
cp "$WORK/counter/shot-005.png" "$ARTIFACTS/counting.png"
tooltip() { grep "tickerd-plasma: tooltip" "$WORK/viewer.log" | tail -n 1 | cut -d' ' -f4-; }
counted() { [ "$(tooltip)" = "builds today: 1,234,567" ]; }
wait_for 10 counted || fail "the tooltip says '$(tooltip)' after the count"
# The open tooltip showed the count going on: its window (below the panel) looks different in
# at least 3 of the shots taken while the number counted, and the widget gave it numbers between.
tooltip_looks=$(for f in "$WORK"/counter/shot-*.png; do
    convert "$f" -crop 660x130+0+165 +repage -format '%k %#\n' info:; done | awk '$1 > 8 {print $2}' | sort -u | wc -l)
counting=$(grep "tickerd-plasma: tooltip" "$WORK/viewer.log" | tail -n +"$((tooltip_mark + 1))" |
    grep "tooltip builds today: [1-9][0-9,]*$" | grep -vc "1,234,567$" || true)
cp "$WORK/counter/shot-010.png" "$ARTIFACTS/tooltip-counting.png"
[ "$tooltip_looks" -ge 3 ] && [ "$counting" -ge 3 ] ||
    fail "the open tooltip did not follow the count: $tooltip_looks looks over the count, $counting numbers before the last (tooltip-counting.png)"
echo "plasma: the open tooltip took $counting numbers before the last and showed $tooltip_looks different looks"
wait_for 10 clock_stopped || fail "the frame clock kept running after the count"
shots "$WORK/counted" 3
check "$WORK/counted" 0
cp "$WORK/counted/shot-002.png" "$ARTIFACTS/counted.png"
# idle_cost WHAT: with nothing moving plasmoidviewer spends (almost) nothing: at most 2 ticks of
# CPU in a 3 s window (a panel spacer in its place measures 0–1; docs/benchmarks.md).
idle_cost() {
    local t0 t1
    t0=$(awk '{print $14 + $15}' "/proc/$VIEWER/stat")
    sleep 3   # the measurement window
    t1=$(awk '{print $14 + $15}' "/proc/$VIEWER/stat")
    [ $((t1 - t0)) -le 2 ] || fail "plasmoidviewer used $((t1 - t0)) CPU ticks in 3 s with $1"
}
idle_cost "still text"

# 5. Emptied: hidden, nothing drawn, the clock stopped.
ctl remove count >/dev/null
wait_for 30 logged "tickerd-plasma: timeline online messages=0" || fail "the widget did not see the channel emptied"
wait_for 10 clock_stopped || fail "the frame clock kept running with nothing to show"
wait_for 10 hidden || fail "the emptied widget still asks the panel for $(layout_width) px"
wait_for 10 blank_shot "$ARTIFACTS/empty.png" || fail "the emptied widget still draws ($(ink "$ARTIFACTS/empty.png") colours where the text was)"
idle_cost "the channel emptied"
cp "$WORK/viewer.log" "$ARTIFACTS/plasmoidviewer.log"

# 6. The settings page, with the daemon's channels main and side.
ctl post --channel side --id side "The side channel" >/dev/null
/usr/bin/python3 "$ROOT/contrib/tests/plasma-config.py" "$PACKAGE" "$ARTIFACTS" 2>"$WORK/config.log" ||
    fail "the settings page: see above and $(tail -n 5 "$WORK/config.log")"
ctl remove side >/dev/null
echo "plasma: the widget scrolls at the Timeline's speed over a whole cycle with one copy of the text," \
     "pauses on a middle click, opens the link of the message clicked, comes back after a restart at the right phase, draws a wide character cut by an edge, counts as Render does and hides when empty;" \
     "its settings page lists the daemon's channels" \
     "($((SECONDS - START)) s; screenshots in artifacts/plasma/)"
