import TickerModel

/// `SetValue`: the channel's named values that `{name}` placeholders show, counting with easing.
extension Manager {
    /// Counts `channel`'s value `name` to `value` (creating the channel when new). A count still
    /// running starts over from the value shown now, so nothing jumps back; `ValueReached` comes
    /// once, when the count ends (at once for a duration of 0).
    func setValue(channel: String, name: String, value: Double, options: CounterOptions) throws(TickerError) {
        try transaction { () throws(TickerError) in
            let channelName = try ChannelName.checked(channel)
            try ensureChannel(channelName)
            guard var state = channels[channelName] else { return }
            do throws(EffectError) {
                try state.effects.counters.set(name, to: value, options: options, at: now)
            } catch {
                throw .invalidOption(error.description)
            }
            channels[channelName] = state
            emit(.channelChanged(channelName, [.text, .timeline]))
            // The numbers shown change: subscribers and broadcasts get frames again.
            restartFrames(channel: channelName, at: now)
        }
    }
}
