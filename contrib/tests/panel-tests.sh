#!/bin/bash
# `make test-panels`: the contrib configurations against the real daemon on a private bus.
#
#  1. The shared contrib/js/timeline.js, run under plain gjs, computes the same frames as the
#     daemon's Render at the same instants (text with counters, dots and reveals, offset, `cycle`,
#     `dots` and `reveal` extras), in continuous, scroll, right-to-left, bounce, static and pages
#     mode, across a seamless content change (a post in mid-tape too), during a change a viewer shows still, on a
#     phase-locked channel (left, right, scroll, cycle speed), and with a counting field and
#     jumping dots; `nextStart` and the phase-locked lead-in are checked on Timelines built by
#     the test.
#  2. The extension's enable()/disable(), in its legacy (43–44) and ES-module (45+) forms as built
#     by `make gnome-extension` (extension.js with stand-ins for the Shell's own modules, a real
#     Gio.DBusProxy on the daemon): the item appears, reads the Timeline, draws the frame and runs
#     its frame clock; disable removes it, disconnects everything and stops the clock; twice. A
#     primary click over a message with a link activates it (`Activated` on the bus) and asks to
#     open its link; a middle click or one over the separator does nothing.
#  3. polybar, started under Xvfb with contrib/polybar/config.ini and `tickerctl follow`, draws the
#     ticker: the bar is not blank where the module is, it moves, and it collapses (module and
#     prefix gone) once the channel is emptied. Screenshots go to artifacts/.
#
# Needs: dbus-daemon, gjs, xvfb, polybar, imagemagick, fonts-dejavu-core (make test-panels installs
# them) and the debug build (.build/debug/tickerd, tickerctl).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/.build/debug}
GNOME_BUILD=${GNOME_BUILD:-$ROOT/.build-gnome}
ARTIFACTS=$ROOT/artifacts
mkdir -p "$ARTIFACTS"
WORK=$(mktemp -d /tmp/tickerd-panels.XXXXXX)
PIDS=()

cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# wait_for, write_bus_config
source "$ROOT/contrib/tests/lib.sh"

# A private session-like bus.
write_bus_config "$WORK/bus.conf" "$WORK/bus"
dbus-daemon --config-file="$WORK/bus.conf" --nofork --nopidfile --print-address=3 3>"$WORK/address" 2>/dev/null &
PIDS+=($!)
wait_for 10 test -s "$WORK/address" || fail "dbus-daemon printed no address"
ADDRESS=$(head -n 1 "$WORK/address")

: > "$WORK/tickerd.toml"
"$BIN/tickerd" --bus "$ADDRESS" --state-dir "$WORK/state" --config "$WORK/tickerd.toml" 2>"$WORK/tickerd.log" &
PIDS+=($!)
ctl() { "$BIN/tickerctl" --bus "$ADDRESS" "$@"; }
wait_for 20 ctl status >/dev/null 2>&1 || fail "tickerd did not come up: $(cat "$WORK/tickerd.log")"

# 1. timeline.js under gjs; it counts cells with a copy of the daemon's width tables.
python3 "$ROOT/scripts/gen-timeline-width.py" --check || fail "contrib/js/timeline.js has other width tables than the daemon"
GJS_TEST=$ROOT/contrib/gnome-shell/tests/timeline-test.js
ctl post --id news "tickerd on polybar — breaking news scrolls smoothly, and %{F#f00}tags stay text" >/dev/null
for setup in "mode=continuous speed=9" "mode=scroll delay=400ms easing=easeInOutCubic speed=30" \
             "mode=continuous direction=right delay=0" "mode=bounce delay=300ms easing=easeOutBounce direction=left"; do
    # shellcheck disable=SC2086
    ctl configure main $setup
    gjs "$GJS_TEST" "$ADDRESS" main 20 || fail "timeline.js disagrees with Render ($setup)"
done
ctl configure main mode=continuous speed=40 delay=0 easing=linear
ctl post --id second "a second message joins at the seam" >/dev/null
gjs "$GJS_TEST" "$ADDRESS" main 20 || fail "timeline.js disagrees with Render across a content change"
# Posts that go in the middle of the tape, next to the message the stream continues with.
ctl post --id third "a third message keeps its place" >/dev/null
ctl post --id fourth "a fourth goes where the stream shows it next" >/dev/null
gjs "$GJS_TEST" "$ADDRESS" main 20 pending || fail "timeline.js disagrees with Render across a post in mid-tape"
ctl remove third
ctl remove fourth
ctl remove second
ctl configure main speed=6
# Wide characters (CJK, emoji) crossing both edges, in both directions: the frames with a cell
# more on each side hold them whole where Render's columns show a cut one blank.
ctl post --channel wide --id w "東京 中文 🚀 launch, 東京" >/dev/null
for setup in "speed=9" "speed=7 direction=right"; do
    # shellcheck disable=SC2086
    ctl configure wide $setup
    gjs "$GJS_TEST" "$ADDRESS" wide 9 || fail "timeline.js disagrees with Render on wide characters ($setup)"
