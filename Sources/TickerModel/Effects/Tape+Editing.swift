extension Tape {
    /// The tape of `messages`, as ``init(messages:separator:gap:counters:at:)`` builds it without
    /// counters, made by editing `base`, the tape of `old` with the same separator and gap: the
    /// messages both lists start and end with keep their bytes, clusters and places, shifted, and
    /// only what lies between them is cut into clusters again. Nil when `base` cannot be edited
    /// (it was not built from `old` here, it has counter fields, or either list is empty); the
    /// caller then builds the tape whole.
    ///
    /// Guarantees, given that `base` is the tape of `old`: the tape equals the one built whole,
    /// cluster for cluster. Whether a scalar begins a cluster depends on the bytes from the
    /// cluster before it on, so the clusters are cut again from the last one that starts before
    /// the edit until a cut falls where `base` has one in the bytes after the edit; from there on
    /// they are those of `base`.
    public init?(messages: [TapeMessage], separator: String, gap: String? = nil, editing base: Tape, builtFrom old: [TapeMessage]) {
        let gapText = gap ?? separator
        guard !messages.isEmpty, !old.isEmpty, base.gap == gapText, let oldBytes = base.messageBytes,
              oldBytes.count == old.count, let baseLayout = base.layout, baseLayout.fields.isEmpty,
              baseLayout.messages.count == old.count else { return nil }
        let (n, m) = (old.count, messages.count)
        var kept = 0
        while kept < min(n, m), old[kept] == messages[kept] { kept += 1 }
        var trailing = 0
        while trailing < min(n, m) - kept, old[n - 1 - trailing] == messages[m - 1 - trailing] { trailing += 1 }
        if kept == n, n == m {
            self = base
            return
        }
        // What replaces base's bytes `cut`: the messages between with their separators.
        let between = messages[kept..<(m - trailing)]
        var inserted = ""
        var insertedBytes: [Range<Int>] = []
        var noFields: [(name: String, bytes: Range<Int>)] = []
        if kept > 0, !between.isEmpty { inserted += separator }
        for (index, message) in between.enumerated() {
            if index > 0 { inserted += separator }
            let start = inserted.utf8.count
            Self.append(message.text, to: &inserted, counters: CounterSet(), at: 0, fields: &noFields)
            insertedBytes.append(start..<inserted.utf8.count)
        }
        if trailing > 0, !between.isEmpty || kept > 0 { inserted += separator }
        let contentEnd = base.bytes.count - gapText.utf8.count
        let cut = (kept > 0 ? oldBytes[kept - 1].upperBound : 0)..<(trailing > 0 ? oldBytes[n - trailing].lowerBound : contentEnd)
        let shift = inserted.utf8.count - cut.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base.bytes.count + shift)
        bytes.append(contentsOf: base.bytes[..<cut.lowerBound])
        bytes.append(contentsOf: inserted.utf8)
        bytes.append(contentsOf: base.bytes[cut.upperBound...])

        // Cut again from the last cluster that starts before the edit, through a few of base's
        // clusters after it: a cut short of the window's end is sure (the scalar after it is in).
        let restart = max(base.firstCluster(atOrAfterByte: cut.lowerBound) - 1, 0)
        let restartByte = base.byteStart[restart]
        let firstAfter = base.firstCluster(atOrAfterByte: cut.upperBound)
        let windowEnd = min(firstAfter + 8, base.byteStart.count - 1)
        let windowEndByte = base.byteStart[windowEnd] + shift
        let window = Tape(content: String(decoding: bytes[restartByte..<windowEndByte], as: UTF8.self), gap: "")
        let isWhole = windowEndByte == bytes.count
        // The first cut at or after the edit's end that base has too (shifted).
        var baseIndex = firstAfter
        var meeting: (window: Int, base: Int)?
        for index in window.byteStart.indices {
            let byte = window.byteStart[index] + restartByte
            guard byte < windowEndByte || isWhole else { break }
            guard byte >= cut.lowerBound + inserted.utf8.count else { continue }
            while baseIndex < base.byteStart.count, base.byteStart[baseIndex] + shift < byte { baseIndex += 1 }
            if baseIndex < base.byteStart.count, base.byteStart[baseIndex] + shift == byte {
                meeting = (index, baseIndex)
                break
            }
        }
        guard let meeting else { return nil }
        let cellBase = base.cellStart[restart]
        let cellShift = window.cellStart[meeting.window] + cellBase - base.cellStart[meeting.base]
        let byteStart = Self.spliced(base.byteStart, keeping: restart, window.byteStart[..<meeting.window], plus: restartByte,
                                     from: meeting.base, plus: shift)
        let cellStart = Self.spliced(base.cellStart, keeping: restart, window.cellStart[..<meeting.window], plus: cellBase,
                                     from: meeting.base, plus: cellShift)
        let gapStart = bytes.count - gapText.utf8.count
        var contentClusters = 0
        var high = byteStart.count - 1
        while contentClusters < high {
            let mid = (contentClusters + high) / 2
            if byteStart[mid] < gapStart { contentClusters = mid + 1 } else { high = mid }
        }
        // Whole strings put together: no byte is decoded again.
        var text = String(Substring(base.text.utf8[..<base.text.utf8.index(base.text.utf8.startIndex, offsetBy: cut.lowerBound)]))
        text.reserveCapacity(bytes.count)
        text += inserted
        text += Substring(base.text.utf8[base.text.utf8.index(base.text.utf8.startIndex, offsetBy: cut.upperBound)...])
        self.init(
            text: text, gap: gapText, bytes: bytes, byteStart: byteStart,
            cellStart: cellStart, contentClusterCount: contentClusters)

        // Where each message lies: as in base before the cut clusters and after the meeting
        // (shifted), found again in between.
        var ranges = Array(oldBytes[..<kept])
        ranges.append(contentsOf: insertedBytes.map { ($0.lowerBound + cut.lowerBound)..<($0.upperBound + cut.lowerBound) })
        ranges.append(contentsOf: oldBytes[(n - trailing)...].map { ($0.lowerBound + shift)..<($0.upperBound + shift) })
        let meetingByte = byteStart[restart + meeting.window]
        let clusterShift = restart + meeting.window - meeting.base
        var spans: [MessageSpan] = []
        spans.reserveCapacity(m)
        for (index, (message, range)) in zip(messages, ranges).enumerated() {
            if range.upperBound <= restartByte {
                spans.append(baseLayout.messages[index])
            } else if index >= m - trailing, range.lowerBound >= meetingByte {
                let span = baseLayout.messages[index - m + n]
                spans.append(MessageSpan(
                    key: span.key, clusters: (span.clusters.lowerBound + clusterShift)..<(span.clusters.upperBound + clusterShift),
                    cells: (span.cells.lowerBound + cellShift)..<(span.cells.upperBound + cellShift), words: span.words))
            } else {
                let clusters = clusterRange(bytes: range)
                spans.append(MessageSpan(
                    key: message.key, clusters: clusters, cells: cellStart[clusters.lowerBound]..<cellStart[clusters.upperBound],
                    words: words(in: clusters)))
            }
        }
        layout = TapeLayout(messages: spans, fields: [])
        messageBytes = ranges
    }

    /// The first `kept` offsets of `base`, then `middle` each plus `middleShift`, then those of
    /// `base` from `resumed` on each plus `shift`.
    ///
    /// Every offset after the edit moves, and they are most of a tape edited near its start: each
    /// part is a loop over pointers with wrapping additions and no running index, which the
    /// compiler vectorizes (a checked running index kept the loops scalar).
    private static func spliced(_ base: TapeOffsets, keeping kept: Int, _ middle: Slice<TapeOffsets>, plus middleShift: Int,
                                from resumed: Int, plus shift: Int) -> TapeOffsets {
        let tail = base.count - resumed
        let count = kept + middle.count + tail
        // Both shifts move offsets that stay within the new tape, so adding them modulo 2³² gives
        // the exact offsets (a negative shift as its two's complement).
        let resumedShift = UInt32(truncatingIfNeeded: shift)
        let middleShift32 = UInt32(truncatingIfNeeded: middleShift)
        return TapeOffsets(unsafeUninitializedCapacity: count) { out, initialized in
            base.withUnsafeBufferPointer { source in
                middle.base.withUnsafeBufferPointer { window in
                    // A tape's offsets end with its total, so `base` and `out` are never empty.
                    guard let to = out.baseAddress, let from = source.baseAddress else { return }
                    for index in 0..<kept { to[index] = from[index] }
                    if let start = window.baseAddress?.advanced(by: middle.startIndex) {
                        let into = to + kept
                        for index in 0..<middle.count { into[index] = start[index] &+ middleShift32 }
                    }
                    let resumedFrom = from + resumed
                    let into = to + kept + middle.count
                    for index in 0..<tail { into[index] = resumedFrom[index] &+ resumedShift }
                    initialized = count
                }
            }
        }
    }
}
