/// Why a calendar expression was rejected.
public struct CalendarParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The expression as given.
    public let expression: String
    /// What is wrong with it, in words a person can act on.
    public let reason: String

    /// Creates an error for `expression`.
    public init(expression: String, reason: String) {
        self.expression = expression
        self.reason = reason
    }

    /// `invalid calendar expression '…': reason`.
    public var description: String { "invalid calendar expression '\(expression)': \(reason)" }
}
