@testable import TickerModel

/// An obviously-right account of what effects show: the tape's content rebuilt from the messages
/// cluster by cluster, with each cluster replaced as the rules say (hidden → spaces, field cells →
/// the right-aligned number, raised dots → `˙`). A frame with effects must equal the frame of a
/// plain tape holding this text, since every replacement keeps the cells where they were.
enum EffectsReference {
    struct Cluster {
        var text: String
        /// For a counter field cell: the counter's name, the cell's index and the field's width.
        var field: (name: String, index: Int, width: Int)?
    }

    /// The message's clusters as the tape lays them out (fields `width` cells of placeholders).
    static func clusters(of text: String, counters: CounterSet, builtAt: Instant) -> [Cluster] {
        var result: [Cluster] = []
        func literal(_ s: String) { result += s.map { Cluster(text: String($0), field: nil) } }
        for part in Placeholders.parse(text) {
            switch part {
            case let .text(s):
                literal(s)
            case let .placeholder(name):
                guard let counter = counters[name] else {
                    literal("{" + name + "}")
                    continue
                }
                literal(counter.format.prefix)
                let width = counter.fieldWidth(at: builtAt)
                for index in 0..<width { result.append(Cluster(text: "\u{2007}", field: (name, index, width))) }
                literal(counter.format.suffix)
            }
        }
        return result
    }

    /// The dots rule straight from its definition.
    static func raised(_ dots: DotsEffect, dot: Int, at t: Instant) -> Bool {
        let since = t - dots.start - Int64(dot) * 150_000
        guard since >= 0 else { return false }
        let wave = since / 1_150_000
        if let stop = dots.stop {
            if stop < dots.start { return false }
            if wave > (stop - dots.start) / 1_150_000 { return false }
        }
        let tau = since % 1_150_000
        return tau < 322_000 && 8 * tau * (322_000 - tau) > 322_000 * 322_000
    }

    /// When a reveal starts for a viewer of `columns` cells (docs/rendering.md §11.4): at its still
    /// start when it has one and the viewer is at least that wide, else at its start.
    static func revealStart(_ reveal: RevealEffect, columns: Int) -> Instant {
        if let still = reveal.still, columns >= still.columns { return still.start }
        return reveal.start
    }

    /// The content with every effect applied at `t`, as a viewer of `columns` cells sees it.
    static func content(
        _ messages: [TapeMessage], separator: String, effects: EffectState, builtAt: Instant, columns: Int,
        at t: Instant
    ) -> String {
        var out = ""
        for (number, message) in messages.enumerated() {
            if number > 0 { out += separator }
            let clusters = clusters(of: message.text, counters: effects.counters, builtAt: builtAt)
            let n = clusters.count
            var shown = n
            var dots: DotsEffect?
            switch effects.messages[message.key] {
            case let .reveal(reveal)?:
                let elapsed = min(max(0, t - revealStart(reveal, columns: columns)), reveal.duration)
                shown = Int(elapsed * Int64(n) / reveal.duration)
            case let .dots(effect)?:
                dots = effect
            case nil:
                break
            }
            for (k, cluster) in clusters.enumerated() {
                if k >= shown {
                    out += String(repeating: " ", count: CellWidth.of(Character(cluster.text)))
                } else if let field = cluster.field {
                    let number = effects.counters[field.name].map { $0.format.number($0.value(at: t)) } ?? ""
                    let padded = number.count > field.width
                        ? String(repeating: "#", count: field.width)
                        : String(repeating: " ", count: field.width - number.count) + number
                    out.append(Array(padded)[field.index])
                } else if let dots, k >= n - 3, cluster.text == ".", raised(dots, dot: k - (n - 3), at: t) {
                    out += "\u{02D9}"
                } else {
                    out += cluster.text
                }
            }
        }
        return out
    }
}
