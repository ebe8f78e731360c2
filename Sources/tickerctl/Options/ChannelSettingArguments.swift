import DBus
import TickerModel
import TickerNames

/// Turns `configure`'s `key=value` words into the `a{sv}` that `Control.Configure` takes, with the
/// D-Bus type each key travels as (DESIGN.md §3): strings `s`, `speed` and `frame-rate` `d`
/// (cells and frames per second), `cycle` and `delay` `x` microseconds from a time span, `loops`
/// and `columns` `u`.
enum ChannelSettingArguments {
    /// How a key's value is read.
    enum Kind: Sendable {
        /// A string, optionally one of a fixed list of names.
        case string(allowed: [String]?)
        /// A finite number above 0 and at most `maximum`.
        case positiveDouble(maximum: Double)
        /// A rate of frames a second: 0 (none) or within `rates`.
        case frameRate(rates: ClosedRange<Double>)
        /// A time span within `range` (µs), sent as microseconds.
        case span(range: ClosedRange<Int64>)
        /// A whole number within `range`, sent as a `u`.
        case uint32(range: ClosedRange<UInt32>)
    }

    /// The widest frame the daemon draws, in cells.
    static let maximumColumns = UInt32(TickerBus.maximumColumns)
    /// The fastest broadcast the daemon sends, in frames a second.
    static let maximumFrameRate = 60.0

    /// The keys `configure` knows, in the order the help lists them.
    static let keys: [(name: String, kind: Kind)] = [
        ("mode", .string(allowed: Mode.allCases.map(\.rawValue))),
        ("speed", .positiveDouble(maximum: ChannelSettings.maximumRate)),
        ("cycle", .span(range: ChannelSettings.minimumCycle...Int64.max)),
        ("delay", .span(range: 0...ChannelSettings.maximumDelay)),
        ("easing", .string(allowed: Easing.acceptedNames)),
        ("loops", .uint32(range: 0...UInt32.max)),
        ("direction", .string(allowed: Direction.allCases.map(\.rawValue))),
        ("align", .string(allowed: Align.allCases.map(\.rawValue))),
        ("separator", .string(allowed: nil)),
        ("gap", .string(allowed: nil)),
        ("columns", .uint32(range: 1...maximumColumns)),
        ("frame-rate", .frameRate(rates: 1...maximumFrameRate)),
        ("phase", .string(allowed: Phase.allCases.map(\.rawValue))),
    ]

    /// Reads `words` (`key=value` each) into an `a{sv}` dictionary. Every word is checked: the
    /// error names each bad word on a line of its own, in the order given, so one round of fixes
    /// is enough. The list of keys is shown with the first word whose key is not known.
    static func parse(_ words: [String]) throws(UsageError) -> [String: DBusValue] {
        var result: [String: DBusValue] = [:]
        var given: Set<String> = []
        var mistakes: [String] = []
        var keysListed = false
        func unknown(_ text: String) -> String {
            defer { keysListed = true }
            return keysListed ? text : "\(text) (keys: \(keyList))"
        }
        for word in words {
            guard let equals = word.firstIndex(of: "=") else {
                mistakes.append(unknown("'\(word)' is not key=value"))
                continue
            }
            let key = String(word[..<equals])
            let value = String(word[word.index(after: equals)...])
            guard let kind = keys.first(where: { $0.name == key })?.kind else {
                mistakes.append(unknown("unknown setting '\(key)'"))
                continue
            }
            guard given.insert(key).inserted else {
                mistakes.append("setting '\(key)' is given twice")
                continue
            }
            do {
                result[key] = try read(value, key: key, kind: kind)
            } catch {
                mistakes.append(error.description)
            }
        }
        guard mistakes.isEmpty else { throw UsageError(lines: mistakes) }
        return result
    }

    /// The known keys, comma-separated, for messages and help.
    static var keyList: String { keys.map(\.name).joined(separator: ", ") }

    /// A bound as a span a person reads: whole days as days (`365d`, not systemd's months and
    /// weeks of a year), anything else as systemd prints it.
    private static func spanText(_ microseconds: Int64) -> String {
        microseconds % Microseconds.perDay == 0
            ? "\(microseconds / Microseconds.perDay)d" : TimeSpan(microseconds: microseconds).formatted()
    }

    private static func read(_ value: String, key: String, kind: Kind) throws(UsageError) -> DBusValue {
        switch kind {
        case .string(let allowed):
            if let allowed, !allowed.contains(value) {
                throw UsageError("\(key)=\(value): must be one of \(allowed.joined(separator: ", "))")
            }
            return .string(value)
        case .positiveDouble(let maximum):
            guard let number = Double(value), number.isFinite, number > 0, number <= maximum else {
                throw UsageError("\(key)=\(value): must be a number above 0 and at most \(Int(maximum)) (cells per second)")
            }
            return .double(number)
        case .frameRate(let rates):
            guard let number = Double(value), number == 0 || rates.contains(number) else {
                throw UsageError(
                    "\(key)=\(value): must be 0 (none) or a number from \(Int(rates.lowerBound)) to \(Int(rates.upperBound))")
            }
            return .double(number)
        case .span(let range):
            let span = try TimeArgument.span(value, label: "\(key)=\(value)")
            guard range.contains(span) else {
                throw UsageError(range.lowerBound > 0
                    ? "\(key)=\(value): must be at least \(spanText(range.lowerBound))"
                    : "\(key)=\(value): must be at most \(spanText(range.upperBound))")
            }
            return .int64(span)
        case .uint32(let range):
            guard let number = UInt32(value), range.contains(number) else {
                throw UsageError("\(key)=\(value): must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return .uint32(number)
        }
    }
}
