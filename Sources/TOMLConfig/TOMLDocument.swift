import CTOMLPlusPlus
import Glibc

/// A parsed TOML document (toml++, through the C view of ``CTOMLPlusPlus``), freed with its
/// last reader. Keys and strings are copied out of the document as they are read.
public final class TOMLDocument {
    private let document: OpaquePointer

    /// The document's root table.
    public var root: OpaquePointer { ctoml_root(document) }

    /// Parses `source`; a syntax error carries toml++'s message and line.
    public init(source: String) throws(TOMLSyntaxError) {
        var failure = ctoml_failure(description: nil, line: 0)
        var source = source
        let parsed = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { ctoml_parse($0.baseAddress, $0.count, &failure) }
        }
        guard let parsed else {
            defer { free(failure.description) }
            let description = failure.description.map { String(cString: $0) } ?? "the TOML parser failed"
            throw TOMLSyntaxError(description: description, line: Int(failure.line))
        }
        document = parsed
    }

    deinit {
        ctoml_free(document)
    }

    /// The keys of `table`, in the table's order.
    public static func keys(of table: OpaquePointer) -> [String] {
        let count = ctoml_table_size(table)
        guard count > 0 else { return [] }
        return [ctoml_string](unsafeUninitializedCapacity: count) { keys, initialized in
            ctoml_table_keys(table, keys.baseAddress, count)
            initialized = count
        }.map(Self.string(of:))
    }

    /// The node under `key` in `table`, or nil when the key is absent.
    public static func node(_ key: String, in table: OpaquePointer) -> OpaquePointer? {
        var key = key
        return key.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { ctoml_table_get(table, $0.baseAddress, $0.count) }
        }
    }

    /// The string held by `node`, or nil when it holds something else.
    public static func string(_ node: OpaquePointer) -> String? {
        var value = ctoml_string()
        guard ctoml_string_value(node, &value) else { return nil }
        return string(of: value)
    }

    /// The integer held by `node`, or nil when it holds something else.
    public static func integer(_ node: OpaquePointer) -> Int64? {
        var value: Int64 = 0
        return ctoml_integer_value(node, &value) ? value : nil
    }

    /// The floating-point number held by `node`, or nil when it holds something else.
    public static func double(_ node: OpaquePointer) -> Double? {
        var value = 0.0
        return ctoml_float_value(node, &value) ? value : nil
    }

    /// The boolean held by `node`, or nil when it holds something else.
    public static func bool(_ node: OpaquePointer) -> Bool? {
        var value = false
        return ctoml_boolean_value(node, &value) ? value : nil
    }

    /// The table `node` is, or nil when it is something else.
    public static func table(_ node: OpaquePointer) -> OpaquePointer? {
        ctoml_type_of(node) == CTOML_TABLE ? node : nil
    }

    /// The elements of the array `node` is, or nil when it is something else.
    public static func elements(_ node: OpaquePointer) -> [OpaquePointer]? {
        guard ctoml_type_of(node) == CTOML_ARRAY else { return nil }
        return (0..<ctoml_array_size(node)).compactMap { ctoml_array_get(node, $0) }
    }

    /// What kind of value `node` holds, in words ("integer", "floating-point number", …).
    public static func typeName(_ node: OpaquePointer) -> String {
        switch ctoml_type_of(node) {
        case CTOML_TABLE: return "table"
        case CTOML_ARRAY: return "array"
        case CTOML_STRING: return "string"
        case CTOML_INTEGER: return "integer"
        case CTOML_FLOAT: return "floating-point number"
        case CTOML_BOOLEAN: return "bool"
        case CTOML_DATE: return "date"
        case CTOML_TIME: return "time"
        case CTOML_DATE_TIME: return "date-time"
        default: return "nothing"
        }
    }

    /// The UTF-8 bytes of `value` (which toml++ has validated) as a String.
    private static func string(of value: ctoml_string) -> String {
        guard let bytes = value.bytes, value.length > 0 else { return "" }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: value.length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: value.length), as: UTF8.self)
        }
    }
}

/// A TOML syntax error: the parser's message and the line it points at.
public struct TOMLSyntaxError: Error, CustomStringConvertible {
    /// The parser's message.
    public let description: String
    /// The line of the error (1-based).
    public let line: Int
}
