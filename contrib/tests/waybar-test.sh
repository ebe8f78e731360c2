#!/bin/bash
# `make test-panels`, part 2: the real waybar, under a headless sway, fed by `tickerctl follow`
# with contrib/waybar/config.jsonc and style.css, as a non-root user (waybar and sway refuse
# nothing as root, but desktops never run them so; a checkout in a 0700 home must not matter, so
# everything the user needs is copied to a folder it can read).
#
# Screenshots (grim) of the bar, about ten a second over a whole cycle of the tape, show:
#  1. the module's box keeps one width to the pixel while text with CJK and emoji scrolls;
#  2. the text moves at the speed the Timeline says (cell width × cells a second, ±2 %);
#  3. the text changes (it scrolls) and shows ink;
#  4. a channel emptied by `remove` hides the module (empty text) once the removal reaches it;
#  5. across a daemon restart (shot all through) no shot is blank, and every shot shows the frame
#     Render gives at its instant (the frames' looks learned from the shots before the restart, in
#     waybar's own font).
#  6. a counter looks exactly as a message whose literal text is Render's frame; a frame seen
#     while scrolling looks exactly as its text standing still (no copies overlap); dots move;
# A failure names the shot and leaves every screenshot under artifacts/waybar/.
#
# Needs: sway, waybar, grim, fonts-dejavu-core, fonts-noto-cjk, fonts-noto-color-emoji,
# dbus-daemon, python3, passwd (useradd), util-linux (setpriv); run as root (it creates the user).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/.build/debug}
# The module configuration and style under test (CONTRIB=DIR tries others).
CONTRIB=${CONTRIB:-$ROOT/contrib/waybar}
ARTIFACTS=$ROOT/artifacts/waybar
rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
PANEL_USER=${PANEL_USER:-tickerd-panels}
PIDS=()

