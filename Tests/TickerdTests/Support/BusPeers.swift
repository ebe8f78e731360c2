import Foundation
import TestSupport
import TickerNames

/// Command lines for the independent bus peers (`gdbus`, `busctl`, `dbus-send`), and what a call's
/// output says about it.
enum BusPeers {
    /// The bus name under test.
    static let name = TickerBus.name
    /// The manager object.
    static let managerPath = TickerBus.managerPath
    /// The channel that always exists.
    static let mainChannelPath = TickerBus.channelPath(TickerBus.mainChannel)

    /// `gdbus call` of `method` (`interface.Member`) on `path` with GVariant-text `arguments`.
    static func call(_ address: String, _ path: String, _ method: String, _ arguments: [String] = []) -> [String] {
        ["gdbus", "call", "--address", address, "--dest", name, "--object-path", path, "--method", method] + arguments
    }

    /// `busctl --address=…` with `arguments`.
    static func busctl(_ address: String, _ arguments: [String]) -> [String] {
        ["busctl", "--address=\(address)"] + arguments
    }

    /// A call to the bus driver with `dbus-send` (`dbus-send` arguments after the method).
    /// (`--bus=` registers on the bus; `--address=` would be a peer-to-peer connection.)
    static func driver(_ address: String, _ member: String, _ arguments: [String]) -> [String] {
        ["dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus",
         "/org/freedesktop/DBus", "org.freedesktop.DBus.\(member)"] + arguments
    }

    /// Waits (at most `timeout`) until `name` has an owner on the bus at `address`.
    static func waitForOwner(_ address: String, timeout: Int = 20) throws {
        let waited = try ChildProcess.run("gdbus", ["wait", "--address", address, "--timeout", "\(timeout)", name],
                                          timeout: .seconds(timeout + 10))
        guard waited.status == 0 else {
            throw TestSupportError("\(name) got no owner within \(timeout) s: \(waited.stderr)")
        }
    }

    /// The uid owning `name` on the bus at `address`, asked by `caller`.
    static func ownerUID(_ address: String, as caller: Caller = .nobody) throws -> uid_t? {
        let reply = try caller.run(driver(address, "GetConnectionUnixUser", ["string:\(name)"]))
        guard reply.status == 0, let word = reply.stdout.split(separator: " ").last else { return nil }
        return uid_t(word.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// What became of a method call, as the calling peer saw it.
enum CallOutcome: Equatable, CustomStringConvertible {
    /// The owner answered (its reply text).
    case replied(String)
    /// The bus refused the call (`org.freedesktop.DBus.Error.AccessDenied`).
    case denied
    /// Another error (its text): the call reached somebody who refused it.
    case failed(String)

    /// The outcome read from a peer's exit status and output.
    init(_ output: ChildProcess.Output) {
        if output.status == 0 {
            self = .replied(output.stdout)
        } else if output.stderr.contains("org.freedesktop.DBus.Error.AccessDenied") {
            self = .denied
        } else {
            self = .failed(output.stderr)
        }
    }

    /// Whether the bus let the call through (whatever the owner then answered).
    var passedPolicy: Bool { self != .denied }

    var description: String {
        switch self {
        case let .replied(text): "replied \(text.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .denied: "AccessDenied"
        case let .failed(text): "failed: \(text.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
    }
}
