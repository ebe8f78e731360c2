import Glibc
import TOMLConfig
import TickerModel

/// Reads `sources.toml`: a top-level `lease` and `[[source]]` tables, every mistake reported with
/// file, line and key (the same strict reading as `tickerd.toml`); unknown keys are errors.
///
/// Common keys of a `[[source]]`: `name` (1–32 of `A-Z a-z 0-9 _ -`, unique), `type`, `channel`
/// (default `main`), `priority`, `urgent`, `template`, and the kind's own keys.
public struct SourcesConfigLoader {
    /// The kinds a `type` may name.
    public let kinds: [String: SourceKind]

    /// A loader knowing `kinds` (``SourceKinds/all`` by default).
    public init(kinds: [SourceKind] = SourceKinds.all) {
        self.kinds = Dictionary(kinds.map { ($0.name, $0) }) { first, _ in first }
    }

    static let topKeys: Set<String> = ["lease", "source"]
    static let commonKeys: Set<String> = ["name", "type", "channel", "priority", "urgent", "template"]

    /// Reads and checks the file at `path`.
    public func load(path: String) throws(ConfigError) -> SourcesConfig {
        guard let file = fopen(path, "rb") else {
            throw ConfigError(file: path, line: 0, key: "", problem: "cannot read: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes += buffer[0..<count] }
            if count < buffer.count { break }
        }
        guard ferror(file) == 0 else { throw ConfigError(file: path, line: 0, key: "", problem: "cannot read the file") }
        guard let source = String(validating: bytes, as: UTF8.self) else {
            let bad = UTF8Location.firstInvalid(in: bytes) ?? (line: 0, column: 0)
            throw ConfigError(
                file: path, line: bad.line, key: "",
                problem: "column \(bad.column): not valid UTF-8 (a TOML file is UTF-8 text)")
        }
        return try parse(source, file: path)
    }

    /// Parses configuration text; `file` names it in errors. Makes (does not start) the sources.
    public func parse(_ text: String, file: String) throws(ConfigError) -> SourcesConfig {
        if let fault = TOMLHeaderGuard.firstFault(in: text) {
            throw ConfigError(file: file, line: fault.line, key: "", problem: fault.problem)
        }
        let parsed: TOMLDocument
        do {
            parsed = try TOMLDocument(source: text)
        } catch {
            throw ConfigError(file: file, line: error.line, key: "", problem: error.description)
        }
        let document = ConfigTable(parsed, file: file, locator: TOMLKeyLocator(source: text))
        // Each source is read on after another's mistake, so that one check names them all.
        var problems = ConfigProblems()
        problems.reading { () throws(ConfigError) in try document.rejectUnknownKeys(Self.topKeys) }
        var config = SourcesConfig()
        problems.reading { () throws(ConfigError) in
            guard let lease = try Self.timeSpan(document, "lease") else { return }
            guard lease >= 1_000_000 else { throw document.error("lease", "must be at least 1s") }
            config.timing = LeaseTiming(lease: lease)
        }
        var names: Set<String> = []
        for table in problems.reading({ () throws(ConfigError) in try document.tables("source") }) ?? [] {
            problems.reading { () throws(ConfigError) in
                let entry = try readSource(table)
                guard names.insert(entry.binding.name).inserted else {
                    throw table.error("name", "the name '\(entry.binding.name)' is used by an earlier source")
                }
                config.entries.append(entry)
            }
        }
        try problems.check()
        return config
    }

    /// A time span value in microseconds (`"30s"`, `"5min"`), or nil when absent.
    public static func timeSpan(_ table: ConfigTable, _ key: String) throws(ConfigError) -> Int64? {
        try table.parsed(key, as: "a time span such as \"30s\" or \"5min\"") { text in
            try TimeSpan(parsing: text).microseconds
        }
    }

    /// A template under `key`, checked against `fields`; nil when absent.
    public static func template(_ table: ConfigTable, _ key: String, fields: Set<String>) throws(ConfigError) -> MessageTemplate? {
        guard let text = try table.string(key) else { return nil }
        do {
            let template = try MessageTemplate(parsing: text)
            try template.check(fields: fields)
            return template
        } catch {
            throw table.error(key, "malformed template: \(error)")
        }
    }

    /// The `[[source]]` section `table`. Its common keys and its kind's own are read apart, so the
    /// error names every common key with a mistake and the kind's first (in file order).
    private func readSource(_ table: ConfigTable) throws(ConfigError) -> SourcesConfig.Entry {
        guard let type = try table.string("type") else {
            throw table.error(nil, "missing key 'type' (one of: \(kinds.keys.sorted().joined(separator: ", ")))")
        }
        guard let kind = kinds[type] else {
            throw table.error("type", "unknown source type '\(type)' (known: \(kinds.keys.sorted().joined(separator: ", ")))")
        }
        var mistakes = ConfigProblems()
        mistakes.reading { () throws(ConfigError) in try table.rejectUnknownKeys(Self.commonKeys.union(kind.formKeys).union(kind.keys)) }
        let name = mistakes.value { () throws(ConfigError) -> String? in
            guard let name = try table.string("name") else { throw table.error(nil, "missing key 'name'") }
            guard Self.isSourceName(name) else {
                throw table.error("name", "a source name is 1 to 32 of A-Z, a-z, 0-9, _ and -")
            }
            return name
        }
        let channel = mistakes.value { () throws(ConfigError) -> String? in
            let channel = try table.string("channel") ?? "main"
            guard (1...64).contains(channel.utf8.count),
                  channel.utf8.allSatisfy({ Self.isNameByte($0) && $0 != UInt8(ascii: "-") }) else {
                throw table.error("channel", "channel names are 1 to 64 of A-Z, a-z, 0-9 and _")
            }
            return channel
        }
        let priority = mistakes.value { () throws(ConfigError) -> Int32? in
            guard let value = try table.int("priority") else { return 0 }
            guard let exact = Int32(exactly: value) else { throw table.error("priority", "must fit in 32 bits") }
            return exact
        }
        let urgent = mistakes.value { () throws(ConfigError) in try table.bool("urgent") ?? false }
        let template = mistakes.value { () throws(ConfigError) -> MessageTemplate? in
            guard let template = try Self.template(table, "template", fields: kind.fields) else {
                throw table.error(nil, "missing key 'template' (fields of \(type): \(kind.fields.sorted().joined(separator: ", ")))")
            }
            return template
        }
        var forms: [String: MessageTemplate] = [:]
        for key in kind.formKeys.sorted() {
            if let form = mistakes.value({ () throws(ConfigError) in try Self.template(table, key, fields: kind.fields) }) { forms[key] = form }
        }
        let source = mistakes.value { () throws(ConfigError) in try kind.make(table) }
        // It reads keys `make` has read: after a mistake there it would name the same one again.
        let needsNetwork = source == nil ? nil : mistakes.value { () throws(ConfigError) in try kind.needsNetwork(table) }
        try mistakes.check()
        guard let name, let channel, let priority, let urgent, let template, let needsNetwork, let source else {
            throw table.error(nil, "unreadable source")
        }
        let binding = SourceBinding(
            name: name, channel: channel, priority: priority, urgent: urgent, template: template, forms: forms)
        var entry = SourcesConfig.Entry(binding: binding, kind: type, needsNetwork: needsNetwork, source: source)
        entry.fingerprint = table.fingerprint
        return entry
    }

    /// Whether `name` may name a source: 1 to 32 of `A-Z a-z 0-9 _ -`.
    static func isSourceName(_ name: some StringProtocol) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy(isNameByte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
        default: return false
        }
    }
}

extension SourcesConfigLoader {
    /// An absolute URI under `key` (what a message's `link` must be), or nil when absent.
    public static func link(_ table: ConfigTable, _ key: String) throws(ConfigError) -> String? {
        guard let text = try table.string(key) else { return nil }
        if let problem = LinkURI.problem(text) { throw table.error(key, problem) }
        return text
    }
}
