#!/bin/bash
# `make test-panels`, GNOME part: the extension in a real GNOME Shell, proven by screenshots.
#
# gnome-shell runs headless (`--headless --wayland --no-x11 --virtual-monitor 1280x720`) inside
# `dbus-run-session`, with DBUS_SYSTEM_BUS_ADDRESS pointed at a private empty bus (without a system
# bus the Shell dies in its login manager), HOME and the XDG folders in a temporary folder, the
# extension (the form `make gnome-extension` built for this Shell) installed there and enabled
# through the keyfile GSettings backend, beside a test-only helper extension
# (contrib/tests/gnome-shell-helper@tickerd.test: leaves the overview, reports the item's place). tickerd serves the session bus of that dbus-run-session,
# the bus the extension reads. contrib/tests/gnome_shell_probe.py then drives tickerd with
# tickerctl, takes screenshots through org.gnome.Shell.Screenshot (owning org.gnome.Screenshot, as
# gnome-screenshot does) and checks what a user sees; see its header for the assertions. Then
# contrib/tests/gnome_shell_day.py, in the same Shell, goes through a day: a click, a daemon restart
# (the text stays), a crash (it hides after the grace) and restart, content changes mid-scroll, texts people write, the
# preferences window choosing another channel, width and place, the Shell stopped and resumed (see
# its header). A failure names the frame and leaves the screenshots in artifacts/gnome-shell/.
#
#   contrib/tests/gnome-shell-test.sh            (CI: 8 s cost windows)
#   GNOME_COST_WINDOW=60 contrib/tests/gnome-shell-test.sh   (the figures of docs/benchmarks.md)
#
# Needs: gnome-shell, dbus-daemon, dbus-run-session, python3-gi, python3-numpy, gir1.2-gdkpixbuf-2.0
# (make test-panels installs them), the debug build and .build-gnome (make gnome-extension).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/.build/debug}
GNOME_BUILD=${GNOME_BUILD:-$ROOT/.build-gnome}
UUID=tickerd@tickerd.github.io
# A test-only extension that leaves the overview and says where the item is (see its header).
HELPER=gnome-shell-helper@tickerd.test
ARTIFACTS=$ROOT/artifacts/gnome-shell
PYTHON=${PYTHON:-/usr/bin/python3}

fail() { echo "FAIL: $*" >&2; exit 1; }

# wait_for, write_bus_config
source "$ROOT/contrib/tests/lib.sh"

if [ -z "${TICKERD_GNOME_INSIDE:-}" ]; then
    major=$(gnome-shell --version | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p')
    [ -n "$major" ] || fail "gnome-shell --version says nothing usable"
    form=$([ "$major" -ge 45 ] && echo esm || echo legacy)
    test -f "$GNOME_BUILD/$form/$UUID/extension.js" || fail "no $form extension in $GNOME_BUILD (run make gnome-extension)"
    rm -rf "$ARTIFACTS"
    mkdir -p "$ARTIFACTS"
    WORK=$(mktemp -d /tmp/tickerd-gnome.XXXXXX)
    SYSTEM_PID=""
    cleanup() {
        [ -z "$SYSTEM_PID" ] || kill "$SYSTEM_PID" 2>/dev/null || true
        [ -z "$SYSTEM_PID" ] || wait "$SYSTEM_PID" 2>/dev/null || true
        rm -rf "$WORK"
    }
    trap cleanup EXIT

    # A private, empty bus standing in for the system bus.
    write_bus_config "$WORK/system.conf" "$WORK/system_bus"
    dbus-daemon --config-file="$WORK/system.conf" --nofork --nopidfile --print-address=3 3>"$WORK/system_address" 2>/dev/null &
    SYSTEM_PID=$!
    wait_for 10 test -s "$WORK/system_address" || fail "the system-like dbus-daemon printed no address"

    # A home of its own: the extension installed and enabled (keyfile GSettings backend).
    mkdir -p "$WORK/home" "$WORK/data/gnome-shell/extensions" "$WORK/config/glib-2.0/settings" "$WORK/cache" "$WORK/runtime"
    chmod 0700 "$WORK/runtime"
    cp -r "$GNOME_BUILD/$form/$UUID" "$ROOT/contrib/tests/$HELPER" "$WORK/data/gnome-shell/extensions/"
    cat > "$WORK/config/glib-2.0/settings/keyfile" <<KEYS
[org/gnome/shell]
enabled-extensions=['$UUID', '$HELPER']
disable-user-extensions=false
welcome-dialog-last-shown-version='999'
KEYS
    status=0
    env HOME="$WORK/home" XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" XDG_CACHE_HOME="$WORK/cache" \
        XDG_RUNTIME_DIR="$WORK/runtime" GSETTINGS_BACKEND=keyfile NO_AT_BRIDGE=1 \
        DBUS_SYSTEM_BUS_ADDRESS="$(head -n 1 "$WORK/system_address")" \
        TICKERD_GNOME_INSIDE="$WORK" \
        dbus-run-session -- "$0" "$@" || status=$?
    [ "$status" -eq 0 ] || { echo "screenshots and logs: $ARTIFACTS" >&2; exit "$status"; }
    exit 0
fi

# Inside dbus-run-session: tickerd and gnome-shell on its session bus, then the probe.
WORK=$TICKERD_GNOME_INSIDE
PIDS=()
cleanup_inside() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    cp "$WORK"/*.log "$ARTIFACTS/" 2>/dev/null || true
}
trap cleanup_inside EXIT

: > "$WORK/tickerd.toml"
gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x720 >"$WORK/gnome-shell.log" 2>&1 &
SHELL_PID=$!
PIDS+=("$SHELL_PID")

# GNOME_PROBES picks the probes (default both: the cycle, then a day of restarts, changes and texts).
for probe in ${GNOME_PROBES:-probe day}; do
    "$PYTHON" "$ROOT/contrib/tests/gnome_shell_$probe.py" \
        --bin "$BIN" --bus "$DBUS_SESSION_BUS_ADDRESS" --shell-pid "$SHELL_PID" --shell-log "$WORK/gnome-shell.log" \
        --work "$WORK" --artifacts "$ARTIFACTS" --uuid "$UUID" --cost-window "${GNOME_COST_WINDOW:-8}" \
        --prefs "$GNOME_BUILD/esm/$UUID"
done
