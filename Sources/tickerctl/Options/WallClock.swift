import Glibc
import TickerModel

/// The wall clock (CLOCK_REALTIME), the clock of every time on the bus.
enum WallClock {
    /// Now, in microseconds since the epoch.
    static func now() -> Instant {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return Int64(clock.tv_sec) * Microseconds.perSecond + Int64(clock.tv_nsec) / 1000
    }
}
