/// Puts tapes into a frame: the frame path asks its painter for every run of cells, so the same
/// path serves frames with effects (``EffectPainter``) and without (``PlainPainter``, which
/// compiles to the code that existed before effects).
protocol FramePainter {
    /// Stream cells [from, to) of `tape` repeated (``Tape/appendCells(from:to:into:)``).
    mutating func appendCells(_ tape: Tape, from: Int, to: Int, into out: inout [UInt8])
    /// The content of `tape` (still text).
    mutating func appendContent(_ tape: Tape, into out: inout [UInt8])
    /// One page of `tape` (pages mode); returns the cells written.
    mutating func appendPage(_ tape: Tape, _ page: PageLayout.Page, columns: Int, into out: inout [UInt8]) -> Int
    /// The frame's extras with what the painter adds.
    func decorate(_ extras: FrameExtras) -> FrameExtras
}

/// Puts tapes in as they are: frames without effects.
struct PlainPainter: FramePainter {
    @inline(__always)
    func appendCells(_ tape: Tape, from: Int, to: Int, into out: inout [UInt8]) {
        tape.appendCells(from: from, to: to, into: &out)
    }

    @inline(__always)
    func appendContent(_ tape: Tape, into out: inout [UInt8]) {
        tape.appendContent(into: &out)
    }

    @inline(__always)
    func appendPage(_ tape: Tape, _ page: PageLayout.Page, columns: Int, into out: inout [UInt8]) -> Int {
        tape.appendPage(page, columns: columns, into: &out)
    }

    @inline(__always)
    func decorate(_ extras: FrameExtras) -> FrameExtras {
        extras
    }
}
