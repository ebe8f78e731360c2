/// A duration written as a systemd time span (systemd.time(7), "Parsing Time Spans"): `10h`,
/// `1min 30s`, `2d`, `500ms`, `1.5h`, `infinity`. Held in microseconds.
public struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The length in microseconds; `Int64.max` stands for `infinity`.
    public let microseconds: Int64

    /// A span of `microseconds` (negative values are clamped to zero).
    public init(microseconds: Int64) {
        self.microseconds = max(microseconds, 0)
    }

    /// The endless span, written `infinity`.
    public static let infinity = TimeSpan(microseconds: Int64.max)

    /// Whether this is `infinity`.
    public var isInfinite: Bool { microseconds == Int64.max }

    /// Orders spans by length.
    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.microseconds < b.microseconds }

    /// The span as systemd formats it (`format_timespan` with microsecond accuracy).
    public var description: String { formatted() }
}
