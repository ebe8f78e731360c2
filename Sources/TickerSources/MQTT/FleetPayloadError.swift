/// What is wrong with a fleet payload, in words a publisher can act on.
struct FleetPayloadError: Error, CustomStringConvertible, Equatable {
    /// The problem.
    let description: String
    init(_ description: String) { self.description = description }
}
