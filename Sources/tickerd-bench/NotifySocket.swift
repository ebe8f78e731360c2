import Foundation

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`, so the harness sees the instant
/// the daemon sends `READY=1`.
///
/// Like systemd it reads every datagram as it comes (on a thread of its own): `sd_notify` sends
/// on a blocking socket, so a reader that falls behind would stall the daemon's loop once the
/// socket's queue is full.
final class NotifySocket: @unchecked Sendable {
    /// The socket's path (put it in the daemon's environment as `NOTIFY_SOCKET`).
    let path: String
    private let fd: Int32
    private let condition = NSCondition()
    private var readyInstants: [ContinuousClock.Instant] = []
    private var datagrams = 0
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    /// Binds a socket at `path` and starts reading it.
    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            throw BenchError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw BenchError("bind \(path): \(String(cString: strerror(errno)))")
        }
        Thread { [self] in readLoop() }.start()
    }

    /// How many READY=1 datagrams have arrived so far.
    var readyCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return readyInstants.count
    }

    /// How many datagrams of any kind have arrived so far.
    var datagramCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return datagrams
    }

    /// Waits (at most `timeout` seconds) for READY=1 number `index + 1` (0-based `index`);
    /// returns the monotonic instant it was read, or nil on timeout.
    func waitForReady(index: Int, timeout: Double) -> ContinuousClock.Instant? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while readyInstants.count <= index {
            if !condition.wait(until: deadline) { break }
        }
        return readyInstants.count > index ? readyInstants[index] : nil
    }

    /// Stops reading and closes the socket.
    func close() {
        condition.lock()
        let already = stopping
        stopping = true
        condition.unlock()
        guard !already else { return }
        _ = finished.wait(timeout: .now() + 5)
        Glibc.close(fd)
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            condition.lock()
            let stop = stopping
            condition.unlock()
            if stop { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            let arrived = ContinuousClock.now
            guard count > 0 else { continue }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            condition.lock()
            datagrams += 1
            if message.split(separator: "\n").contains("READY=1") {
                readyInstants.append(arrived)
                condition.broadcast()
            }
            condition.unlock()
        }
        finished.signal()
    }
}
