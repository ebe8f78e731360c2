import DBus
import Foundation

/// The soak's writer (loop-confined): sends a Post at a fixed pace on a client loop without
/// waiting for the answers (so a slow answer shows as latency, not as a slower pace), and keeps
/// each answer's latency and each failure.
final class SoakPoster {
    /// Latencies of the answered Posts, in seconds.
    private(set) var latencies: [Double] = []
    /// The failures' texts.
    private(set) var failures: [String] = []
    /// Posts sent.
    private(set) var sent = 0
    /// Posts that were due but not sent because `maxInFlight` were still unanswered (the daemon
    /// is behind; sending more would only hit dbus-daemon's limit of pending replies).
    private(set) var deferred = 0
    /// Unanswered Posts at most.
    static let maxInFlight = 16
    private var ticks = 0
    private let connection: Connection
    private let interval: Duration
    private var timer: LoopTimer?
    private var firstDue = Deadline.now()

    /// Connects to the bus at `address` on `loop` (call on its thread); one Post every `interval` s.
    init(address: String, loop: EventLoop, interval: Double) throws {
        connection = try Connection(bus: .address(address), loop: loop)
        self.interval = .nanoseconds(Int64(interval * 1e9))
    }

    /// Posts not answered yet.
    var outstanding: Int { sent - latencies.count - failures.count }

    /// Starts posting now.
    func start() {
        firstDue = .now()
        timer = connection.loop.makeTimer { [unowned self] in post() }
        timer?.schedule(at: firstDue)
    }

    /// Stops posting (answers still arrive).
    func stop() {
        timer?.cancel()
        timer = nil
    }

    /// Closes the connection.
    func close() {
        stop()
        connection.close()
    }

    private func post() {
        ticks += 1
        // The next Post is due `interval` after this one was due (no drift).
        defer { timer?.schedule(at: firstDue.advanced(by: interval * ticks)) }
        guard outstanding < Self.maxInFlight else {
            deferred += 1
            return
        }
        let index = sent
        sent += 1
        let started = ContinuousClock.now
        do {
            let message = try Message.methodCall(
                destination: DaemonUnderTest.service, path: try ObjectPath(DaemonUnderTest.managerPath),
                interface: DaemonUnderTest.controlInterface, member: "Post")
            // Each Post replaces one of 20 messages on main, so the tape keeps changing.
            try message.append([
                .string("main"), .string("soak post \(index), one every \(interval)"),
                .vardict(["id": .string("soak\(index % 20)")]),
            ])
            try connection.call(message, timeout: .seconds(10)) { [unowned self] result in
                switch result {
                case .success: latencies.append((ContinuousClock.now - started).seconds)
                case let .failure(error): failures.append("\(error)")
                }
            }
        } catch {
            failures.append("\(error)")
        }
    }
}
