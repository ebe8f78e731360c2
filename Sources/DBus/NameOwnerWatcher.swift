/// One `NameOwnerChanged` report: `name` passed from `oldOwner` to `newOwner` (`nil`: nobody).
public struct NameOwnerChange: Hashable, Sendable {
    /// The name whose owner changed (a unique name for a connection that came or went).
    public let name: String
    /// The previous owner, `nil` when the name had none.
    public let oldOwner: String?
    /// The new owner, `nil` when the name now has none.
    public let newOwner: String?

    /// A report of `name` passing from `oldOwner` to `newOwner`.
    public init(name: String, oldOwner: String?, newOwner: String?) {
        self.name = name
        self.oldOwner = oldOwner
        self.newOwner = newOwner
    }

    /// Whether this reports a connection that closed (its unique name vanished).
    public var isVanishedConnection: Bool { name.hasPrefix(":") && newOwner == nil }
}

/// Watches the bus's `NameOwnerChanged` for one name, or for every name; the daemon uses
/// ``vanishedConnections(on:handler:)`` to forget subscribers whose connection closed.
public final class NameOwnerWatcher {
    private let subscription: SignalSubscription

    /// Reports owner changes of `name` (every name when `nil`) to `handler` on the loop.
    public init(connection: Connection, name: String?, handler: @escaping (NameOwnerChange) -> Void) throws {
        if let name { try NameValidation.checkBusName(name) }
        let rule = MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            path: ObjectPath(unchecked: "/org/freedesktop/DBus"),
            stringArguments: name.map { [0: $0] } ?? [:])
        subscription = try connection.addMatch(rule) { message in
            guard let values = try? message.arguments(), values.count == 3,
                  let changed = values[0].stringValue, let old = values[1].stringValue,
                  let new = values[2].stringValue else { return }
            handler(NameOwnerChange(
                name: changed, oldOwner: old.isEmpty ? nil : old, newOwner: new.isEmpty ? nil : new))
        }
    }

    /// Reports the unique name of every connection that leaves the bus.
    public static func vanishedConnections(
        on connection: Connection, handler: @escaping (String) -> Void
    ) throws -> NameOwnerWatcher {
        try NameOwnerWatcher(connection: connection, name: nil) { change in
            if change.isVanishedConnection { handler(change.name) }
        }
    }

    /// Stops watching. Idempotent.
    public func cancel() {
        subscription.cancel()
    }
}
