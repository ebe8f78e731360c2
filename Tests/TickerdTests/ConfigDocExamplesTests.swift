import Foundation
import Testing
import TestSupport

/// The configuration a new user copies: every ```toml block of docs/configuration.md,
/// examples/tickerd.toml, the package's /etc/tickerd/tickerd.toml and the example of
/// tickerd.toml(5), each loaded by the real tickerd on a private bus. The daemon must start
/// with it (no config error), and each `[[message]]` of it must be listed by `List` with its text
/// — except one with an `end` whose window has closed, which the daemon's log must name as skipped.
@Suite(.serialized) struct ConfigDocExamplesTests {
    /// A file's ```toml blocks, each with where it came from.
    static func tomlBlocks(_ relative: String) throws -> [(name: String, text: String)] {
        var blocks: [(String, String)] = []
        var current: [Substring]?
        var startLine = 0
        for (number, line) in try Repository.read(relative).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
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

    /// The `.nf` … `.fi` example of a man page, its roff escapes for `-` and `•` undone.
    static func manExample(_ relative: String) throws -> (name: String, text: String) {
        let page = try Repository.read(relative)
        guard let start = page.range(of: "\n.nf\n"), let end = page.range(of: "\n.fi\n", range: start.upperBound..<page.endIndex) else {
            throw TestSupportError("\(relative) has no .nf/.fi example")
        }
        let text = page[start.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(bu", with: "•")
        return (relative, text)
    }

    static func examples() throws -> [(name: String, text: String)] {
        try tomlBlocks("docs/configuration.md") + [
            ("examples/tickerd.toml", Repository.read("examples/tickerd.toml")),
            ("debian/tickerd.toml", Repository.read("debian/tickerd.toml")),
            manExample("man/tickerd.toml.5"),
        ]
    }

    /// Each `[[message]]` table of `text`: its `text` value and whether it has an `end` key.
    static func messages(_ text: String) -> [(text: String, hasEnd: Bool)] {
        var found: [(String, Bool)] = []
        var inMessage = false
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                inMessage = trimmed.hasPrefix("[[message]]")
                if inMessage { found.append(("", false)) }
                continue
            }
            guard inMessage, let match = trimmed.firstMatch(of: /^(text|end)\s*=\s*"((?:[^"\\]|\\.)*)"/) else { continue }
            if match.1 == "text" { found[found.count - 1].0 = String(match.2) } else { found[found.count - 1].1 = true }
        }
        return found
    }

    @Test func theDocumentedExamplesAreFound() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 5)
        let texts = examples.flatMap { Self.messages($0.text).map(\.text) }
        #expect(texts.contains("It's night-time right now. You should be in bed"))
        #expect(texts.contains("It's Johnny's birthday!"))
        #expect(!texts.contains(""), "every [[message]] has a text")
    }

    @Test(arguments: try ConfigDocExamplesTests.examples().map(\.name))
    func theDaemonLoadsTheExampleAndListsItsMessages(name: String) throws {
        let example = try #require(try Self.examples().first { $0.name == name })
        let fixture: DaemonFixture
        do {
            fixture = try DaemonFixture(config: example.text)
        } catch {
            Issue.record("tickerd does not start with \(name): \(error)")
            return
        }
        let listed = try fixture.busctl(["call", DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "List", "s", ""])
        #expect(listed.status == 0, "\(listed.stderr)")
        let log = fixture.daemon.process.standardError
        for message in Self.messages(example.text) {
            // busctl's JSON escapes nothing in these texts but the quote.
            let encoded = message.text.replacingOccurrences(of: "\"", with: "\\\"")
            if listed.stdout.contains("\"\(encoded)\"") { continue }
            #expect(message.hasEnd && log.contains("skipped"),
                    "\(name): '\(message.text)' is neither listed nor skipped for a closed window\n\(listed.stdout)\n\(log)")
        }
    }
}
