import CDBus

/// How to ask for a well-known name.
public struct NameRequestOptions: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    public let rawValue: UInt32
    /// Wraps a raw bit set.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Let a later requester with ``replaceExisting`` take the name over.
    public static let allowReplacement = NameRequestOptions(rawValue: 1 << 0)
    /// Take the name from an owner that allows replacement.
    public static let replaceExisting = NameRequestOptions(rawValue: 1 << 1)
    /// Wait in the bus's queue when the name is taken (the request then fails with
    /// ``NameRequestError/queued(name:owner:)`` but stays queued).
    public static let queue = NameRequestOptions(rawValue: 1 << 2)

    var libdbusFlags: UInt32 {
        var flags: UInt32 = 0
        if contains(.allowReplacement) { flags |= CDBUS_NAME_FLAG_ALLOW_REPLACEMENT }
        if contains(.replaceExisting) { flags |= CDBUS_NAME_FLAG_REPLACE_EXISTING }
        if !contains(.queue) { flags |= CDBUS_NAME_FLAG_DO_NOT_QUEUE }
        return flags
    }
}

/// Why a well-known name could not be had.
public enum NameRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another connection owns the name.
    case taken(name: String, owner: String?)
    /// Another connection owns the name; this one waits in the queue.
    case queued(name: String, owner: String?)
    /// The bus policy does not allow this connection to own the name.
    case denied(name: String, reason: String)
    /// Any other failure (invalid name, disconnected, …).
    case failed(DBusError)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .taken(let name, let owner):
            return "the name \(name) is already owned by \(owner ?? "another connection") (is another instance running?)"
        case .queued(let name, let owner):
            return "the name \(name) is owned by \(owner ?? "another connection"); this connection waits in the queue"
        case .denied(let name, let reason):
            return "the bus policy does not allow owning \(name): \(reason)"
        case .failed(let error):
            return "cannot request the name: \(error)"
        }
    }
}

/// How a successful name request ended.
public enum NameOwnership: Hashable, Sendable {
    /// This connection is now the primary owner.
    case primaryOwner
    /// This connection already was the owner.
    case alreadyOwner
}

extension Connection {
    /// Asks the bus for `name` (blocking). Throws ``NameRequestError``: `.taken` when another
    /// connection has it, `.queued` when ``NameRequestOptions/queue`` was asked and we now wait,
    /// `.denied` when the policy refuses (`AccessDenied`), `.failed` otherwise.
    @discardableResult
    public func requestName(_ name: String, options: NameRequestOptions = []) throws -> NameOwnership {
        do {
            try NameValidation.checkBusName(name)
        } catch let error as DBusError {
            throw NameRequestError.failed(error)
        }
        guard !name.hasPrefix(":") else {
            throw NameRequestError.failed(.invalidArgs("cannot request the unique name \(name)"))
        }
        guard isConnected else { throw NameRequestError.failed(.disconnected()) }
        let (result, error) = withLibdbusError { dbus_bus_request_name(raw, name, options.libdbusFlags, $0) }
        if let error {
            if error.name == DBusError.Names.accessDenied {
                throw NameRequestError.denied(name: name, reason: error.message)
            }
            throw NameRequestError.failed(error)
        }
        switch result {
        case CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        case CDBUS_REQUEST_NAME_REPLY_IN_QUEUE: throw NameRequestError.queued(name: name, owner: try? nameOwner(name))
        case CDBUS_REQUEST_NAME_REPLY_EXISTS: throw NameRequestError.taken(name: name, owner: try? nameOwner(name))
        default: throw NameRequestError.failed(.failed("unexpected RequestName reply \(result)"))
        }
    }

    /// Gives `name` back (blocking); returns whether this connection owned it or was queued for it
    /// (`false`: the name does not exist or belongs to someone else).
    @discardableResult
    public func releaseName(_ name: String) throws -> Bool {
        try NameValidation.checkBusName(name)
        guard isConnected else { throw DBusError.disconnected() }
        let (result, error) = withLibdbusError { dbus_bus_release_name(raw, name, $0) }
        if let error { throw error }
        return result == 1  // DBUS_RELEASE_NAME_REPLY_RELEASED
    }

    /// The unique name owning `name` now, or `nil` when nobody owns it (blocking).
    public func nameOwner(_ name: String) throws -> String? {
        try NameValidation.checkBusName(name)
        do {
            let reply = try callBlocking(
                destination: "org.freedesktop.DBus", path: ObjectPath(unchecked: "/org/freedesktop/DBus"),
                interface: "org.freedesktop.DBus", member: "GetNameOwner", arguments: [.string(name)])
            return reply.first?.stringValue
        } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }
}
