/// Why an effect or a counter value was refused. The daemon maps ``missingEllipsis`` to
/// `io.github.tickerd.Ticker1.Error.InvalidText` and the other cases to `InvalidOption`.
public enum EffectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `effect = "dots"` on a text that does not end with three full stops.
    case missingEllipsis
    /// A duration that must be above 0 (the `reveal` duration) was not; carries the option name.
    case durationNotPositive(option: String, value: Int64)
    /// A duration that must not be negative (a count's `duration`) was; carries the option name.
    case negativeDuration(option: String, value: Int64)
    /// `decimals` above ``NumberFormat/maxDecimals``.
    case tooManyDecimals(Int, limit: Int)
    /// A counter value (or `from`) that is not finite or lies beyond ±``Counter/maxMagnitude`` (10¹²).
    case valueOutOfRange(option: String, value: Double)
    /// A counter name that is not `[A-Za-z0-9_]{1,64}` (the only names a `{name}` placeholder can hold).
    case invalidCounterName(String)

    /// A message a person can act on.
    public var description: String {
        switch self {
        case .missingEllipsis:
            return "the dots effect needs a text that ends with three full stops \"...\""
        case let .durationNotPositive(option, value):
            return "\(option) must be above 0 microseconds, not \(value)"
        case let .negativeDuration(option, value):
            return "\(option) must not be negative, not \(value) microseconds"
        case let .tooManyDecimals(decimals, limit):
            return "decimals must be at most \(limit), not \(decimals)"
        case let .valueOutOfRange(option, value):
            return "\(option) must be a finite number from -1e12 to 1e12, not \(value)"
        case let .invalidCounterName(name):
            return "counter name \"\(name)\" must be 1 to 64 of A-Z, a-z, 0-9 and _"
        }
    }
}
