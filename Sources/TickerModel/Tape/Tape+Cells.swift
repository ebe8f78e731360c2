extension Tape {
    /// Appends the stream cells `[from, to)` of this tape repeated without end, where stream cell
    /// `k · width` is the tape's first cell for every integer k.
    ///
    /// A cluster is shown when it lies wholly inside the range; a 2-cell cluster cut by either end
    /// shows as one space for its cell inside. A zero-width cluster at stream cell p is shown when
    /// `from ≤ p < to`. With a width of 0 the range shows as spaces. Cost: O(log n + (to − from)).
    /// `afterSeam` says that `from` is where this tape's stream begins (nothing of it lies before),
    /// so zero-width clusters of an earlier cycle are not shown there.
    func appendCells(from: Int, to: Int, into out: inout [UInt8], afterSeam: Bool = false) {
        guard from < to else { return }
        guard width > 0 else {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: to - from))
            return
        }
        let rem = from.floorMod(width)
        var base = from - rem
        var x = from
        var index = firstCluster(atOrAfter: rem)
        if rem == 0 {
            // Zero-width clusters at the end of the previous cycle sit at stream cell `from`.
            if !afterSeam { appendTrailing(into: &out) }
        } else if index > 0, cellStart[index - 1] + cellWidth(ofCluster: index - 1) > rem {
            // A wide cluster that starts before `from` is cut by the leading edge.
            let end = min(base + cellStart[index], to)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: end - x))
            x = end
        }
        while x < to {
            if index == clusterCount {
                index = 0
                base += width
                continue
            }
            let w = cellWidth(ofCluster: index)
            if x + w <= to {
                appendCluster(index, to: &out)
                x += w
            } else {
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: to - x))
                x = to
            }
            index += 1
        }
    }

    /// Appends the zero-width clusters that end a cycle (they sit at the next cycle's first cell).
    func appendTrailing(into out: inout [UInt8]) {
        guard width > 0, trailingStart < clusterCount else { return }
        out.append(contentsOf: bytes[byteStart[trailingStart]..<byteStart[clusterCount]])
    }

    /// Appends the content's clusters (the still text of the "fits" rule).
    func appendContent(into out: inout [UInt8]) {
        out.append(contentsOf: bytes[0..<byteStart[contentClusterCount]])
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
