# Shared by the shell test suites (contrib/tests/*.sh, Tests/Packaging/*.sh): sourced, not run.

# wait_for SECONDS COMMAND...: runs COMMAND until it succeeds or the deadline passes (then 1).
wait_for() {
    local deadline=$((SECONDS + $1)); shift
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

# write_bus_config FILE SOCKET: a private, permissive session-bus configuration listening on the
# Unix socket SOCKET, for `dbus-daemon --config-file=FILE --nofork --print-address=3`.
write_bus_config() {
    cat > "$1" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=$2</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
CONF
}
