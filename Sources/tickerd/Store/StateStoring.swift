/// Where the manager's changes are made durable (``StateStore`` in the daemon).
protocol StateStoring: AnyObject {
    /// Stores `change` durably and returns only once it is; may store the whole state instead
    /// (from `snapshot`, e.g. when the journal is full). Throws when it could not be stored, and
    /// then nothing of the change is kept.
    func store(_ change: StateChange, snapshot: () -> StateSnapshot) throws
}
