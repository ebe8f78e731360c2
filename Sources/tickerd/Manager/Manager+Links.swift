import TickerModel

/// Links and activation (docs/dbus-api.md, "MessageAt" and "Activate"): which message a viewer
/// points at, and the click that activates it.
extension Manager {
    /// The id and link of the message under `column` of the frame `Render(columns, at)` gives on
    /// `channel` (`at` 0: now); `("", "")` when the column shows no message (a separator, the gap,
    /// padding).
    func message(channel: String, columns: UInt32, column: UInt32, at t: Instant) throws(TickerError) -> (id: String, link: String) {
        let state = try existing(channel)
        guard columns > 0 else { throw .invalidOption("'columns' must be at least 1") }
        guard column < columns else { throw .invalidOption("'column' \(column) is outside a frame of \(columns) columns") }
        let instant = t == 0 ? now : t
        guard let id = state.timeline.messageKey(atColumn: Int(column), columns: Int(columns), at: instant) else {
            return ("", "")
        }
        return (id, messages[id]?.link ?? "")
    }

    /// Checks that message `id` is on `channel`; the caller then announces the activation.
    func activate(channel: String, id: String) throws(TickerError) {
        _ = try existing(channel)
        guard let record = messages[id], record.channel == channel else {
            throw .noSuchMessage("there is no message '\(id)' on channel '\(channel)'")
        }
    }
}