done
# Emoji the daemon counts as two cells outside the big emoji blocks (Emoji_Presentation, VS16), a
# symbol it counts as one, a modifier, a flag and marks: each cluster where Render puts it.
ctl post --channel emoji --id e "✅ done ⭐ ☕ ❤️ love 🌡 21° 👍🏽 ok 🇫🇷 café שָׁלוֹם" >/dev/null
ctl configure emoji speed=9
gjs "$GJS_TEST" "$ADDRESS" emoji 12 || fail "timeline.js disagrees with Render on emoji and marks"
# A long tape (300 messages, ~20,000 cells): scrolled fast, the instants checked fall thousands of
# cells into it; then slowed, with a post waiting for its seam. A panel reads each tape into cells
# once per Timeline and answers every frame from them (docs/benchmarks.md, timeline.js rows).
for i in $(seq 300); do
    ctl post --channel long --id "l$i" "Headline number $i: markets, weather and the news of the day" >/dev/null
done
ctl configure long speed=3000
gjs "$GJS_TEST" "$ADDRESS" long 20 || fail "timeline.js disagrees with Render deep into a long tape"
ctl configure long speed=12
ctl post --channel long --id l-new "A new headline arrives on the tape" >/dev/null
gjs "$GJS_TEST" "$ADDRESS" long 20 pending || fail "timeline.js disagrees with Render on a long tape during a change"
# A change while a viewer's text fits: with the new text fitting too it shows from the change's
# instant (40 columns), else at the switch (8 columns); a 3-column viewer scrolls seamlessly.
ctl post --channel still --id s1 "short" >/dev/null
ctl configure still speed=0.5
ctl post --channel still --id s2 "and more" >/dev/null
for columns in 40 8 3; do
    gjs "$GJS_TEST" "$ADDRESS" still "$columns" pending ||
        fail "timeline.js disagrees with Render during a change at $columns columns"
done
# A revealing message arriving on a channel whose text fits: a 40-column viewer sees it typed in
# from the change (long before the switch, 1 cell a second away); a 3-column viewer at the switch.
ctl post --channel typed --id t1 "short" >/dev/null
ctl configure typed speed=1
ctl post --channel typed --id t2 --effect reveal --reveal 2s "typed in" >/dev/null
gjs "$GJS_TEST" "$ADDRESS" typed 40 reveal || fail "timeline.js disagrees with Render on a reveal shown still"
gjs "$GJS_TEST" "$ADDRESS" typed 3 pending || fail "timeline.js disagrees with Render on a reveal at 3 columns"

# A phase-locked channel (docs/rendering.md §13): the second post waits for its seam, the new tape
# epoch-anchored with a blank lead-in; from the settle instant the canonical timeline takes over.
ctl configure fleet phase=wall-clock speed=7
ctl post --channel fleet --id f1 "Northbound trains run every ten minutes" >/dev/null
ctl post --channel fleet --id f2 "Lift B is out of service" >/dev/null
gjs "$GJS_TEST" "$ADDRESS" fleet 20 phase || fail "timeline.js disagrees with Render on a phase-locked channel"
ctl configure fleet direction=right
ctl post --channel fleet --id f3 "Platform 4 closes at 22:00" >/dev/null
gjs "$GJS_TEST" "$ADDRESS" fleet 20 phase || fail "timeline.js disagrees with Render on a phase-locked channel, right"
# Scroll (the new tape holds at home until its first epoch-aligned cycle) and a cycle speed (the
# switch at an old cycle start, where both tapes stand at their cell 0).
ctl configure fleet direction=left mode=scroll delay=500ms speed=20
ctl post --channel fleet --id f4 "Lift B is out" >/dev/null
gjs "$GJS_TEST" "$ADDRESS" fleet 20 phase || fail "timeline.js disagrees with Render on a phase-locked channel, scroll"
ctl configure fleet mode=continuous cycle=6s
ctl remove f4
gjs "$GJS_TEST" "$ADDRESS" fleet 20 phase || fail "timeline.js disagrees with Render on a phase-locked channel, cycle"

