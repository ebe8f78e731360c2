import CDBus

/// A single complete D-Bus type, e.g. `s`, `a{sv}` or `(sda{sv})`.
public indirect enum DBusType: Hashable, Sendable, CustomStringConvertible {
    /// `y`
    case byte
    /// `b`
    case bool
    /// `n`
    case int16
    /// `q`
    case uint16
    /// `i`
    case int32
    /// `u`
    case uint32
    /// `x`
    case int64
    /// `t`
    case uint64
    /// `d`
    case double
    /// `s`
    case string
    /// `o`
    case objectPath
    /// `g`
    case signature
    /// `h`
    case unixFD
    /// `a` + element
    case array(DBusType)
    /// `a{` key value `}`; the key is a basic type.
    case dictionary(key: DBusType, value: DBusType)
    /// `(` fields `)`, at least one field.
    case structure([DBusType])
    /// `v`
    case variant

    /// `a{sv}`, the usual options dictionary.
    public static let vardict = DBusType.dictionary(key: .string, value: .variant)

    /// The type's signature text.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .unixFD: return "h"
        case .variant: return "v"
        case .array(let element): return "a" + element.signature
        case .dictionary(let key, let value): return "a{" + key.signature + value.signature + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The signature text.
    public var description: String { signature }

    /// Whether this is a basic (non-container) type, usable as a dictionary key.
    public var isBasic: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: return false
        default: return true
        }
    }

    /// Throws `InvalidArgs` unless this type's signature is one `Signature` accepts: at most 255
    /// bytes, arrays and structures each nested at most 32 deep, no empty structure, basic
    /// dictionary keys — the checks of ``SignatureParser``, without building the signature text
    /// (`SignatureAndNameTests` compares the two).
    func checkSignatureLimits() throws {
        var length = 0
        if let problem = signatureProblem(arrays: 0, structs: 0, length: &length) ?? (
            length > SignatureParser.maxLength ? "signature longer than \(SignatureParser.maxLength) bytes" : nil)
        {
            throw DBusError.invalidArgs("invalid signature '\(signature)': \(problem)")
        }
    }

    private func signatureProblem(arrays: Int, structs: Int, length: inout Int) -> String? {
        let limit = SignatureParser.maxDepth
        switch self {
        case .array(let element):
            guard arrays < limit else { return "arrays nested deeper than \(limit)" }
            length += 1
            return element.signatureProblem(arrays: arrays + 1, structs: structs, length: &length)
        case .dictionary(let key, let value):
            guard arrays < limit else { return "arrays nested deeper than \(limit)" }
            guard key.isBasic else { return "dictionary key must be a basic type" }
            length += 3
            return key.signatureProblem(arrays: arrays + 1, structs: structs + 1, length: &length)
                ?? value.signatureProblem(arrays: arrays + 1, structs: structs + 1, length: &length)
        case .structure(let fields):
            guard structs < limit else { return "structures nested deeper than \(limit)" }
            guard !fields.isEmpty else { return "empty structure" }
            length += 2
            for field in fields {
                if let problem = field.signatureProblem(arrays: arrays, structs: structs + 1, length: &length) {
                    return problem
                }
            }
            return nil
        default:
            length += 1
            return nil
        }
    }

    /// The libdbus type code (`DBUS_TYPE_*`) of the outermost type.
    var typeCode: Int32 {
        switch self {
        case .byte: return CDBUS_TYPE_BYTE
        case .bool: return CDBUS_TYPE_BOOLEAN
        case .int16: return CDBUS_TYPE_INT16
        case .uint16: return CDBUS_TYPE_UINT16
        case .int32: return CDBUS_TYPE_INT32
        case .uint32: return CDBUS_TYPE_UINT32
        case .int64: return CDBUS_TYPE_INT64
        case .uint64: return CDBUS_TYPE_UINT64
        case .double: return CDBUS_TYPE_DOUBLE
        case .string: return CDBUS_TYPE_STRING
        case .objectPath: return CDBUS_TYPE_OBJECT_PATH
        case .signature: return CDBUS_TYPE_SIGNATURE
        case .unixFD: return CDBUS_TYPE_UNIX_FD
        case .variant: return CDBUS_TYPE_VARIANT
        case .array, .dictionary: return CDBUS_TYPE_ARRAY
        case .structure: return CDBUS_TYPE_STRUCT
        }
    }

    /// Parses exactly one complete type; throws `InvalidArgs` otherwise.
    public init(parsing signature: String) throws {
        let types = try SignatureParser.parse(signature)
        guard types.count == 1, let only = types.first else {
            throw DBusError.invalidArgs("'\(signature)' is not a single complete type")
        }
        self = only
    }

    /// The basic types, each once.
    static let basicTypes: [DBusType] = [
        .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath,
        .signature, .unixFD,
    ]

    /// The basic type of each code byte (nil for the rest), read off ``basicCode``.
    private static let basicByCode: [DBusType?] = (0...255).map { code in
        basicTypes.first { $0.basicCode == UInt8(code) }
    }

    /// The basic type whose code is `code`, nil for a container's or an unknown code.
    static func basic(code: UInt8) -> DBusType? {
        basicByCode[Int(code)]
    }

    /// The type code of a basic type, nil for a container.
    var basicCode: UInt8? {
        switch self {
        case .byte: return UInt8(ascii: "y")
        case .bool: return UInt8(ascii: "b")
        case .int16: return UInt8(ascii: "n")
        case .uint16: return UInt8(ascii: "q")
        case .int32: return UInt8(ascii: "i")
        case .uint32: return UInt8(ascii: "u")
        case .int64: return UInt8(ascii: "x")
        case .uint64: return UInt8(ascii: "t")
        case .double: return UInt8(ascii: "d")
        case .string: return UInt8(ascii: "s")
        case .objectPath: return UInt8(ascii: "o")
        case .signature: return UInt8(ascii: "g")
        case .unixFD: return UInt8(ascii: "h")
        case .array, .dictionary, .structure, .variant: return nil
        }
    }
}

