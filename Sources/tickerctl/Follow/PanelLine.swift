/// One line of `follow` before formatting: what the panel shows and how to describe it.
struct PanelLine: Equatable, Sendable {
    /// The visible window, exactly `columns` cells wide.
    var text: String
    /// Sub-cell offset of the window in [0, 1) (for pixel clients; panels ignore it).
    var offset: Double
    /// The channel's full text (tooltip, screen readers).
    var fullText: String
    /// The channel followed.
    var channel: String
    /// What the panel shows.
    var state: PanelState
    /// The instant the line was computed for (µs since the epoch; `Render` at it gives `text`).
    var at: Int64

    /// Whether `other` looks the same on a panel (neither the offset nor the instant is visible on a text panel).
    func looksLike(_ other: PanelLine) -> Bool {
        text == other.text && fullText == other.fullText && channel == other.channel && state == other.state
    }
}
