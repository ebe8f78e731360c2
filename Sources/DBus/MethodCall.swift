/// A method call being answered: the message, its target and its arguments (already checked
/// against the method's in-signature).
public struct MethodCall {
    /// The call message.
    public let message: Message
    /// The object path called.
    public let path: ObjectPath
    /// The interface the method belongs to.
    public let interface: String
    /// The method name.
    public let member: String
    /// The arguments, matching the declared in-signature.
    public let arguments: [DBusValue]
    /// The connection the call came in on.
    public unowned let connection: Connection

    /// The caller's unique name.
    public var sender: String? { message.sender }

    /// Argument `index` read with `extract` (e.g. `\.stringValue`); `InvalidArgs` when missing or
    /// of another type.
    public func argument<T>(_ index: Int, _ extract: (DBusValue) -> T?) throws -> T {
        guard arguments.indices.contains(index), let value = extract(arguments[index]) else {
            throw DBusError.invalidArgs("argument \(index) of \(interface).\(member) is missing or of the wrong type")
        }
        return value
    }
}

/// The one reply to a method call. A deferred handler keeps it and calls ``succeed(_:)`` or
/// ``fail(_:)`` later, exactly once; further calls are ignored. A reply dropped unanswered
/// answers `org.freedesktop.DBus.Error.Failed`, so no caller waits for nothing. Nothing is sent
/// when the caller asked for no reply.
public final class MethodReply {
    private weak var connection: Connection?
    private let call: Message
    private let outSignature: String
    /// Whether the reply has been given.
    public private(set) var isCompleted = false

    init(connection: Connection, call: Message, outSignature: String) {
        self.connection = connection
        self.call = call
        self.outSignature = outSignature
    }

    deinit {
        if !isCompleted {
            fail(DBusError.failed("the service dropped the call without replying"))
        }
    }

    /// Replies with `values`, which must match the declared out-signature (else the caller gets
    /// `…Error.Failed` naming both signatures).
    public func succeed(_ values: [DBusValue] = []) {
        guard !isCompleted else { return }
        let actual = values.map(\.type.signature).joined()
        guard actual == outSignature else {
            fail(DBusError.failed("the service returned '\(actual)' where it declares '\(outSignature)'"))
            return
        }
        isCompleted = true
        guard call.expectsReply, let connection else { return }
        do {
            let reply = try call.makeReturn()
            try reply.append(values)
            try connection.send(reply)
        } catch {
            isCompleted = false
            fail(error)
        }
    }

    /// Replies with `error` (see ``DBusError/init(from:)``).
    public func fail(_ error: any Error) {
        guard !isCompleted else { return }
        isCompleted = true
        guard call.expectsReply, let connection else { return }
        if let reply = try? call.makeError(DBusError(from: error)) {
            _ = try? connection.send(reply)
        }
    }
}
