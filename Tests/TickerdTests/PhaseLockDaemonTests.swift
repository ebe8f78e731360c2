import DBus
import Foundation
import Testing
import TestSupport
import TickerModel

/// Phase-locked channels across real daemons (docs/rendering.md §13): three tickerd instances on
/// their own buses get the same messages at different moments and in different orders, one of
/// them restarted and one started late; a change scheduled with `start` is applied at that instant
/// by each. Once every daemon's changes have settled, `Render(c, columns, at)` is the same on all
/// of them — checked over the bus for 1,000 instants, and with busctl as an independent peer.
@Suite(.serialized) struct PhaseLockDaemonTests {
    static let channelPath = DaemonFixture.channelPath("main")
    static let properties = "org.freedesktop.DBus.Properties"
    static let texts = ["m1": "Northbound trains run every ten minutes", "m2": "Lift B is out of service",
                        "m3": "Platform 4 closes at 22:00", "m4": "Storm warning from 18:00"]

    /// Makes `main` phase-locked, 9 cells a second.
    static func configure(_ fixture: DaemonFixture) throws {
        _ = try fixture.call("Configure", "sa{sv}", ["main", "2", "phase", "s", "wall-clock", "speed", "d", "9"])
    }

    /// Posts message `id` (with a scheduled `start` when given).
    static func post(_ fixture: DaemonFixture, _ id: String, start: Instant? = nil) throws {
        var options = ["id", "s", id]
        if let start { options += ["start", "x", "\(start)"] }
        _ = try fixture.post(try #require(texts[id]), options: options)
    }

    /// The channel's published Timeline, read back by the model.
    static func timeline(_ client: BusClient) throws -> Timeline {
        let reply = try client.call(
            path: channelPath, interface: properties, member: "Get",
            [.string(DaemonFixture.channelInterface), .string("Timeline")])
        let entries = try #require(reply.first?.unwrappingVariant.vardictValue)
        var fields: [String: TimelineValue] = [:]
        for (key, value) in entries {
            switch value.unwrappingVariant {
            case let .string(text): fields[key] = .string(text)
            case let .double(number): fields[key] = .double(number)
            case let .int64(number): fields[key] = .int64(number)
            case let .uint32(number): fields[key] = .uint32(number)
            default: Issue.record("unexpected Timeline value for \(key): \(value)")
            }
        }
        return try Timeline(fields: fields)
    }

    /// Whether `timeline` shows, or will show once its pending change settles, every message.
    static func holdsEverything(_ timeline: Timeline) -> Bool {
        let final = timeline.pending?.tape ?? timeline.tape
        return texts.values.allSatisfy { final.text.contains($0) }
    }

    /// `Render(columns, at)` over `client`: text, offset and extras as the daemon sent them.
    static func render(_ client: BusClient, columns: Int, at t: Instant) throws -> [DBusValue] {
        try client.call(
            path: channelPath, interface: DaemonFixture.channelInterface, member: "Render", [.uint32(UInt32(columns)), .int64(t)])
    }

    @Test func threeDaemonsRenderTheSameFramesWhateverWhenTheyGotTheContent() throws {
        let a = try DaemonFixture()
        let b = try DaemonFixture()
        try Self.configure(a)
        for id in ["m1", "m2", "m3"] { try Self.post(a, id) }
        // b gets them later and in another order: a phase-locked tape is ordered by id.
        try Self.configure(b)
        for id in ["m3", "m1", "m2"] { try Self.post(b, id) }
        // A change scheduled 3 s ahead: each daemon applies it at that instant, whenever it wakes.
        let start = DaemonFixture.now() + 3_000_000
        try Self.post(a, "m4", start: start)
        try Self.post(b, "m4", start: start)
        // b restarts (its state comes back from disk); c joins late with the messages in yet
        // another order, the scheduled one first.
        try b.daemon.restart()
        // The setting came back from b's state: b still refuses to pause.
        #expect(try b.gdbusErrorName(DaemonFixture.managerPath, "\(DaemonFixture.control).Pause", ["main"])
            == "io.github.tickerd.Ticker1.Error.PhaseLocked")
        let c = try DaemonFixture()
        try Self.configure(c)
        for id in ["m4", "m2", "m3", "m1"] { try Self.post(c, id, start: id == "m4" ? start : nil) }
        let fixtures = [a, b, c]
        let clients = try fixtures.map { try BusClient(address: $0.address) }

        // Wait (polling, with a deadline) until every daemon's Timeline holds the final content,
        // on its tape or pending: m4 joins at its start, or — when the previous change was then
        // entering the view — when that one settles (the daemon holds it back until then).
        let deadline = ContinuousClock.now + .seconds(90)
        var timelines: [Timeline] = []
        repeat {
            timelines = try clients.map { try Self.timeline($0) }
        } while !timelines.allSatisfy({ Self.holdsEverything($0) }) && ContinuousClock.now < deadline
        try #require(timelines.allSatisfy { Self.holdsEverything($0) }, "not every daemon got every message in time")
        #expect(timelines.allSatisfy { $0.isPhaseLocked })
        // Sample only after every daemon has passed its seams: each pending change settles at the
        // instant its Timeline gives (`settleInstant`), and from then on every daemon's frames come
        // from the same canonical timeline. Before that, a daemon whose change came at another
        // instant (a's and b's own posts, c's late posts) may still be between its seams.
        let from = max(DaemonFixture.now(), timelines.compactMap(\.settleInstant).max() ?? 0)
        let settled = timelines.map { $0.settled(at: from) }
        #expect(settled.allSatisfy { $0 == settled[0] }, "the daemons settle into different timelines")

        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var texts = Set<String>()
        for index in 0..<1000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let t = from + Int64(state >> 24) % 600_000_000
            let columns = [20, 33, 80][index % 3]
            let frames = try clients.map { try Self.render($0, columns: columns, at: t) }
            #expect(frames[1] == frames[0] && frames[2] == frames[0], "at \(t), \(columns) columns: \(frames)")
            if let text = frames[0].first?.stringValue { texts.insert(text) }
            if index % 50 == 0 {
                // busctl, an independent client, reads the same frame from the late joiner.
                let viaBusctl = try c.render(columns: columns, at: t)
                #expect(viaBusctl.text == frames[0].first?.stringValue)
                #expect(abs(viaBusctl.offset - (frames[0].dropFirst().first?.doubleValue ?? -1)) < 1e-9)
            }
        }
        // The samples saw the text move and every message pass by.
        #expect(texts.count > 250) // of at most 3 × 129 (three widths, one per cell of the tape)
        for text in Self.texts.values { #expect(texts.contains { $0.contains(text.prefix(12)) }, "never saw \(text)") }
    }

