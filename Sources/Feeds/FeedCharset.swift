import Foundation

/// Brings an XML feed in another encoding to UTF-8 before it is parsed (the XML parser is only
/// given UTF-8).
///
/// Guarantees: the encoding is taken from, in this order, a byte order mark, the HTTP charset,
/// the XML declaration's `encoding`, else UTF-8 (the precedence of RFC 7303), except where the
/// HTTP charset and the declaration disagree and the document itself settles it, as it does for
/// feedparser: a body that is not valid UTF-8 is not read as the UTF-8 the server claims but in
/// the declared encoding, and a body declared UTF-8 that is valid UTF-8 beyond ASCII is not read
/// as the ISO-8859-1 or Windows-1252 the server claims (a server's default charset, not the
/// feed's); a charset the server names that is not read gives way to the declaration. UTF-8,
/// US-ASCII, UTF-16, ISO-8859-1 and Windows-1252 are read; the result is UTF-8 without a byte
/// order mark whose declaration (if any) says `UTF-8`, with the same characters as the original.
/// White space before the declaration is dropped. A document that is not valid in its encoding,
/// or names another encoding, is an error naming the encoding.
public enum FeedCharset {
    /// The encodings read, by the names (lowercased) that select them.
    enum Encoding {
        case utf8, utf16, latin1, windows1252
    }

    static let labels: [String: Encoding] = [
        "utf-8": .utf8, "utf8": .utf8, "us-ascii": .utf8, "ascii": .utf8,
        "utf-16": .utf16, "utf16": .utf16,
        "iso-8859-1": .latin1, "iso8859-1": .latin1, "iso_8859-1": .latin1, "latin1": .latin1, "latin-1": .latin1,
        "l1": .latin1,
        "windows-1252": .windows1252, "cp1252": .windows1252, "x-cp1252": .windows1252,
    ]

    /// Windows-1252's characters for bytes 0x80–0x9F (the five it leaves undefined keep the C1
    /// control of the same number, as in the WHATWG Encoding Standard).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// `data` as UTF-8 text with a declaration that says so; `charset` is the HTTP charset, if any.
    public static func utf8Document(_ data: Data, charset: String?) throws(FeedParseError) -> Data {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // The mark decides, whatever the declaration after it says.
            bytes = withoutSpaceBeforeDeclaration(Array(bytes.dropFirst(3)))
            guard String(validating: bytes, as: UTF8.self) != nil else { throw FeedParseError("not valid UTF-8 (byte order mark) text") }
            if let declared = declaredEncoding(bytes) { bytes.replaceSubrange(declared.range, with: Array("UTF-8".utf8)) }
            return Data(bytes)
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return try decodeUTF16(bytes)
        }
        bytes = withoutSpaceBeforeDeclaration(bytes)
        let declared = declaredEncoding(bytes)
        let label = chosenLabel(bytes, charset: charset, declared: declared?.value)
        guard let encoding = labels[label.lowercased()] else {
            throw FeedParseError("the encoding '\(label)' is not read (UTF-8, UTF-16, ISO-8859-1 and Windows-1252 are)")
        }
        let text: String
        switch encoding {
        case .utf8:
            guard let valid = String(validating: bytes, as: UTF8.self) else { throw FeedParseError("not valid \(label) text") }
            text = valid
        case .utf16:
            return try decodeUTF16(bytes)
        case .latin1:
            text = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .windows1252:
            text = String(String.UnicodeScalarView(bytes.map { byte in
                (0x80...0x9F).contains(byte) ? Unicode.Scalar(windows1252High[Int(byte) - 0x80])! : Unicode.Scalar(byte)
            }))
        }
        var utf8 = Array(text.utf8)
        // The declaration is ASCII and came first, so it sits at the same bytes in the UTF-8 text.
        if let declared, encoding != .utf8 || declared.value.lowercased() != "utf-8" {
            utf8.replaceSubrange(declared.range, with: Array("UTF-8".utf8))
        }
        return Data(utf8)
    }

    /// The label whose encoding `bytes` are read in: the HTTP `charset` unless the declaration
    /// (`declared`) and the bytes overrule it (see the type's guarantees), else the declaration,
    /// else UTF-8.
    static func chosenLabel(_ bytes: [UInt8], charset: String?, declared: String?) -> String {
        guard let charset else { return declared ?? "UTF-8" }
        guard let declared, let stated = labels[declared.lowercased()] else { return charset }
        guard let served = labels[charset.lowercased()] else { return declared }
        let validUTF8 = String(validating: bytes, as: UTF8.self) != nil
        switch (served, stated) {
        case (.utf8, .latin1), (.utf8, .windows1252):
            return validUTF8 ? charset : declared
        case (.latin1, .utf8), (.windows1252, .utf8):
            return validUTF8 && bytes.contains { $0 >= 0x80 } ? declared : charset
        default:
            return charset
        }
    }

    /// `bytes` without the white space before an XML declaration (blank lines a blog engine's
    /// template puts first, which make the declaration misplaced and the document not XML).
    static func withoutSpaceBeforeDeclaration(_ bytes: [UInt8]) -> [UInt8] {
        let space = bytes.prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }.count
        guard space > 0, bytes[space...].starts(with: Array("<?xml".utf8)) else { return bytes }
        return Array(bytes[space...])
    }

    /// The value of `encoding` in the XML declaration at the start of `bytes` and where it lies.
    static func declaredEncoding(_ bytes: [UInt8]) -> (value: String, range: Range<Int>)? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let end = bytes.prefix(512).indices.first { index in
            index + 1 < bytes.count && bytes[index] == UInt8(ascii: "?") && bytes[index + 1] == UInt8(ascii: ">")
        } ?? min(bytes.count, 512)
        let declaration = Array(bytes[0..<end])
        let key = Array("encoding".utf8)
        guard let keyStart = (0...(max(0, declaration.count - key.count))).first(where: { declaration[$0...].starts(with: key) })
        else { return nil }
        var index = keyStart + key.count
        func skipSpaces() { while index < declaration.count, [0x20, 0x09, 0x0A, 0x0D].contains(declaration[index]) { index += 1 } }
        skipSpaces()
        guard index < declaration.count, declaration[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        skipSpaces()
        guard index < declaration.count, declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'")
        else { return nil }
        let quote = declaration[index]
        let valueStart = index + 1
        guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else { return nil }
        let value = declaration[valueStart..<valueEnd]
        guard value.allSatisfy({ $0 < 0x80 }) else { return nil }
        return (String(decoding: value, as: UTF8.self), valueStart..<valueEnd)
    }


    /// UTF-16 with a byte order mark (big-endian without one), as UTF-8 with its declaration
    /// saying so.
    private static func decodeUTF16(_ bytes: [UInt8]) throws(FeedParseError) -> Data {
        var littleEndian = false
        var start = 0
        if bytes.starts(with: [0xFF, 0xFE]) { (littleEndian, start) = (true, 2) } else if bytes.starts(with: [0xFE, 0xFF]) { start = 2 }
        guard (bytes.count - start) % 2 == 0 else { throw FeedParseError("not valid UTF-16 text (an odd number of bytes)") }
        let units = stride(from: start, to: bytes.count, by: 2).map { index in
            littleEndian ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
        }
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: break loop
            case .error: throw FeedParseError("not valid UTF-16 text")
            }
        }
        var utf8 = withoutSpaceBeforeDeclaration(Array(String(scalars).utf8))
        if let declared = declaredEncoding(utf8) { utf8.replaceSubrange(declared.range, with: Array("UTF-8".utf8)) }
        return Data(utf8)
    }
}
