import DBus
import TickerModel

/// The `Frame` signal body last encoded, so that subscribers getting the same frame of the same
/// channel in one pass (same columns, same instant) share one encoding: each is sent a message
/// with its own destination around it.
final class FrameSignalCache {
    private var channel = ""
    private var frame: Frame?
    private var body: WireBody?
    /// Each channel's `Frame` signal (its path and names checked once), by channel name.
    private var signals: [String: WireSignal] = [:]

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
        return try frameSignal(of: channel).message(to: destination, body: body)
    }

    private func frameSignal(of channel: String) throws -> WireSignal {
        if let signal = signals[channel] { return signal }
        let signal = try WireSignal(path: try BusNames.channelPath(channel), interface: BusNames.channelInterface, member: "Frame")
        if signals.count >= 256 { signals.removeAll() }
        signals[channel] = signal
        return signal
    }
}
