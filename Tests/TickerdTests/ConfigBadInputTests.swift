import Foundation
import Testing
import TestSupport
import TickerModel
@testable import tickerd

/// Files that loaded wrongly or slowly: a NUL byte that ended the file early, a dotted key of
/// thousands of parts, a `cycle` faster than the speed limit, texts of few but huge characters.
/// Each is refused with file, line and key (or column), or loads quickly; their shapes are in
/// Fuzz/corpus/config.
@Suite struct ConfigBadInputTests {
    let loader = ConfigLoader(zones: ZoneTable())
    let file = "/etc/tickerd/tickerd.toml"

    /// The parser reads a C string: everything after a NUL was silently dropped (here a syntax
    /// error and a message), and a file of NULs read as an empty configuration.
    @Test(arguments: [
        ("[channel.main]\nspeed = 12\n\u{0}\ngarbage [[[\n[[message]]\ntext = \"after nul\"\n", 3, 1),
        ("\u{0}\u{0}\u{0}", 1, 1),
        ("[[message]]\ntext = \"a\u{0}b\"\n", 2, 10),
    ])
    func aNULByteIsRefusedWithItsLineAndColumn(source: String, line: Int, column: Int) {
        let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
        #expect(error?.line == line)
        #expect(error?.description == "\(file):\(line): column \(column): a NUL byte (U+0000), which a TOML file cannot hold")
    }