/// Parses signature text under the specification's limits (255 bytes, 32 nested arrays,
/// 32 nested structures, non-empty structures, dictionary entries only in arrays with basic keys).
enum SignatureParser {
    static let maxLength = 255
    static let maxDepth = 32

    static func parse(_ signature: String) throws -> [DBusType] {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maxLength else {
            throw DBusError.invalidArgs("signature longer than \(maxLength) bytes")
        }
        var index = 0
        var types: [DBusType] = []
        while index < bytes.count {
            types.append(try parseOne(bytes, &index, arrays: 0, structs: 0, signature: signature))
        }
        return types
    }

    private static func parseOne(
        _ bytes: [UInt8], _ index: inout Int, arrays: Int, structs: Int, signature: String
    ) throws -> DBusType {
        func fail(_ why: String) -> DBusError {
            DBusError.invalidArgs("invalid signature '\(signature)': \(why)")
        }
        guard index < bytes.count else { throw fail("incomplete type") }
        let code = bytes[index]
        index += 1
        if let basic = DBusType.basic(code: code) { return basic }
        switch code {
        case UInt8(ascii: "v"):
            return .variant
        case UInt8(ascii: "a"):
            guard arrays < maxDepth else { throw fail("arrays nested deeper than \(maxDepth)") }
            if index < bytes.count && bytes[index] == UInt8(ascii: "{") {
                index += 1
                let key = try parseOne(bytes, &index, arrays: arrays + 1, structs: structs + 1, signature: signature)
                guard key.isBasic else { throw fail("dictionary key must be a basic type") }
                let value = try parseOne(bytes, &index, arrays: arrays + 1, structs: structs + 1, signature: signature)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                    throw fail("dictionary entry must hold exactly a key and a value")
                }
                index += 1
                return .dictionary(key: key, value: value)
            }
            return .array(try parseOne(bytes, &index, arrays: arrays + 1, structs: structs, signature: signature))
        case UInt8(ascii: "("):
            guard structs < maxDepth else { throw fail("structures nested deeper than \(maxDepth)") }
            var fields: [DBusType] = []
            while true {
                guard index < bytes.count else { throw fail("unterminated structure") }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    break
                }
                fields.append(try parseOne(bytes, &index, arrays: arrays, structs: structs + 1, signature: signature))
            }
            guard !fields.isEmpty else { throw fail("empty structure") }
            return .structure(fields)
        case UInt8(ascii: "{"):
            throw fail("dictionary entry outside an array")
        default:
            throw fail("unknown type code '\(String(decoding: [code], as: UTF8.self))'")
        }
    }
}
