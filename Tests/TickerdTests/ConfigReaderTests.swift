import Testing
import TickerModel
@testable import tickerd

@Suite struct ConfigReaderTests {
    static let source = """
        # tickerd test configuration
        [limits]
        messages = 10

        [channel.main]
        mode = "scroll"
        speed = 8

        [channel."side bar"]
        speed = "fast"

        [[message]]
        text = "first"

        [[message]]
        text = "second"
        priority = "high"
        """

    func document() throws -> ConfigTable {
        let parsed = try TOMLDocument(source: Self.source)
        return ConfigTable(parsed, file: "/etc/tickerd/tickerd.toml", locator: TOMLKeyLocator(source: Self.source))
    }

    @Test func locatorFindsKeysTablesAndArrayElements() {
        let locator = TOMLKeyLocator(source: Self.source)
        #expect(locator.line(of: "limits.messages") == 3)
        #expect(locator.line(of: "channel.main") == 5)
        #expect(locator.line(of: "channel.main.speed") == 7)
        #expect(locator.line(of: "channel.side bar.speed") == 10)
        #expect(locator.line(of: "message[1].text") == 13)
        #expect(locator.line(of: "message[2]") == 15)
        #expect(locator.line(of: "message[2].priority") == 17)
        // An absent key falls back to its table; an unknown table to 0.
        #expect(locator.line(of: "channel.main.delay") == 5)
        #expect(locator.line(of: "nothing.here") == 0)
    }

    /// The lines of a multi-line string were read as headers and keys: a message text with a
    /// line `[note]` moved every later key into a table `note`, so a wrong `id` below it was
    /// reported at the message's header (line 1) instead of its own line.
    @Test func locatorSkipsTheLinesOfMultilineStrings() throws {
        let source = """
            [[message]]
            text = \"\"\"
            [note] the build
            id = "not a key"
            \"\"\"
            id = 5
            [[message]]
            text = '''
            priority = 1
            [[message]]'''
            priority = "high"
            """
        let locator = TOMLKeyLocator(source: source)
        #expect(locator.line(of: "message[1].id") == 6)
        #expect(locator.line(of: "message[2]") == 7)
        #expect(locator.line(of: "message[2].priority") == 11)
        #expect(locator.line(of: "note") == 0)
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader(zones: ZoneTable()).parse(source, file: "/etc/tickerd/tickerd.toml")
        }
        #expect(error?.description.hasPrefix("/etc/tickerd/tickerd.toml:6: message[1].id: expected a string") == true,
                "\(String(describing: error))")
    }

    /// `ttl = 600` (docs/configuration.md: "a bare number is in seconds", of a span's text) and
    /// an unquoted TOML date-time were refused as "expected a string", not saying what to write.
    @Test(arguments: [
        ("ttl = 600", "ttl", "expected a time span such as \"10min\" or \"1h 30s\" in quotes, found integer"),
        ("start = 2030-12-24 18:00:00", "start",
         "expected a timestamp such as \"2026-12-24 18:00\" or \"@1767225600\" in quotes, found date-time"),
    ])
    func aSpanOrInstantNotInQuotesSaysToQuoteIt(line: String, key: String, problem: String) {
        let source = "[[message]]\ntext = \"a\"\n\(line)\n"
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader(zones: ZoneTable()).parse(source, file: "/etc/tickerd/tickerd.toml")
        }
        #expect(error?.description == "/etc/tickerd/tickerd.toml:3: message[1].\(key): \(problem)")
    }

    @Test func typedReadsReturnValues() throws {
        let document = try document()
        let main = try #require(try document.table("channel")?.table("main"))
        #expect(try main.string("mode") == "scroll")
        #expect(try main.double("speed") == 8)
        #expect(try main.int("speed") == 8)
        #expect(try main.string("absent") == nil)
        let messages = try document.tables("message")
        #expect(messages.count == 2)
        #expect(try messages[1].string("text") == "second")
    }

    @Test func wrongTypeNamesFileLineAndKey() throws {
        let document = try document()
        let messages = try document.tables("message")
        let error = try #require(throws: ConfigError.self) { try messages[1].int("priority") }
        #expect(error.file == "/etc/tickerd/tickerd.toml")
        #expect(error.line == 17)
        #expect(error.key == "message[2].priority")
        #expect(error.description.hasPrefix("/etc/tickerd/tickerd.toml:17: message[2].priority: expected an integer"))
    }

    @Test func unknownKeyIsAnError() throws {
        let channel = try #require(try document().table("channel")?.table("main"))
        let error = try #require(throws: ConfigError.self) { try channel.rejectUnknownKeys(["mode"]) }
        #expect(error.key == "channel.main.speed")
        #expect(error.line == 7)
        #expect(error.problem.contains("unknown key"))
    }

    @Test func parseFailureCarriesTheParsersMessage() throws {
        struct NotFast: Error, CustomStringConvertible { var description: String { "no such speed" } }
        let channel = try #require(try document().table("channel")?.table("side bar"))
        let error = try #require(throws: ConfigError.self) {
            try channel.parsed("speed", as: "a speed") { _ throws -> Double in throw NotFast() }
        }
        #expect(error.line == 10)
        #expect(error.problem == "not a speed: no such speed")
    }
}
