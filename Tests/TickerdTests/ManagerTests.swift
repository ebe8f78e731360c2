import Testing
import TickerModel
@testable import tickerd

/// The manager in-process, with an injected clock and an in-memory store: the paths that a real
/// clock cannot reach in a test (wall-clock jumps, a failing disk).
@Suite struct ManagerTests {
    /// A clock the test moves by hand.
    final class ManualClock: @unchecked Sendable {
        var now: Instant
        init(_ now: Instant) { self.now = now }
    }

    /// Records events as the bus surface would receive them.
    final class Recorder: ManagerObserver {
        var events: [ManagerEvent] = []
        var frames: [(Frame, String, String?)] = []
        /// How many events each delivered batch held.
        var batches: [Int] = []
        private var batch = 0
        func manager(_ manager: Manager, didEmit event: ManagerEvent) {
            events.append(event)
            batch += 1
        }
        func managerDidDeliverEvents(_ manager: Manager) {
            batches.append(batch)
            batch = 0
        }
        func manager(_ manager: Manager, sendFrame frame: Frame, channel: String, to destination: String?) -> Bool {
            frames.append((frame, channel, destination))
            return true
        }
    }

    static let base: Instant = 1_800_000_000_000_000

    func makeManager(_ clock: ManualClock) -> (Manager, Recorder) {
        let manager = Manager(zones: ZoneTable(), clock: { clock.now })
        let recorder = Recorder()
        manager.observer = recorder
        return (manager, recorder)
    }

    @Test func aWallClockJumpReEvaluatesTheScheduleAtOnce() throws {
        let clock = ManualClock(Self.base)
        let (manager, recorder) = makeManager(clock)
        var request = MessageRequest()
        request.start = Self.base + 3_600_000_000
        let id = try manager.post(channel: "main", text: "an hour from now", request: request)
        #expect(manager.channels["main"]?.activeIDs == [])
        #expect(manager.nextWake() == Self.base + 3_600_000_000)

        // The clock steps forward by two hours (NTP, suspend): the daemon's jump handler ticks.
        clock.now = Self.base + 7_200_000_000
        manager.tick()
        #expect(manager.channels["main"]?.activeIDs == [id])
        #expect(recorder.events.contains(.messageStarted(channel: "main", id: id)))

        // And back again: the message leaves the tape, as the schedule says.
        clock.now = Self.base
        manager.tick()
        #expect(manager.channels["main"]?.activeIDs == [])
        #expect(recorder.events.contains(.messageEnded(channel: "main", id: id, reason: .expired)))
    }

    @Test("each stored change ends its events with one end-of-batch call (the daemon logs them after the signals)")
    func eventsEndWithOneBatchCall() throws {
        let clock = ManualClock(Self.base)
        let (manager, recorder) = makeManager(clock)
        _ = try manager.post(channel: "main", text: "first", request: MessageRequest())
        #expect(recorder.events.count >= 2 && recorder.batches == [recorder.events.count])
        let afterFirst = recorder.events.count
        clock.now += 1_000_000
        _ = try manager.post(channel: "main", text: "second", request: MessageRequest())
        #expect(recorder.batches.count == 2 && recorder.batches[1] == recorder.events.count - afterFirst)
        clock.now += 1_000_000
        manager.tick()
        #expect(recorder.batches.count == 2, "a wake-up with nothing to report ends no batch")
    }

