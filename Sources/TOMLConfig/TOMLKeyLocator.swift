/// Finds the line on which a key of a TOML document is written, for error messages.
///
/// TOMLKit reports lines for syntax errors only; a value that parses but is wrong (an unknown mode,
/// a bad calendar expression) needs its line found in the source. The locator reads table headers
/// (`[channel.main]`), arrays of tables (`[[message]]`, counted from 0) and `key = value` lines,
/// which covers how tickerd's configuration is written; for anything else it falls back to the
/// line of the enclosing table, and to 0 when even that is unknown.
public struct TOMLKeyLocator {
    private var lines: [String: Int] = [:]

    /// Indexes every table header and key of `source`.
    public init(source: String) {
        var table: [String] = []
        var arrayCounts: [String: Int] = [:]
        // toml++ skips a UTF-8 byte order mark (editors on Windows write one); so must the locator.
        var text = Substring(source)
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        // "\r\n" is one Character in Swift: split on both, or a CRLF file is one long line.
        let sourceLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (offset, rawLine) in sourceLines.enumerated() {
            let number = offset + 1
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[[") {
                guard let close = line.firstRange(of: "]]") else { continue }
                let name = Self.keyPath(line[line.index(line.startIndex, offsetBy: 2)..<close.lowerBound])
                let joined = name.joined(separator: ".")
                let index = arrayCounts[joined, default: -1] + 1
                arrayCounts[joined] = index
                table = name.dropLast() + ["\(name.last ?? "")[\(index)]"]
                record(name, at: number)  // the array itself: a misspelt `[[mesage]]` is reported here
                record(table, at: number)
            } else if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else { continue }
                table = Self.keyPath(line[line.index(after: line.startIndex)..<close])
                record(table, at: number)
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = Self.keyPath(line[..<equals])
                guard !key.isEmpty else { continue }
                record(table + key, at: number)
            }
        }
    }

    /// Notes `number` as the line of `path`, and as the line of each table it implies that has
    /// none yet (`[chanel.main]` defines `chanel` too, and a misspelt `chanel` must be reported
    /// on that line).
    private mutating func record(_ path: [String], at number: Int) {
        guard !path.isEmpty else { return }
        lines[path.joined(separator: ".")] = number
        for length in stride(from: path.count - 1, through: 1, by: -1) {
            let prefix = path.prefix(length).joined(separator: ".")
            if lines[prefix] == nil { lines[prefix] = number }
        }
    }

    /// The line of `path` (e.g. `message[2].calendar`), else of its nearest enclosing table, else 0.
    public func line(of path: String) -> Int {
        var candidate = Substring(path)
        while true {
            if let number = lines[String(candidate)] { return number }
            guard let dot = candidate.lastIndex(of: ".") else { return 0 }
            candidate = candidate[..<dot]
        }
    }

    /// `a. "b.c" .d` → `["a", "b.c", "d"]`: dotted keys with optional quotes and spaces.
    private static func keyPath(_ text: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current)
                current = ""
            } else if character != " " && character != "\t" {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.filter { !$0.isEmpty }
    }
}
