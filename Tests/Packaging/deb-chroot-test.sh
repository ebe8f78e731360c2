#!/bin/bash
# The Debian package on a clean Debian 12 system (`make test-deb`).
#
# Builds tickerd_VERSION.deb and an upgrade with a higher version from one release build, makes a
# minimal Debian 12 root with debootstrap (cached: DEB_CACHE, default .build-deb/cache) and inside
# it (chroot, no systemd running):
#   0. lintian finds nothing that debian/*.lintian-overrides does not explain;
#   1. `apt install ./tickerd_*.deb ./tickerd-sources_*.deb` pulls only packages from the Debian
#      archive;
#   2. `tickerd --version`, `tickerctl --help` and `tickerd-sources --help` run;
#   3. a bus started there (Debian's system bus configuration with the package's policy) takes
#      the daemon, run as the package's user, and `tickerctl post` / `list` work;
#   4. every path `dpkg -L tickerd` lists exists, and the unit is enabled but nothing was started
#      (the user units are enabled for nobody);
#   5. `systemctl reload tickerd` as the unit's ExecReload= lines run it: a mistake in
#      /etc/tickerd/tickerd.toml fails it with file, line and key, and a good file is applied;
#   6. the upgrade keeps the state in /var/lib/tickerd and the admin's /etc/tickerd/tickerd.toml,
#      and asks systemd to reload and to restart what ran (try-restart), never to stop it;
#   7. `apt remove` stops the services and takes the programs, and keeps the configuration, the
#      state and the user;
#   8. `apt purge tickerd` leaves no file of the package, no /etc/tickerd, no /var/lib/tickerd.
# Needs root (chroot, mount), debootstrap and dpkg-dev/debhelper on the host, and the Debian
# archive (the machine's own apt source) for debootstrap and for apt inside the root.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${DEB_CACHE:-$ROOT/.build-deb/cache}
MIRROR=${DEB_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
ARTIFACTS=$ROOT/artifacts/deb
mkdir -p "$CACHE" "$ARTIFACTS"
WORK=$(mktemp -d /tmp/tickerd-deb.XXXXXX)
CHROOT=$WORK/root
MOUNTS=()
DAEMON_PID=""

cleanup() {
    if [ -n "$DAEMON_PID" ]; then kill "$DAEMON_PID" 2>/dev/null || true; fi
    # Processes started inside the root (the private bus, the daemon) hold its mounts.
    for pid in $(ls /proc | grep -E '^[0-9]+$'); do
        if [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$CHROOT" ]; then kill "$pid" 2>/dev/null || true; fi
    done
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }
in_root() { chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }

# wait_for
source "$ROOT/contrib/tests/lib.sh"

step "building the package and an upgrade (one release build)"
export PATH=/opt/swift/usr/bin:$PATH
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product tickerd >/dev/null &&
    swift build -c release --static-swift-stdlib --product tickerctl >/dev/null &&
    swift build -c release --static-swift-stdlib --product tickerd-sources >/dev/null)
export TICKERD_BUILT TICKERD_DEB_COMPRESSION=gzip
TICKERD_BUILT=$(cd "$ROOT" && swift build -c release --static-swift-stdlib --show-bin-path)
version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
DEB_OUT=$WORK/out DEB_LOG=$ARTIFACTS/build-1.log "$ROOT/scripts/build-deb.sh" > "$WORK/deb1.txt"
DEB_OUT=$WORK/out DEB_LOG=$ARTIFACTS/build-2.log "$ROOT/scripts/build-deb.sh" "$version+upgrade1" > "$WORK/deb2.txt"
DEB1=$(tail -n 1 "$WORK/deb1.txt"); DEB2=$(tail -n 1 "$WORK/deb2.txt")
SRC1=$(dirname "$DEB1")/tickerd-sources_${version}_$(dpkg --print-architecture).deb
SRC2=$(dirname "$DEB2")/tickerd-sources_${version}+upgrade1_$(dpkg --print-architecture).deb
[ -f "$DEB1" ] && [ -f "$DEB2" ] && [ -f "$SRC1" ] && [ -f "$SRC2" ] || fail "no .deb built: $(ls "$WORK/out")"

step "lintian: no tag, informational ones included, that debian/*.lintian-overrides does not explain"
lintian --fail-on error,warning,info -I "$DEB1" "$SRC1" > "$ARTIFACTS/lintian.txt" 2>&1 ||
    fail "lintian: $(grep -v '^running with root' "$ARTIFACTS/lintian.txt")"

step "dependencies come from Debian only"
depends=$(dpkg-deb -f "$DEB1" Depends)
echo "Depends: $depends"
case "$depends" in *libdbus-1-3*) ;; *) fail "Depends lacks libdbus-1-3: $depends" ;; esac
case "$depends" in *libsystemd0*) ;; *) fail "Depends lacks libsystemd0: $depends" ;; esac
case "$depends" in *swift*|*Swift*) fail "Depends names the Swift toolchain: $depends" ;; esac
# No library from the toolchain is needed at run time.
dpkg-deb -x "$DEB1" "$WORK/unpacked"
dpkg-deb -x "$SRC1" "$WORK/unpacked"
for bin in tickerd tickerctl tickerd-sources; do
    if ldd "$WORK/unpacked/usr/bin/$bin" | grep -E 'not found|/opt/swift|swift' ; then
        fail "$bin needs a library outside Debian"
    fi
