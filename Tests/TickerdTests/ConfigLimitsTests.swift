import Foundation
import TestSupport
import Testing
import TickerModel
@testable import tickerd

/// A configuration file is checked against its own `[limits]` (and the rules the bus applies),
/// so that a file tickerd accepts always applies to a fresh daemon. The `config` fuzz target
/// found files that loaded and then failed to apply with an error that named no file, line or
/// key (`[limits] channels = 1` with a message on a second channel, a text over
/// `message-length`, `duration = "0"`).
@Suite struct ConfigLimitsTests {
    let loader = ConfigLoader(zones: ZoneTable())
    static let base: Instant = 1_767_225_600_000_000  // 2026-01-01 00:00 UTC

    @Test(arguments: [
        ("[limits]\nchannels = 1\n\n[[message]]\nchannel = \"x\"\ntext = \"hi\"\n",
         "test.toml:5: message[1].channel: channel 'x' would be channel 2, but [limits] channels is 1"),
        ("[limits]\nchannels = 2\n[channel.a]\nmode = \"static\"\n[channel.b]\nmode = \"static\"\n",
         "test.toml:5: channel.b: channel 'b' would be channel 3, but [limits] channels is 2"),
        ("[limits]\nmessage-length = 3\n[[message]]\ntext = \"hello\"\n",
         "test.toml:4: message[1].text: text is 5 characters (grapheme clusters) long; the limit is 3 characters ([limits] message-length)"),
        // "\r\n" is one Character but two spaces on the tape: the cleaned text is what counts.
        ("[limits]\nmessage-length = 3\n[[message]]\ntext = \"hi\\r\\n\"\n",
         "test.toml:4: message[1].text: text is 4 characters (grapheme clusters) long; the limit is 3 characters ([limits] message-length)"),
        ("[channel.main]\nseparator = \"bad \\u202E\"\n", "test.toml:2: channel.main.separator: text contains U+202E"),
        ("[channel.main]\nmode = \"static\"\ngap = \"\\u0301x\"\n", "test.toml:3: channel.main.gap:"),
        ("[limits]\nmessages = 1\n[[message]]\ntext = \"a\"\n[[message]]\ntext = \"b\"\n",
         "test.toml:5: message[2].channel: channel 'main' would hold more than 1 messages of this file"),
        ("[[message]]\ntext = \"a\"\ncalendar = \"*-*-* 21:00\"\nduration = \"0\"\n",
         "test.toml:4: message[1].duration: must be above 0"),
        ("[[message]]\ntext = \"a\"\nttl = \"0\"\n", "test.toml:3: message[1].ttl: must be above 0"),
    ])
    func aFileThatBreaksItsOwnLimitsIsRefusedWithFileLineAndKey(source: String, expected: String) throws {
        let error = try #require(throws: ConfigError.self) { try loader.parse(source, file: "test.toml") }
        #expect(error.description.hasPrefix(expected), "\(error.description)")
    }

    /// At the limits exactly, the file loads and applies.
    @Test func aFileAtItsLimitsLoadsAndApplies() throws {
        let config = try loader.parse("""
            [limits]
            channels = 2
            messages = 2
            message-length = 3

            [channel.main]
            separator = " •• "  # longer than a message may be: message-length bounds messages only
            [channel.side]
            mode = "static"

            [[message]]
            text = "abc"
            [[message]]
            text = "d\\r\\n"
            channel = "side"
            [[message]]
            text = "e\\u0301fg"
            channel = "side"
            """, file: "test.toml")
        let manager = Manager(zones: ZoneTable(), clock: { Self.base })
        try manager.apply(config: config)
        #expect(manager.channels.keys.sorted() == ["main", "side"])
        #expect(manager.messages.count == 3)
    }

    /// `start` with a TTL that runs out before it is a window that can never open: like a
    /// window of the file that has closed, it is skipped, not applied as an error.
    @Test func aStartAfterTheTTLEndsIsSkipped() throws {
        let config = try loader.parse(
            "[[message]]\nid = \"never\"\ntext = \"a\"\nstart = \"@1893456000\"\nttl = \"1h\"\n"
                + "[[message]]\nid = \"soon\"\ntext = \"b\"\nstart = \"@1767225660\"\nttl = \"1h\"\n",
            file: "test.toml")
        let manager = Manager(zones: ZoneTable(), clock: { Self.base })
        try manager.apply(config: config)
        #expect(manager.messages["never"] == nil)
        #expect(manager.messages["soon"] != nil)
    }

    /// A configuration that fails to apply (here: the channels the bus made plus the file's
    /// own pass the file's `[limits] channels`) leaves everything as it was, its limits too.
    @Test func aFileThatFailsToApplyLeavesTheOldLimits() throws {
        let manager = Manager(zones: ZoneTable(), clock: { Self.base })
        for name in ["a", "b"] { _ = try manager.post(channel: name, text: "x", request: MessageRequest()) }
        let config = try loader.parse("[limits]\nchannels = 3\nmessage-length = 5\n[channel.c]\nmode = \"static\"\n", file: "t.toml")
        #expect(throws: TickerError.self) { try manager.apply(config: config) }
        #expect(manager.limits == .standard)
        #expect(manager.channels.keys.sorted() == ["a", "b", "main"])
        _ = try manager.post(channel: "d", text: "longer than five", request: MessageRequest())
    }

    // MARK: Property: accepted exactly when a plain reference says so, and then it applies

