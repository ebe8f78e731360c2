/// Byte-level writers of `follow`'s lines: each line is built in one pass over the UTF-8 of its
/// parts, with no intermediate strings.
enum LineBytes {
    /// Appends `text` as the inside of a JSON string (no quotes): `"` and `\` escaped, control
    /// characters, DEL, U+2028 and U+2029 as `\uXXXX` (lower-case hex), so the line is valid
    /// JSON and JavaScript; with `pango` true, `&`, `<`, `>`, `"` and `'` first become Pango
    /// entities (`&amp;` `&lt;` `&gt;` `&quot;` `&#39;`).
    static func appendJSONString(_ text: String, pango: Bool, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "&") where pango: out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<") where pango: out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">") where pango: out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\"") where pango: out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'") where pango: out.append(contentsOf: "&#39;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
                case 0..<0x20, 0x7F: appendEscape(UInt32(byte), to: &out)
                case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    appendEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029, to: &out)
                    index += 2
                default: out.append(byte)
                }
                index += 1
            }
        }
    }

    /// Appends `\uXXXX` for `value` (at most 0xFFFF).
    static func appendEscape(_ value: UInt32, to out: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        out.append(contentsOf: "\\u".utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(digits[Int((value >> UInt32(shift)) & 0xF)])
        }
    }

    /// Appends `text` as a JSON string, quotes included (see ``appendJSONString(_:pango:to:)``).
    static func appendQuoted(_ text: String, pango: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        appendJSONString(text, pango: pango, to: &out)
        out.append(UInt8(ascii: "\""))
    }
}

/// The last long string a formatter encoded and its encoding, so a tooltip or full text that did
/// not change since the last line is not escaped again.
final class EncodedStringCache {
    private var source: String?
    private var encoded: [UInt8] = []
    private let pango: Bool

    /// A cache for JSON strings, Pango-escaped first when `pango` is true.
    init(pango: Bool) {
        self.pango = pango
    }

    /// Appends `text` as a quoted JSON string, reusing the last encoding when `text` is the same.
    func appendQuoted(_ text: String, to out: inout [UInt8]) {
        if source != text {
            encoded.removeAll(keepingCapacity: true)
            LineBytes.appendQuoted(text, pango: pango, to: &encoded)
            source = text
        }
        out.append(contentsOf: encoded)
    }
}
