import CSystemd

/// Tells the service manager about the daemon's life cycle through `sd_notify(3)`.
///
/// Without `NOTIFY_SOCKET` in the environment every call is a cheap no-op, so the daemon runs the
/// same way under systemd, under a test harness with its own socket, and from a terminal.
struct ServiceNotifier {
    /// How often the watchdog wants a ping: half of `WATCHDOG_USEC`, or nil when it is off.
    let watchdogInterval: Int64?

    /// Reads `WATCHDOG_USEC`/`WATCHDOG_PID` once, through `sd_watchdog_enabled`.
    init() {
        var usec: UInt64 = 0
        if sd_watchdog_enabled(0, &usec) > 0, usec > 0 {
            watchdogInterval = Int64(usec / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// The service is up: the bus name is owned and requests are being served.
    func ready(status: String) {
        send("READY=1\nSTATUS=\(status)")
    }

    /// A one-line, human-readable state shown by `systemctl status`.
    func status(_ status: String) {
        send("STATUS=\(status)")
    }

    /// A reload is starting; `ready(status:)` ends it.
    func reloading(monotonicMicroseconds: UInt64) {
        send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds)")
    }

    /// The service is shutting down.
    func stopping() {
        send("STOPPING=1")
    }

    /// The event loop is alive: a stuck loop never reaches this call, so the manager restarts it.
    func watchdogPing() {
        send("WATCHDOG=1")
    }

    private func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}
