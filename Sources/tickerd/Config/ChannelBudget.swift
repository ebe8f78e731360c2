import TickerModel

/// Counts what a configuration file asks of a fresh daemon against the file's own `[limits]`:
/// the channels its sections and messages create (besides `main`, which always exists) and the
/// messages it puts in each channel.
///
/// Applying a file that passes these counts to a fresh daemon cannot exceed a limit, so a
/// file that breaks its own limits is refused with file, line and key instead of failing
/// later with an error that can name none of them.
struct ChannelBudget {
    /// The limits the file sets (or the defaults).
    let limits: Limits
    /// The channels counted so far.
    private(set) var channels: Set<String> = [ChannelName.main]
    /// The messages counted so far, by channel.
    private(set) var messages: [String: Int] = [:]

    /// A budget under `limits` that holds `main` and no messages.
    init(limits: Limits) {
        self.limits = limits
    }

    /// Counts channel `name`; the problem when it is one more than `[limits] channels` allows.
    mutating func addChannel(_ name: String) -> String? {
        guard !channels.contains(name) else { return nil }
        guard channels.count < limits.channels else {
            return "channel '\(name)' would be channel \(channels.count + 1), but [limits] channels is \(limits.channels) (main counts as one)"
        }
        channels.insert(name)
        return nil
    }

    /// Counts one message of channel `name`; the problem when it is one more than
    /// `[limits] messages` allows.
    mutating func addMessage(to name: String) -> String? {
        let count = messages[name, default: 0]
        guard count < limits.messagesPerChannel else {
            return "channel '\(name)' would hold more than \(limits.messagesPerChannel) messages of this file, the most [limits] messages allows"
        }
        messages[name] = count + 1
        return nil
    }
}
