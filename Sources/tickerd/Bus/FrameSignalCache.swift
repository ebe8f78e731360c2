import DBus
import TickerModel

/// The `Frame` signal last built, so that subscribers getting the same frame of the same channel in
/// one pass (same columns, same instant) share one marshalling: each is sent a copy with its own
/// destination (libdbus `dbus_message_copy`, which copies the bytes without parsing them again).
final class FrameSignalCache {
    private var channel = ""
    private var frame: Frame?
    private var template: Message?

    /// A `Frame` signal of `channel` carrying `frame`, to `destination` (nil: broadcast).
    func signal(for frame: Frame, channel: String, to destination: String?) throws -> Message {
        let template: Message
        if let cached = self.template, self.frame == frame, self.channel == channel {
            template = cached
        } else {
            template = try Message.signal(
                path: try BusNames.channelPath(channel), interface: BusNames.channelInterface, member: "Frame")
            try template.append(BusValues.frameArguments(frame))
            self.channel = channel
            self.frame = frame
            self.template = template
        }
        let message = try template.copy()
        try message.setDestination(destination)
        return message
    }
}
