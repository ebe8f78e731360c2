import DBus
import Foundation
import Testing
import TestSupport

/// The D-Bus API of the real daemon, driven by independent peers (busctl, gdbus).
@Suite(.serialized) struct DaemonAPITests {
    @Test func postThenListRenderAndTextAgree() throws {
        let fixture = try DaemonFixture()
        let id = try fixture.post("Hello from the test suite", options: ["priority", "i", "5"])
        #expect(id.hasPrefix("m"))

        let list = try fixture.call("List", "s", ["main"])
        let entries = try #require(list.data.first as? [[Any]])
        #expect(entries.count == 1)
        #expect(entries.first?.first as? String == id)
        let fields = try #require(entries.first?.last as? [String: Any])
        #expect((fields["text"] as? [String: Any])?["data"] as? String == "Hello from the test suite")
        #expect((fields["priority"] as? [String: Any])?["data"] as? Int == 5)
        #expect((fields["active"] as? [String: Any])?["data"] as? Bool == true)

        #expect(try fixture.property("main", "Text").value as? String == "Hello from the test suite")
        #expect(try fixture.property("main", "Messages").value as? [String] == [id])

        // Render is pure: the same (columns, at) gives the same frame, exactly `columns` wide.
        let at = DaemonFixture.now() + 3_000_000
        let first = try fixture.render(columns: 12, at: at)
        let second = try fixture.render(columns: 12, at: at)
        #expect(first.text == second.text && first.offset == second.offset)
        #expect(first.text.count == 12)
        #expect(first.offset >= 0 && first.offset < 1)
    }

