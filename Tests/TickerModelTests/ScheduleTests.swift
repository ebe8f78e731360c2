import TestSupport
import Testing
import TickerModel

/// The schedule is compared with a brute-force reference that steps through time on a 10-second
/// grid (every window edge in these schedules lies on it) and evaluates each window directly.
@Suite struct ScheduleTests {
    static let zones = SystemZones(local: "UTC")
    /// 2024-03-31 00:00:00 UTC: Europe/Berlin springs forward at 01:00 UTC that night.
    static let origin: Instant = 1_711_843_200 * Microseconds.perSecond
    static let step: Instant = 10 * Microseconds.perSecond
    static let horizon: Instant = 14 * Microseconds.perHour
    static let calendars = [
        "*:0/7", "*:05,35", "*-*-* 22:30", "*:*:0/30", "2024-03-31 *:00/20", "hourly Europe/Berlin",
        "*-*-* 01..03:00 Europe/Berlin", "Sun *-*-* 23:50", "*-*-* 06:00", "2024-03-31 03:17:40",
        "*-*-* 00/3:00", "Mon *-*-* 09:00",
    ]

    /// A reference evaluation of one entry: its occurrences listed once, then plain comparisons.
    struct ReferenceEntry {
        let entry: ScheduleEntry
        /// Occurrences up to a day past the horizon, ascending.
        let occurrences: [Instant]
        /// Whether the calendar still elapses after the listed occurrences.
        let continuesBeyond: Bool

        init(_ entry: ScheduleEntry) {
            self.entry = entry
            if case .recurring(let calendar, let duration) = entry.window {
                let limit = ScheduleTests.origin + ScheduleTests.horizon + Microseconds.perDay
                var list: [Instant] = []
                var base = ScheduleTests.origin - max(duration, 0) - 1
                while let next = calendar.nextElapse(after: base), next <= limit {
                    list.append(next)
                    base = next
                }
                occurrences = list
                continuesBeyond = calendar.nextElapse(after: limit) != nil
            } else {
                occurrences = []
                continuesBeyond = false
            }
        }

        /// `entry` (another id, the same window as `other`'s) without listing the occurrences again.
        init(_ entry: ScheduleEntry, occurrencesOf other: ReferenceEntry) {
            self.entry = entry
            occurrences = other.occurrences
            continuesBeyond = other.continuesBeyond
        }

        /// (window start if active, ended for good) at `t`, straight from the definitions.
        func evaluate(_ t: Instant) -> (start: Instant?, ended: Bool) {
            switch entry.window {
            case .always:
                return (entry.postedAt, false)
            case .absolute(let start, let end):
                if let end, t >= end { return (nil, true) }
                if let start, t < start { return (nil, false) }
                return (start ?? entry.postedAt, false)
            case .timeToLive(let ttl):
                return t < entry.postedAt + ttl ? (entry.postedAt, false) : (nil, true)
            case .recurring(_, let duration):
                guard duration > 0 else { return (nil, true) }
                // The last occurrence at or before t (binary search), active while t < o + duration.
                var low = 0
                var high = occurrences.count
                while low < high {
                    let mid = (low + high) / 2
                    if occurrences[mid] <= t { low = mid + 1 } else { high = mid }
                }
                if low > 0, t < occurrences[low - 1] + duration { return (occurrences[low - 1], false) }
                let more = low < occurrences.count || continuesBeyond
                return (nil, !more)
            }
        }
    }

    struct Snapshot: Equatable {
        var active: [ActiveScheduleEntry]
        var ended: [String]
    }

    static func referenceSnapshot(_ entries: [ReferenceEntry], at t: Instant) -> Snapshot {
        var active: [ActiveScheduleEntry] = []
        var ended: [String] = []
        for reference in entries {
            let (start, isEnded) = reference.evaluate(t)
            if let start {
                active.append(ActiveScheduleEntry(id: reference.entry.id, priority: reference.entry.priority,
                                                  isUrgent: reference.entry.isUrgent, windowStart: start))
            }
            if isEnded { ended.append(reference.entry.id) }
        }
        return Snapshot(active: active.sorted(by: ActiveScheduleEntry.tapeOrder), ended: ended.sorted())
    }

