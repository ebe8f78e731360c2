import DBus

/// Reads an `a{sv}` option dictionary strictly: each read checks the value's D-Bus type, and
/// `finish()` rejects any key nobody read, so a typo is an `InvalidOption` error, never ignored.
/// The variant must hold the value itself: a variant inside it (gdbus `<<'dots'>>`) is a value of
/// the wrong type, refused like any other.
struct OptionReader {
    /// What the options are for, used in messages ("Post option", "Subscribe option").
    let context: String
    private let options: [String: DBusValue]
    private var consumed: Set<String> = []

    /// A reader over `options`, whose errors say they are `context` options.
    init(_ options: [String: DBusValue], context: String) {
        self.options = options
        self.context = context
    }

    /// Whether `key` was given at all.
    func has(_ key: String) -> Bool { options[key] != nil }

    /// The string at `key`, if given.
    mutating func string(_ key: String) throws(TickerError) -> String? {
        try read(key, "s") { $0.stringValue }
    }

    /// The boolean at `key`, if given.
    mutating func bool(_ key: String) throws(TickerError) -> Bool? {
        try read(key, "b") { $0.boolValue }
    }

    /// The 32-bit signed integer at `key`, if given.
    mutating func int32(_ key: String) throws(TickerError) -> Int32? {
        try read(key, "i") { $0.int32Value }
    }

    /// The 32-bit unsigned integer at `key`, if given.
    mutating func uint32(_ key: String) throws(TickerError) -> UInt32? {
        try read(key, "u") { $0.uint32Value }
    }

    /// The 64-bit signed integer (time or duration in µs) at `key`, if given.
    mutating func int64(_ key: String) throws(TickerError) -> Int64? {
        try read(key, "x") { $0.int64Value }
    }

    /// A duration in µs at `key` that must not be negative.
    mutating func duration(_ key: String) throws(TickerError) -> Int64? {
        guard let value = try int64(key) else { return nil }
        guard value >= 0 else {
            throw .invalidOption("\(context) option '\(key)' must not be negative (microseconds), got \(value)")
        }
        return value
    }

    /// The finite double at `key`, if given (NaN and infinities are refused).
    mutating func double(_ key: String) throws(TickerError) -> Double? {
        guard let value = try read(key, "d", { $0.doubleValue }) else { return nil }
        guard value.isFinite else {
            throw .invalidOption("\(context) option '\(key)' must be a finite number, got \(value)")
        }
        return value
    }

    /// Fails when a key was given that no read asked for, listing the keys that are known.
    func finish(known: [String]) throws(TickerError) {
        for key in options.keys.sorted() where !consumed.contains(key) {
            throw .invalidOption(
                "unknown \(context) option '\(key)' (known: \(known.joined(separator: ", ")))")
        }
    }

    private mutating func read<T>(
        _ key: String, _ signature: String, _ extract: (DBusValue) -> T?
    ) throws(TickerError) -> T? {
        guard let value = options[key] else { return nil }
        consumed.insert(key)
        if case .variant(let inner) = value {
            throw .invalidOption(
                "\(context) option '\(key)' must be of type '\(signature)', got a variant holding a variant "
                    + "('\(inner.type.signature)' inside): send the value itself in the dictionary's variant")
        }
        guard let result = extract(value) else {
            throw .invalidOption(
                "\(context) option '\(key)' must be of type '\(signature)', got '\(value.type.signature)'")
        }
        return result
    }
}
