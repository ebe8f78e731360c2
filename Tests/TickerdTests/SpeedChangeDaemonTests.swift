import DBus
import Foundation
import Testing
import TestSupport
import TickerModel

/// A new speed or delay, by `Configure` or by a reloaded configuration file, goes on from the
/// frame in view (docs/rendering.md §7 "A new speed, delay or alignment"): a person who slows the
/// ticker down sees the text they were reading slow down, not jump back to its start. On a real
/// tickerd on a private bus, with busctl as an independent peer for `Render`.
@Suite struct SpeedChangeDaemonTests {
    static let text = "Northbound trains run every ten minutes until midnight, then every half hour"

    /// The frame `after` shows at the instant it took effect is the one `before` showed there, and
    /// the daemon's own `Render` (asked with busctl) agrees.
    static func expectNoJump(_ fixture: DaemonFixture, from before: Timeline, to after: Timeline, at t: Instant,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        for columns in [12, 40] {
            let old = before.frame(columns: columns, at: t), new = after.frame(columns: columns, at: t)
            #expect(new.text == old.text, "\(columns) columns", sourceLocation: sourceLocation)
            #expect(abs(new.offset - old.offset) < 0.02, "\(columns) columns: offset \(new.offset), was \(old.offset)",
                    sourceLocation: sourceLocation)
            #expect(try fixture.render(columns: columns, at: t).text == old.text, sourceLocation: sourceLocation)
        }
    }

    @Test func aNewSpeedGoesOnFromTheFrameInView() throws {
        let fixture = try DaemonFixture()
        let client = try BusClient(address: fixture.address)
        _ = try fixture.post(Self.text)
        // Fast, so that the few milliseconds between two calls move the text by whole cells.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "speed", "d", "1000"])
        let fast = try PhaseLockDaemonTests.timeline(client)

        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "speed", "d", "10"])
        let slow = try PhaseLockDaemonTests.timeline(client)
        #expect(slow.speed == 10)
        // Continuous with no start delay: the new motion starts where the old one was, at its anchor.
        #expect(slow.position > 0, "the text went back home")
        try Self.expectNoJump(fixture, from: fast, to: slow, at: slow.anchor)
        // One second on, ten cells further.
        #expect(slow.frame(columns: 40, at: slow.anchor + 1_000_000).text
            == fast.frame(columns: 40, at: slow.anchor + 10_000).text)

        // The same for a speed given as a cycle, and for one from a reloaded configuration file.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "cycle", "x", "200000"])
        let cycled = try PhaseLockDaemonTests.timeline(client)
        try Self.expectNoJump(fixture, from: slow, to: cycled, at: cycled.anchor)
        try fixture.daemon.writeConfig("[channel.main]\nspeed = 300\n")
        _ = try fixture.call("Reload")
        let reloaded = try PhaseLockDaemonTests.timeline(client)
        #expect(reloaded.speed == 300)
        try Self.expectNoJump(fixture, from: cycled, to: reloaded, at: reloaded.anchor)

        // A new start delay while the text moves changes nothing in view.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "delay", "x", "5000000"])
        let delayed = try PhaseLockDaemonTests.timeline(client)
        #expect(delayed.delay == 5_000_000)
        try Self.expectNoJump(fixture, from: reloaded, to: delayed, at: delayed.anchor + delayed.delay)

        // A new separator is new content: the text in view goes on, and it comes in at a seam (slow
        // enough that no seam is reached while the test runs).
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "speed", "d", "3"])
        _ = try fixture.post("Southbound trains are on time")
        let posted = try PhaseLockDaemonTests.timeline(client)
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "separator", "s", " | "])
        let separated = try PhaseLockDaemonTests.timeline(client)
        #expect(separated.anchor == posted.anchor && separated.position == posted.position, "the motion started over")
        #expect(separated.pending?.tape.text == Self.text + " | Southbound trains are on time | ")
        #expect(try fixture.property("main", "Text").value as? String == Self.text + " | Southbound trains are on time")

        // Another mode is another motion: it starts at home.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "mode", "s", "scroll"])
        let scroll = try PhaseLockDaemonTests.timeline(client)
        #expect(scroll.position == 0)
        #expect(try fixture.render(columns: 12, at: scroll.anchor).text == "Northbound t")
    }
}