    @Test func timelineLetsAClientComputeFrames() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("A message long enough to scroll across a narrow panel")
        let timeline = try fixture.property("main", "Timeline").dictionary
        #expect(timeline["mode"] as? String == "continuous")
        #expect(timeline["tape"] as? String == "A message long enough to scroll across a narrow panel  •  ")
        let speed = try #require(timeline["speed"] as? Double)
        let anchor = try #require((timeline["anchor"] as? NSNumber)?.int64Value)
        let position = try #require(timeline["position"] as? Double)
        // Continuous mode: s(t) = position + speed·(t − anchor); the frame starts at cell ⌊s⌋.
        let at = anchor + 2_500_000
        let s = position + speed * Double(at - anchor) / 1e6
        let frame = try fixture.render(columns: 10, at: at)
        let tape = Array("A message long enough to scroll across a narrow panel  •  ")
        let start = Int(s.rounded(.down)) % tape.count
        let expected = String((0..<10).map { tape[(start + $0) % tape.count] })
        #expect(frame.text == expected)
        #expect(abs(frame.offset - (s - s.rounded(.down))) < 1e-9)
    }

    @Test func badInputGetsNamedErrors() throws {
        let fixture = try DaemonFixture(config: "[limits]\nmessages = 2\n")
        let manager = DaemonFixture.managerPath
        let post = "\(DaemonFixture.control).Post"
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "hi", "{'bogus': <1>}"])
            == "io.github.tickerd.Ticker1.Error.InvalidOption")
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "hi", "{'ttl': <'soon'>}"])
            == "io.github.tickerd.Ticker1.Error.InvalidOption")
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "evil \u{202E} text", "{}"])
            == "io.github.tickerd.Ticker1.Error.InvalidText")
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "", "{}"])
            == "io.github.tickerd.Ticker1.Error.InvalidText")
        let bidi = try fixture.callFailing("Post", "ssa{sv}", ["main", "evil \u{202E} text", "0"])
        #expect(bidi.contains("U+202E"))
        // Every InvalidOption names its key, an empty link too (it said only "a link cannot be empty").
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "hi", "{'link': <''>}"])
            == "io.github.tickerd.Ticker1.Error.InvalidOption")
        #expect(try fixture.callFailing("Post", "ssa{sv}", ["main", "hi", "1", "link", "s", ""]).contains("option 'link'"))
        #expect(try fixture.gdbusErrorName(manager, post, ["no/slash", "hi", "{}"])
            == "io.github.tickerd.Ticker1.Error.InvalidChannel")
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "hi", "{'calendar': <'*-*-* 25:00'>, 'duration': <int64 1000000>}"])
            == "io.github.tickerd.Ticker1.Error.InvalidCalendar")
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "no dots", "{'effect': <'dots'>}"])
            == "io.github.tickerd.Ticker1.Error.InvalidText")
        #expect(try fixture.gdbusErrorName(manager, "\(DaemonFixture.control).Remove", ["nothing-here"])
            == "io.github.tickerd.Ticker1.Error.NoSuchMessage")
        #expect(try fixture.gdbusErrorName(DaemonFixture.channelPath("main"), "\(DaemonFixture.channelInterface).Render", ["0", "0"])
            == "io.github.tickerd.Ticker1.Error.InvalidOption")
        #expect(try fixture.gdbusErrorName(manager, "\(DaemonFixture.control).Pause", ["absent"])
            == "io.github.tickerd.Ticker1.Error.NoSuchChannel")
        // The object of a channel that does not exist is not there at all (docs/dbus-api.md).
        let render = "\(DaemonFixture.channelInterface).Render"
        #expect(try fixture.gdbusErrorName(DaemonFixture.channelPath("absent"), render, ["10", "0"])
            == "org.freedesktop.DBus.Error.UnknownObject")
        // Wrong signature and read-only properties are the standard errors.
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "hi"])
            == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try fixture.gdbusErrorName(DaemonFixture.channelPath("main"), "org.freedesktop.DBus.Properties.Set",
                                           [DaemonFixture.channelInterface, "Text", "<'x'>"])
            == "org.freedesktop.DBus.Error.PropertyReadOnly")
        // The limit: two messages a channel, the third is refused and nothing is lost.
        _ = try fixture.post("one")
        _ = try fixture.post("two")
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "three", "{}"])
            == "io.github.tickerd.Ticker1.Error.LimitExceeded")
        #expect(try fixture.callFailing("Post", "ssa{sv}", ["main", "three", "0"]).contains("[limits] messages"))
        let list = try fixture.call("List", "s", [""])
        #expect((list.data.first as? [Any])?.count == 2)
    }

    @Test func everyLimitAnswersLimitExceeded() throws {
        let fixture = try DaemonFixture(config: "[limits]\nmessage-length = 10\nchannels = 2\nsubscribers = 1\n")
        let manager = DaemonFixture.managerPath
        let post = "\(DaemonFixture.control).Post"
        let exceeded = "io.github.tickerd.Ticker1.Error.LimitExceeded"
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "eleven char", "{}"]) == exceeded)
        _ = try fixture.post("ten chars!")
        _ = try fixture.post("second", channel: "side")
        #expect(try fixture.gdbusErrorName(manager, post, ["third", "x", "{}"]) == exceeded)
        // Each says which setting it is (the messages limit was named by an internal name).
        #expect(try fixture.callFailing("Post", "ssa{sv}", ["third", "x", "0"]).contains("[limits] channels"))
        let subscribe = "\(DaemonFixture.channelInterface).Subscribe"
        let first = try BusClient(address: fixture.address)
        try first.call(path: DaemonFixture.channelPath("main"), interface: DaemonFixture.channelInterface,
                       member: "Subscribe", [.vardict([:])])
        #expect(try fixture.gdbusErrorName(DaemonFixture.channelPath("side"), subscribe, ["{}"]) == exceeded)
        #expect(try fixture.callFailing("Subscribe", "a{sv}", ["0"], path: DaemonFixture.channelPath("side"),
                                        interface: DaemonFixture.channelInterface).contains("[limits] subscribers"))
        // Nothing was lost on the way.
        #expect(try fixture.property("main", "Text").value as? String == "ten chars!")
    }

    @Test func listReportsTheEndOfAHugeTimeToLiveAsNeverInThePast() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("for ever and a day", options: ["id", "s", "long", "ttl", "x", "\(Int64.max)"])
        let list = try fixture.call("List", "s", ["main"])
        let fields = try #require((list.data.first as? [[Any]])?.first?.last as? [String: Any])
        let end = try #require(((fields["end"] as? [String: Any])?["data"] as? NSNumber)?.int64Value)
        #expect(end == Int64.max)
        #expect(try fixture.property("main", "Messages").value as? [String] == ["long"])
    }

    @Test func replaceUpdateAndRemove() throws {
        let fixture = try DaemonFixture()
        let id = try fixture.post("first version", options: ["id", "s", "news"])
        #expect(id == "news")
        _ = try fixture.post("second version", options: ["id", "s", "news"])
        #expect(try fixture.property("main", "Text").value as? String == "second version")
        _ = try fixture.call("Update", "sa{sv}", ["news", "1", "text", "s", "third version"])
        #expect(try fixture.property("main", "Text").value as? String == "third version")
        _ = try fixture.call("Remove", "s", ["news"])
        #expect(try fixture.property("main", "Text").value as? String == "")
        #expect(try fixture.property("main", "Messages").value as? [String] == [])
    }

    /// An `Update` whose window has already closed by the time it arrives (a `ttl` counted from
    /// the posting that has run out, an `end` between the posting and now) is `InvalidOption`
    /// and changes nothing. It was accepted, and the message silently expired at once.
    @Test func anUpdateToAWindowThatHasClosedIsRefusedAndKeepsTheMessage() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("still here", options: ["id", "s", "keep"])
        let list = try fixture.call("List", "s", ["main"])
        let fields = try #require((list.data.first as? [[Any]])?.first?.last as? [String: Any])
        let posted = try #require(((fields["posted"] as? [String: Any])?["data"] as? NSNumber)?.int64Value)
        let update = "\(DaemonFixture.control).Update"
        let invalid = "io.github.tickerd.Ticker1.Error.InvalidOption"
        // Both end 1 µs after the posting: before the Update, which comes after Post's answer.
        #expect(try fixture.gdbusErrorName(DaemonFixture.managerPath, update, ["keep", "{'ttl': <int64 1>}"]) == invalid)
        #expect(try fixture.gdbusErrorName(DaemonFixture.managerPath, update, ["keep", "{'end': <int64 \(posted + 1)>}"])
            == invalid)
        let ranOut = try fixture.callFailing("Update", "sa{sv}", ["keep", "1", "ttl", "x", "1"])
        #expect(ranOut.contains("ttl") && ranOut.contains("already passed"))
        #expect(try fixture.property("main", "Messages").value as? [String] == ["keep"])
        #expect(try fixture.property("main", "Text").value as? String == "still here")
        // A ttl still running from the posting is fine.
        _ = try fixture.call("Update", "sa{sv}", ["keep", "1", "ttl", "x", "3600000000"])
        #expect(try fixture.property("main", "Messages").value as? [String] == ["keep"])
    }

    /// A `Post` that would move a shown message to another channel and is refused (here the
    /// channel limit) leaves it where it was, unannounced: the next change of its channel sent
    /// `MessageStarted` for it again and restarted it, though it never left the tape.
    @Test func aRefusedReplacementDoesNotRestartTheMessageItNamed() throws {
        let fixture = try DaemonFixture(config: "[limits]\nchannels = 2\n")
        let watcher = try BusClient(address: fixture.address)
        try watcher.record(interface: DaemonFixture.managerInterface, member: "MessageStarted")
        _ = try fixture.post("stays on main", options: ["id", "s", "stay"])
        _ = try fixture.post("fills the last channel", channel: "side")
        #expect(try fixture.gdbusErrorName(DaemonFixture.managerPath, "\(DaemonFixture.control).Post",
                                           ["third", "moved", "{'id': <'stay'>}"])
            == "io.github.tickerd.Ticker1.Error.LimitExceeded")
        _ = try fixture.post("next one", options: ["id", "s", "next"])
        func started(_ id: String) -> ([BusClient.Received]) -> Int {
            { signals in signals.filter { $0.arguments.dropFirst().first?.stringValue == id }.count }
        }
        // Signals come in order: once "next" started, any repeat of "stay" has arrived too.
        #expect(watcher.waitFor { started("next")($0) == 1 })
        #expect(started("stay")(watcher.signals) == 1)
        #expect(try fixture.property("main", "Messages").value as? [String] == ["stay", "next"])
    }

    /// `Update` takes a `reveal` duration only with the reveal effect, as `Post` does, and drops
    /// it with that effect: it was accepted on any message and listed beside no effect or dots.
    @Test func anUpdatesRevealDurationGoesWithTheRevealEffect() throws {
        let fixture = try DaemonFixture()
        func listed(_ id: String) throws -> [String: Any] {
            let entries = try #require(try fixture.call("List", "s", ["main"]).data.first as? [[Any]])
            return try #require(entries.first { $0.first as? String == id }?.last as? [String: Any])
        }
        _ = try fixture.post("plain", options: ["id", "s", "plain"])
        #expect(try fixture.gdbusErrorName(DaemonFixture.managerPath, "\(DaemonFixture.control).Update",
                                           ["plain", "{'reveal': <int64 2000000>}"])
            == "io.github.tickerd.Ticker1.Error.InvalidOption")
        #expect(try listed("plain")["reveal"] == nil)
        _ = try fixture.post("shown slowly...", options: ["id", "s", "slow", "effect", "s", "reveal", "reveal", "x", "2000000"])
        _ = try fixture.call("Update", "sa{sv}", ["slow", "1", "reveal", "x", "3000000"])
        #expect(((try listed("slow")["reveal"] as? [String: Any])?["data"] as? NSNumber)?.int64Value == 3_000_000)
        _ = try fixture.call("Update", "sa{sv}", ["slow", "1", "effect", "s", "dots"])
        let dots = try listed("slow")
        #expect((dots["effect"] as? [String: Any])?["data"] as? String == "dots")
        #expect(dots["reveal"] == nil)
    }

    @Test func postToANewChannelCreatesItAndConfigureChangesMotion() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Kiosk notice", channel: "lobby")
        let channels = try fixture.busctl([
            "get-property", DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.managerInterface, "Channels",
        ])
        #expect(channels.stdout.contains("/io/github/tickerd/Ticker1/channel/lobby"))
        _ = try fixture.call("Configure", "sa{sv}", ["lobby", "2", "mode", "s", "static", "columns", "u", "30"])
        #expect(try fixture.property("lobby", "Timeline").dictionary["mode"] as? String == "static")
        #expect(try fixture.property("lobby", "Columns").value as? Int == 30)
        let unknown = try fixture.callFailing("Configure", "sa{sv}", ["lobby", "1", "colour", "s", "red"])
        #expect(unknown.contains("colour"))
        // A bad gap or separator is named alone (both were "separator or gap").
        let gap = try fixture.callFailing("Configure", "sa{sv}", ["lobby", "1", "gap", "s", "\u{7}"])
        #expect(gap.contains("gap: text contains U+0007") && !gap.contains("separator or gap"))
        let separator = try fixture.callFailing("Configure", "sa{sv}", ["lobby", "1", "separator", "s", "a\u{202E}"])
        #expect(separator.contains("separator: text contains U+202E") && !separator.contains("gap"))
    }

    @Test func pauseFreezesTheStreamAndResumeContinuesFromThere() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Paused text must not move while the channel is paused")
        _ = try fixture.call("Pause", "s", ["main"])
        #expect(try fixture.property("main", "Paused").value as? Bool == true)
        let now = DaemonFixture.now()
        let early = try fixture.render(columns: 20, at: now + 1_000_000)
        let late = try fixture.render(columns: 20, at: now + 9_000_000)
        #expect(early.text == late.text && early.offset == late.offset)
        _ = try fixture.call("Resume", "s", ["main"])
        #expect(try fixture.property("main", "Paused").value as? Bool == false)
        let after = DaemonFixture.now()
        let moved = try fixture.render(columns: 20, at: after + 5_000_000)
        #expect(moved.text != early.text)
    }
}
