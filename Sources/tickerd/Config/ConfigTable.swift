import TOMLKit

/// A typed, strict view of one TOML table: every read names its key path, every wrong type or
/// unknown key becomes a `ConfigError` with file, line and key, so typos never pass silently.
struct ConfigTable {
    /// The file the table came from (for errors).
    let file: String
    /// The table's dotted path, e.g. `channel.main` or `message[2]` ("" for the document).
    let path: String

    private let table: TOMLTable
    private let locator: TOMLKeyLocator

    /// Wraps `table`, found at `path` of `file`, whose lines `locator` knows.
    init(_ table: TOMLTable, file: String, path: String, locator: TOMLKeyLocator) {
        self.table = table
        self.file = file
        self.path = path
        self.locator = locator
    }

    /// The keys present in this table.
    var keys: [String] { table.keys }

    /// The full dotted path of `key` in this table.
    func keyPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// An error about `key` of this table (or about the table itself when `key` is nil).
    func error(_ key: String?, _ problem: String) -> ConfigError {
        let full = key.map(keyPath) ?? path
        return ConfigError(file: file, line: locator.line(of: full), key: full, problem: problem)
    }

    /// Fails on the first key that is not in `known`, suggesting the known ones.
    func rejectUnknownKeys(_ known: Set<String>) throws(ConfigError) {
        for key in table.keys.sorted() where !known.contains(key) {
            throw error(key, "unknown key (known keys: \(known.sorted().joined(separator: ", ")))")
        }
    }

    /// A string value, or nil when the key is absent.
    func string(_ key: String) throws(ConfigError) -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.tomlValue.string else { throw typeError(key, "a string", value) }
        return string
    }

    /// An integer value, or nil when the key is absent.
    func int(_ key: String) throws(ConfigError) -> Int? {
        guard let value = table[key] else { return nil }
        guard let number = value.tomlValue.int else { throw typeError(key, "an integer", value) }
        return number
    }

    /// A floating-point value (an integer is accepted too), or nil when the key is absent.
    func double(_ key: String) throws(ConfigError) -> Double? {
        guard let value = table[key] else { return nil }
        if let number = value.tomlValue.double { return number }
        if let number = value.tomlValue.int { return Double(number) }
        throw typeError(key, "a number", value)
    }

    /// A boolean value, or nil when the key is absent.
    func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let flag = value.tomlValue.bool else { throw typeError(key, "true or false", value) }
        return flag
    }

    /// A string value turned into `T` by `parse`; a parse failure names this key and line.
    func parsed<T>(_ key: String, as what: String, _ parse: (String) throws -> T) throws(ConfigError) -> T? {
        guard let text = try string(key) else { return nil }
        do {
            return try parse(text)
        } catch {
            throw self.error(key, "not \(what): \(error)")
        }
    }

    /// A sub-table, or nil when the key is absent.
    func table(_ key: String) throws(ConfigError) -> ConfigTable? {
        guard let value = table[key] else { return nil }
        guard let child = value.tomlValue.table else { throw typeError(key, "a table", value) }
        return ConfigTable(child, file: file, path: keyPath(key), locator: locator)
    }

    /// An array of tables (`[[key]]`), empty when the key is absent.
    func tables(_ key: String) throws(ConfigError) -> [ConfigTable] {
        guard let value = table[key] else { return [] }
        guard let array = value.tomlValue.array else { throw typeError(key, "an array of tables", value) }
        var result: [ConfigTable] = []
        for (index, element) in array.enumerated() {
            guard let child = element.tomlValue.table else {
                throw error("\(key)[\(index)]", "expected a table")
            }
            result.append(ConfigTable(child, file: file, path: keyPath("\(key)[\(index)]"), locator: locator))
        }
        return result
    }

    private func typeError(_ key: String, _ expected: String, _ value: TOMLValueConvertible) -> ConfigError {
        error(key, "expected \(expected), found \(value.type)")
    }
}
