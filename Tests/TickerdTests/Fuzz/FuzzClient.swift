import DBus
import Foundation
import TestSupport

/// The fuzzer's own bus connection (the project's DBus layer on a loop thread): sends any message
/// it is given and reports what came back and how long it took.
final class FuzzClient: @unchecked Sendable {
    /// What became of one call.
    enum Outcome: Sendable {
        /// A method return with these values.
        case returned([DBusValue])
        /// An error reply.
        case failed(DBusError)
        /// The message could not even be built or sent here (e.g. libdbus refused a value).
        case notSent(String)
        /// Sent with NO_REPLY_EXPECTED.
        case sentWithoutReply
    }

    /// One call's result.
    struct Result: Sendable {
        /// What came back.
        let outcome: Outcome
        /// The serial the call was sent with (0 when not sent).
        let serial: UInt32
        /// Seconds from sending to the reply.
        let seconds: Double
    }

    private let thread: LoopThread
    private let connection: LoopBound<Connection>
    /// The connection's unique name.
    let uniqueName: String

    /// Connects to the bus at `address`.
    init(address: String) throws {
        thread = try LoopThread()
        let loop = thread.loop
        connection = try thread.sync { LoopBound(try Connection(bus: .address(address), loop: loop), loop: loop) }
        let connection = self.connection
        uniqueName = try thread.sync { connection.value.uniqueName }
    }

    deinit {
        let connection = self.connection
        _ = try? thread.sync { connection.value.close() }
        thread.stop()
    }

    /// Sends `call` to `destination` and waits at most `timeout` for its reply.
    func send(_ call: FuzzCall, to destination: String, timeout: Duration) throws -> Result {
        let connection = self.connection
        let call = call
        return try thread.sync(timeout: timeout + .seconds(30)) {
            let message: Message
            do {
                message = try Message.methodCall(
                    destination: destination, path: try ObjectPath(call.path), interface: call.interface, member: call.member)
                try message.append(call.arguments)
                try message.setExpectsReply(call.expectsReply)
            } catch {
                return Result(outcome: .notSent("\(error)"), serial: 0, seconds: 0)
            }
            let started = ContinuousClock.now
            if !call.expectsReply {
                let serial = try connection.value.send(message)
                return Result(outcome: .sentWithoutReply, serial: serial, seconds: 0)
            }
            let outcome: Outcome
            do {
                let reply = try connection.value.callBlocking(message, timeout: timeout)
                outcome = .returned(try reply.arguments())
            } catch let error as DBusError {
                outcome = .failed(error)
            }
            let seconds = (ContinuousClock.now - started).fuzzSeconds
            return Result(outcome: outcome, serial: message.serial, seconds: seconds)
        }
    }

    /// Calls `interface.member` on `path` at `destination` and returns the reply's values.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [DBusValue] = [], timeout: Duration = .seconds(10)) throws -> [DBusValue] {
        let connection = self.connection
        return try thread.sync {
            try connection.value.callBlocking(
                destination: destination, path: try ObjectPath(path), interface: interface, member: member,
                arguments: arguments, timeout: timeout)
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var fuzzSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
