extension Timeline {
    /// What a viewer of `columns` cells sees at `t`: exactly `columns` cells of text, the sub-cell
    /// offset and the extras. Pure and deterministic; O(log n + c) for every mode but `pages`
    /// (which lays out the content, O(n)).
    public func frame(columns: Int, at t: Instant) -> Frame {
        var painter = PlainPainter()
        return render(columns: columns, at: t, painter: &painter)
    }

    /// ``frame(columns:at:)`` with the channel's effects applied at `t` (counters, dots, reveal;
    /// docs/rendering.md §11). Effects follow the real instant `t` even while the timeline is
    /// paused (only the motion freezes). A reveal runs from the viewer's start (a message waiting
    /// for a seam is seen earlier where the change shows still, §11.4). Still O(log n + c) outside
    /// pages mode.
    public func frame(columns: Int, at t: Instant, effects: EffectState) -> Frame {
        var painter = EffectPainter(effects: effects.forViewer(columns: columns), at: t)
        return render(columns: columns, at: t, painter: &painter)
    }

    /// The frame at `t`, with tapes put in by `painter` (which gathers what effects it showed).
    func render<Painter: FramePainter>(columns: Int, at t: Instant, painter: inout Painter) -> Frame {
        if isPhaseLocked, pending != nil {
            // From the settle instant on, the canonical form (docs/rendering.md §13).
            let settledView = settled(at: t)
            if settledView.pending == nil { return settledView.render(columns: columns, at: t, painter: &painter) }
        }
        let c = max(0, columns)
        let now = effectiveTime(t)
        var out = [UInt8]()
        // Room for 4 bytes a cell: CJK takes 1.5, emoji 2, a flag 4; with one cell a byte (ASCII)
        // the frame had to grow its buffer (a second allocation and a copy) for most non-ASCII text.
        out.reserveCapacity(4 * c + 16)
        let current = viewedTape(columns: c, at: now)
        var offset = 0.0
        var cycle = 0.0
        switch mode {
        case .static:
            Timeline.appendStatic(current, columns: c, align: align, into: &out, painter: &painter)
        case .pages:
            cycle = appendPage(current, columns: c, at: now, into: &out, painter: &painter)
        case .continuous, .scroll, .bounce:
            if current.contentWidth <= c {
                Timeline.appendStill(current, columns: c, align: align, into: &out, painter: &painter)
            } else if mode == .bounce {
                let motion = bounceMotion(for: current, columns: c)
                let cell: Int
                (cell, offset) = Timeline.split(motion.position(at: now))
                painter.appendCells(current, from: cell, to: cell + c, into: &out)
                cycle = motion.progress(at: now)
            } else {
                let state = streamState(at: now)
                let cell: Int
                (cell, offset) = Timeline.split(state.position)
                appendStream(from: cell, to: cell + c, into: &out, painter: &painter)
                let width = state.current.width
                cycle = width > 0 ? (state.position - Double(state.origin)) / Double(width) : 0
            }
        }
        return Frame(
            text: String(decoding: out, as: UTF8.self), offset: offset,
            extras: painter.decorate(FrameExtras(cycle: cycle)))
    }

    /// The bounce motion of a viewer of `columns` cells over `tape`'s content.
    func bounceMotion(for tape: Tape, columns: Int) -> BounceMotion {
        BounceMotion(
            anchor: anchor, speed: speed(forWidth: tape.width), delay: delay, easing: easing,
            loops: loops, direction: direction, overflow: max(0, tape.contentWidth - columns))
    }

    /// Appends stream cells [from, to): the tape, or across a pending seam the old and new tapes.
    func appendStream<Painter: FramePainter>(from: Int, to: Int, into out: inout [UInt8], painter: inout Painter) {
        guard let pending, switchInstant != nil else {
            painter.appendCells(tape, from: from, to: to, into: &out)
            return
        }
        let seam = pending.switchPosition
        let (lower, upper) = direction == .left ? (tape, pending.tape) : (pending.tape, tape)
        // Each tape keeps its own origin: the old tape's cell 0 at 0, the new one's `nextStart`
        // cells before the seam (so its cell `nextStart` lies at the seam).
        let newOrigin = seam - pending.nextStart
        let lowerOrigin = direction == .left ? 0 : newOrigin
        let upperOrigin = direction == .left ? newOrigin : 0
        // The lead-in: blank cells on the new side, next to the seam (none but phase-locked).
        let blank = direction == .left ? seam..<(seam + pending.leadIn) : (seam - pending.leadIn)..<seam
        if from < blank.lowerBound {
            painter.appendCells(lower, from: from - lowerOrigin, to: min(to, blank.lowerBound) - lowerOrigin, into: &out)
        }
        let blankCells = min(to, blank.upperBound) - max(from, blank.lowerBound)
        if blankCells > 0 { out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: blankCells)) }
        if to > blank.upperBound {
            painter.appendCells(upper, from: max(from, blank.upperBound) - upperOrigin, to: to - upperOrigin, into: &out)
        }
    }

    /// Text that fits: the content, placed by `align` and padded to `columns`.
    static func appendStill<Painter: FramePainter>(_ tape: Tape, columns: Int, align: Align, into out: inout [UInt8], painter: inout Painter) {
        let spare = columns - tape.contentWidth
        let left: Int
        switch align {
        case .left: left = 0
        case .center: left = spare / 2
        case .right: left = spare
        }
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: left))
        painter.appendContent(tape, into: &out)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spare - left))
    }

    /// Static mode: still text that fits, else the first c − 1 cells and `…`.
    static func appendStatic<Painter: FramePainter>(_ tape: Tape, columns: Int, align: Align, into out: inout [UInt8], painter: inout Painter) {
        if tape.contentWidth <= columns {
            appendStill(tape, columns: columns, align: align, into: &out, painter: &painter)
        } else if columns > 0 {
            painter.appendCells(tape, from: 0, to: columns - 1, into: &out)
            out.append(contentsOf: "…".utf8)
        }
    }

    /// Pages mode: appends the page shown at effective instant `t`; returns the cycle progress.
    func appendPage<Painter: FramePainter>(_ tape: Tape, columns: Int, at t: Instant, into out: inout [UInt8], painter: inout Painter) -> Double {
        guard columns > 0 else { return 0 }
        let layout = tape.pageLayout(columns: columns)
        let (index, cycle) = pageIndex(layout, at: t)
        let cells = painter.appendPage(tape, layout.pages[index], columns: columns, into: &out)
        let spare = columns - cells
        let left: Int
        switch align {
        case .left: left = 0
        case .center: left = spare / 2
        case .right: left = spare
        }
        if left > 0 {
            out.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: left), at: 0)
        }
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spare - left))
        return cycle
    }

    /// The page shown at effective instant `t`, and elapsed time over the duration of all pages.
    func pageIndex(_ layout: PageLayout, at t: Instant) -> (index: Int, cycle: Double) {
        let elapsed = t &- anchor
        let total = layout.cycleDuration
        guard elapsed >= 0, total > 0 else { return (0, 0) }
        let cycles = elapsed / total
        if loops > 0, cycles >= Int64(loops) { return (0, Double(loops)) }
        return (layout.page(atCycleOffset: elapsed - cycles * total), Double(elapsed) / Double(total))
    }
}
