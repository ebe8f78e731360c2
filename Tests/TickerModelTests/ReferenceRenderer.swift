@testable import TickerModel

/// An obviously-right renderer for the tests: it lays clusters out one by one at absolute stream
/// cells and then fills a window cell by cell. Slow (it walks whole tape cycles), simple, and
/// written without any of TickerModel's offsets tables or binary searches.
enum Reference {
    struct Placed {
        var start: Int
        var text: String
        var width: Int
        /// For a zero-width cluster: the cell it belongs to (the one before it in its cycle, or
        /// at the cycle's start the one after it).
        var owner: Int
    }

    /// Clusters of one tape cycle with their widths.
    static func clusters(_ text: String) -> [(String, Int)] {
        text.map { (String($0), CellWidth.of($0)) }
    }

    /// The tape repeated with tape cell 0 at stream cells `origin + k·W`, for every cycle k that
    /// starts in `cycleStarts` (a range of stream cells), clipped to cycles whose start satisfies `keep`.
    static func place(_ tape: String, origin: Int, around window: Range<Int>, keep: (Int, Int) -> Bool = { _, _ in true }) -> [Placed] {
        let parts = clusters(tape)
        let width = parts.reduce(0) { $0 + $1.1 }
        guard width > 0 else { return [] }
        var out: [Placed] = []
        // Cycle k covers [origin + kW, origin + (k+1)W]; take every cycle near the window.
        var k = (window.lowerBound - origin) / width - 2
        while origin + k * width <= window.upperBound + width {
            let cycleStart = origin + k * width
            if keep(cycleStart, cycleStart + width) {
                var x = cycleStart
                for (text, w) in parts {
                    out.append(Placed(start: x, text: text, width: w, owner: x == cycleStart ? x : x - 1))
                    x += w
                }
            }
            k += 1
        }
        return out
    }

    /// Fills the window [a, a + c) cell by cell: a cluster wholly inside shows, a cluster cut by an
    /// edge shows a space per visible cell, a zero-width cluster shows when its owner cell does.
    static func window(_ placed: [Placed], from a: Int, count c: Int) -> String {
        var cells = [String?](repeating: nil, count: c)
        var before = [String](repeating: "", count: c)
        var after = [String](repeating: "", count: c)
        for item in placed {
            if item.width == 0 {
                guard item.owner >= a, item.owner < a + c else { continue }
                if item.owner == item.start {
                    before[item.owner - a] += item.text
                } else {
                    after[item.owner - a] += item.text
                }
                continue
            }
            let whole = item.start >= a && item.start + item.width <= a + c
            for k in 0..<item.width {
                let x = item.start + k
                guard x >= a, x < a + c else { continue }
                cells[x - a] = whole ? (k == 0 ? item.text : "") : " "
            }
        }
        var text = ""
        for i in 0..<c {
            text += before[i]
            text += cells[i] ?? "?"
            text += after[i]
        }
        return text
    }

    /// The window of the plain stream (one tape repeated from 0).
    static func stream(_ tape: Tape, from a: Int, count c: Int) -> String {
        guard tape.width > 0 else { return String(repeating: " ", count: c) }
        return window(place(tape.text, origin: 0, around: a..<(a + c)), from: a, count: c)
    }

    /// Still text: the content placed by `align` in c cells.
    static func still(_ content: String, width: Int, columns c: Int, align: Align) -> String {
        let spare = c - width
        let left = align == .left ? 0 : align == .center ? spare / 2 : spare
        return String(repeating: " ", count: left) + content + String(repeating: " ", count: spare - left)
    }

    /// Continuous-mode stream position, straight from the formula.
    static func continuous(_ e: Int64, position: Double, speed: Double, delay: Int64, sign: Double) -> Double {
        let moving = e > delay ? e - delay : 0
        return position + sign * speed * Double(moving) / 1_000_000
    }

    /// Scroll-mode stream position, walking cycle by cycle.
    static func scroll(_ e: Int64, width: Int, speed: Double, delay: Int64, easing: Easing, loops: Int, sign: Double) -> Double {
        if e < 0 || width == 0 { return 0 }
        let move = max(1, Int64((Double(width) / speed * 1_000_000).rounded()))
        var start: Int64 = 0
        var k = 0
        while true {
            if loops > 0, k == loops { return sign * Double(width * loops) }
            if e < start + delay { return sign * Double(width * k) }
            if e < start + delay + move {
                return sign * Double(width) * (Double(k) + easing(Double(e - start - delay) / Double(move)))
            }
            start += delay + move
            k += 1
        }
    }

    /// Bounce: fraction of the overflow travelled from home, walking half-cycle by half-cycle.
    static func bounce(_ e: Int64, overflow: Int, speed: Double, delay: Int64, easing: Easing, loops: Int) -> Double {
        if e < 0 { return 0 }
        let move = max(1, Int64((Double(overflow) / speed * 1_000_000).rounded()))
        var start: Int64 = 0
        var k = 0
        while true {
            if loops > 0, k == loops { return 0 }
            if e < start + delay { return 0 }
            if e < start + delay + move { return easing(Double(e - start - delay) / Double(move)) }
            if e < start + 2 * delay + move { return 1 }
            if e < start + 2 * delay + 2 * move { return 1 - easing(Double(e - start - 2 * delay - move) / Double(move)) }
            start += 2 * delay + 2 * move
            k += 1
        }
    }

    /// Pages: greedy word wrap of the content into lines of c cells, with reading times.
    static func pages(_ content: String, columns c: Int) -> [(text: String, cells: Int, words: Int)] {
        var words: [[(String, Int)]] = [[]]
        for (text, w) in clusters(content) {
            if text == " " {
                if !(words.last?.isEmpty ?? true) { words.append([]) }
            } else {
                words[words.count - 1].append((text, w))
            }
        }
        // Cut words wider than c into pieces of at most c cells.
        var pieces: [(String, Int)] = []
        func flush(_ text: String, _ cells: Int) {
            // A lone cluster wider than the page shows as spaces.
            pieces.append(cells > c ? (String(repeating: " ", count: c), c) : (text, cells))
        }
        for word in words where !word.isEmpty {
            var text = ""
            var cells = 0
            for (cluster, w) in word {
                if cells + w > c, !text.isEmpty {
                    flush(text, cells)
                    text = ""
                    cells = 0
                }
                text += cluster
                cells += w
            }
            flush(text, cells)
        }
        var pages: [(text: String, cells: Int, words: Int)] = []
        var line = ""
        var cells = 0
        var count = 0
        for (text, w) in pieces {
            if count > 0, cells + 1 + w > c {
                pages.append((line, cells, count))
                line = ""
                cells = 0
                count = 0
            }
            if count > 0 {
                line += " "
                cells += 1
            }
            line += text
            cells += w
            count += 1
        }
        if count > 0 || pages.isEmpty { pages.append((line, cells, count)) }
        return pages
    }

    static func pageDuration(words: Int) -> Int64 {
        max(2_000_000, Int64(words) * 300_000)
    }

    /// ⌊s⌋ and s − ⌊s⌋, as the rules define them.
    static func split(_ s: Double) -> (Int, Double) {
        let f = s.rounded(.down)
        return (Int(f), s - f)
    }
}
