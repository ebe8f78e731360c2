/// Mends the mistakes that make real feeds' XML not well-formed although every reader knows
/// what they mean: HTML's named references (`&nbsp;`, `&mdash;`) that XML does not declare, a
/// bare `&` (`Tom & Jerry`, `?a=1&b=2` in a link), and control characters XML does not allow.
///
/// Guarantees: a pure function of the bytes. A control character other than tab, line feed and
/// carriage return becomes a space. Outside CDATA sections, comments and processing
/// instructions, a reference to a name of ``HTMLEntities`` becomes the numeric reference to the
/// same character, and an `&` that starts no reference (`&name;`, `&#digits;`, `&#xhex;`) becomes
/// `&amp;`; everything else is kept byte for byte, so a well-formed document comes out unchanged
/// and an unknown name (`&bogus;`) is still reported by the parser. A document that declares
/// entities of its own (`<!ENTITY`) is left as it is.
enum XMLRepair {
    /// `bytes` (UTF-8) with the references mended.
    static func repaired(_ original: [UInt8]) -> [UInt8] {
        var bytes = original
        // Control characters XML 1.0 does not allow anywhere (a title pasted from a terminal):
        // spaces, as the ticker would show them.
        for index in bytes.indices where bytes[index] < 0x20 && bytes[index] != 0x09 && bytes[index] != 0x0A && bytes[index] != 0x0D {
            bytes[index] = 0x20
        }
        guard bytes.contains(UInt8(ascii: "&")), firstIndex(of: "<!ENTITY", in: bytes, from: 0) == nil else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 64)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), let (opening, closing) = skipped.first(where: { contains(bytes, $0.0, from: index) }) {
                // Copied as they are: CDATA sections, comments and processing instructions.
                let end = firstIndex(of: closing, in: bytes, from: index + opening.utf8.count).map { $0 + closing.utf8.count }
                    ?? bytes.count
                result += bytes[index..<end]
                index = end
                continue
            }
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                index += 1
                continue
            }
            let reference = referenceLength(bytes, at: index)
            switch reference {
            case .numeric(let length), .xml(let length), .unknown(let length):
                result += bytes[index..<index + length]
                index += length
            case .html(let length, let scalar):
                result += Array("&#\(scalar.value);".utf8)
                index += length
            case .none:
                result += Array("&amp;".utf8)
                index += 1
            }
        }
        return result
    }

    /// What follows an `&`, and how many bytes the reference takes (with `&` and `;`).
    private enum Reference {
        case numeric(Int), xml(Int), html(Int, Unicode.Scalar), unknown(Int), none
    }

    private static let skipped = [("<![CDATA[", "]]>"), ("<!--", "-->"), ("<?", "?>")]
    private static let xmlNames: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    private static func referenceLength(_ bytes: [UInt8], at start: Int) -> Reference {
        var index = start + 1
        let limit = min(bytes.count, start + 48)
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
        if index < limit, bytes[index] == UInt8(ascii: "#") {
            index += 1
            let hex = index < limit && (bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X"))
            if hex { index += 1 }
            let digitsStart = index
            while index < limit, hex ? isHex(bytes[index]) : isDigit(bytes[index]) { index += 1 }
            guard index > digitsStart, index < limit, bytes[index] == UInt8(ascii: ";") else { return .none }
            return .numeric(index + 1 - start)
        }
        guard index < limit, isLetter(bytes[index]) else { return .none }
        while index < limit, isLetter(bytes[index]) || isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")
            || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".") { index += 1 }
        guard index < limit, bytes[index] == UInt8(ascii: ";") else { return .none }
        let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        let length = index + 1 - start
        if xmlNames.contains(name) { return .xml(length) }
        if let scalar = HTMLEntities.named[name] { return .html(length, scalar) }
        return .unknown(length)
    }

    private static func contains(_ bytes: [UInt8], _ text: String, from index: Int) -> Bool {
        let pattern = Array(text.utf8)
        return index + pattern.count <= bytes.count && bytes[index..<index + pattern.count].elementsEqual(pattern)
    }

    private static func firstIndex(of text: String, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = Array(text.utf8)
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == first, bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
