/// Carries a loop-confined value across threads so that it can be handed back to its loop with
/// ``EventLoop/execute(_:)``; reading ``value`` off the loop's thread traps in debug builds.
public struct LoopBound<Value>: @unchecked Sendable {
    /// The loop that owns the value.
    public let loop: EventLoop
    private let storage: Value

    /// Binds `value` to `loop`; call it on the loop's thread.
    public init(_ value: Value, loop: EventLoop) {
        loop.assertInLoopThread()
        self.loop = loop
        storage = value
    }

    /// The value; only on the loop's thread.
    public var value: Value {
        loop.assertInLoopThread()
        return storage
    }
}
