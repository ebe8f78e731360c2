import DBus
import TickerModel

/// The `Frame` signal last marshalled, so that subscribers getting the same frame of the same
/// channel in one pass (same columns, same instant) share one marshalling: each is sent a copy
/// with its own destination. Marshalling through libdbus's iterators is most of a frame's cost.
final class FrameSignalCache {
    private var channel = ""
    private var frame: Frame?
    private var template: Message?
    /// Channel object paths by channel name (validated once).
    private var paths: [String: ObjectPath] = [:]

    /// A sendable `Frame` signal of `channel` carrying `frame`, without a destination.
    func signal(for frame: Frame, channel: String) throws -> Message {
        if let template, self.frame == frame, self.channel == channel {
            return try template.copy()
        }
        let message = try Message.signal(path: try path(of: channel), interface: BusNames.channelInterface, member: "Frame")
        try message.append(BusValues.frameArguments(frame))
        self.channel = channel
        self.frame = frame
        template = message
        return try message.copy()
    }

    private func path(of channel: String) throws -> ObjectPath {
        if let path = paths[channel] { return path }
        let path = try BusNames.channelPath(channel)
        if paths.count >= 256 { paths.removeAll() }
        paths[channel] = path
        return path
    }
}
