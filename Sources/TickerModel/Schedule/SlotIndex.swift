/// An index from string keys to the positions ("slots") of an array whose elements hold the keys
/// themselves: an open-addressing hash table of 4-byte slot numbers.
///
/// A `[String: Int32]` keeps every key a second time (16 bytes) beside its value, in a table of
/// up to 2.7 buckets per key: 5.2 MB for 100k message ids. Here a bucket is the slot number alone
/// (the key is read from the array when probing), at most half full: 1 MB for 100k.
///
/// Linear probing with backward-shift deletion (no tombstones, so probe chains never rot). The
/// hash is Swift's per-process seeded `Hasher`. Callers pass the array and how to read an
/// element's key to each call: the index itself holds no keys.
public struct SlotIndex: Sendable {
    /// Slot numbers; `empty` where there is none.
    private var buckets: [Int32] = []
    /// How many keys the index holds.
    public private(set) var count = 0

    private static let empty: Int32 = -1

    /// An empty index.
    public init() {}

    /// The slot of `key`, reading keys from `elements` with `keyOf`.
    public func slot<Element>(of key: String, in elements: [Element], key keyOf: (Element) -> String?) -> Int32? {
        bucket(of: key, in: elements, key: keyOf).map { buckets[$0] }
    }

    /// The bucket holding `key`'s slot, probing from its home bucket to the first empty one.
    private func bucket<Element>(of key: String, in elements: [Element], key keyOf: (Element) -> String?) -> Int? {
        guard count > 0 else { return nil }
        let mask = buckets.count - 1
        var bucket = key.hashValue & mask
        while true {
            let slot = buckets[bucket]
            if slot == Self.empty { return nil }
            if keyOf(elements[Int(slot)]) == key { return bucket }
            bucket = (bucket + 1) & mask
        }
    }

    /// Adds `key` at `slot`; `key` must not be in the index. The element at `slot` need not hold
    /// it yet, but every other indexed slot must hold its key (the table may be rebuilt).
    public mutating func insert<Element>(
        _ key: String, slot: Int32, in elements: [Element], key keyOf: (Element) -> String?
    ) {
        if (count + 1) * 2 > buckets.count {
            rebuild(bucketCount: Swift.max(16, buckets.count * 2), in: elements, key: keyOf)
        }
        place(slot, home: key.hashValue)
        count += 1
    }

    /// Removes `key`, returning the slot it had (nil when absent). Call it while the other indexed
    /// slots still hold their keys.
    @discardableResult
    public mutating func remove<Element>(_ key: String, in elements: [Element], key keyOf: (Element) -> String?) -> Int32? {
        guard var hole = bucket(of: key, in: elements, key: keyOf) else { return nil }
        let mask = buckets.count - 1
        let removed = buckets[hole]
        buckets[hole] = Self.empty
        count -= 1
        // Move back every later entry of the run whose home is not between the hole and itself.
        var next = (hole + 1) & mask
        while buckets[next] != Self.empty {
            let slot = buckets[next]
            let home = (keyOf(elements[Int(slot)]) ?? "").hashValue & mask
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !stays {
                buckets[hole] = slot
                buckets[next] = Self.empty
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// Records that `key` moved from slot `old` to slot `new` (the array compacted).
    public mutating func move(_ key: String, from old: Int32, to new: Int32) {
        guard count > 0 else { return }
        let mask = buckets.count - 1
        var bucket = key.hashValue & mask
        while buckets[bucket] != Self.empty {
            if buckets[bucket] == old {
                buckets[bucket] = new
                return
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Makes room for `capacity` keys without rebuilding again.
    public mutating func reserveCapacity<Element>(_ capacity: Int, in elements: [Element], key keyOf: (Element) -> String?) {
        var bucketCount = Swift.max(16, buckets.count)
        while capacity * 2 > bucketCount { bucketCount *= 2 }
        if bucketCount > buckets.count { rebuild(bucketCount: bucketCount, in: elements, key: keyOf) }
    }

    /// Empties the index.
    public mutating func removeAll() {
        buckets = []
        count = 0
    }

    private mutating func rebuild<Element>(bucketCount: Int, in elements: [Element], key keyOf: (Element) -> String?) {
        let old = buckets
        buckets = [Int32](repeating: Self.empty, count: bucketCount)
        for slot in old where slot != Self.empty {
            place(slot, home: (keyOf(elements[Int(slot)]) ?? "").hashValue)
        }
    }

    private mutating func place(_ slot: Int32, home hash: Int) {
        let mask = buckets.count - 1
        var bucket = hash & mask
        while buckets[bucket] != Self.empty { bucket = (bucket + 1) & mask }
        buckets[bucket] = slot
    }
}
