/// A D-Bus error: a dotted error name and a message a person can act on.
///
/// Method handlers throw it to answer with that error; calls that fail throw it. Library-side
/// failures use the standard `org.freedesktop.DBus.Error.*` names below (bad input is
/// `InvalidArgs`, never a crash).
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public let name: String
    /// The human-readable message.
    public let message: String

    /// An error named `name` (not validated here; invalid names are replaced by
    /// `org.freedesktop.DBus.Error.Failed` when sent).
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// `"<name>: <message>"`.
    public var description: String { "\(name): \(message)" }

    /// Standard error names of the D-Bus specification.
    public enum Names {
        /// A generic failure.
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        /// Wrong arguments or a value that fails validation.
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// A method call has a signature that does not match the message.
        public static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        /// No such method.
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// No such object path.
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// No such interface on the object.
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        /// No such property on the interface.
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        /// The property cannot be set.
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// Refused by policy or by the object.
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        /// The reply did not arrive in time.
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// A timeout expired.
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        /// The connection is closed.
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// The destination name has no owner and cannot be activated.
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        /// Out of memory.
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        /// The requested operation is not supported.
        public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    }

    /// A generic failure.
    public static func failed(_ message: String) -> DBusError { DBusError(name: Names.failed, message: message) }
    /// Invalid arguments or input.
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: Names.invalidArgs, message: message)
    }
    /// The connection is closed.
    public static func disconnected(_ message: String = "the connection is closed") -> DBusError {
        DBusError(name: Names.disconnected, message: message)
    }
    /// Out of memory.
    static let noMemory = DBusError(name: Names.noMemory, message: "out of memory")
}

/// An error type of a program that maps itself onto a D-Bus error (e.g. the daemon's
/// `io.github.tickerd.Ticker1.Error.<Name>`); thrown from a method handler, it becomes the reply.
public protocol DBusErrorConvertible: Error {
    /// The D-Bus error to answer with.
    var dbusError: DBusError { get }
}

extension DBusError {
    /// The D-Bus error for any error thrown by a handler: itself, its ``DBusErrorConvertible``
    /// mapping, or `org.freedesktop.DBus.Error.Failed` with its description.
    public init(from error: any Error) {
        if let error = error as? DBusError {
            self = error
        } else if let convertible = error as? any DBusErrorConvertible {
            self = convertible.dbusError
        } else {
            self = .failed(String(describing: error))
        }
    }
}
