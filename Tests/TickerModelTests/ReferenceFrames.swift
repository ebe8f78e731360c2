@testable import TickerModel

/// Reference frames for a timeline without a pending change, computed from its public fields with
/// the formulas of docs/rendering.md written out longhand.
extension Reference {
    /// The frame's text and offset, and its `cycle` extra (docs/rendering.md §4: `s / W` in
    /// continuous and scroll mode, `p` in bounce mode, `e / (duration of all pages)` in pages
    /// mode, 0 for still text).
    static func frame(_ timeline: Timeline, columns c: Int, at t: Instant) -> (text: String, offset: Double, cycle: Double) {
        let tape = timeline.tape
        let e = (timeline.pausedAt.map { min(t, $0) } ?? t) - timeline.anchor
        let content = String(tape.text.utf8.dropLast(tape.gap.utf8.count)) ?? ""
        let contentWidth = CellWidth.of(content)
        let sign: Double = timeline.direction == .left ? 1 : -1
        switch timeline.mode {
        case .static:
            if contentWidth <= c { return (still(content, width: contentWidth, columns: c, align: timeline.align), 0, 0) }
            if c == 0 { return ("", 0, 0) }
            return (stream(tape, from: 0, count: c - 1) + "…", 0, 0)
        case .pages:
            if c == 0 { return ("", 0, 0) }
            let pages = pages(content, columns: c)
            var total: Int64 = 0
            for page in pages { total += pageDuration(words: page.words) }
            var page = pages[0]
            var cycle = 0.0
            if e >= 0 {
                cycle = Double(e) / Double(total)
                if timeline.loops > 0 { cycle = min(cycle, Double(timeline.loops)) }
                var cycles = 0
                var x = e
                while x >= total {
                    x -= total
                    cycles += 1
                }
                if timeline.loops == 0 || cycles < Int(timeline.loops) {
                    for candidate in pages {
                        if x < pageDuration(words: candidate.words) {
                            page = candidate
                            break
                        }
                        x -= pageDuration(words: candidate.words)
                    }
                }
            }
            return (still(page.text, width: page.cells, columns: c, align: timeline.align), 0, cycle)
        case .continuous, .scroll, .bounce:
            if contentWidth <= c { return (still(content, width: contentWidth, columns: c, align: timeline.align), 0, 0) }
        }
        let s: Double
        let cycle: Double
        switch timeline.mode {
        case .bounce:
            let overflow = contentWidth - c
            let p = bounce(e, overflow: overflow, speed: timeline.speed, delay: timeline.delay,
                           easing: timeline.easing, loops: Int(timeline.loops))
            s = Double(overflow) * (timeline.direction == .left ? p : 1 - p)
            cycle = p
        case .scroll:
            s = timeline.position + scroll(e, width: tape.width, speed: timeline.speed, delay: timeline.delay,
                                           easing: timeline.easing, loops: Int(timeline.loops), sign: sign)
            cycle = s / Double(tape.width)
        default:
            var d = continuous(e, position: 0, speed: timeline.speed, delay: timeline.delay, sign: 1)
            if timeline.loops > 0 { d = min(d, Double(tape.width) * Double(timeline.loops)) }
            s = timeline.position + sign * d
            cycle = s / Double(tape.width)
        }
        let (cell, offset) = split(s)
        return (stream(tape, from: cell, count: c), offset, cycle)
    }
}

/// Reference for a viewer whose old text is still while a content change waits for its switch
/// (docs/rendering.md §4, §6), written from the rule: nothing moves, so nothing waits.
extension Reference {
    /// The text a viewer of `c` columns sees at effective instant `t` when the content changes from
    /// `old` to `new` at `changedAt`, switching at `switchAt` — or nil when the viewer's text
    /// scrolls (then the seamless rules apply): the old content still until the change; from the
    /// change on the new content still when it fits too, else the old one until the switch.
    static func stillDuringChange(
        old: Tape, new: Tape, changedAt: Instant, switchAt: Instant, columns c: Int, align: Align, at t: Instant
    ) -> String? {
        let oldContent = String(old.text.utf8.dropLast(old.gap.utf8.count)) ?? ""
        let newContent = String(new.text.utf8.dropLast(new.gap.utf8.count)) ?? ""
        let oldWidth = CellWidth.of(oldContent)
        let newWidth = CellWidth.of(newContent)
        if t >= switchAt { return newWidth <= c ? still(newContent, width: newWidth, columns: c, align: align) : nil }
        guard oldWidth <= c else { return nil }
        if t >= changedAt, newWidth <= c { return still(newContent, width: newWidth, columns: c, align: align) }
        return still(oldContent, width: oldWidth, columns: c, align: align)
    }
}
