import DBus
import TickerModel

/// Turns `configure`'s `key=value` words into the `a{sv}` that `Control.Configure` takes, with the
/// D-Bus type each key travels as (DESIGN.md §3): strings `s`, `speed` and `frame-rate` `d`
/// (cells and frames per second), `cycle` and `delay` `x` microseconds from a time span, `loops`
/// and `columns` `u`.
enum ChannelSettingArguments {
    /// How a key's value is read.
    enum Kind: Sendable {
        /// A string, optionally one of a fixed list of names.
        case string(allowed: [String]?)
        /// A finite number above 0.
        case positiveDouble
        /// A finite number that is 0 or above.
        case nonNegativeDouble
        /// A time span, sent as microseconds.
        case span
        /// A whole number that fits a `u`.
        case uint32
    }

    /// The keys `configure` knows, in the order the help lists them.
    static let keys: [(name: String, kind: Kind)] = [
        ("mode", .string(allowed: Mode.allCases.map(\.rawValue))),
        ("speed", .positiveDouble),
        ("cycle", .span),
        ("delay", .span),
        ("easing", .string(allowed: Easing.acceptedNames)),
        ("loops", .uint32),
        ("direction", .string(allowed: Direction.allCases.map(\.rawValue))),
        ("align", .string(allowed: Align.allCases.map(\.rawValue))),
        ("separator", .string(allowed: nil)),
        ("gap", .string(allowed: nil)),
        ("columns", .uint32),
        ("frame-rate", .nonNegativeDouble),
        ("phase", .string(allowed: Phase.allCases.map(\.rawValue))),
    ]

    /// Reads `words` (`key=value` each) into an `a{sv}` dictionary.
    static func parse(_ words: [String]) throws(UsageError) -> [String: DBusValue] {
        var result: [String: DBusValue] = [:]
        for word in words {
            guard let equals = word.firstIndex(of: "=") else {
                throw UsageError("'\(word)' is not key=value (keys: \(keyList))")
            }
            let key = String(word[..<equals])
            let value = String(word[word.index(after: equals)...])
            guard let kind = keys.first(where: { $0.name == key })?.kind else {
                throw UsageError("unknown setting '\(key)' (keys: \(keyList))")
            }
            guard result[key] == nil else { throw UsageError("setting '\(key)' is given twice") }
            result[key] = try read(value, key: key, kind: kind)
        }
        return result
    }

    /// The known keys, comma-separated, for messages and help.
    static var keyList: String { keys.map(\.name).joined(separator: ", ") }

    private static func read(_ value: String, key: String, kind: Kind) throws(UsageError) -> DBusValue {
        switch kind {
        case .string(let allowed):
            if let allowed, !allowed.contains(value) {
                throw UsageError("\(key)=\(value): must be one of \(allowed.joined(separator: ", "))")
            }
            return .string(value)
        case .positiveDouble:
            guard let number = Double(value), number.isFinite, number > 0 else {
                throw UsageError("\(key)=\(value): must be a number above 0 (cells per second)")
            }
            return .double(number)
        case .nonNegativeDouble:
            guard let number = Double(value), number.isFinite, number >= 0 else {
                throw UsageError("\(key)=\(value): must be a number, 0 or above")
            }
            return .double(number)
        case .span:
            return .int64(try TimeArgument.span(value, label: "\(key)=\(value)"))
        case .uint32:
            guard let number = UInt32(value) else {
                throw UsageError("\(key)=\(value): must be a whole number from 0 to \(UInt32.max)")
            }
            return .uint32(number)
        }
    }
}
