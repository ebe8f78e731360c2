import TestSupport
import Testing
@testable import TickerModel

@Suite struct TimelineFieldsTests {
    static let t0: Instant = 1_700_000_000_000_000

    @Test("the a{sv} form carries DESIGN §3's keys and reads back to the same timeline and frames")
    func roundTrip() throws {
        var rng = SeededRandom(seed: 99)
        for _ in 0..<100 {
            let settings = FramePropertyTests.randomSettings(&rng)
            var timeline = Timeline(tape: TextSamples.tape(&rng), settings: settings, at: Self.t0)
            if Bool.random(using: &rng) { timeline = timeline.applying(TextSamples.tape(&rng), at: Self.t0 + 1_500_000) }
            if Bool.random(using: &rng) { timeline = timeline.paused(at: Self.t0 + 2_000_000) }
            let fields = timeline.fields
            for key in ["tape", "width", "anchor", "position", "speed", "mode", "delay", "easing", "loops", "direction", "align"] {
                #expect(fields[key] != nil, "missing \(key)")
            }
            #expect((fields["next"] != nil) == (timeline.pending != nil))
            #expect((fields["switch"] != nil) == (timeline.pending != nil))
            #expect(Self.fieldKeysAreAscending(timeline))
            let decoded = try Timeline(fields: fields)
            #expect(decoded == timeline)
            for _ in 0..<5 {
                let c = Int.random(in: 0...50, using: &rng)
                let t = Self.t0 + Int64.random(in: 0...60_000_000, using: &rng)
                #expect(decoded.frame(columns: c, at: t) == timeline.frame(columns: c, at: t))
            }
        }
    }

    /// Whether `forEachField` lists exactly the keys of `fields`, each once, in ascending order.
    static func fieldKeysAreAscending(_ timeline: Timeline) -> Bool {
        var keys: [String] = []
        timeline.forEachField { key, _ in keys.append(key) }
        return keys == keys.sorted() && Set(keys).count == keys.count && Set(keys) == Set(timeline.fields.keys)
    }

    @Test("bad dictionaries give errors that name the key")
    func errors() {
        var fields = Timeline(tape: Tape(content: "x", gap: " "), settings: ChannelSettings(), at: Self.t0).fields
        fields["mode"] = .string("sideways")
        #expect(throws: TimelineFieldError.self) { try Timeline(fields: fields) }
        do {
            _ = try Timeline(fields: fields)
        } catch {
            #expect(error.description.contains("mode"))
        }
        fields["mode"] = .string("scroll")
        fields["speed"] = .int64(3)
        #expect(throws: TimelineFieldError("speed must be a double (d)")) { try Timeline(fields: fields) }
        fields["speed"] = .double(3)
        fields["gap"] = .string("zz")
        #expect(throws: TimelineFieldError("tape must end with gap")) { try Timeline(fields: fields) }
    }
}
