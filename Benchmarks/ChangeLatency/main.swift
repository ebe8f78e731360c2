// How long a content change takes to show, in model time (seconds of ticker motion), on a
// 10-message tape in 48 columns at the default 8 cells/s, continuous, direction left: for a post, an
// update and a removal made at N instants spread over one tape cycle, the time from the change to
// the first frame that shows it — for a removal, from which the removed message is never seen again
// (0 when it was not on screen). Side by side: rules version 1 (the change waits for the next
// boundary of the whole tape that no viewer whose text scrolls can see: the daemon then passed no
// viewer width) and rules version 2 as the model has it now (the next message boundary the declared
// 48-column viewer cannot see; the post goes where the daemon puts it, right before the message the
// stream continues with, `Timeline.continuingMessage`, so it comes there and nothing is skipped).
// Run with
//   cd Benchmarks && swift run -c release ChangeLatency [N]
// Frames are walked exactly, change by change (`nextChange`), so the figures are exact to the µs.
import TickerModel

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 400
let columns = 48
let letters = Array("abcdefghij")
// Ten messages of words of their own letter, 14 to 48 cells: "aaaa aaaaaa aaa …".
let texts: [String] = letters.enumerated().map { k, letter in
    let length = 14 + (k * 17) % 37
    var text = ""
    var word = 3 + k % 4
    while text.count < length {
        if !text.isEmpty { text += " " }
        text += String(repeating: letter, count: word)
        word = 2 + (word * 5) % 7
    }
    return String(text.prefix(length))
}
let separator = "  •  "

/// `postLast`: a post of another priority than the message the stream continues with, which the
/// daemon puts after the others (here: last), so it comes when the stream gets there.
enum Kind: String, CaseIterable { case post, postLast, update, remove }

/// The messages after a change of `kind` to message `k`: a post goes right before the message
/// `continuing` (at the end when that is the first, the same place in the stream), or last
/// without one (rules version 1: tape order by priority, then start).
func changed(_ kind: Kind, _ k: Int, continuing: String?) -> [(key: String, text: String)] {
    var messages = texts.enumerated().map { (key: "m\($0)", text: $1) }
    switch kind {
    case .post, .postLast:
        let at = kind == .postLast ? nil : continuing.flatMap { key in messages.firstIndex { $0.key == key } }
        messages.insert((key: "new", text: "zzzz zzz zzzzzz zz zzzzz"), at: at.map { $0 == 0 ? messages.count : $0 } ?? messages.count)
    case .update: messages[k].text = messages[k].text.uppercased()
    case .remove: messages.remove(at: k)
    }
    return messages
}

func tape(_ messages: [(key: String, text: String)], byMessage: Bool) -> Tape {
    byMessage
        ? Tape(messages: messages.map { TapeMessage(key: $0.key, text: $0.text) }, separator: separator, at: 0)
        : Tape(messages: messages.map(\.text), separator: separator)
}

/// Microseconds from `t` to the first frame of `timeline` that shows the change.
func latency(_ timeline: Timeline, at t: Instant, kind: Kind, message k: Int, horizon: Int64) -> Int64 {
    let mark: Character = kind == .post || kind == .postLast ? "z" : kind == .update ? Character(letters[k].uppercased()) : letters[k]
    var instant = t
    var lastSeen: Instant?
    while instant < t + horizon {
        let shows = timeline.frame(columns: columns, at: instant).text.contains(mark)
        if kind == .remove {
            if shows { lastSeen = instant }
        } else if shows {
            return instant - t
        }
        guard let next = timeline.nextChange(after: instant, columns: columns) else { break }
        instant = next
    }
    if kind == .remove {
        guard let lastSeen else { return 0 }
        // Seen until the frame after the last one that showed it.
        return (timeline.nextChange(after: lastSeen, columns: columns) ?? lastSeen) - t
    }
    return horizon
}

func percentile(_ values: [Int64], _ p: Double) -> Double {
    let sorted = values.sorted()
    let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
    return Double(sorted[index]) / 1_000_000
}

/// `value` with one decimal, right-aligned in `width` characters.
func fixed(_ value: Double, _ width: Int) -> String {
    let tenths = Int((value * 10).rounded())
    let text = "\(tenths / 10).\(tenths % 10)"
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

let base: Instant = 1_800_000_000_000_000
let settings = ChannelSettings()
let oldMessages = texts.enumerated().map { (key: "m\($0)", text: $1) }
print("tape: \(tape(oldMessages, byMessage: true).width) cells, \(columns) columns, \(count) change instants")
print("kind     rule  p50 s   max s")
for kind in Kind.allCases {
    for version in [1, 2] {
        let byMessage = version == 2
        let old = tape(oldMessages, byMessage: byMessage)
        let timeline = Timeline(tape: old, settings: settings, at: base)
        let cycle = Int64(Double(old.width) / 8 * 1_000_000)
        let horizon = 4 * cycle
        var figures: [Int64] = []
        for i in 0..<count {
            let t = base + Int64(i) * cycle / Int64(count) + 7_919
            let k = i % texts.count
            let continuing = byMessage ? timeline.continuingMessage(at: t, seamColumns: columns) : nil
            let new = tape(changed(kind, k, continuing: continuing), byMessage: byMessage)
            let after = timeline.applying(new, at: t, seamColumns: byMessage ? columns : nil)
            figures.append(latency(after, at: t, kind: kind, message: k, horizon: horizon))
        }
        let p50 = percentile(figures, 0.5)
        let max = Double(figures.max() ?? 0) / 1_000_000
        let name = kind.rawValue + String(repeating: " ", count: Swift.max(1, 9 - kind.rawValue.count))
        print("\(name)v\(version)    \(fixed(p50, 5))  \(fixed(max, 6))")
    }
}
