extension CalendarSpec {
    /// The first occurrence strictly after `instant`, or nil when there is none: the next
    /// elapse, except that a wall-clock time the autumn fold repeats is one occurrence, its first
    /// pass.
    ///
    /// systemd's search started inside the second pass of a fold finds the time again (02:30 CET
    /// after 02:30 CEST the same night in Berlin), while the chain of elapses from before the
    /// fold passes over it, as a systemd timer does. Occurrences follow the chain wherever the
    /// question starts, so windows stepped from occurrence to occurrence and windows computed
    /// afresh at any instant (after a restart, a suspend, a clock set back) are the same.
    /// `tickerctl calendar` keeps `nextElapse(after:)`, systemd-analyze's answer.
    public func nextOccurrence(after instant: Instant) -> Instant? {
        var search = CalendarSearch(spec: self)
        var base = instant
        while case .at(let next) = search.next(after: base) {
            if !isFoldRepeat(next, search: &search) { return next }
            base = next
        }
        return nil
    }

    /// Whether `elapse` is the second pass of a wall-clock time whose first pass, one fold
    /// earlier, is an elapse from which the chain moves on without meeting `elapse`.
    private func isFoldRepeat(_ elapse: Instant, search: inout CalendarSearch) -> Bool {
        guard !isUTC else { return false }
        let seconds = IntegerMath.floorDivide(elapse, Microseconds.perSecond)
        let offset = zone.utcOffset(atSeconds: seconds)
        let dayBefore = zone.utcOffset(atSeconds: seconds - 86_400)
        guard dayBefore > offset else { return false }  // no fold in the day before
        let firstPass = elapse - (dayBefore - offset) * Microseconds.perSecond
        guard zone.utcOffset(atSeconds: IntegerMath.floorDivide(firstPass, Microseconds.perSecond)) == dayBefore,
              case .at(let found) = search.next(after: firstPass - 1), found == firstPass else { return false }
        guard case .at(let following) = search.next(after: firstPass) else { return true }
        return following != elapse
    }
}
