import Logging

extension ManagerEvent {
    /// The journal entry for events worth a line in a channel's story (messages coming and going,
    /// counts reaching their value), with the channel and message as fields (`TICKER_CHANNEL`,
    /// `TICKER_MESSAGE`, `TICKER_COUNTER`) so `journalctl TICKER_CHANNEL=main` finds them; nil for
    /// the rest (property changes are not news).
    var logEntry: (message: Logger.Message, metadata: Logger.Metadata)? {
        switch self {
        case .channelAdded(let channel):
            return ("channel '\(channel)' created", ["channel": .string(channel)])
        case .channelChanged:
            return nil
        case let .messageStarted(channel, id):
            return ("message '\(id)' shown on '\(channel)'", ["channel": .string(channel), "message": .string(id)])
        case let .messageEnded(channel, id, reason):
            let why: String
            switch reason {
            case .expired: why = "its window closed"
            case .removed: why = "removed"
            case .replaced: why = "replaced"
            }
            return ("message '\(id)' left '\(channel)': \(why)", ["channel": .string(channel), "message": .string(id)])
        case let .valueReached(channel, name, value):
            return ("counter '\(name)' of '\(channel)' reached \(value)", ["channel": .string(channel), "counter": .string(name)])
        }
    }
}
