
/// A typed, strict view of one TOML table: every read names its key path, every wrong type or
/// unknown key becomes a `ConfigError` with file, line and key, so typos never pass silently.
public struct ConfigTable {
    /// The file the table came from (for errors).
    public let file: String
    /// The table's dotted path, e.g. `channel.main` or `message[2]` ("" for the document). The
    /// tables of an array (`[[message]]`) are counted from 1 in file order, as a person counts
    /// them: `message[2]` is the second.
    public let path: String

    private let document: TOMLDocument
    let table: OpaquePointer
    private let locator: TOMLKeyLocator

    /// The root table of `document`, read from `file`, whose lines `locator` knows.
    public init(_ document: TOMLDocument, file: String, locator: TOMLKeyLocator) {
        self.init(document, table: document.root, file: file, path: "", locator: locator)
    }

    private init(_ document: TOMLDocument, table: OpaquePointer, file: String, path: String, locator: TOMLKeyLocator) {
        self.document = document
        self.table = table
        self.file = file
        self.path = path
        self.locator = locator
    }

    /// The keys present in this table.
    public var keys: [String] { TOMLDocument.keys(of: table) }

    /// The full dotted path of `key` in this table.
    public func keyPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// An error about `key` of this table (or about the table itself when `key` is nil).
    public func error(_ key: String?, _ problem: String) -> ConfigError {
        let full = key.map(keyPath) ?? path
        return ConfigError(file: file, line: locator.line(of: full), key: full, problem: problem)
    }

    /// Fails when a key is not in `known`: the error names each such key (in file order, the
    /// first suggesting the known ones).
    public func rejectUnknownKeys(_ known: Set<String>) throws(ConfigError) {
        var unknown = ConfigProblems()
        for key in keys.sorted() where !known.contains(key) {
            unknown.note(error(key, "unknown key (known keys: \(known.sorted().joined(separator: ", ")))"))
        }
        try unknown.check()
    }

    /// A string value, or nil when the key is absent.
    public func string(_ key: String) throws(ConfigError) -> String? {
        guard let value = TOMLDocument.node(key, in: table) else { return nil }
        guard let string = TOMLDocument.string(value) else { throw typeError(key, "a string", value) }
        return string
    }

    /// An integer value, or nil when the key is absent.
    public func int(_ key: String) throws(ConfigError) -> Int? {
        guard let value = TOMLDocument.node(key, in: table) else { return nil }
        guard let number = TOMLDocument.integer(value).flatMap({ Int(exactly: $0) }) else {
            throw typeError(key, "an integer", value)
        }
        return number
    }

    /// A floating-point value (an integer is accepted too), or nil when the key is absent.
    public func double(_ key: String) throws(ConfigError) -> Double? {
        guard let value = TOMLDocument.node(key, in: table) else { return nil }
        if let number = TOMLDocument.double(value) { return number }
        if let number = TOMLDocument.integer(value) { return Double(number) }
        throw typeError(key, "a number", value)
    }

    /// A boolean value, or nil when the key is absent.
    public func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let value = TOMLDocument.node(key, in: table) else { return nil }
        guard let flag = TOMLDocument.bool(value) else { throw typeError(key, "true or false", value) }
        return flag
    }

    /// A string value turned into `T` by `parse`; a parse failure names this key and line, and a
    /// value of another type (`ttl = 600`, a TOML date-time) says to write `what` in quotes.
    public func parsed<T>(_ key: String, as what: String, _ parse: (String) throws -> T) throws(ConfigError) -> T? {
        guard let value = TOMLDocument.node(key, in: table) else { return nil }
        guard let text = TOMLDocument.string(value) else { throw typeError(key, "\(what) in quotes", value) }
        do {
            return try parse(text)
        } catch {
            throw self.error(key, "not \(what): \(error)")
        }
    }

    /// A sub-table, or nil when the key is absent.
    public func table(_ key: String) throws(ConfigError) -> ConfigTable? {
        guard let value = TOMLDocument.node(key, in: table) else { return nil }
        guard let child = TOMLDocument.table(value) else { throw typeError(key, "a table", value) }
        return ConfigTable(document, table: child, file: file, path: keyPath(key), locator: locator)
    }

    /// An array of tables (`[[key]]`), empty when the key is absent; the first one's path is
    /// `key[1]`.
    public func tables(_ key: String) throws(ConfigError) -> [ConfigTable] {
        guard let value = TOMLDocument.node(key, in: table) else { return [] }
        guard let array = TOMLDocument.elements(value) else { throw typeError(key, "an array of tables", value) }
        var result: [ConfigTable] = []
        result.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard let child = TOMLDocument.table(element) else {
                throw error("\(key)[\(index + 1)]", "expected a table")
            }
            result.append(ConfigTable(document, table: child, file: file, path: keyPath("\(key)[\(index + 1)]"), locator: locator))
        }
        return result
    }

    private func typeError(_ key: String, _ expected: String, _ value: OpaquePointer) -> ConfigError {
        error(key, "expected \(expected), found \(TOMLDocument.typeName(value))")
    }
}
