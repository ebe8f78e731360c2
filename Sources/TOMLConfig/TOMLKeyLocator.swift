/// Finds the line on which a key of a TOML document is written, for error messages.
///
/// toml++ reports lines for syntax errors only; a value that parses but is wrong (an unknown mode,
/// a bad calendar expression) needs its line found in the source. The locator reads table headers
/// (`[channel.main]`), arrays of tables (`[[message]]`, counted from 0) and `key = value` lines,
/// skipping the lines inside a multi-line string a value opens (a message's text), which covers how
/// tickerd's configuration is written; for anything else it falls back to the line of the enclosing
/// table, and to 0 when even that is unknown.
///
/// Its work is linear in the source: only the first ``maximumDepth`` parts of a dotted key are
/// indexed (no key tickerd reads is deeper), so a header of thousands of parts costs no more
/// than its characters.
public struct TOMLKeyLocator {
    /// The source, and its index once a line was asked for: a configuration without errors
    /// (the usual case) is never indexed, so a large file costs no extra pass at start.
    private let storage: Storage

    /// The most parts of a dotted key that are indexed and looked up; a deeper key is located by
    /// its first parts (tickerd's own keys have at most three: `channel.main.speed`).
    public static let maximumDepth = 8

    /// A locator for `source`; its keys are indexed when the first line is looked up.
    public init(source: String) {
        storage = Storage(source: source)
    }

    /// The line of `path` (e.g. `message[2].calendar`), else of its nearest enclosing table, else 0.
    public func line(of path: String) -> Int {
        storage.index.line(of: path)
    }

    /// Holds the source until the index is built (then only the index).
    private final class Storage {
        private var source: String?
        private var built: KeyLines?

        init(source: String) {
            self.source = source
        }

        var index: KeyLines {
            if let built { return built }
            let index = KeyLines(source: source ?? "")
            built = index
            source = nil
            return index
        }
    }
}

/// The line of every table header and key of a TOML source (``TOMLKeyLocator``'s index).
private struct KeyLines {
    private var lines: [String: Int] = [:]
    private static let maximumDepth = TOMLKeyLocator.maximumDepth

