import DBus
import Foundation
import Testing
import TestSupport

/// Posts arriving more often than a tape cycle never keep a message off the tape, and each comes
/// into view at the next message boundary no declared viewer sees yet (docs/rendering.md §6,
/// "Where a post goes"): over D-Bus, with the daemon's `Render` at the instants its published
/// Timeline predicts. The place a post took survives a restart.
@Suite(.serialized) struct PostPlacementTests {
    static let channelPath = DaemonFixture.channelPath("main")
    static let channelInterface = DaemonFixture.channelInterface

    /// The published Timeline of `main` with a pending change: where the stream stood at the
    /// change (`cell`), the switch, the new tape's cell there, the old and new tapes, and the
    /// switch instant.
    struct Pending {
        var cell: Int
        var seam: Int
        var nextStart: Int
        var tape: String
        var next: [Character]
        var switchAt: Int64

        /// From the Timeline's fields (`number` and `string` read one each; nil when absent).
        init?(number: (String) -> Double?, string: (String) -> String?) {
            guard let anchor = number("anchor"), let position = number("position"), let speed = number("speed"),
                  let changed = number("changed"), let seam = number("switch"), let next = string("next") else { return nil }
            cell = Int((position + speed * (changed - anchor) / 1_000_000).rounded(.down))
            self.seam = Int(seam)
            nextStart = Int(number("nextStart") ?? 0)
            tape = string("tape") ?? ""
            self.next = Array(next)
            switchAt = Int64(anchor) + Int64(((seam - position) / speed * 1_000_000).rounded(.up))
        }

        /// From a Timeline property read with busctl.
        init?(_ timeline: [String: Any]) {
            self.init(number: { (timeline[$0] as? NSNumber)?.doubleValue }, string: { timeline[$0] as? String })
        }

        /// From a Timeline in a PropertiesChanged signal.
        init?(_ timeline: [String: DBusValue]) {
            self.init(number: { key in
                timeline[key].map(\.unwrappingVariant).flatMap { $0.doubleValue ?? $0.int64Value.map(Double.init) }
            }, string: { timeline[$0]?.unwrappingVariant.stringValue })
        }

        /// The new tape's text from `nextStart` on (ASCII and bullets: a character a cell).
        func textAtSwitch(_ count: Int) -> String {
            String((0..<count).map { next[(nextStart + $0) % next.count] })
        }

        /// The new tape's messages in the order the stream shows them from the switch.
        var messagesFromSwitch: [String] {
            textAtSwitch(next.count).components(separatedBy: "  •  ").filter { !$0.isEmpty }
        }
    }

