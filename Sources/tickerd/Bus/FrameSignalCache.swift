import DBus
import TickerModel

/// The `Frame` signal body last encoded, so that subscribers getting the same frame of the same
/// channel in one pass (same columns, same instant) share one encoding: each is sent a message
/// with its own destination around it.
final class FrameSignalCache {
    private var channel = ""
    private var frame: Frame?
    private var body: WireBody?
    /// Channel object paths by channel name (validated once).
    private var paths: [String: ObjectPath] = [:]

    /// A `Frame` signal of `channel` carrying `frame`, to `destination` (nil: broadcast).
    func signal(for frame: Frame, channel: String, to destination: String?) throws -> WireMessage {
        let body: WireBody
        if let cached = self.body, self.frame == frame, self.channel == channel {
            body = cached
        } else {
            body = try WireBody(BusValues.frameArguments(frame))
            self.channel = channel
            self.frame = frame
            self.body = body
        }
        return try WireMessage.signal(
            path: try path(of: channel), interface: BusNames.channelInterface, member: "Frame",
            destination: destination, body: body)
    }

    private func path(of channel: String) throws -> ObjectPath {
        if let path = paths[channel] { return path }
        let path = try BusNames.channelPath(channel)
        if paths.count >= 256 { paths.removeAll() }
        paths[channel] = path
        return path
    }
}
