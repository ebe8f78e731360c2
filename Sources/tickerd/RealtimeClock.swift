import Glibc

/// CLOCK_REALTIME in microseconds since the epoch: the time base of the whole API.
enum RealtimeClock {
    /// Now.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }

    /// CLOCK_MONOTONIC in microseconds (for `MONOTONIC_USEC=` on reload).
    static func monotonicMicroseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000 + UInt64(spec.tv_nsec) / 1_000
    }
}
