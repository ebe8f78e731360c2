/// One element of a calendar field's chain: a value, a range or a repetition, as systemd's
/// `CalendarComponent` (`start[..stop][/repeat]`). Seconds are held in microseconds.
struct CalendarComponent: Sendable, Hashable, Comparable {
    /// First value.
    var start: Int
    /// Last value of a range, or -1 when there is none.
    var stop: Int = -1
    /// Step of a repetition or range, or 0 when there is none.
    var `repeat`: Int = 0

    static func < (a: CalendarComponent, b: CalendarComponent) -> Bool {
        (a.start, a.stop, a.repeat) < (b.start, b.stop, b.repeat)
    }

    /// systemd's `normalize_chain`: trims ranges to a multiple of the step, drops steps that can
    /// never fire, sorts and removes duplicates.
    static func normalize(_ chain: [CalendarComponent]) -> [CalendarComponent] {
        var items = chain
        for i in items.indices {
            if items[i].stop > items[i].start && items[i].repeat > 0 {
                items[i].stop -= (items[i].stop - items[i].start) % items[i].repeat
            }
            if (items[i].stop > items[i].start && items[i].repeat > 0
                && items[i].start + items[i].repeat > items[i].stop) || items[i].start == items[i].stop {
                items[i].repeat = 0
                items[i].stop = -1
            }
        }
        guard items.count > 1 else { return items }
        items.sort()
        var unique: [CalendarComponent] = []
        for item in items where unique.last != item { unique.append(item) }
        return unique
    }

    /// systemd's `chain_valid`: nil when valid, else why not.
    static func validate(_ chain: [CalendarComponent], from: Int, to upper: Int, endOfMonth: Bool,
                         microseconds: Bool = false) -> String? {
        let to = endOfMonth ? upper - 3 : upper
        func show(_ value: Int) -> String {
            guard microseconds else { return String(value) }
            let fraction = value % 1_000_000
            return fraction == 0 ? String(value / 1_000_000) : "\(value / 1_000_000).\(CalendarFormat.pad(fraction, 6))"
        }
        for c in chain {
            if c.start < from || c.start > to { return "value \(show(c.start)) is outside \(show(from))..\(show(to))" }
            if c.repeat > to - from { return "repetition \(show(c.repeat)) is longer than the range \(show(from))..\(show(to))" }
            if c.stop >= 0 {
                if c.stop < from || c.stop > to { return "range end \(show(c.stop)) is outside \(show(from))..\(show(to))" }
                if c.start + c.repeat > c.stop { return "range \(show(c.start))..\(show(c.stop)) is empty" }
            } else {
                if endOfMonth && c.start - c.repeat < from {
                    return "repetition \(show(c.repeat)) from \(show(c.start)) days before the month's end leaves the month"
                }
                if !endOfMonth && c.start + c.repeat > to {
                    return "repetition \(show(c.repeat)) from \(show(c.start)) never fires again before \(show(to))"
                }
            }
        }
        return nil
    }
}
