import Glibc

/// Checks of the D-Bus naming rules, applied before any name reaches libdbus (which aborts the
/// process on invalid names). Each check throws `org.freedesktop.DBus.Error.InvalidArgs`.
public enum NameValidation {
    private static func isNameCharacter(_ byte: UInt8, allowHyphen: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        case UInt8(ascii: "-"):
            return allowHyphen
        default:
            return false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Dotted names (interfaces, errors, well-known bus names): two or more non-empty elements.
    private static func isDottedName(_ name: String, allowHyphen: Bool, allowLeadingDigit: Bool) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        for element in elements {
            guard let first = element.first else { return false }
            if !allowLeadingDigit && isDigit(first) { return false }
            guard element.allSatisfy({ isNameCharacter($0, allowHyphen: allowHyphen) }) else { return false }
        }
        return true
    }

    /// Whether `name` is a valid interface name.
    public static func isValidInterfaceName(_ name: String) -> Bool {
        isDottedName(name, allowHyphen: false, allowLeadingDigit: false)
    }

    /// Whether `name` is a valid error name (same rules as interfaces).
    public static func isValidErrorName(_ name: String) -> Bool { isValidInterfaceName(name) }

    /// Whether `name` is a valid member (method, signal or property) name.
    public static func isValidMemberName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 255, !isDigit(first) else { return false }
        return bytes.allSatisfy { isNameCharacter($0, allowHyphen: false) }
    }

    /// Whether `name` is a valid unique (`:1.42`) or well-known (`org.example.App`) bus name.
    public static func isValidBusName(_ name: String) -> Bool {
        if name.hasPrefix(":") {
            return isDottedName(String(name.dropFirst()), allowHyphen: true, allowLeadingDigit: true)
        }
        return isDottedName(name, allowHyphen: true, allowLeadingDigit: false)
    }

    /// Throws unless `name` is a valid interface name.
    public static func checkInterfaceName(_ name: String) throws {
        guard isValidInterfaceName(name) else { throw DBusError.invalidArgs("invalid interface name '\(name)'") }
    }

    /// Throws unless `name` is a valid member name.
    public static func checkMemberName(_ name: String) throws {
        guard isValidMemberName(name) else { throw DBusError.invalidArgs("invalid member name '\(name)'") }
    }

    /// Throws unless `name` is a valid bus name.
    public static func checkBusName(_ name: String) throws {
        guard isValidBusName(name) else { throw DBusError.invalidArgs("invalid bus name '\(name)'") }
    }

    /// Throws unless `name` is a valid error name.
    public static func checkErrorName(_ name: String) throws {
        guard isValidErrorName(name) else { throw DBusError.invalidArgs("invalid error name '\(name)'") }
    }

    /// Throws unless `string` can travel as a D-Bus string (no NUL character).
    public static func checkString(_ string: String) throws {
        var text = string
        // One memchr over the contiguous UTF-8 (a generic `contains` costs ~1k instructions a string).
        let hasNUL = text.withUTF8 { utf8 in utf8.baseAddress.map { memchr($0, 0, utf8.count) != nil } ?? false }
        guard !hasNUL else {
            throw DBusError.invalidArgs("strings cannot contain a NUL character")
        }
    }
}
