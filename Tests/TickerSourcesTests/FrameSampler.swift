import DBus
import Foundation
import TestSupport

/// Asks a screen's tickerd for frames (`Channel.Render(columns, at)`) over the project's own D-Bus
/// client on a loop thread, many instants per round trip to the test's thread.
final class FrameSampler: @unchecked Sendable {
    /// One frame: the text, the offset of its first cell and its extras (effects' progress).
    struct Frame: Hashable, Sendable {
        var text: String
        var offset: Double
        var extras: [String: DBusValue]
    }

    private let thread: LoopThread
    private let connection: LoopBound<Connection>

    init(address: String) throws {
        thread = try LoopThread()
        let loop = thread.loop
        connection = try thread.sync { LoopBound(try Connection(bus: .address(address), loop: loop), loop: loop) }
    }

    deinit {
        let connection = self.connection
        _ = try? thread.sync { connection.value.close() }
        thread.stop()
    }

    /// The frames of `channel` at `columns` for each instant (microseconds since the epoch).
    func frames(channel: String, columns: UInt32, at instants: [Int64]) throws -> [Frame] {
        let connection = self.connection
        return try thread.sync(timeout: .seconds(60)) {
            try instants.map { at in
                let reply = try connection.value.callBlocking(
                    destination: "io.github.tickerd.Ticker1", path: try ObjectPath("/io/github/tickerd/Ticker1/channel/\(channel)"),
                    interface: "io.github.tickerd.Ticker1.Channel", member: "Render",
                    arguments: [.uint32(columns), .int64(at)], timeout: .seconds(10))
                return Frame(
                    text: reply.first?.stringValue ?? "", offset: reply.count > 1 ? reply[1].doubleValue ?? .nan : .nan,
                    extras: reply.count > 2 ? reply[2].vardictValue ?? [:] : [:])
            }
        }
    }
}
