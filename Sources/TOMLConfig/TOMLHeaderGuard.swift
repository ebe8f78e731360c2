import Glibc

/// Refuses the table headers and values that toml++ (3.3, as Debian 12 ships it) cannot
/// refuse itself: it asserts on them.
///
/// toml++'s `parse_table_header()` hands the first character after `[` or `[[` to `parse_key()`,
/// which *asserts* that it starts a key (a bare-key character or a quote). A header such as
/// `[&limits]` or `[[%message]]` therefore aborts the whole process (the assertion is compiled in:
/// neither debug nor release builds define NDEBUG), so one typo in `tickerd.toml` killed the
/// daemon at start or on reload. Found by the `config` fuzz target; see docs/fuzzing.md.
/// Its `parse_value()` asserts the same way on an array value that starts with `}` (`a = [}]`) and
/// on a date followed by a space and a lone digit (`2024-01-01 7`, or any value toml++ takes for a
/// date: `20$3-02-01 7`).
///
/// toml++ also recurses once per level of a dotted key (`[k.k.k…]`, `k.k.k… = 1`) and of nested
/// arrays and inline tables, when it parses and when it frees the document: thousands of levels
/// overflow the stack. The guard refuses a key of more than ``maximumDepth`` parts and values
/// nested deeper than that (tickerd's own keys have at most three parts, its values no nesting).
///
/// The guard scans the text like a TOML lexer does — strings (basic, literal, multi-line),
/// comments and the brackets of array and inline-table values — so it looks only at real table
/// headers (a `[` that starts a line outside any value), and leaves every other check to toml++.
public enum TOMLHeaderGuard {
    /// A header's first key character that toml++ would assert on, with its 1-based line.
    public struct Fault: Equatable {
        /// The line of the header (or of the array value).
        public let line: Int
        /// The character after the brackets (or where an array value should start).
        let character: Character
        /// True for an array value that starts with `}` (`a = [}]`), which trips toml++'s
        /// `parse_value()` assertion the same way; false for a table header.
        var inArray = false
        /// Set when the fault is not about a header's first character (a key or value nested too
        /// deep, a date with a one-digit time); then it is the whole problem.
        var whole: String?

        /// What a person reads in the error.
        public var problem: String {
            if let whole { return whole }
            return inArray
                ? "an array value cannot start with \(String(reflecting: character))"
                : "a table header must start with a key (letters, digits, '_', '-' or a quoted key), not \(String(reflecting: character))"
        }
    }

    /// The most parts a dotted key may have, and the deepest arrays and inline tables may nest.
    public static let maximumDepth = 64

    /// The first header in `source` that does not start with a key, or array value that starts
    /// with `}`, or nil.
    public static func firstFault(in source: String) -> Fault? {
        var searched = 0
        return firstFault(in: source, searched: &searched)
    }

    /// ``firstFault(in:)``, adding to `searched` the bytes its jumps through strings looked at, so
    /// that a test can check the scan stays linear in the file's size.
    static func firstFault(in source: String, searched: inout Int) -> Fault? {
        var text = source
        return text.withUTF8 { firstFault(inBytes: $0, searched: &searched) }
    }

