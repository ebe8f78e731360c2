/// An instant: microseconds of CLOCK_REALTIME since the Unix epoch (the D-Bus type `x`).
///
/// TickerModel never reads a clock; every function that depends on time takes an `Instant`.
public typealias Instant = Int64

/// A span of time in microseconds (the D-Bus type `x` for durations).
public typealias Microseconds = Int64

/// Microseconds in one second, for converting between `Microseconds` and seconds.
public let microsecondsPerSecond: Int64 = 1_000_000
