import CDBus

/// The four kinds of D-Bus message.
public enum MessageKind: Hashable, Sendable {
    /// A method call.
    case methodCall
    /// A successful reply.
    case methodReturn
    /// An error reply.
    case error
    /// A signal.
    case signal
    /// Anything else (never sent by a conforming peer).
    case invalid
}

/// A D-Bus message (owns one libdbus reference). Build one with ``methodCall(destination:path:interface:member:)``
/// or ``signal(path:interface:member:)``, add arguments with ``append(_:)``, read them with
/// ``arguments()`` or ``arguments(expecting:)``. Every name is validated before libdbus sees it.
public final class Message {
    let raw: OpaquePointer

    /// Takes over one reference of `raw`.
    init(adopting raw: OpaquePointer) {
        self.raw = raw
    }

    /// Adds a reference to `raw`.
    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit {
        dbus_message_unref(raw)
    }

    /// A method call of `member` on `path` (at `destination`, through `interface` when given).
    public static func methodCall(
        destination: String?, path: ObjectPath, interface: String?, member: String
    ) throws -> Message {
        if let destination { try NameValidation.checkBusName(destination) }
        if let interface { try NameValidation.checkInterfaceName(interface) }
        try NameValidation.checkMemberName(member)
        guard let raw = dbus_message_new_method_call(destination, path.rawValue, interface, member) else {
            throw DBusError.noMemory
        }
        return Message(adopting: raw)
    }

    /// A signal `interface.member` sent from `path`.
    public static func signal(path: ObjectPath, interface: String, member: String) throws -> Message {
        try NameValidation.checkInterfaceName(interface)
        try NameValidation.checkMemberName(member)
        guard let raw = dbus_message_new_signal(path.rawValue, interface, member) else {
            throw DBusError.noMemory
        }
        return Message(adopting: raw)
    }

    /// A replica that can be changed and sent (libdbus `dbus_message_copy`: the same header and
    /// body, no serial, not locked): one marshalled message sent to many destinations.
    public func copy() throws -> Message {
        guard let copy = dbus_message_copy(raw) else { throw DBusError.noMemory }
        return Message(adopting: copy)
    }

    /// A successful reply to this method call.
    public func makeReturn() throws -> Message {
        guard kind == .methodCall else { throw DBusError.invalidArgs("only method calls have replies") }
        guard serial != 0 else { throw DBusError.invalidArgs("cannot reply to a call that was never sent") }
        guard let reply = dbus_message_new_method_return(raw) else { throw DBusError.noMemory }
        return Message(adopting: reply)
    }

    /// An error reply to this method call. An invalid error name is replaced by
    /// `org.freedesktop.DBus.Error.Failed`, keeping the intended name in the message.
    public func makeError(_ error: DBusError) throws -> Message {
        guard kind == .methodCall else { throw DBusError.invalidArgs("only method calls have replies") }
        guard serial != 0 else { throw DBusError.invalidArgs("cannot reply to a call that was never sent") }
        var name = error.name
        var text = error.message
        if !NameValidation.isValidErrorName(name) {
            text = "\(name): \(text)"
            name = DBusError.Names.failed
        }
        text = String(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }.map(Character.init))
        guard let reply = dbus_message_new_error(raw, name, text) else { throw DBusError.noMemory }
        return Message(adopting: reply)
    }

    // MARK: Header

    /// The message kind.
    public var kind: MessageKind {
        switch dbus_message_get_type(raw) {
        case CDBUS_MESSAGE_TYPE_METHOD_CALL: return .methodCall
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: return .methodReturn
        case CDBUS_MESSAGE_TYPE_ERROR: return .error
        case CDBUS_MESSAGE_TYPE_SIGNAL: return .signal
        default: return .invalid
        }
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// The object path (calls and signals).
    public var path: ObjectPath? {
        Message.string(dbus_message_get_path(raw)).map(ObjectPath.init(unchecked:))
    }
    /// The interface (calls and signals; optional on calls).
    public var interface: String? { Message.string(dbus_message_get_interface(raw)) }
    /// The method or signal name.
    public var member: String? { Message.string(dbus_message_get_member(raw)) }
    /// The error name (error replies).
    public var errorName: String? { Message.string(dbus_message_get_error_name(raw)) }
    /// The sender's unique name (set by the bus).
    public var sender: String? { Message.string(dbus_message_get_sender(raw)) }
    /// The destination, `nil` for broadcast signals.
    public var destination: String? { Message.string(dbus_message_get_destination(raw)) }
    /// The signature of the arguments.
    public var signature: Signature {
        let text = Message.string(dbus_message_get_signature(raw)) ?? ""
        return (try? Signature(text)) ?? .empty
    }
    /// The serial number (0 before sending).
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    /// The serial this message replies to (replies only).
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// Whether the caller wants a reply (method calls).
    public var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    /// Sent and received messages are locked by libdbus (changing one would abort the process).
    private func checkModifiable() throws {
        guard serial == 0 else {
            throw DBusError.invalidArgs("the message was sent or received already and cannot be changed")
        }
    }

    /// Marks a method call as wanting no reply (`false`) or a reply (`true`, the default).
    public func setExpectsReply(_ expects: Bool) throws {
        try checkModifiable()
        dbus_message_set_no_reply(raw, expects ? 0 : 1)
    }

    /// Sets (or clears) the destination; a unicast signal has one.
    public func setDestination(_ destination: String?) throws {
        try checkModifiable()
        if let destination { try NameValidation.checkBusName(destination) }
        guard dbus_message_set_destination(raw, destination) != 0 else { throw DBusError.noMemory }
    }

    /// For an error reply: its name and first string argument.
    public var error: DBusError? {
        guard kind == .error, let name = errorName else { return nil }
        let text = (try? arguments())?.first?.stringValue ?? ""
        return DBusError(name: name, message: text)
    }

    // MARK: Body

    /// Appends `values` in order; throws `InvalidArgs` (and appends nothing) when one is ill-formed.
    public func append(_ values: [DBusValue]) throws {
        try checkModifiable()
        try MessageWriter.append(values, to: raw)
    }

    /// Appends `values` in order.
    public func append(_ values: DBusValue...) throws {
        try append(values)
    }

    /// All arguments.
    public func arguments() throws -> [DBusValue] {
        try MessageReader.readAll(raw)
    }

    /// All arguments, after checking that their signature is `expected`; a mismatch throws
    /// `InvalidArgs` naming both signatures.
    public func arguments(expecting expected: Signature) throws -> [DBusValue] {
        let actual = signature
        guard actual == expected else {
            throw DBusError.invalidArgs("expected arguments '\(expected)', got '\(actual)'")
        }
        return try arguments()
    }
}

extension Message: CustomStringConvertible {
    /// A one-line summary for logs.
    public var description: String {
        var parts = ["\(kind)"]
        if let sender { parts.append("from \(sender)") }
        if let destination { parts.append("to \(destination)") }
        if let path { parts.append("path \(path)") }
        if let interface { parts.append("interface \(interface)") }
        if let member { parts.append("member \(member)") }
        if let errorName { parts.append("error \(errorName)") }
        parts.append("signature '\(signature)'")
        return parts.joined(separator: " ")
    }
}