done

step "a minimal Debian 12 root (cache: $CACHE)"
tarball=$CACHE/bookworm-minbase.tar
if [ ! -s "$tarball" ]; then
    rm -rf "$CACHE/bookworm-minbase"
    debootstrap --variant=minbase bookworm "$CACHE/bookworm-minbase" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 ||
        fail "debootstrap failed: $(tail -n 5 "$CACHE/debootstrap.log")"
    tar -C "$CACHE/bookworm-minbase" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$CACHE/bookworm-minbase"
fi
mkdir -p "$CHROOT"
tar -C "$CHROOT" -xf "$tarball"
echo "deb $MIRROR bookworm main" > "$CHROOT/etc/apt/sources.list"
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf" 2>/dev/null || true
for m in proc dev dev/pts; do
    case $m in
        proc) mount -t proc proc "$CHROOT/proc" ;;
        *) mount --bind "/$m" "$CHROOT/$m" ;;
    esac
    MOUNTS+=("$CHROOT/$m")
done
# Nothing may start services inside the root (as on any chroot: policy-rc.d says no).
printf '#!/bin/sh\nexit 101\n' > "$CHROOT/usr/sbin/policy-rc.d"; chmod +x "$CHROOT/usr/sbin/policy-rc.d"
in_root apt-get update -qq > "$WORK/apt-update.log" 2>&1 || fail "apt-get update in the root: $(tail -n 5 "$WORK/apt-update.log")"
# The test's own tools, installed before the package so that they are not counted as its pulls.
in_root apt-get install -y -qq --no-install-recommends dbus util-linux > "$WORK/apt-tools.log" 2>&1 ||
    fail "installing the test's tools: $(tail -n 5 "$WORK/apt-tools.log")"
in_root dpkg-query -W -f='${Package}\n' | sort > "$WORK/before.txt"

step "apt install ./tickerd_$version.deb"
mkdir -p "$CHROOT/tmp/debs"
cp "$DEB1" "$DEB2" "$SRC1" "$SRC2" "$CHROOT/tmp/debs/"
in_root apt-get install -y "/tmp/debs/$(basename "$DEB1")" "/tmp/debs/$(basename "$SRC1")" > "$ARTIFACTS/install.log" 2>&1 ||
    fail "apt install: $(tail -n 20 "$ARTIFACTS/install.log")"
in_root dpkg-query -W -f='${Package}\n' | sort > "$WORK/after.txt"
pulled=$(comm -13 "$WORK/before.txt" "$WORK/after.txt" | grep -vx -e tickerd -e tickerd-sources || true)
echo "pulled: $(echo $pulled)"
for p in $pulled; do
    in_root apt-cache policy "$p" | grep -q " $MIRROR bookworm" || fail "$p does not come from the Debian archive"
