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
                      (0x2028, "U+2028"), (0x2029, "U+2029"), (0x202E, "U+202E"), (0x2066, "U+2066"), (0x2069, "U+2069"),
                      (0x061C, "U+061C"), (0x200E, "U+200E"), (0x200F, "U+200F")])
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

    @Test("every Bidi_Control scalar is refused as a bidi control")
    func everyBidiControl() throws {
        var found = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isBidiControl else { continue }
            found += 1
            #expect(TextSanitizer.isForbidden(scalar), "\(TextError.codePointName(scalar))")
            #expect(throws: TextError.forbiddenCharacter(scalar, index: 1)) { try TextSanitizer.sanitize("a\(scalar)b") }
            #expect(TextError.forbiddenCharacter(scalar, index: 1).description.contains("(bidi control)"))
        }
        #expect(found == 12)
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
        #expect(throws: TextError.tooLong(clusters: 6, limit: 5)) {
            try TextSanitizer.sanitize("abcde\u{E9}", limits: limits)
        }
        // One unit throughout: the text's length and the limit, both in characters.
        #expect(TextError.tooLong(clusters: 6, limit: 5).description
            == "text is 6 characters (grapheme clusters) long; the limit is 5 characters")
        #expect(Limits.standard.clustersPerMessage == 4096)
        #expect(Limits.standard.bytesPerMessage == 65_536)
        #expect(Limits.standard.scalarsPerCluster == 32)
        #expect(Limits.standard.messagesPerChannel == 1000)
        #expect(Limits.standard.channels == 64)
    }

    @Test("a text is bounded in bytes before anything else is done with it")
    func byteLimit() throws {
        let limits = Limits(bytesPerMessage: 16)
        #expect(try TextSanitizer.sanitize("abcdefghijklmnop", limits: limits) == "abcdefghijklmnop")
        #expect(throws: TextError.tooManyBytes(bytes: 17, limit: 16)) {
            try TextSanitizer.sanitize("abcdefghijklmnopq", limits: limits)
        }
        #expect(throws: TextError.tooManyBytes(bytes: 18, limit: 16)) {
            try TextSanitizer.sanitize(String(repeating: "\u{E9}", count: 9), limits: limits)
        }
        // A letter with two million combining marks is one character of 4 MB: refused for its
        // bytes, not after its one huge cluster was broken and measured.
        let hostile = "q" + String(repeating: "\u{301}", count: 2_000_000)
        #expect(throws: TextError.tooManyBytes(bytes: 4_000_001, limit: 65_536)) { try TextSanitizer.sanitize(hostile) }
        #expect(TextError.tooManyBytes(bytes: 17, limit: 16).description == "text is 17 bytes long (UTF-8); the limit is 16 bytes")
    }

    @Test("one character (grapheme cluster) is bounded in code points; real ones pass")
    func clusterLimit() throws {
        let marks = { (count: Int) in "xq" + String(repeating: "\u{301}", count: count) + "z" }
        #expect(try TextSanitizer.sanitize(marks(31)) == marks(31))
        #expect(throws: TextError.clusterTooLong(scalars: 33, index: 1, limit: 32)) { try TextSanitizer.sanitize(marks(32)) }
        #expect(throws: TextError.clusterTooLong(scalars: 5, index: 3, limit: 4)) {
            try TextSanitizer.sanitize("a\tb" + "c\u{301}\u{302}\u{303}\u{304}", limits: Limits(scalarsPerCluster: 4))
        }
        #expect(TextError.clusterTooLong(scalars: 33, index: 1, limit: 32).description
            == "text has a character (grapheme cluster) of 33 code points at index 1; the limit is 32 code points a character")
        // The longest clusters of real text: a family with skin tones, a subdivision flag, a
        // Devanagari conjunct, a Hangul syllable in jamo, a letter with stacked accents.
        let real = "👨🏻\u{200D}👩🏻\u{200D}👧🏻\u{200D}👦🏻 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} "
            + "क्\u{200D}ष \u{1112}\u{1161}\u{11AB} a\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}"
        #expect(try TextSanitizer.sanitize(real) == real)
    }
}
