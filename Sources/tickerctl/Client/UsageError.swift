/// A mistake in what the user typed (an option value, a channel name): reported as one line a
/// mistake and exit status 64, like swift-argument-parser's own validation errors.
struct UsageError: Error, CustomStringConvertible, Sendable {
    /// Each mistake, one line each, in the order they were typed; never empty.
    let lines: [String]

    /// The mistakes, one a line.
    var description: String { lines.joined(separator: "\n") }

    /// An error with one mistake.
    init(_ description: String) {
        lines = [description]
    }

    /// An error listing several mistakes; `lines` must not be empty.
    init(lines: [String]) {
        precondition(!lines.isEmpty, "a usage error names at least one mistake")
        self.lines = lines
    }
}
