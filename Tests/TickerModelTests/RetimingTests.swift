import TestSupport
import Testing
@testable import TickerModel

/// A new speed, delay or alignment goes on from the frame in view (docs/rendering.md §7 "A new
/// speed, delay or alignment"): the text a viewer sees does not jump back home when the speed changes.
@Suite struct RetimingTests {
    static let t0: Instant = 1_700_000_000_000_000
    /// 9 cells: at 9 cells/s one cycle a second.
    static let letters = Tape(content: "ABCDEFGH", gap: "|")

    static func timeline(_ settings: ChannelSettings, tape: Tape = letters) -> Timeline {
        Timeline(tape: tape, settings: settings, at: t0)
    }

    /// The frame `a` shows at `t` is the one `b` shows at `u`, for a few widths.
    static func expectSameFrames(_ a: Timeline, at t: Instant, _ b: Timeline, at u: Instant,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        for columns in [3, 5, 20] {
            let left = a.frame(columns: columns, at: t), right = b.frame(columns: columns, at: u)
            #expect(left.text == right.text, "\(columns) columns", sourceLocation: sourceLocation)
            #expect(abs(left.offset - right.offset) < 1e-3, "\(columns) columns", sourceLocation: sourceLocation)
        }
    }

    @Test("continuous: a faster speed goes on from the cell in view, at the new speed")
    func continuousFaster() throws {
        let old = Self.timeline(ChannelSettings(speed: .cellsPerSecond(4)))
        let t = Self.t0 + 3_300_000  // s = 13.2
        let new = try #require(old.retimed(to: ChannelSettings(speed: .cellsPerSecond(12)), at: t))
        Self.expectSameFrames(new, at: t, old, at: t)
        // 0.5 s later at 12 cells/s: s = 19.2, where the old speed is at 4.8 s.
        Self.expectSameFrames(new, at: t + 500_000, old, at: Self.t0 + 4_800_000)
        #expect(new.speed == 12)
    }

    @Test("continuous: a start delay not yet over keeps what is left of it")
    func continuousInStartDelay() throws {
        let settings = ChannelSettings(speed: .cellsPerSecond(4), delay: 2_000_000)
        let faster = ChannelSettings(speed: .cellsPerSecond(8), delay: 2_000_000)
        let new = try #require(Self.timeline(settings).retimed(to: faster, at: Self.t0 + 1_000_000))
        // As if it had started at the new speed: still at 1.9 s, then 8 cells/s from 2 s.
        for after in [1_900_000, 2_250_000, 3_000_000] as [Int64] {
            Self.expectSameFrames(new, at: Self.t0 + after, Self.timeline(faster), at: Self.t0 + after)
        }
    }

    @Test("continuous with loops: the loops made count, and it stops where it would have")
    func continuousLoops() throws {
        let old = Self.timeline(ChannelSettings(speed: .cellsPerSecond(9), loops: 2))
        let t = Self.t0 + 1_500_000  // s = 13.5 of 18
        let new = try #require(old.retimed(to: ChannelSettings(speed: .cellsPerSecond(18), loops: 2), at: t))
        Self.expectSameFrames(new, at: t, old, at: t)
        // 0.1 s at 18 cells/s: s = 15.3 (the old speed's 1.7 s); 4.5 cells left take 0.25 s.
        Self.expectSameFrames(new, at: t + 100_000, old, at: Self.t0 + 1_700_000)
        Self.expectSameFrames(new, at: t + 250_000, old, at: Self.t0 + 60_000_000)
        #expect(new.frame(columns: 5, at: t + 60_000_000).extras.cycle == 2)
        // Done: holding at the end, it stays there at any speed.
        let done = try #require(old.retimed(to: ChannelSettings(speed: .cellsPerSecond(0.5), loops: 2), at: Self.t0 + 5_000_000))
        for after in [5_000_000, 6_000_000, 600_000_000] as [Int64] {
            Self.expectSameFrames(done, at: Self.t0 + after, old, at: Self.t0 + after)
        }
    }

