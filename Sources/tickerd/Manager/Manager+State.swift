import TickerModel

/// Turning the manager's state into a `StateSnapshot` and back.
extension Manager {
    /// The state to store.
    func snapshot() -> StateSnapshot {
        let stored = channels.values.sorted { $0.name < $1.name }.map(StoredChannel.init)
        let records = messages.values.sorted { $0.id < $1.id }
        return StateSnapshot(nextSerial: nextSerial, channels: stored, messages: records)
    }

    /// Restores a stored state, reporting each part that could not be restored (it is skipped,
    /// and the rest carries on). Timelines come back exactly, so frames continue as if nothing
    /// happened; the schedule is then re-evaluated at the current time.
    func restore(_ snapshot: StateSnapshot) -> [String] {
        var problems: [String] = []
        nextSerial = max(nextSerial, snapshot.nextSerial)
        for stored in snapshot.channels {
            guard ChannelName.isValid(stored.name), let settings = stored.settings.settings else {
                problems.append("channel '\(stored.name)': unreadable name or settings, skipped")
                continue
            }
            var channel = ChannelState(name: stored.name, settings: settings, now: now)
            channel.columns = stored.columns
            channel.frameRate = stored.frameRate
            do {
                channel.timeline = try Timeline(fields: stored.timeline.dictionary)
                channel.activeIDs = stored.activeIDs
                channel.activeTexts = stored.activeTexts
            } catch {
                problems.append("channel '\(stored.name)': timeline \(error), restarted")
            }
            channel.configDigest = stored.configDigest
            channel.tapeHeld = true
            restoreEffects(stored, into: &channel, problems: &problems)
            channels[stored.name] = channel
        }
        for record in snapshot.messages {
            do {
                guard channels[record.channel] != nil else {
                    problems.append("message '\(record.id)': its channel is gone, skipped")
                    continue
                }
                try insert(record)
            } catch {
                problems.append("message '\(record.id)': \(error), skipped")
            }
        }
        evaluatesEveryChannel = true
        evaluate(at: now)
        // Nobody is listening before the name is owned: what changed while down is in the state.
        committer.dropQueued(from: 0)
        return problems
    }

    /// Puts a stored channel's counters and effects back (the stored timeline carries the tape's
    /// layout, so frames with effects continue exactly).
    private func restoreEffects(_ stored: StoredChannel, into channel: inout ChannelState, problems: inout [String]) {
        var counters = CounterSet()
        for (name, storedCounter) in stored.counters ?? [:] {
            guard let counter = storedCounter.counter else {
                problems.append("channel '\(stored.name)': counter '\(name)' unreadable, skipped")
                continue
            }
            counters.restore(name, counter)
        }
        channel.effects = EffectState(counters: counters, messages: (stored.effects ?? [:]).compactMapValues(\.effect))
    }
}

extension StoredChannel {
    /// The stored form of `channel`.
    init(_ channel: ChannelState) {
        self.init(
            name: channel.name, settings: StoredSettings(channel.settings), columns: channel.columns,
            frameRate: channel.frameRate,
            timeline: StoredTimeline(channel.timeline),
            activeIDs: channel.activeIDs, activeTexts: channel.activeTexts,
            configDigest: channel.configDigest,
            counters: channel.effects.counters.counters.mapValues(StoredCounter.init),
            effects: channel.effects.messages.mapValues(StoredEffect.init))
    }
}
