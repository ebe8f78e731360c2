import DBus
import Foundation

/// Post → MessageStarted, Post → PropertiesChanged(Messages) and Post → its answer as one client
/// on the bus sees them: the client times each `Post` from the call to the arrival of each signal
/// naming the new message's id and of the answer, then removes the message (untimed) so every
/// post meets the same tape.
///
/// Beside each post it times the two things no daemon can avoid, in the same conditions: a
/// `Peer.Ping` round trip to tickerd (the bus hops a Post's signals and answer take) and the
/// durable write of a Post's record in the state folder's file system, made the way the daemon's
/// journal makes it (an append of a record's size plus `fdatasync`). A change is stored, then
/// announced, then answered, so the Ping plus the write is the floor of the signals and of the
/// answer alike.
struct PostLatency {
    /// Latencies of the timed posts, in seconds.
    struct Samples {
        /// Post → MessageStarted(main, id).
        var messageStarted: [Double] = []
        /// Post → PropertiesChanged of the channel that names `Messages` and whose `Text` holds
        /// the message.
        var messagesChanged: [Double] = []
        /// Post → its answer (the message is stored durably).
        var answered: [Double] = []
        /// Peer.Ping round trips to tickerd, with a blocking call.
        var ping: [Double] = []
        /// Peer.Ping round trips to tickerd whose answer is received by the client's event loop,
        /// as the Post's answer and signals are.
        var pingThroughLoop: [Double] = []
        /// Append of `probeRecordSize` bytes + fdatasync beside the state folder.
        var durableWrite: [Double] = []
    }

    /// Each timed post's MessageStarted latency minus the Ping timed right after it, in seconds
    /// (the samples line up: one of each per timed post).
    static func aboveFloor(_ samples: Samples) -> [Double] {
        zip(samples.messageStarted, samples.ping).map { started, ping in started - ping }
    }

    /// The bytes appended per append-and-fdatasync probe: about a Post's journal record.
    static let probeRecordSize = 2500

    /// The bus address.
    let address: String
    /// Timed posts (a few untimed ones go first).
    let posts: Int
    /// Where the durable-write probe appends (a file beside the daemon's state, same file system).
    let probePath: String

