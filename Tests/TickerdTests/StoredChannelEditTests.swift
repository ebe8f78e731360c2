import Foundation
import TestSupport
import Testing
import TickerModel
@testable import tickerd

/// A channel stored as an edit of its previous form reads back exactly, whatever changed.
@Suite struct StoredChannelEditTests {
    static let pieces = ["ticker ", "é", "e\u{301}", "東京", "👩‍👩‍👧", "🇩🇪", " · ", "x", "", "\u{10FFFF}"]

    static func randomText(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...40, using: &random)).map { _ in
            pieces[Int.random(in: 0..<pieces.count, using: &random)]
        }.joined()
    }

    @Test("texts with multi-byte scalars, edited anywhere, come back byte for byte")
    func textEditsReadBackExactly() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<2000 {
            let old = Self.randomText(&random)
            var new = old
            if !new.isEmpty, Bool.random(using: &random) {
                let cut = new.utf8.count > 0 ? Int.random(in: 0...new.unicodeScalars.count, using: &random) : 0
                var scalars = Array(new.unicodeScalars)
                scalars.insert(contentsOf: Self.randomText(&random).unicodeScalars, at: cut)
                new = String(String.UnicodeScalarView(scalars))
            } else {
                new = Self.randomText(&random) + old + Self.randomText(&random)
            }
            let edit = TextEdit(new, from: old, base: "tape")
            #expect(edit.applied(to: old).map { Array($0.utf8) } == Array(new.utf8), "\(old.debugDescription) → \(new.debugDescription)")
            #expect(edit.insert.utf8.count <= new.utf8.count)
            // It keeps all the bytes both share at the start and then at the end, but for a
            // scalar cut by either.
            let (newBytes, oldBytes) = (Array(new.utf8), Array(old.utf8))
            var keep = 0
            while keep < min(newBytes.count, oldBytes.count), newBytes[keep] == oldBytes[keep] { keep += 1 }
            var keepEnd = 0
            while keepEnd < min(newBytes.count, oldBytes.count) - keep,
                  newBytes[newBytes.count - 1 - keepEnd] == oldBytes[oldBytes.count - 1 - keepEnd] { keepEnd += 1 }
            #expect(edit.keep <= keep && edit.keep > keep - 4 && edit.keepEnd <= keepEnd && edit.keepEnd > keepEnd - 4,
                    "\(old.debugDescription) → \(new.debugDescription)")
        }
    }

    @Test("bytes compared eight at a time share the same ends as compared one by one")
    func byteEndsMatchTheElementwiseOnes() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<3000 {
            // A shared start and end around different middles, of every length near a word's.
            func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...3, using: &random) } }
            let (head, tail) = (bytes(Int.random(in: 0...40, using: &random)), bytes(Int.random(in: 0...40, using: &random)))
            let new = head + bytes(Int.random(in: 0...20, using: &random)) + tail
            let old = Bool.random(using: &random) ? new : head + bytes(Int.random(in: 0...20, using: &random)) + tail
            let fast = new.withUnsafeBufferPointer { a in old.withUnsafeBufferPointer { b in CommonEnds.of(a, b) } }
            let slow = CommonEnds.of(new, old)
            #expect(fast == slow, "\(new) vs \(old)")
        }
    }

    @Test("a timeline stored with relative layouts, or with the Timeline's as before, reads back whole")
    func storedLayoutsReadBackInEitherForm() throws {
        let t0: Instant = 1_800_000_000_000_000
        func tape(_ count: Int) -> Tape {
            Tape(messages: (0..<count).map { TapeMessage(key: "m\($0)", text: "headline \($0) 東京 e\u{301}") },
                 separator: "  •  ", counters: CounterSet(), at: t0)
        }
        // A change that waits for its seam: both tapes and both layouts are stored.
        let timeline = Timeline(tape: tape(40), settings: ChannelSettings(), at: t0).applying(tape(41), at: t0 + 3_000_000)
        #expect(timeline.pending?.tape.layout != nil && timeline.tape.layout != nil)
        let stored = StoredTimeline(timeline)
        let keys = stored.fields.map(\.key)
        #expect(keys.contains("layoutRelative") && keys.contains("nextLayoutRelative") && !keys.contains("layout"))
        #expect(keys == keys.sorted())
        let decoded = try JSONDecoder().decode(StoredTimeline.self, from: JSONEncoder().encode(stored))
        #expect(try Timeline(fields: decoded.dictionary) == timeline)

        // A state file written before holds the Timeline's own form under `layout`.
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(stored)) as? [String: Any])
        for (key, relative) in StoredTimeline.relativeLayoutKeys {
            object[relative] = nil
            let layout = try #require(key == EffectFields.layoutKey ? timeline.tape.layout : timeline.pending?.tape.layout)
            object[key] = ["string": ["_0": EffectFields.encode(layout)]]
        }
        let older = try JSONDecoder().decode(StoredTimeline.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(try Timeline(fields: older.dictionary) == timeline)
    }

    @Test("each large text is an edit of the previous text that keeps the most of it, as if every one were tried")
    func textsEditTheNearestBase() throws {
        let t0: Instant = 1_800_000_000_000_000
        func tape(_ numbers: [Int]) -> Tape {
            Tape(messages: numbers.map { TapeMessage(key: "m\($0)", text: "headline \($0) 東京 e\u{301}") },
                 separator: "  •  ", counters: CounterSet(), at: t0)
        }
        func stored(_ timeline: Timeline) -> StoredChannel {
            StoredChannel(name: "main", settings: StoredSettings(ChannelSettings()), columns: 80, frameRate: 0,
                          timeline: StoredTimeline(timeline), activeIDs: [], activeTexts: [], configDigest: nil)
        }
        let first = Array(0..<40)
        let second = Array(first[..<17]) + [99] + Array(first[17...])
        let third = second.filter { $0 != 30 }
        // Each change waits for its seam: the next tape and its layout are stored beside the tape's.
        let timelines = [
            Timeline(tape: tape(first), settings: ChannelSettings(), at: t0),
            Timeline(tape: tape(first), settings: ChannelSettings(), at: t0).applying(tape(second), at: t0 + 3_000_000),
        ]
        let later = timelines[1].applying(tape(third), at: t0 + 5_000_000)
        for timeline in timelines + [later] {
            for previous in timelines where previous != timeline {
                let (before, after) = (stored(previous), stored(timeline))
                let edit = StoredChannelEdit(after, after: before)
                #expect(edit.applied(to: before) == after)
                let bases = before.timeline.strings.filter { $0.text.utf8.count >= StoredChannelEdit.largeText }
                for (key, text) in after.timeline.strings where text.utf8.count >= StoredChannelEdit.largeText {
                    // The same text is kept whole; another is edited from each base, the smallest insert kept.
                    let plain = bases.first { $0.text == text }.map { TextEdit(keeping: text.utf8.count, of: $0.key) }
                        ?? bases.map { TextEdit(text, from: $0.text, base: $0.key) }.min { $0.insert.utf8.count < $1.insert.utf8.count }
                    #expect(edit.texts[key] == plain.flatMap { $0.insert.utf8.count < text.utf8.count ? $0 : nil }, "\(key)")
                }
            }
        }
    }

    @Test func listEditsReadBackExactly() {
        var random = SeededRandom(seed: 9)
        for _ in 0..<2000 {
            let old = (0..<Int.random(in: 0...12, using: &random)).map { _ in "m\(Int.random(in: 0...5, using: &random))" }
            var new = old
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                if !new.isEmpty, Bool.random(using: &random) {
                    new.remove(at: Int.random(in: 0..<new.count, using: &random))
                } else {
                    new.insert("n\(Int.random(in: 0...5, using: &random))", at: Int.random(in: 0...new.count, using: &random))
                }
            }
            let edit = ListEdit(new, from: old)
            #expect(edit.applied(to: old) == new, "\(old) → \(new)")
        }
    }

    @Test func anEditOfAnotherFormIsRefused() {
        let edit = ListEdit(["a", "b", "c"], from: ["a", "x", "c"])
        #expect(edit.applied(to: ["a"]) == nil)
        let text = TextEdit("hello world", from: "hello there world", base: "tape")
        #expect(text.applied(to: "hi") == nil)
    }
}