    @Test func pauseIsRefusedAndBadValuesNamed() throws {
        let fixture = try DaemonFixture()
        try Self.configure(fixture)
        #expect(try fixture.gdbusErrorName(DaemonFixture.managerPath, "\(DaemonFixture.control).Pause", ["main"])
            == "io.github.tickerd.Ticker1.Error.PhaseLocked")
        #expect(try fixture.property("main", "Paused").value as? NSNumber == 0)
        let bad = try fixture.callFailing("Configure", "sa{sv}", ["main", "1", "phase", "s", "sundial"])
        #expect(bad.contains("phase") && bad.contains("wall-clock"), "\(bad)")
        let loops = try fixture.callFailing("Configure", "sa{sv}", ["main", "1", "loops", "u", "3"])
        #expect(loops.contains("loops"), "\(loops)")
        // Back to local: pausing works again.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "phase", "s", "local"])
        _ = try fixture.call("Pause", "s", ["main"])
        #expect(try fixture.property("main", "Paused").value as? NSNumber == 1)
        // A paused channel cannot become phase-locked.
        #expect(try fixture.gdbusErrorName(
            DaemonFixture.managerPath, "\(DaemonFixture.control).Configure", ["main", "{'phase': <'wall-clock'>}"])
            == "io.github.tickerd.Ticker1.Error.PhaseLocked")
    }

    @Test func theConfigurationFileSetsPhaseAndNamesABadOne() throws {
        let fixture = try DaemonFixture(config: "[channel.lobby]\nphase = \"wall-clock\"\n")
        let timeline = try fixture.property("lobby", "Timeline").dictionary
        #expect(timeline["phase"] as? String == "wall-clock")
        try fixture.daemon.writeConfig("[channel.lobby]\nphase = \"atomic\"\n")
        let error = try fixture.callFailing("Reload", "", [], interface: DaemonFixture.control)
        // File, line and key: "…/tickerd.toml:2: channel.lobby.phase: must be one of local, wall-clock, …".
        #expect(error.contains("tickerd.toml:2: channel.lobby.phase: must be one of local, wall-clock"), "\(error)")
    }
}
