/// What a channel's motion is anchored to (`phase s`, docs/rendering.md §13).
public enum Phase: String, Sendable, Hashable, CaseIterable {
    /// The motion starts when the content or the settings change on this daemon (the default).
    case local
    /// The motion is anchored to the Unix epoch: frames are a function of the wall clock and the
    /// content alone, the same on every screen whose clock agrees, whenever each got the content.
    case wallClock = "wall-clock"
}
