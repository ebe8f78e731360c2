import CTOML
import Glibc

/// A parsed TOML document (toml++ through TOMLKit's C layer), read without leaking.
///
/// TOMLKit's Swift classes never free the document they parse (`TOMLTable` has no `deinit`) and
/// copy every key and string value into `malloc`ed memory they never free, so each load of a
/// configuration with 100k messages left ~120 MB behind (docs/benchmarks.md). This owner reads
/// the same parser's nodes directly, frees every copy it is given, and clears the document (all
/// of its nodes) when the last reader is gone.
public final class TOMLDocument {
    /// The document's root table.
    public let root: OpaquePointer

    /// Parses `source`; a syntax error carries toml++'s message and line.
    public init(source: String) throws(TOMLSyntaxError) {
        let failure = UnsafeMutablePointer<CTOMLParseError>.allocate(capacity: 1)
        defer { failure.deallocate() }
        let parsed = source.withCString { tableCreateFromString($0, failure) }
        guard let parsed else {
            // Only a failed parse fills in `failure` (its description is a `strdup` copy).
            let error = failure.pointee
            let description = String(cString: error.description)
            free(UnsafeMutableRawPointer(mutating: error.description))
            throw TOMLSyntaxError(description: description, line: Int(error.source.begin.line))
        }
        root = parsed
    }

    deinit {
        // Frees every node; the empty root object itself has no destructor in the C layer.
        tableClear(root)
    }

    /// The keys of `table`, in the document's order.
    public static func keys(of table: OpaquePointer) -> [String] {
        let count = tableSize(table)
        guard count > 0 else { return [] }
        let names = tableGetKeys(table)
        defer { free(UnsafeMutableRawPointer(mutating: names)) }
        return (0..<count).map { index in
            let name = names[index]
            defer { free(UnsafeMutableRawPointer(mutating: name)) }
            return String(cString: name)
        }
    }

    /// The node under `key` in `table`, or nil when the key is absent.
    public static func node(_ key: String, in table: OpaquePointer) -> OpaquePointer? {
        tableGetNode(table, key)
    }

    /// The string held by `node`, or nil when it holds something else.
    public static func string(_ node: OpaquePointer) -> String? {
        guard nodeType(node) == .string, let copy = nodeAsString(node) else { return nil }
        defer { free(UnsafeMutableRawPointer(mutating: copy)) }
        return String(cString: copy)
    }

    /// The integer held by `node`, or nil when it holds something else.
    public static func integer(_ node: OpaquePointer) -> Int64? {
        guard nodeType(node) == .integer, let copy = nodeAsInt(node) else { return nil }
        defer { free(UnsafeMutableRawPointer(mutating: copy)) }
        return copy.pointee
    }

    /// The floating-point number held by `node`, or nil when it holds something else.
    public static func double(_ node: OpaquePointer) -> Double? {
        guard nodeType(node) == .floatingPoint, let copy = nodeAsDouble(node) else { return nil }
        defer { free(UnsafeMutableRawPointer(mutating: copy)) }
        return copy.pointee
    }

    /// The boolean held by `node`, or nil when it holds something else.
    public static func bool(_ node: OpaquePointer) -> Bool? {
        guard nodeType(node) == .boolean, let copy = nodeAsBool(node) else { return nil }
        defer { free(UnsafeMutableRawPointer(mutating: copy)) }
        return copy.pointee
    }

    /// The table `node` is, or nil when it is something else.
    public static func table(_ node: OpaquePointer) -> OpaquePointer? {
        guard nodeType(node) == .table else { return nil }
        return nodeAsTable(node)
    }

    /// The elements of the array `node` is, or nil when it is something else.
    public static func elements(_ node: OpaquePointer) -> [OpaquePointer]? {
        guard nodeType(node) == .array, let array = nodeAsArray(node) else { return nil }
        return (0..<arraySize(array)).map { arrayGetNode(array, Int64($0)) }
    }

    /// What kind of value `node` holds, as TOMLKit names it ("integer", "floating-point number", …).
    public static func typeName(_ node: OpaquePointer) -> String {
        switch nodeType(node) {
        case .table: return "table"
        case .array: return "array"
        case .string: return "string"
        case .integer: return "integer"
        case .floatingPoint: return "floating-point number"
        case .boolean: return "bool"
        case .date: return "date"
        case .timeType: return "time"
        case .dateTime: return "date-time"
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