    static func randomSchedule(_ random: inout SeededRandom) throws -> [ScheduleEntry] {
        func gridInstant(_ random: inout SeededRandom) -> Instant {
            origin + step * Instant.random(in: -60...(horizon / step), using: &random)
        }
        var entries: [ScheduleEntry] = []
        for index in 0..<Int.random(in: 1...8, using: &random) {
            let window: ScheduleWindow
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                window = .always
            case 1, 2:
                let a = Bool.random(using: &random) ? gridInstant(&random) : nil
                let b = Bool.random(using: &random) ? gridInstant(&random) : nil
                window = .absolute(start: a, end: b)
            case 3:
                window = .timeToLive(microseconds: step * Instant.random(in: 0...3000, using: &random))
            default:
                let expression = calendars[Int.random(in: 0..<calendars.count, using: &random)]
                let calendar = try CalendarSpec(parsing: expression, zones: zones)
                let minutes = [1, 5, 7, 14, 20, 45, 90, 240, 480, 0][Int.random(in: 0..<10, using: &random)]
                window = .recurring(calendar: calendar, duration: Instant(minutes) * Microseconds.perMinute
                                    + (Bool.random(using: &random) ? 0 : step))
            }
            entries.append(ScheduleEntry(id: "m\(index)", priority: Int32(Int.random(in: 0...2, using: &random)),
                                         isUrgent: Bool.random(using: &random), window: window,
                                         postedAt: gridInstant(&random)))
        }
        return entries
    }

    @Test func activeSetsAndBoundariesMatchBruteForce() throws {
        var random = SeededRandom(seed: 7)
        var checkedQueries = 0
        for _ in 0..<40 {
            let entries = try Self.randomSchedule(&random)
            let references = entries.map(ReferenceEntry.init)
            let steps = Int(Self.horizon / Self.step)
            let snapshots = (0...steps).map { Self.referenceSnapshot(references, at: Self.origin + Instant($0) * Self.step) }
            // The next grid index at which the snapshot differs, for every index.
            var nextChange = [Int?](repeating: nil, count: steps + 1)
            for i in stride(from: steps - 1, through: 0, by: -1) {
                nextChange[i] = snapshots[i + 1] != snapshots[i] ? i + 1 : nextChange[i + 1]
            }
            var schedule = Schedule(entries)
            // Queries move forward from boundary to boundary, then jump back and forth at random.
            var queries: [Int] = [0]
            while let last = queries.last, let next = nextChange[last], queries.count < 60 { queries.append(next) }
            for _ in 0..<20 { queries.append(Int.random(in: 0...steps, using: &random)) }
            for index in queries {
                let t = Self.origin + Instant(index) * Self.step
                let got = Snapshot(active: schedule.activeEntries(at: t), ended: schedule.endedEntries(at: t))
                #expect(got == snapshots[index], "at step \(index) of \(entries)")
                let boundary = schedule.nextBoundary(after: t)
                if let expected = nextChange[index] {
                    #expect(boundary == Self.origin + Instant(expected) * Self.step, "boundary after step \(index) of \(entries)")
                } else {
                    #expect(boundary.map { $0 > Self.origin + Self.horizon } ?? true, "boundary after step \(index)")
                }
                for reference in references {
                    #expect(schedule.hasEnded(id: reference.entry.id, at: t) == reference.evaluate(t).ended)
                }
                checkedQueries += 1
            }
        }
        #expect(checkedQueries > 1000)
    }

    @Test("entries replaced, removed and added between queries leave no stale boundary or state behind")
    func editsBetweenQueriesMatchBruteForce() throws {
        var random = SeededRandom(seed: 23)
        let steps = Int(Self.horizon / Self.step)
        var checkedQueries = 0
        var edits = 0
        for _ in 0..<12 {
            var entries = try Self.randomSchedule(&random)
            var references = entries.map(ReferenceEntry.init)
            let pool = try (0..<3).flatMap { _ in try Self.randomSchedule(&random) }
            let poolReferences = pool.map(ReferenceEntry.init)
            var schedule = Schedule(entries)
            var index = 0
            for _ in 0..<25 {
                let t = Self.origin + Instant(index) * Self.step
                let expected = Self.referenceSnapshot(references, at: t)
                let got = Snapshot(active: schedule.activeEntries(at: t), ended: schedule.endedEntries(at: t))
                #expect(got == expected, "at step \(index) of \(entries)")
                // The reference's next change: the first grid step after this one where an entry differs.
                let now = references.map { $0.evaluate(t) }
                var next = index + 1
                scan: while next <= steps {
                    for (reference, state) in zip(references, now) {
                        let later = reference.evaluate(Self.origin + Instant(next) * Self.step)
                        if later.start != state.start || later.ended != state.ended { break scan }
                    }
                    next += 1
                }
                let boundary = schedule.nextBoundary(after: t)
                if next <= steps {
                    #expect(boundary == Self.origin + Instant(next) * Self.step, "boundary after step \(index) of \(entries)")
                } else {
                    #expect(boundary.map { $0 > Self.origin + Self.horizon } ?? true, "boundary after step \(index)")
                }
                checkedQueries += 1
                // Edit: give an entry another window (same id), remove one, or add one; then move on.
                let pick = Int.random(in: 0..<pool.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0...1 where !entries.isEmpty:
                    let position = Int.random(in: 0..<entries.count, using: &random)
                    var changed = pool[pick]
                    changed.id = entries[position].id
                    entries[position] = changed
                    references[position] = ReferenceEntry(changed, occurrencesOf: poolReferences[pick])
                    schedule.insert(changed)
                case 2 where !entries.isEmpty:
                    let position = Int.random(in: 0..<entries.count, using: &random)
                    schedule.remove(id: entries.remove(at: position).id)
                    references.remove(at: position)
                default:
                    var added = pool[pick]
                    added.id = "n\(edits)"
                    entries.append(added)
                    references.append(ReferenceEntry(added, occurrencesOf: poolReferences[pick]))
                    schedule.insert(added)
                }
                edits += 1
                index = Bool.random(using: &random) ? min(next, steps) : min(steps, index + Int.random(in: 0...40, using: &random))
            }
        }
        #expect(checkedQueries == 300 && edits == 300)
    }

    @Test func overlappingOccurrencesRestartTheWindow() throws {
        // Every 7 minutes for 20 minutes: occurrences overlap, so the message stays on and its
        // window start moves to each new occurrence.
        let calendar = try CalendarSpec(parsing: "*:0/7", zones: Self.zones)
        let entry = ScheduleEntry(id: "a", window: .recurring(calendar: calendar, duration: 20 * Microseconds.perMinute),
                                  postedAt: Self.origin)
        var schedule = Schedule([entry])
        let t = Self.origin + 30 * Microseconds.perMinute  // 00:30, occurrences 00:14, 00:21, 00:28
        #expect(schedule.activeEntries(at: t).map(\.windowStart) == [Self.origin + 28 * Microseconds.perMinute])
        #expect(schedule.nextBoundary(after: t) == Self.origin + 35 * Microseconds.perMinute)
    }

    @Test func nightlyWindowCrossesMidnight() throws {
        let calendar = try CalendarSpec(parsing: "*-*-* 22:00", zones: Self.zones)
        let entry = ScheduleEntry(id: "night", window: .recurring(calendar: calendar, duration: 8 * Microseconds.perHour),
                                  postedAt: Self.origin)
        var schedule = Schedule([entry])
        let at0300 = Self.origin + 3 * Microseconds.perHour
        #expect(schedule.activeEntries(at: at0300).map(\.windowStart) == [Self.origin - 2 * Microseconds.perHour])
        #expect(schedule.nextBoundary(after: at0300) == Self.origin + 6 * Microseconds.perHour)
        #expect(schedule.activeEntries(at: Self.origin + 6 * Microseconds.perHour).isEmpty)
        #expect(schedule.nextBoundary(after: Self.origin + 6 * Microseconds.perHour) == Self.origin + 22 * Microseconds.perHour)
    }

    @Test func timeToLiveAndAbsoluteWindowsEnd() {
        let ttl = ScheduleEntry(id: "build", window: .timeToLive(microseconds: 10 * Microseconds.perMinute),
                                postedAt: Self.origin)
        let later = ScheduleEntry(id: "later", priority: 5,
                                  window: .absolute(start: Self.origin + Microseconds.perHour, end: nil),
                                  postedAt: Self.origin)
        var schedule = Schedule([ttl, later])
        #expect(schedule.activeEntries(at: Self.origin).map(\.id) == ["build"])
        #expect(schedule.nextBoundary(after: Self.origin) == Self.origin + 10 * Microseconds.perMinute)
        #expect(schedule.endedEntries(at: Self.origin + 10 * Microseconds.perMinute) == ["build"])
        #expect(schedule.nextBoundary(after: Self.origin + 10 * Microseconds.perMinute) == Self.origin + Microseconds.perHour)
        #expect(schedule.activeEntries(at: Self.origin + Microseconds.perHour).map(\.id) == ["later"])
        #expect(schedule.nextBoundary(after: Self.origin + Microseconds.perHour) == nil)
    }

    @Test func replacingAndRemovingEntriesTakesEffectAtOnce() {
        var schedule = Schedule([ScheduleEntry(id: "x", window: .always, postedAt: Self.origin)])
        #expect(schedule.activeEntries(at: Self.origin).map(\.id) == ["x"])
        schedule.insert(ScheduleEntry(id: "x", window: .timeToLive(microseconds: Microseconds.perSecond),
                                      postedAt: Self.origin))
        #expect(schedule.nextBoundary(after: Self.origin) == Self.origin + Microseconds.perSecond)
        schedule.remove(id: "x")
        #expect(schedule.activeEntries(at: Self.origin).isEmpty)
        #expect(schedule.nextBoundary(after: Self.origin) == nil)
    }

    @Test func tapeOrderIsPriorityThenStartThenID() {
        let entries = [
            ScheduleEntry(id: "b", priority: 1, window: .always, postedAt: Self.origin),
            ScheduleEntry(id: "a", priority: 1, window: .always, postedAt: Self.origin),
            ScheduleEntry(id: "early", priority: 1, window: .always, postedAt: Self.origin - 1),
            ScheduleEntry(id: "top", priority: 9, window: .always, postedAt: Self.origin + 5),
        ]
        var schedule = Schedule(entries)
        #expect(schedule.activeEntries(at: Self.origin + 10).map(\.id) == ["top", "early", "a", "b"])
    }
}

