/// A one-shot timer of an ``EventLoop``: fires once at its deadline, then rests until
/// ``schedule(at:)`` arms it again (handlers often re-arm their own timer). Once its loop is gone,
/// scheduling and cancelling do nothing.
public final class LoopTimer {
    /// The deadline it is armed for, or `nil` when it is not armed.
    public internal(set) var deadline: Deadline?
    let id: UInt64
    let handler: () -> Void
    private weak var loop: EventLoop?

    init(loop: EventLoop, id: UInt64, handler: @escaping () -> Void) {
        self.loop = loop
        self.id = id
        self.handler = handler
    }

    /// Whether the timer is armed.
    public var isScheduled: Bool { deadline != nil }

    /// Arms (or re-arms) the timer for `deadline`; a deadline in the past fires at the next turn.
    public func schedule(at deadline: Deadline) {
        guard let loop else { return }
        loop.assertInLoopThread()
        loop.arm(self, at: deadline)
    }

    /// Disarms the timer. Idempotent.
    public func cancel() {
        guard let loop else { return }
        loop.assertInLoopThread()
        loop.disarm(self)
    }
}