    /// ``firstFault(in:)`` over the source's UTF-8 bytes (read in place: a large file is not copied).
    private static func firstFault(inBytes bytes: UnsafeBufferPointer<UInt8>, searched: inout Int) -> Fault? {
        // toml++ skips a UTF-8 byte order mark: the line after it still starts there.
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var depth = 0
        var open: [UInt8] = []  // the value brackets around the scan: '[' arrays, '{' inline tables
        var atLineStart = true
        func at(_ i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }
        func starts(_ text: String, _ i: Int) -> Bool { bytes[i...].starts(with: text.utf8) }
        /// The index of the first `byte` at or after `start` and before `limit`, or `limit`.
        func next(_ byte: UInt8, from start: Int, before limit: Int) -> Int {
            guard start < limit, let base = bytes.baseAddress else { return limit }
            guard let found = memchr(base + start, Int32(byte), limit - start) else {
                searched += limit - start
                return limit
            }
            let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            searched += position + 1 - start
            return position
        }
        /// Moves past a string that opens at `index`, counting the lines it spans.
        func skipString(quote: UInt8) {
            let multi = starts(quote == 0x22 ? "\"\"\"" : "'''", index)
            index += multi ? 3 : 1
            // Only a quote, a newline and (in a basic string) a backslash matter: the scan jumps
            // to the nearest of them (a long text is crossed at memchr's speed), each found once.
            // Each search stops where the scan will stop anyway: a one-line string at its line's
            // end, a backslash at the next quote. Searching on to the file's end for a byte that
            // a string does not hold made a file of many strings quadratic.
            var nextQuote = -1
            var nextNewline = -1
            var nextBackslash = -1
            while index < bytes.count {
                if nextNewline < index { nextNewline = next(0x0A, from: index, before: bytes.count) }
                if nextQuote < index { nextQuote = next(quote, from: index, before: multi ? bytes.count : nextNewline) }
                if quote == 0x22, nextBackslash < index { nextBackslash = next(0x5C, from: index, before: nextQuote) }
                index = quote == 0x22 ? min(nextQuote, nextNewline, nextBackslash) : min(nextQuote, nextNewline)
                guard let c = at(index) else { return }
                if c == 0x0A {
                    if !multi { return }  // an unterminated string (toml++ reports it); the loop counts the line
                    line += 1
                }
                if quote == 0x22 && c == 0x5C {  // a backslash escapes the next byte
                    index += 2
                    continue
                }
                if c == quote && (!multi || starts(quote == 0x22 ? "\"\"\"" : "'''", index)) {
                    index += multi ? 3 : 1
                    // A multi-line string may end with up to two more quotes of its kind.
                    while multi, at(index) == quote { index += 1 }
                    return
                }
                index += 1
            }
        }
        /// toml++ asserts when an array element starts with `}`: finds one after whitespace,
        /// newlines and comments from `start`, with its line.
        func braceStartingValue(after start: Int) -> Fault? {
            var i = start
            var lines = 0
            while let c = at(i) {
                switch c {
                case 0x20, 0x09, 0x0D: i += 1
                case 0x0A: lines += 1; i += 1
                case 0x23: while let d = at(i), d != 0x0A { i += 1 }
                case 0x7D: return Fault(line: line + lines, character: "}", inArray: true)
                default: return nil
                }
            }
            return nil
        }
        var dots = 0  // dots of the dotted key being read: outside strings, between key parts
        func tooDeep(_ problem: String) -> Fault { Fault(line: line, character: ".", whole: problem) }
        /// toml++ asserts on a date followed by a space and a lone digit (`2024-01-01 7`), which
        /// it takes for the start of a time: true when one starts at `start`. What toml++ takes
        /// for a date is any value of ten characters (underscores not counted) that starts with a
        /// digit and has `-` for its 5th and 8th (`20$3-02-01 7` trips it as well); no valid TOML
        /// has such a value followed by a space and a lone digit outside a string (after a date
        /// only a time `HH:MM:SS`, a comment or the value's end may follow); "lone" is anything
        /// but a second digit after it.
        func isDateWithOneDigitTime(at start: Int) -> Bool {
            func digit(_ i: Int) -> Bool { at(i).map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
            // toml++ ends a value at whitespace, a line break, `]`, `}`, `,` or `#`.
            func ends(_ byte: UInt8?) -> Bool {
                guard let byte else { return true }
                return [0x20, 0x09, 0x0D, 0x0A, 0x2C, 0x5D, 0x7D, 0x23].contains(byte)
            }
            // A value starts the line or follows `=`, `[`, `{`, `,` or blanks.
            guard start == 0 || [0x20, 0x09, 0x0D, 0x0A, 0x3D, 0x5B, 0x7B, 0x2C].contains(bytes[start - 1]) else {
                return false
            }
            var i = start
            var characters = 0
            while !ends(at(i)) {
                let byte = bytes[i]
                if byte != 0x5F {  // toml++ skips underscores
                    if (characters == 4 || characters == 7) && byte != 0x2D { return false }
                    characters += 1
                    if characters > 10 { return false }
                }
                // One character is one scalar: skip a UTF-8 sequence's continuation bytes.
                i += 1
                while let next = at(i), next & 0xC0 == 0x80 { i += 1 }
            }
            // After the space, toml++ asserts when the digit is followed by anything that ends a
            // value, Unicode spaces such as U+FEFF included; no valid TOML has anything but a
            // second digit there (a time `HH:MM:SS`), so any other follower is refused.
            guard characters == 10, at(i) == 0x20, digit(i + 1) else { return false }
            return !digit(i + 2)
        }
        while let c = at(index) {
            switch c {
            case 0x2E:
                dots += 1
                if dots >= maximumDepth { return tooDeep("a dotted key of more than \(maximumDepth) parts") }
                atLineStart = false
                index += 1
                continue
            case 0x20, 0x09, 0x22, 0x27, 0x2D, 0x5F, UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                break  // a key part (or a quoted one) keeps the count
            default:
                dots = 0
            }
            switch c {
            case 0x0A:
                line += 1
                atLineStart = true
                index += 1
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x23:  // a comment runs to the end of the line
                while let d = at(index), d != 0x0A { index += 1 }
            case 0x22, 0x27:
                atLineStart = false
                skipString(quote: c)
            case 0x5B where atLineStart && depth == 0:  // a table header
                atLineStart = false
                var next = index + 1
                if at(next) == 0x5B { next += 1 }
                while at(next) == 0x20 || at(next) == 0x09 { next += 1 }
                if let first = at(next), !startsKeyOrEndsHeader(first) {
                    let scalar = String(decoding: bytes[next..<min(next + 4, bytes.count)], as: UTF8.self).first ?? "?"
                    return Fault(line: line, character: scalar)
                }
                index = next
            case 0x5B, 0x7B:
                atLineStart = false
                depth += 1
                if depth > maximumDepth { return tooDeep("arrays and inline tables nested more than \(maximumDepth) deep") }
                open.append(c)
                index += 1
                if c == 0x5B, let brace = braceStartingValue(after: index) { return brace }
            case 0x5D, 0x7D:
                atLineStart = false
                depth = max(0, depth - 1)
                if !open.isEmpty { open.removeLast() }
                index += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9") where isDateWithOneDigitTime(at: index):
                return Fault(line: line, character: Character(UnicodeScalar(c)),
                             whole: "a date's time must be written HH:MM:SS (a lone digit follows the date)")
            case 0x2C where open.last == 0x5B:  // the next array element
                atLineStart = false
                index += 1
                if let brace = braceStartingValue(after: index) { return brace }
            default:
                atLineStart = false
                index += 1
            }
        }
        return nil
    }

    /// A bare-key character, a quote, or the `]` of an empty header (toml++ refuses that itself).
    private static func startsKeyOrEndsHeader(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}
