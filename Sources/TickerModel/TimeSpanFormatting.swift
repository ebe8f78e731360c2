extension TimeSpan {
    private static let formatUnits: [(String, Int64)] = [
        ("y", Microseconds.perYear), ("month", Microseconds.perMonth), ("w", Microseconds.perWeek),
        ("d", Microseconds.perDay), ("h", Microseconds.perHour), ("min", Microseconds.perMinute),
        ("s", Microseconds.perSecond), ("ms", Microseconds.perMillisecond), ("us", 1),
    ]

    /// The span written as systemd's `format_timespan()` writes it, e.g. `1h 30min`,
    /// `1.500000s`, `infinity`; parts smaller than `accuracy` microseconds are left out.
    public func formatted(accuracy: Int64 = 1) -> String {
        if isInfinite { return "infinity" }
        var t = microseconds
        if t <= 0 { return "0" }
        var parts: [String] = []
        for (suffix, unit) in Self.formatUnits {
            if t <= 0 { break }
            if t < accuracy && !parts.isEmpty { break }
            if t < unit { continue }
            let a = t / unit
            var b = t % unit
            if t < Microseconds.perMinute && b > 0 {
                var j = 0
                var cc = unit
                while cc > 1 { j += 1; cc /= 10 }
                cc = accuracy
                while cc > 1 { b /= 10; j -= 1; cc /= 10 }
                if j > 0 {
                    let digits = String(b)
                    let padded = String(repeating: "0", count: max(j - digits.count, 0)) + digits
                    parts.append("\(a).\(padded)\(suffix)")
                    t = 0
                    continue
                }
            }
            parts.append("\(a)\(suffix)")
            t = b
        }
        return parts.joined(separator: " ")
    }
}
