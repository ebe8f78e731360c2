extension Timeline {
    /// The id of the message whose cells are under `column` (0-based) of the frame a viewer of
    /// `columns` cells sees at `t` (``frame(columns:at:)``), or nil for a separator, the gap,
    /// padding or a column outside the frame. Pure; O(c + n) at most.
    public func messageKey(atColumn column: Int, columns: Int, at t: Instant) -> String? {
        guard column >= 0, column < columns else { return nil }
        var painter = LocatingPainter()
        _ = render(columns: columns, at: t, painter: &painter)
        var keys = painter.keys
        if mode == .pages {
            // Pages are padded after they are painted: put the same left padding in front.
            let spare = max(0, columns - keys.count)
            let left = align == .center ? spare / 2 : align == .right ? spare : 0
            keys.insert(contentsOf: repeatElement(nil, count: left), at: 0)
        }
        return column < keys.count ? keys[column] : nil
    }
}

/// A painter that paints as ``PlainPainter`` does and notes, for every cell of the frame, the key
/// of the message the cell shows (nil for separators, the gap and padding).
struct LocatingPainter: FramePainter {
    /// One entry per frame cell painted so far (padding written by the frame path included).
    private(set) var keys: [String?] = []
    /// `out.count` after the last run this painter wrote: bytes after it are the frame path's
    /// own ASCII-space padding, one cell each.
    private var written = 0

    private mutating func notePadding(_ out: [UInt8]) {
        keys.append(contentsOf: repeatElement(nil, count: max(0, out.count - written)))
    }

    mutating func appendCells(_ tape: Tape, from: Int, to: Int, into out: inout [UInt8]) {
        notePadding(out)
        tape.appendCells(from: from, to: to, into: &out)
        written = out.count
        guard to > from else { return }
        let width = max(1, tape.width)
        for cell in from..<to {
            let inCycle = ((cell % width) + width) % width
            keys.append(key(of: tape, cell: inCycle))
        }
    }

    mutating func appendContent(_ tape: Tape, into out: inout [UInt8]) {
        notePadding(out)
        tape.appendContent(into: &out)
        written = out.count
        for cell in 0..<max(0, tape.contentWidth) { keys.append(key(of: tape, cell: cell)) }
    }

    mutating func appendPage(_ tape: Tape, _ page: PageLayout.Page, columns: Int, into out: inout [UInt8]) -> Int {
        notePadding(out)
        let cells = tape.appendPage(page, columns: columns, into: &out)
        written = out.count
        let start = keys.count
        for piece in page.pieces {
            for cluster in piece {
                let key = tape.layout?.message(holding: cluster).span.map { tape.layout?.messages[$0].key } ?? nil
                keys.append(contentsOf: repeatElement(key, count: tape.cellWidth(ofCluster: cluster)))
            }
        }
        // Keep exactly the cells the page wrote.
        if keys.count - start > cells { keys.removeLast(keys.count - start - cells) }
        while keys.count - start < cells { keys.append(nil) }
        return cells
    }

    func decorate(_ extras: FrameExtras) -> FrameExtras { extras }

    private func key(of tape: Tape, cell: Int) -> String? {
        tape.layout?.messages.first { $0.cells.contains(cell) }?.key
    }
}
