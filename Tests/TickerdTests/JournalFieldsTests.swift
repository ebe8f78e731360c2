import Logging
import Testing
@testable import tickerd

@Suite struct JournalFieldsTests {
    @Test func entryCarriesMessagePriorityIdentifierCodeAndMetadata() {
        let event = LogEvent(
            level: .warning, message: "channel created", metadata: ["channel": "main", "message-id": "m1"],
            source: "tickerd", file: "Manager.swift", function: "post()", line: 42)
        let fields = JournalFields.make(identifier: "tickerd", event: event, handlerMetadata: ["bus": "session"])
        #expect(fields.first == "MESSAGE=channel created")
        #expect(fields.contains("PRIORITY=4"))
        #expect(fields.contains("SYSLOG_IDENTIFIER=tickerd"))
        #expect(fields.contains("CODE_FILE=Manager.swift"))
        #expect(fields.contains("CODE_LINE=42"))
        #expect(fields.contains("CODE_FUNC=post()"))
        #expect(fields.contains("TICKER_CHANNEL=main"))
        #expect(fields.contains("TICKER_MESSAGE_ID=m1"))
        #expect(fields.contains("TICKER_BUS=session"))
    }

    @Test func everyLevelMapsToItsSyslogPriority() {
        let expected: [(Logger.Level, Int)] = [
            (.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ]
        for (level, priority) in expected {
            #expect(JournalFields.syslogPriority(level) == priority)
        }
    }
}
