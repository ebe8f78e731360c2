import Foundation
import Testing
import TOMLConfig
import TickerSources
import TestSupport

/// The sources.toml a new user copies: every ```toml block of docs/sources.md and
/// examples/sources.toml, read by the service's own loader; and the shipped now-playing and
/// notification templates read well for a track without an artist and a notification without a
/// body.
@Suite struct SourcesDocExamplesTests {
    /// The repository's root: two levels above this file (`Tests/TickerSourcesTests/…`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The ```toml blocks of the repository file `relative`, each named by its file and line.
    static func tomlBlocks(_ relative: String) throws -> [(name: String, text: String)] {
        var blocks: [(String, String)] = []
        var current: [Substring]?
        var startLine = 0
        let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line == "```toml" {
                current = []
                startLine = number + 1
            } else if current != nil, line == "```" {
                blocks.append(("\(relative):\(startLine)", current!.joined(separator: "\n")))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The examples, the files a source reads when loaded (the MQTT password and CA) in `folder`.
    static func examples(files folder: String) throws -> [(name: String, text: String)] {
        let examples = try tomlBlocks("docs/sources.md")
            + [("examples/sources.toml", String(contentsOfFile: root + "/examples/sources.toml", encoding: .utf8))]
        return examples.map { example in
            (example.name, example.text.replacing(/(?m)^(password-file|ca-file) = "[^"]*\/([^"\/]*)"$/) { match in
                "\(match.1) = \"\(folder)/\(match.2)\""
            })
        }
    }

    /// The examples as loaded, with the MQTT password and CA files they name in `directory`.
    static func examples(in directory: TemporaryDirectory) throws -> [(name: String, text: String)] {
        try "hunter2\n".write(toFile: directory.file("mqtt-password"), atomically: true, encoding: .utf8)
        try "not read until connecting\n".write(toFile: directory.file("fleet-ca.crt"), atomically: true, encoding: .utf8)
        return try examples(files: directory.path)
    }

    @Test func everyExampleLoads() throws {
        let directory = try TemporaryDirectory(prefix: "sources-doc")
        let examples = try Self.examples(in: directory)
        #expect(examples.count >= 7)
        for example in examples {
            #expect(throws: Never.self, "\(example.name)") { _ = try SourcesConfigLoader().parse(example.text, file: example.name) }
        }
    }

    @Test func nowPlayingAndNotificationExamplesDropTheSeparatorOfAnEmptyField() throws {
        var checked = 0
        let directory = try TemporaryDirectory(prefix: "sources-doc")
        for example in try Self.examples(in: directory) {
            let config = try SourcesConfigLoader().parse(example.text, file: example.name)
            for entry in config.entries {
                let binding = entry.binding
                switch entry.kind {
                case "mpris":
                    let radio = ["title": "Radio Paradise", "status": "Playing", "player": "mpv"]
                    #expect(binding.template.render(radio) == "♪ Radio Paradise", "\(example.name)")
                    let song = radio.merging(["artist": "Nina Simone", "title": "Sinnerman"]) { $1 }
                    #expect(binding.template.render(song) == "♪ Nina Simone — Sinnerman", "\(example.name)")
                    checked += 1
                case "notifications":
                    let done = ["app": "Firefox", "summary": "Download complete", "body": "", "urgency": "normal"]
                    #expect(binding.template.render(done) == "Firefox: Download complete", "\(example.name)")
                    let file = done.merging(["body": "report.pdf"]) { $1 }
                    #expect(binding.template.render(file) == "Firefox: Download complete — report.pdf", "\(example.name)")
                    checked += 1
                default:
                    continue
                }
            }
        }
        #expect(checked == 4, "the now-playing and notification examples of docs/sources.md and examples/sources.toml")
    }
}
