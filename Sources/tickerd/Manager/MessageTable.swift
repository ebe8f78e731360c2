import TickerModel

/// The daemon's messages by id, stored densely: one array of records and a small index from id to
/// position, instead of a dictionary of records.
///
/// A `Dictionary<String, MessageRecord>` keeps every bucket as wide as a record and has 1.33 to
/// 2.6 buckets per message (its capacity is a power of two at most ¾ full): ~35 MB for 100k
/// messages. Here the records sit in one array and the index (``SlotIndex``) holds only their
/// 4-byte positions, reading the ids from the records (a `[String: Int32]` held each id again:
/// 5.2 MB at 100k, against 1 MB).
/// Removal moves the last record into the hole, so the order of `values` is not meaningful.
///
/// The table also notes which ids were added, changed or removed since ``markStored()``, so the
/// state journal records only those (no copy of the stored state is kept to compare against).
struct MessageTable: Sendable {
    private var records: [MessageRecord] = []
    private var positions = SlotIndex()
    /// Ids added, changed or removed since the last ``markStored()``.
    private(set) var unstored: Set<String> = []
    /// How many messages each channel holds (the per-channel limit is checked at every Post).
    private var countByChannel: [String: Int] = [:]

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

    /// How the index reads a record's id.
    private static func id(_ record: MessageRecord) -> String? { record.id }

    private func position(of id: String) -> Int? {
        positions.slot(of: id, in: records, key: Self.id).map { Int($0) }
    }

    /// The record with `id`; setting a record adds or replaces it (its `id` must be `id`), setting
    /// nil removes it.
    subscript(id: String) -> MessageRecord? {
        get {
            position(of: id).map { records[$0] }
        }
        set {
            if let record = newValue {
                if let position = position(of: id) {
                    let old = records[position]
                    guard old != record else { return }
                    records[position] = record
                    unstored.insert(id)
                    if old.channel != record.channel {
                        countByChannel[old.channel, default: 1] -= 1
                        countByChannel[record.channel, default: 0] += 1
                    }
                } else {
                    unstored.insert(id)
                    countByChannel[record.channel, default: 0] += 1
                    positions.insert(id, slot: Int32(records.count), in: records, key: Self.id)
                    records.append(record)
                }
            } else if let position = positions.remove(id, in: records, key: Self.id) {
                unstored.insert(id)
                countByChannel[records[Int(position)].channel, default: 1] -= 1
                let last = records.removeLast()
                if Int(position) < records.count {
                    records[Int(position)] = last
                    positions.move(last.id, from: Int32(records.count), to: position)
                }
            }
        }
    }

    /// How many messages `channel` holds.
    func count(inChannel channel: String) -> Int {
        countByChannel[channel] ?? 0
    }

    /// Forgets which ids changed: the state as it is now is stored.
    mutating func markStored() {
        unstored.removeAll()
    }

    /// Puts back the ids noted as changed before a transaction that was rolled back.
    mutating func restoreUnstored(_ ids: Set<String>) {
        unstored = ids
    }

    /// Makes room for `capacity` messages at once (a configuration file with many of them), and
    /// an eighth more in the array for Posts: the first Post after a full array would double it (a
    /// copy of every record, +12 MB resident at 100k). Array capacity never written stays unmapped;
    /// the index is not padded (its buckets are all touched, and it keeps half free anyway).
    mutating func reserveCapacity(_ capacity: Int) {
        records.reserveCapacity(capacity + capacity / 8)
        positions.reserveCapacity(capacity, in: records, key: Self.id)
    }
}
