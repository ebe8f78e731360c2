/// Keeps frames from piling up in memory when the bus stops reading the daemon's socket
/// (dbus-daemon stopped or overloaded): above `limit` bytes of queued outgoing messages, frames
/// are dropped — replies and other signals never are — until the queue drains below half of it.
///
/// A single subscriber that stops reading is dbus-daemon's to handle: it buffers per connection
/// and refuses messages past its `max_outgoing_bytes`, while it keeps reading from tickerd.
struct FrameBackpressure {
    /// Queued bytes above which frames are dropped.
    var limit = 2 << 20
    /// Whether frames are being dropped now.
    private(set) var isDropping = false
    /// Frames dropped in the current episode.
    private(set) var dropped = 0

    /// Whether a frame may be queued now, given `queuedBytes` already queued; `log` hears when
    /// dropping starts and when it ends.
    mutating func admits(queuedBytes: Int, log: (String) -> Void) -> Bool {
        if isDropping {
            if queuedBytes > limit / 2 {
                dropped += 1
                return false
            }
            log("the bus reads again (\(queuedBytes) bytes queued); \(dropped) frames were dropped")
            isDropping = false
            dropped = 0
            return true
        }
        guard queuedBytes > limit else { return true }
        isDropping = true
        dropped = 1
        log("the bus is not reading (\(queuedBytes) bytes queued); dropping frames until it catches up")
        return false
    }
}
