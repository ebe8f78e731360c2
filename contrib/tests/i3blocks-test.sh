#!/bin/bash
# `make test-panels`, part 3: the real i3blocks in a real bar, as a person on sway runs it:
# a headless sway whose own swaybar runs `status_command i3blocks -c CONFIG`, CONFIG being
# contrib/i3blocks/config with contrib/i3blocks/tickerd-i3blocks on the PATH, fed by a real tickerd
# on a private bus; as a non-root user (sway refuses to run as root), everything it needs copied
# to a folder it can read.
#
# Screenshots (grim) of the bar, one after the other (tens a second) over a whole cycle of the
# tape, show:
#  1. the block's text moves at the Timeline's speed (cell width × cells a second, ±2 %) and
#     changes;
#  2. each frame's look, learned from most of its shots (in the bar's own font), spans exactly the
#     cells of its first to last character: quotes, backslashes and markup characters show as
#     they are, nothing cut, nothing added; and every shot of a later run shows the frame Render
#     gives at its instant;
#  3. a channel emptied by `remove` hides the block once the removal reaches it;
#  4. a left click on the block (sway's seat cursor) reaches i3blocks; i3blocks 1.5 and later
#     hand it to the script, and the message under the pointer is activated (`Activated` on the
#     bus) and its link opened; i3blocks 1.4 (Debian 12) runs a block's command on a click only
#     when it is not running, so a persistent block gets no click: the test checks that i3blocks
#     drops it and nothing is activated.
# A failure names the shot and leaves every screenshot (PPM) under artifacts/i3blocks/shots/STAGE/;
# a few are kept as PNGs in artifacts/i3blocks/ in any case.
#
# Needs: sway, i3blocks, grim, fonts-dejavu-core, imagemagick, dbus-daemon, dbus-bin
# (dbus-monitor), xdg-utils (a click opens a link), python3, passwd (useradd), util-linux
# (setpriv); run as root (it creates the user). I3BLOCKS=PATH runs another i3blocks build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/.build/debug}
CONTRIB=${CONTRIB:-$ROOT/contrib/i3blocks}
# The i3blocks under test (I3BLOCKS=PATH tries another build, e.g. 1.5).
I3BLOCKS=${I3BLOCKS:-$(command -v i3blocks || true)}
ARTIFACTS=$ROOT/artifacts/i3blocks
rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
PANEL_USER=${PANEL_USER:-tickerd-panels}
PIDS=()

fail() { echo "FAIL (i3blocks): $*" >&2; exit 1; }
[ -x "$I3BLOCKS" ] || fail "no i3blocks (apt-get install i3blocks)"
[ "$(id -u)" = 0 ] || fail "run as root: the test creates and switches to the user $PANEL_USER"
id -u "$PANEL_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$PANEL_USER"
PANEL_UID=$(id -u "$PANEL_USER")
PANEL_GID=$(id -g "$PANEL_USER")

