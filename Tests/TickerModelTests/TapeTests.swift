import TestSupport
import Testing
@testable import TickerModel

@Suite struct TapeTests {
    @Test("messages are joined by the separator and followed by the gap (default: the separator)")
    func joining() {
        let tape = Tape(messages: ["one", "two"], separator: "  •  ")
        #expect(tape.text == "one  •  two  •  ")
        #expect(tape.content == "one  •  two")
        #expect(tape.width == 16 && tape.contentWidth == 11)
        let gapped = Tape(messages: ["a"], separator: " | ", gap: "   ")
        #expect(gapped.text == "a   " && gapped.contentWidth == 1 && gapped.width == 4)
        #expect(Tape(messages: [], separator: " | ") == Tape.empty)
        #expect(Tape.empty.width == 0)
    }

    @Test("widths and cluster offsets count cells per cluster")
    func offsets() {
        let tape = Tape(content: "a中🇩🇪e\u{301}\u{200B}", gap: "-")
        // a(1) 中(2) 🇩🇪(2) é(1) ZWSP(0) -(1) = 7 cells, 6 clusters.
        #expect(tape.width == 7 && tape.clusterCount == 6 && tape.contentWidth == 6 && tape.contentClusterCount == 5)
        #expect(tape.cellStart == [0, 1, 3, 5, 6, 6, 7])
    }

    @Test("an empty tape shows blanks in every mode")
    func emptyTape() {
        for mode in Mode.allCases {
            let timeline = Timeline(tape: .empty, settings: ChannelSettings(mode: mode), at: 0)
            #expect(timeline.frame(columns: 5, at: 1_000_000).text == "     ")
            #expect(timeline.nextChange(after: 0, columns: 5) == nil)
        }
    }

    @Test("settings are validated with messages naming the setting")
    func settingsValidation() throws {
        #expect(throws: SettingsError.self) { try ChannelSettings(speed: .cellsPerSecond(0)).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(speed: .cellsPerSecond(.nan)).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(speed: .cycleDuration(0)).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(delay: -1).validated() }
        #expect(throws: SettingsError.self) { try ChannelSettings(separator: "a\u{7}b").validated() }
        #expect(try ChannelSettings(separator: "\t").validated().separator == " ")
        #expect(ChannelSettings(mode: .scroll).effectiveDelay == 2_000_000)
        #expect(ChannelSettings().effectiveDelay == 0)
    }

    /// The reference: every `Character` of `content + gap` in turn, as the breaker sees the whole text.
    private static func referenceClusters(content: String, gap: String) -> (bytes: [Int], cells: [Int], contentClusters: Int) {
        var bytes = [0]
        var cells = [0]
        var contentClusters = 0
        for cluster in content + gap {
            if bytes.last ?? 0 < content.utf8.count { contentClusters += 1 }
            bytes.append((bytes.last ?? 0) + cluster.utf8.count)
            cells.append((cells.last ?? 0) + CellWidth.of(cluster))
        }
        return (bytes, cells, contentClusters)
    }

