import Testing
import TickerModel
@testable import tickerd

/// A message posted and removed before any declared viewer saw it is never seen
/// (docs/rendering.md §6), also on a channel whose text fits every declared viewer: there the
/// stream moves unseen, so a change that has not switched yet is in nobody's view and is not held.
@Suite struct RemovedBeforeShownTests {
    @Test func aMessageRemovedBeforeItsChangeSwitchesIsNeverSeen() throws {
        var unseenAtRemoval = 0
        var trials = 0
        // The post comes anywhere in the stream's cycle; the removal up to 3 s after it.
        for postAt in stride(from: Int64(0), to: 6_000_000, by: 750_000) {
        for removeAfter in stride(from: Int64(0), through: 3_000_000, by: 300_000) {
            trials += 1
            let clock = ManagerTests.ManualClock(ManagerTests.base)
            let manager = Manager(zones: ZoneTable(), clock: { clock.now })
            // 30 cells of text on a 30-column viewer: it shows still.
            _ = try manager.post(channel: "main", text: String(repeating: "a", count: 30), request: MessageRequest())
            try manager.subscribe(subscriber: ":1.7", channel: "main", columns: 30, fps: 0)
            clock.now += postAt
            _ = manager.tick()
            let id = try manager.post(channel: "main", text: "BBBBB", request: MessageRequest())
            clock.now += removeAfter
            _ = manager.tick()
            guard try !manager.render(channel: "main", columns: 30, at: clock.now).text.contains("B") else { continue }
            unseenAtRemoval += 1
            try manager.remove(id: id)
            for _ in 0..<200 {
                clock.now += 100_000
                _ = manager.tick()
                let text = try manager.render(channel: "main", columns: 30, at: clock.now).text
                #expect(text == String(repeating: "a", count: 30),
                        "posted at \(postAt) µs, removed \(removeAfter) µs later unseen, then shown: '\(text)'")
            }
        }
        }
        #expect(unseenAtRemoval > trials / 2, "the removal came before the message showed in \(unseenAtRemoval) of \(trials) trials")
    }
}
