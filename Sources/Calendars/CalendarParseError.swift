/// Why an iCalendar text could not be read: what was wrong, in words a log line can carry after
/// the source's name.
public struct CalendarParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong with the text.
    public let message: String

    /// An error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