    @Test("the ASCII shortcut cuts clusters exactly where Swift's grapheme breaker does")
    func asciiShortcutMatchesTheBreaker() {
        // ASCII next to what joins it: combining marks after a letter, a Prepend scalar before a
        // digit, CR LF, ZWJ and VS16 after ASCII, keycaps, flags after ASCII, Indic conjuncts.
        let pieces = ["a", "bc", " ", "~", "1", "e\u{301}", "\u{600}1", "\u{110BD}x", "\r\n", "\r", "\n", "\t",
                      "x\u{200D}", "#\u{FE0F}\u{20E3}", "🇩🇪", "🇯", "中", "\u{915}\u{94D}\u{937}", "k\u{93F}", "\u{7F}",
                      "\u{1F}", "👩\u{200D}👧", "a\u{FE0F}", "é", "\u{AD}", "z\u{300}\u{301}"]
        var rng = SeededRandom(seed: 0x7A9E)
        for _ in 0..<3000 {
            var content = ""
            for _ in 0..<Int.random(in: 0...12, using: &rng) { content += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            var gap = ""
            for _ in 0..<Int.random(in: 0...2, using: &rng) { gap += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            let tape = Tape(content: content, gap: gap)
            let expected = Self.referenceClusters(content: content, gap: gap)
            #expect(Array(tape.byteStart) == expected.bytes, "\(content.unicodeScalars.map { String($0.value, radix: 16) }) + \(gap.debugDescription)")
            #expect(Array(tape.cellStart) == expected.cells)
            #expect(tape.contentClusterCount == expected.contentClusters)
            #expect(tape.width == (expected.cells.last ?? 0))
        }
    }

    @Test("a scalar met again before printable ASCII is cut where Swift's grapheme breaker cuts it")
    func repeatedScalarsMatchTheBreaker() {
        // Scalars that end their cluster before ASCII (•, é, 中, a lone flag letter, ZWJ, a soft
        // hyphen) beside ones that join what follows or precedes them (Prepend scalars, combining
        // marks, VS16), each met many times, followed by printable ASCII, controls or the end.
        let pieces = ["•", " • ", "é", "中", "\u{1F1E9}", "\u{200D}", "\u{AD}", "\u{600}", "\u{110BD}", "\u{301}",
                      "\u{FE0F}", "•\u{301}", "a", "1", " ", "\n", "\t", "\r\n", "\u{7F}", "\u{915}\u{94D}", "👩"]
        var rng = SeededRandom(seed: 0x5CA1A4)
        for _ in 0..<3000 {
            var content = ""
            for _ in 0..<Int.random(in: 0...24, using: &rng) { content += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            let gap = Bool.random(using: &rng) ? " • " : ""
            let tape = Tape(content: content, gap: gap)
            let expected = Self.referenceClusters(content: content, gap: gap)
            #expect(Array(tape.byteStart) == expected.bytes, "\(content.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(Array(tape.cellStart) == expected.cells)
            #expect(tape.contentClusterCount == expected.contentClusters)
        }
    }

    @Test("printable ASCII before a scalar seen to start a cluster after ASCII is cut as Swift's breaker cuts it")
    func scalarsAfterASCIIMatchTheBreaker() {
        // Scalars that start a cluster after ASCII (•, 中, a flag letter, a Prepend scalar, a soft
        // hyphen) met again and again beside ones that join the ASCII before them (combining
        // marks, ZWJ, VS16, the SpacingMarks U+0903 and U+0E33), after printable ASCII, a control
        // or DEL, at the end or before the gap.
        let pieces = ["a", " ", "~", "•", " • ", "中", "\u{1F1E9}", "\u{600}", "\u{AD}", "\u{301}", "\u{200D}", "\u{FE0F}",
                      "\u{903}", "\u{E33}", "•\u{301}", "\t", "\u{7F}", "\r\n", "👩\u{200D}👧"]
        var rng = SeededRandom(seed: 0xA5C11)
        for _ in 0..<4000 {
            var content = ""
            for _ in 0..<Int.random(in: 0...24, using: &rng) { content += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            let gap = [" • ", "", "\u{301} ", "•"][Int.random(in: 0..<4, using: &rng)]
            let tape = Tape(content: content, gap: gap)
            let expected = Self.referenceClusters(content: content, gap: gap)
            #expect(Array(tape.byteStart) == expected.bytes, "\(content.unicodeScalars.map { String($0.value, radix: 16) }) + \(gap.debugDescription)")
            #expect(Array(tape.cellStart) == expected.cells)
            #expect(tape.contentClusterCount == expected.contentClusters)
        }
    }

    @Test("the last cluster boundary at or before a cell equals a walk over the clusters")
    func lastBoundaryEqualsWalk() {
        var rng = SeededRandom(seed: 0x7A9E_0B0D)
        var zeroWidthRuns = 0
        for _ in 0..<600 {
            // Zero-width pieces more often than in the frame samples: they are what the search
            // must gallop over.
            var tape = TextSamples.tape(&rng, maxMessages: 3, maxPieces: 12)
            if Bool.random(using: &rng) {
                tape = Tape(content: tape.content + String(repeating: "\u{200B}", count: Int.random(in: 1...9, using: &rng)) + "x", gap: " ")
            }
            for _ in 0..<20 {
                let start = Int.random(in: 0...tape.clusterCount, using: &rng)
                let cell = tape.cellStart[start] + Int.random(in: 0...(tape.width - tape.cellStart[start] + 2), using: &rng)
                // The reference: step over every cluster that ends at or before `cell`.
                var expected = start
                while expected < tape.clusterCount, tape.cellStart[expected + 1] <= cell { expected += 1 }
                if expected > start, tape.cellWidth(ofCluster: expected - 1) == 0 { zeroWidthRuns += 1 }
                #expect(tape.lastBoundary(atOrBefore: cell, from: start) == expected,
                        "start \(start) cell \(cell) tape \(tape.text.debugDescription)")
            }
        }
        #expect(zeroWidthRuns > 100, "the samples must end runs on zero-width clusters")
    }

    @Test("tapes are equal byte for byte: the same text in another normalization form is another tape")
    func equalityIsByBytes() {
        let messages = (0..<300).map { "Nachricht \($0): Größe, café • 東京 🇩🇪" }
        #expect(Tape(messages: messages, separator: " • ") == Tape(messages: messages, separator: " • "))
        let composed = Tape(messages: ["caf\u{E9}"], separator: " • ")
        let decomposed = Tape(messages: ["cafe\u{301}"], separator: " • ")
        #expect(composed.text == decomposed.text, "Swift's == on String is canonical equivalence")
        #expect(composed != decomposed)
        // Every length around the eight-byte steps, each byte changed in turn.
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
            #expect(bytes.hasSameBytes(as: bytes))
            #expect(!bytes.hasSameBytes(as: bytes + [0]))
            for index in 0..<length {
                var changed = bytes
                changed[index] ^= 0x80
                #expect(!bytes.hasSameBytes(as: changed), "length \(length), byte \(index)")
            }
        }
    }
}
