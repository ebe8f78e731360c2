import Foundation
import Testing
import TestSupport
import TickerModel
@testable import tickerd

/// A file with several mistakes: one check names every key with a mistake, section by section, so
/// a person fixes them in one pass instead of one start (or reload) per mistake.
@Suite struct ConfigMistakesTests {
    let loader = ConfigLoader(zones: ZoneTable())
    let file = "/etc/tickerd/tickerd.toml"

    static let sixMistakes = """
        tpyo = 1
        [channel.main]
        speed = "fast"
        mode = "scrol"

        [channel.side]
        spead = 3

        [[message]]
        text = "fine"

        [[message]]
        text = "a"
        calendar = "25:00"
        duration = "1h"

        [[message]]
        text = "b"
        urgent = "yes"
        ttl = "5x"

        [[message]]
        id = "dup"
        text = "c"

        [[message]]
        id = "dup"
        text = "d"
        """

    /// Each key is read on its own; a check across keys (a calendar's duration) waits until the
    /// keys it reads are right, so it never names a mistake that is only another's echo.
    @Test func everyKeysMistakeIsNamedInOrder() throws {
        let error = try #require(#expect(throws: ConfigError.self) { try loader.parse(Self.sixMistakes, file: file) })
        let found = error.listed.map { "\($0.line) \($0.key)" }
        #expect(found == [
            "1 tpyo", "3 channel.main.speed", "4 channel.main.mode", "7 channel.side.spead",
            "14 message[2].calendar", "19 message[3].urgent", "20 message[3].ttl", "27 message[5].id",
        ])
        // The first is the one a file with only that mistake gives; the others follow a line each.
        #expect(error.line == 1 && error.key == "tpyo" && error.unlisted == 0)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines == error.listed.map { mistake in
            "\(file):\(mistake.line): \(mistake.key): \(mistake.problem)"
        })
        #expect(lines[5] == "\(file):19: message[3].urgent: expected true or false, found string")
        #expect(lines[2] == "\(file):4: channel.main.mode: must be one of continuous, scroll, bounce, static, pages, not 'scrol'")
        // Fixed one by one as the check names them, the file is taken.
        let fixed = Self.sixMistakes
            .replacingOccurrences(of: "tpyo = 1\n", with: "")
            .replacingOccurrences(of: "\"scrol\"", with: "\"scroll\"")
            .replacingOccurrences(of: "\"fast\"", with: "12")
            .replacingOccurrences(of: "spead", with: "speed")
            .replacingOccurrences(of: "25:00", with: "23:00")
            .replacingOccurrences(of: "urgent = \"yes\"\nttl = \"5x\"", with: "urgent = true\nttl = \"5min\"")
            .replacingOccurrences(of: "id = \"dup\"\ntext = \"d\"", with: "id = \"dup2\"\ntext = \"d\"")
        let config = try loader.parse(fixed, file: file)
        #expect(config.messages.map(\.text) == ["fine", "a", "b", "c", "d"])
        #expect(config.channels.keys.sorted() == ["main", "side"])
    }

    /// Channels are read before messages, but the mistakes are named in the order of the file.
    @Test func theMistakesAreNamedInTheFilesOrder() {
        let source = "[[message]]\ntext = \"a\"\nttl = \"soon\"\n\n[channel.main]\nmode = \"sideways\"\n"
        let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
        #expect(error?.listed.map { "\($0.line) \($0.key)" } == ["3 message[1].ttl", "6 channel.main.mode"])
        #expect(error?.key == "message[1].ttl")
    }

    /// The other sections are checked against the file's limits: with a mistake there, they would
    /// be checked against others, so the reading ends there.
    @Test func aMistakeInTheLimitsIsNamedAlone() {
        let source = "[limits]\nmessages = 0\n\n[[message]]\ntext = \"a\"\nttl = \"soon\"\n"
        let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
        #expect(error?.listed.map(\.key) == ["limits.messages"])
    }

    /// A budget mistake (a channel over `[limits] channels`) is named with the other sections'.
    @Test func aChannelOverTheLimitIsNamedWithTheOthers() {
        let source = """
            [limits]
            channels = 2

            [[message]]
            channel = "one"
            text = "a"

            [[message]]
            channel = "two"
            text = "b"

            [[message]]
            text = "c"
            priority = "high"
            """
        let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
        #expect(error?.listed.map { "\($0.line) \($0.key)" } == ["9 message[2].channel", "14 message[3].priority"])
    }

    /// A file generated wrong (every message with the same mistake) lists the first 20 and counts
    /// the rest, instead of printing thousands of lines.
    @Test func beyondTwentyMistakesTheRestAreCounted() {
        let source = (1...1000).map { "[[message]]\ntext = \"m\($0)\"\nttl = \"-\($0)s\"\n" }.joined()
        let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
        #expect(error?.listed.count == ConfigProblems.listed)
        #expect(error?.listed.last?.key == "message[20].ttl")
        #expect(error?.unlisted == 980)
        #expect(error?.description.hasSuffix("\n\(file): and 980 more mistakes") == true)
    }
}
