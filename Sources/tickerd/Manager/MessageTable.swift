/// The daemon's messages by id, stored densely: one array of records and a small index from id to
/// position, instead of a dictionary of records.
///
/// A `Dictionary<String, MessageRecord>` keeps every bucket as wide as a record and has 1.33 to
/// 2.6 buckets per message (its capacity is a power of two at most ¾ full): ~35 MB for 100k
/// messages. Here the index buckets hold 4-byte positions and the records sit in one array.
/// Removal moves the last record into the hole, so the order of `values` is not meaningful.
///
/// The table also notes which ids were added, changed or removed since ``markStored()``, so the
/// state journal records only those (no copy of the stored state is kept to compare against).
struct MessageTable: Sendable {
    private var records: [MessageRecord] = []
    private var positions: [String: Int32] = [:]
    /// Ids added, changed or removed since the last ``markStored()``.
    private(set) var unstored: Set<String> = []

    /// An empty table.
    init() {}

    /// How many messages there are.
    var count: Int { records.count }

    /// Whether there are none.
    var isEmpty: Bool { records.isEmpty }

    /// Every record, in no particular order.
    var values: [MessageRecord] { records }

    /// Every id, in the order of `values`.
    var keys: [String] { records.map(\.id) }

    /// The record with `id`; setting a record adds or replaces it (its `id` must be `id`), setting
    /// nil removes it.
    subscript(id: String) -> MessageRecord? {
        get {
            positions[id].map { records[Int($0)] }
        }
        set {
            if let record = newValue {
                if let position = positions[id] {
                    guard records[Int(position)] != record else { return }
                    records[Int(position)] = record
                    unstored.insert(id)
                } else {
                    unstored.insert(id)
                    positions[id] = Int32(records.count)
                    records.append(record)
                }
            } else if let position = positions.removeValue(forKey: id) {
                unstored.insert(id)
                let last = records.removeLast()
                if Int(position) < records.count {
                    records[Int(position)] = last
                    positions[last.id] = position
                }
            }
        }
    }

    /// Forgets which ids changed: the state as it is now is stored.
    mutating func markStored() {
        unstored.removeAll()
    }

    /// Makes room for `capacity` messages at once (a configuration file with many of them).
    mutating func reserveCapacity(_ capacity: Int) {
        records.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }
}