done
for p in tickerd tickerd-sources; do
    in_root dpkg-query -W -f='${Status}' "$p" | grep -q "install ok installed" || fail "$p is not installed"
done

step "the programs run"
in_root tickerd --version | tee "$WORK/version.txt"
grep -q "$version" "$WORK/version.txt" || grep -qE '^[0-9]' "$WORK/version.txt" || fail "tickerd --version printed nothing useful"
in_root tickerctl --help > "$WORK/help.txt" || fail "tickerctl --help failed"
grep -q "USAGE" "$WORK/help.txt" || fail "tickerctl --help printed no usage"
in_root tickerd-sources --help > "$WORK/sources-help.txt" || fail "tickerd-sources --help failed"
grep -q "USAGE" "$WORK/sources-help.txt" || fail "tickerd-sources --help printed no usage"

step "installed files are where dpkg -L says"
in_root dpkg -L tickerd tickerd-sources > "$ARTIFACTS/dpkg-L.txt"
while IFS= read -r path; do
    [ -n "$path" ] || continue   # dpkg -L puts a blank line between two packages' lists
    in_root test -e "$path" || fail "dpkg -L lists $path, which is missing"
done < "$ARTIFACTS/dpkg-L.txt"
for path in /usr/bin/tickerd /usr/bin/tickerctl /lib/systemd/system/tickerd.service \
    /usr/lib/systemd/user/tickerd.service /usr/lib/sysusers.d/tickerd.conf \
    /usr/share/dbus-1/system.d/io.github.tickerd.Ticker1.conf \
    /usr/share/dbus-1/system-services/io.github.tickerd.Ticker1.service \
    /usr/share/dbus-1/services/io.github.tickerd.Ticker1.service \
    /usr/share/man/man8/tickerd.8.gz /usr/share/man/man1/tickerctl.1.gz /usr/share/man/man5/tickerd.toml.5.gz \
    /usr/share/bash-completion/completions/tickerctl /usr/share/zsh/vendor-completions/_tickerctl \
    /usr/share/fish/vendor_completions.d/tickerctl.fish /usr/share/bash-completion/completions/tickerd \
    /usr/share/zsh/vendor-completions/_tickerd /usr/share/fish/vendor_completions.d/tickerd.fish \
    /usr/share/bash-completion/completions/tickerd-sources /usr/share/zsh/vendor-completions/_tickerd-sources \
    /usr/share/fish/vendor_completions.d/tickerd-sources.fish /etc/tickerd/tickerd.toml \
    /usr/bin/tickerd-sources /lib/systemd/system/tickerd-sources.service \
    /usr/lib/systemd/user/tickerd-sources.service /usr/share/man/man8/tickerd-sources.8.gz; do
    grep -qx "$path" "$ARTIFACTS/dpkg-L.txt" || fail "$path is not in dpkg -L"
