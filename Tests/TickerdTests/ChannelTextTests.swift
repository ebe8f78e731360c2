import Testing
import TickerModel
@testable import tickerd

/// The channel's `Text` (what screen readers and tooltips read): the shown messages joined by the
/// separator, braces read as the tape reads them, counters written out — after every kind of
/// change, whether or not it was taken from the tape the change built.
@Suite struct ChannelTextTests {
    static let base: Instant = 1_800_000_000_000_000

    /// The channel's Text, after checking that the tape it shows is the one built whole from its
    /// messages (the manager edits each tape from the one before).
    func text(_ manager: Manager, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let channel = manager.channels["main"] else { return nil }
        let whole = Tape(
            messages: zip(channel.activeIDs, channel.activeTexts).map { TapeMessage(key: $0, text: $1) },
            separator: channel.settings.separator, gap: channel.settings.gap, counters: channel.effects.counters, at: manager.now)
        #expect(channel.currentTape(at: manager.now) == whole, sourceLocation: sourceLocation)
        return channel.text(at: manager.now)
    }

    @Test func textFollowsPostsUpdatesSeparatorsAndCounters() throws {
        let clock = ManagerTests.ManualClock(Self.base)
        let manager = Manager(zones: ZoneTable(), clock: { clock.now })
        _ = try manager.post(channel: "main", text: "Build {{ok}} finished", request: MessageRequest())
        #expect(text(manager) == "Build {ok} finished")

        var second = MessageRequest()
        second.id = "sold"
        _ = try manager.post(channel: "main", text: "Sold: {sold} 🎉", request: second)
        #expect(text(manager) == "Build {ok} finished  •  Sold: {sold} 🎉")

        var update = MessageRequest()
        update.text = "Sold today: {sold} 🎉"
        try manager.update(id: "sold", changes: update)
        #expect(text(manager) == "Build {ok} finished  •  Sold today: {sold} 🎉")

        var separator = ChannelConfigureRequest()
        separator.separator = " | "
        try manager.configure(channel: "main", request: separator)
        #expect(text(manager) == "Build {ok} finished | Sold today: {sold} 🎉")

        // A counter is written out at the instant asked, though no message changed.
        try manager.setValue(channel: "main", name: "sold", value: 12, options: CounterOptions(decimals: 0))
        #expect(text(manager) == "Build {ok} finished | Sold today: 12 🎉")

        try manager.remove(id: "sold")
        #expect(text(manager) == "Build {ok} finished")
    }

    /// The Text of a channel whose texts hold no braces: its texts joined by its separator.
    func joined(_ manager: Manager) -> String? {
        manager.channels["main"].map { $0.activeTexts.joined(separator: $0.settings.separator) }
    }

    @Test func aChannelOfManyMessagesShowsTheTapeBuiltWholeAfterEveryChange() throws {
        let clock = ManagerTests.ManualClock(Self.base)
        let manager = Manager(zones: ZoneTable(), clock: { clock.now })
        for index in 0..<40 {
            var request = MessageRequest()
            request.id = "n\(index)"
            _ = try manager.post(channel: "main", text: index % 3 == 0 ? "cafe\u{301} \(index)" : "news \(index) 中文 🇩🇪", request: request)
            clock.now += 700_000
            #expect(text(manager) == joined(manager))
        }
        #expect(manager.channels["main"]?.activeIDs.count == 40)
        for id in ["n0", "n17", "n39"] {
            try manager.remove(id: id)
            #expect(text(manager) == joined(manager))
        }
        var change = MessageRequest()
        change.text = "changed 👩\u{200D}👧"
        try manager.update(id: "n7", changes: change)
        #expect(text(manager)?.contains("  •  changed 👩\u{200D}👧  •  ") == true)
        var separator = ChannelConfigureRequest()
        separator.separator = " ~ "
        try manager.configure(channel: "main", request: separator)
        #expect(text(manager) == joined(manager))
        var urgent = MessageRequest()
        urgent.urgent = true
        _ = try manager.post(channel: "main", text: "中文 first", request: urgent)
        #expect(text(manager) == joined(manager))
        #expect(text(manager)?.contains(" ~ 中文 first") == true)
    }
}
