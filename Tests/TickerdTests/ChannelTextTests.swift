import Testing
import TickerModel
@testable import tickerd

/// The channel's `Text` (what screen readers and tooltips read): the shown messages joined by the
/// separator, braces read as the tape reads them, counters written out — after every kind of
/// change, whether or not it was taken from the tape the change built.
@Suite struct ChannelTextTests {
    static let base: Instant = 1_800_000_000_000_000

    func text(_ manager: Manager) -> String? {
        manager.channels["main"]?.text(at: manager.now)
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
}
