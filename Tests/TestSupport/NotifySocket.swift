import Foundation

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`: a daemon started with
/// ``environment`` sends its `READY=1`, `STATUS=…` and `STOPPING=1` here, and the test reads them.
public final class NotifySocket: @unchecked Sendable {
    /// The socket's path.
    public let path: String
    private let fd: Int32
    private var received: [String] = []

    /// Binds a new socket inside `directory`.
    public init(directory: TemporaryDirectory) throws {
        path = directory.file("notify")
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw TestSupportError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            close(fd)
            throw TestSupportError("bind \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    /// The environment that points a child at this socket.
    public var environment: [String: String] { ["NOTIFY_SOCKET": path] }

    /// Every message received so far (one datagram each, e.g. "READY=1\nSTATUS=…").
    public var messages: [String] { received }

    /// Reads every datagram already queued, without waiting, and returns how many there are now.
    @discardableResult
    public func drain() -> Int {
        while true {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { return received.count }
            received.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
    }

    /// Waits until a received datagram satisfies `predicate` (or `timeout` passes); returns it.
    /// Only datagrams with an index at or after `start` in ``messages`` count.
    @discardableResult
    public func wait(timeout: Duration, after start: Int = 0, for predicate: (String) -> Bool) -> String? {
        if let earlier = received.dropFirst(start).first(where: predicate) { return earlier }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let milliseconds = max(1, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            received.append(message)
            if predicate(message) { return message }
        }
        return nil
    }
}
