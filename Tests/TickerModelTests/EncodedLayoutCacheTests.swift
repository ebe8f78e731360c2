import Testing
@testable import TickerModel

/// A tape's layout is encoded once however often its timeline is published or stored, and the
/// remembered text is the one a fresh encoding gives.
@Suite struct EncodedLayoutCacheTests {
    static let base: Instant = 1_700_000_000_000_000

    static func tape(_ count: Int) -> Tape {
        let messages = (0..<count).map { TapeMessage(key: "m\($0)", text: "message number \($0)") }
        return Tape(messages: messages, separator: " • ", at: base)
    }

    @Test func theTimelineFieldsEncodeEachLayoutOnce() throws {
        let tape = Self.tape(200)
        let layout = try #require(tape.layout)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: Self.base)
        for _ in 0..<5 {
            #expect(timeline.fields[EffectFields.layoutKey] == .string(EffectFields.encode(layout)))
        }
        #expect(tape.encodedLayouts.computations == 1)
        // A pending change publishes both tapes; the old one is not encoded again.
        let changed = timeline.applying(Self.tape(201), at: Self.base + 1_000_000)
        let next = try #require(changed.pending?.tape)
        for _ in 0..<3 { _ = changed.fields }
        #expect(changed.fields[EffectFields.nextLayoutKey] == .string(EffectFields.encode(try #require(next.layout))))
        #expect(tape.encodedLayouts.computations == 1)
        #expect(next.encodedLayouts.computations == 1)
    }

    @Test func eachFormIsEncodedOnceAndFieldsWithoutLayoutsEncodeNone() throws {
        let tape = Self.tape(200)
        let layout = try #require(tape.layout)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: Self.base)
        var keys: [String] = []
        timeline.forEachField(layouts: false) { key, _ in keys.append(key) }
        #expect(!keys.contains(EffectFields.layoutKey) && tape.encodedLayouts.computations == 0)
        for _ in 0..<3 { #expect(tape.encodedRelativeLayout == EffectFields.encode(layout, relative: true)) }
        #expect(tape.encodedLayouts.computations == 1)
        for _ in 0..<3 { #expect(tape.encodedLayout == EffectFields.encode(layout)) }
        #expect(tape.encodedLayouts.computations == 2)
    }

    @Test func aLayoutSetAnewIsEncodedAnew() throws {
        let tape = Self.tape(3)
        _ = tape.encodedLayout
        var edited = tape
        edited.layout = Self.tape(4).layout
        #expect(edited.encodedLayout == EffectFields.encode(try #require(Self.tape(4).layout)))
        #expect(tape.encodedLayout == EffectFields.encode(try #require(tape.layout)))
        edited.layout = nil
        #expect(edited.encodedLayout == nil)
    }
}
