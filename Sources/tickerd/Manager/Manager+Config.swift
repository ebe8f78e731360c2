import TickerModel

/// Applying the configuration file, at start and on reload.
extension Manager {
    /// Applies `config` as one transaction: limits; each `[channel.NAME]` whose section changed
    /// since it was last applied (so runtime `Configure` changes survive a restart of an unchanged
    /// file); and the `[[message]]` entries — new and changed ones (re)placed, unchanged ones kept
    /// with their posting time, ones gone from the file removed (`MessageEnded` reason 2).
    /// Returns the ids of the file's messages it skipped because their window has closed for
    /// good (or can never open), in file order, for the log.
    /// The sections are remembered (``configuredChannels``) once the transaction is stored, for
    /// `Configure` with `reset`.
    @discardableResult
    func apply(config: DaemonConfig) throws(TickerError) -> [String] {
        let skipped = try transaction { () throws(TickerError) -> [String] in
            var skipped: [String] = []
            limits = config.limits
            for name in config.channels.keys.sorted() {
                guard let section = config.channels[name] else { continue }
                try ensureChannel(name)
                guard channels[name]?.configDigest != section.digest else { continue }
                try apply(section.request, to: name)
                channels[name]?.configDigest = section.digest
            }
            let wanted = Set(config.messages.map(\.id))
            for record in messages.values where record.origin == .config && !wanted.contains(record.id) {
                endMessage(record, reason: .removed)
            }
            let postedAt = now
            // Room for a large file at once (no doubling while 100k entries arrive); a hint only.
            let expected = max(messages.count, config.messages.count)
            messages.reserveCapacity(expected)
            for message in config.messages {
                let since = messages[message.id]?.postedAt ?? postedAt
                if windowRules.hasClosed(message.request, since: since, at: postedAt) {
                    // A window of the file that has closed for good: nothing to show, not an error.
                    if let old = messages[message.id] { endMessage(old, reason: .expired) }
                    skipped.append(message.id)
                    continue
                }
                try ensureChannel(message.channel)
                let window = try windowRules.window(for: message.request, postedAt: since)
                var record = MessageRecord(
                    id: message.id, channel: message.channel, text: try sanitized(message.text, effect: message.request.effect),
                    priority: message.request.priority ?? 0, urgent: message.request.urgent ?? false, window: window,
                    postedAt: postedAt, effect: message.request.effect, reveal: message.request.reveal, origin: .config)
                if let old = messages[message.id] {
                    var kept = record
                    kept.postedAt = old.postedAt
                    if kept == old { continue }
                    endMessage(old, reason: .replaced)
                    if old.origin == .config { record.postedAt = old.postedAt }
                }
                try insert(record)
            }
            return skipped
        }
        configuredChannels = config.channels.mapValues(\.request)
        return skipped
    }
}
