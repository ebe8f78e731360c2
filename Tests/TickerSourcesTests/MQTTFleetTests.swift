import Foundation
import Testing
import TestSupport

/// The MQTT source end to end: a real mosquitto on loopback, several screens (each a real tickerd
/// on its own private bus with its own state, and the real tickerd-sources), fleet messages
/// published with mosquitto_pub, and busctl/dbus-monitor as the independent witnesses.
@Suite(.serialized) struct MQTTFleetTests {
    /// A message as every screen should list it.
    struct Shown: Hashable, CustomStringConvertible {
        var id: String
        var channel: String
        var text: String
        var description: String { "\(id)@\(channel)=\(text)" }
    }

    /// One screen: tickerd, its sources service following the fleet, and a signal witness.
    final class Screen {
        let fixture: SourcesFixture
        let signals: SignalLog

        init(_ sources: String, daemonConfig: String = "") throws {
            fixture = try SourcesFixture(sources: sources, daemonConfig: daemonConfig)
            signals = try SignalLog(address: fixture.address)
            try fixture.startService()
        }

        func shown() throws -> Set<Shown> {
            Set(try fixture.messages(of: "fleet").map { Shown(id: $0.id, channel: $0.channel, text: $0.text) })
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

    static func shown(_ pairs: [(String, String)]) -> Set<Shown> {
        Set(pairs.map { topic, text in
            let parts = topic.split(separator: "/")
            return Shown(id: "src/fleet/\(parts[0])/\(parts[1])", channel: String(parts[0]), text: text)
        })
    }

    /// Waits until every screen shows `expected`; records what they showed when they do not.
    func converge(_ screens: [Screen], _ expected: Set<Shown>, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (index, screen) in screens.enumerated() {
            let reached = try screen.fixture.wait(.seconds(15)) { try screen.shown() == expected }
            let shown = try screen.shown()
            #expect(reached, "\(what): screen \(index) shows \(shown), expected \(expected)\n\(screen.fixture.log)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Every message id started at most once on each screen (posted once, changed in place).
    func noDuplicates(_ screens: [Screen], sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, screen) in screens.enumerated() {
            let started = screen.signals.ids("MessageStarted").filter { $0.hasPrefix("src/fleet/") }
            #expect(!started.isEmpty, "screen \(index): dbus-monitor saw no MessageStarted", sourceLocation: sourceLocation)
            #expect(started.count == Set(started).count,
                    "screen \(index) started twice: \(started); ended: \(screen.signals.ids("MessageEnded"))",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func screensFollowTheFleetLateJoinersAndRestartsIncluded() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let start = Self.now() + 2_000_000
        try broker.publish("tickerd/lobby/main/$settings", #"{"speed": 12, "mode": "continuous"}"#)
        try broker.publish("tickerd/lobby/main/welcome", #"{"text": "Welcome to the lobby", "priority": 2, "start": \#(start)}"#)
        try broker.publish("tickerd/lobby/main/wifi", #"{"text": "Wi-Fi: lobby-guest"}"#)
        try broker.publish("tickerd/lobby/news/lunch", #"{"text": "Lunch at noon", "link": "https://example.org/lunch"}"#)
        try broker.publish("tickerd/lobby/main/broken", #"{"text": 5}"#)
        try broker.publish("tickerd/lobby/main/typo", #"{"text": "x", "colour": "red"}"#)
        try broker.publish("tickerd/lobby/main/notjson", "{text")
        let lease = "lease = \"10s\"\n\n"  // a restart under load stays well within it
        var screens = [
            try Screen(lease + broker.sourceTable(clientID: "screen-a")),
            try Screen(lease + broker.sourceTable(clientID: "screen-b")),
        ]
        var expected = Self.shown([
            ("main/welcome", "Welcome to the lobby"), ("main/wifi", "Wi-Fi: lobby-guest"), ("news/lunch", "Lunch at noon"),
        ])
        try converge(screens, expected, "first retained set")
        let log = screens[0].fixture.log
        #expect(log.contains("topic tickerd/lobby/main/broken: \"text\" must be a string, got an integer"), "\(log)")
        #expect(log.contains("topic tickerd/lobby/main/typo: unknown option 'colour'"), "\(log)")
        #expect(log.contains("topic tickerd/lobby/main/notjson: not valid JSON"), "\(log)")
        #expect(log.contains("source=fleet"))
        let lunch = try #require(try screens[0].fixture.messages(of: "fleet").first { $0.id == "src/fleet/news/lunch" })
        #expect(lunch.link == "https://example.org/lunch")
        for screen in screens {
            let timeline = try screen.fixture.ok("busctl", [
                "--address=\(screen.fixture.address)", "get-property", "io.github.tickerd.Ticker1",
                "/io/github/tickerd/Ticker1/channel/main", "io.github.tickerd.Ticker1.Channel", "Timeline",
            ])
            #expect(timeline.contains("\"speed\" d 12"), "\(timeline)")
        }

        // Change one, remove one, add one.
        try broker.publish("tickerd/lobby/main/wifi", #"{"text": "Wi-Fi: lobby-2024"}"#)
        try broker.publish("tickerd/lobby/news/lunch", "")
        try broker.publish("tickerd/lobby/news/fire-drill", #"{"text": "Fire drill at 3 pm", "urgent": true}"#)
        expected = Self.shown([
            ("main/welcome", "Welcome to the lobby"), ("main/wifi", "Wi-Fi: lobby-2024"), ("news/fire-drill", "Fire drill at 3 pm"),
        ])
        try converge(screens, expected, "after changes")

        // A late joiner gets the whole state from the retained messages.
        screens.append(try Screen(lease + broker.sourceTable(clientID: "screen-c")))
        try converge(screens, expected, "late joiner")

        // A screen whose service is killed and restarted adopts its messages: no second copy.
        try screens[1].fixture.killService()
        try screens[1].fixture.startService()
        #expect(screens[1].fixture.wait { screens[1].fixture.log.contains("in step with the broker") })
        try converge(screens, expected, "after a restart")
        try broker.publish("tickerd/lobby/main/wifi", #"{"text": "Wi-Fi: lobby-2025"}"#)
        expected = Self.shown([
            ("main/welcome", "Welcome to the lobby"), ("main/wifi", "Wi-Fi: lobby-2025"), ("news/fire-drill", "Fire drill at 3 pm"),
        ])
        try converge(screens, expected, "after the restart, a change")
        noDuplicates(screens)
        #expect(screens[1].signals.ids("MessageEnded").filter { $0.hasPrefix("src/fleet/main/") }.isEmpty,
                "\(screens[1].signals.ids("MessageEnded"))")
    }

    @Test func brokerOutageKeepsTheMessagesAndItsReturnConverges() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        try broker.publish("tickerd/lobby/main/one", #"{"text": "One"}"#)
        try broker.publish("tickerd/lobby/main/two", #"{"text": "Two"}"#)
        try broker.publish("tickerd/lobby/alerts/three", #"{"text": "Three", "end": \#(Self.now() + 3_600_000_000)}"#)
        // A lease short enough for the outage to outlast it twice, long enough that a renewal
        // held up by a loaded machine (the sanitizer runs) does not let a message lapse.
        let lease = "lease = \"4s\"\n\n"
        let screens = [
            try Screen(lease + broker.sourceTable(clientID: "screen-a")),
            try Screen(lease + broker.sourceTable(clientID: "screen-b")),
            try Screen(lease + broker.sourceTable(clientID: "screen-c", extra: "protocol = \"mqtt311\"\n")),
        ]
        let expected = Self.shown([("main/one", "One"), ("main/two", "Two"), ("alerts/three", "Three")])
        try converge(screens, expected, "before the outage")

        // Ten seconds without the broker (two and a half leases): the messages stay on every screen.
        try broker.stop()
        for screen in screens {
            #expect(screen.fixture.wait { screen.fixture.log.contains("unreachable") })
        }
        let outageEnds = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < outageEnds {
            for (index, screen) in screens.enumerated() {
                let shown = try screen.shown()
                #expect(shown == expected, "screen \(index) during the outage: \(shown)")
                if shown != expected { return }
            }
            usleep(250_000)
        }

        // It comes back with the same retained state: nothing changes, nothing is posted twice.
        try broker.start()
        for screen in screens {
            #expect(screen.fixture.wait {
                screen.fixture.log.components(separatedBy: "connected to the broker").count - 1 >= 2
                    && screen.fixture.log.components(separatedBy: "in step with the broker").count - 1 >= 1
            }, "\(screen.fixture.log)")
        }
        try converge(screens, expected, "after the broker's return")
        noDuplicates(screens)
        for screen in screens {
            #expect(screen.signals.ids("MessageEnded").isEmpty, "\(screen.signals.ids("MessageEnded"))")
        }

        // It comes back with another retained state (prepared on a second broker, whose saved
        // state replaces this one's): every screen converges to it.
        let other = try MosquittoBroker()
        try other.start()
        try other.publish("tickerd/lobby/main/one", #"{"text": "One, changed"}"#)
        try other.publish("tickerd/lobby/main/four", #"{"text": "Four"}"#)
        try other.stop()
        try broker.stop()
        try FileManager.default.removeItem(atPath: broker.persistenceFile)
        try FileManager.default.copyItem(atPath: other.persistenceFile, toPath: broker.persistenceFile)
        try broker.start()
        try converge(screens, Self.shown([("main/one", "One, changed"), ("main/four", "Four")]), "another retained state")
        noDuplicates(screens)
    }

    /// A broker that stops answering without closing the connections (stopped with SIGSTOP, as a
    /// host that hangs or a network that drops packets): each screen notices by its keepalive and
    /// says so, keeps its messages, and follows the fleet again once the broker answers.
    @Test func aSilentBrokerIsNoticedByTheKeepaliveAndItsReturnConverges() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        try broker.publish("tickerd/lobby/main/one", #"{"text": "One"}"#)
        try broker.publish("tickerd/lobby/main/two", #"{"text": "Two"}"#)
        let keepalive = "keepalive = \"5s\"\n"
        let screens = [
            try Screen(broker.sourceTable(clientID: "screen-a", extra: keepalive)),
            try Screen(broker.sourceTable(clientID: "screen-b", extra: keepalive + "protocol = \"mqtt311\"\n")),
        ]
        let expected = Self.shown([("main/one", "One"), ("main/two", "Two")])
        try converge(screens, expected, "before the broker falls silent")
        let process = try #require(broker.process)
        process.kill(SIGSTOP)
        for screen in screens {
            #expect(screen.fixture.wait(.seconds(30)) {
                screen.fixture.log.contains("unreachable (no answer from the broker within the keepalive of 5s)")
            }, "\(screen.fixture.log)")
            #expect(try screen.shown() == expected, "the messages stay while the broker is silent")
        }
        process.kill(SIGCONT)
        try broker.publish("tickerd/lobby/main/one", #"{"text": "One, changed"}"#)
        try broker.publish("tickerd/lobby/main/two", "")
        try converge(screens, Self.shown([("main/one", "One, changed")]), "after the broker answers again")
        noDuplicates(screens)
    }

    @Test func securedBrokerTLSPasswordsAndACLsAScreenCannotPublish() throws {
        let broker = try MosquittoBroker(secured: true)
        try broker.start()
        try broker.publish("tickerd/lobby/main/hello", #"{"text": "Hello over TLS"}"#)
        let screen = try Screen(broker.sourceTable(clientID: "screen-tls", extra: "protocol = \"mqtt311\"\n"))
        try converge([screen], Self.shown([("main/hello", "Hello over TLS")]), "over TLS")
        #expect(screen.fixture.log.contains("in step with the broker"))
        #expect(!screen.fixture.log.contains("did not come back"), "the ACL lets a screen use its sync topic")

        // MQTT 5: the broker answers a screen's publish with "not authorized".
        let refused = try ChildProcess.run("mosquitto_pub", broker.clientArguments(user: "screen") + [
            "-V", "mqttv5", "-q", "1", "-r", "-t", "tickerd/lobby/main/evil", "-m", #"{"text": "Evil"}"#,
        ])
        #expect(refused.stderr.contains("Not authorized") || refused.stdout.contains("Not authorized"),
                "status \(refused.status): \(refused.stdout) \(refused.stderr)")

        // MQTT 3.1.1 has no answer: an admin subscriber sees the marker published after it, and
        // not the screen's message.
        let watcher = try ChildProcess("mosquitto_sub", broker.clientArguments() + ["-V", "mqttv311", "-v", "-t", "tickerd/#"])
        defer { watcher.kill(SIGTERM) }
        #expect(watcher.waitForOutput(timeout: .seconds(10)) { $0.contains("Hello over TLS") })
        let silent = try ChildProcess.run("mosquitto_pub", broker.clientArguments(user: "screen") + [
            "-V", "mqttv311", "-q", "1", "-t", "tickerd/lobby/main/sneaky", "-m", #"{"text": "Sneaky"}"#,
        ])
        #expect(silent.status == 0, "3.1.1 gives the publisher no refusal: \(silent.stderr)")
        try broker.publish("tickerd/lobby/marker", "after the screen", retained: false)
        #expect(watcher.waitForOutput(timeout: .seconds(10)) { $0.contains("after the screen") })
        #expect(!watcher.standardOutput.contains("Sneaky") && !watcher.standardOutput.contains("Evil"), "\(watcher.standardOutput)")
        #expect(try screen.shown() == Self.shown([("main/hello", "Hello over TLS")]))

        // Wrong credentials: refused, logged, nothing shown changes.
        let intruder = try Screen(broker.sourceTable(clientID: "intruder").replacingOccurrences(of: "screen-secret", with: "guess"))
        #expect(intruder.fixture.wait { intruder.fixture.log.contains("refused") }, "\(intruder.fixture.log)")
        #expect(try intruder.shown().isEmpty)
    }

    /// A payload that is not valid removes its topic's message on every screen alike: the screens
    /// that had the message, one whose service restarted after the bad payload came and one that
    /// joins later (neither can know the message it replaced), so phase-locked screens render the
    /// same frames again. The same payload delivered twice changes nothing, and nothing else is lost.
    @Test func aBadPayloadRemovesItsMessageOnEveryScreenAlike() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        try broker.publish("tickerd/lobby/main/$settings", #"{"phase": "wall-clock", "speed": 40, "mode": "continuous"}"#)
        let delayed = #"{"text": "Platform 4: the 10:15 to Leeds is delayed"}"#
        try broker.publish("tickerd/lobby/main/a", delayed)
        try broker.publish("tickerd/lobby/main/b", #"{"text": "Mind the gap", "priority": 1}"#)
        var screens = [
            try Screen(broker.sourceTable(clientID: "screen-a")),
            try Screen(broker.sourceTable(clientID: "screen-b")),
        ]
        try converge(screens, Self.shown([("main/a", "Platform 4: the 10:15 to Leeds is delayed"), ("main/b", "Mind the gap")]),
                     "before the bad payload")

        try broker.publish("tickerd/lobby/main/a", delayed)  // delivered again: no change
        try broker.publish("tickerd/lobby/main/b", #"{"text": "Mind the gap", "priority": 1, "colour": "red"}"#)
        let problem = "topic tickerd/lobby/main/b: unknown option 'colour'"
        for screen in screens {
            #expect(screen.fixture.wait { screen.fixture.log.contains(problem) }, "\(screen.fixture.log)")
        }
        try screens[1].fixture.killService()
        try screens[1].fixture.startService()
        screens.append(try Screen(broker.sourceTable(clientID: "screen-c")))
        let expected = Self.shown([("main/a", "Platform 4: the 10:15 to Leeds is delayed")])
        try converge(screens, expected, "after the bad payload, a restart and a late joiner")
        #expect(screens[0].fixture.log.contains("\(problem) (known: text, priority, urgent, ttl, start, end, effect, reveal, link); its message is removed; the other messages are not affected"),
                "\(screens[0].fixture.log)")
        for screen in screens {
            #expect(screen.fixture.log.contains(problem), "\(screen.fixture.log)")
            #expect(!screen.signals.ids("MessageEnded").contains("src/fleet/main/a"), "\(screen.signals.ids("MessageEnded"))")
        }
        noDuplicates(screens)
        for screen in screens {
            #expect(try screen.fixture.wait(.seconds(30)) { try settled(screen, channel: "main") }, "the change settles")
        }
        let samplers = try screens.map { try FrameSampler(address: $0.fixture.address) }
        _ = try sameFrames(samplers, "after the bad payload", until: Self.now() + 6_000_000)

        // The corrected payload brings it back everywhere.
        try broker.publish("tickerd/lobby/main/b", #"{"text": "Mind the gap", "priority": 1}"#)
        try converge(screens, Self.shown([("main/a", "Platform 4: the 10:15 to Leeds is delayed"), ("main/b", "Mind the gap")]),
                     "after the corrected payload")
    }

    /// A `ttl` counts from the first receipt on each screen, also across a restart of its
    /// service (which receives the retained message again): the restarted screen drops the
    /// message with the others, instead of renewing it for a `ttl` from its restart.
    @Test func aTTLCountsFromTheFirstReceiptAcrossARestart() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        try broker.publish("tickerd/lobby/main/stay", #"{"text": "Platform 4"}"#)
        let lease = "lease = \"3s\"\n\n"  // renewed every second: a renewal extends what it is given
        let screens = [
            try Screen(lease + broker.sourceTable(clientID: "screen-a")),
            try Screen(lease + broker.sourceTable(clientID: "screen-b")),
        ]
        try converge(screens, Self.shown([("main/stay", "Platform 4")]), "before")
        let published = Self.now()
        try broker.publish("tickerd/lobby/main/doors", #"{"text": "Doors closing", "ttl": 8000000}"#)
        try converge(screens, Self.shown([("main/stay", "Platform 4"), ("main/doors", "Doors closing")]), "the ttl message")
        while Self.now() < published + 3_000_000 { usleep(50_000) }  // the scenario's own schedule: restart 3 s in
        try screens[1].fixture.killService()
        try screens[1].fixture.startService()
        #expect(screens[1].fixture.wait { screens[1].fixture.log.contains("in step with the broker") }, "\(screens[1].fixture.log)")
        let without = Self.shown([("main/stay", "Platform 4")])
        #expect(try screens[0].fixture.wait(.seconds(15)) { try screens[0].shown() == without }, "the ttl ends on the first screen")
        let gone = Self.now()
        let followed = try screens[1].fixture.wait(.seconds(15)) { try screens[1].shown() == without }
        #expect(followed && Self.now() - gone < 1_500_000,
                "the restarted screen showed the message \((Self.now() - gone) / 1000) ms after the other screen dropped it")
        noDuplicates(screens)
    }

    /// Whether `screen`'s channel has no pending content change (its Timeline has no `switch`).
    func settled(_ screen: Screen, channel: String) throws -> Bool {
        let timeline = try ChildProcess.run("busctl", [
            "--address=\(screen.fixture.address)", "get-property", "io.github.tickerd.Ticker1",
            "/io/github/tickerd/Ticker1/channel/\(channel)", "io.github.tickerd.Ticker1.Channel", "Timeline",
        ])
        return timeline.status == 0 && !timeline.stdout.contains("\"switch\"")
    }

    /// Every screen renders the same frames at `count` instants spread from now to `until`
    /// (microseconds since the epoch); returns how many instants were compared. The screens are
    /// asked in turns of a few instants each, so they answer with the same state. When `until`
    /// is the next scheduled change, the sampling must end before it (the frames of a later state
    /// are another comparison), which is checked.
    func sameFrames(_ samplers: [FrameSampler], _ what: String, count: Int = 200, until: Int64,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let from = Self.now()
        let span = until - from
        let instants = (0..<count).map { from + span * Int64($0) / Int64(count) + Int64($0 % 7) * 997 }
        var frames = samplers.map { _ in [FrameSampler.Frame]() }
        for batch in stride(from: 0, to: count, by: 10) {
            let slice = Array(instants[batch..<min(count, batch + 10)])
            for (index, sampler) in samplers.enumerated() {
                frames[index] += try sampler.frames(channel: "main", columns: 40, at: slice)
            }
        }
        #expect(Self.now() < until, "\(what): sampling ran into the next change; the comparison is void",
                sourceLocation: sourceLocation)
        for index in frames.indices.dropFirst() {
            let differing = instants.indices.filter { frames[index][$0] != frames[0][$0] }
            #expect(differing.count == 0, "\(what): screen \(index) differs from screen 0 at \(differing.count) of \(count) instants, first \(differing.first.map { "\(frames[0][$0]) vs \(frames[index][$0])" } ?? "")",
                    sourceLocation: sourceLocation)
        }
        #expect(Set(frames[0].map(\.text)).count > 1, "\(what): the frames move", sourceLocation: sourceLocation)
        return count
    }

    /// Screens of different widths with the same content: at each instant a narrow screen's frame
    /// (20 columns) is the start of a wide one's (48; the content is wider, so both scroll), the
    /// seam of a change being the same whatever the widths (docs/rendering.md §13).
    func narrowerScreensShowTheStart(_ samplers: [FrameSampler], _ what: String, until: Int64,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let from = Self.now()
        let instants = (0..<100).map { from + (until - from) * Int64($0) / 100 + Int64($0 % 5) * 1009 }
        let wide = try samplers[0].frames(channel: "main", columns: 48, at: instants)
        let narrow = try samplers[samplers.count - 1].frames(channel: "main", columns: 20, at: instants)
        #expect(Self.now() < until, "\(what): sampling ran into the next change", sourceLocation: sourceLocation)
        let differing = instants.indices.filter {
            String(wide[$0].text.prefix(20)) != narrow[$0].text || wide[$0].offset != narrow[$0].offset
        }
        #expect(differing.isEmpty, "\(what): at \(differing.count) of 100 instants the 20-column frame is not the start of the 48-column one, first \(differing.first.map { "\(narrow[$0]) vs \(wide[$0])" } ?? "")",
                sourceLocation: sourceLocation)
    }

    /// The ids on `screen`'s `main` tape now (the channel's `Messages` property, read with
    /// busctl); none while the channel does not exist.
    func onTape(_ screen: Screen) throws -> [String] {
        let output = try ChildProcess.run("busctl", [
            "--address=\(screen.fixture.address)", "--json=short", "get-property", "io.github.tickerd.Ticker1",
            "/io/github/tickerd/Ticker1/channel/main", "io.github.tickerd.Ticker1.Channel", "Messages",
        ])
        guard output.status == 0 else { return [] }
        let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        return json?["data"] as? [String] ?? []
    }

    /// A message published ahead of its `start` stays off the tape until then, though its lease
    /// is renewed meanwhile: `Update` replaces the whole window, so a renewal gives the `start`
    /// with the new `end` (a renewal of `end` alone showed it at once).
    @Test func aScheduledMessageWaitsForItsStartThroughItsRenewals() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let screen = try Screen("lease = \"2s\"\n\n" + broker.sourceTable(clientID: "screen-a"))
        #expect(screen.fixture.wait { screen.fixture.log.contains("in step with the broker") }, "\(screen.fixture.log)")
        let start = Self.now() + 6_000_000
        try broker.publish("tickerd/lobby/main/night", #"{"text": "It's night-time", "start": \#(start)}"#)
        try converge([screen], Self.shown([("main/night", "It's night-time")]), "posted ahead")
        // A 2 s lease is renewed every 667 ms: some seven renewals come before the start.
        while Self.now() < start - 500_000 {  // the scenario's own schedule
            let tape = try onTape(screen)
            #expect(tape.isEmpty, "on the tape \((start - Self.now()) / 1000) ms before its start: \(tape)")
            if !tape.isEmpty { break }
            usleep(200_000)
        }
        #expect(try screen.fixture.wait { try onTape(screen) == ["src/fleet/main/night"] }, "shown from its start")
        #expect(Self.now() >= start)
    }

    /// On a phase-locked channel a scheduled message's effects start at its `start` on every
    /// screen, not when each daemon woke for it: a reveal types in, and dots jump, in the same
    /// frames everywhere (`Render`'s extras compared too).
    @Test func phaseLockedEffectsStartAtTheScheduledInstantOnEveryScreen() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        try broker.publish("tickerd/lobby/main/$settings", #"{"phase": "wall-clock", "speed": 40, "mode": "continuous"}"#)
        try broker.publish("tickerd/lobby/main/a", #"{"text": "Platform 4: the 10:15 to Leeds is delayed"}"#)
        let screens = try ["screen-a", "screen-b", "screen-c"].map { try Screen(broker.sourceTable(clientID: $0)) }
        try converge(screens, Self.shown([("main/a", "Platform 4: the 10:15 to Leeds is delayed")]), "before")
        let t0 = Self.now() + 4_000_000
        let reveal: Int64 = 3_000_000
        try broker.publish("tickerd/lobby/main/r", #"{"text": "Platform change: the 11:02 to York leaves from 7", "start": \#(t0), "effect": "reveal", "reveal": \#(reveal), "urgent": true}"#)
        try broker.publish("tickerd/lobby/main/d", #"{"text": "Boarding now...", "start": \#(t0), "effect": "dots"}"#)
        try converge(screens, Self.shown([
            ("main/a", "Platform 4: the 10:15 to Leeds is delayed"), ("main/r", "Platform change: the 11:02 to York leaves from 7"),
            ("main/d", "Boarding now..."),
        ]), "scheduled")
        let samplers = try screens.map { try FrameSampler(address: $0.fixture.address) }
        #expect(Self.now() < t0, "the screens were not ready before the scheduled instant")
        while Self.now() < t0 { usleep(50_000) }  // the scenario's own schedule
        for screen in screens {
            #expect(screen.fixture.wait { Set(screen.signals.ids("MessageStarted")).isSuperset(of: ["src/fleet/main/r", "src/fleet/main/d"]) },
                    "no MessageStarted for the scheduled messages")
        }
        // A tape cycle takes about 3 s: the revealing message comes into view while it types in.
        let during = try samplers[0].frames(channel: "main", columns: 40, at: (0..<100).map { t0 + reveal * Int64($0) / 100 })
        #expect(during.contains { ($0.extras["reveal"]?.doubleValue ?? 1) < 1 }, "the reveal is seen typing in")
        _ = try sameFrames(samplers, "reveal and dots", until: t0 + reveal)
        _ = try sameFrames(samplers, "dots", until: Self.now() + 3_000_000)
    }

    @Test func phaseLockedScreensRenderTheSameFrameAtTheSameInstant() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        try broker.publish("tickerd/lobby/main/$settings", #"{"phase": "wall-clock", "speed": 40, "mode": "continuous"}"#)
        var screens = [
            try Screen(broker.sourceTable(clientID: "screen-a")),
            try Screen(broker.sourceTable(clientID: "screen-b")),
        ]
        for screen in screens {
            #expect(screen.fixture.wait { screen.fixture.log.contains("in step with the broker") }, "\(screen.fixture.log)")
        }
        // Scheduled ahead (with room for a loaded machine), so every screen changes at the same
        // instants: three posts at t0, one removal (its end) at t0 + 5 s, a post at t0 + 10 s.
        let t0 = Self.now() + 6_000_000
        try broker.publish("tickerd/lobby/main/a", #"{"text": "Platform 4: the 10:15 to Leeds is delayed", "start": \#(t0)}"#)
        try broker.publish("tickerd/lobby/main/b", #"{"text": "Mind the gap", "priority": 1, "start": \#(t0)}"#)
        try broker.publish("tickerd/lobby/main/c", #"{"text": "Lifts out of order", "start": \#(t0), "end": \#(t0 + 5_000_000)}"#)
        try broker.publish("tickerd/lobby/main/d", #"{"text": "Café open until 8 pm", "start": \#(t0 + 10_000_000)}"#)
        try converge(screens, Self.shown([
            ("main/a", "Platform 4: the 10:15 to Leeds is delayed"), ("main/b", "Mind the gap"),
            ("main/c", "Lifts out of order"), ("main/d", "Café open until 8 pm"),
        ]), "scheduled posts")
        var samplers = try screens.map { try FrameSampler(address: $0.fixture.address) }
        var compared = 0
        // Across the changes: after the posts, after the removal, after the late post, each once
        // every screen has signalled the stage's change (so it has applied it), from then until
        // the next change (a change still pending shows in the frames the same way everywhere).
        let stages: [(String, Int64, Int64, String, String)] = [
            ("posts", t0, t0 + 5_000_000, "MessageStarted", "c"), ("removal", t0 + 5_000_000, t0 + 10_000_000, "MessageEnded", "c"),
            ("late post", t0 + 10_000_000, t0 + 20_000_000, "MessageStarted", "d"),
        ]
        for (stage, instant, next, member, id) in stages {
            #expect(Self.now() < instant, "\(stage): the screens were not ready before the scheduled instant")
            while Self.now() < instant { usleep(50_000) }  // the scenario's own schedule
            for screen in screens {
                let signalled = screen.fixture.wait { screen.signals.ids(member).contains("src/fleet/main/\(id)") }
                #expect(signalled, "\(stage): no \(member) for \(id)")
            }
            compared += try sameFrames(samplers, stage, until: next - 300_000)
            try narrowerScreensShowTheStart(samplers, stage, until: next - 300_000)
        }

        // A late joiner and a restarted screen settle into the same frames.
        screens.append(try Screen(broker.sourceTable(clientID: "screen-c")))
        let restarted = screens[1]
        try restarted.fixture.killService()
        restarted.fixture.daemon.signal(SIGKILL)
        _ = try restarted.fixture.daemon.process.wait(timeout: .seconds(10))
        try restarted.fixture.daemon.start()
        try restarted.fixture.startService()
        let expected = Self.shown([
            ("main/a", "Platform 4: the 10:15 to Leeds is delayed"), ("main/b", "Mind the gap"), ("main/d", "Café open until 8 pm"),
        ])
        try converge(screens, expected, "late joiner and restart")
        for screen in screens {
            #expect(try screen.fixture.wait(.seconds(30)) { try settled(screen, channel: "main") }, "the change settles")
        }
        samplers = try screens.map { try FrameSampler(address: $0.fixture.address) }
        compared += try sameFrames(samplers, "late joiner and restart", count: 400, until: Self.now() + 12_000_000)
        #expect(compared >= 1000)
    }


    /// `screen`'s `main` Timeline as busctl reads it (the variants' JSON), or nil when it cannot.
    func timeline(_ screen: Screen) throws -> NSDictionary? {
        let output = try ChildProcess.run("busctl", [
            "--address=\(screen.fixture.address)", "--json=short", "get-property", "io.github.tickerd.Ticker1",
            "/io/github/tickerd/Ticker1/channel/main", "io.github.tickerd.Ticker1.Channel", "Timeline",
        ])
        guard output.status == 0 else { return nil }
        let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        return json?["data"] as? NSDictionary
    }

    /// The Timeline's `speed` and `tape` on `screen`, e.g. `40.0|Platform 4… / `.
    func motion(_ screen: Screen) throws -> String {
        guard let timeline = try timeline(screen) else { return "no Timeline" }
        let speed = ((timeline["speed"] as? NSDictionary)?["data"] as? NSNumber)?.doubleValue ?? -1
        return "\(speed)|\((timeline["tape"] as? NSDictionary)?["data"] as? String ?? "?")"
    }

    /// Waits until every screen's `main` has `expected` motion and no pending change, then checks
    /// that all report the same Timeline and render the same frames at the same instants.
    func agree(_ screens: [Screen], on expected: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (index, screen) in screens.enumerated() {
            let reached = try screen.fixture.wait(.seconds(15)) { try motion(screen) == expected && settled(screen, channel: "main") }
            let got = try motion(screen)
            #expect(reached, "\(what): screen \(index) has \(got), expected \(expected)\n\(screen.fixture.log)",
                    sourceLocation: sourceLocation)
        }
        let timelines = try screens.map { try timeline($0) }
        for index in timelines.indices.dropFirst() {
            #expect(timelines[index] == timelines[0], "\(what): screen \(index)'s Timeline \(String(describing: timelines[index])) differs from screen 0's \(String(describing: timelines[0]))",
                    sourceLocation: sourceLocation)
        }
        let samplers = try screens.map { try FrameSampler(address: $0.fixture.address) }
        _ = try sameFrames(samplers, what, count: 100, until: Self.now() + 3_000_000, sourceLocation: sourceLocation)
    }

    /// The fleet's `$settings` withdrawn — cleared (one screen's service away meanwhile), then
    /// replaced by settings tickerd refuses: every screen's channel goes back to the settings of
    /// its own tickerd.toml, which a screen joining late starts from, so all of them report the
    /// same Timeline and render the same frames (they kept the fleet's settings, and the late
    /// screen showed other frames).
    @Test func withdrawnSettingsBringEveryScreenBackToTheConfiguredOnes() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        let text = "Platform 4: the 10:15 to Leeds is delayed"
        try broker.publish("tickerd/lobby/main/a", #"{"text": "\#(text)"}"#)
        try broker.publish("tickerd/lobby/main/$settings", #"{"speed": 40, "separator": " / "}"#)
        let config = "[channel.main]\nphase = \"wall-clock\"\nspeed = 30\n"
        let lease = "lease = \"10s\"\n\n"  // a restart under load stays well within it
        var screens = try ["screen-a", "screen-b"].map { try Screen(lease + broker.sourceTable(clientID: $0), daemonConfig: config) }
        let fleet = "40.0|\(text) / ", configured = "30.0|\(text)  •  "
        try agree(screens, on: fleet, "the fleet's settings")

        // Cleared while screen b's service is away: a is back at once, b when it reads the
        // retained messages again after its restart.
        try screens[1].fixture.killService()
        try broker.publish("tickerd/lobby/main/$settings", "")
        #expect(try screens[0].fixture.wait(.seconds(15)) { try motion(screens[0]) == configured }, "\(screens[0].fixture.log)")
        #expect(try motion(screens[1]) == fleet, "b changed while its service was away")
        try screens[1].fixture.startService()
        screens.append(try Screen(lease + broker.sourceTable(clientID: "screen-c"), daemonConfig: config))
        try agree(screens, on: configured, "cleared, a restart and a late screen")
        #expect(screens[0].fixture.log.contains("topic tickerd/lobby/main/$settings: settings cleared; channel main goes back to its configured settings"),
                "\(screens[0].fixture.log)")

        // Settings again (the late screen takes them too), then settings tickerd refuses.
        try broker.publish("tickerd/lobby/main/$settings", #"{"speed": 40, "separator": " / "}"#)
        try agree(screens, on: fleet, "the fleet's settings again")
        try broker.publish("tickerd/lobby/main/$settings", #"{"speed": 50, "colour": "red"}"#)
        try agree(screens, on: configured, "refused settings")
        for screen in screens {
            let log = screen.fixture.log
            #expect(log.contains("topic tickerd/lobby/main/$settings: tickerd refused the settings: io.github.tickerd.Ticker1.Error.InvalidOption")
                        && log.contains("unknown Configure option 'colour'") && log.contains("channel main goes back to its configured settings"),
                    "\(log)")
        }
        // A payload that is not settings at all is the same.
        try broker.publish("tickerd/lobby/main/$settings", #"{"speed": 40}"#)
        try agree(screens, on: "40.0|\(text)  •  ", "a third payload")
        try broker.publish("tickerd/lobby/main/$settings", #"{"speed": 40, "reset": false}"#)
        try agree(screens, on: configured, "a payload that is not settings")
        #expect(screens[2].fixture.log.contains("\"reset\" is not a setting"), "\(screens[2].fixture.log)")
    }
}