    @Test func frequentPostsShowAtTheNextBoundaryAndNeverStarveAMessage() throws {
        // Eight messages of 18 cells (23 with the separator: a cycle of 184 cells, 0.92 s at 200
        // cells a second) and a viewer of 48 columns; a new message every 0.6 s, faster than a cycle.
        let speed = 200.0
        let originals = (1...8).map { "message \($0) of eight" }
        let config = "[channel.main]\nspeed = \(Int(speed))\n" + originals.enumerated().map { index, text in
            "\n[[message]]\nid = \"m\(index + 1)\"\ntext = \"\(text)\"\n"
        }.joined()
        let fixture = try DaemonFixture(config: config)
        #expect(try fixture.property("main", "Messages").value as? [String] == (1...8).map { "m\($0)" })
        let viewer = try BusClient(address: fixture.address)
        try viewer.record(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        try viewer.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(48), "fps": .double(0)])
        ])
        let longest = 18 + 5
        let period: Int64 = 600_000
        let posts = 10
        var firstSeen: [String: Int64] = [:]
        let start = DaemonFixture.now()
        for index in 1...posts {
            let planned = start + Int64(index - 1) * period
            let wait = planned - DaemonFixture.now()
            if wait > 0 { usleep(UInt32(wait)) }  // the scenario's pace: a post every 0.6 s
            let text = "post \(index) arrives"
            _ = try fixture.post(text)
            // The change waits for its seam (held a moment if the previous one was entering the
            // view): the Timeline published with it, as the viewer got it.
            var found: Pending?
            #expect(viewer.waitFor { signals in
                found = signals.lazy.reversed().compactMap { signal -> Pending? in
                    guard signal.member == "PropertiesChanged",
                          let fields = signal.arguments.dropFirst().first?.vardictValue?["Timeline"]?.unwrappingVariant.vardictValue,
                          let pending = Pending(fields), String(pending.next).contains(text) else { return nil }
                    return pending
                }.first
                return found != nil
            }, "post \(index) was never published as a pending change")
            guard let pending = found else { continue }
            // The switch is the next message boundary beyond the view, and the stream continues
            // there with the post — after the posts of a change still waiting with it, if any,
            // which came before it: the viewer sees it come in from the right edge, then whole.
            #expect(pending.seam >= pending.cell + 48 && pending.seam < pending.cell + 48 + longest,
                    "post \(index): switch \(pending.seam) for a view ending at \(pending.cell + 48)")
            let shown = pending.messagesFromSwitch
            let place = try #require(shown.firstIndex(of: text), "post \(index): not in \(shown)")
            #expect(shown[..<place].allSatisfy { $0.hasPrefix("post ") && !pending.tape.contains($0) },
                    "post \(index): the stream continues with \(shown.prefix(place + 1)), not with the post")
            let cells = shown[..<place].reduce(0) { $0 + $1.count + 5 }
            let arrival = pending.switchAt + Int64((Double(cells) / speed * 1_000_000).rounded(.up))
            #expect(try fixture.render(columns: 48, at: arrival).text.hasPrefix(text), "post \(index)")
            // What the viewer sees until the next post: which of the eight came by.
            for t in stride(from: DaemonFixture.now(), to: planned + period, by: 50_000) {
                let frame = try fixture.render(columns: 48, at: t).text
                for original in originals where firstSeen[original] == nil && frame.contains(original) {
                    firstSeen[original] = t - start
                }
            }
        }
        for original in originals {
            let seen = firstSeen[original]
            #expect(seen != nil, "'\(original)' never came by in \(posts) posts: seen \(firstSeen)")
        }
    }

    @Test func thePlaceAPostTookSurvivesARestart() throws {
        let fixture = try DaemonFixture(config: "[channel.main]\nspeed = 1\n")
        // Three messages of 10 cells at 1 cell a second, the last urgent post restarting the
        // stream at home; with a 6-column viewer the next boundary beyond the view is "bbb…" (15).
        for text in ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"] { _ = try fixture.post(text, options: ["urgent", "b", "true"]) }
        let ids = try #require(try fixture.property("main", "Messages").value as? [String])
        let viewer = try BusClient(address: fixture.address)
        try viewer.call(path: Self.channelPath, interface: Self.channelInterface, member: "Subscribe", [
            .vardict(["columns": .uint32(6), "fps": .double(0)])
        ])
        let posted = try fixture.post("dddddddddd")
        // It goes right before "bbb…", not after "ccc…" where its posting time would sort it.
        #expect(try fixture.property("main", "Messages").value as? [String] == [ids[0], posted, ids[1], ids[2]])
        let pending = try #require(Pending(try fixture.property("main", "Timeline").dictionary))
        let instants = [pending.switchAt - 1, pending.switchAt, pending.switchAt + 7_000_000, pending.switchAt + 60_000_000]
        let before = try instants.map { try fixture.render(columns: 6, at: $0).text }
        #expect(before[1] == "dddddd")

        try fixture.daemon.restart()

        #expect(try fixture.property("main", "Messages").value as? [String] == [ids[0], posted, ids[1], ids[2]])
        #expect(try fixture.property("main", "Text").value as? String
            == "aaaaaaaaaa  •  dddddddddd  •  bbbbbbbbbb  •  cccccccccc")
        #expect(try instants.map { try fixture.render(columns: 6, at: $0).text } == before)
    }
}
