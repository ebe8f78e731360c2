import Testing
import TickerModel
@testable import tickerd

/// The manager of a phase-locked channel with clocks moved by hand: changes the schedule makes are
/// applied at their scheduled instants, and a change held while another entered the view at that
/// one's settle instant — however late each screen wakes — so screens compute the very same
/// Timeline (docs/rendering.md §13).
@Suite struct PhaseLockManagerTests {
    /// A clock the test moves by hand.
    final class ManualClock: @unchecked Sendable {
        var now: Instant
        init(_ now: Instant) { self.now = now }
    }

    static let base: Instant = 1_800_000_000_000_000
    /// When m4 starts: long after the first posts' changes have settled on every screen.
    static let start: Instant = base + 60_000_000

    /// A screen: `main` phase-locked at 6 cells a second, m1–m3 posted from `postedAt` in the
    /// order given, m4 scheduled at ``start``.
    static func screen(order: [String], postedAt: Instant) throws -> (Manager, ManualClock) {
        let clock = ManualClock(postedAt)
        let manager = Manager(zones: ZoneTable(), clock: { clock.now })
        var configure = ChannelConfigureRequest()
        configure.phase = .wallClock
        configure.speed = 6
        try manager.configure(channel: "main", request: configure)
        for id in order {
            var request = MessageRequest()
            request.id = id
            _ = try manager.post(channel: "main", text: "message \(id) of the fleet", request: request)
            clock.now += 300_000
        }
        try post(manager, "m4", at: start)
        return (manager, clock)
    }

    static func post(_ manager: Manager, _ id: String, at start: Instant) throws {
        var request = MessageRequest()
        request.id = id
        request.start = start
        _ = try manager.post(channel: "main", text: "scheduled \(id)", request: request)
    }

    /// Ticks at every instant the manager asks to be woken up, `late` µs late, through `end`.
    static func run(_ manager: Manager, _ clock: ManualClock, late: Int64, through end: Instant) {
        while let wake = manager.nextWake(), wake <= end {
            clock.now = max(clock.now, wake + late)
            manager.tick()
        }
        clock.now = max(clock.now, end)
        manager.tick()
    }

    @Test func scheduledAndHeldChangesAreAppliedAtInstantsEveryScreenShares() throws {
        let (early, earlyClock) = try Self.screen(order: ["m1", "m2", "m3"], postedAt: Self.base)
        let (late, lateClock) = try Self.screen(order: ["m3", "m2", "m1"], postedAt: Self.base + 2_000_000)
        Self.run(early, earlyClock, late: 1_000, through: Self.start + 50_000)
        Self.run(late, lateClock, late: 400_000, through: Self.start + 500_000)
        let a = try #require(early.channels["main"]?.timeline)
        let b = try #require(late.channels["main"]?.timeline)
        // Both took m4 at its start, with the tape in id order: the same Timeline, seam and all.
        #expect(a.pending?.changedAt == Self.start)
        #expect(early.channels["main"]?.activeIDs == ["m1", "m2", "m3", "m4"])
        #expect(late.channels["main"]?.activeIDs == ["m1", "m2", "m3", "m4"])
        #expect(a == b)

        // m5 starts just before m4's switch, when that change is entering the view: each screen
        // holds m5 and applies it when m4's change settles — at the settle instant, not its wake.
        let switchAt = try #require(a.switchInstant)
        let settleAt = try #require(a.settleInstant)
        try Self.post(early, "m5", at: switchAt - 100_000)
        try Self.post(late, "m5", at: switchAt - 100_000)
        Self.run(early, earlyClock, late: 2_000, through: switchAt)
        Self.run(late, lateClock, late: 300_000, through: switchAt + 250_000)
        #expect(early.channels["main"]?.tapeHeld == true && late.channels["main"]?.tapeHeld == true)
        Self.run(early, earlyClock, late: 3_000, through: settleAt + 10_000)
        Self.run(late, lateClock, late: 600_000, through: settleAt + 700_000)
        let heldA = try #require(early.channels["main"]?.timeline)
        let heldB = try #require(late.channels["main"]?.timeline)
        #expect(heldA.pending?.changedAt == settleAt)
        #expect(heldA.pending?.tape.text.contains("scheduled m5") == true)
        #expect(heldA == heldB)
        for step in 0..<200 {
            let t = settleAt + Int64(step) * 97_003
            #expect(early.channels["main"]?.frame(columns: 24, at: t) == late.channels["main"]?.frame(columns: 24, at: t))
        }
    }
}