    @Test("continuous: a new start delay counts from the same start; once moving it changes nothing in view")
    func continuousDelay() throws {
        let old = Self.timeline(ChannelSettings(speed: .cellsPerSecond(4), delay: 3_000_000))
        let longer = ChannelSettings(speed: .cellsPerSecond(4), delay: 5_000_000)
        let shorter = ChannelSettings(speed: .cellsPerSecond(4), delay: 1_000_000)
        // 2 s into a 3 s wait: 5 s from the same start, as if it had been 5 s all along.
        let waiting = try #require(old.retimed(to: longer, at: Self.t0 + 2_000_000))
        for after in [2_000_000, 4_900_000, 5_500_000, 9_000_000] as [Int64] {
            Self.expectSameFrames(waiting, at: Self.t0 + after, Self.timeline(longer), at: Self.t0 + after)
        }
        // A wait already longer than the new one: the text moves from now on.
        let now = Self.t0 + 2_000_000
        let started = try #require(old.retimed(to: shorter, at: now))
        Self.expectSameFrames(started, at: now, old, at: now)
        Self.expectSameFrames(started, at: now + 500_000, old, at: Self.t0 + 3_500_000)
        // Moving: the frame stays, the motion goes on at the same speed.
        let moving = try #require(old.retimed(to: longer, at: Self.t0 + 4_000_000))
        for after in [4_000_000, 4_300_000, 8_000_000] as [Int64] {
            Self.expectSameFrames(moving, at: Self.t0 + after, old, at: Self.t0 + after)
        }
    }

