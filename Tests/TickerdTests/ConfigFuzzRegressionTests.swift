import Testing
import TickerModel
@testable import tickerd

/// Configuration files the `config` fuzz target (Fuzz/, docs/fuzzing.md) found crashing the
/// daemon; their files are in Fuzz/corpus/config.
@Suite struct ConfigFuzzRegressionTests {
    let loader = ConfigLoader(zones: ZoneTable())
    let file = "/etc/tickerd/tickerd.toml"

    /// A table header that does not start with a key tripped an assertion inside toml++ and
    /// aborted tickerd (at start, or on reload with a running daemon). Now it is an error that
    /// names the file and line, like every other mistake.
    @Test(arguments: [
        ("[&limits]\n", 1), ("# ok\n[[%message]]\ntext = \"x\"\n", 2), ("[channel.main]\nspeed = 8\n[ @x ]\n", 3),
        ("[\n", 1), ("[[\n", 1), ("\u{FEFF}[\u{6}h]\n", 1),
        // An unterminated string ends at its line: the line after it is still counted once.
        ("[channel.main]\nseparator = \"open\n\n[&x]\n", 4),
    ])
    func aHeaderThatDoesNotStartWithAKeyIsAnError(source: String, line: Int) {
        #expect {
            _ = try loader.parse(source, file: file)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.line == line && error.description.hasPrefix("\(file):\(line): a table header must start with a key")
        }
    }

    /// `a = [}]` tripped toml++'s `parse_value()` assertion the same way (found by the fuzzer
    /// as `texty=[}]` in a `[[message]]`).
    @Test(arguments: [("[[message]]\ntext=[}]\n", 2), ("[channel.main]\nx = [1,\n  # c\n  }]\n", 4)])
    func anArrayValueStartingWithABraceIsAnError(source: String, line: Int) {
        #expect {
            _ = try loader.parse(source, file: file)
        } throws: { error in
            (error as? ConfigError)?.description.hasPrefix("\(file):\(line): an array value cannot start with \"}\"") == true
        }
    }

    /// A date followed by a space and a lone digit (`2024-01-01 7`) tripped toml++'s
    /// `parse_value()` assertion too (the fuzzer's `x = 2024-14-01 0 UTC"`): an error on its line,
    /// as a value, in an array or in an inline table; a full time, or the same text in a string or
    /// a comment, reads as before.
    /// What toml++ takes for a date is any ten characters (underscores not counted) that start
    /// with a digit and have `-` 5th and 8th: the fuzzers' `it =  02$3-02-01 0  …` (config) and
    /// `l=1--1-e!-e= 2` (sources) tripped it again, and a digit followed by U+FEFF, which toml++
    /// reads as a space.
    @Test(arguments: [("[[message]]\nid = \"a\"\nstart = 2024-01-01 7\n", 3), ("x = [2024-01-01 0, 1]\n", 1),
                      ("\n\nx = {d = 1979-05-27 9}\n", 3), ("x = 2024-14-01 0 UTC\"\n", 1),
                      ("it =  02$3-02-01 0  02$3-02-01 00n:e\n", 1), ("x = 2023-02-0a 0\n", 1),
                      ("x = 20_23-02-01 0\n", 1), ("x=2023-02-\u{E9}\u{E9} 0\n", 1), ("\nx = 2--4-56-89 0\n", 2),
                      ("l=1--1-e!-e= 2 \n", 1), ("ifectrt =  3883-03-01 0\u{FEFF}e\n\"9[m7e\n", 1)])
    func aDateWithALoneDigitForItsTimeIsAnError(source: String, line: Int) {
        #expect {
            _ = try loader.parse(source, file: file)
        } throws: { error in
            (error as? ConfigError)?.description.hasPrefix("\(file):\(line): a date's time must be written HH:MM:SS") == true
        }
    }

    @Test func aDateWithAFullTimeOrInAStringIsNoFault() {
        for source in ["x = 1979-05-27 07:32:00\n", "x = \"2024-01-01 7\"\n", "x = 2024-01-01 # 7\n", "x = 12024-01-01 7\n",
                       "x = 1979-05-27_07:32:00\n", "x = a023-02-01 0\n", "x = 2023-02-01 07\n", "x = 2023_02-01 7\n"] {
            #expect(TOMLHeaderGuard.firstFault(in: source) == nil, "\(source.debugDescription)")
        }
    }

    /// The guard reads TOML as TOML: brackets inside values, strings and comments are no headers.
    @Test func bracketsInsideValuesStringsAndCommentsAreNotHeaders() throws {
        let source = """
            # [&not a header]
            [channel.main]
            separator = "[& "
            gap = '[&literal]'  # [&a comment]

            [ "channel" . 'side' ]
            mode = "static"

            [[message]]
            text = \"\"\"
            [%multi-line text]\"\"\"
            """
        let config = try loader.parse(source, file: file)
        #expect(config.channels["main"]?.request.separator == "[& ")
        #expect(config.channels["side"]?.request.mode == .static)
        #expect(config.messages.first?.text == "[%multi-line text]")
    }

    /// A misspelt section named only through a dotted header (`[chanel.main]`) was reported as
    /// `file: chanel: unknown key`, without the line the brief promises a person.
    @Test func aMisspeltImplicitTableIsReportedOnItsLine() {
        #expect {
            _ = try loader.parse("# tickerd\n\n[chanel.main]\nspeed = 12\n", file: file)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.line == 3 && error.key == "chanel" && error.description.hasPrefix("\(file):3: chanel: unknown key")
        }
    }

    /// The same for a misspelt array of tables (`[[mesage]]`).
    @Test func aMisspeltArrayOfTablesIsReportedOnItsLine() {
        #expect {
            _ = try loader.parse("[[message]]\ntext = \"a\"\n\n[[mesage]]\ntext = \"b\"\n", file: file)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.line == 4 && error.description.hasPrefix("\(file):4: mesage: unknown key")
        }
    }

    /// A file that starts with a UTF-8 byte order mark: toml++ reads past it, and the first key's
    /// line must still be found.
    @Test func aByteOrderMarkDoesNotHideTheFirstLine() {
        #expect {
            _ = try loader.parse("\u{FEFF}priority = 10\n", file: file)
        } throws: { error in
            (error as? ConfigError)?.description.hasPrefix("\(file):1: priority: unknown key") == true
        }
    }

    /// A file with Windows line ends: "\r\n" is one Character in Swift, so the locator saw the
    /// whole file as one line and could name no line at all.
    @Test func windowsLineEndsKeepTheirLines() {
        #expect {
            _ = try loader.parse("[limits]\r\nmessages = 10\r\n\r\n[channel.main]\r\nalign = \"middle\"\r\n", file: file)
        } throws: { error in
            (error as? ConfigError)?.description.hasPrefix("\(file):5: channel.main.align:") == true
        }
    }

    /// The first crasher as the fuzzer found it (a mangled `[limits]` section).
    @Test func theFuzzerFindingIsAnError() {
        let source = "[&limits][channel.x\nmessage-length = 200\n"
        #expect(throws: ConfigError.self) { _ = try loader.parse(source, file: file) }
    }
}