# Effects: a counting field and jumping dots, scrolling (20 columns) and still (60 columns);
# static and pages mode with them.
ctl set --channel fx --duration 30s --grouping --suffix " builds" --from 0 builds 12500 >/dev/null
ctl post --channel fx --id ci "CI today: {builds}" >/dev/null
ctl post --channel fx --id sync --effect dots "Syncing..." >/dev/null
ctl configure fx speed=8
gjs "$GJS_TEST" "$ADDRESS" fx 20 || fail "timeline.js disagrees with Render on effects while scrolling"
gjs "$GJS_TEST" "$ADDRESS" fx 60 effects || fail "timeline.js disagrees with Render on still effects"

ctl configure fx mode=static
gjs "$GJS_TEST" "$ADDRESS" fx 20 || fail "timeline.js disagrees with Render in static mode"
ctl configure fx mode=pages
gjs "$GJS_TEST" "$ADDRESS" fx 12 || fail "timeline.js disagrees with Render in pages mode"

# 2. enable()/disable() of both forms of the extension (as `make gnome-extension` assembled them),
#    on the session bus that is our private one; the lifecycle test clicks the linked message.
ctl post --id site --link "https://example.org/tickerd?from=panel&x=1" "tickerd site" >/dev/null
ctl configure main speed=20
for form in legacy esm; do
    test -f "$GNOME_BUILD/$form/tickerd@tickerd.github.io/extension.js" ||
        fail "no $form extension in $GNOME_BUILD (run make gnome-extension)"
    DBUS_SESSION_BUS_ADDRESS="$ADDRESS" gjs -m "$ROOT/contrib/gnome-shell/tests/lifecycle-test.js" "$GNOME_BUILD" "$form" ||
        fail "the $form extension's enable()/disable() or its clicks went wrong"
done
ctl remove site

# 3. polybar under Xvfb. -noreset: when the last client leaves (a screenshot before polybar has
# connected), Xvfb otherwise resets and drops a client connecting meanwhile ("X connection error").
Xvfb -displayfd 4 -noreset -screen 0 900x120x24 -nolisten tcp 4>"$WORK/display" 2>"$WORK/xvfb.log" &
PIDS+=($!)
wait_for 10 test -s "$WORK/display" || fail "Xvfb did not start: $(cat "$WORK/xvfb.log")"
export DISPLAY=":$(head -n 1 "$WORK/display")"
sed "s#^exec = tickerctl #exec = $BIN/tickerctl --bus $ADDRESS #" "$ROOT/contrib/polybar/config.ini" > "$WORK/polybar.ini"
grep -q -- "--bus $ADDRESS" "$WORK/polybar.ini" || fail "could not point the polybar config at the test bus"
polybar --config="$WORK/polybar.ini" tickerd >"$WORK/polybar.log" 2>&1 &
PIDS+=($!)

# The module's region: the bar is 28 px high at the top; the module starts at the left.
module_colours() {
    import -window root "$WORK/shot.png" 2>/dev/null || return 1
    convert "$WORK/shot.png" -crop 560x28+0+0 +repage "$WORK/module.png"
    convert "$WORK/module.png" -format %k info:
}
drawn() { [ "$(module_colours)" -gt 8 ]; }
wait_for 20 drawn || fail "the bar stays blank where the module is: $(cat "$WORK/polybar.log")"
cp "$WORK/shot.png" "$ARTIFACTS/polybar-screen.png"
cp "$WORK/module.png" "$ARTIFACTS/polybar-module-1.png"
convert "$WORK/shot.png" -crop 900x28+0+0 +repage "$ARTIFACTS/polybar-bar.png"
moved() {
    module_colours >/dev/null || return 1
    ! cmp -s "$WORK/module.png" "$ARTIFACTS/polybar-module-1.png"
}
wait_for 10 moved || fail "the ticker does not move in the bar"
cp "$WORK/module.png" "$ARTIFACTS/polybar-module-2.png"
# An emptied channel prints an empty line: polybar collapses the module, its prefix included, once
# the removal has reached the view (the bar is one colour where the module was).
ctl remove news
collapsed() { [ "$(module_colours)" -le 1 ]; }
wait_for 60 collapsed || { cp "$WORK/shot.png" "$ARTIFACTS/polybar-emptied.png"; fail "an emptied channel leaves the polybar module drawn (polybar-emptied.png)"; }
cp "$WORK/module.png" "$ARTIFACTS/polybar-module-emptied.png"
echo "panels: timeline.js agrees with Render in 21 setups; the extension enables and disables cleanly" \
     "and opens the link of the message clicked;" \
     "polybar draws and scrolls the ticker and collapses it when the channel empties (screenshots in artifacts/)"