    /// One generated file and what the reference expects of it.
    struct Sample {
        var source = ""
        /// The keys at fault (empty: the file must load and apply).
        var faults: Set<String> = []
        /// Messages that must be on the tape after applying (their windows are open or to come).
        var kept: Set<String> = []
    }

    /// A random file over small limits, and the reference's verdict, written out plainly.
    static func sample(_ random: inout SeededRandom) -> Sample {
        var sample = Sample()
        let channelLimit = [nil, 1, 2, 3].randomElement(using: &random)!
        let messageLimit = [nil, 1, 2].randomElement(using: &random)!
        let lengthLimit = [nil, 2, 3, 5].randomElement(using: &random)!
        var lines: [String] = []
        if channelLimit != nil || messageLimit != nil || lengthLimit != nil {
            lines.append("[limits]")
            if let channelLimit { lines.append("channels = \(channelLimit)") }
            if let messageLimit { lines.append("messages = \(messageLimit)") }
            if let lengthLimit { lines.append("message-length = \(lengthLimit)") }
        }
        // Pieces: (TOML source, the text it stands for).
        let pieces: [(String, String)] = [("a", "a"), ("é", "é"), ("e\\u0301", "e\u{301}"), ("\\r\\n", "\r\n"), ("👍", "👍"), (" ", " ")]
        func text() -> (String, String) {
            var source = "x", value = "x"  // never starts with a mark or a line end
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let piece = pieces.randomElement(using: &random)!
                source += piece.0
                value += piece.1
            }
            return (source, value)
        }
        /// Tape cells as the reference counts them: tab, CR and LF become spaces, then clusters.
        func clusters(_ value: String) -> Int {
            var cleaned = String.UnicodeScalarView()
            for scalar in value.unicodeScalars { cleaned.append(["\t", "\r", "\n"].contains(scalar) ? " " : scalar) }
            return String(cleaned).count
        }
        let length = lengthLimit ?? 4096
        let names = ["main", "a", "b", "c"]
        var channels: [String] = ["main"]  // in the order a fresh daemon meets them
        var sections = Set<String>()
        for _ in 0..<Int.random(in: 0...3, using: &random) { sections.insert(names.randomElement(using: &random)!) }
        for name in sections.sorted() {
            lines.append("[channel.\(name)]")
            lines.append("mode = \"static\"")
            // `message-length` does not bound separators (the default one is 5 cells).
            for key in ["separator", "gap"] where Bool.random(using: &random) {
                lines.append("\(key) = \"\(text().0)\"")
            }
            if !channels.contains(name) {
                if channels.count >= channelLimit ?? 64 { sample.faults.insert("channel.\(name)") }
                channels.append(name)
            }
        }
        var perChannel: [String: Int] = [:]
        for index in 0..<Int.random(in: 0...5, using: &random) {
            let key = "message[\(index + 1)]"
            lines.append("[[message]]")
            lines.append("id = \"m\(index)\"")
            let channel = Bool.random(using: &random) ? names.randomElement(using: &random)! : "main"
            if channel != "main" || Bool.random(using: &random) { lines.append("channel = \"\(channel)\"") }
            let (source, value) = text()
            lines.append("text = \"\(source)\"")
            if clusters(value) > length { sample.faults.insert("\(key).text") }
            var neverOpens = false
            switch Int.random(in: 0...4, using: &random) {
            case 1:
                let ttl = ["0", "1h"].randomElement(using: &random)!
                lines.append("ttl = \"\(ttl)\"")
                if ttl == "0" { sample.faults.insert("\(key).ttl") }
            case 2:
                lines.append("start = \"@1893456000\"")  // 2030, long after the TTL has run out
                lines.append("ttl = \"1h\"")
                neverOpens = true
            case 3:
                let duration = ["0", "1h"].randomElement(using: &random)!
                lines.append("calendar = \"*-*-* 21:00\"")
                lines.append("duration = \"\(duration)\"")
                if duration == "0" { sample.faults.insert("\(key).duration") }
            default: break
            }
            if !channels.contains(channel) {
                if channels.count >= channelLimit ?? 64 { sample.faults.insert("\(key).channel") }
                channels.append(channel)
            }
            perChannel[channel, default: 0] += 1
            if perChannel[channel]! > messageLimit ?? 1000 { sample.faults.insert("\(key).channel") }
            if !neverOpens { sample.kept.insert("m\(index)") }
        }
        sample.source = lines.joined(separator: "\n") + "\n"
        return sample
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aFileLoadsExactlyWhenTheReferenceFindsNoFaultAndThenApplies(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var refused = 0, applied = 0
        for _ in 0..<400 {
            let sample = Self.sample(&random)
            let config: DaemonConfig
            do {
                config = try loader.parse(sample.source, file: "test.toml")
            } catch {
                refused += 1
                #expect(sample.faults.contains(error.key), "refused at \(error) but the faults are \(sample.faults)\n\(sample.source)")
                #expect(error.line >= 1, "\(error)")
                continue
            }
            #expect(sample.faults.isEmpty, "loaded, but the reference finds \(sample.faults)\n\(sample.source)")
            let manager = Manager(zones: ZoneTable(), clock: { Self.base })
            do {
                try manager.apply(config: config)
                applied += 1
            } catch {
                Issue.record("loaded, but applying failed: \(error)\n\(sample.source)")
                continue
            }
            #expect(Set(manager.messages.keys) == sample.kept, "\(sample.source)")
        }
        // Both outcomes are exercised.
        #expect(refused > 50 && applied > 50, "refused \(refused), applied \(applied)")
    }
}
