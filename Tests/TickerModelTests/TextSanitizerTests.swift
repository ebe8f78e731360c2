import TestSupport
import Testing
@testable import TickerModel

@Suite struct TextSanitizerTests {
    @Test("tab, CR and LF become one space each")
    func whitespace() throws {
        #expect(try TextSanitizer.sanitize("a\tb\r\nc") == "a b  c")
    }

    @Test("controls, separators and bidi controls are refused with their code point and index",
          arguments: [(0x07, "U+0007"), (0x1B, "U+001B"), (0x7F, "U+007F"), (0x85, "U+0085"),
                      (0x2028, "U+2028"), (0x2029, "U+2029"), (0x202E, "U+202E"), (0x2066, "U+2066"), (0x2069, "U+2069")])
    func forbidden(_ value: UInt32, _ name: String) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let text = "ab😀" + String(Character(scalar)) + "z"
        #expect(throws: TextError.forbiddenCharacter(scalar, index: 3)) {
            try TextSanitizer.sanitize(text)
        }
        do {
            _ = try TextSanitizer.sanitize(text)
        } catch {
            #expect(error.description.contains(name))
            #expect(error.description.contains("index 3"))
        }
    }

    @Test("ordinary text passes unchanged, including emoji, ZWJ, combining marks and RTL letters")
    func passes() throws {
        let text = "Grüße 漢字 👩\u{200D}👩\u{200D}👧 e\u{301} שלום \u{200B}"
        #expect(try TextSanitizer.sanitize(text) == text)
    }

    @Test("the printable-ASCII shortcut answers as the scalar-by-scalar path does, at and around every limit")
    func asciiShortcutMatchesTheScalarPath() throws {
        // Bytes at the shortcut's edges (0x1F, 0x20, 0x7E, 0x7F), the replaced ones, and a
        // non-ASCII letter that must leave the shortcut.
        let alphabet: [Unicode.Scalar] = ["\u{1F}", " ", "~", "\u{7F}", "\t", "\n", "\r", "a", "Z", "0", "{", "}", "\"", "é"]
        var rng = SeededRandom(seed: 0x5A17)
        var shortcuts = 0
        for round in 0..<4000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<(round % 13) {
                // Mostly printable ASCII, so the shortcut is taken often.
                let pick = Int.random(in: 0..<4, using: &rng) == 0
                    ? alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] : alphabet[Int.random(in: 7..<13, using: &rng)]
                text.append(pick)
            }
            let string = String(text)
            let limits = Limits(clustersPerMessage: Int.random(in: 1...12, using: &rng))
            if TextSanitizer.printableASCIICount(string) != nil { shortcuts += 1 }
            let fast = Result { () throws(TextError) in try TextSanitizer.sanitize(string, limits: limits) }
            let slow = Result { () throws(TextError) in try TextSanitizer.sanitizeScalars(string, limits: limits) }
            #expect(fast == slow, "\(string.debugDescription) with \(limits.clustersPerMessage)")
        }
        #expect(shortcuts > 1000)
    }

    @Test("the cluster limit is configurable")
    func limit() throws {
        let limits = Limits(clustersPerMessage: 5)
        #expect(try TextSanitizer.sanitize("🇩🇪🇩🇪🇩🇪e\u{301}x", limits: limits).count == 5)
        #expect(throws: TextError.tooLong(clusters: 6, limit: 5)) {
            try TextSanitizer.sanitize("abcdef", limits: limits)
        }
        #expect(Limits.standard.clustersPerMessage == 4096)
        #expect(Limits.standard.messagesPerChannel == 1000)
        #expect(Limits.standard.channels == 64)
    }
}
