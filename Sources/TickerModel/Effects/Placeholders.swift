/// A piece of a message's text: literal text or a `{name}` placeholder.
public enum TemplatePart: Sendable, Hashable {
    /// Literal text (escapes already resolved: `{{` is `{`, `}}` is `}`).
    case text(String)
    /// A `{name}` placeholder.
    case placeholder(String)
}

/// Parsing of `{name}` placeholders in message text (DESIGN §4 "Effects", counters).
///
/// `{name}` with a name of 1 to 64 characters from `[A-Za-z0-9_]` is a placeholder. `{{` is a
/// literal `{` and `}}` a literal `}`. Anything else is literal text as written: a `{` that does
/// not open a valid placeholder (unterminated, empty, or holding other characters) and a lone `}`.
/// A placeholder whose name has no value shows as written, `{name}`.
public enum Placeholders {
    /// The longest counter name.
    public static let maxNameLength = 64

    /// True when `name` can be a placeholder's name: 1 to 64 of A-Z, a-z, 0-9 and _.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxNameLength && name.utf8.allSatisfy(isNameByte)
    }

    /// Whether `text` holds a `{` or a `}`: without one it is a single literal, read as written.
    public static func hasBraces(_ text: String) -> Bool {
        var contiguous = text
        return contiguous.withUTF8 { utf8 in
            utf8.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
        }
    }

    /// The text cut into literal text and placeholders, in order; adjacent literal text is merged.
    public static func parse(_ text: String) -> [TemplatePart] {
        // Most texts have no braces at all: one literal, without copying the bytes.
        guard hasBraces(text) else {
            return text.isEmpty ? [] : [.text(text)]
        }
        let bytes = Array(text.utf8)
        var parts: [TemplatePart] = []
        var literal: [UInt8] = []
        var i = 0
        func flush() {
            if !literal.isEmpty { parts.append(.text(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") {
                // A doubled brace is one literal brace.
                if i + 1 < bytes.count, bytes[i + 1] == byte {
                    literal.append(byte)
                    i += 2
                    continue
                }
                if byte == UInt8(ascii: "{"), let close = closingBrace(in: bytes, after: i) {
                    flush()
                    parts.append(.placeholder(String(decoding: bytes[(i + 1)..<close], as: UTF8.self)))
                    i = close + 1
                    continue
                }
            }
            literal.append(byte)
            i += 1
        }
        flush()
        return parts
    }

    /// The names of the text's placeholders, in order (repeats included).
    public static func names(in text: String) -> [String] {
        parse(text).compactMap {
            if case let .placeholder(name) = $0 { return name }
            return nil
        }
    }

    /// The text with each placeholder replaced by its counter's prefix, number and suffix at `t`
    /// (unpadded), and unset names shown as `{name}`: the channel's `Text` property.
    public static func expand(_ text: String, counters: CounterSet, at t: Instant) -> String {
        // Most texts have no braces: the text itself, not a copy of it.
        guard hasBraces(text) else { return text }
        var result = ""
        for part in parse(text) {
            switch part {
            case let .text(literal):
                result += literal
            case let .placeholder(name):
                result += counters[name].map { $0.text(at: t) } ?? "{\(name)}"
            }
        }
        return result
    }

    /// The index of the `}` that closes a valid placeholder opened at `open`, if there is one.
    static func closingBrace(in bytes: [UInt8], after open: Int) -> Int? {
        var j = open + 1
        while j < bytes.count, j - open - 1 <= maxNameLength, isNameByte(bytes[j]) { j += 1 }
        let length = j - open - 1
        guard j < bytes.count, bytes[j] == UInt8(ascii: "}"), length >= 1, length <= maxNameLength else { return nil }
        return j
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
