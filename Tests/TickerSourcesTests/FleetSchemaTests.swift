import Foundation
import Testing
import TestSupport
@testable import TickerSources

/// docs/fleet-message.schema.json says what the mqtt source accepts: python's jsonschema (an
/// independent validator) and the source's own reader agree on every payload here.
@Suite struct FleetSchemaTests {
    /// Payloads on both sides of each rule (the one rule a schema cannot state, `end` after
    /// `start`, is left out).
    static let payloads = [
        #"{"text": "Hi"}"#,
        #"{"text": "Hi", "priority": -2, "urgent": true, "start": 100, "end": 200, "effect": "reveal", "reveal": 5, "link": "https://example.org/a?b=c"}"#,
        #"{"text": "t", "ttl": 10}"#, #"{"text": "Boarding...", "effect": "dots"}"#, #"{"text": "t", "effect": "dots"}"#, #"{"text": "t", "link": "mailto:desk@example.org"}"#,
        #"{"text": "t", "priority": 2147483647}"#, #"{"text": "t", "reveal": 0, "effect": "reveal"}"#,
        #"[1]"#, #""text""#, #"{"priority": 1}"#, #"{"text": 5}"#, #"{"text": ""}"#, #"{"text": "t", "colour": 1}"#,
        #"{"text": "t", "calendar": "daily"}"#, #"{"text": "t", "duration": 5}"#, #"{"text": "t", "urgent": 1}"#,
        #"{"text": "t", "start": 1.5}"#, #"{"text": "t", "priority": 2147483648}"#, #"{"text": "t", "ttl": 0}"#,
        #"{"text": "t", "ttl": 5, "end": 9}"#, #"{"text": "t", "effect": "blink"}"#, #"{"text": "t", "reveal": 5}"#,
        #"{"text": "t", "reveal": -1, "effect": "reveal"}"#, #"{"text": "t", "link": "not a uri"}"#,
        #"{"text": "t", "link": "https://example.org/a b"}"#, #"{"text": "t", "link": ""}"#, #"{"text": null}"#,
    ]

    @Test func theSchemaAndTheReaderAgree() throws {
        let schema = PythonVenv.repositoryRoot + "/docs/fleet-message.schema.json"
        let script = """
            import json, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            jsonschema.Draft202012Validator.check_schema(validator.schema)
            for line in sys.stdin.read().splitlines():
                print("valid" if validator.is_valid(json.loads(line)) else "invalid")
            """
        let directory = try TemporaryDirectory(prefix: "fleet-schema")
        try Self.payloads.joined(separator: "\n").write(toFile: directory.file("payloads"), atomically: true, encoding: .utf8)
        try script.write(toFile: directory.file("check.py"), atomically: true, encoding: .utf8)
        let output = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$1\" \"$2\" < \"$3\"",
                                                      try PythonVenv.python(), directory.file("check.py"), schema,
                                                      directory.file("payloads")])
        #expect(output.status == 0, "\(output.stderr)")
        let verdicts = output.stdout.split(separator: "\n").map { $0 == "valid" }
        #expect(verdicts.count == Self.payloads.count)
        for (payload, schemaSays) in zip(Self.payloads, verdicts) {
            let readerSays = (try? FleetMessage(json: Array(payload.utf8))) != nil
            #expect(readerSays == schemaSays, "\(payload): reader \(readerSays), schema \(schemaSays)")
        }
    }
}
