import DBus
import Foundation
import TickerNames

/// A bus connection making blocking calls to tickerd from the calling thread.
final class BlockingClient {
    private let loop: EventLoop
    private let connection: Connection
    private let manager: ObjectPath

    /// Connects to the bus at `address`.
    init(address: String) throws {
        loop = try EventLoop()
        connection = try Connection(bus: .address(address), loop: loop)
        manager = try ObjectPath(DaemonUnderTest.managerPath)
    }

    /// Closes the connection.
    func close() {
        connection.close()
    }

    /// The seconds `body` took.
    func timed(_ body: () throws -> Void) throws -> Double {
        let started = ContinuousClock.now
        try body()
        return (ContinuousClock.now - started).seconds
    }

    /// Posts message `id` on `channel`, then removes it.
    func postAndRemove(channel: String, id: String) throws {
        _ = try timedPostAndRemove(channel: channel, id: id)
    }

    /// Posts message `id` on `channel`, then removes it; the seconds each call took.
    func timedPostAndRemove(channel: String, id: String) throws -> (post: Double, remove: Double) {
        let post = try timed {
            _ = try call(DaemonUnderTest.controlInterface, "Post",
                         [.string(channel), .string("posted at full limits \(id)"), .vardict(["id": .string(id)])])
        }
        let remove = try timed { _ = try call(DaemonUnderTest.controlInterface, "Remove", [.string(id)]) }
        return (post, remove)
    }

    /// `Render(80, 0)` on `channel`.
    func render(channel: String) throws {
        _ = try connection.callBlocking(
            destination: DaemonUnderTest.service, path: try ObjectPath(TickerBus.channelPath(channel)),
            interface: DaemonUnderTest.channelInterface, member: "Render", arguments: [.uint32(80), .int64(0)],
            timeout: .seconds(600))
    }

    /// `Peer.Ping`.
    func ping() throws {
        _ = try call("org.freedesktop.DBus.Peer", "Ping", [])
    }

    /// `List(channel)`; how many entries it returned.
    func list(channel: String) throws -> Int {
        let reply = try call(DaemonUnderTest.controlInterface, "List", [.string(channel)])
        return reply.first?.arrayValue?.count ?? 0
    }

    private func call(_ interface: String, _ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try connection.callBlocking(
            destination: DaemonUnderTest.service, path: manager, interface: interface, member: member,
            arguments: arguments, timeout: .seconds(600))
    }
}
