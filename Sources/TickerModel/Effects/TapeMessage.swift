/// One message as it goes into a tape: its key (the message id, which ``EffectState`` looks its
/// effect up by) and its text (sanitised, with `{name}` placeholders).
public struct TapeMessage: Sendable, Hashable {
    /// The message's id: effects are found by it.
    public var key: String
    /// The text, already sanitised (``TextSanitizer``); `{name}` placeholders are expanded.
    public var text: String

    /// Creates a tape message.
    public init(key: String, text: String) {
        self.key = key
        self.text = text
    }
}