    @Test("scroll: a new hold lengthens or ends the hold under way; a move under way goes on")
    func scrollDelay() throws {
        // 9 cells/s: T = 1 s; hold 1 s, P = 2 s. At 2.5 s: cycle 1, 0.5 s into its hold.
        let old = Self.timeline(ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 1_000_000))
        let t = Self.t0 + 2_500_000
        let longer = try #require(old.retimed(to: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 3_000_000), at: t))
        Self.expectSameFrames(longer, at: t + 2_400_000, old, at: t)  // holds 2.5 s more
        Self.expectSameFrames(longer, at: t + 3_000_000, old, at: Self.t0 + 3_500_000)  // half way
        let shorter = try #require(old.retimed(to: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 200_000), at: t))
        Self.expectSameFrames(shorter, at: t, old, at: t)
        Self.expectSameFrames(shorter, at: t + 500_000, old, at: Self.t0 + 3_500_000)  // moving from t
        // In a move: it goes on as it was; the next hold is the new one.
        let inMove = Self.t0 + 3_250_000
        let moving = try #require(old.retimed(to: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 3_000_000), at: inMove))
        Self.expectSameFrames(moving, at: inMove + 250_000, old, at: Self.t0 + 3_500_000)
        Self.expectSameFrames(moving, at: inMove + 3_500_000, old, at: Self.t0 + 4_000_000)  // holding at 18
    }

    @Test("scroll: the hold under way goes on, then the move takes the new time")
    func scrollInHold() throws {
        // 9 cells/s: T = 1 s, delay 1 s, P = 2 s. At 2.5 s: cycle 1, 0.5 s into its hold.
        let old = Self.timeline(ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 1_000_000))
        let t = Self.t0 + 2_500_000
        let new = try #require(old.retimed(to: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(18), delay: 1_000_000), at: t))
        Self.expectSameFrames(new, at: t, old, at: t)
        Self.expectSameFrames(new, at: t + 400_000, old, at: t)  // still holding
        // 0.25 s into a 0.5 s move: half way, where the old move is at 3.5 s.
        Self.expectSameFrames(new, at: t + 750_000, old, at: Self.t0 + 3_500_000)
        // The next hold at home: cycle 2.
        Self.expectSameFrames(new, at: t + 1_200_000, old, at: Self.t0 + 4_200_000)
    }

    @Test("scroll: a move under way goes on from the same point, eased the same")
    func scrollInMove() throws {
        for easing in [Easing.linear, .easeInOutCubic] {
            let settings = ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 1_000_000, easing: easing)
            let slower = ChannelSettings(mode: .scroll, speed: .cellsPerSecond(4.5), delay: 1_000_000, easing: easing)
            let old = Self.timeline(settings)
            let t = Self.t0 + 3_250_000  // cycle 1, a quarter into its 1 s move
            let new = try #require(old.retimed(to: slower, at: t))
            Self.expectSameFrames(new, at: t, old, at: t)
            // Half way through the 2 s move at 4.5 cells/s, where the old move is half way at 3.5 s.
            Self.expectSameFrames(new, at: t + 500_000, old, at: Self.t0 + 3_500_000)
        }
    }

    @Test("scroll with loops: the cycles made count")
    func scrollLoops() throws {
        let settings = ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 1_000_000, loops: 2)
        let old = Self.timeline(settings)
        var faster = settings
        faster.speed = .cellsPerSecond(18)
        let t = Self.t0 + 2_500_000  // cycle 1 of 2
        let new = try #require(old.retimed(to: faster, at: t))
        Self.expectSameFrames(new, at: t, old, at: t)
        // Cycle 1 ends at t + 1 s; then it holds at 18 for ever, as the old one does after 4 s.
        Self.expectSameFrames(new, at: t + 1_000_000, old, at: Self.t0 + 4_000_000)
        Self.expectSameFrames(new, at: t + 90_000_000, old, at: Self.t0 + 90_000_000)
    }

    @Test("paused: frozen where it was; on resume it moves on at the new speed")
    func paused() throws {
        let old = Self.timeline(ChannelSettings(speed: .cellsPerSecond(8))).paused(at: Self.t0 + 2_000_000)
        let new = try #require(old.retimed(to: ChannelSettings(speed: .cellsPerSecond(16)), at: Self.t0 + 5_000_000))
        Self.expectSameFrames(new, at: Self.t0 + 6_000_000, old, at: Self.t0 + 2_000_000)
        // s = 16 when it froze; 0.5 s at 16 cells/s after the resume: s = 24, the old speed's 3 s.
        let resumed = new.resumed(at: Self.t0 + 7_000_000)
        let moving = Self.timeline(ChannelSettings(speed: .cellsPerSecond(8)))
        Self.expectSameFrames(resumed, at: Self.t0 + 7_500_000, moving, at: Self.t0 + 3_000_000)
    }

    @Test("a pending change keeps its seam, reached at the new speed")
    func pendingChange() throws {
        let wide = Tape(content: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", gap: "|")
        let old = Self.timeline(ChannelSettings(speed: .cellsPerSecond(4)), tape: wide)
            .applying(Tape(content: "0123456789", gap: "|"), at: Self.t0 + 1_000_000, seamColumns: 10)
        let pending = try #require(old.pending)
        let t = Self.t0 + 2_000_000
        let new = try #require(old.retimed(to: ChannelSettings(speed: .cellsPerSecond(8)), at: t))
        Self.expectSameFrames(new, at: t, old, at: t)
        #expect(new.pending?.switchPosition == pending.switchPosition)
        #expect(new.pending?.speed == 8)
        // s = 8 at t; the seam is reached after (seam − 8) / 8 s.
        let distance = Double(pending.switchPosition - 8)
        #expect(new.switchInstant == t + StreamMotion.durationUp(cells: distance, speed: 8))
        // Past the seam both show the new tape, at the same place of the stream.
        let after = try #require(new.switchInstant) + 1_000_000
        let oldAfter = try #require(old.switchInstant) + 2_000_000
        Self.expectSameFrames(new, at: after, old, at: oldAfter)
    }

    @Test("alignment: text that fits moves to its new place, text that scrolls goes on")
    func alignment() throws {
        let old = Self.timeline(ChannelSettings(speed: .cellsPerSecond(4)))
        let t = Self.t0 + 3_300_000
        let right = ChannelSettings(speed: .cellsPerSecond(4), align: .right)
        let new = try #require(old.retimed(to: right, at: t))
        #expect(new.frame(columns: 12, at: t).text == "    ABCDEFGH")
        #expect(old.frame(columns: 12, at: t).text == "ABCDEFGH    ")
        for columns in [3, 5] {
            #expect(new.frame(columns: columns, at: t) == old.frame(columns: columns, at: t))
        }
    }

    @Test("bounce and phase-locked motion take a new alignment without a restart")
    func alignmentAlone() throws {
        for settings in [ChannelSettings(mode: .bounce, speed: .cellsPerSecond(4)),
                         ChannelSettings(speed: .cycleDuration(2_000_000), phase: .wallClock)] {
            let old = Self.timeline(settings)
            var centred = settings
            centred.align = .center
            let t = Self.t0 + 3_300_000
            let new = try #require(old.retimed(to: centred, at: t))
            #expect(new.frame(columns: 12, at: t).text == "  ABCDEFGH  ")
            for after in [0, 700_000, 5_000_000] as [Int64] {
                for columns in [3, 5] {
                    #expect(new.frame(columns: columns, at: t + after) == old.frame(columns: columns, at: t + after))
                }
            }
        }
    }

    @Test("static and pages do not move at a speed: every frame stays as it was")
    func staticAndPages() throws {
        for mode in [Mode.static, .pages] {
            let old = Self.timeline(ChannelSettings(mode: mode, speed: .cellsPerSecond(4)), tape: Tape(content: "one two three four five six", gap: "|"))
            let new = try #require(old.retimed(to: ChannelSettings(mode: mode, speed: .cellsPerSecond(40)), at: Self.t0 + 1_000_000))
            for after in [1_000_000, 3_000_000, 9_000_000] as [Int64] {
                Self.expectSameFrames(new, at: Self.t0 + after, old, at: Self.t0 + after)
            }
        }
    }

    @Test("bounce and phase-locked motion cannot go on from where they are: nil, the caller restarts")
    func notRetimed() {
        let bounce = Self.timeline(ChannelSettings(mode: .bounce, speed: .cellsPerSecond(4)))
        #expect(bounce.retimed(to: ChannelSettings(mode: .bounce, speed: .cellsPerSecond(8)), at: Self.t0 + 1_000_000) == nil)
        let locked = Self.timeline(ChannelSettings(speed: .cellsPerSecond(4), phase: .wallClock))
        #expect(locked.retimed(to: ChannelSettings(speed: .cellsPerSecond(8), phase: .wallClock), at: Self.t0 + 1_000_000) == nil)
    }

    @Test("speed, delay, alignment, separator and gap keep the motion; mode, direction and the rest do not")
    func whatKeepsTheMotion() {
        let settings = ChannelSettings(speed: .cellsPerSecond(4))
        #expect(ChannelSettings(speed: .cycleDuration(3_000_000), align: .center).keepsMotion(of: settings))
        #expect(ChannelSettings(speed: .cellsPerSecond(8), separator: " | ", gap: " ").keepsMotion(of: settings))
        #expect(!ChannelSettings(speed: .cellsPerSecond(8), direction: .right).keepsMotion(of: settings))
        #expect(!ChannelSettings(mode: .scroll, speed: .cellsPerSecond(4)).keepsMotion(of: settings))
        #expect(ChannelSettings(speed: .cellsPerSecond(4), delay: 1).keepsMotion(of: settings))
        #expect(!ChannelSettings(speed: .cellsPerSecond(4), easing: .easeInCubic).keepsMotion(of: settings))
        #expect(!ChannelSettings(speed: .cellsPerSecond(4), loops: 2).keepsMotion(of: settings))
    }

    @Test("random tapes, settings and instants: the frame at the change is the frame before it")
    func randomChanges() {
        var rng = SeededRandom(seed: 0x5EED_0A1E)
        var retimed = 0
        for trial in 0..<400 {
            let (timeline, settings, t) = NextChangeTests.randomTimeline(&rng)
            var next = FramePropertyTests.randomSettings(&rng)
            next.mode = settings.mode
            next.easing = settings.easing
            next.loops = settings.loops
            next.direction = settings.direction
            next.align = settings.align  // still text placed otherwise is the point of a new alignment
            guard let new = timeline.retimed(to: next, at: t) else {
                #expect(settings.mode == .bounce, "trial \(trial): only bounce is never re-timed here")
                continue
            }
            retimed += 1
            for columns in [1, 7, 30] {
                let before = timeline.frame(columns: columns, at: t), after = new.frame(columns: columns, at: t)
                // Rounding to whole µs may move the stream by a hundredth of a cell: a frame on the
                // edge of a cell may then show its neighbour.
                guard before.offset == 0 || (before.offset > 0.02 && before.offset < 0.98) else { continue }
                #expect(after.text == before.text, "trial \(trial) mode \(settings.mode) \(columns) columns")
                #expect(abs(after.offset - before.offset) < 0.011, "trial \(trial) mode \(settings.mode)")
            }
        }
        #expect(retimed > 250)
    }

    @Test("extreme speeds, loops, delays and instants: never a trap, and never a jump when re-timed")
    func extremes() {
        let speeds: [Speed] = [.cellsPerSecond(1e-300), .cellsPerSecond(1e-9), .cellsPerSecond(0.001),
                               .cellsPerSecond(10_000), .cycleDuration(ChannelSettings.minimumCycle), .cycleDuration(Int64.max / 2)]
        let delays: [Int64?] = [nil, 0, 1, ChannelSettings.maximumDelay]
        let later: [Int64] = [1, 999_999, 86_400_000_000, 40 * 365 * 86_400_000_000]
        let cases = [Mode.continuous, .scroll].flatMap { mode in
            [UInt32(0), 1, .max].flatMap { loops in delays.flatMap { delay in speeds.map { (mode, loops, delay, $0) } } }
        }
        var retimedCount = 0
        for (mode, loops, delay, old) in cases {
            let settings = ChannelSettings(mode: mode, speed: old, delay: delay, loops: loops)
            let timeline = Self.timeline(settings)
            for new in speeds {
                var next = settings
                next.speed = new
                for after in later {
                    let t = Self.t0 + after
                    guard let retimed = timeline.retimed(to: next, at: t) else { continue }
                    retimedCount += 1
                    let before = timeline.frame(columns: 4, at: t), now = retimed.frame(columns: 4, at: t)
                    guard before.offset == 0 || (before.offset > 0.02 && before.offset < 0.98) else { continue }
                    #expect(now.text == before.text, "\(mode) loops \(loops) delay \(String(describing: delay)) \(old) → \(new) at +\(after)")
                }
            }
        }
        #expect(retimedCount > cases.count * speeds.count)
    }
}
