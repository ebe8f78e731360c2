/// A failure of the harness itself (a process that would not start, a signal that never came).
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, for the console.
    let description: String

    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}