    /// Runs the posts on an event loop of the calling thread.
    func run() throws -> Samples {
        let loop = try EventLoop()
        let connection = try Connection(bus: .address(address), loop: loop)
        defer { connection.close() }
        let state = PostState()
        let started = MatchRule(interface: DaemonUnderTest.managerInterface, member: "MessageStarted")
        // Each signal is timed when it reaches the client's handler, before the client reads its
        // arguments: reading a PropertiesChanged with its Timeline is the client's own work
        // (~20 µs here with this project's DBus layer), not the daemon's.
        let startedMatch = try connection.addMatchConfirmed(started) { message in
            let arrived = ContinuousClock.now
            let arguments = (try? message.arguments()) ?? []
            if arguments.count == 2, arguments[1].stringValue == state.id, state.startedAt == nil {
                state.startedAt = arrived
            }
        }
        let changed = MatchRule(
            interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            path: try ObjectPath(DaemonUnderTest.mainChannelPath))
        let changedMatch = try connection.addMatchConfirmed(changed) { message in
            let arrived = ContinuousClock.now
            guard state.changedAt == nil, let arguments = try? message.arguments(), arguments.count == 3,
                  let changes = arguments[1].vardictValue,
                  // Named without its value, or (a daemon before 5c136c0) with it.
                  arguments[2].stringArrayValue?.contains("Messages") == true || changes["Messages"] != nil,
                  let text = changes["Text"]?.unwrappingVariant.stringValue,
                  text.contains(Self.text(of: state.id))
            else { return }
            state.changedAt = arrived
        }
        defer {
            startedMatch.cancel()
            changedMatch.cancel()
        }
        let probe = open(probePath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard probe >= 0 else { throw BenchError("cannot create \(probePath): errno \(errno)") }
        defer {
            close(probe)
            unlink(probePath)
        }
        let record = [UInt8](repeating: UInt8(ascii: "x"), count: Self.probeRecordSize)
        var samples = Samples()
        let warmUp = min(5, posts)
        for index in 0..<(warmUp + posts) {
            let (toStarted, toChanged, toAnswer) = try postOnce(
                id: "bench-\(index)", connection: connection, loop: loop, state: state)
            if index >= warmUp {
                samples.messageStarted.append(toStarted)
                samples.messagesChanged.append(toChanged)
                samples.answered.append(toAnswer)
            }
            _ = try connection.callBlocking(
                destination: DaemonUnderTest.service, path: try ObjectPath(DaemonUnderTest.managerPath),
                interface: DaemonUnderTest.controlInterface, member: "Remove", arguments: [.string(state.id)],
                timeout: .seconds(10))
            let pinged = ContinuousClock.now
            _ = try connection.callBlocking(
                destination: DaemonUnderTest.service, path: try ObjectPath(DaemonUnderTest.managerPath),
                interface: "org.freedesktop.DBus.Peer", member: "Ping", arguments: [], timeout: .seconds(10))
            let written = ContinuousClock.now
            let wrote = record.withUnsafeBytes { write(probe, $0.baseAddress, $0.count) }
            guard wrote == record.count, fdatasync(probe) == 0 else { throw BenchError("probe write failed: errno \(errno)") }
            let synced = ContinuousClock.now
            let throughLoop = try pingThroughLoop(connection: connection, loop: loop, state: state)
            if index >= warmUp {
                samples.ping.append((written - pinged).seconds)
                samples.durableWrite.append((synced - written).seconds)
                samples.pingThroughLoop.append(throughLoop)
            }
        }
        return samples
    }

    /// One Peer.Ping whose answer the client's event loop receives; its round trip in seconds.
    private func pingThroughLoop(connection: Connection, loop: EventLoop, state: PostState) throws -> Double {
        state.reply = nil
        let message = try Message.methodCall(
            destination: DaemonUnderTest.service, path: try ObjectPath(DaemonUnderTest.managerPath),
            interface: "org.freedesktop.DBus.Peer", member: "Ping")
        let sent = ContinuousClock.now
        try connection.call(message, timeout: .seconds(10)) { result in state.reply = result }
        guard loop.run(timeout: .seconds(10), until: { state.reply != nil }) else {
            throw BenchError("Ping through the event loop: no answer within 10 s")
        }
        return (ContinuousClock.now - sent).seconds
    }

    /// The text of the message posted as `id`.
    private static func text(of id: String) -> String { "benchmark message \(id)" }

    private func postOnce(id: String, connection: Connection, loop: EventLoop, state: PostState) throws -> (Double, Double, Double) {
        state.id = id
        state.startedAt = nil
        state.changedAt = nil
        state.reply = nil
        state.repliedAt = nil
        let message = try Message.methodCall(
            destination: DaemonUnderTest.service, path: try ObjectPath(DaemonUnderTest.managerPath),
            interface: DaemonUnderTest.controlInterface, member: "Post")
        try message.append([.string("main"), .string(Self.text(of: id)), .vardict(["id": .string(id)])])
        let posted = ContinuousClock.now
        try connection.call(message, timeout: .seconds(10)) { result in
            state.repliedAt = ContinuousClock.now
            state.reply = result
        }
        let complete = loop.run(timeout: .seconds(10)) {
            state.reply != nil && state.startedAt != nil && state.changedAt != nil
        }
        if case .failure(let error)? = state.reply { throw BenchError("Post \(id) failed: \(error)") }
        guard complete, let startedAt = state.startedAt, let changedAt = state.changedAt, let repliedAt = state.repliedAt else {
            throw BenchError("Post \(id): no MessageStarted/PropertiesChanged within 10 s")
        }
        return ((startedAt - posted).seconds, (changedAt - posted).seconds, (repliedAt - posted).seconds)
    }
}

/// What the latency client has seen of the current post (loop-confined).
private final class PostState {
    var id = ""
    var startedAt: ContinuousClock.Instant?
    var changedAt: ContinuousClock.Instant?
    var repliedAt: ContinuousClock.Instant?
    var reply: Result<Message, DBusError>?
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
