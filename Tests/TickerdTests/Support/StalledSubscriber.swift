import DBus
import Foundation
import TestSupport

/// A bus client that subscribes to frames and then stops reading its socket: its loop thread is
/// held inside a callback, so nothing drains the connection until ``resume()``.
final class StalledSubscriber: @unchecked Sendable {
    private let thread: LoopThread
    private let connection: LoopBound<Connection>
    private let release = DispatchSemaphore(value: 0)
    private var stalled = false

    /// Connects to the bus at `address`.
    init(address: String) throws {
        thread = try LoopThread()
        let loop = thread.loop
        connection = try thread.sync { LoopBound(try Connection(bus: .address(address), loop: loop), loop: loop) }
    }

    deinit {
        resume()
        let connection = self.connection
        _ = try? thread.sync { connection.value.close() }
        thread.stop()
    }

    /// Subscribes to `channel` at `columns` × `fps`.
    func subscribe(channel: String, columns: UInt32, fps: Double) throws {
        let connection = self.connection
        _ = try thread.sync {
            try connection.value.callBlocking(
                destination: DaemonFixture.service, path: try ObjectPath(DaemonFixture.channelPath(channel)),
                interface: DaemonFixture.channelInterface, member: "Subscribe",
                arguments: [.vardict(["columns": .uint32(columns), "fps": .double(fps)])], timeout: .seconds(10))
        }
    }

    /// Stops reading: the loop thread blocks until ``resume()``.
    func stall() {
        stalled = true
        let release = self.release
        thread.loop.execute { release.wait() }
    }

    /// Lets the loop run (and read) again.
    func resume() {
        guard stalled else { return }
        stalled = false
        release.signal()
    }
}
