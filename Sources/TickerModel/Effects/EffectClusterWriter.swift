/// Writes a tape's clusters with the effects of ``EffectState`` applied at one instant: hidden
/// (not yet revealed) clusters as spaces, counter fields as their right-aligned numbers, raised
/// dots as `˙`. Every substitute takes exactly the cells of the cluster it stands for.
///
/// Clusters come in increasing order (wrapping to 0 at a cycle's end), so the writer keeps the
/// message and field it is in and looks them up again (binary search) only when it leaves them:
/// O(log m) per span entered, O(1) per cluster.
struct EffectClusterWriter: ClusterWriter {
    let layout: TapeLayout
    let effects: EffectState
    let t: Instant
    /// True to note every message and field the frame shows (for
    /// ``Timeline/nextChange(after:columns:effects:extras:)``).
    let recording: Bool

    /// The message (or the run between messages) the last cluster was in.
    private var messageRange: Range<Int> = 0..<0
    /// First hidden cluster of the current message (Int.max: nothing hidden).
    private var hiddenFrom = Int.max
    /// The current message's dots, and the cluster of its first dot.
    private var dots: DotsEffect?
    private var firstDot = Int.max
    /// The counter field the last cluster was in, and what it shows (nil: not a field).
    private var fieldRange: Range<Int> = 0..<0
    private var fieldBytes: [UInt8]?

    /// The first dots and the first reveal shown, for the extras.
    private(set) var shownDots: DotsEffect?
    private(set) var shownReveal: (effect: RevealEffect, words: Int)?
    /// When recording: the spans shown that have an effect, and the fields shown.
    private(set) var shownMessages: [MessageSpan] = []
    private(set) var shownFields: [String] = []

    init(layout: TapeLayout, effects: EffectState, at t: Instant, recording: Bool) {
        self.layout = layout
        self.effects = effects
        self.t = t
        self.recording = recording
    }

    mutating func append(cluster index: Int, of tape: Tape, to out: inout [UInt8]) {
        if !messageRange.contains(index) { enterMessage(holding: index) }
        if index >= hiddenFrom {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: tape.cellWidth(ofCluster: index)))
            return
        }
        if !layout.fields.isEmpty {
            if !fieldRange.contains(index) { enterField(holding: index) }
            if let fieldBytes, index - fieldRange.lowerBound < fieldBytes.count, tape.cellWidth(ofCluster: index) == 1 {
                out.append(fieldBytes[index - fieldRange.lowerBound])
                return
            }
        }
        if let dots, index >= firstDot, tape.isFullStop(index), dots.isRaised(dot: index - firstDot, at: t) {
            out.append(contentsOf: EffectClusterWriter.raisedDotBytes)
            return
        }
        tape.appendCluster(index, to: &out)
    }

    /// UTF-8 of ``DotsEffect/raisedDot``.
    static let raisedDotBytes = Array(String(DotsEffect.raisedDot).utf8)

    private mutating func enterMessage(holding index: Int) {
        let (span, range) = layout.message(holding: index)
        messageRange = range
        hiddenFrom = Int.max
        dots = nil
        firstDot = Int.max
        guard let span else { return }
        let message = layout.messages[span]
        guard let effect = effects.messages[message.key] else { return }
        if recording { shownMessages.append(message) }
        switch effect {
        case let .reveal(reveal):
            hiddenFrom = range.lowerBound + reveal.revealedClusters(of: range.count, at: t)
            if shownReveal == nil { shownReveal = (reveal, message.words) }
        case let .dots(effect):
            dots = effect
            firstDot = range.upperBound - DotsEffect.dotCount
            if shownDots == nil { shownDots = effect }
        }
    }

    private mutating func enterField(holding index: Int) {
        let (span, range) = layout.field(holding: index)
        fieldRange = range
        guard let span else {
            fieldBytes = nil
            return
        }
        let name = layout.fields[span].name
        if recording { shownFields.append(name) }
        let width = range.count
        guard let counter = effects.counters[name] else {
            fieldBytes = Array(repeating: UInt8(ascii: " "), count: width)
            return
        }
        let number = counter.format.numberBytes(counter.value(at: t))
        if number.count > width {
            // Only while a wider count waits for its new tape: never a misleading cut number.
            fieldBytes = Array(repeating: UInt8(ascii: "#"), count: width)
        } else {
            fieldBytes = Array(repeating: UInt8(ascii: " "), count: width - number.count) + number
        }
    }
}

extension Tape {
    /// True when cluster `index` is a single U+002E FULL STOP.
    func isFullStop(_ index: Int) -> Bool {
        byteStart[index + 1] - byteStart[index] == 1 && bytes[byteStart[index]] == UInt8(ascii: ".")
    }
}
