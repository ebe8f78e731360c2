extension Tape {
    /// Appends the stream cells `[from, to)` of this tape repeated without end, where stream cell
    /// `k · width` is the tape's first cell for every integer k.
    ///
    /// A cluster is shown when it lies wholly inside the range; a 2-cell cluster cut by either end
    /// shows as one space for its cell inside. A zero-width cluster belongs to the cell before it
    /// in its cycle (at a cycle's very start, to the cell after it) and is shown when that cell is
    /// inside the range. With a width of 0 the range shows as spaces. Cost: O(log n + (to − from)).
    func appendCells(from: Int, to: Int, into out: inout [UInt8]) {
        var writer = PlainClusterWriter()
        appendCells(from: from, to: to, into: &out, writer: &writer)
    }

    /// ``appendCells(from:to:into:)`` with each whole cluster written by `writer` (which may show
    /// it differently, in the same cells).
    func appendCells<Writer: ClusterWriter>(from: Int, to: Int, into out: inout [UInt8], writer: inout Writer) {
        guard from < to else { return }
        guard width > 0 else {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: to - from))
            return
        }
        let rem = from.floorMod(width)
        var base = from - rem
        var x = from
        var index = firstCluster(atOrAfter: rem)
        if rem > 0 {
            // Zero-width clusters at `from` belong to the cell before it: not shown.
            while index < clusterCount, cellStart[index] == rem, cellWidth(ofCluster: index) == 0 { index += 1 }
            if index > 0, cellStart[index - 1] + cellWidth(ofCluster: index - 1) > rem {
                // A wide cluster that starts before `from` is cut by the leading edge.
                let end = min(base + cellStart[index], to)
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: end - x))
                x = end
            }
        }
        while x < to {
            if index == clusterCount {
                index = 0
                base += width
                continue
            }
            // The run of clusters of this cycle that lie wholly before `to`, written at once; it
            // ends at the last cluster boundary at or before `to` (searched, not walked).
            let runStart = index
            index = lastBoundary(atOrBefore: to - base, from: index)
            x = base + cellStart[index]
            if index > runStart { writer.append(clusters: runStart..<index, of: self, to: &out) }
            if x < to, index < clusterCount {
                // A wide cluster cut by the trailing edge shows as spaces.
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: to - x))
                x = to
                index += 1
            }
        }
        // Zero-width clusters right after the last cell belong to it.
        while index < clusterCount, base + cellStart[index] == to, cellWidth(ofCluster: index) == 0, cellStart[index] > 0 {
            writer.append(cluster: index, of: self, to: &out)
            index += 1
        }
    }

    /// Appends the content's clusters (the still text of the "fits" rule).
    func appendContent(into out: inout [UInt8]) {
        out.append(contentsOf: bytes[0..<byteStart[contentClusterCount]])
    }

    /// Appends the content's clusters, each written by `writer`.
    func appendContent<Writer: ClusterWriter>(into out: inout [UInt8], writer: inout Writer) {
        for index in 0..<contentClusterCount {
            writer.append(cluster: index, of: self, to: &out)
        }
    }
}

extension Int {
    /// The remainder of floored division: always in `0..<divisor` for a positive divisor.
    func floorMod(_ divisor: Int) -> Int {
        let r = self % divisor
        return r < 0 ? r + divisor : r
    }

    /// Floored division.
    func floorDiv(_ divisor: Int) -> Int {
        (self - floorMod(divisor)) / divisor
    }
}
