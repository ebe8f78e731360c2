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

    /// Whether `string` is a valid object path.
    public static func isValid(_ string: String) -> Bool {
        let bytes = Array(string.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        let elements = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return elements.allSatisfy { element in
            !element.isEmpty && element.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    return true
                default:
                    return false
                }
            }
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
