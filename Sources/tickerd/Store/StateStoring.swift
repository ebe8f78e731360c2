/// Where the manager's changes are made durable (``StateStore`` in the daemon).
///
/// Storing is two steps, so the manager can announce a change between them when nothing but a
/// device error can make the second one fail: ``prepare(_:)`` encodes the change and says how it
/// will be written, ``commit(_:snapshot:)`` writes it.
protocol StateStoring: AnyObject {
    /// Encodes `change` as the record ``commit(_:snapshot:)`` writes, and tells whether writing
    /// it will only overwrite space the store already holds. Throws when it cannot be encoded.
    func prepare(_ change: StateChange) throws -> PreparedChange
    /// Stores a prepared change durably and returns only once it is; may store the whole state
    /// instead (from `snapshot`, e.g. when the journal is full). Throws when it could not be
    /// stored. The change must be the last one prepared.
    func commit(_ prepared: PreparedChange, snapshot: () -> StateSnapshot) throws
}

extension StateStoring {
    /// Prepares and commits `change` in one step.
    func store(_ change: StateChange, snapshot: () -> StateSnapshot) throws {
        try commit(prepare(change), snapshot: snapshot)
    }
}

/// A change encoded for storing, as ``StateStoring/prepare(_:)`` returns it.
struct PreparedChange {
    /// The change.
    var change: StateChange
    /// The journal record's payload, numbered `sequence`; nil when the change goes into a
    /// compaction (the journal is full or not open).
    var record: (payload: [UInt8], sequence: UInt64)?
    /// Whether committing overwrites only space the store already holds (a journal record into
    /// the zeros written ahead of the records): no file grows, nothing is allocated or renamed,
    /// so only a device error can make it fail — not a full or read-only file system.
    var overwritesInPlace: Bool
}
