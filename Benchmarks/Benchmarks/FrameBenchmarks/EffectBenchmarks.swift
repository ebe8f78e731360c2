import Benchmark
import TickerModel

/// A timeline and the effects its frames are drawn with.
struct EffectInput {
    var timeline: Timeline
    var effects: EffectState
}

/// What runs on the tape's messages.
enum MessageEffectKind: String, CaseIterable {
    case none, dots, reveal
}

/// An instant inside every effect's run: counts, dots and reveals are all moving then.
let effectStart: Instant = 1_700_000_000_000_000

/// A message tape of about `clusters` clusters whose messages end in `...`, each with `effect`
/// running, and with a counting `{n}` field in the first message when `counter` is set.
func makeEffectInput(clusters: Int, counter: Bool, effect: MessageEffectKind) throws -> EffectInput {
    var counters = CounterSet()
    if counter {
        try counters.set("n", to: 0, at: effectStart)
        try counters.set(
            "n", to: 1_000_000, options: CounterOptions(duration: 3_600_000_000, grouping: true), at: effectStart)
    }
    let messages = makeMessages(clusters: clusters).enumerated().map { index, text in
        TapeMessage(key: "m\(index)", text: (counter && index == 0 ? "Sold {n} " : "") + text + "...")
    }
    var effects: [String: MessageEffect] = [:]
    for message in messages {
        switch effect {
        case .none: break
        case .dots: effects[message.key] = .dots(DotsEffect(start: effectStart))
        case .reveal: effects[message.key] = .reveal(try RevealEffect(start: effectStart, duration: 3_600_000_000))
        }
    }
    let tape = Tape(messages: messages, separator: ChannelSettings.defaultSeparator, counters: counters, at: effectStart)
    let timeline = Timeline(tape: tape, settings: ChannelSettings(speed: .cellsPerSecond(8)), at: effectStart)
    return EffectInput(timeline: timeline, effects: EffectState(counters: counters, messages: effects))
}

/// Frames of a message tape with no effect, a counter, and a counter with dots or a reveal on
/// every message: what each costs over the plain frame.
func registerEffectBenchmarks() {
    let variants: [(name: String, counter: Bool, effect: MessageEffectKind)] = [
        ("no effects", false, .none),
        ("counter", true, .none),
        ("counter + dots", true, .dots),
        ("counter + reveal", true, .reveal),
    ]
    for size in [100, 10_000] {
        for variant in variants {
            Benchmark("effects/\(variant.name)/\(size) clusters/80 columns") { benchmark, input in
                var t = effectStart
                for _ in benchmark.scaledIterations {
                    t += 1_237
                    blackHole(input.timeline.frame(columns: 80, at: t, effects: input.effects))
                }
            } setup: {
                try makeEffectInput(clusters: size, counter: variant.counter, effect: variant.effect)
            }
        }
    }
}