WORK=$(mktemp -d /tmp/tickerd-i3blocks.XXXXXX)
chmod 0755 "$WORK"
SHOTS_ROOT=$WORK/shots
cleanup() {
    local status=$?
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    cp "$WORK"/*.log "$ARTIFACTS/" 2>/dev/null || true
    # After a failure every screenshot stays for a person to look at (a folder for each stage).
    if [ "$status" != 0 ] && [ -d "$SHOTS_ROOT" ]; then cp -r "$SHOTS_ROOT" "$ARTIFACTS/shots" || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# as_user COMMAND...: runs COMMAND as the panel user with the session's environment.
# exec_as_user: the same, becoming COMMAND; for `exec_as_user … &`, so that $! is COMMAND's PID.
as_user() { (exec_as_user "$@"); }
exec_as_user() {
    exec setpriv --reuid="$PANEL_UID" --regid="$PANEL_GID" --clear-groups \
        env -i HOME="$WORK/home" XDG_RUNTIME_DIR="$WORK/run" PATH="$WORK/bin:/usr/bin:/bin" \
        WAYLAND_DISPLAY="${WAYLAND_DISPLAY:-}" BROWSER="$WORK/bin/browser" \
        DBUS_SESSION_BUS_ADDRESS="${ADDRESS:-}" "$@"
}

# wait_for, write_bus_config
source "$ROOT/contrib/tests/lib.sh"

# What the user may read and write: its home, its runtime folder, the binaries and the block's
# script (on the PATH, as the config's comment tells a user to put it), and the test's mouse.
mkdir -p "$WORK/home/.config/i3blocks" "$WORK/run" "$WORK/bin" "$WORK/state"
install -m 0755 "$BIN/tickerd" "$BIN/tickerctl" "$CONTRIB/tickerd-i3blocks" \
    "$ROOT/contrib/tests/virtual-pointer.py" "$I3BLOCKS" "$WORK/bin/"
# The user's web browser (xdg-open outside a desktop hands links to $BROWSER) notes what it opens.
printf '#!/bin/sh\nprintf "%%s\\n" "$1" >> "%s"\n' "$WORK/home/opened" > "$WORK/bin/browser"
chmod 0755 "$WORK/bin/browser"
# The user's i3blocks config is the contrib one, unchanged.
cp "$CONTRIB/config" "$WORK/home/.config/i3blocks/config"
chown -R "$PANEL_UID:$PANEL_GID" "$WORK/home" "$WORK/run" "$WORK/state"
chmod 0700 "$WORK/run"

write_bus_config "$WORK/bus.conf" "$WORK/run/bus"
exec_as_user dbus-daemon --config-file="$WORK/bus.conf" --nofork --nopidfile --print-address=3 3>"$WORK/address" 2>/dev/null &
PIDS+=($!)
wait_for 10 test -s "$WORK/address" || fail "dbus-daemon printed no address"
ADDRESS=$(head -n 1 "$WORK/address")
: > "$WORK/tickerd.toml"
exec_as_user "$WORK/bin/tickerd" --bus "$ADDRESS" --state-dir "$WORK/state" --config "$WORK/tickerd.toml" \
    2>>"$WORK/tickerd.log" &
PIDS+=($!)
ctl() { as_user "$WORK/bin/tickerctl" --bus "$ADDRESS" "$@"; }
wait_for 20 ctl status >/dev/null 2>&1 || fail "tickerd did not come up: $(cat "$WORK/tickerd.log")"

# The tape first (the block shows it from its start), 8 cells a second: Latin text with the
# characters a JSON line and Pango markup treat specially, and a second message (each with a link,
# so that a click shows which one it activates).
SPEED=8
ctl configure main "speed=$SPEED" >/dev/null
ctl post --id latin --link "https://example.org/latin" \
    'Say "hi" <b>not bold</b> & C:\temp\new -- the quick brown fox jumps over the lazy dog' >/dev/null
# --urgent: the tape holds both at once (Render at a past instant computes with the current content,
# so the shots must all be of it).
ctl post --id weather --urgent --link "https://example.org/weather" 'Weather: sunny, 21 degrees' >/dev/null

# Headless sway (no GPU: pixman) with its own swaybar running i3blocks on the user's config. The
# bar's font is the one the config's cell width is for: DejaVu Sans Mono at 13 px, 8 px a cell.
# i3blocks' debug log (-vv) shows the clicks it receives.
cat > "$WORK/sway.conf" <<CONF
output HEADLESS-1 resolution 1024x200 position 0 0 bg #000000 solid_color
default_border none
bar {
    position top
    height 30
    font pango:DejaVu Sans Mono 13px
    workspace_buttons no
    binding_mode_indicator no
    status_command $WORK/bin/i3blocks -vv -c $WORK/home/.config/i3blocks/config 2>>$WORK/i3blocks.log
    colors {
        background #000000
        statusline #cdd6f4
    }
}
CONF
touch "$WORK/i3blocks.log"; chown "$PANEL_UID:$PANEL_GID" "$WORK/i3blocks.log"
exec_as_user env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    sway --config "$WORK/sway.conf" >"$WORK/sway.log" 2>&1 &
PIDS+=($!)
sway_up() { ls "$WORK/run"/wayland-* "$WORK/run"/sway-ipc.* >/dev/null 2>&1; }
wait_for 20 sway_up || fail "sway did not start: $(tail -n 20 "$WORK/sway.log")"
WAYLAND_DISPLAY=$(basename "$(ls "$WORK/run"/wayland-* | grep -v '\.lock$' | head -n 1)")
SWAYSOCK=$(ls "$WORK/run"/sway-ipc.* | head -n 1)

# shots_in STAGE: the shots from now on go to a fresh folder STAGE (with its own index).
shots_in() {
    SHOTS=$SHOTS_ROOT/$1
    rm -rf "$SHOTS"; mkdir -p "$SHOTS"; chown -R "$PANEL_UID:$PANEL_GID" "$SHOTS_ROOT"
}
shots_in start
# shot NAME: the bar's strip, as PPM, the instant (µs) it was taken (the middle of grim's run)
# and how long grim ran (the instant's uncertainty).
shot() {
    local before after
    before=$(date +%s%6N)
    as_user grim -t ppm -g "0,0 1024x30" "$SHOTS/$1.ppm" 2>>"$WORK/grim.log" || return 1
    after=$(date +%s%6N)
    echo "$1 $(( (before + after) / 2 )) $(( after - before ))" >> "$SHOTS/index"
}
analyse() { python3 "$ROOT/contrib/tests/i3blocks-shots.py" "$@"; }
# keep SHOT NAME: a shot as artifacts/i3blocks/NAME.png, for a person to look at.
keep() { convert "$SHOTS/$1.ppm" "$ARTIFACTS/$2.png" || fail "could not keep the shot $1"; }

block_shown() { shot probe && analyse ink "$SHOTS/probe.ppm" >/dev/null; }
wait_for 30 block_shown || fail "the block never appears: $(tail -n 20 "$WORK/sway.log" "$WORK/i3blocks.log")"

# The channel's Timeline, as busctl's JSON; the tape's width in cells (one cycle).
timeline() {
    as_user busctl --address="$ADDRESS" --json=short get-property io.github.tickerd.Ticker1 \
        /io/github/tickerd/Ticker1/channel/main io.github.tickerd.Ticker1.Channel Timeline
}
tape_width() {
    timeline | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["data"]["width"]["data"]))'
}
# shots_for SECONDS STAGE: shots one after the other for SECONDS into a fresh folder STAGE.
shots_for() {
    shots_in "$2"
    local end=$((SECONDS + $1)) count=0
    while [ "$SECONDS" -lt "$end" ]; do
        shot "$(printf '%s-%04d' "$2" "$count")" || fail "grim failed: $(tail -n 5 "$WORK/grim.log")"
        count=$((count + 1))
    done
    TOTAL_SHOTS=$((TOTAL_SHOTS + count))
}
TOTAL_SHOTS=0
RENDER=(setpriv --reuid="$PANEL_UID" --regid="$PANEL_GID" --clear-groups busctl --address="$ADDRESS"
        --json=short call io.github.tickerd.Ticker1 /io/github/tickerd/Ticker1/channel/main
        io.github.tickerd.Ticker1.Channel Render ux 48)

# 1. One whole cycle: the text moves by SPEED cells of 8 px a second and changes; each frame's
# look is learned from most of its shots.
# No change waits for its seam (the Timeline has no `switch`).
settled() { ! timeline | grep -q '"switch"'; }
wait_for 30 settled || fail "the tape does not settle: $(timeline)"
CYCLE=$(( $(tape_width) / SPEED + 1 ))
shots_for "$CYCLE" cycle
keep cycle-0000 cycle-first
keep "$(printf 'cycle-%04d' $(( $(grep -c . "$SHOTS/index") / 2 )))" cycle-middle
analyse speed "$SHOTS" "$SPEED" 8 "$ARTIFACTS" || fail "the text does not move at the Timeline's speed (shots in artifacts/i3blocks/shots/cycle)"
analyse learn "$SHOTS" "$WORK/learned.json" 8 -- "${RENDER[@]}" || fail "the shots do not show the frames Render gives (see above; shots in artifacts/i3blocks/shots/cycle)"

# 2. Later shots show the frame Render gives at their instants.
shots_for 3 phase
analyse phase "$SHOTS" "$WORK/learned.json" "$ARTIFACTS" -- "${RENDER[@]}" ||
    fail "the block does not show the frame Render gives (shots in artifacts/i3blocks/shots/phase)"

# 4. A click. A mouse is plugged in (a headless sway has none, and a seat without a pointer gives
# swaybar no clicks), the channel paused so the text stands, and the seat's cursor clicks the
# middle of the first cell of a word.
exec_as_user python3 "$WORK/bin/virtual-pointer.py" > "$WORK/pointer.out" 2>&1 &
PIDS+=($!)
wait_for 10 grep -qs ready "$WORK/pointer.out" || fail "no virtual pointer: $(cat "$WORK/pointer.out")"
exec_as_user dbus-monitor --address "$ADDRESS" \
    "type='signal',interface='io.github.tickerd.Ticker1.Manager',member='Activated'" > "$WORK/activated.log" 2>&1 &
PIDS+=($!)
wait_for 10 grep -qs NameAcquired "$WORK/activated.log" || fail "dbus-monitor did not start"
shots_in click
ctl pause main >/dev/null
# The text stands once two shots a moment apart look the same.
standing() { shot still-a && shot still-b && cmp -s "$SHOTS/still-a.ppm" "$SHOTS/still-b.ppm"; }
wait_for 10 standing || fail "the text does not stand still when the channel is paused"
FRAME=$(ctl render --columns 48)
# The first whole word of either message in the frame: its column and its message.
read -r COLUMN MESSAGE < <(python3 - "$FRAME" <<'PY'
import re, sys
frame = sys.argv[1]
words = {"latin": ["quick", "brown", "jumps", "over", "lazy", "bold", "temp", "Say"],
         "weather": ["Weather", "sunny", "degrees"]}
found = min((m.start(), message) for message, list_ in words.items() for word in list_
            for m in re.finditer(r"\b%s\b" % word, frame))
print(*found)
PY
) || fail "the paused frame '$FRAME' shows no whole word of either message"
LEFT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["area"][0])' "$WORK/learned.json")
X=$((LEFT + COLUMN * 8 + 4))
keep still-a paused
swaymsg_() { as_user swaymsg -s "$SWAYSOCK" "$@" >/dev/null; }
swaymsg_ seat seat0 cursor set "$X" 15 && swaymsg_ seat seat0 cursor press button1 &&
    swaymsg_ seat seat0 cursor release button1 || fail "swaymsg could not click"
I3BLOCKS_VERSION=$("$WORK/bin/i3blocks" -V 2>&1 | awk '{ print $2; exit }')
if [ "$I3BLOCKS_VERSION" = 1.4 ]; then
    # i3blocks 1.4 receives the click and drops it (its command is running): nothing activates.
    dropped() { grep -A2 "parsed click: name=tickerd .*button=1 x=$X " "$WORK/i3blocks.log" | grep -q "process already spawned"; }
    wait_for 10 dropped || fail "the click on x=$X never reached i3blocks: $(grep -i click "$WORK/i3blocks.log" | tail -n 3)"
    ! grep -q "member=Activated" "$WORK/activated.log" || fail "i3blocks 1.4 activated a message: $(cat "$WORK/activated.log")"
    CLICK_RESULT="i3blocks 1.4 receives a click and drops it (nothing activated)"
else
    # i3blocks 1.5+: the message under the pointer is activated and its link opened.
    activated() { grep -A3 "member=Activated" "$WORK/activated.log" | grep -q "string \"$MESSAGE\""; }
    wait_for 10 activated || fail "a click on '$FRAME' column $COLUMN (x=$X) did not activate the message: $(cat "$WORK/activated.log")"
    [ "$(cat "$WORK/home/opened")" = "https://example.org/$MESSAGE" ] ||
        fail "a click on $MESSAGE opened '$(cat "$WORK/home/opened" 2>/dev/null)', not its link"
    CLICK_RESULT="a click on column $COLUMN activates the message under the pointer ($MESSAGE) and opens its link"
fi
# The pointer leaves the bar (a software cursor shows in the shots).
swaymsg_ seat seat0 cursor set 1000 150 || fail "swaymsg could not move the cursor"
ctl resume main >/dev/null
moving() { shot moving-a && ! cmp -s "$SHOTS/still-a.ppm" "$SHOTS/moving-a.ppm"; }
wait_for 10 moving || fail "the text does not move again after the click and resume"

# 3. Removing the messages hides the block once the removal has reached the view.
shots_in empty
ctl remove latin
ctl remove weather
hidden() { shot hidden && ! analyse ink "$SHOTS/hidden.ppm" >/dev/null; }
wait_for $((CYCLE + 10)) hidden || fail "an emptied channel leaves the block on the bar (shots/empty/hidden.ppm)"
keep hidden hidden

echo "i3blocks $I3BLOCKS_VERSION: the block's text moves at the Timeline's speed and shows the frame Render gives;" \
     "$CLICK_RESULT; an emptied channel hides the block ($TOTAL_SHOTS shots)"