fail() { echo "FAIL (waybar): $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run as root: the test creates and switches to the user $PANEL_USER"
id -u "$PANEL_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$PANEL_USER"
PANEL_UID=$(id -u "$PANEL_USER")
PANEL_GID=$(id -g "$PANEL_USER")

WORK=$(mktemp -d /tmp/tickerd-waybar.XXXXXX)
chmod 0755 "$WORK"
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    cp "$WORK"/*.log "$ARTIFACTS/" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# as_user COMMAND...: runs COMMAND as the panel user with the session's environment.
# exec_as_user: the same, becoming COMMAND; for `exec_as_user … &`, so that $! is COMMAND's PID.
as_user() { (exec_as_user "$@"); }
exec_as_user() {
    exec setpriv --reuid="$PANEL_UID" --regid="$PANEL_GID" --clear-groups \
        env -i HOME="$WORK/home" XDG_RUNTIME_DIR="$WORK/run" PATH="$WORK/bin:/usr/bin:/bin" \
        WAYLAND_DISPLAY="${WAYLAND_DISPLAY:-}" DBUS_SESSION_BUS_ADDRESS="${ADDRESS:-}" "$@"
}

# wait_for, write_bus_config
source "$ROOT/contrib/tests/lib.sh"

# What the user may read and write: its home, its runtime folder, the binaries.
mkdir -p "$WORK/home/.config" "$WORK/run" "$WORK/bin" "$WORK/state"
install -m 0755 "$BIN/tickerd" "$BIN/tickerctl" "$WORK/bin/"
chown -R "$PANEL_UID:$PANEL_GID" "$WORK/home" "$WORK/run" "$WORK/state"
chmod 0700 "$WORK/run"

# The bus and the daemon, as the user.
write_bus_config "$WORK/bus.conf" "$WORK/run/bus"
exec_as_user dbus-daemon --config-file="$WORK/bus.conf" --nofork --nopidfile --print-address=3 3>"$WORK/address" 2>/dev/null &
PIDS+=($!)
wait_for 10 test -s "$WORK/address" || fail "dbus-daemon printed no address"
ADDRESS=$(head -n 1 "$WORK/address")
: > "$WORK/tickerd.toml"
start_daemon() {
    exec_as_user "$WORK/bin/tickerd" --bus "$ADDRESS" --state-dir "$WORK/state" --config "$WORK/tickerd.toml" \
        2>>"$WORK/tickerd.log" &
    DAEMON=$!
    PIDS+=($DAEMON)
    wait_for 20 ctl status >/dev/null 2>&1 || fail "tickerd did not come up: $(cat "$WORK/tickerd.log")"
}
ctl() { as_user "$WORK/bin/tickerctl" --bus "$ADDRESS" "$@"; }
start_daemon

# Headless sway (no input, no GPU: pixman renderer).
cat > "$WORK/sway.conf" <<CONF
output HEADLESS-1 resolution 1024x200 position 0 0 bg #000000 solid_color
default_border none
CONF
exec_as_user env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    sway --config "$WORK/sway.conf" >"$WORK/sway.log" 2>&1 &
SWAY=$!
PIDS+=($SWAY)
sway_up() { ls "$WORK/run"/wayland-* >/dev/null 2>&1; }
wait_for 20 sway_up || fail "sway did not start: $(tail -n 20 "$WORK/sway.log")"
WAYLAND_DISPLAY=$(basename "$(ls "$WORK/run"/wayland-* | grep -v '\.lock$' | head -n 1)")

# waybar with the contrib module and style, the module in the centre (where width changes show),
# fed by tickerctl on our bus. The bar's own background and the module's are set apart so the
# module's box can be measured.
python3 - "$CONTRIB/config.jsonc" "$WORK/home/.config/waybar.json" "$WORK/bin/tickerctl --bus $ADDRESS" <<'PY'
import json, re, sys
source, target, tickerctl = sys.argv[1:]
text = re.sub(r"^\s*//.*$", "", open(source).read(), flags=re.M)
module = json.loads(text)["custom/tickerd"]
module["exec"] = module["exec"].replace("tickerctl", tickerctl, 1)
config = {"layer": "top", "position": "top", "height": 30, "modules-left": [], "modules-right": [],
          "modules-center": ["custom/tickerd"], "custom/tickerd": module}
json.dump(config, open(target, "w"))
PY
{ echo '* { border: none; border-radius: 0; }'
  echo 'window#waybar { background: #000000; }'
  cat "$CONTRIB/style.css"
  echo '#custom-tickerd { background: #102030; }'
  # One text colour for every class, so a still frame and a scrolling one compare by their glyphs.
  echo '#custom-tickerd, #custom-tickerd.static, #custom-tickerd.paused { color: #cdd6f4; }'; } \
    > "$WORK/home/.config/waybar.css"
chown -R "$PANEL_UID:$PANEL_GID" "$WORK/home"

# The tape: Latin, CJK and emoji, 8 cells a second (the channel's speed in the Timeline).
SPEED=8
ctl configure main "speed=$SPEED" >/dev/null
ctl post --id mixed "Markets: 日経平均 上昇 🎉 tickerd 📈 ニュース 速報 — 한국어 뉴스 ✅ end of tape" >/dev/null
exec_as_user waybar -c "$WORK/home/.config/waybar.json" -s "$WORK/home/.config/waybar.css" >"$WORK/waybar.log" 2>&1 &
WAYBAR=$!
PIDS+=($WAYBAR)

SHOTS=$WORK/shots
mkdir -p "$SHOTS"
mkdir -p "$SHOTS"; chown "$PANEL_UID:$PANEL_GID" "$SHOTS"
# shot NAME: the bar's strip, as PPM, the instant (µs) it was taken (the middle of grim's run)
# and how long grim ran (the instant's uncertainty).
shot() {
    local before after
    before=$(date +%s%6N)
    as_user grim -t ppm -g "0,0 1024x30" "$SHOTS/$1.ppm" 2>>"$WORK/grim.log" || return 1
    after=$(date +%s%6N)
    echo "$1 $(( (before + after) / 2 )) $(( after - before ))" >> "$SHOTS/index"
}
# The analysis: python3 over the PPM strips (no imaging library needed).
analyse() { python3 "$ROOT/contrib/tests/waybar-shots.py" "$@"; }
# keep SHOT NAME: a shot as artifacts/waybar/NAME.png, for a person to look at.
keep() { convert "$SHOTS/$1.ppm" "$ARTIFACTS/$2.png" || fail "could not keep the shot $1"; }

module_shown() { shot probe && analyse box "$SHOTS/probe.ppm" >/dev/null; }
wait_for 30 module_shown || fail "the module never appears: $(tail -n 20 "$WORK/waybar.log")"

# The tape's width in cells (one cycle), from the Timeline.
tape_width() {
    as_user busctl --address="$ADDRESS" --json=short get-property io.github.tickerd.Ticker1 \
        /io/github/tickerd/Ticker1/channel/main io.github.tickerd.Ticker1.Channel Timeline |
        python3 -c 'import json,sys; print(int(json.load(sys.stdin)["data"]["width"]["data"]))'
}
# shots_for SECONDS PREFIX: shots one after the other for SECONDS into a fresh folder.
shots_for() {
    rm -rf "$SHOTS"; mkdir -p "$SHOTS"; chown "$PANEL_UID:$PANEL_GID" "$SHOTS"
    local end=$((SECONDS + $1)) count=0
    while [ "$SECONDS" -lt "$end" ]; do
        shot "$(printf '%s-%04d' "$2" "$count")" || fail "grim failed: $(tail -n 5 "$WORK/grim.log")"
        count=$((count + 1))
    done
    TOTAL_SHOTS=$((TOTAL_SHOTS + count))
}
TOTAL_SHOTS=0

# 1. One whole cycle of the mixed tape: the box never changes width.
CYCLE=$(( $(tape_width) / SPEED + 1 ))
shots_for "$CYCLE" wide
analyse width "$SHOTS" "$ARTIFACTS" || fail "CJK and emoji change the module's width (shots in artifacts/waybar)"
keep wide-0000 mixed-first
keep "$(printf 'wide-%04d' $(( $(ls "$SHOTS" | grep -c "^wide-") / 2 )))" mixed-middle

# 2–3. One whole cycle of Latin text: the text moves by SPEED cells of 8 px (DejaVu Sans Mono at
# 13 px, contrib/waybar/style.css) a second.
ctl post --id latin "Latin only: the quick brown fox jumps over the lazy dog, 0123456789 -- tickerd" >/dev/null
ctl remove mixed
# Ready when the removal has reached the view: no change waits for its seam (the Timeline has no
# `switch`) and the frame is ASCII only. The frame alone is not enough: the mixed text's ASCII tail
# can still be in view, and Render answers a past instant from the Timeline it holds when asked,
# so shots taken before the switch would teach the frames' looks under other texts' names.
latin_shown() {
    ! ctl timeline | grep -q '"switch"' && ctl render --columns 48 | LC_ALL=C grep -q '^[ -~]*$'
}
wait_for $((CYCLE + 10)) latin_shown || fail "the Latin tape never reached the module"
shots_for $(( $(tape_width) / SPEED + 1 )) latin
analyse speed "$SHOTS" "$SPEED" 8 "$ARTIFACTS" || fail "the text does not move at the Timeline's speed"
keep latin-0000 latin-first
# What each frame looks like in waybar (the frame Render gives at a shot's instant, learned from
# the shots well inside a step), for the phase check after the restart.
RENDER=(setpriv --reuid="$PANEL_UID" --regid="$PANEL_GID" --clear-groups busctl --address="$ADDRESS"
        --json=short call io.github.tickerd.Ticker1 /io/github/tickerd/Ticker1/channel/main
        io.github.tickerd.Ticker1.Channel Render ux 48)
analyse learn "$SHOTS" "$WORK/learned.json" -- "${RENDER[@]}" || fail "no frame could be learned"

# 5. A restart of the daemon, shot all through: while its name is away follow goes on from the
# Timeline it has (its grace, 2 s), so no shot is blank and the bar never lays itself out again;
# then it reads the restarted daemon's Timeline. Every shot, across the restart and after it,
# shows the frame the restarted daemon's Render gives at its instant (the phase is right).
rm -rf "$SHOTS"; mkdir -p "$SHOTS"; chown "$PANEL_UID:$PANEL_GID" "$SHOTS"
restart_shots() { ls "$SHOTS" | grep -c '^restart-' || true; }
shots_before_restart() { [ "$(restart_shots)" -ge 5 ]; }
( count=0; end=
  while [ -z "$end" ] || [ "$SECONDS" -lt "$end" ]; do
      shot "$(printf 'restart-%04d' "$count")" || exit 1
      count=$((count + 1))
      if [ -z "$end" ] && [ -e "$WORK/restarted" ]; then end=$((SECONDS + 2)); fi
  done ) &
SHOOTER=$!
wait_for 10 shots_before_restart || fail "no shots before the restart"
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null || true
start_daemon
touch "$WORK/restarted"
wait "$SHOOTER" || fail "grim failed: $(tail -n 5 "$WORK/grim.log")"
TOTAL_SHOTS=$((TOTAL_SHOTS + $(restart_shots)))
for image in "$SHOTS"/restart-*.ppm; do
    analyse box "$image" >/dev/null || { cp "$image" "$ARTIFACTS/"; fail "the module blanked during the daemon's restart: $(basename "$image")"; }
done
analyse phase "$SHOTS" "$WORK/learned.json" "$ARTIFACTS" -- "${RENDER[@]}" ||
    fail "across and after a restart the module is not at the phase Render gives (shots in artifacts/waybar)"
echo "waybar: $(restart_shots) shots across the daemon's restart all show the module at Render's phase"

# The cost of scrolling (no screenshots meanwhile): CPU of waybar, sway and tickerctl follow over
# COST_SECONDS, in ms of CPU a second, from /proc (printed; docs/benchmarks.md keeps the figures).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
FOLLOW=$(pgrep -u "$PANEL_USER" -f "tickerctl --bus .* follow" | head -n 1)
COST_SECONDS=${COST_SECONDS:-10}
if [ "$COST_SECONDS" -gt 0 ] && [ -n "$FOLLOW" ]; then
    before=("$(cpu_ticks "$WAYBAR")" "$(cpu_ticks "$SWAY")" "$(cpu_ticks "$FOLLOW")")
    sleep "$COST_SECONDS"  # a measuring window, not a wait for anything
    after=("$(cpu_ticks "$WAYBAR")" "$(cpu_ticks "$SWAY")" "$(cpu_ticks "$FOLLOW")")
    hz=$(getconf CLK_TCK)
    ms() { awk -v t="$(( after[$1] - before[$1] ))" -v hz="$hz" -v s="$COST_SECONDS" 'BEGIN { printf "%.1f", t * 1000 / hz / s }'; }
    echo "waybar cost at $SPEED cells/s over ${COST_SECONDS} s: waybar $(ms 0) ms/s, sway $(ms 1) ms/s," \
         "tickerctl follow $(ms 2) ms/s"
fi

# 4. Removing the only message hides the module once the removal has reached the view.
ctl remove latin
hidden() { shot hidden && ! analyse box "$SHOTS/hidden.ppm" >/dev/null; }
wait_for $((CYCLE + 10)) hidden || { cp "$SHOTS/hidden.ppm" "$ARTIFACTS/"; fail "an emptied channel leaves the module on the bar (hidden.ppm)"; }

# 6. A counter shows the digits Render gives: the module looks exactly as it does for a message
# whose literal text is Render's frame.
ctl set builds 12500 --grouping >/dev/null
ctl post --id counted "CI today: {builds} builds" >/dev/null
EXPECTED=$(ctl render --columns 48 | sed 's/ *$//')
case "$EXPECTED" in *12,500*) ;; *) fail "Render does not show the counter: '$EXPECTED'" ;; esac
wait_for 20 module_shown || fail "the module does not come back for the counter"
wait_for 10 shot counted || fail "grim failed"
keep counted counted
ctl remove counted
ctl post --id literal "$EXPECTED" >/dev/null
looks_as_counted() { shot literal && analyse same "$SHOTS/literal.ppm" "$SHOTS/counted.ppm"; }
wait_for 20 looks_as_counted || { cp "$SHOTS/counted.ppm" "$SHOTS/literal.ppm" "$ARTIFACTS/";
    fail "the counter's digits differ from Render's '$EXPECTED' (counted.ppm, literal.ppm)"; }

