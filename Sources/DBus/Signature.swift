/// A validated D-Bus signature: a sequence of complete types, e.g. `sa{sv}` (possibly empty).
public struct Signature: Hashable, Sendable, CustomStringConvertible {
    /// The complete types in order.
    public let types: [DBusType]
    /// The signature text.
    public let rawValue: String

    /// The empty signature (no arguments).
    public static let empty = Signature(uncheckedTypes: [])

    /// Parses and validates `string`; throws `InvalidArgs` on an invalid signature.
    public init(_ string: String) throws {
        types = try SignatureParser.parse(string)
        rawValue = string
    }

    /// The signature of `types` in order; throws when it breaks the specification's limits.
    public init(types: [DBusType]) throws {
        let text = types.map(\.signature).joined()
        try self.init(text)
    }

    init(uncheckedTypes types: [DBusType]) {
        self.types = types
        rawValue = types.map(\.signature).joined()
    }

    /// The signature text.
    public var description: String { rawValue }
}
