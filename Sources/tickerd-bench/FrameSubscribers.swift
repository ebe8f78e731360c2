import DBus
import Foundation

/// Many client connections subscribed to the `main` channel's frames, spread over a few client
/// threads; counts the `Frame` signals they receive.
final class FrameSubscribers {
    private let threads: [ClientThread]
    private let groups: [LoopBound<SubscriberGroup>]

    /// Opens `count` connections to `address` over `threadCount` threads and subscribes each at
    /// `columns` × `fps`.
    init(address: String, count: Int, threadCount: Int, columns: UInt32, fps: Double) throws {
        let threadCount = max(1, min(threadCount, count))
        var threads: [ClientThread] = []
        var groups: [LoopBound<SubscriberGroup>] = []
        for index in 0..<threadCount {
            let thread = try ClientThread()
            let members = count / threadCount + (index < count % threadCount ? 1 : 0)
            let loop = thread.loop
            let group = try thread.sync {
                LoopBound(try SubscriberGroup(address: address, loop: loop, count: members, columns: columns, fps: fps), loop: loop)
            }
            threads.append(thread)
            groups.append(group)
        }
        self.threads = threads
        self.groups = groups
    }

    /// Frames received so far by all connections together.
    func framesReceived() throws -> Int {
        var total = 0
        for (thread, group) in zip(threads, groups) {
            total += try thread.sync { group.value.frames }
        }
        return total
    }

    /// Frames received so far by each connection.
    func framesPerConnection() throws -> [Int] {
        var counts: [Int] = []
        for (thread, group) in zip(threads, groups) {
            counts += try thread.sync { group.value.counts }
        }
        return counts
    }

    /// Connections that are no longer connected to the bus.
    func disconnected() throws -> Int {
        var total = 0
        for (thread, group) in zip(threads, groups) {
            total += try thread.sync { group.value.disconnected }
        }
        return total
    }

    /// Closes every connection and stops the threads.
    func close() {
        for (thread, group) in zip(threads, groups) {
            _ = try? thread.sync { group.value.close() }
            thread.stop()
        }
    }
}

/// The connections of one client thread (loop-confined).
final class SubscriberGroup {
    /// Frames received by the group's connections.
    var frames: Int { counts.reduce(0, +) }
    /// Frames received by each connection.
    private(set) var counts: [Int] = []
    /// Connections that lost the bus.
    var disconnected: Int { connections.filter { !$0.isConnected }.count }
    private var connections: [Connection] = []
    private var subscriptions: [SignalSubscription] = []

    /// Opens `count` connections on `loop` and subscribes each; call on the loop's thread.
    init(address: String, loop: EventLoop, count: Int, columns: UInt32, fps: Double) throws {
        for index in 0..<count {
            let connection = try Connection(bus: .address(address), loop: loop)
            let rule = MatchRule(interface: DaemonUnderTest.channelInterface, member: "Frame")
            counts.append(0)
            subscriptions.append(try connection.addMatch(rule, registerWithBus: false) { [weak self] _ in
                self?.counts[index] += 1
            })
            _ = try connection.callBlocking(
                destination: DaemonUnderTest.service, path: ObjectPath(DaemonUnderTest.mainChannelPath),
                interface: DaemonUnderTest.channelInterface, member: "Subscribe",
                arguments: [.vardict(["columns": .uint32(columns), "fps": .double(fps)])], timeout: .seconds(30))
            connections.append(connection)
        }
    }

    /// Cancels the matches and closes the connections.
    func close() {
        subscriptions.forEach { $0.cancel() }
        connections.forEach { $0.close() }
        subscriptions = []
        connections = []
    }
}
