/// Where the messages and counter fields of a tape built from ``TapeMessage``s lie, in clusters
/// of the tape's cycle: what the frame applies effects to.
public struct TapeLayout: Sendable, Hashable {
    /// The messages in tape order.
    public internal(set) var messages: [MessageSpan]
    /// The counter fields in tape order.
    public internal(set) var fields: [FieldSpan]

    /// The index of the message holding cluster `index`, or nil (a separator or the gap): the span
    /// found, or the run of clusters between spans that holds `index`.
    func message(holding index: Int) -> (span: Int?, range: Range<Int>) {
        TapeLayout.locate(index, count: messages.count) { messages[$0].clusters }
    }

    /// The index of the counter field holding cluster `index`, or nil, as for ``message(holding:)``.
    func field(holding index: Int) -> (span: Int?, range: Range<Int>) {
        TapeLayout.locate(index, count: fields.count) { fields[$0].clusters }
    }

    /// Binary search over `count` sorted, disjoint ranges given by `range(i)`: the range holding
    /// `index`, or the gap between ranges (as a range) with a nil span.
    static func locate(
        _ index: Int, count: Int, range: (Int) -> Range<Int>
    ) -> (span: Int?, range: Range<Int>) {
        // The last span starting at or before index.
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if range(mid).lowerBound <= index { low = mid + 1 } else { high = mid }
        }
        let before = low - 1
        if before >= 0, range(before).contains(index) { return (before, range(before)) }
        let gapStart = before >= 0 ? range(before).upperBound : Int.min
        let gapEnd = low < count ? range(low).lowerBound : Int.max
        return (nil, gapStart..<gapEnd)
    }
}

/// Where one message lies in a tape.
public struct MessageSpan: Sendable, Hashable {
    /// The message's key (its id).
    public let key: String
    /// Its clusters in the tape's cycle.
    public let clusters: Range<Int>
    /// Its cells in the tape's cycle.
    public let cells: Range<Int>
    /// Its words (maximal runs of clusters other than U+0020), for `extras["reveal-words"]`.
    public let words: Int
}

/// Where one counter's number field lies in a tape: ``Counter/fieldWidth(at:)`` one-cell clusters
/// (U+2007 FIGURE SPACE in the tape's text) that frames fill with the right-aligned number.
public struct FieldSpan: Sendable, Hashable {
    /// The counter's name.
    public let name: String
    /// The field's clusters in the tape's cycle.
    public let clusters: Range<Int>
}
