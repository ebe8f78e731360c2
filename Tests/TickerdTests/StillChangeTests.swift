import DBus
import Foundation
import Testing
import TestSupport

/// A viewer whose text fits (still) sees a content change at once when the new text fits too,
/// rather than at the seam scrolling viewers wait for (docs/rendering.md §6): over D-Bus, with
/// `Render`, a subscriber, `Post` and a `SetValue` count.
@Suite(.serialized) struct StillChangeTests {
    static let channelPath = DaemonFixture.channelPath("main")
    static let channelInterface = DaemonFixture.channelInterface

    @Test func aPostShowsAtOnceWhereTheTextFits() throws {
        let fixture = try DaemonFixture()
        // 1 cell a second: the seam of "Hello  •  " (10 cells) is about 10 s away.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "speed", "d", "1"])
        _ = try fixture.post("Hello")
        let subscriber = try BusClient(address: fixture.address)
        try subscriber.record(interface: Self.channelInterface, member: "Frame")
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(30), "fps": .double(30)])
        ])
        let old = "Hello" + String(repeating: " ", count: 25)
        let new = "Hello  •  world" + String(repeating: " ", count: 15)
        #expect(subscriber.waitFor { $0.first?.arguments.first?.stringValue == old })
        _ = try fixture.post("world")
        let timeline = try fixture.property("main", "Timeline").dictionary
        let changed = try #require((timeline["changed"] as? NSNumber)?.int64Value, "\(timeline)")
        #expect(timeline["next"] as? String == "Hello  •  world  •  ", "the change waits for its seam")
        // Still viewers: the old text up to the change, the new one from its instant on.
        #expect(try fixture.render(columns: 30, at: changed - 1).text == old)
        #expect(try fixture.render(columns: 30, at: changed).text == new)
        #expect(try fixture.render(columns: 30, at: 0).text == new)
        // The subscriber gets it right away, not at the seam.
        #expect(subscriber.waitFor(timeout: .seconds(5)) { $0.last?.arguments.first?.stringValue == new })
        let arrived = try #require(subscriber.signals.last?.arrivedAt)
        #expect(arrived - changed < 5_000_000, "the new text came \(arrived - changed) µs after the change")
        // A 3-column viewer scrolls "Hello": it still sees the old tape, seamlessly.
        let narrow = try fixture.render(columns: 3, at: changed).text
        #expect(("Hello  •  Hello").contains(narrow), "\(narrow.debugDescription)")
    }

    @Test func aRevealArrivingWhereTheTextFitsTypesInFromTheChange() throws {
        let fixture = try DaemonFixture()
        // 1 cell a second: the seam of "Hello  •  " (10 cells) is seconds away, longer than the reveal.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "1", "speed", "d", "1"])
        _ = try fixture.post("Hello")
        // Priority 1: "world" comes first in the new tape, so a 3-column viewer meets it at the switch.
        _ = try fixture.post("world", options: ["priority", "i", "1", "effect", "s", "reveal", "reveal", "x", "2000000"])
        let timeline = try fixture.property("main", "Timeline").dictionary
        let changed = try #require((timeline["changed"] as? NSNumber)?.int64Value, "\(timeline)")
        #expect(timeline["next"] as? String == "world  •  Hello  •  ", "the change waits for its seam")
        let pad = { (text: String) in text + String(repeating: " ", count: 40 - text.count) }
        // 40 columns, both texts fit: the message shows from the change and types in over 2 s.
        #expect(try fixture.render(columns: 40, at: changed - 1).text == pad("Hello"))
        #expect(try fixture.render(columns: 40, at: changed).text == pad("       •  Hello"))
        let half = try fixture.render(columns: 40, at: changed + 1_000_000).text
        #expect(half == pad("wo     •  Hello"), "some but not all of it: \(half.debugDescription)")
        #expect(try fixture.render(columns: 40, at: changed + 2_000_000).text == pad("world  •  Hello"))
        // The reveal's line: the scrolling start (the switch), then the still start and its width.
        let effects = try #require(timeline["effects"] as? String, "\(timeline)")
        let line = try #require(effects.split(separator: "\n").first { $0.hasPrefix("r ") }, "\(effects)")
        let tokens = line.split(separator: " ")
        try #require(tokens.count >= 4, "\(line)")
        let switchAt = try #require(Int64(tokens[2]))
        #expect(tokens.count == 6 && Int64(tokens[4]) == changed && tokens[5] == "15", "\(line)")
        #expect(switchAt > changed + 3_000_000, "the switch comes after the reveal: \(line)")
        // 3 columns (scrolling): the message enters hidden and types in from the switch.
        #expect(try fixture.render(columns: 3, at: switchAt - 1_000_000).text == "   ")
        #expect(try fixture.render(columns: 3, at: switchAt + 1_000_000).text == "o  ")
        #expect(try fixture.render(columns: 3, at: switchAt + 2_000_000).text == "rld")
    }

    @Test func aCountInStillTextIsSeenCountingAtOnce() throws {
        let fixture = try DaemonFixture()
        // examples/tickerd.toml's status channel: scroll with a 3 s hold, so the seam after a
        // change is several seconds away — longer than the count.
        _ = try fixture.call("Configure", "sa{sv}", ["main", "2", "mode", "s", "scroll", "delay", "x", "3000000"])
        _ = try fixture.post("{visitors} visitors today")
        let subscriber = try BusClient(address: fixture.address)
        try subscriber.record(interface: Self.channelInterface, member: "Frame")
        try subscriber.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(40), "fps": .double(30)])
        ])
        let pad = { (text: String) in text + String(repeating: " ", count: 40 - text.count) }
        #expect(subscriber.waitFor { $0.first?.arguments.first?.stringValue == pad("{visitors} visitors today") })
        _ = try fixture.call("SetValue", "ssda{sv}", ["main", "visitors", "1234", "2", "from", "d", "0",
                                                      "duration", "x", "2000000"])
        let timeline = try fixture.property("main", "Timeline").dictionary
        let changed = try #require((timeline["changed"] as? NSNumber)?.int64Value, "\(timeline)")
        // The field appears at once and counts: halfway through the count a value between the two.
        let half = try fixture.render(columns: 40, at: changed + 1_000_000).text
        let number = Int(half.prefix(4).trimmingCharacters(in: .whitespaces)) ?? -1
        #expect(number > 0 && number < 1234 && half.dropFirst(4).hasPrefix(" visitors today"), "\(half)")
        // The subscriber is sent the count's intermediate values, then the final one.
        #expect(subscriber.waitFor { $0.last?.arguments.first?.stringValue == pad("1234 visitors today") })
        let values = subscriber.signals.compactMap { signal -> Int? in
            guard let text = signal.arguments.first?.stringValue, text.hasSuffix(" visitors today" + String(repeating: " ", count: 21)) else { return nil }
            return Int(text.prefix(4).trimmingCharacters(in: .whitespaces))
        }
        #expect(values.contains { $0 > 0 && $0 < 1234 }, "no value of the count was shown: \(values)")
        #expect(values == values.sorted(), "the count went back: \(values)")
    }
}
