import Testing
import TestSupport
import TickerModel
@testable import TickerSources

/// Items whose text tickerd would refuse (too long, bidi marks, controls, joining edges) are made
/// into texts it takes, so they are shown instead of lost.
@Suite struct TickerTextTests {
    let binding = SourceBinding(name: "notes", channel: "main", template: try! MessageTemplate(parsing: "{summary}: {body}"))

    func text(_ summary: String, _ body: String) -> String? {
        binding.message(for: SourceItem(key: "1", fields: ["summary": summary, "body": body]))?.text
    }

    @Test func aLongBodyIsCutWithAnEllipsis() throws {
        let shown = try #require(text("Log", String(repeating: "x", count: 5000)))
        #expect(shown.count == 4096)
        #expect(shown.hasPrefix("Log: xxx") && shown.hasSuffix("x…"))
        #expect(try TextSanitizer.sanitize(shown) == shown)
        // Over the byte limit before the cluster limit: family emoji of 25 bytes each.
        let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦"
        let emoji = try #require(text("E", String(repeating: family, count: 3000)))
        #expect(emoji.utf8.count <= 65_536 && emoji.utf8.count > 65_000 && emoji.hasSuffix(family + "…"))
        #expect(try TextSanitizer.sanitize(emoji) == emoji)
    }

    @Test func bidiMarksGoAndControlsBecomeSpaces() {
        // Chat clients wrap names in first-strong isolates; titles carry LRM/RLM.
        #expect(text("Chat", "\u{2068}Ann\u{2069} wrote") == "Chat: Ann wrote")
        #expect(text("\u{200E}Song\u{200F}", "a\u{0007}b\u{2028}c") == "Song: a b c")
    }

    @Test func joiningEdgesAreDropped() {
        // A summary starting with a combining mark, a body ending in an emoji and a zero-width
        // joiner (which would join the next message's emoji).
        #expect(text("\u{0301}x", "ok 👨\u{200D}") == "x: ok ")
        #expect(text("Flag", "🇩") == "Flag: ")
    }

    @Test func acceptableTextIsUnchanged() {
        for sample in ["Mail: New mail", "Ça & ünïcödé — 日本語 👨‍👩‍👧", "tab\tand\nnewline"] {
            #expect(TickerText.fitted(sample) == sample)
        }
    }

    @Test func anyTextComesOutAcceptable() {
        var random = SeededRandom(seed: 20261127)
        let pool: [Unicode.Scalar] = [
            "a", " ", "\u{0301}", "\u{200D}", "\u{200E}", "\u{2066}", "\u{2028}", "\u{0000}", "\u{009F}", "\t",
            "🇦", "🇩", "👨", "🙂", "\u{FE0F}", "\u{1F3FB}", "é", "\u{0E33}", "\u{094D}", "ᄀ", "ᅡ", "ᆨ",
        ]
        for round in 0..<400 {
            let length = Int.random(in: 0...(round < 390 ? 60 : 6000), using: &random)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length { scalars.append(pool.randomElement(using: &random)!) }
            let fitted = TickerText.fitted(String(scalars))
            if fitted.isEmpty { continue }
            do {
                _ = try TextSanitizer.sanitize(fitted)
            } catch {
                Issue.record("round \(round): \(error) for \(fitted.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }
}
