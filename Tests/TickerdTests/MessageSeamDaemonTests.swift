import DBus
import Foundation
import Testing
import TestSupport

/// A viewer that declares its width (`Subscribe` with fps 0) gets no frames, and a content change
/// waits only until no such viewer can see the next message boundary (docs/rendering.md §6): over
/// D-Bus, with the daemon's `Render` checked at the instant the published Timeline predicts, and
/// the Timeline published again when the change has settled.
@Suite(.serialized) struct MessageSeamDaemonTests {
    static let channelPath = DaemonFixture.channelPath("main")
    static let channelInterface = DaemonFixture.channelInterface
    static let properties = "org.freedesktop.DBus.Properties"

    /// Cells of an ASCII-and-bullet text (every character one cell).
    static func cells(_ text: String) -> [Character] { Array(text) }

    @Test func aRemovalShowsAtTheNextMessageBoundaryOfTheDeclaredViewer() throws {
        let fixture = try DaemonFixture()
        // Three messages of 10 cells: the tape is 45 cells, messages start at 0, 15 and 30.
        let texts = ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]
        // Urgent posts switch at once, so no change is pending when the removal comes.
        var ids: [String] = []
        for text in texts { ids.append(try fixture.post(text, options: ["urgent", "b", "true"])) }
        let viewer = try BusClient(address: fixture.address)
        try viewer.record(interface: Self.channelInterface, member: "Frame")
        try viewer.record(interface: Self.properties, member: "PropertiesChanged")
        try viewer.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(6), "fps": .double(0)])
        ])
        #expect(try fixture.property("main", "Subscribers").value as? NSNumber == 1)

        _ = try fixture.call("Remove", "s", [ids[1]])
        let timeline = try fixture.property("main", "Timeline").dictionary
        let anchor = try #require((timeline["anchor"] as? NSNumber)?.int64Value, "\(timeline)")
        let position = try #require((timeline["position"] as? NSNumber)?.doubleValue)
        let speed = try #require((timeline["speed"] as? NSNumber)?.doubleValue)
        let changed = try #require((timeline["changed"] as? NSNumber)?.int64Value)
        let seam = try #require((timeline["switch"] as? NSNumber)?.intValue, "the change waits: \(timeline)")
        let nextStart = try #require((timeline["nextStart"] as? NSNumber)?.intValue)
        let next = try #require(timeline["next"] as? String)
        #expect(next == "aaaaaaaaaa  •  cccccccccc  •  ")

        // The switch: the first message start at or beyond ⌊s⌋ + 6 (not the next whole tape).
        let cell = Int((position + speed * Double(changed - anchor) / 1_000_000).rounded(.down))
        let target = cell + 6
        let candidates = (target.floorDiv(45) ... target.floorDiv(45) + 1).flatMap { k in [0, 15, 30].map { k * 45 + $0 } }
        let expectedSeam = try #require(candidates.filter { $0 >= target }.min())
        #expect(seam == expectedSeam)
        // The stream continues there with the message that starts at it, or with "ccc…" after the
        // removed "bbb…": cell 15 of the new tape.
        let startedThere = [0: 0, 15: 15, 30: 15][expectedSeam.floorMod(45)]
        #expect(nextStart == startedThere)

        // Render over the bus at the switch the Timeline predicts: the 6-column viewer sees the
        // new tape from nextStart; a cell before it, the old frame moved on by the motion.
        let switchAt = anchor + Int64(((Double(seam) - position) / speed * 1_000_000).rounded(.up))
        let newCells = Self.cells(next)
        let expected = String((0..<6).map { newCells[(nextStart + $0) % newCells.count] })
        #expect(try fixture.render(columns: 6, at: switchAt).text == expected)
        let oldCells = Self.cells("aaaaaaaaaa  •  bbbbbbbbbb  •  cccccccccc  •  ")
        let before = String((0..<6).map { oldCells[(seam - 1 + $0).floorMod(45)] })
        let beforeText = try fixture.render(columns: 6, at: switchAt - 1).text
        #expect(beforeText.prefix(1) == before.prefix(1), "\(beforeText.debugDescription) vs \(before.debugDescription)")
        #expect(beforeText.dropFirst() == expected.prefix(5), "\(beforeText.debugDescription)")
        // "bbb…" is gone for the viewer once it has left the view, and never comes back.
        for step in 0..<48 {
            let t = switchAt + Int64(step) * 125_000
            #expect(!(try fixture.render(columns: 6, at: t).text.contains("b")), "at \(t - switchAt) µs")
        }

        // The settle is announced: the Timeline without `next`, and no frame changes.
        #expect(viewer.waitFor { signals in
            signals.contains { signal in
                guard signal.member == "PropertiesChanged",
                      let dictionary = signal.arguments.dropFirst().first?.vardictValue?["Timeline"]?.unwrappingVariant.vardictValue
                else { return false }
                return dictionary["next"] == nil && dictionary["tape"]?.unwrappingVariant.stringValue == next
            }
        }, "no Timeline without `next` was published after the switch")
        let settled = try fixture.property("main", "Timeline").dictionary
        #expect(settled["next"] == nil && settled["nextStart"] == nil)
        #expect((settled["position"] as? NSNumber)?.intValue == nextStart)
        #expect(try fixture.render(columns: 6, at: switchAt).text == expected)
        // A viewer gets no frames at all.
        #expect(viewer.signals.allSatisfy { $0.member != "Frame" }, "a viewer with fps 0 was sent frames")
        // Unsubscribing ends it; so does a viewer's connection closing.
        try viewer.call(path: Self.channelPath, interface: Self.channelInterface, member: "Unsubscribe", [])
        #expect(try fixture.property("main", "Subscribers").value as? NSNumber == 0)
        let other = try BusClient(address: fixture.address)
        try other.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(30), "fps": .double(0)])
        ])
        #expect(try fixture.property("main", "Subscribers").value as? NSNumber == 1)
        other.close()
        #expect(try fixture.waitForProperty("main", "Subscribers") { $0.value as? NSNumber == 0 })
    }

    @Test func aPostShowsAtTheNextMessageBoundaryOfTheDeclaredViewer() throws {
        let fixture = try DaemonFixture()
        // Three messages of 10 cells (starts 0, 15, 30 of 45); a fourth posted while they scroll.
        let texts = ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]
        for text in texts { _ = try fixture.post(text, options: ["urgent", "b", "true"]) }
        let viewer = try BusClient(address: fixture.address)
        try viewer.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(6), "fps": .double(0)])
        ])
        _ = try fixture.post("dddddddddd")
        let timeline = try fixture.property("main", "Timeline").dictionary
        let anchor = try #require((timeline["anchor"] as? NSNumber)?.int64Value, "\(timeline)")
        let position = try #require((timeline["position"] as? NSNumber)?.doubleValue)
        let speed = try #require((timeline["speed"] as? NSNumber)?.doubleValue)
        let changed = try #require((timeline["changed"] as? NSNumber)?.int64Value)
        let seam = try #require((timeline["switch"] as? NSNumber)?.intValue, "the change waits: \(timeline)")
        let nextStart = try #require((timeline["nextStart"] as? NSNumber)?.intValue)
        // The switch is the first message start at or beyond ⌊s⌋ + 6.
        let target = Int((position + speed * Double(changed - anchor) / 1_000_000).rounded(.down)) + 6
        let candidates = (target.floorDiv(45) ... target.floorDiv(45) + 1).flatMap { k in [0, 15, 30].map { k * 45 + $0 } }
        #expect(seam == candidates.filter { $0 >= target }.min())
        // The post goes right before the message starting there (the first one's place before it
        // in the stream is the tape's end), and the stream continues there with the post, then
        // with that message: nothing is passed over.
        let continuing = seam.floorMod(45) / 15
        var order = texts
        order.insert("dddddddddd", at: continuing == 0 ? 3 : continuing)
        #expect(try #require(timeline["next"] as? String) == order.map { $0 + "  •  " }.joined())
        #expect(nextStart == (continuing == 0 ? 45 : 15 * continuing))
        // Over the bus: the viewer sees "ddd…" from the switch, within one message of the reach.
        let switchAt = anchor + Int64(((Double(seam) - position) / speed * 1_000_000).rounded(.up))
        #expect(Double(seam - target) < 15 + 1)
        #expect(try fixture.render(columns: 6, at: switchAt).text == "dddddd")
        #expect(try fixture.render(columns: 6, at: switchAt - 1).text == " ddddd")
        // Then the message that was next: it follows the post's separator.
        let afterPost = switchAt + Int64((15 / speed * 1_000_000).rounded(.up))
        #expect(try fixture.render(columns: 6, at: afterPost).text == String(texts[continuing].prefix(6)))
    }

    @Test func withoutADeclaredViewerTheChangeWaitsForTheWholeTape() throws {
        let fixture = try DaemonFixture()
        var ids: [String] = []
        for text in ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"] { ids.append(try fixture.post(text, options: ["urgent", "b", "true"])) }
        _ = try fixture.call("Remove", "s", [ids[1]])
        let timeline = try fixture.property("main", "Timeline").dictionary
        let anchor = try #require((timeline["anchor"] as? NSNumber)?.int64Value, "\(timeline)")
        let position = try #require((timeline["position"] as? NSNumber)?.doubleValue)
        let speed = try #require((timeline["speed"] as? NSNumber)?.doubleValue)
        let changed = try #require((timeline["changed"] as? NSNumber)?.int64Value)
        let seam = try #require((timeline["switch"] as? NSNumber)?.intValue)
        // Reach: the old content's width − 1 = 39 cells, so the first message start ≥ ⌊s⌋ + 39.
        let target = Int((position + speed * Double(changed - anchor) / 1_000_000).rounded(.down)) + 39
        let candidates = (target.floorDiv(45) ... target.floorDiv(45) + 1).flatMap { k in [0, 15, 30].map { k * 45 + $0 } }
        #expect(seam == candidates.filter { $0 >= target }.min())
    }

    @Test func fpsOutsideZeroAndOneToSixtyIsRefused() throws {
        let fixture = try DaemonFixture()
        for fps in ["0.5", "61", "-1"] {
            let name = try fixture.gdbusErrorName(Self.channelPath, "\(Self.channelInterface).Subscribe", ["{'fps': <\(fps)>}"])
            #expect(name == "io.github.tickerd.Ticker1.Error.InvalidOption", "fps \(fps)")
        }
    }
}

private extension Int {
    func floorDiv(_ divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    func floorMod(_ divisor: Int) -> Int { self - floorDiv(divisor) * divisor }
}
