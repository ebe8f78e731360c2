/// How a counter's value is written (DESIGN §3 SetValue options `decimals`, `grouping`, `prefix`,
/// `suffix`).
///
/// The number is written without locale: an optional `-`, the integer digits (grouped by three
/// with `,` when ``grouping`` is on), and `.` followed by ``decimals`` digits when decimals > 0.
/// The value is rounded half away from zero to ``decimals`` places; a value that rounds to zero is
/// written without a sign. Every character of a number is ASCII and one cell wide.
/// ``prefix`` and ``suffix`` are plain text around the number's field (see ``Counter``).
public struct NumberFormat: Sendable, Hashable {
    /// The most decimals a format may ask for.
    public static let maxDecimals = 6

    /// Digits after the decimal point, 0…``maxDecimals``.
    public let decimals: Int
    /// True to group the integer digits by three with `,`.
    public let grouping: Bool
    /// Text shown before the number's field.
    public let prefix: String
    /// Text shown after the number's field.
    public let suffix: String

    /// The default: no decimals, no grouping, no prefix or suffix.
    public static let plain = NumberFormat(uncheckedDecimals: 0, grouping: false, prefix: "", suffix: "")

    /// Creates a format; throws ``EffectError/tooManyDecimals(_:limit:)`` above ``maxDecimals``.
    /// `prefix` and `suffix` should already be sanitised (``TextSanitizer``).
    public init(decimals: Int = 0, grouping: Bool = false, prefix: String = "", suffix: String = "") throws(EffectError) {
        guard decimals >= 0, decimals <= NumberFormat.maxDecimals else {
            throw .tooManyDecimals(decimals, limit: NumberFormat.maxDecimals)
        }
        self.init(uncheckedDecimals: decimals, grouping: grouping, prefix: prefix, suffix: suffix)
    }

    private init(uncheckedDecimals decimals: Int, grouping: Bool, prefix: String, suffix: String) {
        self.decimals = decimals
        self.grouping = grouping
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The value as a whole number of units of the last decimal place (value × 10^decimals,
    /// rounded half away from zero): two values with the same key are written the same.
    /// The value must be finite and within ±``Counter/maxMagnitude``.
    public func key(_ value: Double) -> Int64 {
        let scaled = (value * NumberFormat.scale(decimals)).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, scaled.magnitude < 9.0e18 else { return 0 }
        return Int64(scaled)
    }

    /// The number as ASCII bytes (no prefix or suffix).
    public func numberBytes(_ value: Double) -> [UInt8] {
        numberBytes(key: key(value))
    }

    /// The number as a string (no prefix or suffix).
    public func number(_ value: Double) -> String {
        String(decoding: numberBytes(value), as: UTF8.self)
    }

    /// The whole text: prefix, number and suffix (what the `Text` property shows for a counter).
    public func text(_ value: Double) -> String {
        prefix + number(value) + suffix
    }

    /// Cells the number of `value` takes (its byte count: every character is one ASCII cell).
    public func width(_ value: Double) -> Int {
        numberBytes(value).count
    }

    /// Writes the number with a given ``key(_:)``.
    func numberBytes(key: Int64) -> [UInt8] {
        var magnitude = key.magnitude
        var digits = [UInt8]()
        digits.reserveCapacity(32)
        // Digits are produced from the last one; decimals first, then grouped integer digits.
        for _ in 0..<decimals {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        if decimals > 0 { digits.append(UInt8(ascii: ".")) }
        var count = 0
        repeat {
            if grouping, count > 0, count % 3 == 0 { digits.append(UInt8(ascii: ",")) }
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
            count += 1
        } while magnitude > 0
        if key < 0 { digits.append(UInt8(ascii: "-")) }
        digits.reverse()
        return digits
    }

    /// 10^decimals as a Double (exact for the allowed decimals).
    static func scale(_ decimals: Int) -> Double {
        var result = 1.0
        for _ in 0..<max(0, decimals) { result *= 10 }
        return result
    }
}
