import CDBus

/// The clock a ``Deadline`` is measured on.
public enum TimerClock: Hashable, Sendable {
    /// `CLOCK_MONOTONIC`: never jumps; stops during suspend.
    case monotonic
    /// `CLOCK_REALTIME`: wall-clock time since the Unix epoch; may jump when the clock is set.
    case realtime

    /// The clock's current time in nanoseconds.
    public var nowNanoseconds: Int64 {
        cdbus_clock_now_ns(self == .realtime ? 1 : 0)
    }
}

/// An absolute point in time on a ``TimerClock``.
public struct Deadline: Hashable, Sendable, CustomStringConvertible {
    /// The clock the deadline is measured on.
    public let clock: TimerClock
    /// Nanoseconds since the clock's origin (the Unix epoch for `.realtime`).
    public let nanoseconds: Int64

    /// A deadline at `nanoseconds` on `clock`.
    public init(clock: TimerClock, nanoseconds: Int64) {
        self.clock = clock
        self.nanoseconds = nanoseconds
    }

    /// The current time on `clock`.
    public static func now(_ clock: TimerClock = .monotonic) -> Deadline {
        Deadline(clock: clock, nanoseconds: clock.nowNanoseconds)
    }

    /// `duration` from now on `clock`.
    public static func after(_ duration: Duration, on clock: TimerClock = .monotonic) -> Deadline {
        now(clock).advanced(by: duration)
    }

    /// A wall-clock deadline given in microseconds since the Unix epoch (the D-Bus API's unit).
    public static func realtime(microsecondsSinceEpoch: Int64) -> Deadline {
        let (product, overflow) = microsecondsSinceEpoch.multipliedReportingOverflow(by: 1000)
        let nanos = overflow ? (microsecondsSinceEpoch < 0 ? Int64.min : Int64.max) : product
        return Deadline(clock: .realtime, nanoseconds: nanos)
    }

    /// This deadline moved by `duration` (saturating at the ends of `Int64`).
    public func advanced(by duration: Duration) -> Deadline {
        Deadline(clock: clock, nanoseconds: nanoseconds.saturatingAdd(duration.totalNanoseconds))
    }

    /// Nanoseconds from now until the deadline; 0 or less when it has passed.
    public var remainingNanoseconds: Int64 {
        nanoseconds.saturatingAdd(-clock.nowNanoseconds)
    }

    /// Whether the deadline's clock has reached it.
    public var hasPassed: Bool { remainingNanoseconds <= 0 }

    /// `"<clock> <nanoseconds>ns"`.
    public var description: String { "\(clock) \(nanoseconds)ns" }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at the ends of `Int64`.
    var totalNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (secNanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        return secNanos.saturatingAdd(attoseconds / 1_000_000_000)
    }

    /// The duration in milliseconds, rounded up, clamped to `0...Int32.max`.
    var clampedMilliseconds: Int32 {
        let nanos = max(0, totalNanoseconds)
        let millis = nanos / 1_000_000 + (nanos % 1_000_000 == 0 ? 0 : 1)
        return Int32(clamping: millis)
    }
}

extension Int64 {
    /// `self + other`, clamped to the ends of `Int64` instead of trapping.
    func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        if overflow { return other > 0 ? Int64.max : Int64.min }
        return sum
    }
}
