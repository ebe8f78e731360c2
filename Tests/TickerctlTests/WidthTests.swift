import TestSupport
import Testing
import TickerModel
@testable import tickerctl

/// Every line `follow` prints is exactly N cells wide, with wide (CJK, emoji) and zero-width
/// clusters anywhere, cut by any window.
@Suite struct WidthTests {
    /// Reference widths of the test alphabet, written down by hand from the rules (DESIGN §4).
    static let alphabet: [(Character, Int)] = [
        ("a", 1), ("Z", 1), (" ", 1), ("•", 1), ("é", 1), ("<", 1), ("%", 1),
        ("日", 2), ("本", 2), ("語", 2), ("한", 2), ("🎉", 2), ("👍🏽", 2), ("🇩🇪", 2), ("❤️", 2),
        ("e\u{301}", 1), ("\u{200B}", 0),
    ]

    static func referenceWidth(_ text: String) -> Int {
        text.reduce(0) { sum, cluster in
            sum + (alphabet.first { $0.0 == cluster }?.1 ?? 1)
        }
    }

    static func randomText(_ random: inout SeededRandom, length: Int) -> String {
        var text = ""
        for _ in 0..<length {
            text.append(alphabet[Int(random.next() % UInt64(alphabet.count))].0)
        }
        return text
    }

    @Test func followLinesAreExactlyNCellsInEveryModeAndWindow() throws {
        var random = SeededRandom(seed: 42)
        let modes: [Mode] = [.continuous, .scroll, .bounce, .static, .pages]
        for round in 0..<60 {
            let messages = (0..<(1 + Int(random.next() % 3))).map { _ in Self.randomText(&random, length: 3 + Int(random.next() % 25)) }
            var settings = ChannelSettings()
            settings.mode = modes[round % modes.count]
            settings.speed = .cellsPerSecond(3 + Double(random.next() % 20))
            settings.direction = round % 2 == 0 ? .left : .right
            let tape = Tape(messages: messages, separator: settings.separator, gap: settings.gap)
            let start: Instant = 1_700_000_000_000_000
            let timeline = Timeline(tape: tape, settings: try settings.validated(), at: start)
            let snapshot = ChannelSnapshot(timeline: timeline, text: messages.joined(separator: " • "), columns: 0)
            let columns = 1 + Int(random.next() % 30)
            let planner = FollowPlanner(channel: "main", columnsOverride: columns, minimumInterval: 0)
            for step in 0..<40 {
                let at = start + Int64(step) * 97_531
                let line = planner.line(for: .channel(snapshot), columns: columns, at: at)
                #expect(Self.referenceWidth(line.text) == columns,
                        "mode \(settings.mode) \(columns) columns: \(line.text.debugDescription)")
            }
        }
    }
}
