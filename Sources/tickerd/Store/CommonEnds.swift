/// How much two sequences share at their start, and then at their end: what an edit of one into
/// the other keeps (``TextEdit``, ``ListEdit``).
enum CommonEnds {
    /// How many elements `new` and `old` share at their start, and then at their end (never
    /// overlapping what the start shares, in either).
    static func of<Element: Equatable>(_ new: [Element], _ old: [Element]) -> (keep: Int, keepEnd: Int) {
        let limit = min(new.count, old.count)
        var keep = 0
        while keep < limit, new[keep] == old[keep] { keep += 1 }
        var keepEnd = 0
        while keepEnd < limit - keep, new[new.count - 1 - keepEnd] == old[old.count - 1 - keepEnd] { keepEnd += 1 }
        return (keep, keepEnd)
    }

    /// The same for bytes, compared eight at a time: a tape of a thousand messages is ~70 kB,
    /// and a change keeps nearly all of it.
    static func of(_ new: UnsafeBufferPointer<UInt8>, _ old: UnsafeBufferPointer<UInt8>) -> (keep: Int, keepEnd: Int) {
        let limit = min(new.count, old.count)
        guard limit > 0, let a = new.baseAddress, let b = old.baseAddress else { return (0, 0) }
        let (newRaw, oldRaw) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
        var keep = 0
        while keep + 8 <= limit {
            let difference = newRaw.loadUnaligned(fromByteOffset: keep, as: UInt64.self)
                ^ oldRaw.loadUnaligned(fromByteOffset: keep, as: UInt64.self)
            if difference != 0 {
                // Loaded little-endian: the first byte that differs is the lowest that is set.
                keep += UInt64(littleEndian: difference).trailingZeroBitCount / 8
                return (keep, ending(new, old, limit - keep))
            }
            keep += 8
        }
        while keep < limit, a[keep] == b[keep] { keep += 1 }
        return (keep, ending(new, old, limit - keep))
    }

    /// How many bytes `new` and `old` share at their end, at most `limit`.
    private static func ending(_ new: UnsafeBufferPointer<UInt8>, _ old: UnsafeBufferPointer<UInt8>, _ limit: Int) -> Int {
        guard limit > 0, let a = new.baseAddress, let b = old.baseAddress else { return 0 }
        let (newEnd, oldEnd) = (UnsafeRawPointer(a + new.count), UnsafeRawPointer(b + old.count))
        var keepEnd = 0
        while keepEnd + 8 <= limit {
            let difference = newEnd.loadUnaligned(fromByteOffset: -keepEnd - 8, as: UInt64.self)
                ^ oldEnd.loadUnaligned(fromByteOffset: -keepEnd - 8, as: UInt64.self)
            // The last byte of the eight is the highest: the first that differs from the end is
            // the highest set byte.
            if difference != 0 { return keepEnd + UInt64(littleEndian: difference).leadingZeroBitCount / 8 }
            keepEnd += 8
        }
        while keepEnd < limit, a[new.count - 1 - keepEnd] == b[old.count - 1 - keepEnd] { keepEnd += 1 }
        return keepEnd
    }
}
