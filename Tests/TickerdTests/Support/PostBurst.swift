import DBus
import Foundation

/// Posters, each on its own thread and connection, posting to a channel of their own as fast as
/// the daemon answers until a Post fails (the daemon was killed); every id that got its answer
/// is recorded, so a test can check that each one survived.
final class PostBurst: @unchecked Sendable {
    private let condition = NSCondition()
    private var answered: [String] = []
    private var failures: [String] = []
    private var running: Int
    private let clients: [FuzzClient]

    /// Starts `posters` posters on the bus at `address`; ids and channels start with `prefix`.
    init(address: String, posters: Int, prefix: String) throws {
        clients = try (0..<posters).map { _ in try FuzzClient(address: address) }
        running = posters
        for (index, client) in clients.enumerated() {
            let thread = Thread { [self] in
                var serial = 0
                while true {
                    let id = "\(prefix)p\(index)n\(serial)"
                    do {
                        _ = try client.call(
                            DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "Post",
                            [.string("\(prefix)p\(index)"), .string("burst message \(id)"), .vardict(["id": .string(id)])],
                            timeout: .seconds(10))
                    } catch {
                        finish(failure: "\(error)")
                        return
                    }
                    record(id)
                    serial += 1
                }
            }
            thread.start()
        }
    }

    /// The ids whose Post was answered.
    var answeredIDs: [String] {
        condition.lock()
        defer { condition.unlock() }
        return answered
    }

    /// Why the posters stopped.
    var stopReasons: [String] {
        condition.lock()
        defer { condition.unlock() }
        return failures
    }

    /// Waits until at least `count` posts were answered (true) or `timeout` passes.
    func waitForAnswered(atLeast count: Int, timeout: Duration) -> Bool {
        wait(timeout) { answered.count >= count }
    }

    /// Waits until every poster has stopped (true) or `timeout` passes.
    func waitUntilStopped(timeout: Duration) -> Bool {
        wait(timeout) { running == 0 }
    }

    private func wait(_ timeout: Duration, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout.fuzzSeconds)
        self.condition.lock()
        defer { self.condition.unlock() }
        while !condition() {
            if !self.condition.wait(until: deadline) { return condition() }
        }
        return true
    }

    private func record(_ id: String) {
        condition.lock()
        answered.append(id)
        condition.broadcast()
        condition.unlock()
    }

    private func finish(failure: String) {
        condition.lock()
        failures.append(failure)
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
