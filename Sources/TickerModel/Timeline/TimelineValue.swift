/// A value of the Timeline's `a{sv}` dictionary, with the D-Bus type it travels as.
public enum TimelineValue: Sendable, Hashable {
    /// `s`
    case string(String)
    /// `d`
    case double(Double)
    /// `x`
    case int64(Int64)
    /// `u`
    case uint32(UInt32)
}

/// Why a Timeline dictionary could not be read.
public struct TimelineFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A message naming the key and what was wrong with it.
    public let description: String

    /// Creates an error with a message.
    public init(_ description: String) {
        self.description = description
    }
}
