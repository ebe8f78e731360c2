import CDBus
import Glibc

/// Writes ``WireMessage``s straight to a connection's socket, skipping libdbus's per-message
/// work, whenever that keeps the stream in order: libdbus has nothing queued (so no message of its
/// own is half written) and the socket takes the whole message at once. Otherwise the message is
/// handed to libdbus (parsed back with `dbus_message_demarshal`, which validates it), which
/// queues it after what it holds.
///
/// Messages written here carry serials of their own, counted from 2³¹ (libdbus counts its own
/// from 1): a serial only has to be unique among calls awaiting a reply, and only libdbus sends
/// calls.
final class WireSender {
    private let connection: OpaquePointer
    private var nextSerial: UInt32 = WireSender.firstSerial

    /// The first serial of messages written here.
    static let firstSerial: UInt32 = 1 << 31
    /// Messages up to this size go to the socket in one piece (a Unix stream socket queues one
    /// buffer of up to ~36 KiB whole or not at all); larger ones go through libdbus.
    static let directLimit = 32 << 10
    /// The largest body worth encoding for this path: with any header it stays within
    /// ``directLimit`` (a header holds at most a few names of up to 255 bytes and a signature).
    static let directBodyLimit = directLimit - 2048

    /// A sender on the libdbus connection `connection` (not retained: the owner outlives it).
    init(connection: OpaquePointer) {
        self.connection = connection
    }

    /// How many messages went to the socket directly, and how many through libdbus.
    private(set) var directCount = 0
    private(set) var queuedCount = 0

    /// Sends `message`: straight to the socket when nothing is queued before it, else through
    /// libdbus. Throws `InvalidArgs` when libdbus refuses the bytes and `NoMemory` when it cannot
    /// queue them.
    func send(_ message: WireMessage) throws {
        let serial = takeSerial()
        if message.bytes.count <= Self.directLimit, dbus_connection_has_messages_to_send(connection) == 0,
           let socket = socketDescriptor() {
            let numbered = message.withSerial(serial)
            #if DEBUG
            // Tests run debug builds: every message written here is first checked by libdbus.
            _ = try numbered.libdbusMessage(serial: serial)
            #endif
            switch write(numbered.bytes, to: socket) {
            case .whole:
                directCount += 1
                return
            case .none:
                break
            }
        }
        // libdbus numbers its copy itself (a copy has no serial).
        let parsed = try message.libdbusMessage(serial: serial)
        guard let copy = dbus_message_copy(parsed.raw) else { throw DBusError.noMemory }
        defer { dbus_message_unref(copy) }
        guard dbus_connection_send(connection, copy, nil) != 0 else { throw DBusError.noMemory }
        queuedCount += 1
    }

    private func takeSerial() -> UInt32 {
        let serial = nextSerial
        nextSerial = serial == .max ? Self.firstSerial : serial + 1
        return serial
    }

    private func socketDescriptor() -> Int32? {
        var descriptor: Int32 = -1
        guard dbus_connection_get_socket(connection, &descriptor) != 0, descriptor >= 0 else { return nil }
        return descriptor
    }

    private enum Written {
        /// All of it is on the socket.
        case whole
        /// None of it (the socket is full or failed): libdbus takes it.
        case none
    }

    /// Writes `bytes` without blocking when the socket takes them at once. A message is never
    /// left half written: should the socket take only part of one (not seen with messages this
    /// small), the rest is written as soon as it takes more, before anything else is sent.
    private func write(_ bytes: [UInt8], to socket: Int32) -> Written {
        bytes.withUnsafeBytes { buffer -> Written in
            guard let base = buffer.baseAddress else { return .whole }
            var sent = 0
            while sent < buffer.count {
                let count = Glibc.send(socket, base + sent, buffer.count - sent, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                if count > 0 {
                    sent += count
                    continue
                }
                let code = errno
                if count < 0 && code == EINTR { continue }
                if sent == 0 { return .none }
                if count < 0 && code == EAGAIN && waitUntilWritable(socket) { continue }
                // The socket failed part-way: libdbus sees the broken connection on its next read.
                return .whole
            }
            return .whole
        }
    }

    private func waitUntilWritable(_ socket: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, -1)
            if ready > 0 { return descriptor.revents & Int16(POLLOUT) != 0 }
            if ready < 0 && errno == EINTR { continue }
            return false
        }
    }
}
