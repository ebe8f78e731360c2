import CSystemd
import Glibc

/// Tells the service manager about the daemon's life cycle, as `sd_notify(3)` does, but never
/// blocks: the datagram goes out on a non-blocking socket, so a manager (or test) that is slow to
/// read `NOTIFY_SOCKET` costs a dropped status line, never a stalled event loop.
///
/// Without `NOTIFY_SOCKET` in the environment every call is a cheap no-op, so the daemon runs the
/// same way under systemd, under a test harness with its own socket, and from a terminal.
final class ServiceNotifier {
    /// How often the watchdog wants a ping: half of `WATCHDOG_USEC`, or nil when it is off.
    let watchdogInterval: Int64?
    private let fd: Int32
    private var address = sockaddr_un()
    private var addressLength: socklen_t = 0

    /// Reads `NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace) and the watchdog
    /// settings (`WATCHDOG_USEC`/`WATCHDOG_PID`, through `sd_watchdog_enabled`).
    init() {
        var usec: UInt64 = 0
        if sd_watchdog_enabled(0, &usec) > 0, usec > 0 {
            watchdogInterval = Int64(usec / 2)
        } else {
            watchdogInterval = nil
        }
        guard let path = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !path.isEmpty,
            path.hasPrefix("/") || path.hasPrefix("@"),
            path.utf8.count < MemoryLayout.size(ofValue: address.sun_path)
        else {
            fd = -1
            return
        }
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    deinit {
        if fd >= 0 { close(fd) }
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
        guard fd >= 0 else { return }
        let bytes = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                bytes.withUnsafeBytes { buffer in
                    sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), target, addressLength)
                }
            }
        }
    }
}
