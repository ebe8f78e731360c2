import DBus
import Testing
import TOMLConfig
@testable import TickerSources

/// The mqtt source's configuration and what it reads from the broker: topics, message payloads
/// and channel settings, with the problems a publisher is told.
@Suite struct FleetPayloadTests {
    static let file = "/etc/tickerd/sources.toml"
    static let header = "[[source]]\nname = \"fleet\"\ntype = \"mqtt\"\ntemplate = \"{text}\"\n"

    @Test func readsAnMQTTSource() throws {
        let config = try SourcesConfigLoader().parse(Self.header + """
            host = "broker.example.org"
            topic = "tickerd/lobby"
            client-id = "screen-1"
            protocol = "mqtt311"
            keepalive = "30s"
            """, file: Self.file)
        let entry = try #require(config.entries.first)
        let source = try #require(entry.source as? MQTTSource)
        #expect(entry.needsNetwork)
        #expect(source.settings.port == 1883 && source.settings.protocolVersion == .mqtt311 && source.settings.keepalive == 30)
        #expect(source.settings.syncTopic == "tickerd/sync/screen-1")
        #expect(source.settings.treeFilter == "tickerd/lobby/#")
    }

    @Test func mistakesNameFileLineAndKey() {
        let base = Self.header + "host = \"b\"\n"
        let cases: [(String, Int, String, String)] = [
            (Self.header + "topic = \"t\"", 1, "source[1]", "missing key 'host'"),
            (base + "topic = \"tickerd/#\"", 6, "source[1].topic", "wildcards"),
            (base + "topic = \"tickerd//x\"", 6, "source[1].topic", "empty level"),
            (base + "topic = \"t\"\nport = 70000", 7, "source[1].port", "1 to 65535"),
            (base + "topic = \"t\"\nprotocol = \"mqtt3\"", 7, "source[1].protocol", "mqtt5"),
            (base + "topic = \"t\"\npassword = \"p\"", 7, "source[1].password", "username"),
            (base + "topic = \"t\"\nca-file = \"certs/ca.crt\"", 7, "source[1].ca-file", "absolute"),
            (base + "topic = \"t\"\nca-file = \"/nonexistent/ca.crt\"", 7, "source[1].ca-file", "cannot read"),
            (base + "topic = \"t\"\nusername = \"u\"\npassword-file = \"/nonexistent\"", 8, "source[1].password-file", "cannot read"),
            (base + "topic = \"t\"\nclient-id = \"a/b\"", 7, "source[1].client-id", "client id"),
            (base + "topic = \"t\"\nsync-topic = \"t/sync\"", 7, "source[1].sync-topic", "outside"),
            (base + "topic = \"t\"\nkeepalive = \"1s\"", 7, "source[1].keepalive", "5s"),
            (base + "topic = \"t\"\nqos = 2", 7, "source[1].qos", "unknown key"),
        ]
        for (text, line, key, words) in cases {
            var caught: ConfigError?
            do { _ = try SourcesConfigLoader().parse(text, file: Self.file) } catch { caught = error }
            #expect(caught?.file == Self.file, "\(text)")
            #expect(caught?.line == line, "\(String(describing: caught))")
            #expect(caught?.key == key, "\(String(describing: caught))")
            #expect(caught?.problem.contains(words) == true, "\(String(describing: caught))")
        }
    }

    @Test func topicsOfTheTree() {
        #expect(FleetTopic("tickerd/lobby/main/hello", prefix: "tickerd/lobby") == .message(channel: "main", id: "hello"))
        #expect(FleetTopic("tickerd/lobby/main/$settings", prefix: "tickerd/lobby") == .settings(channel: "main"))
        #expect(FleetTopic("tickerd/other/main/x", prefix: "tickerd/lobby") == nil)
        for bad in ["tickerd/lobby/main", "tickerd/lobby/main/a/b", "tickerd/lobby/no-dash/x", "tickerd/lobby/main/$x"] {
            guard case .invalid = FleetTopic(bad, prefix: "tickerd/lobby") else {
                Issue.record("\(bad) should be invalid")
                continue
            }
        }
    }

    @Test func messagePayloads() throws {
        let message = try FleetMessage(json: Array(#"""
            {"text": "Hi", "priority": -2, "urgent": true, "start": 100, "end": 200, "effect": "reveal",
             "reveal": 5, "link": "https://example.org/"}
            """#.utf8))
        #expect(message.text == "Hi" && message.priority == -2 && message.urgent && message.link == "https://example.org/")
        #expect(message.expires(receivedAt: 50) == 200)
        #expect(message.passedOptions == ["start": .int64(100), "effect": .string("reveal"), "reveal": .int64(5)])
        #expect(try FleetMessage(json: Array(#"{"text": "t", "ttl": 10}"#.utf8)).expires(receivedAt: 50) == 60)

        let problems: [(String, String)] = [
            ("{text", "not valid JSON"),
            ("[1]", "JSON object"),
            (#"{"priority": 1}"#, "missing \"text\""),
            (#"{"text": 5}"#, "\"text\" must be a string, got an integer"),
            (#"{"text": ""}"#, "must not be empty"),
            (#"{"text": "t", "colour": 1}"#, "unknown option 'colour'"),
            (#"{"text": "t", "calendar": "daily"}"#, "not available over MQTT"),
            (#"{"text": "t", "urgent": 1}"#, "\"urgent\" must be a boolean"),
            (#"{"text": "t", "start": 1.5}"#, "\"start\" must be an integer"),
            (#"{"text": "t", "priority": 3000000000}"#, "32 bits"),
            (#"{"text": "t", "ttl": 5, "end": 9}"#, "not both"),
            (#"{"text": "t", "start": 9, "end": 9}"#, "after \"start\""),
            (#"{"text": "t", "effect": "blink"}"#, "\"dots\" or \"reveal\""),
            (#"{"text": "Boarding", "effect": "dots"}"#, "ends with three full stops"),
            (#"{"text": "t", "reveal": 5}"#, "goes with"),
            (#"{"text": "t", "link": "not a uri"}"#, "\"link\""),
        ]
        for (payload, words) in problems {
            do {
                _ = try FleetMessage(json: Array(payload.utf8))
                Issue.record("\(payload) was accepted")
            } catch {
                #expect(error.description.contains(words), "\(payload): \(error)")
            }
        }
    }

    @Test func settingsPassThroughWithTickerdsTypes() throws {
        let settings = try FleetSettings.parse(Array(#"""
            {"speed": 12, "frame-rate": 2.5, "delay": 3000000, "loops": 2, "columns": 80, "mode": "scroll",
             "phase": "wall-clock", "future-flag": true, "future-count": 7, "future-ratio": 0.5}
            """#.utf8))
        #expect(settings == [
            "speed": .double(12), "frame-rate": .double(2.5), "delay": .int64(3_000_000), "loops": .uint32(2),
            "columns": .uint32(80), "mode": .string("scroll"), "phase": .string("wall-clock"),
            "future-flag": .bool(true), "future-count": .int64(7), "future-ratio": .double(0.5),
        ])
        for (payload, words) in [("[]", "JSON object"), ("{}", "empty"), (#"{"loops": -1}"#, "0 to"),
                                 (#"{"columns": 1.5}"#, "integer"), (#"{"gap": null}"#, "got null"),
                                 (#"{"reset": true, "speed": 12}"#, "\"reset\" is not a setting")] {
            do {
                _ = try FleetSettings.parse(Array(payload.utf8))
                Issue.record("\(payload) was accepted")
            } catch {
                #expect(error.description.contains(words), "\(payload): \(error)")
            }
        }
    }
}
