/// One local time type of a zone: its UTC offset, daylight-saving flag and abbreviation.
public struct LocalTimeType: Sendable, Hashable {
    /// Offset from UTC in seconds, east positive.
    public let utcOffset: Int64
    /// Whether this type is daylight-saving time.
    public let isDST: Bool
    /// The abbreviation, e.g. `CEST` or `+1030`.
    public let abbreviation: String

    /// Creates a local time type.
    public init(utcOffset: Int64, isDST: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDST = isDST
        self.abbreviation = abbreviation
    }
}
