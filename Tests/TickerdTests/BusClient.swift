import DBus
import Foundation
import TestSupport

/// A test's own bus client (the project's DBus layer on a loop thread): it records the signals
/// it matches, with the realtime instant each arrived, and can subscribe to frames.
final class BusClient: @unchecked Sendable {
    /// One received signal.
    struct Received: @unchecked Sendable {
        let member: String
        let arguments: [DBusValue]
        let sender: String?
        /// The object path it was emitted from.
        let path: String?
        let arrivedAt: Int64
    }

    let thread: LoopThread
    private let connection: LoopBound<Connection>
    private let lock = NSCondition()
    private var received: [Received] = []
    private var closed = false
    private var subscriptions: [LoopBound<SignalSubscription>] = []

    init(address: String) throws {
        thread = try LoopThread()
        let loop = thread.loop
        connection = try thread.sync { LoopBound(try Connection(bus: .address(address), loop: loop), loop: loop) }
    }

    deinit { close() }

    /// The client's unique name.
    var uniqueName: String {
        let connection = self.connection
        return (try? thread.sync { connection.value.uniqueName }) ?? ""
    }

    /// Records every signal of `interface`.`member` (nil: any member).
    func record(interface: String, member: String? = nil) throws {
        let connection = self.connection
        let loop = thread.loop
        let subscription = try thread.sync { [self] in
            let rule = MatchRule(interface: interface, member: member)
            let subscription = try connection.value.addMatchConfirmed(rule) { [weak self] message in
                let arguments = (try? message.arguments()) ?? []
                self?.append(Received(member: message.member ?? "", arguments: arguments, sender: message.sender,
                                      path: message.path?.description, arrivedAt: DaemonFixture.now()))
            }
            return LoopBound(subscription, loop: loop)
        }
        subscriptions.append(subscription)
    }

    /// Calls a method and returns its reply values.
    @discardableResult
    func call(path: String, interface: String, member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        let connection = self.connection
        return try thread.sync {
            try connection.value.callBlocking(
                destination: DaemonFixture.service, path: try ObjectPath(path), interface: interface, member: member,
                arguments: arguments, timeout: .seconds(10))
        }
    }

    /// The signals received so far.
    var signals: [Received] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Waits (with a deadline) until the received signals satisfy `condition`; woken by each
    /// arriving signal.
    func waitFor(timeout: Duration = .seconds(10), _ condition: ([Received]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        lock.lock()
        defer { lock.unlock() }
        while !condition(received) {
            if !lock.wait(until: deadline) { return condition(received) }
        }
        return true
    }

    /// Closes the connection (the daemon sees the name vanish).
    func close() {
        lock.lock()
        let first = !closed
        closed = true
        lock.unlock()
        guard first else { return }
        let connection = self.connection
        _ = try? thread.sync { connection.value.close() }
        thread.stop()
    }

    private func append(_ signal: Received) {
        lock.lock()
        received.append(signal)
        lock.broadcast()
        lock.unlock()
    }
}
