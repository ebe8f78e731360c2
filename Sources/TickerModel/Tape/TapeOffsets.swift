/// Non-negative offsets of a tape's clusters (bytes or cells), read as `Int` and stored in 32 bits:
/// a tape keeps two of them, one entry per cluster, so they are most of a long tape's memory.
///
/// Guarantees: every offset given is read back unchanged. Offsets must lie in `0..<2³²`; a tape
/// of ``Tape`` holds at most the daemon's message limits (a few megabytes), far below that, and an
/// offset beyond it stops the process rather than wrap.
struct TapeOffsets: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    /// The offsets.
    let storage: [UInt32]

    /// Offsets written by `body` into uninitialized storage of `capacity` entries, as many as it
    /// says it initialized (the rules of `Array.init(unsafeUninitializedCapacity:initializingWith:)`).
    init(
        unsafeUninitializedCapacity capacity: Int,
        initializingWith body: (inout UnsafeMutableBufferPointer<UInt32>, inout Int) -> Void
    ) {
        storage = [UInt32](unsafeUninitializedCapacity: capacity, initializingWith: body)
    }

    /// The offsets of `values`.
    init<Values: Sequence<Int>>(_ values: Values) {
        storage = values.map { UInt32($0) }
    }

    /// The offsets listed.
    init(arrayLiteral elements: Int...) {
        self.init(elements)
    }

    /// The first index, 0.
    var startIndex: Int { 0 }
    /// One past the last index: the number of offsets.
    var endIndex: Int { storage.count }
    /// The offset at `index`.
    subscript(index: Int) -> Int { Int(storage[index]) }

    /// Calls `body` with the stored offsets, for loops over many of them.
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt32>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBufferPointer(body)
    }
}
