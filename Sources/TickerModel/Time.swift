/// An instant: microseconds of CLOCK_REALTIME since the Unix epoch (the D-Bus type `x`).
///
/// TickerModel never reads a clock; every function that depends on time takes an `Instant`.
/// Durations are plain `Int64` microseconds. (The calendar code declares the same typealias in
/// Calendar/Instant.swift; when both are merged, keep one of the two identical declarations.)
public typealias Instant = Int64

/// Microseconds in one second, for converting between microseconds and seconds.
let microsecondsPerSecond: Int64 = 1_000_000
