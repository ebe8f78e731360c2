import DBus
import Foundation

/// An ``EventLoop`` on a thread of its own, for bus clients of the harness; work is handed to it
/// with ``sync(timeout:_:)``.
final class ClientThread: Sendable {
    /// The loop (only `execute` and `stop` off its thread).
    let loop: EventLoop
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread and its loop.
    init() throws {
        let ready = DispatchSemaphore(value: 0)
        let box = ResultSlot<EventLoop>()
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

    /// Runs `body` on the loop's thread and waits (at most `timeout` seconds) for its result.
    func sync<T: Sendable>(timeout: Double = 60, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultSlot<T>()
        loop.execute {
            box.set(Result { try body() })
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw BenchError("a client loop did not run its work within \(timeout) s")
        }
        return try box.get()
    }

    /// Stops the loop and waits for the thread to end.
    func stop() {
        loop.stop()
        _ = finished.wait(timeout: .now() + 30)
    }
}

/// A lock-protected slot passing one result between threads.
final class ResultSlot<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    /// Stores `result`.
    func set(_ result: Result<T, any Error>) {
        lock.lock()
        self.result = result
        lock.unlock()
    }

    /// The stored value, or its error; throws when nothing was stored.
    func get() throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw BenchError("no result") }
        return try result.get()
    }
}
