import Glibc
import TickerModel

/// Reads `tickerd.toml`: TOML (toml++), durations as systemd time spans, instants as systemd
/// timestamps, and every mistake reported with file, line and key. Unknown keys are errors.
struct ConfigLoader {
    /// Where calendar expressions and timestamps find their zones.
    let zones: any TimeZoneLookup

    static let topKeys: Set<String> = ["limits", "channel", "message"]
    static let limitKeys: Set<String> = [
        "message-length", "message-bytes", "character-length", "messages", "channels", "subscribers",
    ]
    static let channelKeys: Set<String> = Set(RequestParsing.configureKeys)
    static let messageKeys: Set<String> = [
        "id", "channel", "text", "priority", "urgent", "ttl", "start", "end", "calendar", "duration", "effect",
        "reveal",
    ]

    /// Reads and checks the file at `path`; a missing file is the empty configuration when
    /// `missingIsEmpty` (the default path), an error otherwise (a path given on the command line).
    func load(path: String, missingIsEmpty: Bool) throws(ConfigError) -> DaemonConfig {
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path)
        } catch {
            throw ConfigError(file: path, line: 0, key: "", problem: "cannot read: \(error)")
        }
        guard let bytes else {
            if missingIsEmpty { return .empty }
            throw ConfigError(file: path, line: 0, key: "", problem: "no such file")
        }
        guard let source = String(validating: bytes, as: UTF8.self) else {
            let bad = UTF8Location.firstInvalid(in: bytes) ?? (line: 0, column: 0)
            throw ConfigError(
                file: path, line: bad.line, key: "",
                problem: "column \(bad.column): not valid UTF-8 (a TOML file is UTF-8 text)")
        }
        return try parse(source, file: path)
    }

    /// Parses configuration text; `file` names it in errors.
    func parse(_ source: String, file: String) throws(ConfigError) -> DaemonConfig {
        // The parser reads a C string: at a NUL byte the file would silently end there.
        if let nul = Self.firstNUL(in: source) {
            throw ConfigError(
                file: file, line: nul.line, key: "",
                problem: "column \(nul.column): a NUL byte (U+0000), which a TOML file cannot hold")
        }
        if let fault = TOMLHeaderGuard.firstFault(in: source) {
            throw ConfigError(file: file, line: fault.line, key: "", problem: fault.problem)
        }
        let parsed: TOMLDocument
        do {
            parsed = try TOMLDocument(source: source)
        } catch {
            throw ConfigError(file: file, line: error.line, key: "", problem: error.description)
        }
        let document = ConfigTable(parsed, file: file, locator: TOMLKeyLocator(source: source))
        // Each section is read on after another's mistake (and each key of a section after
        // another's), so that one check names them all.
        var problems = ConfigProblems()
        problems.reading { () throws(ConfigError) in try document.rejectUnknownKeys(Self.topKeys) }
        var config = DaemonConfig()
        let limits = problems.reading { () throws(ConfigError) in
            try document.table("limits").map { table throws(ConfigError) in try readLimits(table) }
        }
        // The rest is checked against the limits: with a mistake there, it would be checked
        // against others than the file's, so it is not read.
        if limits == nil { try problems.check() }
        if let limits = limits ?? nil { config.limits = limits }
        // The file is checked against its own limits, so that applying it to a fresh daemon
        // cannot fail where the error could not name the file, line and key.
        var budget = ChannelBudget(limits: config.limits.model)
        if let channels = problems.reading({ () throws(ConfigError) in try document.table("channel") }) ?? nil {
            for name in channels.keys.sorted() {
                problems.reading { () throws(ConfigError) in
                    guard ChannelName.isValid(name) else {
                        throw channels.error(name, "channel names are 1 to 64 of A-Z, a-z, 0-9 and _")
                    }
                    guard let section = try channels.table(name) else { return }
                    let channel = try readChannel(section)
                    if let problem = budget.addChannel(name) { throw channels.error(name, problem) }
                    config.channels[name] = channel
                }
            }
        }
        var ids: [String: Int] = [:]
        let messages = problems.reading { () throws(ConfigError) in try document.tables("message") } ?? []
        for (offset, entry) in messages.enumerated() {
            // Counted from 1, like the file's errors (`message[1]`) and default ids (`config-1`).
            let number = offset + 1
            problems.reading { () throws(ConfigError) in
                let message = try readMessage(entry, number: number, limits: config.limits.model)
                if let first = ids[message.id] {
                    // A default id (config-N by position) is not in the file: say where it comes from.
                    throw entry.error("id", entry.keys.contains("id")
                        ? "id '\(message.id)' is used twice: message[\(first)] has it too"
                        : "this message's default id '\(message.id)' (config-N by position) is message[\(first)]'s id; "
                            + "give this one an id")
                }
                ids[message.id] = number
                if let problem = budget.addChannel(message.channel) { throw entry.error("channel", problem) }
                if let problem = budget.addMessage(to: message.channel) { throw entry.error("channel", problem) }
                config.messages.append(message)
            }
        }
        try problems.check()
        return config
    }

    private func readLimits(_ table: ConfigTable) throws(ConfigError) -> DaemonLimits {
        try table.rejectUnknownKeys(Self.limitKeys)
        var limits = DaemonLimits.standard
        func positive(_ key: String) throws(ConfigError) -> Int? {
            guard let value = try table.int(key) else { return nil }
            guard value > 0 else { throw table.error(key, "must be above 0") }
            return value
        }
        if let value = try positive("message-length") { limits.model.clustersPerMessage = value }
        if let value = try positive("message-bytes") { limits.model.bytesPerMessage = value }
        if let value = try positive("character-length") { limits.model.scalarsPerCluster = value }
        if let value = try positive("messages") { limits.model.messagesPerChannel = value }
        if let value = try positive("channels") { limits.model.channels = value }
        if let value = try positive("subscribers") { limits.subscribers = value }
        return limits
    }

    /// The `[channel.NAME]` section `table`. Each key is read on its own, so the error names every
    /// key with a mistake (in file order); the checks across keys follow once each key is right.
    private func readChannel(_ table: ConfigTable) throws(ConfigError) -> ConfiguredChannel {
        var mistakes = ConfigProblems()
        mistakes.reading { () throws(ConfigError) in try table.rejectUnknownKeys(Self.channelKeys) }
        var request = ChannelConfigureRequest()
        request.mode = mistakes.value { () throws(ConfigError) in try named(table, "mode", Mode.init(rawValue:), Mode.allCases.map(\.rawValue)) }
        // Each motion value alone first, so that its error names its own key and line.
        func motion<T>(
            _ key: String, _ field: WritableKeyPath<ChannelConfigureRequest, T?>, _ value: () throws(ConfigError) -> T?
        ) -> T? {
            mistakes.value { () throws(ConfigError) -> T? in
                var single = ChannelConfigureRequest()
                single[keyPath: field] = try value()
                if single[keyPath: field] != nil { try Self.validate(single, in: table, key: key) }
                return single[keyPath: field]
            }
        }
        request.speed = motion("speed", \.speed) { () throws(ConfigError) in try table.double("speed") }
        request.cycle = motion("cycle", \.cycle) { () throws(ConfigError) in try span(table, "cycle") }
        request.delay = motion("delay", \.delay) { () throws(ConfigError) in try span(table, "delay") }
        request.easing = mistakes.value { () throws(ConfigError) in try named(table, "easing", Easing.init(name:), Easing.acceptedNames) }
        request.loops = mistakes.value { () throws(ConfigError) -> UInt32? in
            guard let loops = try table.int("loops") else { return nil }
            guard let value = UInt32(exactly: loops) else { throw table.error("loops", "must be 0 or more") }
            return value
        }
        request.direction = mistakes.value { () throws(ConfigError) in
            try named(table, "direction", Direction.init(rawValue:), Direction.allCases.map(\.rawValue))
        }
        request.align = mistakes.value { () throws(ConfigError) in try named(table, "align", Align.init(rawValue:), Align.allCases.map(\.rawValue)) }
        // Like the bus's Configure, separators are bounded by the standard cluster limit, not by
        // `message-length` (a limit on posted texts, which the default separator alone could break).
        func separator(_ key: String) -> String? {
            mistakes.value { () throws(ConfigError) -> String? in
                guard let text = try table.string(key) else { return nil }
                do throws(TextError) { _ = try TextSanitizer.sanitize(text) } catch { throw table.error(key, error.description) }
                return text
            }
        }
        request.separator = separator("separator")
        request.gap = separator("gap")
        request.columns = mistakes.value { () throws(ConfigError) -> UInt32? in
            guard let columns = try table.int("columns") else { return nil }
            guard let value = UInt32(exactly: columns), (1...4096).contains(value) else {
                throw table.error("columns", "must be 1 to 4096")
            }
            return value
        }
        request.frameRate = mistakes.value { () throws(ConfigError) -> Double? in
            guard let rate = try table.double("frame-rate") else { return nil }
            guard rate == 0 || (1...60).contains(rate) else { throw table.error("frame-rate", "must be 0 (none) or 1 to 60") }
            return rate
        }
        request.phase = mistakes.value { () throws(ConfigError) in try named(table, "phase", Phase.init(rawValue:), Phase.allCases.map(\.rawValue)) }
        try mistakes.check()
        if request.speed != nil, request.cycle != nil { throw table.error("cycle", "give 'speed' or 'cycle', not both") }
        try Self.validate(request, in: table, key: request.loops != nil ? "loops" : nil)
        return ConfiguredChannel(request: request, digest: "\(request)")
    }

    /// The `number`th `[[message]]` (counted from 1; its default id is `config-<number>`). Each
    /// key is read on its own, so the error names every key with a mistake (in file order); the
    /// checks across keys follow once each key is right.
    private func readMessage(_ table: ConfigTable, number: Int, limits: Limits) throws(ConfigError) -> ConfiguredMessage {
        var mistakes = ConfigProblems()
        mistakes.reading { () throws(ConfigError) in try table.rejectUnknownKeys(Self.messageKeys) }
        let text = mistakes.value { () throws(ConfigError) -> String? in
            guard let text = try table.string("text") else { throw table.error("text", "every message needs a text") }
            return text
        }
        let channel = mistakes.value { () throws(ConfigError) -> String? in
            let channel = try table.string("channel") ?? ChannelName.main
            guard ChannelName.isValid(channel) else {
                throw table.error("channel", "channel names are 1 to 64 of A-Z, a-z, 0-9 and _")
            }
            return channel
        }
        let id = mistakes.value { () throws(ConfigError) -> String? in
            let id = try table.string("id") ?? "config-\(number)"
            do throws(TickerError) { _ = try Manager.checkedID(id) } catch { throw table.error("id", error.message) }
            return id
        }
        var request = MessageRequest()
        request.priority = mistakes.value { () throws(ConfigError) -> Int32? in
            guard let priority = try table.int("priority") else { return nil }
            guard let value = Int32(exactly: priority) else { throw table.error("priority", "out of range") }
            return value
        }
        request.urgent = mistakes.value { () throws(ConfigError) in try table.bool("urgent") }
        func positiveSpan(_ key: String) -> Int64? {
            mistakes.value { () throws(ConfigError) -> Int64? in
                guard let span = try span(table, key) else { return nil }
                guard span > 0 else { throw table.error(key, "must be above 0") }
                return span
            }
        }
        request.ttl = positiveSpan("ttl")
        request.start = mistakes.value { () throws(ConfigError) in try instant(table, "start") }
        request.end = mistakes.value { () throws(ConfigError) in try instant(table, "end") }
        request.calendar = mistakes.value { () throws(ConfigError) -> String? in
            guard let expression = try table.string("calendar") else { return nil }
            do { _ = try CalendarSpec(parsing: expression, zones: zones) } catch {
                throw table.error("calendar", "\(error)")
            }
            return expression
        }
        request.duration = positiveSpan("duration")
        request.effect = mistakes.value { () throws(ConfigError) in
            try named(table, "effect", EffectKind.init(rawValue:), EffectKind.allCases.map(\.rawValue))
        }
        request.reveal = mistakes.value { () throws(ConfigError) in try span(table, "reveal") }
        try mistakes.check()
        guard let text, let channel, let id else { throw table.error(nil, "unreadable message") }
        if request.reveal != nil, request.effect != .reveal {
            throw table.error("reveal", "a reveal duration goes with effect = \"reveal\"")
        }
        do {
            _ = try Manager.sanitized(text, effect: request.effect, limits: limits)
        } catch {
            guard case .limitExceeded = error else { throw table.error("text", error.message) }
            throw table.error("text", error.message + Self.limitNote(text, limits: limits))
        }
        if request.calendar != nil, request.duration == nil {
            throw table.error("duration", "a calendar window needs a duration")
        } else if request.calendar == nil, request.duration != nil {
            throw table.error("duration", "a duration goes with a calendar expression")
        }
        if request.calendar != nil, request.ttl != nil || request.start != nil || request.end != nil {
            throw table.error("calendar", "a calendar window takes no ttl, start or end")
        }
        if request.ttl != nil, request.end != nil { throw table.error("ttl", "give ttl or end, not both") }
        if let start = request.start, let end = request.end, start >= end {
            throw table.error("end", "must come after start")
        }
        // Fresh copies: the parsed document's strings sit between its tables, and a message that
        // kept them would pin those pages after the document is freed (fragmentation).
        return ConfiguredMessage(id: Self.copy(id), channel: Self.copy(channel), text: Self.copy(text), request: request)
    }

    /// Checks `request` as `Configure` would; an error names `key` of `table` (the table itself
    /// when nil).
    private static func validate(
        _ request: ChannelConfigureRequest, in table: ConfigTable, key: String?
    ) throws(ConfigError) {
        do {
            _ = try request.applied(to: ChannelSettings()).validated()
        } catch {
            throw table.error(key, error.description)
        }
    }

    /// Added to the error of a text over a limit: the `[limits]` key that raises it (found by
    /// checking the text again, on this error path only).
    private static func limitNote(_ text: String, limits: Limits) -> String {
        do {
            _ = try TextSanitizer.sanitize(text, limits: limits)
        } catch {
            switch error {
            case .tooLong: return " ([limits] message-length)"
            case .tooManyBytes: return " ([limits] message-bytes)"
            case .clusterTooLong: return " ([limits] character-length)"
            case .forbiddenCharacter, .joinsAcrossEdge: break
            }
        }
        return ""
    }

    /// The 1-based line and byte column of the first NUL byte of `source`, or nil when it has none.
    static func firstNUL(in source: String) -> (line: Int, column: Int)? {
        var text = source
        return text.withUTF8 { bytes -> (line: Int, column: Int)? in
            guard let base = bytes.baseAddress, let found = memchr(base, 0, bytes.count) else { return nil }
            let nul = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // Lines are counted only when there is a NUL to report.
            var line = 1
            var column = 1
            for byte in bytes[..<nul] {
                if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
            }
            return (line, column)
        }
    }

    /// `text` in storage of its own.
    private static func copy(_ text: String) -> String {
        String(decoding: text.utf8, as: UTF8.self)
    }

    private func span(_ table: ConfigTable, _ key: String) throws(ConfigError) -> Int64? {
        let span = try table.parsed(key, as: "a time span such as \"10min\" or \"1h 30s\"") { text in
            try TimeSpan(parsing: text)
        }
        guard let span else { return nil }
        guard !span.isInfinite else { throw table.error(key, "must be a finite time span") }
        return span.microseconds
    }

    private func instant(_ table: ConfigTable, _ key: String) throws(ConfigError) -> Int64? {
        try table.parsed(key, as: "a timestamp such as \"2026-12-24 18:00\" or \"@1767225600\"") { text in
            try TimestampParser.parse(text, zones: zones)
        }
    }

    private func named<T>(
        _ table: ConfigTable, _ key: String, _ make: (String) -> T?, _ allowed: [String]
    ) throws(ConfigError) -> T? {
        guard let text = try table.string(key) else { return nil }
        guard let value = make(text) else {
            throw table.error(key, "must be one of \(allowed.joined(separator: ", ")), not '\(text)'")
        }
        return value
    }
}
