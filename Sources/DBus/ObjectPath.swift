/// A validated D-Bus object path such as `/io/github/tickerd/Ticker1`.
public struct ObjectPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path text.
    public let rawValue: String

    /// The root path `/`.
    public static let root = ObjectPath(unchecked: "/")

    /// Validates `string`: `/`, or `/`-separated non-empty elements of `[A-Za-z0-9_]`, no trailing `/`.
    public init(_ string: String) throws {
        guard ObjectPath.isValid(string) else {
            throw DBusError.invalidArgs("invalid object path '\(string)'")
        }
        rawValue = string
    }

    init(unchecked string: String) {
        rawValue = string
    }

    /// Whether `string` is a valid object path (one pass over its UTF-8 bytes).
    public static func isValid(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            if bytes.count == 1 { return true }
            var atElementStart = true
            for byte in bytes.dropFirst() {
                switch byte {
                case UInt8(ascii: "/"):
                    guard !atElementStart else { return false }  // an empty element
                    atElementStart = true
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    atElementStart = false
                default:
                    return false
                }
            }
            return !atElementStart  // no trailing `/`
        }
    }

    /// The path elements (`[]` for the root).
    public var elements: [Substring] {
        rawValue.split(separator: "/")
    }

    /// This path with `element` appended; `element` must match `[A-Za-z0-9_]+`.
    public func appending(_ element: String) throws -> ObjectPath {
        try ObjectPath(rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }

    /// Whether `other` lies strictly below this path.
    public func isAncestor(of other: ObjectPath) -> Bool {
        if rawValue == "/" { return other.rawValue != "/" }
        return other.rawValue.hasPrefix(rawValue + "/")
    }

    /// The path text.
    public var description: String { rawValue }

    /// Orders paths by their text.
    public static func < (lhs: ObjectPath, rhs: ObjectPath) -> Bool { lhs.rawValue < rhs.rawValue }
}
