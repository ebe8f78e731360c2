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
    ///
    /// One pass over the UTF-8 bytes, with no arrays of elements built (every signal sent checks
    /// its interface name).
    private static func isDottedName(
        _ bytes: UnsafeBufferPointer<UInt8>, allowHyphen: Bool, allowLeadingDigit: Bool
    ) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        var elements = 1
        var atElementStart = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !atElementStart else { return false }  // an empty element
                elements += 1
                atElementStart = true
                continue
            }
            if atElementStart && !allowLeadingDigit && isDigit(byte) { return false }
            guard isNameCharacter(byte, allowHyphen: allowHyphen) else { return false }
            atElementStart = false
        }
        return !atElementStart && elements >= 2
    }

    /// Whether `name` is a valid interface name.
    public static func isValidInterfaceName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isDottedName($0, allowHyphen: false, allowLeadingDigit: false) }
    }

    /// Whether `name` is a valid error name (same rules as interfaces).
    public static func isValidErrorName(_ name: String) -> Bool { isValidInterfaceName(name) }

    /// Whether `name` is a valid member (method, signal or property) name.
    public static func isValidMemberName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, bytes.count <= 255, !isDigit(first) else { return false }
            return bytes.allSatisfy { isNameCharacter($0, allowHyphen: false) }
        }
    }

    /// Whether `name` is a valid unique (`:1.42`) or well-known (`org.example.App`) bus name.
    public static func isValidBusName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            if bytes.first == UInt8(ascii: ":") {
                // The whole name is at most 255 bytes, the colon included.
                guard bytes.count <= 255 else { return false }
                return isDottedName(UnsafeBufferPointer(rebasing: bytes.dropFirst()), allowHyphen: true, allowLeadingDigit: true)
            }
            return isDottedName(bytes, allowHyphen: true, allowLeadingDigit: false)
        }
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
