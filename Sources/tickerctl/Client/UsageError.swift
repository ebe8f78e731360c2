/// A mistake in what the user typed (an option value, a channel name): reported as one line and
/// exit status 64, like swift-argument-parser's own validation errors.
struct UsageError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, naming the option or value.
    let description: String

    /// An error with a message.
    init(_ description: String) {
        self.description = description
    }
}
