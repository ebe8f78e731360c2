/// The options of one `SetValue` call (DESIGN §3): how to count to the new value, and format
/// changes. A format option left nil keeps the counter's current setting.
public struct CounterOptions: Sendable, Hashable {
    /// Microseconds the count takes (`duration x`); 0 jumps.
    public var duration: Int64
    /// Curve of the count (`easing s`).
    public var easing: Easing
    /// Start value (`from d`); nil starts from the value shown at the call's instant.
    public var from: Double?
    /// Digits after the decimal point (`decimals u`).
    public var decimals: Int?
    /// Thousands separator `,` (`grouping b`).
    public var grouping: Bool?
    /// Text before the number (`prefix s`).
    public var prefix: String?
    /// Text after the number (`suffix s`).
    public var suffix: String?

    /// Creates options; the defaults jump to the value and keep the format.
    public init(
        duration: Int64 = 0, easing: Easing = .linear, from: Double? = nil, decimals: Int? = nil,
        grouping: Bool? = nil, prefix: String? = nil, suffix: String? = nil
    ) {
        self.duration = duration
        self.easing = easing
        self.from = from
        self.decimals = decimals
        self.grouping = grouping
        self.prefix = prefix
        self.suffix = suffix
    }

    /// `format` with the options that are set applied over it.
    func format(over format: NumberFormat) throws(EffectError) -> NumberFormat {
        try NumberFormat(
            decimals: decimals ?? format.decimals, grouping: grouping ?? format.grouping,
            prefix: prefix ?? format.prefix, suffix: suffix ?? format.suffix)
    }
}
