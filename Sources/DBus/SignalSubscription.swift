import CDBus

/// A signal handler added with ``Connection/addMatch(_:registerWithBus:handler:)``; lasts until
/// ``cancel()`` (dropping it does not cancel it).
public final class SignalSubscription {
    /// The rule messages must match.
    public let rule: MatchRule
    let handler: (Message) -> Void
    let id: UInt64
    let registeredWithBus: Bool
    private weak var connection: Connection?
    /// Whether the handler is still called.
    public private(set) var isActive = true

    init(rule: MatchRule, id: UInt64, registeredWithBus: Bool, connection: Connection,
         handler: @escaping (Message) -> Void) {
        self.rule = rule
        self.id = id
        self.registeredWithBus = registeredWithBus
        self.connection = connection
        self.handler = handler
    }

    /// Removes the handler and its bus match rule. Idempotent.
    public func cancel() {
        guard isActive else { return }
        isActive = false
        guard let connection else { return }
        connection.router.subscriptions[id] = nil
        if registeredWithBus && connection.isConnected {
            dbus_bus_remove_match(connection.raw, rule.text, nil)
        }
    }
}

extension Connection {
    /// Calls `handler` on the loop for each incoming signal matching `rule`. With
    /// `registerWithBus` (the default) the rule is also added on the bus without waiting for the
    /// bus's answer; signals unicast to this connection arrive without it.
    public func addMatch(
        _ rule: MatchRule, registerWithBus: Bool = true, handler: @escaping (Message) -> Void
    ) throws -> SignalSubscription {
        try rule.validate()
        guard isConnected else { throw DBusError.disconnected() }
        let subscription = SignalSubscription(
            rule: rule, id: router.nextSubscriptionID, registeredWithBus: registerWithBus,
            connection: self, handler: handler)
        router.nextSubscriptionID += 1
        if registerWithBus {
            dbus_bus_add_match(raw, rule.text, nil)
        }
        router.subscriptions[subscription.id] = subscription
        return subscription
    }

    /// Adds `rule` on the bus and waits for the bus to accept it (throws the bus's error, e.g.
    /// for a rule it finds invalid), then calls `handler` for each matching signal.
    public func addMatchConfirmed(_ rule: MatchRule, handler: @escaping (Message) -> Void) throws -> SignalSubscription {
        try rule.validate()
        guard isConnected else { throw DBusError.disconnected() }
        let (_, error) = withLibdbusError { dbus_bus_add_match(raw, rule.text, $0) }
        if let error { throw error }
        let subscription = SignalSubscription(
            rule: rule, id: router.nextSubscriptionID, registeredWithBus: true,
            connection: self, handler: handler)
        router.nextSubscriptionID += 1
        router.subscriptions[subscription.id] = subscription
        return subscription
    }

    /// Emits signal `interface.member` from `path` with `arguments`: broadcast, or unicast to
    /// `destination` when given. When `path` exports `interface` and it declares the signal,
    /// the arguments must match the declared signature (else `InvalidArgs`).
    public func emitSignal(
        path: ObjectPath, interface: String, member: String, arguments: [DBusValue] = [],
        destination: String? = nil
    ) throws {
        if let declared = router.objects.objects[path]?.interface(named: interface)?.signals
            .first(where: { $0.name == member }) {
            let matches = declared.arguments.count == arguments.count
                && zip(declared.arguments, arguments).allSatisfy { $1.hasType($0.type) }
            guard matches else {
                let expected = declared.arguments.map(\.type.signature).joined()
                let actual = arguments.map(\.type.signature).joined()
                throw DBusError.invalidArgs("signal \(interface).\(member) declares '\(expected)', got '\(actual)'")
            }
        }
        let message = try Message.signal(path: path, interface: interface, member: member)
        try message.setDestination(destination)
        try message.append(arguments)
        try send(message)
    }
}