    /// Indexes every table header and key of `source`.
    init(source: String) {
        var table: [String] = []
        var arrayCounts: [String: Int] = [:]
        // toml++ skips a UTF-8 byte order mark (editors on Windows write one); so must the locator.
        var text = Substring(source)
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        // "\r\n" is one Character in Swift: split on both, or a CRLF file is one long line.
        let sourceLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        // The delimiter of the multi-line string a value opened and has not closed yet: its lines
        // are text (a message's), not headers or keys.
        var openString: String?
        for (offset, rawLine) in sourceLines.enumerated() {
            let number = offset + 1
            if let delimiter = openString {
                if rawLine.firstRange(of: delimiter) != nil { openString = nil }
                continue
            }
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[[") {
                let inside = line.dropFirst(2)
                guard let close = Self.firstUnquoted("]", in: inside), inside[close...].hasPrefix("]]") else { continue }
                let name = Array(Self.keyPath(inside[..<close]).prefix(Self.maximumDepth))
                let joined = name.joined(separator: ".")
                // Counted from 1, as ConfigTable names them.
                let index = arrayCounts[joined, default: 0] + 1
                arrayCounts[joined] = index
                table = name.dropLast() + ["\(name.last ?? "")[\(index)]"]
                record(name, at: number)  // the array itself: a misspelt `[[mesage]]` is reported here
                record(table, at: number)
            } else if line.hasPrefix("[") {
                let inside = line.dropFirst()
                guard let close = Self.firstUnquoted("]", in: inside) else { continue }
                table = Array(Self.keyPath(inside[..<close]).prefix(Self.maximumDepth))
                record(table, at: number)
            } else if !line.hasPrefix("#"), let equals = Self.firstUnquoted("=", in: line) {
                let key = Self.keyPath(line[..<equals])
                guard !key.isEmpty else { continue }
                record(table + key, at: number)
                openString = Self.unclosedMultilineString(line[line.index(after: equals)...])
            }
        }
    }

    /// Notes `number` as the line of `path`, and as the line of each table it implies that has
    /// none yet (`[chanel.main]` defines `chanel` too, and a misspelt `chanel` must be reported
    /// on that line).
    private mutating func record(_ path: [String], at number: Int) {
        guard !path.isEmpty else { return }
        if path.count > Self.maximumDepth {
            // Deeper parts are not indexed: the line counts as that of the first ones, once.
            let indexed = Array(path.prefix(Self.maximumDepth))
            if lines[Self.key(indexed[...])] == nil { record(indexed, at: number) }
            return
        }
        // Keyed as `line(of:)` looks up: joined, and cut like the path asked for (a quoted part
        // may hold dots of its own, so a short path can join into a long key).
        lines[Self.key(path[...])] = number
        for length in stride(from: path.count - 1, through: 1, by: -1) {
            let prefix = Self.key(path.prefix(length))
            if lines[prefix] == nil { lines[prefix] = number }
        }
    }

    /// The line of `path` (e.g. `message[2].calendar`), else of its nearest enclosing table, else 0.
    func line(of path: String) -> Int {
        var candidate = Self.indexedPart(of: path)
        while true {
            if let number = lines[String(candidate)] { return number }
            guard let dot = candidate.lastIndex(of: ".") else { return 0 }
            candidate = candidate[..<dot]
        }
    }

    /// `parts` joined by dots, cut as ``indexedPart(of:)`` cuts a path that is looked up.
    private static func key(_ parts: ArraySlice<String>) -> String {
        String(indexedPart(of: parts.joined(separator: ".")))
    }

    /// `path` cut before its dot number ``maximumDepth`` (the whole of it when it has fewer).
    private static func indexedPart(of path: String) -> Substring {
        var dots = 0
        for index in path.indices where path[index] == "." {
            dots += 1
            if dots == maximumDepth { return path[..<index] }
        }
        return Substring(path)
    }

    /// The delimiter (`\"\"\"` or `\'\'\'`) of a multi-line string that `value` opens and does
    /// not close on its line, else nil.
    private static func unclosedMultilineString(_ value: Substring) -> String? {
        let value = value.drop { $0 == " " || $0 == "\t" }
        for delimiter in ["\"\"\"", "\'\'\'"] where value.hasPrefix(delimiter) {
            return value.dropFirst(3).firstRange(of: delimiter) == nil ? delimiter : nil
        }
        return nil
    }

    /// The first `target` in `text` that is not inside a quoted key, else nil: a quoted key may
    /// hold `=`, `]` or `#` (a basic string's `\"` does not close it). Read by scalar, as TOML
    /// is: a quote followed by a combining mark is one Swift `Character`, and it still opens or
    /// closes a key.
    private static func firstUnquoted(_ target: Unicode.Scalar, in text: Substring) -> Substring.Index? {
        var quote: Unicode.Scalar?
        var escaped = false
        let scalars = text.unicodeScalars
        for index in scalars.indices {
            let scalar = scalars[index]
            if let open = quote {
                if escaped {
                    escaped = false
                } else if open == "\"" && scalar == "\\" {
                    escaped = true
                } else if scalar == open {
                    quote = nil
                }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == target {
                return index
            }
        }
        return nil
    }

    /// `a. "b.c" .d` → `["a", "b.c", "d"]`: dotted keys with optional quotes and spaces, a basic
    /// string's escapes decoded as TOML decodes them (`\\`, `\"`, `\r`, `\u00E9`, …), so the
    /// key matches the one the document holds.
    private static func keyPath(_ text: Substring) -> [String] {
        var parts: [String] = []
        var current = String.UnicodeScalarView()
        var quote: Unicode.Scalar?
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if let open = quote {
                if scalar == open {
                    quote = nil
                } else if open == "\"", scalar == "\\", index < scalars.count {
                    let (decoded, length) = escaped(scalars, at: index)
                    current.append(decoded)
                    index += length
                } else {
                    current.append(scalar)
                }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "." {
                parts.append(String(current))
                current = String.UnicodeScalarView()
            } else if scalar != " " && scalar != "\t" {
                current.append(scalar)
            }
        }
        parts.append(String(current))
        return parts.filter { !$0.isEmpty }
    }

    /// The scalar a basic string's escape stands for, `scalars[index]` being the character after
    /// the backslash, and how many scalars the escape takes after the backslash (an escape TOML
    /// does not know stands for its character, as written).
    private static func escaped(_ scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int) {
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "b": "\u{08}", "t": "\t", "n": "\n", "f": "\u{0C}", "r": "\r", "e": "\u{1B}", "\"": "\"", "\\": "\\",
        ]
        let letter = scalars[index]
        if let decoded = simple[letter] { return (decoded, 1) }
        let digits = letter == "u" ? 4 : letter == "U" ? 8 : 0
        if digits > 0, index + digits < scalars.count,
           let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)...(index + digits)])), radix: 16),
           let decoded = Unicode.Scalar(value) {
            return (decoded, 1 + digits)
        }
        return (letter, 1)
    }
}
