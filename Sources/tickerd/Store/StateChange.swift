/// One record of the state journal: what changed in the stored state since the record before it
/// (or since the snapshot). Replaying the records in order over the snapshot gives the state as
/// it was when the last answered change was stored.
struct StateChange: Codable, Sendable, Equatable {
    /// The record's place in the journal: 1 more than the one before; the snapshot names the
    /// last record it already holds, so records left over from before a compaction are skipped.
    var sequence: UInt64
    /// The next serial for generated message ids.
    var nextSerial: UInt64
    /// Channels that were added, whole.
    var channels: [StoredChannel] = []
    /// Channels that changed, as edits of their stored form (``StoredChannelEdit``); nil in
    /// records of earlier versions, which held every changed channel whole in `channels`.
    var channelEdits: [StoredChannelEdit]?
    /// Names of channels that are gone.
    var removedChannels: [String] = []
    /// Messages that were added or changed, whole.
    var messages: [MessageRecord] = []
    /// Ids of messages that are gone.
    var removedMessages: [String] = []

    /// Whether this change leaves a state whose next serial is `serial` as it is.
    func isEmpty(after serial: UInt64) -> Bool {
        nextSerial == serial && channels.isEmpty && (channelEdits ?? []).isEmpty && removedChannels.isEmpty && messages.isEmpty
            && removedMessages.isEmpty
    }
}
