/// What makes a message's `link` acceptable: an absolute URI (RFC 3986 `scheme ":" rest`), at most
/// 2048 bytes, with no spaces or control characters.
///
/// Guarantees: a pure function of the text; a link it accepts can be handed to `xdg-open` as
/// one argument without being taken for an option or a relative path.
public enum LinkURI {
    /// The longest link accepted, in UTF-8 bytes.
    public static let maximumLength = 2048

    /// Why `text` is not an acceptable link, or nil when it is one.
    public static func problem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return "a link cannot be empty" }
        guard bytes.count <= maximumLength else { return "a link is at most \(maximumLength) bytes" }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
            return "'\(text.prefix(64))' is not an absolute URI (it needs a scheme such as https:)"
        }
        let scheme = bytes[..<colon]
        guard isLetter(scheme[scheme.startIndex]),
              scheme.allSatisfy({ isLetter($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }) else {
            return "'\(text.prefix(64))' does not start with a URI scheme (letters, then letters, digits, +, - or .)"
        }
        guard colon + 1 < bytes.count else { return "'\(text.prefix(64))' has nothing after its scheme" }
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            return "a link cannot hold spaces or control characters (write them %-encoded)"
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