# No two copies overlap while the text scrolls: a frame learned while scrolling looks exactly as
# the same text posted as a still message.
SAMPLE=$(analyse sample "$WORK/learned.json")
ctl update literal --text "$SAMPLE" >/dev/null
looks_as_scrolled() { shot sample && analyse matches "$SHOTS/sample.ppm" "$WORK/learned.json" "$SAMPLE"; }
wait_for 20 looks_as_scrolled || { cp "$SHOTS/sample.ppm" "$ARTIFACTS/";
    fail "the scrolling frame '$SAMPLE' does not look as that text standing still (sample.ppm)"; }

# 7. Dots move: a still message with the dots effect changes picture while its text stands.
ctl remove literal
ctl post --id dots --effect dots "Compiling..." >/dev/null
wait_for 20 module_shown || fail "the module does not come back for the dots"
shots_for 3 dots
PICTURES=$(analyse distinct "$SHOTS")
[ "$PICTURES" -ge 3 ] || fail "the dots do not move ($PICTURES pictures in 3 s)"

echo "waybar: the box keeps its width over a cycle with CJK and emoji, the text moves at the Timeline's" \
     "speed and at the restarted daemon's phase without overlapping copies, an emptied channel hides the module, counters show Render's" \
     "digits and dots move ($TOTAL_SHOTS shots)"
