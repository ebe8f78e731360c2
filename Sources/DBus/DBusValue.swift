/// A D-Bus value of any type, with enough type information to be marshalled even when empty.
///
/// Containers: an array carries its element type, a dictionary its key and value types (an `a{..}`
/// is its own case rather than an array of dictionary entries), a structure its fields, a variant
/// its content. Build `a{sv}` with ``vardict(_:)``; read it with ``vardictValue``.
public enum DBusValue: Hashable, Sendable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case bool(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s` (a NUL character is refused when the value is appended)
    case string(String)
    /// `o`
    case objectPath(ObjectPath)
    /// `g`
    case signature(Signature)
    /// `h`: a file descriptor. Appending sends a duplicate; a received one belongs to the reader,
    /// who must close it.
    case unixFD(Int32)
    /// `a` + element type: every element must have that type.
    case array(DBusType, [DBusValue])
    /// `a{kv}`: entries in wire order; keys must have the (basic) key type, values the value type.
    case dictionary(key: DBusType, value: DBusType, [DBusDictEntry])
    /// `(...)`, at least one field.
    case structure([DBusValue])
    /// `v` (the only case stored out of line: basic values and containers, whose elements an
    /// array already holds out of line, are stored in place rather than in a heap box each)
    indirect case variant(DBusValue)

    /// The value's type as declared (for containers: from the declared element types).
    public var type: DBusType {
        switch self {
        case .byte: return .byte
        case .bool: return .bool
        case .int16: return .int16
        case .uint16: return .uint16
        case .int32: return .int32
        case .uint32: return .uint32
        case .int64: return .int64
        case .uint64: return .uint64
        case .double: return .double
        case .string: return .string
        case .objectPath: return .objectPath
        case .signature: return .signature
        case .unixFD: return .unixFD
        case .array(let element, _): return .array(element)
        case .dictionary(let key, let value, _): return .dictionary(key: key, value: value)
        case .structure(let fields): return .structure(fields.map(\.type))
        case .variant: return .variant
        }
    }

    /// Throws `InvalidArgs` unless the value can be marshalled: containers hold what they
    /// declare, keys are basic, structures are non-empty, strings hold no NUL, the type's signature
    /// stays within the specification's limits, and variants nest at most 64 deep.
    public func validate() throws {
        try type.checkSignatureLimits()
        try validateContents(variantDepth: 0)
    }

    /// Whether this value is of type `type`: ``type`` `== type`, without building the type.
    func hasType(_ type: DBusType) -> Bool {
        switch (self, type) {
        case (.byte, .byte), (.bool, .bool), (.int16, .int16), (.uint16, .uint16), (.int32, .int32),
             (.uint32, .uint32), (.int64, .int64), (.uint64, .uint64), (.double, .double), (.string, .string),
             (.objectPath, .objectPath), (.signature, .signature), (.unixFD, .unixFD), (.variant, .variant):
            return true
        case let (.array(element, _), .array(expected)):
            return element == expected
        case let (.dictionary(key, value, _), .dictionary(expectedKey, expectedValue)):
            return key == expectedKey && value == expectedValue
        case let (.structure(fields), .structure(types)):
            return fields.count == types.count && zip(fields, types).allSatisfy { $0.hasType($1) }
        default:
            return false
        }
    }

    private func validateContents(variantDepth: Int) throws {
        switch self {
        case .string(let text):
            try NameValidation.checkString(text)
        case .unixFD(let fd):
            guard fd >= 0 else { throw DBusError.invalidArgs("invalid file descriptor \(fd)") }
        case .array(let element, let items):
            for item in items {
                guard item.hasType(element) else {
                    throw DBusError.invalidArgs("array of '\(element)' holds a '\(item.type)'")
                }
                try item.validateContents(variantDepth: variantDepth)
            }
        case .dictionary(let key, let value, let entries):
            guard key.isBasic else { throw DBusError.invalidArgs("dictionary key type '\(key)' is not basic") }
            for entry in entries {
                guard entry.key.hasType(key), entry.value.hasType(value) else {
                    throw DBusError.invalidArgs(
                        "dictionary 'a{\(key)\(value)}' holds an entry of '\(entry.key.type)' → '\(entry.value.type)'")
                }
                try entry.key.validateContents(variantDepth: variantDepth)
                try entry.value.validateContents(variantDepth: variantDepth)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError.invalidArgs("empty structure") }
            for field in fields { try field.validateContents(variantDepth: variantDepth) }
        case .variant(let inner):
            guard variantDepth < 64 else { throw DBusError.invalidArgs("variants nested deeper than 64") }
            // A basic type's signature is one valid character; only containers can break the limits.
            let innerType = inner.type
            if !innerType.isBasic { try innerType.checkSignatureLimits() }
            try inner.validateContents(variantDepth: variantDepth + 1)
        default:
            break
        }
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusDictEntry: Hashable, Sendable {
    /// The key (a basic type).
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// An entry mapping `key` to `value`.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
