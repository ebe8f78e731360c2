/// Puts tapes into a frame with a channel's effects applied at one instant, and gathers what the
/// frame showed of them (for the extras, and for ``Timeline/nextChange(after:columns:effects:extras:)``).
///
/// A tape without a layout, or with no counter fields while no message has an effect, takes the
/// plain path: the frame costs what it cost before effects existed.
struct EffectPainter: FramePainter {
    let effects: EffectState
    let t: Instant
    let recording: Bool

    /// The first dots and reveal shown.
    private(set) var shownDots: DotsEffect?
    private(set) var shownReveal: (effect: RevealEffect, words: Int)?
    /// When recording: the spans shown with an effect, and the counter fields shown.
    private(set) var shownMessages: [MessageSpan] = []
    private(set) var shownFields: [String] = []

    init(effects: EffectState, at t: Instant, recording: Bool = false) {
        self.effects = effects
        self.t = t
        self.recording = recording
    }

    /// The effect writer for `tape`, or nil when the plain path shows it the same.
    private func writer(for tape: Tape) -> EffectClusterWriter? {
        guard let layout = tape.layout, !(layout.fields.isEmpty && effects.messages.isEmpty) else { return nil }
        return EffectClusterWriter(layout: layout, effects: effects, at: t, recording: recording)
    }

    /// Stream cells [from, to) of `tape` repeated (``Tape/appendCells(from:to:into:)``).
    mutating func appendCells(_ tape: Tape, from: Int, to: Int, into out: inout [UInt8]) {
        guard var writer = writer(for: tape) else {
            tape.appendCells(from: from, to: to, into: &out)
            return
        }
        tape.appendCells(from: from, to: to, into: &out, writer: &writer)
        absorb(writer)
    }

    /// The content of `tape` (still text).
    mutating func appendContent(_ tape: Tape, into out: inout [UInt8]) {
        guard var writer = writer(for: tape) else {
            tape.appendContent(into: &out)
            return
        }
        tape.appendContent(into: &out, writer: &writer)
        absorb(writer)
    }

    /// One page of `tape` (pages mode); returns the cells written.
    mutating func appendPage(_ tape: Tape, _ page: PageLayout.Page, columns: Int, into out: inout [UInt8]) -> Int {
        guard var writer = writer(for: tape) else {
            return tape.appendPage(page, columns: columns, into: &out)
        }
        let cells = tape.appendPage(page, columns: columns, into: &out, writer: &writer)
        absorb(writer)
        return cells
    }

    private mutating func absorb(_ writer: EffectClusterWriter) {
        if shownDots == nil { shownDots = writer.shownDots }
        if shownReveal == nil { shownReveal = writer.shownReveal }
        if recording {
            shownMessages += writer.shownMessages
            shownFields += writer.shownFields
        }
    }

    /// `extras` with the effect values of what was shown: `dots`, `reveal`, `reveal-words`.
    func decorate(_ extras: FrameExtras) -> FrameExtras {
        var result = extras
        if let shownDots { result.dots = shownDots.heights(at: t) }
        if let shownReveal {
            let progress = shownReveal.effect.progress(at: t)
            result.reveal = progress
            result.revealWords = Array(repeating: progress, count: shownReveal.words)
        }
        return result
    }
}
