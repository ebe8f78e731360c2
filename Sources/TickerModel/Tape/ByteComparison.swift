extension [UInt8] {
    /// Whether the two arrays hold the same bytes, compared eight at a time (`==` on strings
    /// compares by canonical equivalence, which a text that is not all ASCII pays for per scalar).
    func hasSameBytes(as other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { a in
            other.withUnsafeBytes { b in
                var offset = 0
                while offset + 8 <= a.count {
                    guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                    offset += 8
                }
                while offset < a.count {
                    guard a[offset] == b[offset] else { return false }
                    offset += 1
                }
                return true
            }
        }
    }
}
