import DBus
import Foundation
import Testing
import TestSupport

/// Counters, dots and reveal through D-Bus: SetValue, Render at chosen instants, ValueReached.
@Suite(.serialized) struct EffectsOverBusTests {
    @Test func aCounterCountsInAFixedFieldAndSignalsOnce() throws {
        let fixture = try DaemonFixture()
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: DaemonFixture.managerInterface, member: "ValueReached")
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',member='ValueReached'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("NameAcquired") })
        // A value set before the message is posted is laid out in the message's first tape.
        _ = try fixture.call("SetValue", "ssda{sv}", ["main", "builds", "1000", "1", "grouping", "b", "true"])
        _ = try fixture.post("Builds: {builds} today")
        #expect(try fixture.render(columns: 40, at: 0).text.hasPrefix("Builds: 1,000 today"))
        let start = DaemonFixture.now()
        _ = try fixture.call("SetValue", "ssda{sv}", ["main", "builds", "1500", "2", "duration", "x", "1000000",
                                                      "easing", "s", "easeOutQuad"])
        // The field is as wide as the widest value of the count ("1,500"): the text never breathes.
        var previous = -1.0
        for step in 0...10 {
            let at = start + Int64(step) * 100_000
            let frame = try fixture.render(columns: 40, at: at).text
            #expect(frame.count == 40)
            let field = String(frame.dropFirst("Builds: ".count).prefix(5))
            #expect(frame.hasPrefix("Builds: ") && frame.dropFirst(8 + 5).hasPrefix(" today"), "\(frame)")
            let number = Double(field.replacingOccurrences(of: ",", with: "").trimmingCharacters(in: .whitespaces)) ?? -1
            #expect(number >= previous, "the count went back: \(previous) → \(number)")
            previous = number
        }
        let done = try fixture.render(columns: 40, at: start + 1_500_000).text
        #expect(done.hasPrefix("Builds: 1,500 today"))
        #expect(watcher.waitFor { $0.contains { $0.arguments.last == .double(1500) } })
        #expect(try fixture.property("main", "Text").value as? String == "Builds: 1,500 today")
        let reached = watcher.signals.filter { $0.arguments.last == .double(1500) }
        #expect(reached.count == 1)
        #expect(reached.first?.arguments == [.string("main"), .string("builds"), .double(1500)])
        #expect((reached.first?.arrivedAt ?? 0) >= start + 1_000_000)
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("double 1500") })
        // The jump to 1000 was reached at once, also exactly once.
        #expect(watcher.signals.filter { $0.arguments.last == .double(1000) }.count == 1)
    }

    /// A layout changes no frame of a channel without effects, so its Timeline leaves it out (a
    /// third of every change's PropertiesChanged on a long channel); a message with an effect
    /// brings the layouts back, so clients can draw the effect.
    @Test func layoutsArePublishedOnlyWithEffects() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("First plain message that scrolls along")
        _ = try fixture.post("Second plain message")
        let plain = try fixture.property("main", "Timeline").dictionary
        let shown = [plain["tape"], plain["next"]].compactMap { $0 as? String }.joined()
        #expect(shown.contains("Second plain message"), "\(plain)")
        #expect(plain["layout"] == nil && plain["nextLayout"] == nil && plain["effects"] == nil, "\(plain)")
        _ = try fixture.post("Working...", options: ["effect", "s", "dots"])
        let withDots = try fixture.property("main", "Timeline").dictionary
        let layout = try #require(withDots["layout"] as? String, "\(withDots)")
        #expect(layout.hasPrefix("m "))
        #expect((withDots["effects"] as? String)?.contains("d ") == true, "\(withDots)")
        if let next = withDots["next"] as? String {
            #expect(next.contains("Working...") && (withDots["nextLayout"] as? String)?.hasPrefix("m ") == true)
        }
    }

    @Test func anUnsetPlaceholderShowsLiterallyAndBadOptionsAreRefused() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Queue: {queue}")
        #expect(try fixture.render(columns: 20, at: 0).text == "Queue: {queue}      ")
        let error = try fixture.gdbusErrorName(DaemonFixture.managerPath, "\(DaemonFixture.control).SetValue",
                                               ["main", "queue", "1", "{'decimals': <uint32 99>}"])
        #expect(error == "io.github.tickerd.Ticker1.Error.InvalidOption")
        let unknown = try fixture.gdbusErrorName(DaemonFixture.managerPath, "\(DaemonFixture.control).SetValue",
                                                 ["main", "queue", "1", "{'colour': <'red'>}"])
        #expect(unknown == "io.github.tickerd.Ticker1.Error.InvalidOption")
    }

    @Test func dotsJumpWithTheStatedTiming() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "columns", "u", "20"])
        let posted = DaemonFixture.now()
        _ = try fixture.post("Working...", options: ["effect", "s", "dots"])
        let list = try fixture.call("List", "s", ["main"])
        #expect("\(list.data)".contains("dots"))
        // Over one period every dot is raised at some instant, one after the other, and all rest
        // again by the end of the up-phase of the last one.
        var raisedAt: [Int: Int64] = [:]
        for step in Int64(0)..<115 {
            let at = posted + step * 10_000
            let text = try fixture.render(columns: 20, at: at).text
            #expect(text.count == 20)
            let dots = Array(text.dropFirst("Working".count).prefix(3))
            for (index, dot) in dots.enumerated() where dot == "˙" && raisedAt[index] == nil {
                raisedAt[index] = at
            }
            #expect(dots.allSatisfy { $0 == "." || $0 == "˙" }, "\(text)")
        }
        #expect(raisedAt.count == 3)
        if let first = raisedAt[0], let second = raisedAt[1], let third = raisedAt[2] {
            // Staggered by 0.15 s (to the 10 ms sampling).
            #expect(abs((second - first) - 150_000) <= 10_000)
            #expect(abs((third - second) - 150_000) <= 10_000)
        }
        let reply = try fixture.call("Render", "ux", ["20", "\(posted + 1_000_000)"],
                                     path: DaemonFixture.channelPath("main"), interface: DaemonFixture.channelInterface)
        #expect("\(reply.data)".contains("dots"))
    }

    @Test func removingTheDotsFinishesTheWaveThenRests() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Working...", options: ["id", "s", "busy", "effect", "s", "dots"])
        let effectsBefore = try #require(fixture.property("main", "Timeline").dictionary["effects"] as? String)
        _ = try fixture.call("Update", "sa{sv}", ["busy", "1", "effect", "s", "none"])
        // The Timeline tells followers when the dots started (S) and stopped (T): `d busy S T`.
        let effectsAfter = try #require(fixture.property("main", "Timeline").dictionary["effects"] as? String)
        #expect(effectsBefore.hasPrefix("d busy ") && effectsBefore.hasSuffix(" -"), "\(effectsBefore)")
        let fields = effectsAfter.split(separator: " ")
        try #require(fields.count == 4 && fields[0] == "d" && fields[1] == "busy", "\(effectsAfter)")
        let start = try #require(Int64(fields[2]))
        let stop = try #require(Int64(fields[3]))
        #expect(effectsBefore == "d busy \(start) -")
        #expect(!"\(try fixture.call("List", "s", ["main"]).data)".contains("dots"))
        let period: Int64 = 1_150_000
        let wave = (stop - start) / period
        // Graceful: every dot still makes its jump of the wave under way (raised from 47 ms to
        // 275 ms into a jump; dot i jumps 150 ms after dot i − 1), even one not begun at T…
        for dot in Int64(0)..<3 {
            let at = start + wave * period + dot * 150_000 + 161_000
            let text = try fixture.render(columns: 12, at: at).text
            #expect(Array(text)[7 + Int(dot)] == "˙", "dot \(dot) of wave \(wave): \(text.debugDescription)")
        }
        // …and no later wave starts: where the next waves would raise each dot, the text rests.
        for later in (wave + 1)...(wave + 3) {
            for dot in Int64(0)..<3 {
                let at = start + later * period + dot * 150_000 + 161_000
                #expect(try fixture.render(columns: 12, at: at).text == "Working...  ")
            }
        }
        // An unknown effect is still refused, naming the choices.
        let refused = try fixture.callFailing("Update", "sa{sv}", ["busy", "1", "effect", "s", "sparkle"])
        #expect(refused.contains("none"))
    }

    @Test func revealTypesTheMessageInAndReportsProgress() throws {
        let fixture = try DaemonFixture()
        let posted = DaemonFixture.now()
        _ = try fixture.post("Hello", options: ["effect", "s", "reveal", "reveal", "x", "1000000"])
        let late = try fixture.render(columns: 10, at: posted + 2_000_000)
        #expect(late.text == "Hello     ")
        let early = try fixture.render(columns: 10, at: posted - 1_000_000)
        #expect(early.text == "          ")
        // Monotonic: the revealed prefix only grows.
        var shown = 0
        for step in Int64(0)...12 {
            let text = try fixture.render(columns: 10, at: posted + step * 100_000).text
            let count = text.prefix { $0 != " " }.count
            #expect(count >= shown)
            #expect("Hello".hasPrefix(text.prefix(count)))
            shown = count
        }
        let reply = try fixture.call("Render", "ux", ["10", "\(posted + 500_000)"],
                                     path: DaemonFixture.channelPath("main"), interface: DaemonFixture.channelInterface)
        let extras = try #require(reply.data.last as? [String: Any])
        let progress = try #require((extras["reveal"] as? [String: Any])?["data"] as? Double)
        #expect(progress > 0 && progress < 1)

        // Pixel clients also get each word's stroke progress: all words stroke together.
        let wordsPosted = DaemonFixture.now()
        _ = try fixture.post("Hello big world", channel: "words", options: ["effect", "s", "reveal", "reveal", "x", "2000000"])
        let midway = try fixture.call("Render", "ux", ["20", "\(wordsPosted + 1_000_000)"],
                                      path: DaemonFixture.channelPath("words"), interface: DaemonFixture.channelInterface)
        let wordExtras = try #require(midway.data.last as? [String: Any])
        let overall = try #require((wordExtras["reveal"] as? [String: Any])?["data"] as? Double)
        let words = try #require((wordExtras["reveal-words"] as? [String: Any])?["data"] as? [Double])
        #expect(overall > 0.3 && overall <= 0.5)
        #expect(words == [overall, overall, overall])
    }
}
