/// How long a source's message lives without renewal, and how often it is renewed.
///
/// Guarantees: a message's end is never more than ``lease`` after its last renewal, and renewals
/// come every ``renewal`` (a third of the lease), so a live service renews each message twice
/// before it could lapse and a dead service's messages are gone within one lease.
public struct LeaseTiming: Hashable, Sendable {
    /// The lease in microseconds (the D-Bus API's unit); at least one second.
    public let lease: Int64

    /// A lease of `lease` microseconds (raised to one second when shorter).
    public init(lease: Int64) {
        self.lease = max(lease, 1_000_000)
    }

    /// The default lease: 30 seconds.
    public static let standard = LeaseTiming(lease: 30_000_000)

    /// The time between two renewals, in microseconds.
    public var renewal: Int64 { lease / 3 }

    /// The end a message renewed at `now` gets: a lease from now (from its `start` when that is
    /// later, so a scheduled message's window is never empty), or its own end when sooner.
    public func end(now: Int64, expires: Int64?, start: Int64? = nil) -> Int64 {
        let from = max(now, start ?? now)
        let leased = from.addingReportingOverflow(lease).overflow ? Int64.max : from + lease
        guard let expires else { return leased }
        return min(leased, expires)
    }
}