    /// A file that is not UTF-8 was refused as "not valid UTF-8" with no line: in a long file
    /// (a Latin-1 é in one message) the person had to search for it.
    @Test(arguments: [
        ([UInt8]("[[message]]\ntext = \"caf".utf8) + [0xE9] + [UInt8]("\"\n".utf8), 2, 12),
        ([UInt8]("# ok\n\n[channel.main]\nseparator = \" ".utf8) + [0xE2, 0x80] + [UInt8]("\"\n".utf8), 4, 15),
        ([0xFF, 0xFE], 1, 1),
    ])
    func bytesThatAreNotUTF8AreRefusedWithTheirLineAndColumn(bytes: [UInt8], line: Int, column: Int) throws {
        let folder = try TemporaryDirectory(prefix: "config-utf8")
        let path = folder.file("tickerd.toml")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ConfigError.self) { try loader.load(path: path, missingIsEmpty: false) }
        #expect(error?.description == "\(path):\(line): column \(column): not valid UTF-8 (a TOML file is UTF-8 text)")
    }

    /// A priority is 32 bits from the file to the schedule, which keeps it in 32 bits: one past
    /// either end is refused on its line, not wrapped to a priority of the other sign.
    @Test(arguments: ["2147483648", "-2147483649", "9223372036854775807"])
    func aPriorityBeyond32BitsIsRefusedNotWrapped(value: String) throws {
        let error = #expect(throws: ConfigError.self) {
            try loader.parse("[[message]]\ntext = \"a\"\npriority = \(value)\n", file: file)
        }
        #expect(error?.description == "\(file):3: message[1].priority: out of range")
        let ends = try loader.parse("[[message]]\ntext = \"a\"\npriority = 2147483647\n"
                                    + "[[message]]\ntext = \"b\"\npriority = -2147483648\n", file: file)
        #expect(ends.messages.map(\.request.priority) == [Int32.max, Int32.min])
    }

    /// An id given twice names the other message; a default id (`config-N`, not in the file)
    /// that another message took said only "id 'config-2' is used twice", of a message with no id.
    @Test func anIdUsedTwiceNamesTheOtherMessageAndADefaultIdSaysSo() {
        let explicit = #expect(throws: ConfigError.self) {
            try loader.parse("[[message]]\nid = \"x\"\ntext = \"a\"\n[[message]]\ntext = \"b\"\nid = \"x\"\n", file: file)
        }
        #expect(explicit?.description == "\(file):6: message[2].id: id 'x' is used twice: message[1] has it too")
        let byDefault = #expect(throws: ConfigError.self) {
            try loader.parse("[[message]]\nid = \"config-2\"\ntext = \"a\"\n\n[[message]]\ntext = \"b\"\n", file: file)
        }
        #expect(byDefault?.description == "\(file):5: message[2].id: this message's default id 'config-2' "
            + "(config-N by position) is message[1]'s id; give this one an id")
    }

    /// A dotted key of thousands of parts stalled start or SIGHUP for 44 s (release; locating a
    /// key joined every prefix) and, deeper, overflowed toml++'s stack when it parsed or freed the
    /// document. It is refused on its line before toml++ sees it, and so are values nested as deep.
    @Test func aDottedKeyOrNestingOfThousandsOfLevelsIsRefusedQuickly() {
        let deepArray = "a = " + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + "\n"
        for (source, line, problem) in [
            ("[\(Self.dotted)]\n", 1, "a dotted key of more than 64 parts"),
            ("[channel.main]\nspeed = 8\n\(Self.dotted) = 1\n", 3, "a dotted key of more than 64 parts"),
            ("[channel.main]\n\(deepArray)", 2, "arrays and inline tables nested more than 64 deep"),
        ] {
            let started = ContinuousClock.now
            let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
            #expect(ContinuousClock.now - started < .seconds(2))
            #expect(error?.description == "\(file):\(line): \(problem)")
        }
        // 64 parts is a long key, not an error of its own: toml++ reads it, the loader names it.
        let longest = Array(repeating: "k", count: 64).joined(separator: ".")
        let error = #expect(throws: ConfigError.self) { try loader.parse("\n[\(longest)]\n", file: file) }
        #expect(error?.description.hasPrefix("\(file):2: k: unknown key") == true, "\(String(describing: error))")
    }

    /// The locator's own work is linear: past its first parts a key is located by them.
    @Test func theKeyLocatorIsLinearInADottedKey() {
        let started = ContinuousClock.now
        let locator = TOMLKeyLocator(source: "[\(Self.dotted)]\nx = 1\n")
        #expect(locator.line(of: Self.dotted + ".x") == 1)
        #expect(locator.line(of: "k.k") == 1)
        #expect(locator.line(of: "other") == 0)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    /// A quoted key may hold `=`, `]`, `#` or an escaped quote, and its mistake is still reported on
    /// its own line: the locator took the `=` inside `'a=b'` for the key's end, so the `fuzz`
    /// target's `'…=…' = 'j'` was reported with no line, and under `[channel.main]` on the
    /// header's line.
    @Test func aMistakeInAQuotedKeyIsReportedOnItsLine() throws {
        let cases: [(source: String, line: Int, key: String)] = [
            ("'a=b' = 'j'\n", 1, "a=b"),
            ("[channel.main]\nspeed = 3\n\n'a=b' = 'j'\n", 4, "channel.main.a=b"),
            ("[channel.main]\nspeed = 3\n\"x]#\\\"y\" = 1\n", 3, "channel.main.x]#\"y"),
            ("[channel.main]\n\n[\"a]b\".c]\nx = 1\n", 3, "a]b"),
            ("[[message]]\nid = \"one\"\ntext = \"hi\"\n\n[[message]]\nid = \"two\"\n'te=xt' = \"x\"\n", 7,
             "message[2].te=xt"),
        ]
        for (source, line, key) in cases {
            let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
            // Listed among the file's mistakes (the message without a text names that too).
            let mistake = error?.listed.first { $0.key == key }
            #expect(mistake?.line == line, "\(source.debugDescription): \(String(describing: error))")
        }
        // A quoted key's own dots make a long path of a short key (the sources target's
        // `"j…source[4].tem…" = 8`, nine dots in one key, was reported with no line).
        let dots = (1...9).map { "p\($0)" }.joined(separator: ".")
        let dotted = try #require(#expect(throws: ConfigError.self) { try loader.parse("\n\"\(dots)\" = 8\n", file: file) })
        #expect(dotted.line == 2, "\(dotted)")
        // Escapes in a basic-string key are decoded as TOML decodes them (the sources target's
        // `"…\\\r…"`: a backslash and a carriage return in the key the error names).
        let escapes = try #require(#expect(throws: ConfigError.self) {
            try loader.parse("\n\n\"x\\\\\\r\\u00E9\\\"y\" = 8\n", file: file)
        })
        #expect(escapes.line == 3 && escapes.key == "x\\\r\u{E9}\"y", "\(escapes)")
        // A quoted key that starts with a combining mark: Swift makes one Character of the quote
        // and the mark, and the locator missed the quote (the sources target's `"\u{6DF}dscz t:"=1`).
        for (source, line) in [("\n\"\u{6DF}dscz t:\"=1\n", 2), ("[channel.main]\n'\u{301}x=' = 1\n", 2),
                               ("[\"\u{6DF}c\".d]\nx = 1\n", 1)] {
            let marked = try #require(#expect(throws: ConfigError.self) { try loader.parse(source, file: file) })
            #expect(marked.line == line, "\(source.debugDescription): \(marked)")
        }
        let locator = TOMLKeyLocator(source: "[\"a]b\".c]\n'x=y' = 1\n[[\"l]]ist\"]]\nz = 2\n")
        #expect(locator.line(of: "a]b.c.x=y") == 2)
        #expect(locator.line(of: "l]]ist[1].z") == 4)
    }

    /// `k.k.k…`, 40 000 characters.
    static let dotted = Array(repeating: "k", count: 20_000).joined(separator: ".")

    /// `cycle` is bounded by the speed limit like `speed` (it was accepted down to 1 µs, a rate
    /// of millions of cells per second).
    @Test func aCycleFasterThanTheSpeedLimitIsRefused() throws {
        let error = #expect(throws: ConfigError.self) {
            try loader.parse("[channel.main]\nmode = \"scroll\"\ncycle = \"1us\"\n", file: file)
        }
        #expect(error?.description.hasPrefix("\(file):3: channel.main.cycle: cycle must be at least 100 microseconds") == true,
                "\(String(describing: error))")
        let config = try loader.parse("[channel.main]\ncycle = \"100us\"\n", file: file)
        #expect(config.channels["main"]?.request.cycle == 100)
    }

    /// A motion value out of its range was reported at the section's header with the section as
    /// its key (`tickerd.toml:1: channel.main: speed must be …`); it names its own line and key.
    @Test(arguments: [
        ("speed = -3", "speed", "speed must be above 0"),
        ("speed = 0", "speed", "speed must be above 0"),
        ("speed = nan", "speed", "speed must be above 0"),
        ("speed = 20000", "speed", "speed must be above 0 and at most 10000"),
        ("cycle = \"50us\"", "cycle", "cycle must be at least 100 microseconds"),
        ("delay = \"2y\"", "delay", "delay must be at most a year"),
        ("phase = \"wall-clock\"\nloops = 3", "loops", "phase wall-clock repeats for ever"),
    ])
    func aMotionValueOutOfRangeNamesItsLineAndKey(lines: String, key: String, problem: String) {
        let source = "# motion\n[channel.news]\nmode = \"scroll\"\n\(lines)\n"
        let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
        let line = 4 + lines.split(separator: "\n").firstIndex { $0.hasPrefix(key) }!
        #expect(error?.line == line && error?.key == "channel.news.\(key)", "\(String(describing: error))")
        #expect(error?.description.hasPrefix("\(file):\(line): channel.news.\(key): \(problem)") == true,
                "\(String(describing: error))")
    }

    /// A marquee label's curve names are accepted beside the rules' own.
    @Test func aLabelsEasingNamesAreAccepted() throws {
        let config = try loader.parse(
            "[channel.a]\neasing = \"easeInOut\"\n[channel.b]\neasing = \"easeIn\"\n[channel.c]\neasing = \"easeOut\"\n",
            file: file)
        #expect(config.channels["a"]?.request.easing == .easeInOutQuad)
        #expect(config.channels["b"]?.request.easing == .easeInQuad)
        #expect(config.channels["c"]?.request.easing == .easeOutQuad)
        let error = #expect(throws: ConfigError.self) { try loader.parse("[channel.a]\neasing = \"easeinout\"\n", file: file) }
        #expect(error?.description.contains("easeIn, easeOut, easeInOut, not 'easeinout'") == true, "\(String(describing: error))")
    }

    /// A message of few characters can still be huge: it is bounded in bytes and in code points
    /// a character, each named by its `[limits]` key.
    @Test(arguments: [
        ("[[message]]\ntext = \"q\(String(repeating: "\\u0301", count: 40))\"\n",
         "2: message[1].text: text has a character (grapheme cluster) of 41 code points at index 0; "
            + "the limit is 32 code points a character ([limits] character-length)"),
        ("[limits]\nmessage-bytes = 8\n[[message]]\ntext = \"\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\"\n",
         "4: message[1].text: text is 10 bytes long (UTF-8); the limit is 8 bytes ([limits] message-bytes)"),
        ("[limits]\ncharacter-length = 2\n[[message]]\ntext = \"e\u{301}\u{302}\"\n",
         "4: message[1].text: text has a character (grapheme cluster) of 3 code points at index 0; "
            + "the limit is 2 code points a character ([limits] character-length)"),
        ("[limits]\nmessage-bytes = 0\n", "2: limits.message-bytes: must be above 0"),
    ])
    func aTextOverTheByteOrCharacterLimitIsRefused(source: String, expected: String) {
        let error = #expect(throws: ConfigError.self) { try loader.parse(source, file: file) }
        #expect(error?.description == "\(file):\(expected)")
    }

    /// The new limits reach the daemon.
    @Test func theTextLimitsAreRead() throws {
        let config = try loader.parse("[limits]\nmessage-bytes = 100\ncharacter-length = 3\n", file: file)
        #expect(config.limits.model.bytesPerMessage == 100)
        #expect(config.limits.model.scalarsPerCluster == 3)
    }
}
