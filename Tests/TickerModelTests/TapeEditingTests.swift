import TestSupport
import Testing
@testable import TickerModel

/// A tape made by editing the tape before it (a message posted, removed or changed) is the tape
/// built whole, cluster for cluster, whatever the texts hold where they meet their separators.
@Suite struct TapeEditingTests {
    /// Texts that join what comes before or after them (combining marks, ZWJ, VS16, a lone flag
    /// letter, a Prepend scalar), wide ones, braces, and plain ASCII.
    static let pieces = ["news", " ", "a", "\u{301}", "e\u{301}", "\u{200D}", "👩\u{200D}👧", "\u{FE0F}", "\u{1F1E9}", "\u{1F1EA}",
                         "中文", "\u{600}", "\u{903}", "{{", "}}", "{sold}", "•", "\t", "9"]
    static let separators = ["  •  ", " | ", "", "\u{301}", "\u{1F1E9}", " "]
    static let gaps: [String?] = [nil, "", "     ", "\u{301} ", "\u{1F1EA}"]

    static func text(_ rng: inout SeededRandom) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...5, using: &rng) { text += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
        return text
    }

    static func expectSame(_ edited: Tape, _ whole: Tape, _ note: @autoclosure () -> String) {
        #expect(edited == whole, "\(note())")
        #expect(edited.byteStart == whole.byteStart, "\(note())")
        #expect(edited.cellStart == whole.cellStart, "\(note())")
        #expect(edited.contentClusterCount == whole.contentClusterCount, "\(note())")
        #expect(edited.width == whole.width && edited.contentWidth == whole.contentWidth, "\(note())")
        #expect(edited.messageBytes == whole.messageBytes, "\(note())")
    }

    /// A separator and a gap drawn from the lists.
    static func joints(_ rng: inout SeededRandom) -> (separator: String, gap: String?) {
        (separators[Int.random(in: 0..<separators.count, using: &rng)], gaps[Int.random(in: 0..<gaps.count, using: &rng)])
    }

    /// A number in `counts` of messages of random text, keyed by fresh serials.
    static func messages(_ counts: ClosedRange<Int>, serial: inout Int, _ rng: inout SeededRandom) -> [TapeMessage] {
        (0..<Int.random(in: counts, using: &rng)).map { _ in
            serial += 1
            return TapeMessage(key: "m\(serial)", text: text(&rng))
        }
    }

    @Test("property: posting, removing, changing and moving messages edits the tape into the tape built whole")
    func editedEqualsWhole() {
        var rng = SeededRandom(seed: 0x7A9E_ED17)
        var edited = 0
        var serial = 0
        for trial in 0..<3000 {
            let (separator, gap) = Self.joints(&rng)
            let old = Self.messages(1...12, serial: &serial, &rng)
            var new = old
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    serial += 1
                    new.insert(TapeMessage(key: "m\(serial)", text: Self.text(&rng)), at: Int.random(in: 0...new.count, using: &rng))
                case 1 where new.count > 1:
                    new.remove(at: Int.random(in: 0..<new.count, using: &rng))
                case 2:
                    new[Int.random(in: 0..<new.count, using: &rng)].text = Self.text(&rng)
                default:
                    let moved = new.remove(at: Int.random(in: 0..<new.count, using: &rng))
                    new.insert(moved, at: Int.random(in: 0...new.count, using: &rng))
                }
            }
            let base = Tape(messages: old, separator: separator, gap: gap, at: 0)
            let whole = Tape(messages: new, separator: separator, gap: gap, at: 0)
            let note = "trial \(trial): \(old.map(\.text)) -> \(new.map(\.text)), separator \(separator.debugDescription), gap \(gap.debugDescription)"
            guard let tape = Tape(messages: new, separator: separator, gap: gap, editing: base, builtFrom: old) else { continue }
            edited += 1
            Self.expectSame(tape, whole, note)
            // And edited again from the edited tape.
            let again = new.shuffled(using: &rng)
            if let next = Tape(messages: again, separator: separator, gap: gap, editing: tape, builtFrom: new) {
                Self.expectSame(next, Tape(messages: again, separator: separator, gap: gap, at: 0), note + " then shuffled")
            }
        }
        // Nearly every edit is made by editing, not refused.
        #expect(edited > 2900)
    }

    @Test("property: an edit near the start of a long tape, or a rotation of it, moves every later offset exactly")
    func longTapesEditedNearTheirStart() {
        var rng = SeededRandom(seed: 0x5EA7_0FF5)
        var edited = 0
        var serial = 0
        for trial in 0..<300 {
            let (separator, gap) = Self.joints(&rng)
            // Long enough that the offsets after the edit are many, of every count modulo a vector.
            let old = Self.messages(20...90, serial: &serial, &rng)
            var new = old
            let at = Int.random(in: 0...2, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                serial += 1
                new.insert(TapeMessage(key: "m\(serial)", text: Self.text(&rng)), at: at)
            case 1:
                new.remove(at: at)
            case 2:
                new[at].text = Self.text(&rng)
            default:
                // The first messages moved to the end, the stream's order kept.
                let moved = Int.random(in: 1...3, using: &rng)
                new = Array(new[moved...] + new[..<moved])
            }
            let base = Tape(messages: old, separator: separator, gap: gap, at: 0)
            let note = "trial \(trial): \(old.count) -> \(new.count) messages, separator \(separator.debugDescription), gap \(gap.debugDescription)"
            guard let tape = Tape(messages: new, separator: separator, gap: gap, editing: base, builtFrom: old) else { continue }
            edited += 1
            Self.expectSame(tape, Tape(messages: new, separator: separator, gap: gap, at: 0), note)
            // And back, edited from the edited tape: the offsets move the other way.
            if let back = Tape(messages: old, separator: separator, gap: gap, editing: tape, builtFrom: new) {
                Self.expectSame(back, base, note + " and back")
            }
        }
        #expect(edited > 290)
    }

    @Test("a tape with counter fields, one read back or another gap is not edited")
    func refusals() throws {
        let old = [TapeMessage(key: "a", text: "Sold {n}"), TapeMessage(key: "b", text: "news")]
        let new = old + [TapeMessage(key: "c", text: "more")]
        var counters = CounterSet()
        try counters.set("n", to: 12, options: CounterOptions(), at: 0)
        let withFields = Tape(messages: old, separator: " • ", counters: counters, at: 0)
        #expect(Tape(messages: new, separator: " • ", editing: withFields, builtFrom: old) == nil)
        let plain = Tape(messages: old, separator: " • ", at: 0)
        #expect(Tape(messages: new, separator: " • ", gap: "   ", editing: plain, builtFrom: old) == nil)
        var readBack = plain
        readBack.messageBytes = nil
        #expect(Tape(messages: new, separator: " • ", editing: readBack, builtFrom: old) == nil)
        #expect(Tape(messages: [], separator: " • ", editing: plain, builtFrom: old) == nil)
        #expect(Tape(messages: new, separator: " • ", editing: plain, builtFrom: old) == Tape(messages: new, separator: " • ", at: 0))
    }
}