/// ``Schedule/takeChangedSlots(at:)`` hands out what changed and nothing that did not.
@Suite struct ScheduleChangedSlotsTests {
    @Test("the slots handed out are exactly those whose active entry changed, plus those edited")
    func changedSlotsAreThoseWhoseActiveEntryChanged() throws {
        var random = SeededRandom(seed: 31)
        var reported = 0
        var checked = 0
        for _ in 0..<20 {
            let entries = try ScheduleTests.randomSchedule(&random)
            let spare = try ScheduleTests.randomSchedule(&random)
            var schedule = Schedule(entries)
            var index = 0
            var before: [Int: ActiveScheduleEntry] = [:]
            var edited: Set<Int> = []
            _ = schedule.takeChangedSlots(at: ScheduleTests.origin)
            for slot in 0..<entries.count { before[slot] = schedule.activeEntry(atSlot: slot) }
            for _ in 0..<40 {
                index += Int.random(in: 1...60, using: &random)
                let t = ScheduleTests.origin + Instant(index) * ScheduleTests.step
                let changed = schedule.takeChangedSlots(at: t)
                var after: [Int: ActiveScheduleEntry] = [:]
                for slot in 0..<(entries.count + spare.count) { after[slot] = schedule.activeEntry(atSlot: slot) }
                let differing = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }
                #expect(differing.isSubset(of: changed), "at step \(index): \(differing) not in \(changed)")
                #expect(changed.subtracting(edited) == differing.subtracting(edited), "at step \(index): \(changed)")
                reported += differing.count
                checked += 1
                before = after
                edited = []
                // Sometimes replace, remove or add an entry between queries.
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let entry = spare[Int.random(in: 0..<spare.count, using: &random)]
                    edited.insert(schedule.insert(entry))
                case 1:
                    let id = entries[Int.random(in: 0..<entries.count, using: &random)].id
                    if let slot = schedule.slot(of: id) {
                        schedule.remove(id: id)
                        edited.insert(slot)
                    }
                default:
                    break
                }
            }
        }
        #expect(checked == 800)
        #expect(reported > 50, "the schedules changed too rarely to test anything")
    }
}