    @Test func aFailedStoreRollsBackAndLosesNothing() throws {
        let clock = ManualClock(Self.base)
        let (manager, recorder) = makeManager(clock)
        let store = MemoryStore()
        manager.store = store
        let kept = try manager.post(channel: "main", text: "stored", request: MessageRequest())
        store.failing = true
        #expect(throws: TickerError.self) {
            try manager.post(channel: "main", text: "not stored", request: MessageRequest())
        }
        // The refused post left nothing behind: not in memory, not announced.
        #expect(Array(manager.messages.keys) == [kept])
        #expect(manager.channels["main"]?.activeTexts == ["stored"])
        #expect(recorder.events.filter { if case .messageStarted = $0 { true } else { false } }.count == 1)
        // Space returns: posting works again and is stored.
        store.failing = false
        _ = try manager.post(channel: "main", text: "stored again", request: MessageRequest())
        #expect(store.state.messages.values.map(\.text).sorted() == ["stored", "stored again"])
        #expect(store.state.snapshot(journalSequence: 0).messages == manager.snapshot().messages)
    }

    @Test func snapshotRestoresTheSameFrames() throws {
        let clock = ManualClock(Self.base)
        let (manager, _) = makeManager(clock)
        _ = try manager.post(channel: "main", text: "Restored frames match the ones before", request: MessageRequest())
        var configure = ChannelConfigureRequest()
        configure.speed = 13
        try manager.configure(channel: "side", request: configure)
        _ = try manager.post(channel: "side", text: "第二频道的消息 🚀", request: MessageRequest())
        clock.now += 1_234_567
        let snapshot = manager.snapshot()

        let (restored, _) = makeManager(clock)
        #expect(restored.restore(snapshot).isEmpty)
        for offset in stride(from: Int64(0), to: 20_000_000, by: 1_700_000) {
            for name in ["main", "side"] {
                let t = clock.now + offset
                #expect(try restored.render(channel: name, columns: 17, at: t) == manager.render(channel: name, columns: 17, at: t))
            }
        }
    }

    /// A manager whose `main` channel scrolls `text` at 1 cell a second, 100 ms after it was posted.
    func scrollingSlowly(_ text: String) throws -> (Manager, ManualClock) {
        let clock = ManualClock(Self.base)
        let (manager, _) = makeManager(clock)
        var slow = ChannelConfigureRequest()
        slow.speed = 1
        try manager.configure(channel: "main", request: slow)
        _ = try manager.post(channel: "main", text: text, request: MessageRequest())
        clock.now += 100_000
        return (manager, clock)
    }

    @Test func aRevealWaitingForItsSeamKeepsBothStartsAcrossARestartAndALaterChange() throws {
        let (manager, clock) = try scrollingSlowly("short")
        var revealing = MessageRequest()
        revealing.priority = 1
        revealing.effect = .reveal
        revealing.reveal = 2_000_000
        let id = try manager.post(channel: "main", text: "typed in", request: revealing)
        let changed = clock.now
        let pad = { (text: String) in text + String(repeating: " ", count: 40 - text.count) }
        #expect(try manager.render(channel: "main", columns: 40, at: changed + 1_000_000).text == pad("type      •  short"))
        // Stored and restored: the same frames for still and scrolling viewers.
        let (restored, _) = makeManager(clock)
        #expect(restored.restore(manager.snapshot()).isEmpty)
        for offset in stride(from: Int64(0), to: 14_000_000, by: 370_000) {
            for columns: UInt32 in [3, 8, 40] {
                let t = changed + offset
                #expect(try restored.render(channel: "main", columns: columns, at: t) == manager.render(channel: "main", columns: columns, at: t))
            }
        }
        // A longer message replacing the pending change before the switch: only viewers for whom it
        // fits too keep the still start.
        clock.now += 500_000
        _ = try manager.post(channel: "main", text: "and a rather longer third message", request: MessageRequest())
        guard case let .reveal(reveal)? = manager.channels["main"]?.effects.messages[id] else {
            Issue.record("the reveal is gone")
            return
        }
        let pending = try #require(manager.channels["main"]?.timeline.pending)
        #expect(reveal.still?.start == changed)
        #expect(reveal.still?.columns == pending.tape.contentWidth)
        // Scrolling viewers: both messages are new to the tape on screen ("short"), so the stream
        // continues at the switch with the first of them in tape order, "typed in" (priority 1),
        // which types in from the switch: its distance from there in the new tape is 0.
        let span = try #require(pending.tape.layout?.messages.first { $0.key == id })
        let width = pending.tape.width
        let distance = ((span.cells.lowerBound - pending.nextStart) % width + width) % width
        let switchAt = try #require(manager.channels["main"]?.timeline.switchInstant)
        #expect(distance == 0 && pending.nextStart == span.cells.lowerBound)
        #expect(reveal.start == switchAt)
    }

    /// A new speed while a revealed message waits for its seam: the seam stays, the motion reaches
    /// it at the new speed, and the reveal starts then (not at the instant the old speed gave).
    @Test func aNewSpeedMovesAWaitingRevealToWhenTheMessageComesIntoView() throws {
        let (manager, clock) = try scrollingSlowly("a first message that scrolls")
        var revealing = MessageRequest()
        revealing.effect = .reveal
        let id = try manager.post(channel: "main", text: "typed in", request: revealing)
        let before = try #require(manager.channels["main"]?.timeline)
        let seam = try #require(before.pending?.switchPosition)
        clock.now += 1_000_000
        var faster = ChannelConfigureRequest()
        faster.speed = 4
        try manager.configure(channel: "main", request: faster)
        let after = try #require(manager.channels["main"]?.timeline)
        #expect(after.pending?.switchPosition == seam)
        let switchAt = try #require(after.switchInstant)
        #expect(switchAt < before.switchInstant ?? 0)
        guard case let .reveal(reveal)? = manager.channels["main"]?.effects.messages[id] else {
            Issue.record("the reveal is gone")
            return
        }
        // The stream goes on at the seam with the posted message: it types in from the switch.
        #expect(reveal.start == switchAt)
        // Where the old speed was at the change, the new one goes on from.
        for columns: UInt32 in [5, 12] {
            #expect(try manager.render(channel: "main", columns: columns, at: clock.now).text
                == before.frame(columns: Int(columns), at: clock.now).text)
        }
    }

    /// A new separator is new content: the text in view goes on, and the new separators come in
    /// at a seam like a post does, not with the text starting over.
    @Test func aNewSeparatorComesInAtASeamLikeAnyContentChange() throws {
        let clock = ManualClock(Self.base)
        let (manager, _) = makeManager(clock)
        _ = try manager.post(channel: "main", text: "first of two messages", request: MessageRequest())
        _ = try manager.post(channel: "main", text: "second of two messages", request: MessageRequest())
        clock.now += 30_000_000  // both on the tape, 240 cells of motion at 8 cells/s
        #expect(try manager.render(channel: "main", columns: 12, at: clock.now).text.isEmpty == false)
        let before = try #require(manager.channels["main"]?.timeline.settled(at: clock.now))
        #expect(before.pending == nil)
        var request = ChannelConfigureRequest()
        request.separator = " | "
        try manager.configure(channel: "main", request: request)
        let after = try #require(manager.channels["main"]?.timeline)
        let pending = try #require(after.pending, "the new separator waits for its seam")
        #expect(pending.tape.text == "first of two messages | second of two messages | ")
        for offset: Int64 in [0, 250_000, 500_000] {
            for columns in [5, 12] {
                #expect(try manager.render(channel: "main", columns: UInt32(columns), at: clock.now + offset).text
                    == before.frame(columns: columns, at: clock.now + offset).text)
            }
        }
        // Past the switch the stream shows the new separator.
        let switchAt = try #require(after.switchInstant)
        let later = (0..<60).map { try? manager.render(channel: "main", columns: 40, at: switchAt + Int64($0) * 250_000).text }
        #expect(later.contains { $0?.contains(" | ") == true })
        #expect(!later.contains { $0?.contains("•") == true })
        #expect(manager.channels["main"]?.text(at: clock.now) == "first of two messages | second of two messages")
    }

    @Test func aViewerCostsNoFramesNorWakeUpsSetsTheReachAndTheSettleIsAnnounced() throws {
        let clock = ManualClock(Self.base)
        let (manager, recorder) = makeManager(clock)
        var urgent = MessageRequest()
        urgent.urgent = true
        var ids: [String] = []
        for text in ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"] {
            ids.append(try manager.post(channel: "main", text: text, request: urgent))
        }
        try manager.subscribe(subscriber: ":1.42", channel: "main", columns: 6, fps: 0)
        #expect(manager.subscriberCount(channel: "main") == 1)
        #expect(manager.nextWake() == nil, "moving text, but the only follower computes its own frames")
        #expect(recorder.frames.isEmpty)
        // At 8 cells/s, 1 s in: ⌊s⌋ = 8, so the switch is the first message start ≥ 14: cell 15.
        clock.now += 1_000_000
        try manager.remove(id: ids[1])
        let pending = try #require(manager.channels["main"]?.timeline.pending)
        #expect(pending.switchPosition == 15 && pending.nextStart == 15)
        // The settle (at the switch, direction left) is due by itself and re-publishes the Timeline.
        let settleAt = try #require(manager.channels["main"]?.timeline.settleInstant)
        #expect(manager.nextWake() == settleAt)
        recorder.events.removeAll()
        clock.now = settleAt
        manager.tick()
        #expect(manager.channels["main"]?.timeline.pending == nil)
        #expect(recorder.events.contains { if case let .channelChanged("main", changes) = $0 { changes.contains(.timeline) } else { false } })
        #expect(manager.nextWake() == nil)
        #expect(recorder.frames.isEmpty)
        // Without the viewer the reach is the old content's width − 1 again.
        try manager.unsubscribe(subscriber: ":1.42", channel: "main")
        #expect(manager.subscriberCount(channel: "main") == 0)
    }

    /// A message updated every half second (a clock) while a declared viewer watches: each update
    /// comes while the previous one is entering the view. Applying it then could only restart the
    /// stream at home; the manager holds it until the entering change settles. Nothing visible
    /// ever jumps, the stream moves on, and the latest text reaches the view.
    @Test func aMessageUpdatedFasterThanItsSeamNeverMakesTheViewJump() throws {
        let clock = ManualClock(Self.base)
        let (manager, _) = makeManager(clock)
        for text in ["first message here", "second one follows"] {
            _ = try manager.post(channel: "main", text: text, request: MessageRequest())
        }
        var clockRequest = MessageRequest()
        clockRequest.id = "clock"
        _ = try manager.post(channel: "main", text: "time 0", request: clockRequest)
        try manager.subscribe(subscriber: ":1.7", channel: "main", columns: 10, fps: 0)
        var seen = Set<String>()
        for step in 1...60 {
            clock.now += 500_000
            _ = manager.tick()
            let before = try manager.render(channel: "main", columns: 10, at: clock.now)
            _ = try manager.post(channel: "main", text: "time \(step)", request: clockRequest)
            let after = try manager.render(channel: "main", columns: 10, at: clock.now)
            #expect(before == after, "step \(step): the view jumped from '\(before.text)' to '\(after.text)'")
            seen.insert(after.text)
        }
        #expect(seen.count > 40, "the stream moves on: \(seen.count) different frames in 30 s")
        // The updates stop: within two cycles of motion the latest text is seen, and never an older one after it.
        var sawLatest = false
        for _ in 0..<200 {
            clock.now += 100_000
            _ = manager.tick()
            let text = try manager.render(channel: "main", columns: 40, at: clock.now).text
            if text.contains("time 60") { sawLatest = true }
            if sawLatest { #expect(!text.contains("time 5"), "an older clock text came back: \(text)") }
        }
        #expect(sawLatest)
    }

    @Test func configAppliesOnceSoRuntimeChangesSurviveAnUnchangedFile() throws {
        let clock = ManualClock(Self.base)
        let (manager, recorder) = makeManager(clock)
        let loader = ConfigLoader(zones: ZoneTable())
        let config = try loader.parse("""
            [channel.main]
            speed = 5

            [[message]]
            id = "bedtime"
            text = "It's night-time right now. You should be in bed"
            calendar = "*-*-* 21:00 UTC"
            duration = "10h"
            """, file: "test.toml")
        try manager.apply(config: config)
        #expect(manager.channels["main"]?.settings.speed == .cellsPerSecond(5))
        #expect(manager.messages["bedtime"]?.origin == .config)

        // A runtime Configure, then the same file again (a restart or reload): the runtime change stays.
        var faster = ChannelConfigureRequest()
        faster.speed = 9
        try manager.configure(channel: "main", request: faster)
        try manager.apply(config: config)
        #expect(manager.channels["main"]?.settings.speed == .cellsPerSecond(9))

        // The file changes: its new value wins; a message gone from the file is removed.
        let edited = try loader.parse("[channel.main]\nspeed = 6\n", file: "test.toml")
        try manager.apply(config: edited)
        #expect(manager.channels["main"]?.settings.speed == .cellsPerSecond(6))
        #expect(manager.messages["bedtime"] == nil)
        _ = recorder
    }

    @Test func configErrorsNameFileLineAndKey() throws {
        let loader = ConfigLoader(zones: ZoneTable())
        let cases: [(String, String)] = [
            ("[channel.main]\nmode = \"sideways\"\n", "test.toml:2: channel.main.mode: must be one of"),
            ("[channel.main]\nspeed = 5\ncolour = \"red\"\n", "test.toml:3: channel.main.colour: unknown key"),
            ("[[message]]\ntext = \"a\"\n\n[[message]]\ntext = \"b\"\nttl = \"soon\"\n", "test.toml:6: message[2].ttl: not a time span"),
            ("[[message]]\ntext = \"x\"\ncalendar = \"*-*-* 25:00\"\nduration = \"1h\"\n", "test.toml:3: message[1].calendar:"),
            ("[[message]]\ntext = \"bad \u{202E}\"\n", "test.toml:2: message[1].text: text contains U+202E"),
            ("[[message]]\nid = \"blank\"\ntext = \"\"\n", "test.toml:3: message[1].text: the text is empty"),
            ("[limits]\nmessages = 0\n", "test.toml:2: limits.messages: must be above 0"),
            ("[channel.main\n", "test.toml:1:"),
        ]
        for (source, expected) in cases {
            let error = try #require(throws: ConfigError.self) { try loader.parse(source, file: "test.toml") }
            #expect(error.description.hasPrefix(expected), "\(error.description)")
        }
    }
}
