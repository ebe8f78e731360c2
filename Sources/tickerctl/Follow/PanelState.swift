/// What a panel shows, as a word a stylesheet can match (waybar's `class`, the JSON `state`).
enum PanelState: String, Sendable, CaseIterable {
    /// The text moves.
    case scrolling
    /// The text stands still (it fits, static mode, or its loops are done).
    case `static`
    /// The channel is paused.
    case paused
    /// The channel shows nothing (no active message, or no such channel yet).
    case empty
    /// The daemon is not on the bus (or the bus is gone).
    case offline
}
