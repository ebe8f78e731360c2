import DBus
import Foundation

/// An ``EventLoop`` running on a thread of its own, for tests that export objects while the test
/// body plays the client. Hand work to it with ``sync(_:)``.
public final class LoopThread: Sendable {
    /// The loop (only ``EventLoop/execute(_:)``, ``EventLoop/stop()`` off its thread).
    public let loop: EventLoop
    /// The kernel thread id of the loop's thread.
    public var threadID: Int32 { loop.threadID }
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread and its loop.
    public init() throws {
        let ready = DispatchSemaphore(value: 0)
        let box = ResultBox<EventLoop>()
        let finished = self.finished
        let thread = Thread {
            do {
                let loop = try EventLoop()
                box.set(.success(loop))
                ready.signal()
                loop.run()
            } catch {
                box.set(.failure(error))
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        loop = try box.get()
    }

    /// Runs `body` on the loop's thread and waits (at most `timeout`) for its result.
    public func sync<T: Sendable>(timeout: Duration = .seconds(30), _ body: @escaping @Sendable () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        loop.execute {
            box.set(Result { try body() })
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout.seconds) == .success else {
            throw TestSupportError("the loop did not run the work within \(timeout)")
        }
        return try box.get()
    }

    /// Stops the loop and waits for the thread to finish.
    public func stop() {
        loop.stop()
        _ = finished.wait(timeout: .now() + 30)
    }
}

/// A lock-protected slot for passing one result between threads.
public final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    /// An empty slot.
    public init() {}

    /// Stores `result`.
    public func set(_ result: Result<T, any Error>) {
        lock.lock()
        self.result = result
        lock.unlock()
    }

    /// The stored result's value, or its error; throws when nothing was stored.
    public func get() throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw TestSupportError("no result") }
        return try result.get()
    }
}