done
in_root getent passwd tickerd > /dev/null || fail "the package did not create user tickerd"
# Every program a unit runs (ExecStart=, ExecReload=) is installed with the packages' dependencies.
for program in $(sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\([^ ]*\).*/\1/p' "$CHROOT"/lib/systemd/system/tickerd*.service \
        "$CHROOT"/usr/lib/systemd/user/tickerd*.service | sort -u); do
    in_root test -x "$program" || fail "a unit runs $program, which no installed package provides"
done
# bash loads a completion file by the command's name (bash-completion's rule), and each completes.
for program in tickerctl tickerd tickerd-sources; do
    in_root bash -c ". /usr/share/bash-completion/completions/$program && complete -p $program" | grep -q -- '-F' ||
        fail "the bash completion defines no completion for $program"
done
# Enabled (deb-systemd-helper's links) but not started: no systemd runs here, and policy-rc.d
# refused any start; the package asked for none (--no-start).
[ -L "$CHROOT/etc/systemd/system/multi-user.target.wants/tickerd.service" ] || fail "tickerd.service is not enabled"
grep -q "deb-systemd-invoke start" "$CHROOT/var/lib/dpkg/info/tickerd.postinst" && fail "the package starts the unit on install"
# tickerd-sources needs the admin's sources.toml first: neither enabled nor started.
# (-L, not -e: the links point to absolute paths inside the root, which -e follows on the host.)
[ -L "$CHROOT/etc/systemd/system/multi-user.target.wants/tickerd-sources.service" ] && fail "tickerd-sources.service is enabled"
# The user units are installed, enabled for nobody: each desktop user enables their own (a
# tickerd-sources started at every login without that user's sources.toml would fail there).
for unit in tickerd tickerd-sources; do
    [ -L "$CHROOT/etc/systemd/user/default.target.wants/$unit.service" ] && fail "the user unit $unit.service is enabled for every user"
done

# start_daemon: the root's own system bus (Debian's system.conf, which includes the package's
# policy from /usr/share/dbus-1/system.d) and tickerd on it as user tickerd, as the unit runs it.
# Posting as root goes through the policy's Control rule.
start_daemon() {
    mkdir -p "$CHROOT/run/dbus"
    rm -f "$CHROOT/run/dbus/system_bus_socket" "$CHROOT/run/dbus/pid"
    chroot "$CHROOT" dbus-daemon --system --fork --print-pid=1 > "$WORK/bus.pid" ||
        fail "the root's system bus did not start"
    BUS_PID=$(head -n 1 "$WORK/bus.pid")
    wait_for 10 test -S "$CHROOT/run/dbus/system_bus_socket" || fail "the system bus made no socket"
    chroot "$CHROOT" setpriv --reuid=tickerd --regid=tickerd --init-groups \
        env -i PATH=/usr/bin:/bin STATE_DIRECTORY=/var/lib/tickerd \
        tickerd --bus system --config /etc/tickerd/tickerd.toml > "$ARTIFACTS/tickerd.log" 2>&1 &
    DAEMON_PID=$!
    wait_for 20 in_root tickerctl --bus system status > /dev/null 2>&1 ||
        fail "tickerd did not come up in the root: $(cat "$ARTIFACTS/tickerd.log")"
}
stop_daemon() {
    kill -TERM "$DAEMON_PID"; wait "$DAEMON_PID" || true; DAEMON_PID=""
    kill -TERM "$BUS_PID"; wait_for 10 test ! -e "/proc/$BUS_PID" || kill -KILL "$BUS_PID"
}

step "the root's system bus takes the daemon; tickerctl post works"
mkdir -p "$CHROOT/var/lib/tickerd"; in_root chown tickerd:tickerd /var/lib/tickerd; chmod 0700 "$CHROOT/var/lib/tickerd"
start_daemon
id=$(in_root tickerctl --bus system post --id kept "Survives the upgrade")
[ "$id" = kept ] || fail "tickerctl post printed '$id'"
in_root tickerctl --bus system list | grep -q "Survives the upgrade" || fail "tickerctl list does not show the post"

# systemctl_reload: the installed unit's ExecReload= lines in order, as systemd runs them (user
# tickerd, CONFIGURATION_DIRECTORY, $MAINPID), stopping at the first that fails; their standard
# error goes to $WORK/reload.err.
systemctl_reload() {
    local line
    : > "$WORK/reload.err"
    while IFS= read -r line; do
        line=${line//\$MAINPID/$DAEMON_PID}
        # shellcheck disable=SC2086  # the unit's words, as systemd splits them
        chroot "$CHROOT" setpriv --reuid=tickerd --regid=tickerd --init-groups \
            env -i PATH=/usr/bin:/bin CONFIGURATION_DIRECTORY=/etc/tickerd STATE_DIRECTORY=/var/lib/tickerd \
            $line 2>> "$WORK/reload.err" > /dev/null || return 1
    done < <(sed -n 's/^ExecReload=//p' "$CHROOT/lib/systemd/system/tickerd.service")
}

step "systemctl reload tickerd: a mistake fails it by line and key, a good file applies"
cp "$CHROOT/etc/tickerd/tickerd.toml" "$WORK/shipped.toml"
in_root tickerd --bus system --check-config > "$WORK/check.txt" || fail "the shipped configuration does not pass --check-config"
grep -q '^/etc/tickerd/tickerd.toml: ok' "$WORK/check.txt" || fail "tickerd --check-config said: $(cat "$WORK/check.txt")"
printf '\n[channel.main]\nspeed = "fast"\n' >> "$CHROOT/etc/tickerd/tickerd.toml"
bad_line=$(grep -n '^speed = "fast"' "$CHROOT/etc/tickerd/tickerd.toml" | cut -d: -f1)
systemctl_reload && fail "systemctl reload of a broken tickerd.toml succeeded"
grep -q "^/etc/tickerd/tickerd.toml:$bad_line: channel.main.speed: " "$WORK/reload.err" ||
    fail "the failed reload did not name the line and key: $(cat "$WORK/reload.err")"
# The admin's own settings.
cp "$WORK/shipped.toml" "$CHROOT/etc/tickerd/tickerd.toml"
printf '\n[channel.main]\nspeed = 11\n' >> "$CHROOT/etc/tickerd/tickerd.toml"
cp "$CHROOT/etc/tickerd/tickerd.toml" "$WORK/admin.toml"
systemctl_reload || fail "systemctl reload of a good tickerd.toml failed: $(cat "$WORK/reload.err")"
wait_for 10 sh -c "chroot '$CHROOT' tickerctl --bus system status --json | grep -q '\"speed\" *: *11'" ||
    fail "the reloaded configuration is not in force: $(in_root tickerctl --bus system status --json)"
stop_daemon

# What the maintainer scripts ask of systemd, as if it ran (/run/systemd/system): stand-ins for
# systemctl and deb-systemd-invoke, first on PATH, record each call in /tmp/systemd-calls.
pretend_systemd() {
    mkdir -p "$CHROOT/run/systemd/system"
    for tool in systemctl deb-systemd-invoke; do
        printf '#!/bin/sh\necho "%s $*" >> /tmp/systemd-calls\n' "$tool" > "$CHROOT/usr/local/sbin/$tool"
        chmod +x "$CHROOT/usr/local/sbin/$tool"
    done
    : > "$CHROOT/tmp/systemd-calls"
}
stop_pretending() { rm -rf "$CHROOT/run/systemd" "$CHROOT/usr/local/sbin/systemctl" "$CHROOT/usr/local/sbin/deb-systemd-invoke"; }
# apt hands dpkg a PATH of its own (DPkg::Path), which must name the stand-ins' folder too.
apt_with_systemd() {
    chroot "$CHROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        LC_ALL=C.UTF-8 apt-get -o DPkg::Path=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

step "upgrade to $(basename "$DEB2")"
pretend_systemd
apt_with_systemd install -y "/tmp/debs/$(basename "$DEB2")" "/tmp/debs/$(basename "$SRC2")" > "$ARTIFACTS/upgrade.log" 2>&1 ||
    fail "apt upgrade: $(tail -n 20 "$ARTIFACTS/upgrade.log")"
in_root dpkg-query -W -f='${Version}' tickerd | grep -qx "$version+upgrade1" || fail "the upgrade did not install"
cmp -s "$WORK/admin.toml" "$CHROOT/etc/tickerd/tickerd.toml" || fail "the upgrade changed /etc/tickerd/tickerd.toml"
cp "$CHROOT/tmp/systemd-calls" "$ARTIFACTS/systemd-calls-upgrade.txt"
for unit in tickerd tickerd-sources; do
    grep -qx "deb-systemd-invoke try-restart $unit.service" "$ARTIFACTS/systemd-calls-upgrade.txt" ||
        fail "the upgrade does not restart a running $unit: $(cat "$ARTIFACTS/systemd-calls-upgrade.txt")"
    grep -q "deb-systemd-invoke stop .*$unit.service" "$ARTIFACTS/systemd-calls-upgrade.txt" &&
        fail "the upgrade stops $unit (and leaves it stopped): $(cat "$ARTIFACTS/systemd-calls-upgrade.txt")"
done
grep -qx "systemctl --system daemon-reload" "$ARTIFACTS/systemd-calls-upgrade.txt" ||
    fail "the upgrade does not make systemd read the new units: $(cat "$ARTIFACTS/systemd-calls-upgrade.txt")"
stop_pretending
start_daemon
in_root tickerctl --bus system list | grep -q "Survives the upgrade" || fail "the state did not survive the upgrade"
in_root tickerctl --bus system status --json > "$WORK/status.json"
python3 - "$WORK/status.json" <<'PY' ||
import json, sys
def find(value, key):
    """The values of `key` anywhere inside `value`."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key: yield v
            yield from find(v, key)
    elif isinstance(value, list):
        for v in value: yield from find(v, key)
status = json.load(open(sys.argv[1]))
main = [c for c in find(status, "channels")][0]
main = [c for c in main if "main" in list(find(c, "Name")) + list(find(c, "name"))][0]
sys.exit(0 if 11.0 in [float(s) for s in find(main, "speed")] else 1)
PY
    fail "the admin's config is not in force after the upgrade: $(cat "$WORK/status.json")"
stop_daemon

step "apt remove tickerd keeps the configuration, the state and the user"
in_root dpkg -L tickerd tickerd-sources > "$WORK/files.txt"
pretend_systemd
apt_with_systemd remove -y tickerd tickerd-sources > "$ARTIFACTS/remove.log" 2>&1 ||
    fail "apt remove: $(tail -n 20 "$ARTIFACTS/remove.log")"
cp "$CHROOT/tmp/systemd-calls" "$ARTIFACTS/systemd-calls-remove.txt"
stop_pretending
for unit in tickerd tickerd-sources; do
    grep -qx "deb-systemd-invoke stop $unit.service" "$ARTIFACTS/systemd-calls-remove.txt" ||
        fail "apt remove leaves $unit running: $(cat "$ARTIFACTS/systemd-calls-remove.txt")"
done
for p in tickerd tickerd-sources; do
    in_root dpkg-query -W -f='${Status}' "$p" | grep -q "deinstall ok config-files" || fail "$p is not removed with its configuration kept"
done
[ -e "$CHROOT/usr/bin/tickerd" ] && fail "apt remove left /usr/bin/tickerd"
cmp -s "$WORK/admin.toml" "$CHROOT/etc/tickerd/tickerd.toml" || fail "apt remove did not keep /etc/tickerd/tickerd.toml"
[ -s "$CHROOT/var/lib/tickerd/state.json" ] || fail "apt remove did not keep the state in /var/lib/tickerd"
in_root getent passwd tickerd > /dev/null || fail "apt remove took the user tickerd"

step "apt purge tickerd"
in_root apt-get purge -y tickerd tickerd-sources > "$ARTIFACTS/purge.log" 2>&1 || fail "apt purge: $(tail -n 20 "$ARTIFACTS/purge.log")"
for p in tickerd tickerd-sources; do
    in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q installed && fail "$p is still installed"
done
while IFS= read -r path; do
    [ -n "$path" ] || continue
    [ -d "$CHROOT$path" ] && continue   # shared folders such as /usr/share/man stay
    [ -e "$CHROOT$path" ] && fail "purge left $path"
done < "$WORK/files.txt"
for path in /etc/tickerd /var/lib/tickerd /etc/systemd/system/multi-user.target.wants/tickerd.service \
    /etc/systemd/system/dbus-io.github.tickerd.Ticker1.service; do
    [ -e "$CHROOT$path" ] || [ -L "$CHROOT$path" ] && fail "purge left $path"
done
left=$(cd "$CHROOT" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp \) -prune -o -name '*tickerd*' -print \
    | grep -v '^./var/lib/dpkg/' || true)
[ -z "$left" ] || fail "purge left: $left"
echo "deb-chroot-test: all checks passed"
